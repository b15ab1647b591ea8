"""The glue between irprops' situations and a toolkit's dictionaries, so that nobody writes it again.

A situation (a ranking of grades, a depth k, the qrels' relevant grades) becomes one query:

* the ranked documents have strictly decreasing scores (``n``, ``n - 1``, ..., so that no toolkit breaks a tie its
  own way) and docnos that run against the ranks (``d000003``, ``d000002``, ``d000001``: an implementation that
  orders by docno, not by score, is seen), of one width for every ranking up to 999,999 documents (ranx compiles its
  code for each width of its docno arrays); they are given in rank order, as a TREC run file lists them (an
  implementation that trusts that order, as cwl_eval does, is not told from one that sorts by score); the relevant
  documents the ranking does not hold are judged but unretrieved (``u000001``, ``u000002``, ...);
* a judged nonrelevant document (grade 0) is in the qrels with grade 0, an unjudged one is not in them;
* grades go in as the toolkit takes them: integers (each grade times the scale of the check: 1 over binary
  situations, :data:`~irprops.toolkits.GRADE_SCALE` = 12 over graded ones, so that 1/2, 1/3, 1/4 and 1 are 6, 4, 3 and 12
  in every situation alike) or the grades themselves, as decimals in [0, 1];
* the depth is the toolkit's own cutoff where its metric has one, else only the top k documents are given;
* an empty run scores 0 when the toolkit leaves the query out (trec_eval's ``-c``: a query that retrieved
  nothing scores 0; ``irprops compare`` withholds it instead, since that 0 is the glue's); a query with no judged
  document is left out by every toolkit, and is undefined; a query the toolkit was given in full but did not score is
  an error of that situation (a metric name it reads otherwise, say).

Many situations are scored in one toolkit call, one query id per situation and one call per depth (or one in all,
where the depth is not in the call); when the call raises, each situation is scored alone, so that the error is the
situation's own. The toolkit gets copies: what it does to them changes nothing the glue reads.

>>> query(["1", "0", None], ["1", "1/2"], scale=12)
({'d000003': 12, 'd000002': 0, 'u000001': 6}, {'d000003': 3.0, 'd000002': 2.0, 'd000001': 1.0})
"""

from __future__ import annotations

import functools
import importlib
import itertools
import numbers
import time
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from . import CUSTOM, TOOLKITS, Spec
from .calls import CALLS, cuts

DOCNO_DIGITS = 6
"""The digits of every docno (``d000001``), for rankings up to 999,999 documents."""
Item = tuple[Any, ...]
"""A situation as the proposal process passes it: ranking (grades, None for unjudged), k, qrels (relevant grades), and
optionally the sizes of its groups of tied scores (:func:`query`)."""


def query(ranking: Sequence[Any], qrels: Sequence[Any], *, scale: int | None,
          ties: Sequence[int] | None = None) -> tuple[dict[str, Any], dict[str, float]]:
    """The qrels and run of one situation (see the module docstring); ``ties``: the sizes of the groups of documents
    with equal scores, top first (by default each document is alone). Within a group, the docnos are rotated by one
    (``d2, d3, d1``), so that the input order, its reverse and docno order either way are four different orders.
    ``scale``: grades are given as integers, each times ``scale``; None: as the grades themselves.

    >>> query(["1", "0", "0"], ["1"], scale=1, ties=[3])[1]
    {'d000002': 1.0, 'd000003': 1.0, 'd000001': 1.0}
    """
    left = Counter(_read(g, scale)[0] for g in qrels)  # read in order: an error names the first grade at fault
    width = max(DOCNO_DIGITS, len(str(len(ranking))))
    judged: dict[str, Any] = {}
    run: dict[str, float] = dict(_untied(len(ranking), width) if ties is None else
                                 ((f"d{number:0{width}d}", score) for number, score in docno_numbers(len(ranking), ties)))
    read: dict[Any, tuple[str, Fraction, Any]] = {}  # the few grades of the ranking, each read once
    for entry, docno in zip(ranking, run):
        if entry is None:
            continue
        found = read.get(entry)
        if found is None:
            found = read[entry] = _read(entry, scale)
        key, grade, given = found
        if grade:
            if not left[key]:
                raise ValueError(f"the ranking holds a document of grade {grade} that the qrels do not")
            left[key] -= 1
        judged[docno] = given
    j = 0
    for key in sorted(left, key=lambda key: _read(key, scale)[1], reverse=True):
        for _ in range(left[key]):
            j += 1
            judged[f"u{j:0{width}d}"] = _read(key, scale)[2]
    return judged, run


