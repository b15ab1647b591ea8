"""cvc5's second opinion on Z3's proofs: agreement, disagreement, and a helper that overruns."""

from __future__ import annotations

from pathlib import Path

import pytest
import z3

from irprops.proofs import certificates as certs
from irprops.proofs.smt import Obligation


def obligation(negated_claim: z3.BoolRef) -> Obligation:
    ob = Obligation("test/claim.smt2", {"proves": "a test claim"})
    x = z3.Real("x")
    ob.assume("x positive", x > 0)
    ob.ask("claim", negated_claim)
    return ob


X = z3.Real("x")


class TestCrossCheck:
    def test_cvc5_confirms_an_obligation_z3_proved(self) -> None:
        assert certs.cross_check([obligation(X <= 0)]).status == "confirmed"

    def test_a_satisfiable_obligation_is_a_disagreement_naming_the_certificate(self) -> None:
        second = certs.cross_check([obligation(X > 1)])
        assert second.status == "disagreement" and "test/claim.smt2" in second.detail

    def test_a_nonlinear_step_cvc5s_default_leaves_open_is_confirmed_by_its_coverings_procedure(self) -> None:
        # Q-measure's induction step (a ratio with min(i, R) in the denominator): cvc5's default answered unknown after
        # 10 s, so the proof was "unconfirmed"; nl-cov alone answers unsat in 0.07 s
        from irprops.proofs import prove
        from tests import ordinary_proposals

        inductions = [ob for ob in prove(ordinary_proposals.q_measure, "bounded").obligations if "induction" in ob.path]
        assert inductions
        confirmed = certs.cross_check(inductions)
        assert confirmed.status == "confirmed" and "by its nonlinear coverings procedure" in confirmed.detail, confirmed.detail

    def test_a_satisfiable_nonlinear_obligation_the_default_leaves_open_is_a_disagreement_found_by_coverings(self) -> None:
        y = z3.Real("y")
        ob = Obligation("test/nonlinear.smt2", {"proves": "a false nonlinear claim"})
        ob.assume("x positive", X > 0)
        ob.ask("claim", z3.And(X * X * y == 2, y * y == X))  # satisfiable: x = 2^(2/5), y = x^(1/2)
        assert certs.cross_check([ob]).status == "disagreement"

    def test_a_helper_past_its_time_limit_is_killed_and_the_obligation_left_unconfirmed(self, monkeypatch: pytest.MonkeyPatch) -> None:
        certs.cross_check([obligation(X <= 0)])  # a live helper
        helper = certs._HELPER
        assert helper is not None
        monkeypatch.setattr(certs, "CROSS_CHECK_SECONDS", 0.0)
        # an obligation cvc5 cannot settle in seconds (x^3 + y^3 = z^3 + 33 in large integers): a fast one was answered
        # before the zero-second wait on a loaded machine, and the helper was not past its limit
        a, b, c = z3.Ints("a b c")
        second = certs.cross_check([obligation(z3.And(a * a * a + b * b * b == c * c * c + 33, a > 1000, b > 1000))])
        assert second.status == "unconfirmed" and "timeout after 0 s" in second.detail
        helper.process.wait(timeout=10)
        assert not helper.alive() and certs._HELPER is None
        monkeypatch.undo()
        assert certs.cross_check([obligation(X <= 0)]).status == "confirmed"  # a fresh helper


class TestTheHelperProcess:
    def test_a_script_with_no_main_guard_is_not_run_again_by_the_helper_and_gets_cvc5s_confirmation(self, tmp_path: Path) -> None:
        # multiprocessing's spawn imported the caller's main script again in the helper: a script calling check() at its
        # top level ran its whole check once more there, and each proof's cross-check timed out (10 s, unconfirmed)
        import subprocess
        import sys

        runs = tmp_path / "runs.txt"
        script = tmp_path / "my_check.py"
        script.write_text(
            "from irprops import check\n"
            f"with open({str(runs)!r}, 'a') as f:\n"
            "    f.write('ran\\n')\n"
            "print(check('P', ['bounded'], budget=5)['bounded'].proof.cross_check.status)\n")
        done = subprocess.run([sys.executable, str(script)], check=False, capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "confirmed"
        assert runs.read_text() == "ran\n"
