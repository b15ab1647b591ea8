"""The situation a metric is scored on: a ranking, a depth k and the collection's qrels.

* ``ranking``: the grades of the ranked documents, top first (``None`` = unjudged).
  It may be longer than k (documents below k are ignored by localized metrics) or
  shorter (missing positions hold no document: they count as nonrelevant, as in trec_eval,
  and those down to k, holding no judgment, as unjudged where a metric reads unjudged marks,
  as RBP's residual does; Moffat and Zobel 2008, Section 4.4).
* ``k``: the evaluation depth, at least 1.
* ``qrels``: the grades (> 0) of every relevant document in the collection; R = len(qrels).
  The ranking's nonzero grades must form a sub-multiset of the qrels, since a document
  cannot be ranked unless it is in the collection.
* ``nonrelevant``: N, the number of judged nonrelevant documents in the collection (trec_eval's
  ``num_nonrel``), or None when it is not known. Only BPref reads it (``m.N``); a metric that
  reads it is undefined where it is not known. It is at least the ranking's judged
  nonrelevant documents (grade 0), since each of those is one of them.

Unjudged documents count as nonrelevant in point scores (the TREC convention); RBP adds
their weight to its residual. The property checkers use fully judged situations only.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from .errors import InputError
from .grades import ByIdentity, Entry, check_grade, format_grade, format_ranking, is_binary, parse_qrels, parse_ranking

MAX_RELEVANT = 1_000_000
"""The most relevant documents --R may name (a larger R is a memory error, not a collection)."""
MAX_NONRELEVANT = 10**9
"""The most judged nonrelevant documents --N may name."""


def judged_nonrelevant(ranking: Iterable[Entry]) -> int:
    """The judged nonrelevant documents (grade 0, not ``None``) of a ranking: the least N consistent with it.

    >>> judged_nonrelevant(parse_ranking("10?0"))
    2
    """
    return sum(1 for e in ranking if e is not None and e == 0)


@dataclass(frozen=True)
class Situation:
    """A ranking scored at depth ``k`` against a collection whose relevant grades are ``qrels``.

    >>> s = Situation.of("10100", R=3)
    >>> s.k, s.R, s.grade(3), s.grade(9)
    (5, 3, Fraction(1, 1), Fraction(0, 1))
    >>> Situation.of("11", qrels="1")
    Traceback (most recent call last):
    ...
    irprops.metrics.errors.InputError: qrels = '1': the ranking holds 2 relevant documents of grade 1 but the qrels only 1 (every relevant ranked document must be in the qrels)
    """  # noqa: E501

    ranking: tuple[Entry, ...]
    k: int
    qrels: tuple[Fraction, ...]
    nonrelevant: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise InputError("k", self.k, "the depth must be an integer >= 1")
        ranking = tuple(None if e is None else check_grade(e, f"ranking entry {i}") for i, e in enumerate(self.ranking, start=1))
        qrels = tuple(sorted((check_grade(g, "qrels") for g in self.qrels), reverse=True))
        if any(g == 0 for g in qrels):
            raise InputError("qrels", _show(qrels), "qrels list only the grades (> 0) of relevant documents")
        object.__setattr__(self, "ranking", ranking)
        object.__setattr__(self, "qrels", qrels)
        object.__setattr__(self, "_hash", _hashed(ranking, self.k, qrels, self.nonrelevant))
        N = self.nonrelevant
        if N is not None:
            if isinstance(N, bool) or not isinstance(N, int) or N < 0 or N > MAX_NONRELEVANT:
                raise InputError("N", N, f"the number of judged nonrelevant documents must be an integer from 0 to {MAX_NONRELEVANT:,}")
            ranked = judged_nonrelevant(ranking)
            if N < ranked:
                raise InputError("N", N, f"the ranking already holds {ranked} judged nonrelevant documents (grade 0)",
                                 f"use N >= {ranked}, or mark unjudged documents ?")
        missing = Counter(g for g in ranking if g) - Counter(qrels)
        if missing:
            grade, count = min(missing.items())
            held = sum(1 for g in ranking if g == grade)
            raise InputError(
                "qrels",
                _show(qrels),
                f"the ranking holds {held} relevant documents of grade {format_grade(grade)} but the qrels only {held - count}",
                "every relevant ranked document must be in the qrels",
            )

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    @classmethod
    def unchecked(cls, ranking: tuple[Entry, ...], k: int, qrels: tuple[Fraction, ...], nonrelevant: int | None = None) -> Situation:
        """A situation built without validation, for code that builds consistent ones (the searches).

        The caller guarantees what ``__post_init__`` would check: Fraction grades in [0, 1]
        (or None), k >= 1, ``qrels`` sorted in decreasing order and containing the ranking's
        relevant grades, ``nonrelevant`` None or at least the ranking's judged nonrelevant documents.
        """
        self = object.__new__(cls)
        object.__setattr__(self, "ranking", ranking)
        object.__setattr__(self, "k", k)
        object.__setattr__(self, "qrels", qrels)
        object.__setattr__(self, "nonrelevant", nonrelevant)
        object.__setattr__(self, "_hash", _hashed(ranking, k, qrels, nonrelevant))
        return self

    @classmethod
    def of(
        cls,
        ranking: str | Iterable[Entry | int | str],
        k: int | None = None,
        qrels: str | Iterable[Fraction | int | str] | None = None,
        R: int | None = None,
        N: int | None = None,
    ) -> Situation:
        """Build a situation from the notation people type.

        ``k`` defaults to the larger of the ranking's length and R, so that the depth covers
        the whole ranking and every relevant document (trec_eval's ``ndcg`` and ``Rprec``
        without a cutoff). Give at most one of ``qrels`` (the grades
        of all relevant documents) and ``R`` (the number of relevant documents: the
        ranking's own relevant documents plus enough further documents of grade 1).
        With neither, the qrels are the ranking's own relevant documents. ``N`` is the number of
        judged nonrelevant documents in the collection (None: not known; BPref needs it).
        """
        entries = parse_ranking(ranking) if isinstance(ranking, str) else tuple(_entry(e, i) for i, e in enumerate(ranking, start=1))
        if qrels is not None and R is not None:
            raise InputError("R", R, "give either qrels or R, not both")
        own = tuple(g for g in entries if g)
        if qrels is not None:
            grades = parse_qrels(qrels) if isinstance(qrels, str) else tuple(check_grade(g, "qrels") for g in qrels)
        elif R is not None:
            if isinstance(R, bool) or not isinstance(R, int) or R < 0:
                raise InputError("R", R, "the number of relevant documents must be an integer >= 0")
            if R < len(own):
                raise InputError("R", R, f"the ranking already holds {len(own)} relevant documents", f"use R >= {len(own)}")
            if R > MAX_RELEVANT:
                raise InputError("R", R, f"at most {MAX_RELEVANT:,} relevant documents")
            grades = own + (Fraction(1),) * (R - len(own))
        else:
            grades = own
        return cls(entries, max(len(entries), len(grades), 1) if k is None else k, grades, N)

    @property
    def R(self) -> int:
        """The number of relevant documents in the collection."""
        return len(self.qrels)

    @functools.cached_property
    def binary(self) -> bool:
        """Whether every judged grade, in the ranking and the qrels, is 0 or 1 (asked before every run: computed once)."""
        return is_binary(self.ranking) and is_binary(self.qrels)

    @property
    def judged(self) -> bool:
        """Whether every ranked document is judged."""
        return all(e is not None for e in self.ranking)

    def grade(self, i: int) -> Fraction:
        """The grade at 1-based position ``i``: 0 when unjudged or beyond the ranking."""
        if 1 <= i <= len(self.ranking):
            entry = self.ranking[i - 1]
            return Fraction(0) if entry is None else entry
        return Fraction(0)

    def unjudged(self, i: int) -> bool:
        """Whether 1-based position ``i`` is unjudged: it holds an unjudged document, or, down to depth k, none at all
        (a run shorter than k leaves its last positions unjudged, as RBP's residual counts them).

        >>> s = Situation.of("1?0", k=5)
        >>> [s.unjudged(i) for i in range(1, 8)]
        [False, True, False, True, True, False, False]
        """
        ranking = self.ranking
        if i > len(ranking):
            return i <= self.k
        return i >= 1 and ranking[i - 1] is None

    def at_depth(self, k: int) -> Situation:
        """The same ranking and collection scored at another depth."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise InputError("k", k, "the depth must be an integer >= 1")
        return Situation.unchecked(self.ranking, k, self.qrels, self.nonrelevant)

    def with_nonrelevant(self, N: int | None) -> Situation:
        """The same ranking, depth and qrels in a collection with ``N`` judged nonrelevant documents (None: not known).

        >>> print(Situation.of("10?", R=2).with_nonrelevant(4))
        10? at k = 3 with qrels {1,1} and N = 4
        """
        return Situation(self.ranking, self.k, self.qrels, N)

    def __str__(self) -> str:
        N = "" if self.nonrelevant is None else f" and N = {self.nonrelevant}"
        return f"{format_ranking(self.ranking)} at k = {self.k} with qrels {{{_show(self.qrels)}}}{N}"


def _hashed(ranking: tuple[Entry, ...], k: int, qrels: tuple[Fraction, ...], nonrelevant: int | None) -> int:
    """``hash((ranking, k, qrels, nonrelevant))``, the same number computed faster. A tuple's hash is made of its elements'
    hashes, so each grade may stand in it as any value of the same hash: an integral grade as its numerator (Python's
    numeric hash, which Fraction's keeps), another as its hash, an int of the same hash (Fraction's own hash computes a
    modular inverse each time). The searches build tens of thousands of situations, some 200 grades long, from a few
    hundred grade objects: each object's stand-in is kept by its identity (:class:`~irprops.metrics.grades.ByIdentity`).

    >>> s = (Fraction(1), None, Fraction(1, 2)); _hashed(s, 3, (Fraction(1), Fraction(1, 2)), None) == hash((s, 3, s[::2], None))
    True
    """
    return hash((_STANDING.each(ranking), k, _STANDING.each(qrels), nonrelevant))


def _stand_in(g: Entry) -> object:
    """A value whose hash is ``hash(g)``, cheaper to hash (see :func:`_hashed`)."""
    if g is None:
        return None
    return g.numerator if g.denominator == 1 else hash(g)


_STANDING = ByIdentity(_stand_in)
"""The stand-in of each grade object seen, for :func:`_hashed`."""


def _entry(value: Entry | int | str, position: int) -> Entry:
    if value is None or value == "?":
        return None
    return check_grade(value, f"ranking entry {position}")


def _show(grades: Iterable[Fraction]) -> str:
    return ",".join(format_grade(g) for g in grades)
