"""The conflict between the properties (Moffat 2013, Section 4), proved over an abstract metric."""

from __future__ import annotations

import pytest

from irprops import COLUMNS, check
from irprops.proofs import certificates as certs
from irprops.proofs.conflict import PATH, WITHOUT_LOCALIZATION, conflict, instances
from tests import proposals


class TestTheTheorem:
    def test_is_proved_and_its_proof_needs_every_hypothesis(self) -> None:
        theorem = conflict()
        assert theorem.proved
        assert set(theorem.used) == {name for name, _ in instances()}

    def test_has_models_without_localization_and_without_definedness(self) -> None:
        assert dict(conflict().variants) == {"without localization": "sat", "without the definedness assumption": "sat"}

    def test_each_variant_drops_exactly_one_hypothesis(self) -> None:
        every = {name for name, _ in instances()}
        assert every - {name for name, _ in instances(localized=False)} == {"localized"}
        assert (every - {name for name, _ in instances(defined_with_relevant=False)}
                == {"defined whenever the collection holds a relevant document"})

    def test_ships_a_certificate(self) -> None:
        text = (certs.COMMITTED / PATH).read_text()  # kept current by tests/test_certificates.py
        assert "; lemma: conflict" in text and "(check-sat)" in text


@pytest.mark.slow
class TestTheMetricThatEscapesWithoutLocalization:
    def test_is_refuted_on_localization_and_on_nothing_else(self) -> None:
        assert "not localized" in WITHOUT_LOCALIZATION
        result = check(proposals.ideal_or_half_dcg, prove=False)
        assert result["localized"].verdict == "no"
        assert [p for p in COLUMNS if p != "localized" and result[p].verdict != "unknown"] == []
