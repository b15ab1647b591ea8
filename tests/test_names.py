"""Metric names as IR researchers write them (ir_measures style, and the paper's own names)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from irprops.metrics import REGISTRY, SPELLINGS, InputError, Spelling, known_names, parse, score, spellings_of


class TestNamesPeopleAlreadyUse:
    @pytest.mark.parametrize(("name", "key", "k"), [
        ("P@5", "P", 5), ("R@10", "Recall", 10), ("RR@10", "RR", 10), ("AP@100", "AP", 100), ("nDCG@10", "NDCG", 10),
        ("RBP(p=0.5)@10", "RBP", 10), ("Rprec", "RPrec", None), ("MAP", "AP", None), ("MRR", "RR", None),
        ("NDCG", "NDCG", None), ("Success@5", "Success", 5), ("ERR@20", "ERR", 20),
    ])
    def test_ir_measures_names(self, name: str, key: str, k: int | None) -> None:
        measure = parse(name)
        assert (measure.metric.key, measure.k) == (key, k)

    @pytest.mark.parametrize(("name", "key"), [("SN-DCG@5", "SN-DCG"), ("SDCG@5", "SDCG"), ("SP@5", "SP"), ("Prec@5", "P"),
                                               ("HIT@5", "HIT"), ("SN-AP@5", "SN-AP")])
    def test_the_papers_names(self, name: str, key: str) -> None:
        assert parse(name).metric.key == key

    def test_names_are_case_insensitive_and_allow_spaces(self) -> None:
        assert parse(" ndcg @ 10 ").name == "NDCG@10"

    def test_a_name_without_depth_is_the_family(self) -> None:
        assert parse("AP").k is None and parse("AP").at(7).name == "AP@7"

    def test_parameters_take_decimals_or_fractions_and_default_when_absent(self) -> None:
        assert parse("RBP(p=4/5)").params == parse("RBP").params == {"p": Fraction(4, 5)}
        assert parse("RBP(p=0.95)@3").name == "RBP(p=0.95)@3"

    def test_every_registered_name_parses_to_its_metric(self) -> None:
        for metric in REGISTRY.values():
            for name in metric.names:
                assert parse(name).metric is metric
        assert len(known_names()) == len({n.lower() for n in known_names()})


class TestBadNames:
    @pytest.mark.parametrize(("name", "message"), [
        ("nDGC@10", "did you mean NDCG"),
        ("Precison@5", "did you mean Precision"),
        ("XYZ@5", "unknown metric"),
        ("P@0", "at least 1"),
        ("P@x", "not an integer"),
        ("RBP(p=1)", "0 <= p < 1"),
        ("RBP(q=0.5)", "RBP takes: p"),
        ("RBP(p=a)", "not a number"),
        ("RBP(p=0.5,p=0.6)", "once"),
        ("DCG-b(b=2.5)", "integer"),
        ("P(rel=2)@5", "rel=2/3"),
        ("P(rel=0)@5", "(0, 1]"),
        ("P(max_rel=3)@5", "max_rel applies to DCG"),
        ("DCG(dcg=exp-log2)@10", "the exponential gain is declared for nDCG only"),
        ("nDCG(max_rel=0)@10", "integer >= 1"),
        ("dcg_burges@10", "only its normalised form is (NDCG-exp"),
        ("f1", "ranx's f1 without a cutoff is at the run's length"),
        ("INST", "no exact form the exact layer can decide (INSQ, its static form, is declared)"),
        ("INSQ(T=1/2)", "must be an integer"),
        ("@5", "not a metric name"),
    ])
    def test_are_refused_naming_the_value_and_the_fix(self, name: str, message: str) -> None:
        with pytest.raises(InputError, match=re.escape(message)):
            parse(name)


def example(spelling: Spelling) -> tuple[str, int | None, dict[str, Fraction]]:
    """A name written in ``spelling`` (depth 7, persistence 0.85), with the depth and parameters it must give."""
    name = spelling.written.replace(".P", ".85")
    k = 7 if name.endswith(("_k", "@k")) else None
    params = {"p": Fraction(85, 100)} if ".85" in name else {}
    return (name[:-1] + "7" if k else name), k, params


class TestTrecEvalAndRanxNames:
    @pytest.mark.parametrize("spelling", SPELLINGS, ids=lambda s: f"{s.toolkit}:{s.written}")
    def test_each_spelling_names_its_metric_at_its_depth(self, spelling: Spelling) -> None:
        name, k, params = example(spelling)
        measure = parse(name)
        assert (measure.metric.key, measure.k) == (spelling.metric, k)
        assert {key: measure.params[key] for key in params} == params

    @pytest.mark.parametrize(("name", "irprops"), [
        ("P_5", "P@5"), ("recall_10", "Recall@10"), ("ndcg_cut_10", "NDCG@10"), ("map_cut_10", "AP@10"), ("map", "AP"),
        ("recip_rank", "RR"), ("success_5", "Success@5"), ("Rprec", "RPrec"), ("ndcg", "NDCG"), ("bpref", "BPref"), ("Bpref", "BPref"),
        ("ndcg@10", "NDCG@10"), ("hit_rate@5", "Success@5"), ("rbp.8", "RBP(p=0.8)"), ("mrr@10", "RR@10"),
        ("precision@3", "P@3"), ("f1@4", "F(beta=1)@4"), ("r-precision", "RPrec"), ("mrr", "RR"),
    ])
    def test_the_names_of_the_issue_parse(self, name: str, irprops: str) -> None:
        assert parse(name).name == irprops

    def test_rbp_at_95_is_a_depth_as_in_ir_measures_and_the_ranx_reading_is_documented(self) -> None:
        assert parse("rbp@95") == parse("RBP(p=0.8)@95")
        assert any("rbp@95" in s.note for s in spellings_of("RBP"))

    def test_every_metric_names_its_toolkit_spellings(self) -> None:
        for spelling in SPELLINGS:
            assert spelling.metric in REGISTRY and spelling in spellings_of(spelling.metric)


class TestIrMeasuresParameters:
    def test_rel_thresholds_the_grades_on_irprops_scale(self) -> None:
        # ir_measures' AP(rel=2) of grades 0..3 (ranking 2, 0, 1; qrels 3, 2, 1): levels >= 2 are relevant, the ranked
        # grade-2 document at rank 1 and the unretrieved grade-3 one, so AP = (1/1) / 2
        assert score("AP(rel=2/3)@3", "2/3,0,1/3", qrels="1,2/3,1/3").exact == Fraction(1, 2)

    def test_rel_applies_to_graded_metrics_too(self) -> None:
        # RBP(rel=1/2) of 1/4, 1: the first document falls below the threshold
        assert score("RBP(rel=1/2)@2", "1/4,1").exact == Fraction(1, 5) * Fraction(4, 5)

    def test_a_binary_metric_counts_every_positive_grade_as_relevant(self) -> None:
        assert score("Success@3", "0,1/3,0").exact == 1  # ir_measures and trec_eval give 1 (issue 11)
        assert score("HIT@3", "0,1/3,0").exact == Fraction(1, 3)  # the paper's HIT keeps its meaning

    def test_max_rel_and_dcg_log2_name_irprops_own_convention(self) -> None:
        assert parse("SDCG(max_rel=3)@10") == parse("SDCG@10")
        assert parse("nDCG(dcg=log2)@10") == parse("nDCG@10")

    def test_a_threshold_is_part_of_the_name_and_kept_at_every_depth(self) -> None:
        assert parse("AP(rel=1/2)").at(5).name == "AP(rel=1/2)@5"
