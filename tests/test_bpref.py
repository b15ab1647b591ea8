"""BPref, and the collection's judged nonrelevant documents N (``m.N``) it reads: the situation model carries N, BPref
scores as trec_eval's loop does, the search ranges over N, and the proofs assume of N and of unjudged marks only what
every situation satisfies (formulas built to fool them are in ``tests/nonrelevant_formulas.py``).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from irprops import check
from irprops.metrics import REGISTRY, InputError, Param, Situation, Undefined, parse
from irprops.proofs import Proof, prove
from irprops.properties.fresh import situations_in
from irprops.properties.loading import load_proposal
from irprops.verdicts import Prop, show, situation_json
from tests.recheck import recheck

from .conftest import ROOT

FORMULA = ROOT / "tests" / "nonrelevant_formulas.py"
ONE, ZERO = Fraction(1), Fraction(0)


def trec_eval_bpref(ranking: tuple[Fraction | None, ...], k: int, R: int, N: int) -> Fraction | None:
    """trec_eval's loop (m_bpref.c) over the top k: unjudged documents skipped, each relevant one adds
    1 - min(nonrel_so_far, R) / min(N, R) (1 while no judged nonrelevant one was seen), the sum divided by R."""
    if R == 0:
        return None
    total, nonrel_so_far = Fraction(0), 0
    for grade in ranking[:k]:
        if grade is None:
            continue
        if grade > 0:
            total += 1 - Fraction(min(nonrel_so_far, R), min(N, R)) if nonrel_so_far > 0 else 1
        else:
            nonrel_so_far += 1
    return total / R


NAMES = ("counted-from-150", "weighted-by-judged-zeros-left", "unjudged-lowers", "judged-seen", "unjudged-raise", "grade-zeros-left")


def unregister() -> None:
    """Loading the file registers its metrics: a second load (check loads it too) would declare them again."""
    for name in NAMES:
        REGISTRY.pop(name, None)


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    unregister()
    yield
    unregister()


def formula(name: str) -> Any:
    """The measure a function of tests/bpref_formula.py declares, loaded as check loads it."""
    unregister()
    function = load_proposal(f"{FORMULA}:{name}")
    return parse(next(key for key, metric in REGISTRY.items() if metric.formula is function))


def checked(name: str, properties: list[str] | None = None) -> Any:
    unregister()
    return check(f"{FORMULA}:{name}", properties)


def declared(situation: Situation) -> Fraction | Undefined:
    return parse("BPref").exact(situation)  # type: ignore[no-any-return]


class TestTheSituationModel:
    def test_leaves_n_unknown_unless_told_and_carries_it_to_other_depths(self) -> None:
        s = Situation.of("10?0", R=2, N=4)
        assert Situation.of("10?0", R=2).nonrelevant is None and s.nonrelevant == 4
        assert s.at_depth(2).nonrelevant == 4 and s.with_nonrelevant(None).nonrelevant is None
        assert str(s) == "10?0 at k = 4 with qrels {1,1} and N = 4" and show(s) == "`10?0` (k = 4, R = 2, N = 4)"

    def test_tells_situations_apart_by_n(self) -> None:
        assert Situation.of("10", N=1) != Situation.of("10", N=2) and hash(Situation.of("10", N=1)) != hash(Situation.of("10"))

    @pytest.mark.parametrize(("N", "message"), [
        (1, "the ranking already holds 2 judged nonrelevant documents (grade 0) (use N >= 2, or mark unjudged documents ?)"),
        (-1, "must be an integer from 0"),
        (True, "must be an integer from 0"),
    ])
    def test_refuses_an_n_below_the_rankings_judged_nonrelevant_documents(self, N: int, message: str) -> None:
        with pytest.raises(InputError, match=f"^N = {N}: .*{message[:40]}"):
            Situation.of("0?01", N=N)

    def test_keeps_n_and_the_marks_input_from_being_parameter_names(self) -> None:
        for name in ("N", "U"):  # the provers' own N and mark: a parameter of that name would be another constant of it
            with pytest.raises(InputError, match=f"parameter name = '{name}'"):
                Param(name, Fraction(1), "any", lambda v: True)

    def test_counts_only_judged_documents_of_grade_zero_against_n(self) -> None:
        assert Situation.of("??1", N=0).nonrelevant == 0

    def test_writes_n_into_witnesses_and_reads_it_back(self) -> None:
        s = Situation.of("0?1", R=2, N=3)
        data = situation_json(s)
        assert data["N"] == 3 and list(situations_in(json.loads(json.dumps(data)))) == [s]
        assert "N" not in situation_json(Situation.of("0?1"))

    def test_is_given_on_the_command_line_with_its_errors_under_its_name(self) -> None:
        def run(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-m", "irprops", "score", *args], capture_output=True, text=True, check=False)
        shown = run("AP", "10?0", "--R", "2", "--N", "5")
        assert shown.returncode == 0 and "(k = 4, R = 2, N = 5)" in shown.stdout
        graded = run("BPref", "1/2,1", "--N", "0")  # graded grades to a binary metric: thresholded, N kept
        assert graded.returncode == 0 and "exact     1\n" in graded.stdout, graded.stdout
        bad = run("AP", "1000", "--N", "2")
        assert bad.returncode == 2 and "N = 2: the ranking already holds 3 judged nonrelevant documents" in bad.stderr
        assert "Traceback" not in bad.stderr


class TestBPrefScores:
    def test_as_trec_eval_computes_it_on_every_small_situation(self) -> None:
        tried = 0
        for length in range(1, 6):
            for ranking in itertools.product((ZERO, ONE, None), repeat=length):
                own, zeros = sum(1 for g in ranking if g), sum(1 for g in ranking if g == 0)
                for k, R, N in itertools.product(range(1, length + 2), range(own, own + 3), range(zeros, zeros + 3)):
                    expected = trec_eval_bpref(ranking, k, R, N)
                    found = declared(Situation(ranking, k, (ONE,) * R, N))
                    assert (None if isinstance(found, Undefined) else found) == expected, (ranking, k, R, N)
                    tried += 1
        assert tried > 10_000

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.sampled_from((ZERO, ONE, None)), min_size=1, max_size=40), st.integers(1, 45), st.integers(0, 5),
           st.integers(0, 30))
    def test_as_trec_eval_computes_it_on_deeper_ones(self, ranking: list[Fraction | None], k: int, more: int, extra: int) -> None:
        R = sum(1 for g in ranking if g) + more
        N = sum(1 for g in ranking if g == 0) + extra
        found = declared(Situation(tuple(ranking), k, (ONE,) * R, N))
        assert (None if isinstance(found, Undefined) else found) == trec_eval_bpref(tuple(ranking), k, R, N)

    @settings(max_examples=80, deadline=None)
    @given(st.lists(st.sampled_from((ZERO, ONE, None)), min_size=1, max_size=12), st.integers(1, 14), st.integers(0, 3),
           st.integers(0, 3))
    def test_scores_a_ranking_as_its_condensed_ranking_of_judged_documents(self, ranking: list[Fraction | None], k: int,
                                                                          more: int, extra: int) -> None:
        # Moffat (AIRS 2013, Section 5): BPref handles incomplete judgments as a condensed ranking, the unjudged
        # documents removed; at depth k that is the judged documents of the top k, at depth their number
        R, N = sum(1 for g in ranking if g) + more, sum(1 for g in ranking if g == 0) + extra
        top = [g for g in ranking[:k] if g is not None]
        condensed = tuple(top) + tuple(g for g in ranking[k:] if g is not None)
        assume(top)  # something judged in the top k: else the condensed ranking has no depth to be scored at
        assert declared(Situation(tuple(ranking), k, (ONE,) * R, N)) == declared(Situation(condensed, len(top), (ONE,) * R, N))

    def test_on_a_worked_example(self) -> None:
        # rank 1 relevant, nothing judged above: 1; rank 4 relevant, one judged zero above, min(N, R) = 3: 1 - 1/3
        assert declared(Situation.of("1?01", R=3, N=5)) == Fraction(5, 9)

    def test_is_undefined_without_n_and_says_why(self) -> None:
        value = declared(Situation.of("1?01", R=3))
        assert isinstance(value, Undefined) and "N is not known" in value.reason

    def test_is_undefined_without_relevant_documents_where_trec_eval_scores_0(self) -> None:
        assert isinstance(declared(Situation.of("00", R=0, N=2)), Undefined)

    def test_with_a_relevance_threshold_counts_the_documents_below_it_as_judged_nonrelevant(self) -> None:
        # ir_measures' Bpref(rel=1): the grade-1/2 document becomes a judged nonrelevant one, in the ranking and in N
        value = parse("Bpref(rel=1)").exact(Situation.of("1,1/2,0,1", qrels="1,1/2,1", N=1))
        assert value == trec_eval_bpref((ONE, ZERO, ZERO, ONE), 4, 2, 2) == Fraction(1, 2)

    def test_reads_n_in_every_form(self) -> None:
        measure = parse("BPref")
        assert measure.reads_nonrelevant() and measure.closed_form().nonrelevant is not None
        assert measure.symbolic(3).at(Situation.of("0?1", R=2, N=4)) == declared(Situation.of("0?1", R=2, N=4))
        assert isinstance(measure.symbolic(3).at(Situation.of("0?1", R=2)), Undefined)


@pytest.mark.slow
class TestTheRowOfBPref:
    """Its Yes cells (bounded, monotonic) are proved for every k in the catalog's build (tests/test_table.py checks every
    catalog cell so); here its five No cells, from their own search."""

    def test_refutes_five_properties_by_minimal_witnesses_that_trec_evals_loop_confirms(self) -> None:
        result = check("BPref", ["convergent", "top_weighted", "localized", "complete", "realizable"])

        def oracle(ranking: tuple[Fraction | None, ...], k: int, qrels: tuple[Fraction, ...], N: int | None = None) -> object:
            return None if N is None else trec_eval_bpref(ranking, k, len(qrels), N)

        for prop, verdict in result.verdicts.items():
            assert verdict.verdict == "no" and recheck(oracle, prop, dict(verdict.witness.data)), (prop, verdict.evidence)
        assert result["convergent"].witness.data == {"k": 2, "ranking": ["0", "0", "1"], "qrels": ["1"], "N": 2, "i": 2, "j": 3}
        assert result["top_weighted"].witness.data == {"k": 2, "ranking": ["?", "1"], "qrels": ["1"], "N": 0, "i": 1, "j": 2}
        assert result["localized"].witness.data["b"] == {"ranking": ["1"], "qrels": ["1", "1"], "N": 0}
        assert result["complete"].witness.data == {"k": 1, "ranking": ["0"], "qrels": [], "N": 1}
        assert result["realizable"].witness.data["N"] == 1  # the collection: the qrels and k = 1 judged nonrelevant documents

    def test_proves_boundedness_and_monotonicity_for_every_k_over_the_marks_and_n(self) -> None:
        measure = parse("BPref")
        for prop in (Prop.BOUNDED, Prop.MONOTONIC):
            found = prove(measure, prop)
            assert isinstance(found, Proof) and found.conclusion == "yes" and str(found.reach) == "all k", prop
            assert any("unjudged mark is 0 or 1" in t for t in found.trusted)
            assert "N_rel + N_unj + N_zero = n" in found.lemmas[-1].statement


@pytest.mark.slow
class TestWhatTheFactsAboutNMustNotProve:
    def test_a_weight_negative_only_from_n_150_on_is_not_proved_monotonic(self) -> None:
        measure = formula("counted_from_150")
        # the truth: at N = 150 a relevant document at k + 1 lowers the score from 0 to -1; at N = 149 it does not
        assert [measure.exact(Situation.of("01", k=k, R=1, N=150)) for k in (1, 2)] == [0, -1]
        assert [measure.exact(Situation.of("01", k=k, R=1, N=149)) for k in (1, 2)] == [0, 0]
        verdict = checked("counted_from_150", ["monotonic"])["monotonic"]
        assert verdict.verdict != "yes", verdict.evidence

    def test_a_weight_nonnegative_only_by_the_fact_about_n_is_proved_monotonic(self) -> None:
        verdict = checked("weighted_by_judged_zeros_left", ["monotonic"])["monotonic"]
        assert verdict.verdict == "yes" and verdict.method == "proof (all k)", verdict.evidence

    def test_an_unjudged_document_that_lowers_the_score_is_not_proved_monotonic_and_is_found(self) -> None:
        measure = formula("unjudged_lowers")
        assert [measure.exact(Situation.of("1?", k=k)) for k in (1, 2)] == [1, 0]  # the truth, by hand
        verdict = checked("unjudged_lowers", ["monotonic"])["monotonic"]
        assert verdict.verdict == "no" and verdict.proof is None
        assert recheck(lambda r, k, q: measure.exact(Situation(r, k, q)), "monotonic", dict(verdict.witness.data))

    def test_a_formula_that_reads_n_but_no_mark_is_searched_over_unjudged_documents_too(self) -> None:
        measure = formula("grade_zeros_left")
        assert [measure.exact(Situation.of("?1", k=k, R=1, N=0)) for k in (1, 2)] == [0, -1]  # the truth, by hand
        verdict = checked("grade_zeros_left", ["monotonic"])["monotonic"]
        assert verdict.verdict == "no" and "?" in verdict.witness.data["ranking"], verdict.evidence
        assert recheck(lambda r, k, q, N=None: measure.exact(Situation(r, k, q, N)), "monotonic", dict(verdict.witness.data))

    def test_a_short_run_is_unjudged_down_to_the_depth_so_counting_judged_ranks_is_proved_monotonic(self) -> None:
        verdict = checked("judged_seen", ["monotonic", "bounded"])
        assert verdict["monotonic"].verdict == "yes" and verdict["monotonic"].method == "proof (all k)"
        assert verdict["bounded"].verdict != "yes"  # k judged documents score k: unbounded

    def test_unjudged_documents_counted_as_relevant_are_not_proved_bounded(self) -> None:
        measure = formula("unjudged_raise")
        assert measure.exact(Situation.of("????", R=1)) == 4  # the truth: above every bound as the run grows
        assert checked("unjudged_raise", ["bounded"])["bounded"].verdict != "yes"
