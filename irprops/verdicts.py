"""The verdict vocabulary shared by the search (``irprops.properties``) and the proofs (``irprops.proofs``).

This module sits between the metrics and the two checkers: it imports only
``irprops.metrics``, and both checkers produce its values, so neither needs the other.

* :class:`Prop`: the seven property names, one enum in the paper's column order;
* :class:`Witness`: a counterexample, in the JSON shape its property defines;
* :class:`Lemma`, :class:`Reach`, :class:`CrossCheck` and :class:`ProofRecord`: a proof as data
  (its reach, its lemma chain, its trusted base, cvc5's second opinion);
* :class:`Search`: what a refutation search did (method, sentence, candidates tried);
* :class:`Verdict` and :class:`CheckResult`: "yes", "no" or "unknown" with all of the above in
  their own fields. ``method`` and ``evidence`` are sentences rendered from those fields.

A "no" always carries a :class:`Witness`; a "yes" always carries a proof.

>>> Prop.parse("top-weighted") is Prop.TOP_WEIGHTED
True
>>> str(Reach(20)), str(Reach())
('k <= 20', 'all k')
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, Literal

from irprops.metrics import InputError, Measure, Situation
from irprops.metrics.errors import close_matches
from irprops.metrics.grades import format_grade, format_ranking, parse_grade
from irprops.metrics.registry import Relevance

VerdictValue = Literal["yes", "no", "unknown"]
LemmaMethod = Literal["Z3", "SymPy", "meta-step", "structure", "exact arithmetic"]

__all__ = [
    "COLUMNS",
    "CheckResult",
    "CrossCheck",
    "Lemma",
    "LemmaMethod",
    "Problem",
    "ProofRecord",
    "Prop",
    "Reach",
    "Relevance",
    "Score",
    "Search",
    "Verdict",
    "VerdictValue",
    "Witness",
    "grades_json",
    "ranking_text",
    "show",
    "situation_json",
]


class Prop(StrEnum):
    """The seven properties of Moffat (AIRS 2013), in the paper's column order (a ``str``: ``Prop.BOUNDED == "bounded"``)."""

    BOUNDED = "bounded"
    MONOTONIC = "monotonic"
    CONVERGENT = "convergent"
    TOP_WEIGHTED = "top_weighted"
    LOCALIZED = "localized"
    COMPLETE = "complete"
    REALIZABLE = "realizable"

    @classmethod
    def parse(cls, name: str) -> Prop:
        """The property a user means (``top-weighted``, ``Top_Weighted``); an :class:`InputError` suggests the nearest.

        >>> Prop.parse("monotone")
        Traceback (most recent call last):
        ...
        irprops.metrics.errors.InputError: property = 'monotone': unknown property (did you mean monotonic?)
        """
        key = name.strip().lower().replace("-", "_")
        if key in cls._value2member_map_:
            return cls(key)
        suggestions = close_matches(key, [p.value for p in cls])
        hint = f"did you mean {' or '.join(suggestions)}?" if suggestions else f"the properties are {', '.join(p.value for p in cls)}"
        raise InputError("property", name, "unknown property", hint)

    @classmethod
    def parse_all(cls, names: Iterable[str] | None) -> list[Prop]:
        """Properties from user input, in the order given; all seven when none are named."""
        keys = [cls.parse(name) for name in names or ()]
        return keys or list(cls)


COLUMNS: tuple[Prop, ...] = tuple(Prop)
"""The paper's column order."""


def grades_json(grades: Iterable[Fraction | None]) -> list[str]:
    """Grades as the JSON witnesses write them: ``["1", "1/2", "0"]``."""
    return [format_grade(g) for g in grades]


def ranking_text(grades: Iterable[str]) -> str:
    """A witness's grades (as :func:`grades_json` writes them) as the paper writes a ranking.

    >>> ranking_text(["1", "0", "?"]), ranking_text(["1/2", "1"])
    ('10?', '1/2,1')
    """
    return format_ranking(parse_grade(g) for g in grades)


def situation_json(s: Situation) -> dict[str, Any]:
    """``{"k", "ranking", "qrels"}`` with grades as strings, and ``"N"`` where the situation gives it."""
    return {"k": s.k, "ranking": grades_json(s.ranking), "qrels": grades_json(s.qrels), **collection_json(s)}


