"""Proofs of the seven properties with Z3 and SymPy, from a metric's closed form, and their certificates.

:func:`prove` tries, for one measure and one property, the arguments its structure allows,
recognised from the closed form of its one declaration (never from its name):

* localized and complete: read off the closed form (:mod:`proofs.syntax`);
* weighted sums c * sum w(i) x_i / N: lemma chains over the weights (:mod:`proofs.weighted`);
* running-state folds: induction with inferred invariants (:mod:`proofs.foldproofs`);
* otherwise, for k up to K only: Z3 on the symbolic form at each depth (:mod:`proofs.bounded`).

It returns a :class:`~irprops.proofs.lemma.Proof` ("yes" for every k, or "no" for an
unboundedness proof with a witness) or a :class:`~irprops.proofs.lemma.Failed` saying why no
proof was found. Every Z3 step is an :class:`~irprops.proofs.smt.Obligation` that
:mod:`irprops.proofs.certificates` writes as SMT-LIB 2 and re-checks with Z3 and cvc5
(:func:`cross_check` asks cvc5 for a second opinion on one proof).

This package never imports the search (``irprops.properties``): both produce the values of
:mod:`irprops.verdicts`, and ``irprops.check`` combines them.

>>> from irprops.metrics import parse
>>> proof = prove(parse("P"), Prop.CONVERGENT)
>>> proof.conclusion, str(proof.reach), [lemma.name for lemma in proof.lemmas]
('yes', 'all k', ['form', 'normaliser positive', 'w>0', 'scale positive', 'bring-in'])
"""

from __future__ import annotations

import dataclasses

import sympy

from irprops.metrics import Measure, in_catalog
from irprops.metrics.exact import breaks, show
from irprops.metrics.timing import reraise_ctrl_c
from irprops.verdicts import Prop

from . import syntax
from .bounded import bounded_proof
from .certificates import cross_check
from .constant import constant, prove_constant
from .foldcheck import FOLD_CHECKED, FOLD_CHECKED_MARKED, disagreement
from .foldproofs import FOLD, MARKED, FoldProver
from .folds import Fold, extract
from .lemma import Failed, Lemma, Proof
from .structure import Prepared, prepare, weighted_sum
from .weighted import CLOSED, WeightedProver

__all__ = ["Failed", "Lemma", "Proof", "clear_cache", "cross_check", "prove"]


def prove(measure: Measure, prop: Prop) -> Proof | Failed:
    """A proof that ``measure`` has (or, for boundedness, lacks) ``prop`` for every k, or why there is none.

    Results are cached per declaration (its formula), parameter values and property.
    """
    prop = Prop(prop)
    key = (measure.metric.formula, tuple(sorted(measure.params.items())), prop)
    if key not in _CACHE:
        try:
            _CACHE[key] = _declared(measure, _prove(measure, prop))
        except Exception as error:  # noqa: BLE001 - a declared formula the provers cannot handle gets no proof, never a crash
            reraise_ctrl_c(error)
            _CACHE[key] = Failed(prop, f"the prover stopped on this formula ({type(error).__name__}: {error})")
    return _CACHE[key]


_CACHE: dict[tuple[object, ...], Proof | Failed] = {}


def clear_cache() -> None:
    """Forget every proof found so far (after a prover changed, as mutation tests do)."""
    _CACHE.clear()
    _FOLDS_CHECKED.clear()


DECLARED = ("the declared formula computes the same function of the situation in every backend: its own code was held "
            "to the formula language while its closed form was built (arithmetic, the algebra's operations, listed SymPy "
            "functions and builtins, the file's own functions and constants; no type, attribute or identity tests, no "
            "state, no other library code; numbers of one type in both runs; every divisor and every argument of a "
            "partial SymPy function recorded as a denominator or shown nonzero or positive by SymPy), its closed form was "
            "built twice, and its forms and its exact form agreed at "
            "depths 1 to 6, 10, 30, 100, 300 and 1000 (as its nesting of sums allows), and each form at a depth that a proof "
            "for k <= K uses agreed with it at that depth; code the proposal leaves running "
            "outside the formula (a thread, a signal handler, a finalizer) does not rebind what the formula reads, and "
            "the proposal does not replace SymPy's or irprops' internals")


