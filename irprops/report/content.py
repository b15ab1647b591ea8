"""What a report on one checked target says, as typed values: its profile, its counterexamples, its proofs.

Everything here is read from the :class:`~irprops.verdicts.CheckResult` (the verdicts carry their evidence as fields);
nothing is parsed back from text, and nothing is decided here: the report shows the evidence the check produced.

>>> from irprops.checking import check
>>> cells = profile(check("P", ["monotonic", "convergent"]))
>>> [(c.prop.value, c.verdict, c.reach) for c in cells]
[('monotonic', 'no', 'counterexample at k = 1'), ('convergent', 'yes', 'for all k')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from irprops.metrics import in_catalog
from irprops.properties import PROPERTIES
from irprops.table.render_text import APPROACH, mark
from irprops.verdicts import CheckResult, Lemma, Prop, Score, Verdict, VerdictValue, ranking_text

Kind = Literal["built-in metric", "declared proposal", "black box", "toolkit metric"]

__all__ = ["Cell", "Counterexample", "Kind", "ProofEntry", "caveat", "counterexamples", "decimal", "kind", "profile", "proofs",
           "standing"]


@dataclass(frozen=True)
class Cell:
    """One property of the profile: its verdict, its reach and a one-line reason, and the evidence mark of Table 2
    (``P``, ``P<=K``, ``W``, ``?``)."""

    prop: Prop
    verdict: VerdictValue
    reach: str
    reason: str
    mark: str


@dataclass(frozen=True)
class Counterexample:
    """A "no" as a reader re-checks it by hand: the statement, the scores it rests on, the statement instantiated."""

    prop: Prop
    title: str
    statement: str
    instance: str
    text: str
    scores: tuple[Score, ...]
    numerical: bool
    data: dict[str, object]
    caveat: str = ""
    """What the witness does not show: the inputs on which the target failed, which the search skipped (a black box's
    inf among the arrangements of a realizability witness is not in its maximum)."""


@dataclass(frozen=True)
class ProofEntry:
    """A proof as a report lists it: its reach and parameters, the lemma chain, the trusted base, cvc5's opinion and
    the certificate files (paths relative to the report's ``certificates/`` folder)."""

    prop: Prop
    conclusion: Literal["yes", "no"]
    reach: str
    parameters: str
    lemmas: tuple[Lemma, ...]
    trusted: tuple[str, ...]
    cross_check: str
    certificates: tuple[str, ...]


def kind(result: CheckResult) -> Kind:
    """What was checked: a catalog metric, a proposal declared with a closed form, a black-box function, a toolkit's."""
    if result.implementation is not None:
        return "toolkit metric"
    if result.measure is None:
        return "black box"
    return "built-in metric" if in_catalog(result.measure.metric.formula) else "declared proposal"


def reach(verdict: Verdict) -> str:
    """How far the verdict reaches: ``for all k``, ``for k <= K``, ``counterexample at k = 3``, ``not refuted: ...``."""
    if verdict.settled_by_proof:
        return f"proved for {verdict.proof.reach}" if verdict.verdict == "no" else f"for {verdict.proof.reach}"  # type: ignore[union-attr]
    if verdict.verdict == "no" and verdict.witness is not None:
        k = verdict.witness.data.get("k")
        return f"counterexample at k = {k}" if isinstance(k, int) else "counterexample"
    search = verdict.search
    if search is None:
        return "no search"
    stopped = {"hang": ", stopped by a call that hung", "budget": ", stopped by its time budget"}.get(search.stopped or "", "")
    counted = f"{search.tried:,} {search.unit}" + ("" if search.unit.endswith("scored") else " tried")
    return f"not refuted: {counted}{stopped}"


def caveat(verdict: Verdict) -> str:
    """The inputs the search skipped because the target failed on them, in one sentence ("" when there were none)."""
    search = verdict.search
    if search is None or not search.defects:
        return ""
    first = search.first_defect
    where = f"; the first: {first.problem}, on {_situation(first.situation)}" if first is not None else ""
    return (f"The target failed on {search.defects:,} input{'s' if search.defects != 1 else ''}, which the search skipped{where}: "
            "the statement is instantiated over the inputs it could score")


def _situation(data: Mapping[str, object]) -> str:
    ranking = data.get("ranking")
    shown = f"`{ranking_text(ranking)}`" if isinstance(ranking, list) else "a situation"  # type: ignore[arg-type]
    return f"{shown} (k = {data.get('k')}, qrels {{{','.join(map(str, data.get('qrels', [])))}}})"  # type: ignore[call-overload]


def standing(verdict: Verdict) -> str:
    """A cell as profiles are compared: its verdict, and for a "yes" proved for k <= K only, that reach (``yes, k <= 20``):
    such a cell is not the same as a "yes" for every k."""
    if verdict.verdict == "yes" and verdict.proof is not None and verdict.proof.reach.max_k is not None:
        return f"yes, k <= {verdict.proof.reach.max_k}"
    return verdict.verdict


def reason(verdict: Verdict) -> str:
    """One line: the proof's approach, the witness's sentence, or why the cell stays unknown."""
    if verdict.settled_by_proof:
        proof = verdict.proof
        assert proof is not None
        approach = APPROACH.get(proof.lemmas[0].name, proof.lemmas[0].name) if proof.lemmas else "proof"
        methods = sorted({lemma.method for lemma in proof.lemmas})
        checked = f"; cvc5: {proof.cross_check.status}" if proof.cross_check is not None else ""
        lemmas = f"{len(proof.lemmas)} lemma{'s' if len(proof.lemmas) != 1 else ''}"
        return f"proof by {approach}: {lemmas} ({', '.join(methods)}){checked}"
    if verdict.verdict == "no" and verdict.witness is not None:
        skipped = caveat(verdict)
        return (verdict.witness.text + (" (numerical evidence: float scores)" if verdict.witness.numerical else "")
                + (f". {skipped}" if skipped else ""))
    if verdict.proof is not None and (verdict.proof.withdrawn or verdict.proof.unchecked or verdict.proof.disputed):
        why = verdict.proof.withdrawn or verdict.proof.unchecked or "Z3 and cvc5 disagree"
        return f"a proof was found but gives no verdict: {why}"
    if verdict.no_proof:
        return f"no counterexample found; no proof: {verdict.no_proof}"
    return "no counterexample found; only a proof could say yes, and none was tried (search only)"


def profile(result: CheckResult) -> list[Cell]:
    """The profile over the properties checked, in the paper's column order."""
    return [Cell(p, v.verdict, reach(v), reason(v), mark(v)) for p, v in result.verdicts.items()]


def counterexamples(result: CheckResult) -> list[Counterexample]:
    """Every "no" with its witness, with the property's statement and its instance on the witness."""
    found = []
    for p, v in result.verdicts.items():
        if v.verdict != "no" or v.witness is None:
            continue
        prop = PROPERTIES[p]
        found.append(Counterexample(p, prop.title, prop.statement, prop.instance(v.witness), v.witness.text, v.witness.scores,
                                    v.witness.numerical, dict(v.witness.data), caveat(v)))
    return found


def proofs(result: CheckResult) -> list[ProofEntry]:
    """Every proof that settles a cell (a "yes", or a proved "no" such as unboundedness)."""
    found = []
    for p, v in result.verdicts.items():
        if not v.settled_by_proof or v.proof is None:
            continue
        proof = v.proof
        checked = proof.cross_check.detail if proof.cross_check is not None else "not cross-checked"
        found.append(ProofEntry(p, proof.conclusion, str(proof.reach), proof.parameters, proof.lemmas, proof.trusted, checked,
                                proof.certificates))
    return found


def decimal(score: Score) -> str:
    """A score as a decimal a reader can compare: ten significant digits (from the exact value where the witness has
    one), ``undefined`` where it has no value.

    >>> decimal(Score("at k = 1", {}, "1/3", 1 / 3, "0.3333333333")), decimal(Score("at k = 1", {}, None, None))
    ('0.3333333333', 'undefined')
    """
    if score.decimal is not None:
        return score.decimal
    return "undefined" if score.value is None else f"{score.value:.10g}"