def collection_json(s: Situation) -> dict[str, Any]:
    """``{"N": ...}`` where the situation gives its collection's judged nonrelevant documents, else nothing."""
    return {} if s.nonrelevant is None else {"N": s.nonrelevant}


def show(s: Situation, *, k: bool = True) -> str:
    """A situation the way the paper writes it: ```10100` (k = 5, R = 2)``, qrels spelled out when graded (and N, the
    judged nonrelevant documents of the collection, where given)."""
    qrels = f"R = {s.R}" if all(g == 1 for g in s.qrels) else f"qrels {{{','.join(grades_json(s.qrels))}}}"
    depth = f"k = {s.k}, " if k else ""
    N = "" if s.nonrelevant is None else f", N = {s.nonrelevant}"
    return f"`{format_ranking(s.ranking)}` ({depth}{qrels}{N})"


SHOWN_CHARS = 120
"""The longest exact value :meth:`Score.shown` writes out whole."""


@dataclass(frozen=True)
class Score:
    """One score a witness rests on, as the search computed it: its role in the statement (``at k = 1``, ``after the
    swap``), the situation (as :func:`situation_json` writes it), the exact value (None for a float a black box or a
    toolkit returned) and the value as a float (None where the metric is undefined). Reports print these; nothing
    decides a verdict from them.

    >>> Score("at k = 1", {"k": 1, "ranking": ["1", "0"], "qrels": ["1"]}, "1", 1.0).shown()
    '1'
    """

    role: str
    situation: Mapping[str, Any]
    exact: str | None
    value: float | None
    decimal: str | None = None
    """The value to ten significant digits, from the exact value where there is one (a float's range would clamp
    10**400 and flush 10**-400 to 0); None where the metric is undefined."""

    def shown(self) -> str:
        """The value for people: exact where known (past :data:`SHOWN_CHARS` characters, its beginning, its length and
        its decimal: the whole is in ``exact``), else the float, else ``undefined``."""
        if self.exact is not None:
            if len(self.exact) <= SHOWN_CHARS:
                return self.exact
            return f"{self.exact[:40]}... ({len(self.exact):,} characters, about {self.decimal})"
        return "undefined" if self.value is None else repr(self.value)

    def to_record(self) -> dict[str, Any]:
        return {"role": self.role, "situation": dict(self.situation), "exact": self.exact, "value": self.value,
                "decimal": self.decimal}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Score:
        return cls(record["role"], record["situation"], record["exact"], record["value"], record.get("decimal"))


@dataclass(frozen=True)
class Witness:
    """A counterexample: the JSON shape the property defines, a sentence a person can re-check, and the scores it rests
    on (:class:`Score`, where the property compares scores)."""

    data: Mapping[str, Any]
    text: str
    numerical: bool = False
    weak: bool = False
    """A counterexample the search keeps only if it finds no stronger one (see SearchProperty.preferred)."""
    fresh_process: bool = False
    """A proposal's witness whose scores a fresh Python process reproduced (properties.fresh)."""
    scores: tuple[Score, ...] = ()

    def to_record(self) -> dict[str, Any]:
        record = {"data": dict(self.data), "text": self.text, "numerical": self.numerical, "weak": self.weak}
        if self.scores:
            record["scores"] = [score.to_record() for score in self.scores]
        return {**record, "fresh_process": True} if self.fresh_process else record

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Witness:
        return cls(record["data"], record["text"], record["numerical"], record.get("weak", False), record.get("fresh_process", False),
                   tuple(Score.from_record(s) for s in record.get("scores", ())))


@dataclass(frozen=True)
class Reach:
    """How far a proof reaches: every depth k (``max_k`` None), or k <= ``max_k``."""

    max_k: int | None = None

    def __str__(self) -> str:
        return "all k" if self.max_k is None else f"k <= {self.max_k}"

    @builtins.property
    def all_k(self) -> bool:
        return self.max_k is None


