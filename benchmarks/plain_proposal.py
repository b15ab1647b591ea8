"""A black-box proposal as a researcher writes one: a plain function in a file that imports only the standard library
(``benchmarks/targets.py`` times ``irprops check benchmarks/plain_proposal.py:precision``)."""

from __future__ import annotations

from fractions import Fraction


def precision(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    """P@k: the relevant documents in the top k, over k."""
    return sum(ranking[:k], Fraction(0)) / k
