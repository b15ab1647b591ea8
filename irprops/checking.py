"""``check``: the orchestration of the two checkers (search and proofs) on one target.

The search (``irprops.properties``) refutes; the proofs (``irprops.proofs``) prove; cvc5
gives a second opinion on each proof. Neither checker imports the other: this module runs
both and combines their verdicts, which carry every piece of evidence in its own field.

>>> result = check("P", ["monotonic", "convergent"])
>>> result["monotonic"].verdict, result["monotonic"].witness.data
('no', {'k': 1, 'ranking': ['1', '0'], 'qrels': ['1']})
>>> result["convergent"].method, [lemma.name for lemma in result["convergent"].proof.lemmas]
('proof (all k)', ['form', 'normaliser positive', 'w>0', 'scale positive', 'bring-in'])
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import sympy

from irprops.metrics import Measure, Situation, Undecided, compare
from irprops.metrics.exact import show as show_exact
from irprops.metrics.exact import to_str
from irprops.proofs import Proof, cross_check, prove
from irprops.properties import BuiltinTarget, Scored, Space, make_target, run_search
from irprops.properties.toolkit_target import ToolkitTarget
from irprops.verdicts import CheckResult, Implementation, Prop, Relevance, Search, Verdict, show

from .files import forget_kept_interrupts

__all__ = ["check", "with_proof"]

SCREENED = 200
"""How many scores nearest each end of a proof's stated interval (by their floats) are held against it exactly."""


def check(
    target: str | Measure | Callable[..., Any],
    properties: Iterable[str] | None = None,
    *,
    relevance: Relevance | None = None,
    timeout: float = 1.0,
    budget: float | None = None,
    space: Space | None = None,
    prove: bool = True,
) -> CheckResult:
    """Check ``target`` against the seven properties (or those named), from its definition alone.

    ``target`` is a metric family (``"AP"``, ``"RBP(p=0.5)"``, a :class:`~irprops.metrics.Measure`),
    a proposal ``"path/to/file.py:function"``, or the function itself. ``relevance`` picks
    binary or graded situations; it defaults to the metric's own, and for a proposal to
    its ``relevance`` attribute, else binary. ``timeout`` limits each call of a proposal,
    ``budget`` the seconds each property's search may take (default 30). With ``prove``
    (the default), cells the search does not refute are handed to the proof layer, for
    built-in metrics and proposals declared with a closed form.
    """
    keys = Prop.parse_all(properties)
    subject = make_target(target, relevance, timeout)
    proving = prove and isinstance(subject, BuiltinTarget)
    settled: set[Prop] = set()

    def settle(key: Prop) -> bool:  # asked by the search once its exhaustive phase found no counterexample
        if _proved(subject.measure, key):  # type: ignore[attr-defined]
            settled.add(key)
            return True
        return False

    verdicts = {}
    try:
        found = run_search(subject, keys, budget=budget, space=space, settle=settle if proving else None)
        scored = subject.seen()  # every situation any property's search scored
        for key, searched in found:
            if not proving:
                verdicts[key] = searched
                continue
            verdict = with_proof(subject.measure, searched, scored, proved=key in settled)  # type: ignore[attr-defined]
            if key in settled and verdict.verdict == "unknown" and searched.search is not None and searched.search.stopped is None:
                # the proof did not settle the cell after all (withdrawn or disputed): the search it shortened runs in full
                again = dict(run_search(subject, [key], budget=budget, space=space))[key]
                verdict = with_proof(subject.measure, again, subject.seen(), proved=True)  # type: ignore[attr-defined]
            verdicts[key] = verdict
    except KeyboardInterrupt:
        forget_kept_interrupts()  # it reached the caller: the next check must not raise it again
        raise
    finally:
        subject.close()
    implementation = None
    if isinstance(subject, ToolkitTarget):
        implementation = Implementation(subject.spec.toolkit, subject.name.partition(":")[2], subject.warmup,
                                        len(subject.seen()), subject.calls)
    measure = subject.measure if isinstance(subject, BuiltinTarget) else None
    return CheckResult(subject.name, subject.relevance, verdicts, implementation, measure)


def _proved(measure: Measure, key: Prop) -> bool:
    """Whether the proof layer proves ``key`` of ``measure`` for every k (the search then only cross-checks it; the proof
    is cached, and :func:`with_proof` takes it from there). A proof for k <= K settles nothing deeper, where the search
    is the only judge: it then runs in full."""
    found = prove(measure, key)
    return isinstance(found, Proof) and found.conclusion == "yes" and found.reach.max_k is None


