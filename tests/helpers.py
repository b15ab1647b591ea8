"""Small helpers the tests share."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from hypothesis import strategies as st

from irprops import CheckResult, check
from irprops.metrics import REGISTRY, Measure, Metric, NotExpressible, Situation, SymbolicForm, parse
from irprops.metrics.strategies import situations
from irprops.proofs import Proof
from tests.recheck import Score, recheck

SELF_CHECKED = 300.0
"""The search budget of a test that asks for a "yes": a proof gives one only after the search that self-checks it
(structured cases to depth 200) has finished, about 10 to 25 s on an idle 2-core machine; a ceiling, not a cost, so that
a loaded machine (a round-37 run beside a review: SRBP's convergent search past 60 s) cannot turn a yes into unknown."""

PARAMETER_POOL = tuple(Fraction(v) for v in ("0", "1/2", "4/5", "19/20", "2", "3", "10"))
"""Candidate parameter values; each metric takes those its declaration accepts."""


def valid_values(metric: Metric, name: str) -> list[Fraction]:
    param = next(p for p in metric.params if p.name == name)
    return [v for v in PARAMETER_POOL if param.valid(v) and (not param.integer or v.denominator == 1)]


def measures(metric: Metric) -> st.SearchStrategy[Measure]:
    """The metric with each parameter drawn from its valid values in :data:`PARAMETER_POOL`."""
    if not metric.params:
        return st.just(Measure(metric, {}))
    return st.fixed_dictionaries({p.name: st.sampled_from(valid_values(metric, p.name)) for p in metric.params}).map(
        lambda params: Measure(metric, params)
    )


def draw_case(data: st.DataObject, key: str, *, binary: bool | None = None, **shape: object) -> tuple[Measure, Situation]:
    """Draw a measure of metric ``key`` and a situation it can score (binary if the metric is; giving N, the collection's
    judged nonrelevant documents, if the metric reads it)."""
    metric = REGISTRY[key]
    measure = data.draw(measures(metric), label="measure")
    shape = {"nonrelevant": measure.reads_nonrelevant(), **shape}
    situation = data.draw(situations(metric.binary if binary is None else binary, **shape), label="situation")  # type: ignore[arg-type]
    return measure, situation


def default_measure(key: str) -> Measure:
    return Measure(REGISTRY[key], REGISTRY[key].defaults())


@functools.cache
def symbolic_form(name: str, k: int) -> SymbolicForm | None:
    """The measure's SymPy form at depth k (cached: building it is the slow part)."""
    try:
        return parse(name).symbolic(k)
    except NotExpressible:
        return None


@functools.cache
def closed_form(name: str) -> SymbolicForm | None:
    return parse(name).closed_form()


@functools.cache
def checked(name: str, relevance: str | None = None, prove: bool = True) -> CheckResult:
    """The full property check of a built-in family, computed once per test session."""
    return check(name, relevance=relevance, prove=prove, budget=SELF_CHECKED)  # type: ignore[arg-type]


def close(a: float, b: float) -> bool:
    """Float agreement between the numeric form and the exact one (never used for verdicts)."""
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def settled(measure: Measure, oracle: Score, properties: list[str] | None = None) -> CheckResult:
    """The check of ``measure``, with every witness re-checked on the oracle and no proof withdrawn."""
    result = check(measure, properties, budget=SELF_CHECKED)
    for prop, verdict in result.verdicts.items():
        assert verdict.proof is None or not verdict.proof.withdrawn, f"{prop}: the prover claimed a false proof: {verdict.evidence}"
        if verdict.verdict == "no":
            assert verdict.witness is not None and recheck(oracle, prop, dict(verdict.witness.data)), (prop, verdict.evidence)
    return result


def witness_depth(result: CheckResult, prop: str) -> int:
    """The depth of the witness of a "no" on ``prop`` (the assertion fails on any other verdict)."""
    verdict = result[prop]
    assert verdict.verdict == "no" and verdict.witness is not None, f"{prop}: {verdict.evidence}"
    return int(verdict.witness.data["k"])


def covers(found: object, k: int) -> bool:
    """Whether ``found`` (a prover's answer) is a proof whose reach includes depth k."""
    return isinstance(found, Proof) and found.record().covers(k)
