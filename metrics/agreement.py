"""Defence in depth for declared formulas: their symbolic forms and their exact form must agree where both are computed.

A formula held to the formula language computes the same function in every backend (README: what a proof rests on);
this check looks for a disagreement anyway, on structured situations at depths up to 1000, and refuses the formula
if it finds one. It is not a proof of agreement.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING

import sympy

from . import exact
from .algebra import Undefined
from .errors import InputError, NotExpressible, Undecided
from .exact import Exact
from .situation import Situation, judged_nonrelevant
from .symbolic import MaxOver, SymbolicForm

if TYPE_CHECKING:
    from .registry import Measure

__all__ = ["AGREEMENT_DEPTHS", "AGREEMENT_TERMS", "check_agreement", "check_depth_agreement"]


def check_agreement(measure: Measure, forms: list[SymbolicForm | None]) -> None:
    """Refuse a declared formula whose symbolic forms and exact form disagree on structured situations.

    A formula can tell the backends apart in ways no guard sees (``isinstance(m.k, int)``), and then its
    forms are not the metric. This looks at depths 1 to 6, 10, 30, 100, 300 and 1000 (the all-0 and
    all-1 rankings, a single relevant document at rank k and at k + 1, none with R = 2k + 60, and those rankings with
    each R where a divisor of a form vanishes), as deep as AGREEMENT_TERMS allows for the form's nesting of sums: a
    disagreement is an error
    naming the situation. It is defence in depth, not a proof of agreement (README: what a proof rests on).
    """
    closed, per_depth = forms[0], {f.k: f for f in forms[1:] if f is not None}
    disagreement = _first_disagreement(measure, closed, per_depth)
    if disagreement is None:
        return
    unmodelled = [why for form in (closed, *per_depth.values()) if form is not None for why in form.unmodelled]
    _refuse(measure, *disagreement, unmodelled=unmodelled[:1])


def check_depth_agreement(measure: Measure, form: SymbolicForm, k: int) -> None:
    """Refuse a declared formula whose form at depth ``k`` disagrees with its exact form at depth ``k``.

    Proofs for k <= K are about the forms at depths 1 to K, which :func:`check_agreement` compares only at depths
    1 and 2: each is compared here, before a proof uses it, on the structured situations at depth k and on
    VARIED situations drawn (the same ones on every run) from the metric's grade scale, with R at and above the
    relevant documents ranked, and on those where a divisor of the form vanishes as R varies. Defence in depth, not a
    proof of agreement.
    """
    bases = [*_structured(k), *_varied(k, measure.metric.binary)]
    for situation in [*_marked(bases, [form]), *_where_divisors_vanish(form, bases)]:
        value = _exact(measure, situation, k)
        found = _at(form, situation)
        if not _agree(found, value):
            undefined = isinstance(found, Undefined) != isinstance(value, Undefined) and not isinstance(found, str)
            _refuse(measure, k, situation, undefined, _side(False, found, value) if undefined else None,
                    unmodelled=list(form.unmodelled[:1]))


ZERO_R = 10_000
"""The largest R at which :func:`_where_divisors_vanish` puts a situation (its qrels are written out)."""


def _where_divisors_vanish(form: SymbolicForm, bases: list[Situation]) -> list[Situation]:
    """Situations where the form divides by zero, found as R varies: for each base situation and each divisor of the
    form (a recorded denominator, or the base of a negative power in it), the integer roots R of its numerator (a
    polynomial in R), and R - 1 and R + 1 beside them, with the base's ranking and further relevant documents of grade 1.

    A twelfth hostile review found a form that called the metric undefined at R = 500 only (a power recorded as a
    divisor), where the exact form had a value; no structured or drawn situation has R = 500. Defence in depth.
    """
    divisors = [d for d, _ in form.denominators]
    divisors += [a.base for a in sympy.preorder_traversal(form.expr) if isinstance(a, sympy.Pow) and a.exp.is_negative
                 and not a.base.has(sympy.Sum, sympy.Product, MaxOver)]
    found: dict[tuple[object, ...], Situation] = {}
    for base in bases[:len(bases) // 2 + 1]:
        for divisor in divisors:
            for R in _roots_in_R(form, divisor, base):
                for near in (R - 1, R, R + 1):
                    extra = near - len([g for g in base.ranking if g])
                    if 0 <= extra and near <= ZERO_R:
                        qrels = tuple(sorted([g for g in base.ranking if g] + [Fraction(1)] * extra, reverse=True))
                        found.setdefault((base.ranking, near), Situation(base.ranking, base.k, qrels))
    return list(found.values())


def _roots_in_R(form: SymbolicForm, divisor: sympy.Expr, base: Situation) -> list[int]:
    """The nonnegative integer roots R of ``divisor``'s numerator at ``base``'s grades, where it is a polynomial in R
    (of degree at most 12) and nothing else is left open."""
    R = form.R
    try:
        divisor = form.in_R(divisor, base)
        sums = {p.base for p in divisor.atoms(sympy.Pow) if p.exp.is_negative and p.base.is_Add}
        if R not in divisor.free_symbols or len(sums) > exact.FORMAL_DIVISORS:
            return []  # no root in R, or a common denominator too costly to form (1000 weights: round 35)
        numerator = sympy.together(divisor).as_numer_denom()[0]
        if numerator.free_symbols != {R}:
            return []
        polynomial = sympy.Poly(numerator, R)
        if not 1 <= polynomial.degree() <= 12 or not polynomial.domain.is_QQ and not polynomial.domain.is_ZZ:
            return []
        return sorted({int(root) for root in polynomial.ground_roots() if root.is_Integer and 0 <= root <= ZERO_R + 1})
    except (sympy.PolynomialError, sympy.SympifyError, TypeError, ValueError, NotImplementedError):
        return []


def _marked(bases: list[Situation], forms: list[SymbolicForm | None]) -> list[Situation]:
    """``bases``, and where a form reads unjudged marks, each also with its first document unjudged and with its last
    rank down to the depth missing (a short run: unjudged there); where a form reads N, each with N its judged
    nonrelevant documents and two more (without N such a form and the exact run are both undefined: no evidence)."""
    marks = any(f is not None and f.reads_unjudged for f in forms)
    counted = any(f is not None and f.nonrelevant is not None for f in forms)
    found = list(bases)
    if marks:
        found += [Situation((None, *s.ranking[1:]), s.k, s.qrels) for s in bases if s.ranking and not s.ranking[0]]
        found += [Situation(s.ranking[: s.k - 1], s.k, s.qrels) for s in bases if s.k > 1 and not any(s.ranking[s.k - 1 :])]
    if counted:
        found = [s.with_nonrelevant(judged_nonrelevant(s.ranking) + extra) for s in found for extra in (0, 2)]
    return found


VARIED = 6
"""How many drawn situations :func:`check_depth_agreement` adds to the structured ones at each depth."""


def _varied(k: int, binary: bool) -> list[Situation]:
    """VARIED situations at depth k (rankings of k + 2 documents), the same on every run."""
    draw = random.Random(f"irprops agreement at depth {k}")
    scale = (Fraction(0), Fraction(1)) if binary else (Fraction(0), Fraction(1, 2), Fraction(1))
    situations = []
    for _ in range(VARIED):
        ranking = tuple(draw.choice(scale) for _ in range(k + 2))
        qrels = tuple(sorted([g for g in ranking if g] + [Fraction(1)] * draw.randint(0, 3), reverse=True))
        situations.append(Situation(ranking, k, qrels))
    return situations


def _exact(measure: Measure, situation: Situation, k: int) -> Exact | Undefined:
    try:
        return measure.exact(situation)
    except InputError:
        raise
    except Exception as error:  # noqa: BLE001 - the formula's own failure, named for its author
        raise InputError("formula", measure.name, f"its exact form fails at k = {k}: {type(error).__name__}: "
                         f"{str(error)[:200]}", _fix_for(error)) from None


def _fix_for(error: Exception) -> str:
    """What to write instead, for a failure of the exact run."""
    if isinstance(error, ValueError) and "is not comparable" in str(error):  # SymPy's Min and Max (log2(9) - 2 log2(3))
        return ("use m.min and m.max, which order numbers by certified signs: SymPy's Min and Max refuse a number they "
                "cannot evaluate to one significant digit, such as one that is exactly 0 but not written as 0")
    return "compute with exact numbers and the algebra's operations"


def _refuse(measure: Measure, k: int, situation: Situation, undefined: bool, side: str | None = None,
            unmodelled: list[str] | None = None) -> None:
    ones = [r for r, g in enumerate(situation.ranking, start=1) if g]
    where = ", ".join(map(str, ones)) if len(ones) <= 3 else f"1 to {ones[-1]}"
    shown = f"{len(situation.ranking)} documents, relevant at {where}" if ones else f"{len(situation.ranking)} nonrelevant documents"
    if undefined and unmodelled:  # the forms list a condition they cannot write as a denominator: that is the cause
        raise InputError("formula", measure.name,
                         f"its symbolic form and its exact form disagree at k = {k} on {shown} (R = {situation.R}): one has a "
                         f"value where the other is undefined, because the symbolic form cannot say where a condition of the "
                         f"formula fails ({unmodelled[0]}), so no proof could be about it",
                         "compute every quantity where it has a value (Python computes both branches of a "
                         "sympy.Piecewise: write sympy.log(m.max(m.k - 5, 1)), not sympy.log(m.k - 5) in a branch for "
                         "k >= 6), or say where the metric is undefined with m.div(x, d, why)")
    if undefined:
        raise InputError("formula", measure.name,
                         f"its symbolic form and its exact form disagree at k = {k} on {shown} (R = {situation.R}): one has a "
                         f"value where the other is undefined{f' ({side})' if side else ''}, so the forms cannot say where the "
                         "metric is defined and no proof could be about it",
                         "write each quantity so that it has a value wherever it is computed (a power with an integer "
                         "exponent or a nonnegative base: sympy.Piecewise on sympy.Mod(m.k, 2) for a sign that alternates "
                         "with k), or a condition on the situation with m.div(x, d, why) or sympy.Piecewise")
    raise InputError("formula", measure.name,
                     f"its symbolic form and its exact form disagree at k = {k} on {shown} (R = {situation.R}): the formula "
                     "inspects its arguments (their type, text or attributes) in a way the forms cannot follow, so no proof "
                     "could be about it", "compute with the values only: arithmetic, the algebra's operations, SymPy functions")


AGREEMENT_DEPTHS = (1, 2, 3, 4, 5, 6, 10, 30, 100, 300, 1000)
"""Depths at which a declared formula's symbolic forms are compared with its exact form."""


