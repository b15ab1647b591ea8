"""The committed certificates are current, and every one re-checks unsat with Z3 and cvc5."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import sympy
from click.testing import CliRunner

from irprops.cli import main
from irprops.proofs import certificates as certs
from irprops.proofs import weightfacts

KEPT = {"thesis.tex": "\\documentclass{article}", "src/notes.py": "x = 1", "AP/README": "mine"}


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh regeneration into a folder that already holds a user's files and a stale certificate."""
    out = tmp_path_factory.mktemp("certificates")
    for name, text in KEPT.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    (out / "Gone").mkdir()
    (out / "Gone" / "bounded--old.smt2").write_text("(check-sat)")
    certs.regenerate(out)
    return out


def files(directory: Path) -> dict[str, str]:
    return {str(f.relative_to(directory)): f.read_text() for f in sorted(directory.rglob("*.smt2"))}


class TestCommittedCertificates:
    def test_are_what_the_proofs_produce_now(self, regenerated: Path) -> None:
        committed, fresh = files(certs.COMMITTED), files(regenerated)
        assert sorted(committed) == sorted(fresh), "run `irprops certificates` and commit proofs/smt2"
        stale = [name for name in fresh if committed[name] != fresh[name]]
        assert not stale, f"stale certificates (run `irprops certificates`): {stale}"

    def test_say_what_they_prove(self) -> None:
        for name, text in files(certs.COMMITTED).items():
            header = {line.split(":", 1)[0][2:] for line in text.splitlines() if line.startswith("; ") and ":" in line}
            assert {"metric", "property", "reach", "lemma"} <= header, name
            assert "(check-sat)" in text and "(set-logic ALL)" in text

    @pytest.mark.slow
    def test_all_re_check_unsat_with_z3_and_cvc5(self) -> None:
        assert certs.cvc5_available(), "the test extra installs cvc5"
        results = certs.recheck()
        assert results and [r.path for r in results if not r.ok] == []
        assert all(r.cvc5 is not None and set(r.cvc5) == {"unsat"} for r in results)


class TestRegeneration:
    def test_leaves_every_other_file_where_it_writes(self, regenerated: Path) -> None:
        assert {name: (regenerated / name).read_text() for name in KEPT} == KEPT

    def test_removes_stale_certificates_and_the_folders_they_leave_empty(self, regenerated: Path) -> None:
        assert not (regenerated / "Gone").exists()


class TestRecheckCommand:
    def test_a_tampered_certificate_is_named_and_fails_the_command(self, tmp_path: Path) -> None:
        source = next(iter(sorted(certs.COMMITTED.rglob("*.smt2"))))
        target = tmp_path / "tampered.smt2"
        shutil.copy(source, target)
        target.write_text(target.read_text().replace("(check-sat)", "(pop 1)\n(push 1)\n(check-sat)", 1))
        result = CliRunner().invoke(main, ["certificates", "--recheck", "--out", str(tmp_path)])
        assert result.exit_code == 1 and "tampered.smt2" in result.output and "0 of 1" in result.output


class TestCertificatesCarryTheMetric:
    """A weight fact is written out from the metric's own closed form, so a second solver re-checks it about this metric."""

    i = sympy.Symbol("i", integer=True, positive=True)

    def test_a_declared_metrics_weights_decrease_by_a_certificate_that_names_its_weight(self) -> None:
        from irprops.proofs import Proof, prove
        from tests import declared_proposals

        found = prove(declared_proposals.inverse_squares, "top_weighted")
        assert isinstance(found, Proof)
        decrease = next(lemma for lemma in found.lemmas if lemma.name == "weights decrease")
        assert decrease.method == "Z3" and decrease.certificate == "inverse-squares/top_weighted--weights-decrease.smt2"
        text = certs.smt2(next(ob for ob in found.obligations if ob.path == decrease.certificate))
        assert "; weight: w(i) = 1/(i**2 + i)" in text and "(declare-fun i () Int)" in text

    def test_two_metrics_with_different_weights_get_different_assertions(self) -> None:
        def body(weight: sympy.Expr) -> str:
            done = weightfacts.certify("x.smt2", {}, weight, self.i, "w decreasing")
            assert done.proved
            return "\n".join(line for line in certs.smt2(done.obligation).splitlines() if not line.startswith(";"))

        assert body(1 / (self.i * (self.i + 1))) != body(1 / self.i)

    @pytest.mark.parametrize(("weight", "fact"), [
        (1 / (i - 3), "w decreasing"),  # decreasing wherever defined, but undefined at rank 3
        (1 - i / 50, "w > 0"),  # negative from rank 51
        (sympy.Piecewise((2, sympy.Eq(i, 400)), (1 / i, True)), "w decreasing"),  # a bump at rank 400
    ], ids=["undefined-at-3", "negative-from-51", "bump-at-400"])
    def test_a_false_or_undefined_weight_fact_is_not_certified(self, weight: sympy.Expr, fact: str) -> None:
        assert not weightfacts.certify("x.smt2", {}, weight, self.i, fact).proved

    def test_a_weight_with_logarithms_stays_a_named_sympy_computation(self) -> None:
        from irprops.metrics.exact import log2

        with pytest.raises(NotImplementedError):
            weightfacts.certify("x.smt2", {}, 1 / log2(self.i + 1), self.i, "w decreasing")
