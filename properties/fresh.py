"""Re-running a proposal's witnesses in a fresh Python process, before any "no" is reported.

Re-runs in the same process (:data:`~irprops.properties.base.RERUNS`) catch a proposal that
answers differently call by call. They cannot catch one whose answers depend on the process:
iteration order of a set of strings (Python salts string hashes per process), module state set
at import, the clock at start-up. So every situation a proposal's witnesses rest on is scored
once more by a new interpreter that imports the proposal afresh, and each score must be the
same, exactly (the same exact value, or the same float, bit for bit). A proposal that answers
otherwise there has no witness: its "no" becomes "unknown", saying where the two processes
disagreed. The fresh process is a :class:`~irprops.properties.sandbox.Sandbox` of its own.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any

from irprops.metrics import Situation, Undefined
from irprops.verdicts import Prop, Verdict, show

from .targets import Defect, ProposalTarget

__all__ = ["MAX_SITUATIONS", "confirm", "locate", "rerun", "situations_in"]

MAX_SITUATIONS = 64
"""The most situations re-run in the fresh process (every property's witness needs at most a handful)."""


def locate(function: Callable[..., Any]) -> str | None:
    """Where a fresh process finds ``function``: ``module:qualified.name``, or None (a lambda, a nested function,
    a function defined in ``__main__`` or at the interactive prompt)."""
    module, name = getattr(function, "__module__", None), getattr(function, "__qualname__", "")
    if not module or module == "__main__" or "<" in name or not name:
        return None
    spec = getattr(sys.modules.get(module), "__spec__", None)
    if spec is None:
        return None
    if module.startswith("irprops_proposal_") and spec.origin and "." not in name:  # loaded from a file by load_proposal
        return f"{spec.origin}:{name}"
    return f"{module}:{name}"


def situations_in(data: Any) -> Iterator[Situation]:
    """Every situation a witness's JSON holds (``{"k", "ranking", "qrels"}`` objects, with ``"N"`` where given, at any
    nesting)."""
    if isinstance(data, Mapping):
        if {"k", "ranking", "qrels"} <= set(data):
            yield Situation(tuple(None if g == "?" else Fraction(g) for g in data["ranking"]), int(data["k"]),
                            tuple(Fraction(g) for g in data["qrels"]), None if data.get("N") is None else int(data["N"]))
        for value in data.values():
            yield from situations_in(value)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from situations_in(value)


def outcome_text(target: ProposalTarget, situation: Situation) -> str:
    """The outcome on ``situation`` as one exact text: the score, ``undefined``, or the defect."""
    try:
        outcome = target.score(situation)
    except Defect as defect:
        return f"defect: {defect.problem}"
    return "undefined" if isinstance(outcome, Undefined) else outcome.text()


def rerun(subject: ProposalTarget, situations: list[Situation]) -> list[str] | str:
    """The outcome texts of a fresh process (a new :class:`Sandbox`, its own hash seed) on ``situations``,
    or why there are none (a sentence)."""
    again = subject.reopened({"PYTHONHASHSEED": "random"})
    if isinstance(again, str):
        return again
    try:
        return [outcome_text(again, s) for s in situations]
    finally:
        again.close()


def confirm(subject: ProposalTarget, verdicts: dict[Prop, Verdict]) -> dict[Prop, Verdict]:
    """The verdicts, with every "no" whose situations a fresh process scores differently made "unknown".

    A confirmed witness carries ``fresh_process=True``; one that could not be re-run (a
    proposal with no importable name, say a lambda) keeps its verdict and says why in its evidence.
    """
    refuted = {key: v for key, v in verdicts.items() if v.verdict == "no" and v.witness is not None and v.search is not None}
    situations = list(dict.fromkeys(s for v in refuted.values() for s in situations_in(v.witness.data)))[:MAX_SITUATIONS]  # type: ignore[union-attr]
    if not situations:
        return verdicts
    answer = rerun(subject, situations)
    fresh = dict(zip(situations, answer)) if isinstance(answer, list) else {}
    settled = dict(verdicts)
    for key, verdict in refuted.items():
        search, witness = verdict.search, verdict.witness
        assert search is not None and witness is not None
        if not fresh:
            note = f" Not re-run in a fresh Python process: {answer}."
            settled[key] = dataclasses.replace(verdict, search=dataclasses.replace(search, evidence=search.evidence + note))
            continue
        differ = [(s, fresh[s]) for s in situations_in(witness.data) if s in fresh and fresh[s] != outcome_text(subject, s)]
        if differ:
            s, there = differ[0]
            why = (f"a fresh Python process scores {show(s)} as {there} where this process scored {outcome_text(subject, s)}: "
                   "the proposal depends on its process (hash order, import-time state, the clock), so no witness stands")
            settled[key] = Verdict(key, "unknown", dataclasses.replace(search, method="search: the proposal is not reproducible",
                                                                    evidence=why), seconds=verdict.seconds)
        else:
            note = " Re-run in a fresh Python process: the same scores."
            settled[key] = dataclasses.replace(verdict, search=dataclasses.replace(search, evidence=search.evidence + note),
                                               witness=dataclasses.replace(witness, fresh_process=True))
    return settled