def _structured(k: int) -> list[Situation]:
    one, zero = Fraction(1), Fraction(0)
    rankings = [(zero,) * (k + 1), (one,) * (k + 1), (zero,) * (k - 1) + (one, zero), (zero,) * k + (one,)]
    far = Situation((zero,) * (k + 1), k, (one,) * (2 * k + 60))  # R far above k: sums up to R pass the depth
    return [*(Situation(r, k, tuple(g for g in r if g)) for r in rankings), far]


AGREEMENT_TERMS = 10_000
"""The agreement check writes a closed form out at depth k only while k ** (its nesting of sums) stays
below this: a sum of sums at k = 1000 is a million terms. A budget in terms, not seconds, so that
whether a formula is refused never depends on the machine."""


def _nesting(expr: sympy.Basic) -> int:
    """How deeply sums, products and maxima nest in ``expr``."""
    inner = max((_nesting(a) for a in expr.args), default=0)
    return inner + 1 if isinstance(expr, (sympy.Sum, sympy.Product, MaxOver)) else inner


def _first_disagreement(measure: Measure, closed: SymbolicForm | None,
                        per_depth: dict[object, SymbolicForm]) -> tuple[int, Situation, bool, str | None] | None:
    """The first (depth, situation) where a symbolic form and the exact form disagree, within the term budget,
    whether one of them is undefined there, and which one and why."""
    nesting = max(_nesting(closed.expr), 1) if closed is not None else 1
    for k in AGREEMENT_DEPTHS:
        if k ** nesting > AGREEMENT_TERMS and k not in per_depth:
            break
        forms = (closed if k ** nesting <= AGREEMENT_TERMS else None, per_depth.get(k))
        bases = _structured(k)
        vanishing = [s for form in forms if form is not None for s in _where_divisors_vanish(form, bases)]
        for situation in [*_marked(bases, list(forms)), *vanishing]:
            value = _exact(measure, situation, k)
            for form in forms:
                found = _at(form, situation) if form is not None else None
                if form is not None and not _agree(found, value):
                    undefined = isinstance(found, Undefined) != isinstance(value, Undefined) and not isinstance(found, str)
                    return k, situation, undefined, _side(form is closed, found, value) if undefined else None
    return None


