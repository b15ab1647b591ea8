"""An independent re-checker for witnesses: only the JSON witness and the metric function.

It shares no code with the property searches: it parses the witness's grades, calls
``score(ranking, k, qrels)`` (a tuple of Fractions, None for an unjudged document, an int, a tuple of Fractions; the
result is a number or None for undefined), or ``score(ranking, k, qrels, N)`` where the witness gives N, the
collection's judged nonrelevant documents (at least the ranking's judged zeros, or the witness is refused), and checks
the claim the property's witness
shape makes, enumerating arrangements itself for realizability.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from sympy.utilities.iterables import multiset_permutations

from irprops.metrics import Measure, Situation, Undefined, compare
from irprops.metrics.exact import to_str

Score = Callable[[tuple[Fraction, ...], int, tuple[Fraction, ...]], Any]


def of_measure(measure: Measure) -> Score:
    """A built-in measure's exact form as a plain function (None where undefined)."""

    def score(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...], N: int | None = None) -> Any:
        value = measure.exact(Situation(ranking, k, qrels, N))
        return None if isinstance(value, Undefined) else value

    return score


def _grades(texts: list[str]) -> tuple[Any, ...]:
    """The grades of a witness; ``?`` (an unjudged document) is None, as a Situation writes it."""
    return tuple(None if t == "?" else Fraction(t) for t in texts)


class _Invalid(Exception):
    """A witness situation no collection has: N below the ranking's own judged nonrelevant documents."""


def _call(score: Score, ranking: tuple[Any, ...], k: int, qrels: tuple[Fraction, ...], N: int | None) -> Any:
    """``score`` on the situation, with N where the witness gives it."""
    if N is None:
        return score(ranking, k, qrels)
    if not isinstance(N, int) or N < sum(1 for g in ranking if g is not None and g == 0):
        raise _Invalid
    return score(ranking, k, qrels, N)  # type: ignore[call-arg]


def _cmp(a: Any, b: Any) -> int:
    if isinstance(a, float) or isinstance(b, float):
        return (a > b) - (a < b)
    return compare(a, b)


def recheck(score: Score, prop: str, w: dict[str, Any]) -> bool:
    """Whether witness ``w`` of property ``prop`` holds for ``score``."""
    try:
        return _holds(score, prop, w)
    except _Invalid:
        return False


def _holds(score: Score, prop: str, w: dict[str, Any]) -> bool:
    k, N = w["k"], w.get("N")
    if prop == "bounded":  # an unboundedness witness: this situation scores above the stated bound
        value = _call(score, _grades(w["ranking"]), k, _grades(w["qrels"]), N)
        return value is not None and _cmp(value, Fraction(w["bound"])) > 0
    if prop == "monotonic":
        ranking, qrels = _grades(w["ranking"]), _grades(w["qrels"])
        before, after = _call(score, ranking, k, qrels, N), _call(score, ranking, k + 1, qrels, N)
        return len(ranking) >= k + 1 and before is not None and after is not None and _cmp(after, before) < 0
    if prop in ("convergent", "top_weighted"):
        ranking, qrels, i, j = _grades(w["ranking"]), _grades(w["qrels"]), w["i"], w["j"]
        where = i <= k < j <= len(ranking) if prop == "convergent" else i < j <= min(k, len(ranking))
        swapped = list(ranking)
        swapped[i - 1], swapped[j - 1] = ranking[j - 1], ranking[i - 1]
        before, after = _call(score, ranking, k, qrels, N), _call(score, tuple(swapped), k, qrels, N)
        better = (ranking[i - 1] or 0) < (ranking[j - 1] or 0)  # an unjudged document has grade 0
        return where and better and before is not None and after is not None and _cmp(after, before) <= 0
    if prop == "localized":
        a, b = w["a"], w["b"]
        ra, rb = _grades(a["ranking"]), _grades(b["ranking"])
        if ra[:k] != rb[:k] or len(ra) < k or len(rb) < k:
            return False
        first, second = _call(score, ra, k, _grades(a["qrels"]), a.get("N")), _call(score, rb, k, _grades(b["qrels"]), b.get("N"))
        if (first is None) != (second is None):
            return True
        return first is not None and _cmp(first, second) != 0
    if prop == "complete":
        ranking = _grades(w["ranking"])
        return w["qrels"] == [] and not any(ranking) and _call(score, ranking, k, (), N) is None
    if prop == "realizable":
        qrels = _grades(w["qrels"])
        if Fraction(1) not in qrels:
            return False
        orders = (tuple(o) for o in multiset_permutations(sorted(qrels + (Fraction(0),) * k)))
        values = [v for order in orders if (v := _call(score, order, k, qrels, N)) is not None]
        better = w["better"]
        value = _call(score, _grades(better["ranking"]), better["k"], _grades(better["qrels"]), better.get("N"))
        if w["max"] is None:  # undefined on every arrangement, defined elsewhere
            return not values and value is not None
        best = values[0]
        for v in values[1:]:
            if _cmp(v, best) > 0:
                best = v
        shown = repr(best) if isinstance(best, float) else to_str(best)
        return shown == w["max"] and value is not None and _cmp(value, best) > 0
    raise ValueError(f"no re-check for {prop}")
