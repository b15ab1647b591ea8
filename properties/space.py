"""Where the refutation search looks: exhaustive small situations, then Hypothesis.

The exhaustive phase enumerates situations in the order that defines a *minimal* witness:
smallest depth k, then shortest ranking, then fewest relevant documents R (then rankings in
lexicographic order of grades, 0 first). They are fully judged, unless the metric reads
unjudged marks (a declared formula that calls ``m.unjudged``): then a ranked document may also be
unjudged (``None``, after the grades in that order). Any other metric scores an unjudged document
as nonrelevant, so for it the judged situations already cover every case. A metric that reads the
collection's number N of judged nonrelevant documents (``m.N``, BPref) gets each situation with N
from the ranking's own judged nonrelevant documents to ``NONRELEVANT_EXTRA`` more (smallest first),
and unjudged documents too (only judged ones count towards N, so it can tell them apart, marks read
or not); no other metric reads N, and its situations leave it unknown. The first
witness met is therefore minimal within the enumerated space. Rankings are at least k
long (the paper scores a ranking of length k; documents below k may follow); the qrels
are the ranking's relevant grades plus up to ``extra`` relevant documents not retrieved.

The Hypothesis phase then samples larger depths and finer grades, derandomized so that
runs are reproducible.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from irprops.metrics import Situation, judged_nonrelevant

if TYPE_CHECKING:
    from hypothesis import strategies as st

ZERO, HALF, ONE = Fraction(0), Fraction(1, 2), Fraction(1)
NONRELEVANT_EXTRA = 2
"""Judged nonrelevant documents a searched collection holds beyond the ranking's own: 0..NONRELEVANT_EXTRA."""
FINE_GRADES = (ZERO, ONE, HALF, Fraction(1, 4), Fraction(3, 4), Fraction(1, 3), Fraction(2, 3))
"""Grades the Hypothesis phase draws from, simplest first (Hypothesis shrinks towards the front)."""


@dataclass(frozen=True)
class Space:
    """The bounds of both search phases."""

    binary: bool
    max_k: int
    """Exhaustive depths 1..max_k."""
    below: int
    """Documents below the shortest ranking a property needs: 0..below."""
    extra: int
    """Relevant documents not retrieved: 0..extra."""
    grades: tuple[Fraction, ...]
    """The exhaustive grade scale, ascending."""
    search_max_k: int
    """Hypothesis depths 1..search_max_k."""
    examples: int
    """Hypothesis examples per property."""
    budget: float = 30.0
    """Seconds a property's search may take before it stops (a safety net for slow proposals)."""
    deep_max_k: int = 200
    """The structured deep phase: depths 1..deep_max_k (0 turns it off)."""
    unjudged: bool = False
    """Whether ranked documents may be unjudged (for a metric that reads unjudged marks)."""
    nonrelevant: bool = False
    """Whether situations give N, the collection's judged nonrelevant documents (for a metric that reads ``m.N``)."""

    @classmethod
    def default(cls, binary: bool, unjudged: bool = False, nonrelevant: bool = False) -> Space:
        """The bounds irprops searches within; with unjudged documents one depth less (a third value per rank), and with N
        one less again (three values of N per situation)."""
        less = int(unjudged) + int(nonrelevant)
        if binary:
            return cls(binary=True, max_k=6 - less, below=1, extra=2, grades=(ZERO, ONE), search_max_k=10, examples=200,
                       unjudged=unjudged, nonrelevant=nonrelevant)
        return cls(binary=False, max_k=max(4 - less, 2), below=1, extra=2, grades=(ZERO, HALF, ONE), search_max_k=8, examples=200,
                   unjudged=unjudged, nonrelevant=nonrelevant)

    @property
    def positive(self) -> tuple[Fraction, ...]:
        return tuple(g for g in self.grades if g)

    @property
    def search_grades(self) -> tuple[Fraction, ...]:
        return (ZERO, ONE) if self.binary else FINE_GRADES

    def describe(self) -> str:
        counted = f", N from the ranking's judged nonrelevant documents to {NONRELEVANT_EXTRA} more" if self.nonrelevant else ""
        return (f"{self.scale()}{', unjudged documents' if self.unjudged else ''}{counted}, k <= {self.max_k}, rankings up to "
                f"{self.below} longer than needed, up to {self.extra} relevant documents not retrieved")

    def scale(self) -> str:
        return "binary grades" if self.binary else f"grades {{{', '.join(map(str, self.grades))}}}"

    def situations(self, k: int, length: int) -> Iterator[Situation]:
        """Every situation at depth k with a ranking of this length, by R, then ranking, then unretrieved grades."""
        entries: tuple[Fraction | None, ...] = (*self.grades, None) if self.unjudged else self.grades
        rankings = list(itertools.product(entries, repeat=length))
        for R in range(length + self.extra + 1):
            for ranking in rankings:
                own = tuple(g for g in ranking if g)
                if 0 <= R - len(own) <= self.extra:
                    for unretrieved in itertools.combinations_with_replacement(self.positive, R - len(own)):
                        if self.nonrelevant:
                            least = judged_nonrelevant(ranking)
                            for N in range(least, least + NONRELEVANT_EXTRA + 1):
                                yield consistent(ranking, k, own + unretrieved, N)
                        else:
                            yield consistent(ranking, k, own + unretrieved)

    def depths_and_lengths(self, at_least: int) -> Iterator[tuple[int, int]]:
        """(k, length) with length from k + at_least to k + at_least + below, smallest first."""
        for k in range(1, self.max_k + 1):
            for length in range(k + at_least, k + at_least + self.below + 1):
                yield k, length

    def strategy(self, at_least: int) -> st.SearchStrategy[Situation]:
        """Hypothesis situations with rankings at least k + at_least long."""
        return _situations(self, at_least)

    def deep_depths(self) -> range:
        """The depths of the structured deep phase, past the exhaustive ones."""
        return range(1, self.deep_max_k + 1)


