"""Metric names as IR researchers write them (ir_measures style, and the paper's own names)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from irprops.metrics import REGISTRY, InputError, known_names, parse


class TestNamesPeopleAlreadyUse:
    @pytest.mark.parametrize(("name", "key", "k"), [
        ("P@5", "P", 5), ("R@10", "Recall", 10), ("RR@10", "RR", 10), ("AP@100", "AP", 100), ("nDCG@10", "NDCG", 10),
        ("RBP(p=0.5)@10", "RBP", 10), ("Rprec", "RPrec", None), ("MAP", "AP", None), ("MRR", "RR", None),
        ("NDCG", "NDCG", None), ("Success@5", "HIT", 5),
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
        ("P(rel=2)@5", "P takes: none"),
        ("@5", "not a metric name"),
    ])
    def test_are_refused_naming_the_value_and_the_fix(self, name: str, message: str) -> None:
        with pytest.raises(InputError, match=message.replace("(", r"\(")):
            parse(name)
