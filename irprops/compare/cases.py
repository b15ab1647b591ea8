"""The situations a differential comparison scores: small ones exhaustively, deeper ones from Hypothesis, some tied.

A :class:`Case` is a situation (ranking, depth k, the qrels' relevant grades) and, optionally, the sizes of its groups
of documents with equal scores, top first. irprops' value on a tied case is the expectation over the orders of each
group (McSherry and Najork 2008: every order of the tied documents equally likely); a toolkit's value is whatever order
it breaks ties in, which :func:`orders` names.

The exhaustive cases (:func:`small`): every ranking of up to 6 documents (binary) or 4 (graded: 0, 1/2, 1), with 0 to 2
relevant documents not retrieved, at every depth from 1 to one past the ranking (runs shorter than k); rankings of up to 4
with unjudged documents; R = 0; and every way to tie the documents of rankings of 2 to 5 documents.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from irprops.metrics import Situation, judged_nonrelevant
from irprops.toolkits.glue import docno_numbers

ZERO, HALF, ONE = Fraction(0), Fraction(1, 2), Fraction(1)
Grade = Fraction | None


@dataclass(frozen=True)
class Case:
    """A situation, and the sizes of its groups of tied documents (None: every score differs)."""

    situation: Situation
    ties: tuple[int, ...] | None = None

    def request(self) -> tuple[object, ...]:
        """The case as a toolkit's adapter reads it (grades as texts, None for unjudged)."""
        s = self.situation
        item: tuple[object, ...] = ([None if g is None else str(g) for g in s.ranking], s.k, [str(g) for g in s.qrels])
        return (*item, list(self.ties)) if self.ties else item

    def to_json(self) -> dict[str, object]:
        s = self.situation
        found: dict[str, object] = {"k": s.k, "ranking": ["?" if g is None else str(g) for g in s.ranking],
                                    "qrels": [str(g) for g in s.qrels]}
        if self.ties:
            found["ties"] = list(self.ties)
        return found


def situation(ranking: tuple[Grade, ...], k: int, extra: tuple[Fraction, ...] = ()) -> Situation:
    """The situation whose qrels are the ranking's relevant grades and ``extra`` ones not retrieved, and whose judged
    nonrelevant documents (N, which BPref reads) are the ranking's zeros: the qrels the glue gives a toolkit."""
    return Situation.unchecked(ranking, k, tuple(sorted([*(g for g in ranking if g), *extra], reverse=True)),
                               judged_nonrelevant(ranking))


def small(graded: bool) -> Iterator[Case]:
    """The exhaustive cases, smallest first (see the module docstring)."""
    grades = (ZERO, HALF, ONE) if graded else (ZERO, ONE)
    extras: list[tuple[Fraction, ...]] = [(), (ONE,), (ONE, ONE)] + ([(HALF,)] if graded else [])
    for length in range((4 if graded else 6) + 1):
        for ranking in itertools.product(grades, repeat=length):
            for extra in extras:
                for k in range(1, length + 2):
                    yield Case(situation(ranking, k, extra))
    for length in range(1, 5):
        for marked in itertools.product((ZERO, ONE, None), repeat=length):
            if None in marked:
                for extra in ((), (ONE,)):
                    for k in range(1, length + 1):
                        yield Case(situation(marked, k, extra))
    for length in range(2, 6):
        for ranking in itertools.product((ZERO, ONE), repeat=length):
            for ties in compositions(length):
                if len(ties) < length:
                    for k in sorted({1, length // 2 + 1, length}):
                        yield Case(situation(ranking, k, (ONE,)), ties)


def compositions(n: int) -> Iterator[tuple[int, ...]]:
    """Every way to cut n documents into consecutive groups, top first."""
    for cuts in itertools.product((False, True), repeat=n - 1):
        sizes, size = [], 1
        for cut in cuts:
            if cut:
                sizes.append(size)
                size = 1
            else:
                size += 1
        yield (*sizes, size)


@st.composite
def deep(draw: st.DrawFn, graded: bool) -> Case:
    """A deeper case: up to 25 documents, depth up to 20, finer grades when graded, some unjudged, sometimes tied."""
    grade = st.sampled_from([ZERO, Fraction(1, 4), HALF, Fraction(3, 4), ONE] if graded else [ZERO, ONE])
    entry = st.one_of(grade, st.none()) if draw(st.booleans()) else grade
    ranking = tuple(draw(st.lists(entry, max_size=25)))
    extra = tuple(draw(st.lists(grade.filter(bool), max_size=4)))
    k = draw(st.integers(1, 20))
    ties: list[int] = []
    if len(ranking) > 1 and draw(st.booleans()):
        while sum(ties) < len(ranking):
            ties.append(min(draw(st.integers(1, 3)), len(ranking) - sum(ties)))
    return Case(situation(ranking, k, extra), tuple(ties) if ties and len(ties) < len(ranking) else None)


def orders(case: Case) -> dict[str, Situation]:
    """The case with its ties broken each fixed way a toolkit may break them, by name, the docnos being those
    :func:`irprops.toolkits.glue.docno_numbers` gives the toolkit (rotated by one within a tie group)."""
    s = case.situation
    if not case.ties:
        return {}
    given = [number for number, _ in docno_numbers(len(s.ranking), case.ties)]
    found = {}
    for name in ("input order", "reverse input order", "docno ascending", "docno descending"):
        ranking: list[Grade] = []
        start = 0
        for size in case.ties:
            group = list(s.ranking[start:start + size])
            numbers = given[start:start + size]
            by_docno = [g for _, g in sorted(zip(numbers, group, strict=True), key=lambda pair: pair[0])]
            ranking += {"input order": group, "reverse input order": group[::-1], "docno ascending": by_docno,
                        "docno descending": by_docno[::-1]}[name]
            start += size
        found[name] = Situation.unchecked(tuple(ranking), s.k, s.qrels, s.nonrelevant)
    return found


def arrangements(case: Case, limit: int = 720) -> list[Situation] | None:
    """Every distinct order of the case's tied groups (each equally likely), or None past ``limit`` of them."""
    s = case.situation
    if not case.ties:
        return [s]
    groups, start, count = [], 0, 1
    for size in case.ties:
        group = s.ranking[start:start + size]
        count *= math.factorial(size) // math.prod(math.factorial(n) for n in Counter(_key1(g) for g in group).values())
        if count > limit:
            return None
        groups.append(sorted(set(itertools.permutations(group)), key=_key))
        start += size
    return [Situation.unchecked(tuple(itertools.chain.from_iterable(p)), s.k, s.qrels, s.nonrelevant) for p in itertools.product(*groups)]


def _key1(g: Grade) -> tuple[int, Fraction]:
    return (0, ZERO) if g is None else (1, g)


def _key(order: tuple[Grade, ...]) -> tuple[tuple[int, Fraction], ...]:
    return tuple(_key1(g) for g in order)
