"""The committed certificates are current, and every one re-checks unsat with Z3 and cvc5."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import sympy
from click.testing import CliRunner

from irprops.cli import main
from irprops.proofs import certificates as certs
from irprops.proofs import recheck, weightfacts

KEPT = {"thesis.tex": "\\documentclass{article}", "src/notes.py": "x = 1", "AP/README": "mine", "mine/query.smt2": "(check-sat)",
        "Gone/README": "not irprops'"}


# the regeneration is a session fixture: a module fixture is built again whenever a worker comes back to the module
@pytest.fixture(scope="session")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh regeneration into a folder that already holds a user's files (a .smt2 file among them) and two stale
    certificates that an earlier regeneration listed in its MANIFEST."""
    out = tmp_path_factory.mktemp("certificates")
    for name, text in KEPT.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    for stale in STALE:
        (out / stale).parent.mkdir(parents=True, exist_ok=True)
        (out / stale).write_text("(check-sat)")
    recheck.write_manifest(out, [out / stale for stale in STALE])
    certs.regenerate(out)
    return out


STALE = ("Gone/bounded--old.smt2", "Old/deeper/monotonic--old.smt2")


def files(directory: Path) -> dict[str, str]:
    """The certificates irprops wrote under ``directory``, by relative path (a user's own .smt2 files left out)."""
    found = {str(f.relative_to(directory)): f for f in sorted(directory.rglob("*.smt2"))}
    return {name: f.read_text() for name, f in found.items() if name not in KEPT}


class TestCommittedCertificates:
    def test_are_what_the_proofs_produce_now(self, regenerated: Path) -> None:
        committed, fresh = files(certs.COMMITTED), files(regenerated)
        assert sorted(committed) == sorted(fresh), "run `irprops certificates` and commit proofs/smt2"
        stale = [name for name in fresh if committed[name] != fresh[name]]
        assert not stale, f"stale certificates (run `irprops certificates`): {stale}"
        assert (certs.COMMITTED / "MANIFEST").read_text() == (regenerated / "MANIFEST").read_text()

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


    def test_are_the_catalogs_only_even_after_a_proposal_is_declared_in_the_same_process(
            self, monkeypatch: pytest.MonkeyPatch) -> None:
        # a declared proposal joins the registry; the certificates test failed when a test that declared one ran first
        from irprops import declare, proofs
        from irprops.metrics import REGISTRY, in_catalog

        asked: list[str] = []
        monkeypatch.setattr(proofs, "prove", lambda measure, prop: asked.append(measure.metric.key))  # no proof: fast

        @declare("[/x] proposal of this test", relevance="binary")
        def proposal(m: object) -> object:
            return m.r(1)  # type: ignore[attr-defined]

        try:
            certs.obligations()
        finally:
            del REGISTRY["[/x] proposal of this test"]
        assert "[/x] proposal of this test" not in asked
        assert set(asked) == {key for key, metric in REGISTRY.items() if in_catalog(metric.formula)}


class TestRegeneration:
    def test_leaves_every_other_file_where_it_writes(self, regenerated: Path) -> None:
        assert {name: (regenerated / name).read_text() for name in KEPT} == KEPT

    def test_removes_the_stale_certificates_its_manifest_lists_and_the_folders_they_leave_empty(self, regenerated: Path) -> None:
        assert not (regenerated / STALE[0]).exists() and (regenerated / "Gone" / "README").exists()
        assert not (regenerated / "Old").exists()

    def test_into_a_path_below_a_file_is_a_one_line_usage_error_before_any_proof(self, tmp_path: Path) -> None:
        (tmp_path / "thesis.tex").write_text("mine")
        result = CliRunner().invoke(main, ["certificates", "--out", str(tmp_path / "thesis.tex" / "certs")])
        assert result.exit_code == 2 and "is a file, not a folder" in result.output and result.output.count("\n") == 1
        assert (tmp_path / "thesis.tex").read_text() == "mine"


SMALL = ("P/convergent--w-positive.smt2", "conflict/monotonic-convergent-localized-realizable.smt2")


def copied(tmp_path: Path, names: tuple[str, ...] = SMALL) -> Path:
    """A certificate folder holding ``names`` and a manifest of them (as ``irprops certificates`` writes one)."""
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(certs.COMMITTED / name, tmp_path / name)
    recheck.write_manifest(tmp_path, [tmp_path / name for name in names])
    return tmp_path


def rechecked(folder: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["certificates", "--recheck", "--out", str(folder)])
    return result.exit_code, result.output


