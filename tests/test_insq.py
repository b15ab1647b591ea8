"""INSQ (C/W/L) scores as its continuation probabilities define it, and its row is decided by proofs and a witness.

INSQ's user continues from rank i with probability C(i) = ((i + 2T - 1)/(i + 2T))^2; the weight of rank i is the
chance of reaching it, normalised over an infinite ranking. The oracle here multiplies the C(j) out as Fractions and
brackets the infinite normaliser between a partial sum and that sum plus an integral bound on its tail, so it checks
irprops' exact value (with pi^2 in it) without the trigamma closed form irprops uses.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest

from irprops.metrics import InputError, Situation, compare, parse, score
from irprops.proofs import prove
from irprops.verdicts import Prop

from .helpers import settled
from .recheck import of_measure

GRADES = (Fraction(0), Fraction(1, 2), Fraction(1))
TERMS = 2000
"""The ranks of the normaliser summed exactly; the rest is bounded by an integral."""


def reach(i: int, T: int) -> Fraction:
    """The chance of reaching rank i: the product of C(j) = ((j + 2T - 1)/(j + 2T))^2 over the ranks j above it."""
    chance = Fraction(1)
    for j in range(1, i):
        chance *= Fraction(j + 2 * T - 1, j + 2 * T) ** 2
    return chance


def bracket(ranking: tuple[Fraction, ...], k: int, T: int) -> tuple[Fraction, Fraction]:
    """Bounds on INSQ@k: the gain of the top k weighted by the chances of reaching each rank, over the normaliser
    sum_{i >= 1} reach(i), which lies between its first TERMS terms and those plus (2T)^2 / (TERMS + 2T - 1) (the
    terms past TERMS are (2T)^2 / (i + 2T - 1)^2, below the integral of (2T)^2 / (x + 2T - 1)^2 from TERMS on)."""
    gain = sum((ranking[i - 1] * reach(i, T) for i in range(1, min(k, len(ranking)) + 1)), Fraction(0))
    partial, chance = Fraction(0), Fraction(1)
    for i in range(1, TERMS + 1):
        partial += chance
        chance *= Fraction(i + 2 * T - 1, i + 2 * T) ** 2
    tail = Fraction((2 * T) ** 2, TERMS + 2 * T - 1)
    return gain / (partial + tail), gain / partial


class TestInsqScoresAsItsUserModelDefinesIt:
    @pytest.mark.parametrize("T", [1, 3])
    def test_on_every_ranking_up_to_length_three_it_lies_within_the_oracles_bracket(self, T: int) -> None:
        for n in (1, 2, 3):
            for ranking in itertools.product(GRADES, repeat=n):
                value = parse(f"INSQ(T={T})@{n}").exact(Situation(ranking, n, tuple(g for g in ranking if g)))
                low, high = bracket(ranking, n, T)
                assert compare(value, low) >= 0 and compare(value, high) <= 0, (ranking, value)

    def test_the_weight_of_rank_i_telescopes_to_the_chance_of_reaching_it(self) -> None:
        # the chance of reaching rank i is (2T / (i + 2T - 1))^2: so the ratio of two ranks' scores is exact
        insq = parse("INSQ(T=2)@5")
        one, other = insq.exact(Situation.of("10000", qrels="1")), insq.exact(Situation.of("00001", qrels="1"))
        assert compare(one * reach(5, 2), other) == 0 and reach(5, 2) == Fraction(4, 8) ** 2

    def test_a_worked_example(self) -> None:
        assert str(score("INSQ@2", "1,1").exact) == "13/(36*(-1 + pi**2/6))"  # (1/4 + 1/9) / (pi^2/6 - 1) at T = 1

    def test_its_target_is_an_integer_up_to_a_thousand(self) -> None:
        # psi1(2T) is pi^2/6 less a rational that grows with T: T = 100,000 exhausted memory in a review
        for name, message in (("INSQ(T=1001)", "1 <= T <= 1000"), ("INSQ(T=3/2)", "must be an integer")):
            with pytest.raises(InputError, match=re.escape(message)):
                parse(name)

    def test_it_is_zero_without_relevant_documents(self) -> None:
        assert parse("INSQ@2").exact(Situation.of("00", k=2, R=0)) == 0


class TestInsqsRow:
    @pytest.mark.parametrize("prop", [Prop.BOUNDED, Prop.MONOTONIC, Prop.CONVERGENT, Prop.TOP_WEIGHTED, Prop.LOCALIZED,
                                      Prop.COMPLETE])
    def test_its_yes_cells_are_proved_for_every_k(self, prop: Prop) -> None:
        proof = prove(parse("INSQ"), prop)
        assert getattr(proof, "conclusion", None) == "yes" and str(proof.reach) == "all k", proof  # type: ignore[union-attr]

    def test_it_is_not_realizable_as_the_largest_score_grows_with_k(self) -> None:
        result = settled(parse("INSQ"), of_measure(parse("INSQ")), ["realizable"])
        verdict = result.verdicts["realizable"]
        assert verdict.verdict == "no" and verdict.witness is not None and verdict.witness.data["k"] == 1
