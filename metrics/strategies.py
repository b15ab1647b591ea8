"""Hypothesis strategies for consistent situations, shared by the tests and the property search.

Every situation drawn satisfies the situation model: grades in [0, 1], k >= 1, and the
ranking's relevant grades a sub-multiset of the qrels (the qrels are the ranking's own
relevant documents plus a few more that were not retrieved).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from .situation import Situation

BINARY_GRADES = (Fraction(0), Fraction(1))
GRADED_GRADES = tuple(Fraction(g) for g in ("0", "1/4", "1/3", "1/2", "2/3", "3/4", "1"))
"""A small grade scale that exercises ties, thresholds and non-dyadic fractions."""


def grades(binary: bool) -> st.SearchStrategy[Fraction]:
    """One judged grade: 0 or 1, or one of :data:`GRADED_GRADES`."""
    return st.sampled_from(BINARY_GRADES if binary else GRADED_GRADES)


@st.composite
def situations(
    draw: st.DrawFn,
    binary: bool,
    *,
    max_length: int = 8,
    max_unretrieved: int = 4,
    unjudged: bool = False,
    max_k: int | None = None,
    nonrelevant: bool = False,
) -> Situation:
    """A situation: ranking length 1..max_length, k from 1 to two past the ranking's end.

    With ``unjudged`` some ranked documents may be unjudged (``None``); with ``nonrelevant`` the situation gives N, the
    collection's judged nonrelevant documents (the ranking's own and up to four more).
    """
    length = draw(st.integers(1, max_length))
    entry = st.one_of(grades(binary), st.none()) if unjudged else grades(binary)
    ranking = draw(st.lists(entry, min_size=length, max_size=length))
    k = draw(st.integers(1, min(length + 2, max_k or length + 2)))
    unretrieved = draw(st.lists(grades(binary).filter(bool), max_size=max_unretrieved))
    qrels = [g for g in ranking if g] + unretrieved
    N = sum(1 for g in ranking if g is not None and g == 0) + draw(st.integers(0, 4)) if nonrelevant else None
    return Situation(tuple(ranking), k, tuple(qrels), N)
