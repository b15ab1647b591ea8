"""The situation model: rankings, depths and qrels that make sense, and clear errors for those that do not."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given

from irprops.metrics import InputError, Situation
from irprops.metrics.grades import format_ranking, parse_qrels, parse_ranking
from irprops.metrics.strategies import situations


class TestRankingNotation:
    def test_compact_rankings_use_0_1_and_question_marks_with_dash_and_dollar_as_in_the_rbp_paper(self) -> None:
        assert parse_ranking("1--1??") == parse_ranking("$--$??") == (1, 0, 0, 1, None, None)

    def test_comma_separated_grades_may_be_fractions_or_decimals(self) -> None:
        assert parse_ranking("1, 1/2, 0.25, 0, ?") == (1, Fraction(1, 2), Fraction(1, 4), 0, None)

    def test_rankings_print_back_compactly_when_binary(self) -> None:
        assert format_ranking(parse_ranking("$$-?")) == "110?" and format_ranking(parse_ranking("1,1/2")) == "1,1/2"

    @pytest.mark.parametrize(("text", "message"), [
        ("", "empty"), ("10x1", "character 'x' at position 3"), ("1,2", "must lie in [0, 1]"), ("1,abc", "not a grade"),
        ("1,-1/2", "[0, 1]"),
    ])
    def test_bad_rankings_are_refused_with_the_reason(self, text: str, message: str) -> None:
        with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
            parse_ranking(text)

    def test_qrels_list_only_relevant_grades(self) -> None:
        assert parse_qrels("1,1/2") == (1, Fraction(1, 2)) and parse_qrels("") == ()
        with pytest.raises(InputError, match="entry 2 is 0"):
            parse_qrels("1,0")


class TestSituations:
    def test_the_depth_defaults_to_the_ranking_length_and_the_qrels_to_its_relevant_documents(self) -> None:
        s = Situation.of("10100")
        assert (s.k, s.R, s.qrels) == (5, 2, (1, 1))

    def test_r_adds_unretrieved_relevant_documents_of_grade_1(self) -> None:
        assert Situation.of("1,1/2,0", R=4).qrels == (1, 1, 1, Fraction(1, 2))

    def test_positions_past_the_ranking_and_unjudged_documents_count_as_nonrelevant(self) -> None:
        s = Situation.of("1?", k=4)
        assert [s.grade(i) for i in range(1, 5)] == [1, 0, 0, 0] and not s.judged

    def test_the_ranking_may_be_longer_than_the_depth(self) -> None:
        assert Situation.of("1101", k=2).ranking == (1, 1, 0, 1)

    @pytest.mark.parametrize(("build", "message"), [
        (lambda: Situation.of("11", qrels="1"), "holds 2 relevant documents of grade 1 but the qrels only 1"),
        (lambda: Situation.of("1,1/2", qrels="1,1/4"), "grade 1/2"),
        (lambda: Situation.of("111", R=2), "already holds 3 relevant documents"),
        (lambda: Situation.of("1", k=0), "k = 0"),
        (lambda: Situation.of("1", qrels="1", R=1), "either qrels or R"),
        (lambda: Situation((Fraction(3, 2),), 1, ()), "must lie in"),
    ])
    def test_inconsistent_situations_are_refused(self, build, message: str) -> None:  # type: ignore[no-untyped-def]
        with pytest.raises(InputError, match=message):
            build()

    def test_float_grades_are_refused_because_scores_must_be_exact(self) -> None:
        with pytest.raises(InputError, match="is a float"):
            Situation((0.1,), 1, ())
        assert Situation(("1/10",), 1, ("1/10",)).ranking == (Fraction(1, 10),)

    def test_qrels_are_kept_sorted_so_equal_collections_compare_equal(self) -> None:
        assert Situation.of("0", qrels="1/2,1") == Situation.of("0", qrels="1,1/2")

    @given(situations(binary=False, unjudged=True))
    def test_generated_situations_satisfy_the_model(self, s: Situation) -> None:
        assert s.k >= 1 and all(0 < g <= 1 for g in s.qrels)
        relevant = sorted((g for g in s.ranking if g), reverse=True)
        remaining = list(s.qrels)
        for g in relevant:
            remaining.remove(g)  # raises if the ranking's grades are not a sub-multiset of the qrels


class TestHashing:
    """A situation's hash is computed from kept stand-ins of its grades: it must be Python's hash of its fields."""

    def test_is_the_hash_of_its_fields_for_shared_fresh_integral_and_fractional_grades(self) -> None:
        import random

        rng = random.Random(7)
        shared = [None, *(Fraction(a, b) for b in range(1, 7) for a in range(b + 1))]
        for _ in range(3000):
            ranking = tuple(rng.choice(shared) if rng.random() < 0.6 else
                            Fraction(rng.randrange(0, 10 ** rng.randrange(1, 30)), rng.randrange(1, 10 ** rng.randrange(1, 30)))
                            for _ in range(rng.randrange(0, 30)))
            ranking = tuple(None if g is None or g > 1 else g for g in ranking)
            qrels = tuple(sorted((g for g in ranking if g), reverse=True))
            N = rng.choice([None, 40])
            assert hash(Situation.unchecked(ranking, 3, qrels, N)) == hash((ranking, 3, qrels, N))

    def test_equal_situations_of_different_grade_objects_hash_alike(self) -> None:
        one = Situation.unchecked((Fraction(1, 2), Fraction(1), None), 2, (Fraction(1), Fraction(1, 2)))
        other = Situation.unchecked((Fraction(2, 4), Fraction(3, 3), None), 2, (Fraction(4, 4), Fraction(1, 2)))
        assert one == other and hash(one) == hash(other) and len({one, other}) == 1


class TestGradeTexts:
    def test_are_the_texts_of_shared_fresh_and_unjudged_grades_whatever_objects_came_before(self) -> None:
        import random

        from irprops.metrics.grades import grade_texts

        rng = random.Random(11)
        shared = [None, *(Fraction(a, b) for b in range(1, 7) for a in range(b + 1))]
        for _ in range(3000):  # fresh objects die and their identities are taken by others: a text must follow its object
            grades = [rng.choice(shared) if rng.random() < 0.5 else Fraction(rng.randrange(100), rng.randrange(1, 100))
                      for _ in range(rng.randrange(0, 20))]
            assert grade_texts(grades) == [None if g is None else str(g) for g in grades]