class TestRecheckCommand:
    def test_an_intact_folder_passes(self, tmp_path: Path) -> None:
        assert rechecked(copied(tmp_path)) == (0, "2 of 2 certificates re-checked unsat with Z3 and cvc5\n")

    def test_a_query_split_so_that_it_answers_sat_is_named_and_fails_the_command(self, tmp_path: Path) -> None:
        target = copied(tmp_path) / SMALL[0]
        target.write_text(target.read_text().replace("\n(check-sat)", "\n(pop 1)\n(push 1)\n(check-sat)", 1))
        recheck.write_manifest(tmp_path, [tmp_path / name for name in SMALL])
        code, output = rechecked(tmp_path)
        assert code == 1 and f"not proved: {SMALL[0]}: z3 sat" in output and "1 of 2" in output

    def test_an_edit_the_manifest_does_not_know_fails(self, tmp_path: Path) -> None:
        target = copied(tmp_path) / SMALL[0]
        target.write_text(target.read_text() + "\n; an innocent comment\n")
        assert rechecked(tmp_path)[1].startswith(f"FAILED: {SMALL[0]}: its contents differ from the MANIFEST's SHA-256")

    @pytest.mark.parametrize("where", ["in a query", "among the hypotheses"])
    def test_an_added_assert_false_fails_even_with_a_matching_manifest(self, tmp_path: Path, where: str) -> None:
        for name in SMALL:
            target = copied(tmp_path) / name
            text = target.read_text()
            target.write_text(text.replace("\n(check-sat)", "\n(assert false)\n(check-sat)", 1) if where == "in a query"
                              else text.replace("\n(push 1)", "\n(assert false)\n(push 1)", 1))
            recheck.write_manifest(tmp_path, [tmp_path / n for n in SMALL])
            code, output = rechecked(tmp_path)
            assert code == 1 and f"FAILED: {name}: its hypotheses contradict each other" in output, (name, output)
            shutil.copy(certs.COMMITTED / name, target)

    def test_a_deleted_certificate_an_unlisted_one_and_an_empty_folder_fail(self, tmp_path: Path) -> None:
        folder = copied(tmp_path / "a")
        (folder / SMALL[0]).unlink()
        assert rechecked(folder)[1].startswith(f"FAILED: {SMALL[0]}: it is listed in the MANIFEST but missing")
        folder = copied(tmp_path / "b")
        shutil.copy(certs.COMMITTED / SMALL[0], folder / "extra.smt2")
        assert "FAILED: extra.smt2: it is not listed in the MANIFEST" in rechecked(folder)[1]
        (tmp_path / "empty").mkdir()
        code, output = rechecked(tmp_path / "empty")
        assert code == 1 and "there is no MANIFEST" in output

    def test_a_folder_named_like_a_certificate_and_a_file_that_is_not_utf8_fail_by_name(self, tmp_path: Path) -> None:
        folder = copied(tmp_path)
        (folder / "P" / "odd.smt2").mkdir()
        (folder / "P" / "binary.smt2").write_bytes(b"(check-sat)\n; \xff\xfe\n")
        code, output = rechecked(folder)
        assert code == 1 and "Traceback" not in output
        assert "FAILED: P/odd.smt2: it is not a file" in output and "FAILED: P/binary.smt2: it is not UTF-8 text" in output

    def test_a_certificate_that_sets_an_output_channel_is_refused_before_any_solver_reads_it(self, tmp_path: Path) -> None:
        victim = tmp_path / "victim.txt"
        victim.write_text("the user's file")
        target = copied(tmp_path / "certs") / SMALL[0]
        for option in (":regular-output-channel", ":diagnostic-output-channel"):
            target.write_text(f'(set-option {option} "{victim}")\n' + (certs.COMMITTED / SMALL[0]).read_text())
            recheck.write_manifest(tmp_path / "certs", [tmp_path / "certs" / n for n in SMALL])
            code, output = rechecked(tmp_path / "certs")
            assert code == 1 and "it holds the command set-option" in output and victim.read_text() == "the user's file"
        (tmp_path / "certs" / "unlisted.smt2").write_text(f'(set-option :regular-output-channel "{victim}")\n(check-sat)\n')
        code, output = rechecked(tmp_path / "certs")
        assert "FAILED: unlisted.smt2: it holds the command set-option" in output and victim.read_text() == "the user's file"


class TestCertificatesAreNotVacuous:
    def test_reciprocal_atoms_of_two_encoders_are_two_constants_so_dcg_bs_bounded_queries_have_models(self) -> None:
        # DCG-b is proved for every k now; its bounded proof (k <= K) is built here, as it was committed before
        from irprops.metrics import parse
        from irprops.proofs import Proof
        from irprops.proofs.bounded import bounded_proof
        from irprops.verdicts import Prop

        found = bounded_proof(parse("DCG-b"), Prop.MONOTONIC, target=8)
        assert isinstance(found, Proof)
        text = certs.smt2(found.obligations[0])
        assert "inv_0" not in text and "|inv(log2(3))|" in text
        assert all("unsat" not in recheck.z3_answers(check) for check in recheck.vacuity_checks(text))


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