def marked(length: int, positions: Iterable[int], grade: Fraction | None = ONE,
           rest: Fraction | None = ZERO) -> tuple[Fraction | None, ...]:
    """A ranking of ``length`` documents: ``grade`` at the 1-based ``positions``, ``rest`` elsewhere."""
    chosen = set(positions)
    return tuple(grade if p in chosen else rest for p in range(1, length + 1))


def with_qrels(ranking: tuple[Fraction | None, ...], k: int, counted: bool = False) -> Iterator[Situation]:
    """The ranking at depth k with its own relevant documents as qrels, and with one relevant document more (not retrieved);
    ``counted``: each with N the ranking's judged nonrelevant documents (the collection holds no others)."""
    own = tuple(g for g in ranking if g)
    N = judged_nonrelevant(ranking) if counted else None
    yield consistent(ranking, k, own, N)
    yield consistent(ranking, k, (*own, ONE), N)


def deep_situations(k: int, length: int, unjudged: bool = False, counted: bool = False) -> Iterator[Situation]:
    """Structured situations at depth k, where no enumeration is feasible: the one relevant document at rank 1, at k
    or just below k, every document relevant, none relevant, every one but rank k (each with qrels and N as
    :func:`with_qrels`); with ``unjudged``, also the one unjudged document at rank 1 or at k, and every document unjudged."""
    rankings = [marked(length, (1,)), marked(length, (k,)), marked(length, (k + 1,)), marked(length, range(1, length + 1)),
                marked(length, ()), marked(length, (k,), ZERO, ONE)]
    if unjudged:
        rankings += [marked(length, (1,), None), marked(length, (k,), None), marked(length, (), rest=None)]
    for ranking in rankings:
        yield from with_qrels(ranking, k, counted)


@functools.lru_cache(maxsize=64)
def _situations(space: Space, at_least: int) -> st.SearchStrategy[Situation]:
    """Hypothesis situations (:meth:`Space.strategy`), their strategies built once per space (issue 13: building them on
    every draw cost a third of the Hypothesis phase); the draws, and so the examples, are those of a per-draw build."""
    from hypothesis import strategies as st

    grade = st.sampled_from(space.search_grades)
    entry = st.one_of(grade, st.none()) if space.unjudged else grade
    depths = st.integers(1, space.search_max_k)
    lengths = {k: st.integers(k + at_least, k + at_least + space.below + 2) for k in range(1, space.search_max_k + 1)}
    rankings = {n: st.lists(entry, min_size=n, max_size=n) for n in range(1 + at_least, space.search_max_k + at_least + space.below + 3)}
    unretrieved = st.lists(grade.filter(bool), max_size=space.extra + 2)
    more = st.integers(0, NONRELEVANT_EXTRA + 2)

    @st.composite
    def situations(draw: st.DrawFn) -> Situation:
        k = draw(depths, label="k")
        ranking = tuple(draw(rankings[draw(lengths[k], label="length")], label="ranking"))
        extra = tuple(draw(unretrieved, label="unretrieved"))
        N = judged_nonrelevant(ranking) + draw(more, label="N") if space.nonrelevant else None
        return consistent(ranking, k, tuple(g for g in ranking if g) + extra, N)

    return situations()