@dataclass(frozen=True)
class Lemma:
    """One step of a proof: a name, what it states, how it was shown, its certificate and the hypotheses it used."""

    name: str
    statement: str
    method: LemmaMethod
    certificate: str | None = None
    """For Z3 lemmas: the certificate's path, relative to the certificate folder."""
    used: tuple[str, ...] = ()
    """For Z3 lemmas, the hypotheses the unsat core used."""

    def line(self) -> str:
        how = self.method + (f", {self.certificate}" if self.certificate else "")
        used = f"; used: {', '.join(self.used)}" if self.used else ""
        return f"{self.name} ({how}): {self.statement}{used}"

    def to_record(self) -> dict[str, Any]:
        return {"name": self.name, "statement": self.statement, "method": self.method, "certificate": self.certificate,
                "used": list(self.used)}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Lemma:
        return cls(record["name"], record["statement"], record["method"], record["certificate"], tuple(record["used"]))


CrossCheckStatus = Literal["confirmed", "disagreement", "unconfirmed", "skipped"]


@dataclass(frozen=True)
class CrossCheck:
    """cvc5's opinion of a proof's obligations: all unsat, one refuted (a disagreement), not confirmed, or not run."""

    status: CrossCheckStatus
    detail: str

    def to_record(self) -> dict[str, Any]:
        return {"status": self.status, "detail": self.detail}


@dataclass(frozen=True)
class ProofRecord:
    """A proof as a verdict carries it: what it concludes, its reach, its lemmas and trusted base, cvc5's opinion."""

    conclusion: Literal["yes", "no"]
    reach: Reach
    lemmas: tuple[Lemma, ...]
    trusted: tuple[str, ...]
    cross_check: CrossCheck | None = None
    """None when no cross-check was asked for (a proof on its own)."""
    withdrawn: str | None = None
    """Why the proof was withdrawn: an exact witness within its reach contradicts it (a prover bug, reported, never hidden)."""
    unchecked: str | None = None
    """Why the proof was not self-checked on the exact metric (the search that does it stopped early): it then gives no
    "yes", and the cell stays unknown with the proof in this field."""
    parameters: str = ""
    """The parameter values the proof covers (``every p in (0, 1)``, ``every beta > 0``, ``b = 2``); empty without any."""

    @builtins.property
    def certificates(self) -> tuple[str, ...]:
        """The certificate files the lemmas cite, sorted, each once."""
        return tuple(sorted({lemma.certificate for lemma in self.lemmas if lemma.certificate}))

    @builtins.property
    def disputed(self) -> bool:
        return self.cross_check is not None and self.cross_check.status == "disagreement"

    def covers(self, k: int) -> bool:
        """Whether the proof's reach includes depth k."""
        return self.reach.max_k is None or k <= self.reach.max_k

    def text(self) -> str:
        """The lemma chain and the trusted base as one paragraph."""
        chain = " ".join(f"[{n}] {lemma.line()}." for n, lemma in enumerate(self.lemmas, start=1))
        return f"{chain} Trusted: {'; '.join(self.trusted)}."

    def to_record(self) -> dict[str, Any]:
        return {
            "conclusion": self.conclusion,
            "reach": str(self.reach),
            "max_k": self.reach.max_k,
            "lemmas": [lemma.to_record() for lemma in self.lemmas],
            "trusted": list(self.trusted),
            "certificates": list(self.certificates),
            "cross_check": self.cross_check.to_record() if self.cross_check else None,
            "withdrawn": self.withdrawn,
            "unchecked": self.unchecked,
            "parameters": self.parameters,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> ProofRecord:
        cc = record["cross_check"]
        return cls(record["conclusion"], Reach(record["max_k"]), tuple(Lemma.from_record(x) for x in record["lemmas"]),
                   tuple(record["trusted"]), CrossCheck(cc["status"], cc["detail"]) if cc else None, record.get("withdrawn"),
                   record.get("unchecked"), record.get("parameters", ""))


@dataclass(frozen=True)
class Problem:
    """What a proposal did wrong on one input: the problem in words, and the situation (``{"k", "ranking", "qrels"}``)."""

    problem: str
    situation: Mapping[str, Any]

    def to_record(self) -> dict[str, Any]:
        return {"problem": self.problem, "situation": dict(self.situation)}

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | None) -> Problem | None:
        return cls(record["problem"], record["situation"]) if record else None