def with_proof(measure: Measure, searched: Verdict, scored: Mapping[Situation, object] | None = None, *,
               proved: bool = True) -> Verdict:
    """The search's verdict, settled by a proof where the proof layer finds one.

    A witness is a fact, so a cell the search refuted keeps its "no", and gets no proof unless one was found before the
    witness (``proved``: the search asked for it once its exhaustive phase found nothing, issue 13): a proof of "yes"
    whose reach covers the witness's depth contradicts it: the proof is withdrawn, and the verdict
    carries it with the reason (a prover bug, shown rather than raised). A proof for k <= K
    and a witness deeper than K do not contradict each other.
    A proof that states the interval every score lies in (a constant c, a bound 0 <= score <= c) is held, exactly,
    against the scores the search computed (``scored``): one outside it withdraws the proof in the same way.
    A proof cvc5 disputes leaves the cell "unknown", with the disputed proof in its field. No proof is given when none
    of the ``scored`` situations has a value: the metric may then have none anywhere, and the proof would be vacuous.
    """
    start = time.perf_counter()
    if searched.verdict == "no":
        found = prove(measure, searched.property) if proved else None
        witness_k = searched.witness.data.get("k") if searched.witness is not None else None
        claimed = found.record() if isinstance(found, Proof) and found.conclusion == "yes" else None
        if claimed is not None and isinstance(witness_k, int) and claimed.covers(witness_k):
            # two sound procedures disagree: the exact witness is a fact, so the proof is wrong; say so, never crash
            why = f"the exact witness at k = {witness_k} contradicts it, so the prover is wrong here (please report it)"
            withdrawn = dataclasses.replace(claimed, withdrawn=why)
            return dataclasses.replace(searched, proof=withdrawn, seconds=searched.seconds + time.perf_counter() - start)
        return dataclasses.replace(searched, seconds=searched.seconds + time.perf_counter() - start)
    found = prove(measure, searched.property)
    if not isinstance(found, Proof):
        return dataclasses.replace(searched, no_proof=found.reason, seconds=searched.seconds + time.perf_counter() - start)
    if scored is not None and not _has_a_value(scored):
        why = (f"the metric has no value at any of the {len(scored):,} situations the search scored, so it may have none "
               f"anywhere, and a proof would then hold only vacuously")
        return dataclasses.replace(searched, no_proof=why, seconds=searched.seconds + time.perf_counter() - start)
    if found.conclusion == "yes" and searched.search is not None and searched.search.stopped is not None:
        return dataclasses.replace(searched, proof=dataclasses.replace(found.record(), unchecked=_unchecked(searched.search)),
                                   seconds=searched.seconds + time.perf_counter() - start)
    outside = _outside(found.scores, scored or {}) if found.conclusion == "yes" and found.scores is not None else None
    if outside is not None:
        withdrawn = dataclasses.replace(found.record(), withdrawn=f"{outside}, so the prover is wrong here (please report it)")
        return dataclasses.replace(searched, proof=withdrawn, seconds=searched.seconds + time.perf_counter() - start)
    second = cross_check(found.obligations)
    seconds = searched.seconds + time.perf_counter() - start  # search, proof and cvc5 cross-check
    record = found.record(second)
    if record.disputed:
        return dataclasses.replace(searched, proof=record, seconds=seconds)
    return Verdict(searched.property, found.conclusion, searched.search, found.witness, record, seconds=seconds)


def _unchecked(search: Search) -> str:
    """Why a proof's self-check did not finish: the search that spot-checks it on the exact metric, at every depth up to
    200 on structured cases (issue 10, item 4), stopped early, and a proof not so checked gives no "yes"."""
    if search.stopped == "hang":
        return "the search that checks it on the exact metric stopped when the proposal hung, so no \"yes\" is given"
    return (f"the search that checks it on the exact metric (its last phase: structured cases at depths up to 200) used its time "
            f"budget of {search.budget:g} s before it finished, so no \"yes\" is given; a larger budget (--budget) lets it finish")


def _has_a_value(scored: Mapping[Situation, object]) -> bool:
    """Whether the exact run gave a value at some situation of ``scored`` (the proofs are about the metric where it has
    one: a twenty-ninth hostile review declared x d / d with d = floor(R / (R + 1)), 0 at every R but not to SymPy, and
    got four properties "proved" of a metric with no value anywhere)."""
    for outcome in scored.values():
        if isinstance(outcome, Scored) and not outcome.numerical:
            try:
                outcome.exact  # noqa: B018 - computed for its failure: a float screen may be defined where the exact run is not
            except Undecided:
                continue
            return True
    return False


def _outside(scores: tuple[sympy.Expr | None, sympy.Expr | None], scored: Mapping[Situation, object]) -> str | None:
    """A score the search computed that lies outside the interval a proof states, shown, or None.

    The floats only pick which scores to compare (the :data:`SCREENED` nearest each end); the comparison is exact.
    """
    defined = [(s, o) for s, o in scored.items() if isinstance(o, Scored) and not o.numerical and not math.isnan(o.approx)]
    for end, side in ((scores[1], 1), (scores[0], -1)):
        if end is None:
            continue
        try:
            screen = float(end) - side * 1e-9 * max(1.0, abs(float(end)))
        except (TypeError, ValueError, OverflowError):
            continue
        for situation, outcome in sorted(defined, key=lambda pair: -side * pair[1].approx)[:SCREENED]:
            if side * outcome.approx < side * screen:
                break
            try:
                beyond = compare(outcome.exact, end) == side
            except (Undecided, ValueError, TypeError):  # a comparison that cannot be decided withdraws nothing
                beyond = False
            if beyond:
                where = "above the upper" if side > 0 else "below the lower"
                return f"{show(situation)} scores {to_str(outcome.exact)}, {where} end of the interval it states ({show_exact(end)})"
    return None
