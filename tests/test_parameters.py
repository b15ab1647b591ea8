"""A parameter is its own symbol: whatever its name, no form or prover confuses it with the depth, R or their variables.

A sixth hostile review found false "yes" verdicts for all k from parameters named ``k``, ``R`` and ``t``: SymPy symbols
with one name and one set of assumptions are one symbol, so ``m.k - m.param("k")`` was 0 in the closed form, and a
parameter ``t`` was the provers' real rank variable (every weight fact was checked on ranks 1 to 2 only).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from irprops.metrics import InputError, Param, Situation
from irprops.metrics.symbolic import Parameter
from irprops.proofs import prove
from irprops.proofs.signs import K, T
from irprops.verdicts import Prop
from tests import adversarial_proposals as adv
from tests.helpers import covers

ZERO, ONE = Fraction(0), Fraction(1)


class TestAParameterName:
    @pytest.mark.parametrize("name", ["k", "R", "t", "i", "n", "x", "r_1", "q_p", "b_3", "max rel", "2p", ""])
    def test_that_the_forms_or_provers_use_or_that_is_not_an_identifier_is_refused_on_one_line(self, name: str) -> None:
        with pytest.raises(InputError, match="a parameter is named by letters and digits") as refused:
            Param(name, Fraction(1, 2), "0 < v < 1", lambda v: 0 < v < 1)
        assert "\n" not in str(refused.value)

    @pytest.mark.parametrize("name", ["p", "beta", "gain2", "b"])
    def test_of_letters_and_digits_is_accepted(self, name: str) -> None:
        assert Param(name, Fraction(1, 2), "0 < v < 1", lambda v: 0 < v < 1).name == name


class TestAParameterSymbol:
    def test_equals_no_other_symbol_of_its_name_and_assumptions(self) -> None:
        assert Parameter("k", integer=True, positive=True) != K and Parameter("t", nonnegative=True) != T
        assert Parameter("p", nonnegative=True) != sympy.Symbol("p", nonnegative=True)
        assert str(Parameter("p", nonnegative=True)) == "p"

    @pytest.mark.parametrize("name", ["q", "t", "k", "R"])
    def test_named_as_the_depth_or_a_rank_variable_still_proves_nothing_false(self, name: str) -> None:
        measure = adv.linear_decay(name)  # a name past the check: the forms and provers alone must keep it apart
        ranking = (ZERO,) * 1601 + (ONE,)
        assert measure.exact(Situation(ranking, 1602, (ONE,))) == adv.linear_decay_truth(ranking, 1602, (ONE,)) < 0
        for prop in (Prop.MONOTONIC, Prop.CONVERGENT):
            assert not covers(prove(measure, prop), 1601), (name, prop)
