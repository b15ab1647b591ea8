"""The numeric, exact and symbolic forms of every declared metric agree, including where undefined.

Each metric's three forms come from one formula; these tests check that the backends
really do compute the same function: on Hypothesis-generated situations (binary and
graded, with unjudged documents) and exhaustively on all small situations.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from irprops.metrics import REGISTRY, Measure, Situation, Undefined, compare, judged_nonrelevant
from irprops.metrics.exact import to_float
from tests.helpers import close, default_measure, draw_case, symbolic_form

KEYS = list(REGISTRY)


def assert_forms_agree(measure: Measure, situation: Situation) -> None:
    exact_value = measure.exact(situation)
    numeric_value = measure.numeric(situation)
    form = symbolic_form(measure.name, situation.k)
    symbolic_value = form.at(situation) if form is not None else None
    if isinstance(exact_value, Undefined):
        assert isinstance(numeric_value, Undefined), f"{measure.name} on {situation}: exact undefined, numeric {numeric_value}"
        assert symbolic_value is None or isinstance(symbolic_value, Undefined), f"{measure.name} on {situation}: symbolic {symbolic_value}"
        return
    assert not isinstance(numeric_value, Undefined), f"{measure.name} on {situation}: numeric undefined, exact {exact_value}"
    assert close(numeric_value, to_float(exact_value)), f"{measure.name} on {situation}: {numeric_value} vs {exact_value}"
    if symbolic_value is not None:
        assert not isinstance(symbolic_value, Undefined), f"{measure.name} on {situation}: symbolic undefined"
        assert compare(symbolic_value, exact_value) == 0, f"{measure.name} on {situation}: {symbolic_value} != {exact_value}"


class TestOnGeneratedSituations:
    @pytest.mark.parametrize("key", KEYS)
    @settings(max_examples=150)
    @given(data=st.data())
    def test_the_three_forms_agree(self, key: str, data: st.DataObject) -> None:
        assert_forms_agree(*draw_case(data, key, unjudged=True))

    @pytest.mark.parametrize("key", [k for k in KEYS if REGISTRY[k].relevance == "graded"])
    @settings(max_examples=60)
    @given(data=st.data())
    def test_graded_metrics_agree_on_binary_situations_too(self, key: str, data: st.DataObject) -> None:
        assert_forms_agree(*draw_case(data, key, binary=True))


def small_binary_situations() -> list[Situation]:
    """Every binary ranking of length <= 4, with 0-2 relevant documents left unretrieved, at k = 1..5."""
    found = []
    for length in range(1, 5):
        for ranking in itertools.product((0, 1), repeat=length):
            for missing in range(3):
                for k in range(1, 6):
                    found.append(Situation.of(ranking, k=k, R=sum(ranking) + missing))
    return found


def small_graded_situations() -> list[Situation]:
    """Every ranking of length <= 3 over grades {0, 1/2, 1}, with none or one further relevant document, at k = 1..4."""
    scale = (Fraction(0), Fraction(1, 2), Fraction(1))
    found = []
    for length in range(1, 4):
        for ranking in itertools.product(scale, repeat=length):
            own = [g for g in ranking if g]
            for extra in ((), (Fraction(1, 2),), (Fraction(1),)):
                for k in range(1, 5):
                    found.append(Situation(ranking, k, tuple(own) + extra))
    return found


class TestOnEverySmallSituation:
    @pytest.mark.parametrize("key", KEYS)
    def test_the_three_forms_agree_on_every_small_situation(self, key: str) -> None:
        measure = default_measure(key)
        cases = small_binary_situations() if measure.metric.binary else small_binary_situations()[::3] + small_graded_situations()
        if measure.reads_unjudged():  # each with its first nonrelevant document unjudged too
            cases += [Situation(s.ranking[:i] + (None,) + s.ranking[i + 1 :], s.k, s.qrels) for s in cases if 0 in s.ranking
                      for i in [s.ranking.index(0)]]
        if measure.reads_nonrelevant():  # each with N its judged nonrelevant documents and two more (without N: undefined)
            cases = [s.with_nonrelevant(judged_nonrelevant(s.ranking) + extra) for s in cases for extra in (0, 2)]
        undefined = 0
        for situation in cases:
            assert_forms_agree(measure, situation)
            undefined += isinstance(measure.exact(situation), Undefined)
        # the sweep reaches the undefined cases of metrics that have them (R = 0, or nothing relevant in the top k)
        can_be_undefined = key in {"Recall", "RPrec", "AP", "SN-AP", "NDCG", "SN-DCG", "Q", "NDCG-exp", "BPref"}
        assert (undefined > 0) == can_be_undefined


class TestTheExactForm:
    @pytest.mark.parametrize("key", KEYS)
    def test_is_a_fraction_or_an_expression_without_floats(self, key: str) -> None:
        measure = default_measure(key)
        for situation in small_binary_situations()[::7]:
            value = measure.exact(situation)
            if isinstance(value, Undefined):
                continue
            assert isinstance(value, Fraction) or (isinstance(value, sympy.Expr) and not value.has(sympy.Float))

    def test_binary_metrics_count_every_positive_grade_of_a_graded_situation_as_relevant(self) -> None:
        assert default_measure("AP").exact(Situation.of("1,1/2", k=2)) == default_measure("AP").exact(Situation.of("11", k=2)) == 1
