"""``search``: the refutation search of the properties, on a built-in metric family or a proposal.

This is the search half of ``irprops.check`` (which adds the proofs): it never proves, so
a verdict here is "no" with a certified witness, or "unknown" with how far it looked.

>>> search("P", [Prop.MONOTONIC])[Prop.MONOTONIC].witness.data
{'k': 1, 'ranking': ['1', '0'], 'qrels': ['1']}
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Iterable
from typing import Any

from irprops.metrics import REGISTRY, InputError, Measure, Metric, parse
from irprops.verdicts import COLUMNS, Prop, Relevance, Verdict

from .base import PROPERTIES
from .fresh import confirm, locate
from .loading import load_proposal, where_of
from .sandbox import Sandbox
from .space import Space
from .targets import BuiltinTarget, ProposalTarget, Target
from .toolkit_target import toolkit_spec, toolkit_target

__all__ = ["make_target", "run_search", "search"]


def search(
    target: str | Measure | Callable[..., Any] | Target,
    properties: Iterable[str] | None = None,
    *,
    relevance: Relevance | None = None,
    timeout: float = 1.0,
    budget: float | None = None,
    space: Space | None = None,
) -> dict[Prop, Verdict]:
    """The search's verdicts on ``target`` for the properties named (all seven by default), in column order.

    ``target`` is as for :func:`make_target`, or a :class:`Target` already made.
    """
    keys = Prop.parse_all(properties)
    subject = target if isinstance(target, Target) else make_target(target, relevance, timeout)
    try:
        return {key: verdict for key, verdict in run_search(subject, keys, budget=budget, space=space)}
    finally:
        if subject is not target:
            subject.close()


def run_search(subject: Target, keys: Iterable[Prop], *, budget: float | None = None,
               space: Space | None = None, settle: Callable[[Prop], bool] | None = None) -> list[tuple[Prop, Verdict]]:
    """(property, verdict) for each key, bounded last (it reports what the others scored), then in column order.

    ``settle(key)``, asked where the exhaustive phase found no counterexample, says whether a proof settles that cell;
    the search then only cross-checks it (the caller, which runs the proofs, gives it: this layer never imports them).
    """
    # a metric that reads N tells unjudged documents from judged nonrelevant ones too: only these count towards N
    space = space or Space.default(subject.relevance == "binary", subject.reads_unjudged or subject.reads_nonrelevant,
                                   subject.reads_nonrelevant)
    if budget is not None:
        if budget <= 0:
            raise InputError("--budget", budget, "must be positive")
        space = dataclasses.replace(space, budget=budget)
    found = {key: PROPERTIES[key].run(subject, space, None if settle is None else functools.partial(settle, key))
             for key in sorted(set(keys), key=lambda k: (k is Prop.BOUNDED, COLUMNS.index(k)))}
    if isinstance(subject, ProposalTarget):
        found = confirm(subject, found)  # a witness must hold in a fresh process too
    return [(key, found[key]) for key in COLUMNS if key in found]


def make_target(target: str | Measure | Callable[..., Any], relevance: Relevance | None, timeout: float) -> Target:
    """The :class:`Target` for a family name (``"AP"``, ``"RBP(p=0.5)"``), a Measure, a proposal spec
    ``"path/to/file.py:function"`` or a function ``f(ranking, k, qrels)``.

    A proposal file's object that is a declared metric (a Measure, a Metric, or a registered
    formula) becomes a built-in target, so the proof layer can see its closed form.
    """
    spec = toolkit_spec(target) if isinstance(target, str) else None
    if spec is not None:
        return toolkit_target(target, spec, relevance, timeout)  # type: ignore[arg-type]
    if isinstance(target, str) and ":" in target:
        if timeout <= 0:
            raise InputError("--timeout", timeout, "must be positive")
        where = where_of(target)
        box = Sandbox(where)  # the proposal's module is imported there first: what it does at import cannot reach irprops
        if not box.loaded.declared:
            if not box.loaded.callable:
                box.close()
                raise InputError("target", target, f"{target.rpartition(':')[2]} is not a function or a declared metric")
            return _proposal(None, target.rpartition(":")[2], relevance or box.loaded.relevance or None, timeout, where, box)
        box.close()
        target = _declared(load_proposal(target))  # type: ignore[assignment]
    if callable(target) and not isinstance(target, (str, Measure)):
        located = locate(target)
        own: Sandbox | None = None
        with contextlib.suppress(InputError):  # a module a fresh process cannot import: the function runs here, under an alarm
            own = Sandbox(located) if located is not None else None
        return _proposal(target, getattr(target, "__name__", "proposal"), relevance, timeout, located, own)
    measure = parse(target) if isinstance(target, str) else target
    if measure.rel is not None:
        raise InputError("target", measure.name, "a threshold (rel=) maps graded situations onto the metric's own, and the "
                         "properties are stated and proved for the metric itself, not for it after a threshold",
                         f"check {measure.metric.key}")
    if measure.k is not None:
        raise InputError("target", measure.name, "the properties quantify over every depth k",
                         f"check the family {measure.at(1).name.rsplit('@', 1)[0]}")
    if measure.metric.binary and relevance == "graded":
        raise InputError("--graded", measure.name, f"{measure.metric.key} is a binary metric: it is checked over binary situations")
    measure.validate_forms()  # a formula that branches on a symbolic value is refused before anything runs
    return BuiltinTarget(measure, relevance)


def _declared(obj: object) -> Measure | None:
    """A proposal declared as a metric (a Measure, a Metric, or a registered formula), if it is one."""
    if isinstance(obj, Measure):
        return obj
    if isinstance(obj, Metric):
        return Measure(obj, obj.defaults())
    for metric in REGISTRY.values():
        if metric.formula is obj:
            return Measure(metric, metric.defaults())
    return None


def _proposal(function: Callable[..., Any] | None, name: str, relevance: str | None, timeout: float,
              where: str | None, box: Sandbox | None) -> ProposalTarget:
    declared = relevance or getattr(function, "relevance", None) or "binary"
    try:
        if declared not in ("binary", "graded"):
            raise InputError("relevance", declared, "must be binary or graded")
        if timeout <= 0:
            raise InputError("--timeout", timeout, "must be positive")
    except InputError:
        if box is not None:
            box.close()
        raise
    return ProposalTarget(function, name, declared, timeout, where, box)  # type: ignore[arg-type]