def _side(closed: bool, found: Exact | Undefined | str | None, value: Exact | Undefined) -> str:
    """Which form has no value, and why (the reason its Undefined carries)."""
    which, missing = (("closed form" if closed else "form at that depth"), found) if isinstance(found, Undefined) else \
        ("exact run", value)
    assert isinstance(missing, Undefined)
    return f"the {which} has none" + (f": {missing.reason}" if missing.reason else "")


def _at(form: SymbolicForm, situation: Situation) -> Exact | Undefined | str | None:
    """The form's value; None where it cannot be decided (a sum SymPy leaves unevaluated, a sign it cannot certify);
    the error's text where the form cannot be evaluated at all (a symbol it cannot replace), which is a disagreement."""
    try:
        return form.at(situation)
    except (Undecided, NotExpressible):
        return None
    except (TypeError, ValueError, KeyError) as error:
        return f"{type(error).__name__}: {error}"[:200]


def _agree(a: Exact | Undefined | str | None, b: Exact | Undefined) -> bool:
    if a is None:
        return True  # no value: not evidence of a disagreement
    if isinstance(a, str):
        return False  # the form cannot be evaluated where the exact form can
    if isinstance(a, Undefined) or isinstance(b, Undefined):
        return isinstance(a, Undefined) and isinstance(b, Undefined)
    try:
        return exact.compare(a, b) == 0
    except Undecided:
        return True  # no decision: not evidence of a disagreement