@functools.lru_cache(maxsize=1024)
def _untied(n: int, width: int) -> tuple[tuple[str, float], ...]:
    """(docno, score) of each rank of a ranking of ``n`` documents without ties (:func:`docno_numbers`), made once."""
    return tuple((f"d{number:0{width}d}", score) for number, score in docno_numbers(n))


def docno_numbers(n: int, ties: Sequence[int] | None = None) -> list[tuple[int, float]]:
    """(docno number, score) of each rank of a ranking of ``n`` documents: groups of tied documents (``ties``, top first;
    by default each alone) get scores len(groups), ..., 1; docno numbers run against the ranks (the top group gets the
    highest numbers, so that an implementation that orders by docno rather than score is seen on untied rankings), and
    within a group they are rotated by one, so that its four fixed tie orders differ.

    >>> docno_numbers(3), docno_numbers(3, [3])
    ([(3, 3.0), (2, 2.0), (1, 1.0)], [(2, 1.0), (3, 1.0), (1, 1.0)])
    """
    groups = list(ties) if ties is not None else [1] * n
    if sum(groups) != n or any(g < 1 for g in groups):
        raise ValueError(f"tie groups {groups} do not cover a ranking of {n} documents")
    named, start = [], 0
    for g, size in enumerate(groups):
        named += [(n - start - size + 1 + (t + 1) % size, float(len(groups) - g)) for t in range(size)]
        start += size
    return named


@functools.lru_cache(maxsize=4096)
def _read(grade: Any, scale: int | None) -> tuple[str, Fraction, Any]:
    """A grade as the proposal process passes it (``"1/2"``), read once for all the situations that hold it: its
    canonical text (what equal grades are counted by), its value, and what the toolkit is given."""
    value = Fraction(grade)
    return str(value), value, _given(value, scale)


def _given(grade: Fraction, scale: int | None) -> Any:
    if scale is None:
        return grade
    if (grade * scale).denominator != 1:
        raise ValueError(f"the grade {grade} is not a multiple of 1/{scale}, which the toolkit's integer grades can hold")
    return int(grade * scale)


ACROSS_THE_DEPTH = "a tie across the depth, for a toolkit given the top k only"
"""Why the glue withholds a situation from a toolkit given the top k only: which documents are the top k would be the
glue's choice, not the toolkit's."""
EMPTY_RUN = "an empty run the toolkit left out"
"""Why an adapter that compares (``compared=True``) withholds an empty run's score when the toolkit left the query out:
the 0 it gets in a check is the glue's (trec_eval's ``-c`` convention), not the toolkit's."""


class Withheld(ValueError):
    """A situation the glue does not give the toolkit, because its value would be the glue's choice, not the toolkit's
    (a tie across the depth, for a toolkit given the top k only). The proposal process answers it as
    ``{"kind": "withheld", "reason": ...}``, which ``irprops compare`` counts as not compared."""


class ZeroDivision(RuntimeError):
    """A toolkit's ZeroDivisionError in ``irprops compare``: its failure, where a proposal's ZeroDivisionError means
    "undefined"."""