def _declared(measure: Measure, found: Proof | Failed) -> Proof | Failed:
    """A proof of a declared (not built-in) metric lists, in its trusted base, what the closed form being the metric rests on."""
    if isinstance(found, Failed) or in_catalog(measure.metric.formula):
        return found
    checked = FOLD_CHECKED_MARKED if MARKED in found.trusted else FOLD_CHECKED
    trusted = (checked if t == FOLD else t for t in found.trusted if t != CLOSED)
    return dataclasses.replace(found, trusted=(*trusted, DECLARED))


def _fold_disagreement(measure: Measure, p: Prepared, fold: Fold) -> str | None:
    """Where a declared metric's fold scores unlike the metric (:mod:`proofs.foldcheck`), once per declaration."""
    key = (measure.metric.formula, tuple(sorted(measure.params.items())), p.open)  # the fold of that closed form
    if key not in _FOLDS_CHECKED:
        _FOLDS_CHECKED[key] = disagreement(p, fold)
    return _FOLDS_CHECKED[key]


_FOLDS_CHECKED: dict[tuple[object, ...], str | None] = {}


def _prove(measure: Measure, prop: Prop) -> Proof | Failed:
    """A proof for every value of the parameters in their proof interval; failing that, for the values the measure is
    bound with (the metric the user wrote: ``(p - 1/2) * RBP`` at p = 3/4 is a positive multiple of RBP)."""
    p = prepare(measure)
    if p is None:
        return Failed(prop, "the metric has no closed form")
    if (nowhere := _nowhere(p, prop)) is not None:
        return nowhere
    if not p.open:
        return _covering(_prove_prepared(measure, prop, p, bounded=True), p)
    found = _prove_prepared(measure, prop, p, bounded=False)
    if isinstance(found, Proof):
        return _covering(found, p)
    fixed = prepare(measure, keep_open=False)
    assert fixed is not None
    at_values = _prove_prepared(measure, prop, fixed, bounded=True)
    if isinstance(at_values, Proof):
        return _covering(at_values, fixed)
    return Failed(prop, f"for {p.reach_of_parameters()}: {found.reason}; for {fixed.reach_of_parameters()}: {at_values.reason}")


def _covering(found: Proof | Failed, p: Prepared) -> Proof | Failed:
    """``found`` saying which parameter values it covers: those of the closed form it is about, unless it says (a proof for
    k <= K, about the forms at each depth, prepares its own)."""
    if isinstance(found, Proof) and not found.parameters:
        return dataclasses.replace(found, parameters=p.reach_of_parameters())
    return found