@dataclass(frozen=True)
class Search:
    """What one property's refutation search did: how, the sentence it reports, and its counts in their units."""

    method: str
    evidence: str
    tried: int = 0
    unit: str = "cases"
    """What ``tried`` counts: "cases", "swaps", "pairs", "arrangements", "situations scored"."""
    minimal: bool = False
    """The witness is the first in the exhaustive order (k, then ranking length, then R)."""
    defects: int = 0
    """Inputs on which a proposal misbehaved (skipped)."""
    first_defect: Problem | None = None
    stopped: Literal["hang", "budget"] | None = None
    """Why the search ended early: a call that hung (``hang``), or the time budget."""
    hang: Problem | None = None
    budget: float | None = None
    """The seconds the search was allowed."""
    seconds: float = field(default=0.0, compare=False)

    def to_record(self) -> dict[str, Any]:
        return {
            "method": self.method, "evidence": self.evidence, "tried": self.tried, "unit": self.unit, "minimal": self.minimal,
            "defects": self.defects, "first_defect": self.first_defect.to_record() if self.first_defect else None,
            "stopped": self.stopped, "hang": self.hang.to_record() if self.hang else None, "budget": self.budget,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any], seconds: float = 0.0) -> Search:
        return cls(record["method"], record["evidence"], record["tried"], record["unit"], record["minimal"], record["defects"],
                   Problem.from_record(record["first_defect"]), record["stopped"], Problem.from_record(record["hang"]),
                   record["budget"], seconds)