def consistent(ranking: tuple[Fraction | None, ...], k: int, qrels: tuple[Fraction, ...], nonrelevant: int | None = None) -> Situation:
    """A situation the search built consistently (valid grades, qrels holding the ranking's relevant
    grades, N None or at least the ranking's judged nonrelevant documents): only the qrels' order is fixed here, and
    validation is skipped for speed."""
    qrels = tuple(qrels)
    if not all(a is b or a >= b for a, b in itertools.pairwise(qrels)):  # already decreasing (as built, mostly): kept as is,
        qrels = tuple(sorted(qrels, reverse=True))                    # which is what the stable sort would return
    return Situation.unchecked(ranking, k, qrels, nonrelevant)


def swapped(s: Situation, i: int, j: int) -> Situation:
    """The situation with the documents at 1-based ranks i and j exchanged (same collection)."""
    ranking = list(s.ranking)
    ranking[i - 1], ranking[j - 1] = ranking[j - 1], ranking[i - 1]
    return Situation.unchecked(tuple(ranking), s.k, s.qrels, s.nonrelevant)


def top_only(s: Situation) -> Situation:
    """The top k of the ranking, with only its own relevant documents as qrels (and, where N is given, its own judged
    nonrelevant documents as N): the collection holds nothing but the top k."""
    top = s.ranking[: s.k]
    return consistent(top, s.k, tuple(g for g in top if g), None if s.nonrelevant is None else judged_nonrelevant(top))


def complexity(grade: Fraction | None) -> int:
    """How simple a grade is to write: 0, then 1 or unjudged, then 1/2, then thirds and quarters."""
    return 2 if grade is None else grade.denominator + bool(grade)


def size(s: Situation) -> tuple[int, int, int, int, int]:
    """The order minimal witnesses are chosen in: k, ranking length, R, grade complexity, then N (where given)."""
    return (s.k, len(s.ranking), s.R, sum(complexity(g) for g in s.ranking), s.nonrelevant or 0)


def smaller(s: Situation, min_length: int) -> Iterator[Situation]:
    """Situations one step simpler than ``s`` whose ranking keeps at least k + min_length documents (and N, where given,
    at least the ranking's judged nonrelevant documents)."""
    N = s.nonrelevant

    def more(ranking: tuple[Fraction | None, ...]) -> int | None:  # N, raised if the ranking now holds more judged zeros
        return None if N is None else max(N, judged_nonrelevant(ranking))

    if s.k > 1 and len(s.ranking) >= s.k - 1 + min_length:
        yield consistent(s.ranking, s.k - 1, s.qrels, N)
    if len(s.ranking) > s.k + min_length:
        yield consistent(s.ranking[:-1], s.k, s.qrels, N)  # a dropped relevant document stays in the qrels
        if s.ranking[-1]:
            yield consistent(s.ranking[:-1], s.k, _without(s.qrels, s.ranking[-1]), N)
    own = [g for g in s.ranking if g]
    for grade in sorted(set(s.qrels)):
        if own.count(grade) < s.qrels.count(grade):
            yield consistent(s.ranking, s.k, _without(s.qrels, grade), N)
    if N is not None and N > judged_nonrelevant(s.ranking):
        yield consistent(s.ranking, s.k, s.qrels, N - 1)
    for position, entry in enumerate(s.ranking):
        if entry is None:  # an unjudged document made a judged nonrelevant one
            ranking = s.ranking[:position] + (ZERO,) + s.ranking[position + 1 :]
            yield consistent(ranking, s.k, s.qrels, more(ranking))
        for simpler in (ZERO, ONE, HALF):
            if entry and complexity(simpler) < complexity(entry):
                ranking = s.ranking[:position] + (simpler,) + s.ranking[position + 1 :]
                qrels = _without(s.qrels, entry) + ((simpler,) if simpler else ())
                yield consistent(ranking, s.k, qrels, more(ranking))


def _without(grades: tuple[Fraction, ...], grade: Fraction) -> tuple[Fraction, ...]:
    index = grades.index(grade)
    return grades[:index] + grades[index + 1 :]
