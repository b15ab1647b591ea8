"""Proposals declared by their weight function get proofs for every k, not only a search."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from irprops import check
from irprops.cli import main
from irprops.metrics import REGISTRY, InputError, Situation, weighted_precision
from tests import declared_proposals
from tests.recheck import of_measure, recheck

from .conftest import ROOT

DECLARED = ROOT / "tests" / "declared_proposals.py"
FORMULA = ROOT / "tests" / "declared_formula.py"


def verdicts(name: str) -> dict[str, str]:
    result = check(f"{DECLARED}:{name}")
    measure = getattr(declared_proposals, name)
    for prop, verdict in result.verdicts.items():
        if verdict.verdict == "no":
            assert recheck(of_measure(measure), prop, dict(verdict.witness.data)), (name, prop)
        if verdict.verdict == "yes":
            assert verdict.method == "proof (all k)"
    return {p: v.verdict for p, v in result.verdicts.items()}


@pytest.mark.slow
class TestEveryCellIsSettled:
    def test_inverse_squares_behave_like_rbp(self) -> None:  # Moffat 2013, Section 2
        assert verdicts("inverse_squares") == {
            "bounded": "yes", "monotonic": "yes", "convergent": "yes", "top_weighted": "yes",
            "localized": "yes", "complete": "yes", "realizable": "no",
        }

    def test_increasing_weights_lose_top_weightedness(self) -> None:
        assert verdicts("increasing") == {
            "bounded": "yes", "monotonic": "no", "convergent": "yes", "top_weighted": "no",
            "localized": "yes", "complete": "yes", "realizable": "no",
        }

    @pytest.mark.parametrize("name", ["halves", "root_discount"])  # geometric and 1/sqrt(i) discounts
    def test_a_decreasing_discount_normalised_by_the_ideal_behaves_like_ndcg(self, name: str) -> None:
        assert verdicts(name) == {
            "bounded": "yes", "monotonic": "no", "convergent": "yes", "top_weighted": "yes",
            "localized": "no", "complete": "no", "realizable": "yes",
        }


class TestDeclaringByWeights:
    def test_the_declared_metric_scores_exactly(self) -> None:
        assert declared_proposals.inverse_squares.exact(Situation.of("11")) == Fraction(1, 2) + Fraction(1, 6)

    def test_the_proof_cites_the_weight_function(self) -> None:
        result = check(f"{DECLARED}:inverse_squares", ["bounded"])
        form, *lemmas = result["bounded"].proof.lemmas
        assert (form.name, form.method) == ("form", "structure") and "w(i) = 1/(i**2 + i)" in form.statement
        assert any(lemma.name == "weight sums" and "increasing to 1" in lemma.statement for lemma in lemmas)

    def test_the_cli_reports_proofs_in_json(self) -> None:
        out = CliRunner().invoke(main, ["check", f"{DECLARED}:inverse_squares", "top_weighted", "--json"]).output
        assert json.loads(out)["properties"]["top_weighted"]["method"] == "proof (all k)"

    def test_an_unknown_normaliser_is_refused(self) -> None:
        with pytest.raises(InputError, match="must be one of none, weights"):
            weighted_precision("x", lambda i: 1 / i, "sum")  # type: ignore[arg-type]


class TestDeclaringAFormula:
    @pytest.fixture
    def unregister(self) -> object:
        yield
        REGISTRY.pop("share-of-larger", None)  # loading the file registered it

    def test_a_formula_declared_without_a_reference_gets_proofs_and_witnesses(self, unregister: object) -> None:
        result = check(f"{FORMULA}:share_of_larger", ["convergent", "top_weighted", "complete"])
        assert {p: (v.verdict, v.method) for p, v in result.verdicts.items()} == {
            "convergent": ("yes", "proof (all k)"),
            "top_weighted": ("no", "exhaustive search, exact arithmetic"),
            "complete": ("yes", "proof (all k)"),
        }
        assert result["top_weighted"].witness.data == {"k": 2, "ranking": ["0", "1"], "qrels": ["1"], "i": 1, "j": 2}
