"""``check``: run the property searches on a built-in metric family or a proposal."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from typing import Any

from metrics import InputError, Measure, parse
from metrics.errors import close_matches

from .base import COLUMNS, PROPERTIES
from .loading import load_proposal
from .space import Space
from .targets import BuiltinTarget, ProposalTarget, Target
from .verdict import CheckResult, Relevance, Verdict


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

    ``target`` is a metric family (``"AP"``, ``"RBP(p=0.5)"``, a :class:`~metrics.Measure`),
    a proposal ``"path/to/file.py:function"``, or the function itself. ``relevance`` picks
    binary or graded situations; it defaults to the metric's own, and for a proposal to
    its ``relevance`` attribute, else binary. ``timeout`` limits each call of a proposal,
    ``budget`` the seconds each property's search may take (default 30). With ``prove``
    (the default), cells the search does not refute are handed to the proof layer, for
    built-in metrics and proposals declared with a closed form.

    >>> check("P", ["monotonic"])["monotonic"].witness.data
    {'k': 1, 'ranking': ['1', '0'], 'qrels': ['1']}
    """
    keys = resolve_properties(properties)
    subject = make_target(target, relevance, timeout)
    space = space or Space.default(subject.relevance == "binary")
    if budget is not None:
        if budget <= 0:
            raise InputError("--budget", budget, "must be positive")
        space = dataclasses.replace(space, budget=budget)
    verdicts = {}
    for key in sorted(keys, key=lambda k: k == "bounded"):  # bounded last: it reports what the others scored
        verdicts[key] = PROPERTIES[key].run(subject, space)
        if prove and isinstance(subject, BuiltinTarget):
            verdicts[key] = with_proof(subject, verdicts[key])
    return CheckResult(subject.name, subject.relevance, {k: verdicts[k] for k in COLUMNS if k in verdicts})


def with_proof(target: BuiltinTarget, searched: Verdict) -> Verdict:
    """The search's verdict, settled by a proof where the proof layer finds one.

    A witness is a fact, so a cell the search refuted keeps its "no"; a proof of "yes" there
    would be a contradiction between two sound procedures, and is raised as the bug it is.
    """
    from proofs import Proof, prove
    from proofs.certificates import cross_check

    start = time.perf_counter()
    found = prove(target.measure, searched.property)
    if searched.verdict == "no":
        if isinstance(found, Proof) and found.conclusion == "yes":
            raise RuntimeError(f"{target.name} {searched.property}: the search found {searched.evidence!r} but a proof says yes")
        return dataclasses.replace(searched, seconds=searched.seconds + time.perf_counter() - start)
    if not isinstance(found, Proof):
        return dataclasses.replace(searched, evidence=f"{searched.evidence} No proof: {found.reason}.", seconds=searched.seconds + time.perf_counter() - start)
    second = cross_check(found.obligations)
    seconds = searched.seconds + time.perf_counter() - start  # search, proof and cvc5 cross-check
    if second.status == "disagreement":
        return dataclasses.replace(searched, method="proof disputed: Z3 and cvc5 disagree", evidence=f"{second.detail}. {searched.evidence}", seconds=seconds)
    proved = found.verdict()
    return dataclasses.replace(proved, evidence=f"{proved.evidence} {second.detail}. Search: {searched.evidence}", tried=searched.tried + proved.tried, seconds=seconds)


def resolve_properties(names: Iterable[str] | None) -> list[str]:
    """Property keys from user input (``top-weighted`` or ``top_weighted``); all seven by default."""
    if names is None:
        return list(COLUMNS)
    keys = []
    for name in names:
        key = name.strip().lower().replace("-", "_")
        if key not in PROPERTIES:
            suggestions = close_matches(key, COLUMNS)
            hint = f"did you mean {' or '.join(suggestions)}?" if suggestions else f"the properties are {', '.join(COLUMNS)}"
            raise InputError("property", name, "unknown property", hint)
        keys.append(key)
    return keys or list(COLUMNS)


def make_target(target: str | Measure | Callable[..., Any], relevance: Relevance | None, timeout: float) -> Target:
    """The :class:`Target` for a family name, a Measure, a proposal spec or a function."""
    if isinstance(target, str) and ":" in target:
        loaded, name = load_proposal(target)
        declared = _declared(loaded)
        if declared is None:
            return _proposal(loaded, name, relevance, timeout)
        target = declared
    if callable(target) and not isinstance(target, (str, Measure)):
        return _proposal(target, getattr(target, "__name__", "proposal"), relevance, timeout)
    measure = parse(target) if isinstance(target, str) else target
    if measure.k is not None:
        raise InputError("target", measure.name, "the properties quantify over every depth k", f"check the family {measure.at(1).name.rsplit('@', 1)[0]}")
    if measure.metric.binary and relevance == "graded":
        raise InputError("--graded", measure.name, f"{measure.metric.key} is a binary metric: it is checked over binary situations")
    return BuiltinTarget(measure, relevance)


def _declared(obj: object) -> Measure | None:
    """A proposal declared as a metric (a Measure, a Metric, or a registered formula), if it is one."""
    from metrics import REGISTRY, Metric

    if isinstance(obj, Measure):
        return obj
    if isinstance(obj, Metric):
        return Measure(obj, obj.defaults())
    for metric in REGISTRY.values():
        if metric.formula is obj:
            return Measure(metric, metric.defaults())
    return None


def _proposal(function: Callable[..., Any], name: str, relevance: Relevance | None, timeout: float) -> ProposalTarget:
    declared = relevance or getattr(function, "relevance", None) or "binary"
    if declared not in ("binary", "graded"):
        raise InputError("relevance", declared, "must be binary or graded")
    if timeout <= 0:
        raise InputError("--timeout", timeout, "must be positive")
    return ProposalTarget(function, name, declared, timeout)
