"""The glue between irprops' situations and a toolkit's dictionaries, so that nobody writes it again.

A situation (a ranking of grades, a depth k, the qrels' relevant grades) becomes one query:

* the ranked documents are ``d01``, ``d02``, ... with strictly decreasing scores (``n``, ``n - 1``, ...,
  so that no toolkit breaks a tie its own way), and the relevant documents the ranking does not hold
  are judged but unretrieved (``u1``, ``u2``, ...);
* a judged nonrelevant document (grade 0) is in the qrels with grade 0, an unjudged one is not in them;
* grades go in as the toolkit takes them: integers (each grade times the least common multiple of the
  situation's denominators, so 1/2 and 1 are 1 and 2) or decimals in [0, 1];
* the depth is the toolkit's own cutoff where its metric has one, else only the top k documents are given;
* an empty run scores 0 when the toolkit leaves the query out (trec_eval's ``-c``: a query that retrieved
  nothing scores 0); a query with no judged document is left out by every toolkit, and is undefined.

Many situations are scored in one toolkit call, one query id per situation and one call per depth; when
the call raises, each situation is scored alone, so that the error is the situation's own.

>>> query(["1", "0", None], ["1", "1/2"], integer=True)
({'d1': 2, 'd2': 0, 'u1': 1}, {'d1': 3.0, 'd2': 2.0, 'd3': 1.0})
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from . import CUSTOM, TOOLKITS, Spec
from .calls import CALLS, cuts

Item = tuple[Sequence[Any], int, Sequence[Any]]
"""A situation as the proposal process passes it: ranking (grades, None for unjudged), k, qrels (relevant grades)."""


def query(ranking: Sequence[Any], qrels: Sequence[Any], *, integer: bool) -> tuple[dict[str, Any], dict[str, float]]:
    """The qrels and run of one situation (see the module docstring)."""
    grades = [Fraction(g) for g in qrels]
    scale = math.lcm(*(g.denominator for g in grades)) if integer and grades else 1
    width = len(str(len(ranking)))
    left = sorted(grades, reverse=True)
    judged: dict[str, Any] = {}
    run: dict[str, float] = {}
    for i, entry in enumerate(ranking, start=1):
        docno = f"d{i:0{width}d}"
        run[docno] = float(len(ranking) - i + 1)
        if entry is None:
            continue
        grade = Fraction(entry)
        if grade:
            left.remove(grade)
        judged[docno] = _given(grade, scale, integer)
    for j, grade in enumerate(left, start=1):
        judged[f"u{j}"] = _given(grade, scale, integer)
    return judged, run


def _given(grade: Fraction, scale: int, integer: bool) -> Any:
    return int(grade * scale) if integer else grade


class Adapter:
    """A toolkit metric as a proposal ``f(ranking, k, qrels)``, with :meth:`batch` to score many situations at once."""

    def __init__(self, spec: Spec, function: Callable[..., Any] | None = None) -> None:
        self.spec = spec
        self.__name__ = spec.title
        self.relevance = ""
        if spec.toolkit == CUSTOM:
            if function is None:
                raise ValueError("a dicts: toolkit needs its function")
            self._call: Callable[[Spec, Any, Any, int], dict[str, float]] = lambda _, q, r, k: _scores(function(q, r, k))
            self._integer, self._cuts = True, True
        else:
            importlib.import_module(TOOLKITS[spec.toolkit].module)  # a toolkit that cannot be imported fails here, at load
            self._call, self._integer = CALLS[spec.toolkit], TOOLKITS[spec.toolkit].grades == "integer"
            self._cuts = cuts(spec)

    def warm(self) -> float:
        """Score situations of the shapes a search asks for once (a JIT compiles here, not in the search's first call:
        ranx compiles again for rankings of 10 documents or more), and the seconds it took."""
        start = time.perf_counter()
        shapes: list[Item] = [(["1", "0"], 2, ["1", "1"]), (["0", "1"], 1, ["1"]), (["0"], 1, [])]
        shapes += [(["1", "0"] * n, n, ["1"] * (n + 1)) for n in (6, 60, 150)]
        found = [*self.batch(shapes), *self.batch(shapes[:1] * 40)]
        failed = [f for f in found if isinstance(f, BaseException)]
        if len(failed) == len(found):  # the metric cannot be scored at all (a name the toolkit does not know): said at load
            raise failed[0]
        return time.perf_counter() - start

    def __call__(self, ranking: Sequence[Any], k: int, qrels: Sequence[Any]) -> float | None:
        found = self.batch([(ranking, k, qrels)])[0]
        if isinstance(found, BaseException):
            raise found
        return found

    def batch(self, items: Sequence[Item]) -> list[float | None | BaseException]:
        """The score of each situation: a float, None (the toolkit scored nothing), or the exception its call raised."""
        results: list[float | None | BaseException] = [None] * len(items)
        by_depth: dict[int, list[int]] = {}
        for index, (_, k, _) in enumerate(items):
            by_depth.setdefault(k, []).append(index)
        for k, indices in sorted(by_depth.items()):
            try:
                found = self._scored([items[i] for i in indices], k)
            except Exception as error:  # noqa: BLE001 - the call failed on the batch: each situation alone says which
                if len(indices) == 1:
                    results[indices[0]] = error
                    continue
                for i in indices:
                    try:
                        results[i] = self._scored([items[i]], k)[0]
                    except Exception as error:  # noqa: BLE001 - the situation's own failure, reported as its defect
                        results[i] = error
                continue
            for i, value in zip(indices, found, strict=True):
                results[i] = value
        return results

    def _scored(self, items: Sequence[Item], k: int) -> list[float | None]:
        qrels: dict[str, dict[str, Any]] = {}
        run: dict[str, dict[str, float]] = {}
        for n, (ranking, _, relevant) in enumerate(items):
            judged, ranked = query(ranking if self._cuts else list(ranking)[:k], relevant, integer=self._integer)
            if judged:
                qrels[f"q{n}"] = judged
            if ranked:
                run[f"q{n}"] = ranked
        scores = self._call(self.spec, qrels, run, k) if run else {}
        return [scores.get(f"q{n}", 0.0 if f"q{n}" in qrels and f"q{n}" not in run else None) for n in range(len(items))]


def _scores(found: Any) -> dict[str, float]:
    if not isinstance(found, dict):
        raise TypeError(f"a dicts: function returns {{query_id: score}}, not {type(found).__name__}")
    return {str(q): float(v) for q, v in found.items()}