class Adapter:
    """A toolkit metric as a proposal ``f(ranking, k, qrels)``, with :meth:`batch` to score many situations at once."""

    def __init__(self, spec: Spec, function: Callable[..., Any] | None = None, scale: int = 1, *,
                 compared: bool = False) -> None:
        """``compared``: for ``irprops compare``, where only the toolkit's own scores count: an empty run it left out
        is :class:`Withheld`, not scored 0."""
        self.spec = spec
        self.compared = compared
        self._retried: tuple[int, str] = (0, "")
        self.__name__ = spec.title
        self.relevance = ""
        if spec.toolkit == CUSTOM:
            if function is None:
                raise ValueError("a dicts: toolkit needs its function")
            self._call: Callable[[Spec, Any, Any, int], dict[str, float]] = lambda _, q, r, k: _scores(function(q, r, k))
            self._scale: int | None = scale
            self._cuts = True
        else:
            importlib.import_module(TOOLKITS[spec.toolkit].module)  # a toolkit that cannot be imported fails here, at load
            self._call = CALLS[spec.toolkit]
            self._scale = scale if TOOLKITS[spec.toolkit].grades == "integer" else None
            self._cuts = cuts(spec)

    def take_retried(self) -> tuple[int, str]:
        """How many calls of many queries raised since the last time asked (each of their queries was then scored
        alone), and the first error; a call that fails only with other queries is a failure of the implementation."""
        found, self._retried = self._retried, (0, "")
        return found

    def warm(self) -> float:
        """Score situations of the shapes a search asks for once (a JIT compiles here, not in the search's first call:
        short and long rankings, one and many queries), and the seconds it took."""
        start = time.perf_counter()
        shapes: list[Item] = [(["1", "0"], 2, ["1", "1"]), (["0", "1"], 1, ["1"]), (["0"], 1, [])]
        shapes += [(["1", "0"] * n, n, ["1"] * (n + 1)) for n in (6, 60, 150)]
        found = [*self.batch(shapes), *self.batch(shapes[:1] * 40)]
        failed = [f for f in found if isinstance(f, BaseException)]
        if len(failed) == len(found):  # the metric cannot be scored at all (a name the toolkit does not know): said at load
            raise failed[0]
        if all(f is None or isinstance(f, BaseException) for f in found):
            raise ValueError(f"{self.spec.title} scored none of the situations it was given (a name it does not know?)")
        self.take_retried()  # the warm-up's own calls are not the search's
        return time.perf_counter() - start

    def __call__(self, ranking: Sequence[Any], k: int, qrels: Sequence[Any]) -> float | None:
        found = self.batch([(ranking, k, qrels)])[0]
        if isinstance(found, BaseException):
            raise found
        return found

    def batch(self, items: Sequence[Item]) -> list[float | None | BaseException]:
        """The score of each situation: a float, None (the toolkit scored nothing), or the exception its call raised.
        One toolkit call per depth, or one for the whole batch where the depth is not in the call (a toolkit given the
        top k)."""
        results: list[float | None | BaseException] = [None] * len(items)
        groups: dict[int, list[int]] = {}
        for index, item in enumerate(items):
            groups.setdefault(item[1] if self._cuts else 0, []).append(index)
        for _, indices in sorted(groups.items()):
            try:
                found = self._scored([items[i] for i in indices])
            except Exception as error:  # noqa: BLE001 - the call failed on the batch: each situation alone says which
                if len(indices) == 1:
                    results[indices[0]] = error
                    continue
                self._retried = (self._retried[0] + 1, self._retried[1] or f"{type(error).__name__}: {error}"[:300])
                for i in indices:
                    try:
                        results[i] = self._scored([items[i]])[0]
                    except Exception as error:  # noqa: BLE001 - the situation's own failure, reported as its defect
                        results[i] = error
                continue
            for i, value in zip(indices, found, strict=True):
                results[i] = value
        if self.compared:  # a toolkit's ZeroDivisionError is its failure, not irprops' "undefined" of a proposal
            results = [ZeroDivision(str(r)) if isinstance(r, ZeroDivisionError) else r for r in results]
        return results

    def _scored(self, items: Sequence[Item]) -> list[float | None | BaseException]:
        """One toolkit call on ``items``: of one depth, unless the depth is not in the call."""
        qrels: dict[str, dict[str, Any]] = {}
        run: dict[str, dict[str, float]] = {}
        refused: dict[int, BaseException] = {}
        for n, (ranking, k, relevant, *tied) in enumerate(items):
            ties = tied[0] if tied else None
            judged, ranked = query(ranking, relevant, scale=self._scale, ties=ties)
            if not self._cuts and len(ranked) > k:  # the toolkit gets the top k only
                if ties is not None and _crosses(ties, k):
                    refused[n] = Withheld(ACROSS_THE_DEPTH)
                    continue
                ranked = dict(itertools.islice(ranked.items(), k))
            qid = str(n + 1)  # numeric query ids: gdeval (ir_measures' ERR) reads no other
            if judged:
                qrels[qid] = judged
            if ranked:
                run[qid] = ranked
        scores = self._call(self.spec, _copied(qrels), _copied(run), items[0][1]) if run else {}
        return [refused.get(n) or _score(scores, str(n + 1), qrels, run, self.compared) for n in range(len(items))]


def _score(scores: dict[str, float], qid: str, qrels: dict[str, Any], run: dict[str, Any],
           compared: bool = False) -> float | None | BaseException:
    """A query's score: the toolkit's; 0 for an empty run it left out (withheld when ``compared``); None for a query
    with no judgments; an error for a query it was given in full and did not score."""
    if qid in scores:
        return scores[qid]
    if qid not in qrels:
        return None
    if qid not in run:
        return Withheld(EMPTY_RUN) if compared else 0.0
    return LookupError("the toolkit returned no score for a query it was given with its judgments and its run")


def _copied(queries: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {q: dict(docs) for q, docs in queries.items()}


def _crosses(ties: Sequence[int], k: int) -> bool:
    """Whether a group of tied documents has some within the top k and some below it."""
    return k not in itertools.accumulate(ties) and k < sum(ties)


def _scores(found: Any) -> dict[str, float]:
    if not isinstance(found, dict):
        raise TypeError(f"a dicts: function returns {{query_id: score}}, not {type(found).__name__}")
    for q, v in found.items():
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"a dicts: function returns numbers as scores, not {type(v).__name__} {v!r:.50} (query {q!r:.20})")
    return {str(q): float(v) for q, v in found.items()}