def _prove_prepared(measure: Measure, prop: Prop, p: Prepared, bounded: bool) -> Proof | Failed:
    """A proof about the closed form ``p`` (its parameters kept open or fixed), and if ``bounded``, for k <= K."""
    unsaid = ("the formula reads unjudged marks (m.unjudged), which a proof must model (a fold over the marks, or the forms "
              "at each depth)" if p.form.reads_unjudged
              else "the formula reads N, the judged nonrelevant documents (m.N), which a proof must model (a fold over the "
              "marks, or the forms at each depth)" if p.form.nonrelevant is not None
              else f"the closed form does not say where the metric is undefined: {p.form.unmodelled[0]}" if p.form.unmodelled else None)
    marked = (p.form.reads_unjudged or p.form.nonrelevant is not None) and not p.form.unmodelled
    if marked and prop not in (Prop.LOCALIZED, Prop.COMPLETE):  # a fold whose steps take each rank's mark may prove all k
        as_fold = _marked_fold(measure, p, prop)
        if isinstance(as_fold, Proof):
            return as_fold
        unsaid = f"{unsaid}; as a fold over the marks: {as_fold.reason}"
    if unsaid is not None and not bounded:
        return Failed(prop, unsaid)
    if unsaid is not None:  # only proofs at each depth, about the forms at those depths, remain
        for_k_up_to = bounded_proof(measure, prop)
        return for_k_up_to if isinstance(for_k_up_to, Proof) else Failed(prop, f"{unsaid}; for k <= K: {for_k_up_to.reason}")
    hidden = p.hidden_denominators() if prop is Prop.REALIZABLE else []
    if hidden:  # an arrangement reaching the supremum must be one where the metric is defined
        return Failed(prop, f"the metric is undefined where {show(hidden[0])} = 0, which its closed form does not divide by: "
                            "no proof that an arrangement reaching the supremum is defined")
    if constant(p) is not None and prop not in (Prop.LOCALIZED, Prop.COMPLETE):
        return prove_constant(p, prop)
    if prop is Prop.LOCALIZED:
        return syntax.localized(p)
    if prop is Prop.COMPLETE:
        return syntax.complete(p)
    reasons = []
    ws = weighted_sum(p)
    fold = extract(p)
    if fold is not None and not in_catalog(measure.metric.formula):  # the catalog's folds are run against it by the tests
        differs = _fold_disagreement(measure, p, fold)
        if differs is not None:
            reasons.append(f"as a fold: {differs}")
            fold = None
    attempts = [("as a weighted sum", lambda: WeightedProver(p, ws).prove(prop))] if ws is not None and not p.open_positive else []
    attempts += [("as a fold", lambda: FoldProver(p, fold).prove(prop))] if fold is not None else []
    for how, attempt in attempts:
        try:
            found = attempt()
        except NotImplementedError as error:  # a term Z3 cannot express (say log2 of a symbolic rank)
            found = Failed(prop, str(error))
        if isinstance(found, Proof) and found.conclusion == "no" and (undefined := p.undefined_on_all_relevant()) is not None:
            # scores above every bound must exist: the all-relevant ranking the proof grows must be defined at every depth
            found = Failed(prop, f"the scores of the all-relevant ranking grow without bound, but the metric divides by "
                                 f"{show(undefined)}, which is not shown nonzero on that ranking at every depth")
        if isinstance(found, Proof):
            return found
        reasons.append(f"{how}: {found.reason}")
    if bounded:
        for_k_up_to = bounded_proof(measure, prop)
        if isinstance(for_k_up_to, Proof):
            return for_k_up_to
        reasons.append(f"for k <= K: {for_k_up_to.reason}")
    return Failed(prop, "; ".join(reasons) or "no weighted-sum or fold structure in the closed form")


def _marked_fold(measure: Measure, p: Prepared, prop: Prop) -> Proof | Failed:
    """A proof for every k about a closed form that reads unjudged marks or N, from its fold program, whose steps take
    each rank's mark as an input and keep the counts the situation model constrains (judged nonrelevant seen <= N). The
    fold is run against the exact form on situations with unjudged documents and N first, catalog metric or not."""
    if prop is Prop.REALIZABLE and p.hidden_denominators():
        return Failed(prop, "the metric is undefined where a denominator its closed form does not divide by is 0")
    fold = extract(p)
    if fold is None or not fold.reads_marks():
        return Failed(prop, "no fold program that takes each rank's mark")
    differs = _fold_disagreement(measure, p, fold)
    if differs is not None:
        return Failed(prop, differs)
    try:
        found = FoldProver(p, fold).prove(prop)
    except NotImplementedError as error:
        return Failed(prop, str(error))
    if isinstance(found, Proof) and found.conclusion == "no" and p.undefined_on_all_relevant() is not None:
        return Failed(prop, "the all-relevant ranking's scores are not shown defined at every depth")
    return found


def _nowhere(p: Prepared, prop: Prop) -> Failed | None:
    """Why no proof may be given when a recorded denominator, with every parameter at the value the measure is bound
    with, is certainly 0: the metric as written has no value anywhere, and a proof would hold only vacuously (a
    twenty-seventh hostile review: binomial(3 - 2^-1016, 2) times a sum was "proved" convergent, about a value the exact
    run says does not exist; a twenty-eighth: x d / d with d = 4 p - 3 at p = 3/4 was "proved" for every p in (0, 1))."""
    fixed = {s: sympy.Rational(v.numerator, v.denominator) for s, v in p.form.params.items()}
    for d, why in p.form.denominators:
        d = sympy.sympify(d).xreplace(fixed)
        if d.is_number and _zero(d):
            return Failed(prop, f"the metric has no value anywhere ({why}): a proof would be about no score at all")
    return None


def _zero(d: sympy.Expr) -> bool:
    """Whether the number ``d`` (a recorded denominator) is certainly 0."""
    try:
        return breaks(d, "nonzero") is True
    except (sympy.SympifyError, TypeError, ValueError):
        return False
