"""`irprops check`: the human table, the exact JSON shape, and exit statuses."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from irprops import COLUMNS
from irprops.cli import main

from .conftest import ROOT

PROPOSALS = ROOT / "tests" / "proposals.py"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args])
    return result.exit_code, result.output


class TestJson:
    def test_has_exactly_the_documented_shape(self) -> None:
        code, out = run("SN-AP", "--json", "--budget", "300")  # a yes needs its self-check finished, on a loaded machine too
        assert code == 0
        data = json.loads(out)
        assert set(data) == {"metric", "relevance", "properties"} and (data["metric"], data["relevance"]) == ("SN-AP", "binary")
        assert list(data["properties"]) == list(COLUMNS)
        for entry in data["properties"].values():
            assert set(entry) == {"verdict", "method", "evidence", "witness", "proof", "search", "no_proof"}
            assert entry["verdict"] in ("yes", "no", "unknown")
            assert (entry["proof"] is not None) == (entry["method"] == "proof (all k)")
            assert (entry["witness"] is None) == (entry["verdict"] != "no")

    @pytest.mark.parametrize(("metric", "prop", "keys"), [
        ("SN-DCG", "monotonic", {"k", "ranking", "qrels"}),
        ("SN-DCG", "convergent", {"k", "ranking", "qrels", "i", "j"}),
        ("SN-DCG", "complete", {"k", "ranking", "qrels"}),
        ("P", "realizable", {"k", "qrels", "max", "better"}),
    ])
    def test_witness_shapes_with_grades_as_strings(self, metric: str, prop: str, keys: set[str]) -> None:
        _, out = run(metric, prop, "--binary", "--json")
        witness = json.loads(out)["properties"][prop]["witness"]
        assert set(witness) == keys and all(isinstance(g, str) for g in witness["qrels"])
        if "ranking" in witness:
            assert all(isinstance(g, str) for g in witness["ranking"])
        if prop == "realizable":
            assert set(witness["better"]) == {"k", "ranking", "qrels", "value"}

    def test_localized_witness_shape(self) -> None:
        _, out = run("NDCG", "localized", "--json")
        witness = json.loads(out)["properties"]["localized"]["witness"]
        assert set(witness) == {"k", "a", "b"} and set(witness["a"]) == set(witness["b"]) == {"ranking", "qrels"}

    def test_only_the_named_properties_are_reported(self) -> None:
        _, out = run("RR", "top-weighted", "complete", "--json")
        assert list(json.loads(out)["properties"]) == ["top_weighted", "complete"]


class TestHumanOutput:
    def test_a_table_row_per_property_with_the_witness_the_papers_way(self) -> None:
        code, out = run("RR")
        assert code == 0
        for prop in COLUMNS:
            assert prop in out
        assert "`101`" in out and "`110`" in out


class TestExitStatus:
    def test_zero_whenever_the_check_ran_even_with_defects(self) -> None:
        code, out = run(f"{PROPOSALS}:raises_always", "complete", "--json")
        assert code == 0 and json.loads(out)["properties"]["complete"]["verdict"] == "unknown"

    @pytest.mark.parametrize(("args", "fragment"), [
        (("AP", "monotone"), "did you mean monotonic"),
        (("AP@10",), "quantify over every depth"),
        (("AP", "--graded"), "binary metric"),
        ((f"{PROPOSALS}:nope",), "has no function 'nope'"),
        (("nDGC",), "did you mean NDCG"),
        ((f"{PROPOSALS}:precision", "--timeout", "0"), "is not from 0.001 to 3600 seconds"),
    ])
    def test_two_with_one_line_for_bad_usage(self, args: tuple[str, ...], fragment: str) -> None:
        code, out = run(*args)
        assert code == 2 and out.count("\n") == 1 and fragment in out

    def test_a_graded_proposal_can_be_asked_for(self) -> None:
        code, out = run(f"{PROPOSALS}:precision", "monotonic", "--graded", "--json")
        assert code == 0 and json.loads(out)["relevance"] == "graded"
