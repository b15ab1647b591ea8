"""The certificates: every Z3 obligation behind a proof, as SMT-LIB 2 files anyone can re-run.

:func:`regenerate` proves every property of every declared metric (default parameters)
and writes the obligations of the proofs to ``<directory>/<metric>/<property>--<lemma>.smt2``,
with a comment header saying what each file proves (the committed ones are in ``proofs/smt2/``). :func:`recheck` runs each file with
Z3 and, when the ``cvc5`` package is installed, with cvc5, in worker processes (a solver
crash fails only its own file): every ``(check-sat)`` must answer ``unsat``. A file one
solver proves and the other refutes is a *disagreement*, and the cells it supports are
not to be trusted.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Sequence
from multiprocessing.connection import Connection
from pathlib import Path

from irprops.files import ignore_ctrl_c, uninterrupted, writable_folder, write_atomically
from irprops.metrics import REGISTRY, Measure, in_catalog
from irprops.verdicts import CrossCheck, Prop

from .recheck import Recheck, cvc5_answers, cvc5_available, listed, write_manifest
from .recheck import recheck as recheck_folder
from .smt import Obligation, smt2

COMMITTED = Path(__file__).resolve().parent / "smt2"
"""The certificates shipped with the package (read them; :func:`regenerate` writes only where it is told)."""


def obligations() -> dict[str, Obligation]:
    """Every obligation of every proof of every metric of the catalog (default parameters), by path: never of a
    proposal a researcher declared in the same process (it is in the registry too)."""
    from . import Proof, prove
    from .conflict import theorem

    found: dict[str, Obligation] = {theorem().path: theorem()}
    for metric in (m for m in REGISTRY.values() if in_catalog(m.formula)):
        measure = Measure(metric, metric.defaults())
        for prop in Prop:
            proof = prove(measure, prop)
            if isinstance(proof, Proof):
                for ob in proof.obligations:
                    found.setdefault(ob.path, ob)
    return dict(sorted(found.items()))


def regenerate(directory: Path) -> list[Path]:
    """Write every certificate afresh into ``directory``.

    Nothing is written until every proof is done, so an interrupted run leaves the previous
    certificates as they were. Then each certificate is replaced whole, the certificates the
    previous ``MANIFEST`` lists and no proof produces any more are removed (with the folders
    they leave empty), and the manifest lists what was written, all with Ctrl-C held back.
    Any other file under ``directory``, a ``.smt2`` file irprops did not write included, is left alone.
    """
    writable_folder(directory, "--out")
    before = listed(directory) or {}
    texts = {path: smt2(ob) for path, ob in obligations().items()}  # everything proved before anything is written
    written = [directory / path for path in texts]
    with uninterrupted():
        for path, text in texts.items():
            write_atomically(directory / path, text)
        for stale in sorted(set(before) - set(texts)):
            target = directory / stale
            if target.suffix == ".smt2" and target.is_file() and target.resolve().is_relative_to(directory.resolve()):
                target.unlink()
                for folder in target.parents:
                    if folder == directory or any(folder.iterdir()):
                        break
                    folder.rmdir()
        write_manifest(directory, written)
    return written


def recheck(directory: Path = COMMITTED, workers: int = 2) -> list[Recheck]:
    """Re-check the certificates under ``directory`` (see :mod:`irprops.proofs.recheck`)."""
    return recheck_folder(directory, workers)


CROSS_CHECK_SECONDS = 10.0
"""Wall-clock limit of cvc5 on one obligation in a cross-check, half for its default configuration and half, if that
leaves a query open, for its nonlinear coverings procedure: cvc5's own time limit is not checked inside a simplex
pivot, so a helper process that overruns it is killed. Every committed certificate takes cvc5 under a second; Q-measure's
nonlinear induction steps, which its default did not settle in 10 s, take the coverings procedure 0.07 s. An obligation
neither settles is reported unconfirmed, and the proof stands on Z3."""


def cross_check(obligations: Sequence[Obligation]) -> CrossCheck:
    """Run cvc5 on ``obligations`` (which Z3 proved); a disagreement disputes the proof.

    cvc5 runs in a helper process, so that a solver crash or a run past
    :data:`CROSS_CHECK_SECONDS` cannot take the command down: the helper is killed and the
    obligation counts as unconfirmed.
    """
    if not cvc5_available():
        return CrossCheck("skipped", "cvc5 is not installed (pip install irprops[cvc5])")
    unconfirmed, by_coverings = [], 0
    for ob in obligations:
        text = smt2(ob)
        answers = _ask_helper(text, False, CROSS_CHECK_SECONDS / 2)
        if set(answers) != {"unsat"} and "sat" not in answers:  # its default left a query open: its coverings procedure
            second = _ask_helper(text, True, CROSS_CHECK_SECONDS / 2)
            by_coverings += set(second) == {"unsat"}
            answers = second if set(second) == {"unsat"} or "sat" in second else answers + second
        if "sat" in answers:
            return CrossCheck("disagreement", f"cvc5 answers sat on {ob.path}, which Z3 proved unsat")
        if set(answers) != {"unsat"}:
            unconfirmed.append(f"{ob.path} ({', '.join(sorted(set(answers)))})")
    if unconfirmed:
        return CrossCheck("unconfirmed", f"cvc5 could not confirm {'; '.join(unconfirmed)}")
    if not obligations:
        return CrossCheck("confirmed", "no solver certificate to confirm")
    coverings = f" ({by_coverings} by its nonlinear coverings procedure)" if by_coverings else ""
    return CrossCheck("confirmed", f"cvc5 confirms all {len(obligations)} certificate(s){coverings}")


class _Helper:
    """A child process answering SMT-LIB texts with cvc5, one at a time.

    A fresh interpreter, not multiprocessing's spawn: spawn imports the caller's main script again in the
    child, so a researcher's script that calls ``check()`` without an ``if __name__ == "__main__":`` guard
    ran its whole check once more in every helper, which then overran its time limit (10 s per proof, and
    no cvc5 confirmation)."""

    def __init__(self) -> None:
        requests_read, requests_write = os.pipe()
        answers_read, answers_write = os.pipe()
        path = os.pathsep.join(p for p in sys.path if p)  # where the parent imports irprops from
        self.process = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(requests_read), str(answers_write)], pass_fds=(requests_read, answers_write),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": path}, start_new_session=True)  # Ctrl-C at the terminal is the parent's
        os.close(requests_read)
        os.close(answers_write)
        self.requests, self.answers = Connection(requests_write, readable=False), Connection(answers_read, writable=False)

    def ask(self, request: tuple[str, bool], seconds: float) -> tuple[str, ...] | None:
        """cvc5's answers to a text (by its coverings procedure if asked), or None if the helper crashed or overran
        ``seconds`` (it is then unusable)."""
        try:
            self.requests.send(request)
            if self.answers.poll(seconds):
                answers: tuple[str, ...] = self.answers.recv()
                return answers
        except (EOFError, OSError):
            pass
        return None

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        self.requests.close()
        self.answers.close()


_CHILD = "import sys; from irprops.proofs.certificates import serve; serve(int(sys.argv[1]), int(sys.argv[2]))"
"""The helper's program: it imports irprops, never the caller's script."""


_HELPER: _Helper | None = None


def _ask_helper(text: str, coverings: bool, seconds: float) -> tuple[str, ...]:
    global _HELPER
    if multiprocessing.current_process().daemon:  # a daemonic process cannot start one
        return cvc5_answers(text, coverings)
    if _HELPER is None:
        _HELPER = _Helper()
        atexit.register(_close_helper)
    answers = _HELPER.ask((text, coverings), seconds)
    if answers is None:
        crashed = not _HELPER.alive()
        _close_helper()
        return ("crashed",) if crashed else (f"timeout after {seconds:g} s",)
    return answers


def _close_helper() -> None:
    global _HELPER
    if _HELPER is not None:
        _HELPER.close()
        _HELPER = None


def serve(requests: int, answers: int) -> None:
    """The cvc5 helper's loop (run by :class:`_Helper` in a child process): SMT-LIB texts read from the pipe
    ``requests`` (a file descriptor), cvc5's answers written to ``answers``, until the parent closes its end."""
    ignore_ctrl_c()  # the parent's to handle: it ends this helper
    asked, answering = Connection(requests, writable=False), Connection(answers, readable=False)
    while True:
        try:
            text, coverings = asked.recv()
        except (EOFError, OSError):  # the parent has gone (ended, or killed with its workers)
            return
        try:
            answering.send(cvc5_answers(text, coverings))
        except OSError:
            return
