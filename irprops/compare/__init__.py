"""``compare``: a toolkit's implementation of a metric against irprops' declared definition, situation by situation.

The toolkit scores every case of :mod:`~irprops.compare.cases` (exhaustive small situations, tied scores among them,
then deeper ones drawn by Hypothesis) in a few calls, in its own process; the definition scores the same cases (the
expectation over tie orders where scores are tied). Where they differ, each difference is put under a named convention
that explains it (:mod:`~irprops.compare.conventions`; among those that do, the one most differing cases share), with
its smallest witness and both values; what none explains is reported as unexplained, an error or NaN as a failure, and a
witness that scores otherwise alone than among the other queries of its call as such. Cases whose value would be the
glue's, not the toolkit's (no judged document, an empty run the toolkit left out, a tie across the depth of a toolkit
given the top k) are counted as not compared. The result also names every declared metric the implementation agrees
with on every case where that metric has a value, and the tie orders consistent with every tied case (or with most).

A comparison is numerical evidence: a toolkit's scores are floats, and two scores agree within relative
:data:`~irprops.compare.conventions.TOLERANCE`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis.errors import NoSuchExample

from irprops.metrics import REGISTRY, InputError, Measure, parse
from irprops.properties.sandbox import OutOfTime, Sandbox
from irprops.properties.toolkit_target import BATCH, toolkit_sandbox, toolkit_spec
from irprops.toolkits import GRADE_SCALE

from .cases import Case, arrangements, deep, small
from .conventions import BATCH_DEPENDENT, FAILED, TIE_POLICIES, agree, consistent, expected, explanations, value
from .result import Comparison, Difference

__all__ = ["NO_JUDGMENTS", "Comparison", "Difference", "compare"]

NO_JUDGMENTS = "no judged document"
"""Why a case whose ranking is all unjudged and whose qrels are empty is not compared: the glue gives a toolkit no such
query (it would leave it out), so its value there would be the glue's, not the toolkit's."""


def compare(implementation: str, metric: str, *, examples: int = 300, timeout: float = 120.0,
            progress: Callable[[str], None] | None = None) -> Comparison:
    """Compare the toolkit metric ``implementation`` (``pytrec_eval:ndcg_cut``) with the declared family ``metric``
    (``NDCG``) on the exhaustive cases and ``examples`` deeper ones; ``timeout``: the seconds that loading the toolkit
    (its warm-up included) and each call of it may take (a cold ranx, compiling into an empty numba cache, about 30 s)."""
    start = time.perf_counter()
    spec = toolkit_spec(implementation)
    if spec is None:
        raise InputError("implementation", implementation, "not a toolkit's metric",
                         "name one as TOOLKIT:NAME, e.g. pytrec_eval:ndcg_cut or 'rbp_eval:rbp(p=0.8)'")
    measure = parse(metric)
    if measure.k is not None or measure.rel is not None:
        raise InputError("metric", metric, "compare a family over every depth", f"write {measure.metric.key}")
    graded = not measure.metric.binary
    say = progress or (lambda _: None)
    cases = [c for c in dict.fromkeys([*small(graded), *_deeper(graded, examples)]) if arrangements(c) is not None]
    say(f"{len(cases):,} cases; starting {spec.toolkit}")
    scale = GRADE_SCALE if graded else 1
    sent = [c for c in cases if c.situation.qrels or any(g is not None for g in c.situation.ranking)]
    with toolkit_sandbox(implementation, spec, scale, load_seconds=timeout, compared=True) as box:
        warmup = box.loaded.warmup
        found, retried = _scored(box, sent, timeout)
        result = _compared(measure, graded, cases, sent, found, scale, say)
        witnesses = [d.witness for d in result.differences]
        alone = [_scored(box, [w], timeout)[0][0] for w in witnesses]
    extra, moved = _batch_dependent(measure, witnesses, [dict(zip(sent, found, strict=True))[w] for w in witnesses], alone)
    kept = tuple(replace(d, alone=d.witness not in moved) for d in result.differences)
    notes = ((f"the implementation raised {retried[1]} on {retried[0]:,} calls of many queries; each of their queries "
              "was then scored alone"),) if retried[0] else ()
    return replace(result, differences=(*kept, *extra), notes=notes, warmup_seconds=warmup,
                   seconds=time.perf_counter() - start, implementation=implementation)


def _batch_dependent(measure: Measure, witnesses: list[Case], batched: list[Any],
                     alone: list[Any]) -> tuple[tuple[Difference, ...], set[Case]]:
    """The difference :data:`~irprops.compare.conventions.BATCH_DEPENDENT`, where a witness scored alone scores otherwise
    than in its batch (a value for a failure, a failure for a value, or another value), with its first such witness
    scored alone, and every such witness."""
    moved = [(w, b, a) for w, b, a in zip(witnesses, batched, alone, strict=True) if _moved(b, a)]
    if not moved:
        return (), set()
    case, inside, outside = moved[0]
    failed = isinstance(outside, _Failed)
    return ((Difference(BATCH_DEPENDENT, len(moved), case, None if failed else outside, expected(measure, case),
                        f"{_shown(inside)} in a call with other queries, {_shown(outside)} alone "
                        f"({len(moved)} of the {len(witnesses)} witnesses scored alone)", failed_alone=failed),),
            {w for w, _, _ in moved})


def _moved(inside: Any, outside: Any) -> bool:
    if isinstance(inside, _Withheld) or isinstance(outside, _Withheld):
        return False
    if isinstance(inside, _Failed) or isinstance(outside, _Failed):
        return isinstance(inside, _Failed) != isinstance(outside, _Failed)
    return not agree(outside, inside)


def _shown(value: float | None | _Failed) -> str:
    if isinstance(value, _Failed):
        return f"a failure ({value.problem})"
    return "no score" if value is None else f"{value:.6g}"


def _compared(measure: Measure, graded: bool, cases: list[Case], sent: list[Case],
              found: list[float | None | _Failed | _Withheld], scale: int, say: Callable[[str], None]) -> Comparison:
    """The comparison of the toolkit's values ``found`` on the cases ``sent`` (of all ``cases``) with the definition's."""
    say("scoring the definition")
    withheld = Counter(f.reason for f in found if isinstance(f, _Withheld))
    not_compared = ((NO_JUDGMENTS, len(cases) - len(sent)),) if len(sent) < len(cases) else ()
    compared = [(c, f) for c, f in zip(sent, found, strict=True) if not isinstance(f, _Withheld)]
    scored: list[tuple[Case, float | None]] = [(c, f) for c, f in compared if not isinstance(f, _Failed)]
    own = {c: expected(measure, c) for c, _ in compared}
    say("comparing with every declared metric")
    agreeing_with = _agrees_with(measure, compared, graded)
    others = [parse(m) for m, _ in agreeing_with if m != measure.name]
    ties, tied, counts = _ties(measure, scored, others, scale)
    agreeing = 0
    failed: list[tuple[Case, _Failed]] = []
    differing: dict[Case, list[str]] = {}
    for case, got in compared:
        if isinstance(got, _Failed):
            failed.append((case, got))
        elif agree(got, own[case]):
            agreeing += 1
        else:
            differing[case] = explanations(measure, case, own[case], got, ties, others, scale)
    conventions = _named(differing)
    values = dict(compared)
    differences: dict[str, list[Any]] = {}
    if failed:
        differences[FAILED] = [len(failed), failed[0][0], None, own[failed[0][0]], failed[0][1].problem]
    for case in differing:  # in the order of the cases: each class's witness is its smallest
        entry = differences.setdefault(conventions[case], [0, case, values[case], own[case], None])
        entry[0] += 1
    order = {c: n for n, c in enumerate(cases)}
    ranked = sorted(differences.items(), key=lambda item: order[item[1][1]])
    return Comparison(
        "", measure.name, len(compared), agreeing,
        tuple(Difference(name, n, c, g, o, problem) for name, (n, c, g, o, problem) in ranked),
        agreeing_with, ties, tied, counts, (*not_compared, *withheld.most_common()), scale)


def _named(explained: dict[Case, list[str]]) -> dict[Case, str]:
    """Each case's convention: the explanation most of the cases it explains share, chosen greedily (a coincidence on one
    case loses to the convention of its class), then the earliest among as many."""
    named: dict[Case, str] = {}
    pending = dict(explained)
    first: dict[str, int] = {}
    for names in explained.values():
        for label in names:
            first.setdefault(label, len(first))
    while pending:
        tally = Counter(label for names in pending.values() for label in names)
        best = max(tally, key=lambda label: (tally[label], -first[label]))
        for case in [c for c, names in pending.items() if best in names]:
            named[case] = best
            del pending[case]
    return named


@dataclass(frozen=True)
class _Failed:
    problem: str


@dataclass(frozen=True)
class _Withheld:
    reason: str


def _deeper(graded: bool, examples: int) -> list[Case]:
    """``examples`` deeper cases from Hypothesis (derandomized: the same every run)."""
    drawn: list[Case] = []
    if examples <= 0:
        return drawn

    def keep(case: Case) -> bool:
        drawn.append(case)
        return False

    try:
        find(deep(graded), keep, settings=settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                                                    phases=(Phase.generate,), suppress_health_check=list(HealthCheck),
                                                    verbosity=Verbosity.quiet))
    except NoSuchExample:
        pass
    return drawn


def _scored(box: Sandbox, cases: list[Case], timeout: float) -> tuple[list[float | None | _Failed | _Withheld], tuple[int, str]]:
    """The toolkit's value on each case: a float, None (no score: a ZeroDivisionError of a ``dicts:`` function), what it
    failed with, or why the glue withheld the case from it; and how many toolkit calls of many queries raised (each
    query then scored alone), with the first error."""
    found: list[float | None | _Failed | _Withheld] = []
    retried = (0, "")
    for at in range(0, len(cases), BATCH):
        chunk = cases[at:at + BATCH]
        try:
            answers = box.ask_many([c.request() for c in chunk], timeout)
        except OutOfTime:
            raise InputError("--timeout", timeout, f"the toolkit did not score {len(chunk):,} cases in {timeout:g} s",
                             "give a longer --timeout") from None
        if answers is None:
            raise InputError("implementation", box.where, "its process did not answer a batch of cases")
        retried = (retried[0] + box.retried[0], retried[1] or box.retried[1])
        for answer in answers:
            kind = answer.get("kind")
            found.append(float(answer["value"]) if kind == "float" else
                         float(int(answer["value"][0], 16)) / float(int(answer["value"][1], 16)) if kind == "exact" else
                         _Withheld(str(answer.get("reason"))) if kind == "withheld" else
                         None if kind == "undefined" else _Failed(str(answer.get("problem", "no answer"))))
    return found, retried


def _ties(measure: Measure, scored: list[tuple[Case, float | None]], others: list[Measure],
          scale: int) -> tuple[tuple[str, ...], int, tuple[tuple[str, int], ...]]:
    """The tie policies under which every tied case agrees (with some other convention), irprops' own first; how many
    tied cases there are; and how many each policy is consistent with (most first)."""
    counts: Counter[str] = Counter()
    tied = 0
    for case, got in scored:
        if case.ties:
            told = consistent(measure, case, got, others, scale)
            if told is not None:  # a tie that says nothing (no score on either side) is not counted
                tied += 1
                counts.update(told)
    every = tuple(p for p in TIE_POLICIES if counts[p] == tied) if tied else ()
    ranked = sorted(counts.items(), key=lambda item: (-item[1], TIE_POLICIES.index(item[0])))
    return every, tied, tuple(ranked)


def _agrees_with(measure: Measure, scored: list[tuple[Case, float | None | _Failed]],
                 graded: bool) -> tuple[tuple[str, int], ...]:
    """Every declared metric (default parameters, or the compared one's) that agrees with the toolkit on every untied case
    where it has a value (a failure of the toolkit's there is a disagreement), and has one on at least half of them."""
    untied = [(c, g) for c, g in scored if not c.ties]
    found = []
    for metric in REGISTRY.values():
        if graded and metric.binary and any(g not in (0, 1) for c, _ in untied for g in c.situation.qrels):
            continue
        other = measure if metric is measure.metric else Measure(metric, metric.defaults())
        defined = 0
        for case, got in untied:
            reference = value(other, case.situation)
            if reference is None:
                continue
            if isinstance(got, _Failed) or not agree(got, reference):
                break
            defined += 1
        else:
            if defined and 2 * defined >= len(untied):
                found.append((other.name, defined))
    return tuple(found)