@dataclass(frozen=True)
class Verdict:
    """The verdict on one property of one metric, with its evidence as data.

    ``search`` is the refutation search (None for a proof on its own), ``witness`` the
    counterexample of a "no", ``proof`` the proof of a "yes" (or of an unboundedness "no",
    or a proof cvc5 disputes, which leaves the cell "unknown"), ``no_proof`` why the proof
    layer found none.
    """

    property: Prop
    verdict: VerdictValue
    search: Search | None = None
    witness: Witness | None = None
    proof: ProofRecord | None = None
    no_proof: str | None = None
    seconds: float = field(default=0.0, compare=False)

    def __post_init__(self) -> None:
        if self.verdict == "no" and self.witness is None:
            raise ValueError(f"{self.property}: a 'no' needs a witness")
        if self.verdict == "yes" and (self.proof is None or self.proof.conclusion != "yes" or self.proof.disputed or self.proof.withdrawn
                                      or self.proof.unchecked):
            raise ValueError(f"{self.property}: a 'yes' needs an undisputed, self-checked proof")
        if self.search is None and self.proof is None:
            raise ValueError(f"{self.property}: a verdict needs a search or a proof")

    @builtins.property
    def settled_by_proof(self) -> bool:
        """Whether a proof (not the search) decides this cell."""
        return (self.proof is not None and not self.proof.disputed and not self.proof.withdrawn and not self.proof.unchecked
                and self.proof.conclusion == self.verdict)

    @builtins.property
    def method(self) -> str:
        """How the verdict was reached, in a few words: ``proof (all k)``, ``exhaustive search, exact arithmetic``, ..."""
        if self.proof is not None and self.proof.disputed:
            return "proof disputed: Z3 and cvc5 disagree"
        if self.settled_by_proof:
            return f"proof ({self.proof.reach})"  # type: ignore[union-attr]
        return self.search.method  # type: ignore[union-attr]

    @builtins.property
    def evidence(self) -> str:
        """The evidence as one paragraph, rendered from the fields (for people; programs read the fields)."""
        search = self.search.evidence if self.search is not None else ""
        if self.proof is not None and self.proof.withdrawn:
            return f"{search} A proof ({self.proof.reach}) was withdrawn: {self.proof.withdrawn}."
        if self.proof is not None and self.proof.unchecked:
            return f"{search} A proof ({self.proof.reach}) was found but not self-checked: {self.proof.unchecked}."
        if self.proof is not None and self.proof.disputed:
            return f"{self.proof.cross_check.detail}. {search}"  # type: ignore[union-attr]
        if self.settled_by_proof:
            proof = self.proof.text()  # type: ignore[union-attr]
            checked = f" {self.proof.cross_check.detail}." if self.proof.cross_check else ""  # type: ignore[union-attr]
            return proof + checked + (f" Search: {search}" if self.search is not None else "")
        return search + (f" No proof: {self.no_proof}." if self.no_proof else "")

    @builtins.property
    def tried(self) -> int:
        """Candidates the search tried (in the unit ``search.unit``); 0 without a search."""
        return self.search.tried if self.search is not None else 0

    def to_json(self) -> dict[str, Any]:
        """The documented keys (``verdict``, ``method``, ``evidence``, ``witness``), then the structured ones."""
        return {
            "verdict": self.verdict,
            "method": self.method,
            "evidence": self.evidence,
            "witness": dict(self.witness.data) if self.witness else None,
            "proof": self.proof.to_record() if self.proof else None,
            "search": self.search.to_record() if self.search else None,
            "no_proof": self.no_proof,
        }

    def to_record(self) -> dict[str, Any]:
        """Everything, for caches and workers: :meth:`from_record` rebuilds the verdict."""
        return {
            "property": str(self.property),
            "verdict": self.verdict,
            "search": self.search.to_record() if self.search else None,
            "search_seconds": self.search.seconds if self.search else 0.0,
            "witness": self.witness.to_record() if self.witness else None,
            "proof": self.proof.to_record() if self.proof else None,
            "no_proof": self.no_proof,
            "seconds": self.seconds,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Verdict:
        search = Search.from_record(record["search"], record["search_seconds"]) if record["search"] else None
        witness = Witness.from_record(record["witness"]) if record["witness"] else None
        proof = ProofRecord.from_record(record["proof"]) if record["proof"] else None
        return cls(Prop(record["property"]), record["verdict"], search, witness, proof, record["no_proof"], record["seconds"])


@dataclass(frozen=True)
class Implementation:
    """What scoring a toolkit's metric took: its warm-up (a JIT compiling before the search), and the situations the
    searches scored in how many calls into the toolkit (many per call: one query id each)."""

    toolkit: str
    name: str
    warmup_seconds: float
    situations: int
    calls: int

    def to_json(self) -> dict[str, Any]:
        return {"toolkit": self.toolkit, "name": self.name, "warmup_seconds": round(self.warmup_seconds, 3),
                "situations": self.situations, "calls": self.calls}

    def line(self) -> str:
        """One sentence for people."""
        return (f"{self.toolkit} {self.name}: warm-up {self.warmup_seconds:.1f} s before the search; {self.situations:,} "
                f"situations scored in {self.calls:,} calls into the toolkit")


@dataclass(frozen=True)
class CheckResult:
    """The verdicts of the requested properties, in the paper's column order (and, for a toolkit's metric, what scoring
    it took)."""

    metric: str
    relevance: Relevance
    verdicts: Mapping[Prop, Verdict]
    implementation: Implementation | None = None
    measure: Measure | None = field(default=None, compare=False)
    """The declared metric checked (a built-in metric or a declared proposal), so that its proofs' certificates can be
    written out again; None for a black box, a toolkit's metric or a result read back from a record."""

    def __getitem__(self, prop: str) -> Verdict:
        return self.verdicts[Prop(prop)]

    def to_json(self) -> dict[str, Any]:
        """``{"metric", "relevance", "properties": {PROP: {"verdict", "method", "evidence", "witness", "proof", "search",
        "no_proof"}}}``, and ``"implementation"`` (:meth:`Implementation.to_json`) for a toolkit's metric."""
        found = {"metric": self.metric, "relevance": self.relevance, "properties": {str(p): v.to_json() for p, v in self.verdicts.items()}}
        if self.implementation is not None:
            found["implementation"] = self.implementation.to_json()
        return found

    def to_record(self) -> dict[str, Any]:
        return {"metric": self.metric, "relevance": self.relevance, "verdicts": [v.to_record() for v in self.verdicts.values()]}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> CheckResult:
        verdicts = [Verdict.from_record(v) for v in record["verdicts"]]
        return cls(record["metric"], record["relevance"], {v.property: v for v in verdicts})
