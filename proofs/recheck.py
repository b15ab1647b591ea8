"""Re-checking certificate files: the solvers, and what a file must be before any solver reads it.

A certificate passes only if (1) the folder's ``MANIFEST`` lists it with its SHA-256 and
lists nothing that is missing, so that a deleted, added or edited file fails; (2) it holds
only the commands irprops writes (``set-logic``, ``declare-fun``, ``declare-const``,
``define-fun``, ``push``, ``pop``, ``assert``, ``check-sat``), so that a crafted file cannot
set a solver option such as ``:regular-output-channel`` and write where it likes; (3) every
``(check-sat)`` answers ``unsat`` with Z3 and, when installed, cvc5; and (4) its hypotheses
are consistent: each query with its last assertion (the negated claim) removed is satisfiable
for Z3, so that a certificate made unsat by contradictory hypotheses, such as an added
``(assert false)``, proves nothing and fails (the conflict theorem, whose claim *is* that its
hypotheses contradict each other, must instead need every one of them). This check found two
vacuous certificates of our own: reciprocal atoms numbered per encoder (``inv_0``) made
1/log2(3) and 1/(1 + log2(5)) one constant in DCG-b's k <= 20 queries.

>>> commands("(set-logic ALL) ; a comment (ignored)\\n(assert (> x |a b|))")
['(set-logic ALL)', '(assert (> x |a b|))']
>>> refused("(set-option :regular-output-channel \\"/tmp/x\\")\\n(check-sat)")
'it holds the command set-option, which no certificate irprops writes does'
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import importlib.util
import multiprocessing
from dataclasses import dataclass
from pathlib import Path

from irprops.files import ignore_ctrl_c, write_atomically

__all__ = ["ALLOWED", "MANIFEST", "Recheck", "commands", "cvc5_answers", "cvc5_available", "hypotheses", "listed", "recheck", "refused",
           "vacuity_checks", "write_manifest", "z3_answers"]

RECHECK_RLIMIT = 100_000_000
RECHECK_MS = 60_000
FIRST_PASS_MS = 20_000
"""cvc5's default configuration per query before its coverings procedure is asked (every committed query but one takes it
under a second)."""
MANIFEST = "MANIFEST"
"""The file, beside the certificates, listing ``<sha256>  <path>`` for each of them."""
ALLOWED = frozenset({"set-logic", "declare-fun", "declare-const", "define-fun", "push", "pop", "assert", "check-sat"})


def commands(text: str) -> list[str]:
    """The top-level commands of an SMT-LIB text, comments dropped (strings and |quoted| symbols respected)."""
    found, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == ";":
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
            continue
        if c in "\"|":
            end = text.find(c, i + 1)
            i = len(text) if end < 0 else end + 1
            continue
        if c == "(":
            start = i if depth == 0 else start
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                found.append(text[start:i + 1])
            elif depth < 0:
                raise ValueError("an unbalanced ')'")
        i += 1
    if depth:
        raise ValueError("an unclosed '('")
    return found


def _head(command: str) -> str:
    return command[1:].split(None, 1)[0].rstrip(")") if len(command) > 2 else ""


def refused(text: str) -> str | None:
    """Why ``text`` is not a certificate irprops writes, or None."""
    try:
        found = commands(text)
    except ValueError as error:
        return f"it is not SMT-LIB: {error}"
    for command in found:
        if _head(command) not in ALLOWED:
            return f"it holds the command {_head(command)}, which no certificate irprops writes does"
    return None


def hypotheses(text: str) -> str:
    """``text`` with the last assertion of each query removed: what the queries assume, to be shown satisfiable."""
    kept: list[str] = []
    block: list[str] | None = None
    for command in commands(text):
        head = _head(command)
        if head == "push":
            block = []
        elif head == "check-sat" and block is not None:
            asserts = [i for i, c in enumerate(block) if _head(c) == "assert"]
            if not asserts or _claims_a_conflict(block[asserts[-1]]):
                block = None  # its claim is that the hypotheses contradict each other: see vacuity_checks
                kept.append("(push 1)")
                continue
            kept += ["(push 1)", *(c for i, c in enumerate(block) if i != asserts[-1]), command]
            block = None
            continue
        elif head == "check-sat":  # a query outside push/pop: its claim is the last assertion before it
            last = max((i for i, c in enumerate(kept) if _head(c) == "assert"), default=None)
            kept = [c for i, c in enumerate(kept) if i != last]
        elif head == "pop":
            kept.append("(pop 1)")
            continue
        if block is not None and head != "push":
            block.append(command)
        elif head != "push":
            kept.append(command)
    return "\n".join(kept)


def _claims_a_conflict(negated: str) -> bool:
    return " ".join(negated.split()) == "(assert true)"


def vacuity_checks(text: str) -> list[str]:
    """Texts none of whose (check-sat) may answer unsat, or ``text`` proves nothing.

    For an ordinary query: its hypotheses (:func:`hypotheses`) are satisfiable. For a query
    whose claim is that the hypotheses contradict each other (``(assert true)`` as the negated
    claim, the conflict theorem's form): each hypothesis is needed, so dropping any one of the
    top-level assertions leaves a satisfiable set (an added ``(assert false)`` fails this).
    """
    found = commands(text)
    checks = [hypotheses(text)]
    if any(_head(c) == "assert" and _claims_a_conflict(c) for c in found):
        tops, depth = [], 0
        for i, c in enumerate(found):
            depth += {"push": 1, "pop": -1}.get(_head(c), 0)
            if depth == 0 and _head(c) == "assert":
                tops.append(i)
        checks += ["\n".join(c for i, c in enumerate(found) if i != j) for j in tops]
    return checks


def write_manifest(directory: Path, paths: list[Path]) -> Path:
    """Write ``directory/MANIFEST``: the SHA-256 of each certificate in ``paths``, by relative path."""
    lines = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(directory).as_posix()}" for p in sorted(paths)]
    manifest = directory / MANIFEST
    write_atomically(manifest, "\n".join(lines) + "\n")
    return manifest


def listed(directory: Path) -> dict[str, str] | None:
    try:
        text = (directory / MANIFEST).read_text()
    except OSError:
        return None
    return {path: digest for digest, _, path in (line.partition("  ") for line in text.splitlines() if line.strip())}


@dataclass(frozen=True)
class Recheck:
    """What the solvers answered on one certificate, and what is wrong with the file itself (``problem``)."""

    path: str
    z3: tuple[str, ...]
    cvc5: tuple[str, ...] | None
    """None when cvc5 is not installed."""
    problem: str | None = None
    """Why the file fails before or beside the solvers: missing, not listed, edited, refused, vacuous."""

    @property
    def ok(self) -> bool:
        """No problem, and every answer of every solver run is unsat."""
        unsat = bool(self.z3) and set(self.z3) == {"unsat"} and (self.cvc5 is None or (bool(self.cvc5) and set(self.cvc5) == {"unsat"}))
        return self.problem is None and unsat

    @property
    def disagreement(self) -> bool:
        """One solver proves a query the other refutes."""
        if self.cvc5 is None:
            return False
        return any({a, b} == {"sat", "unsat"} for a, b in zip(self.z3, self.cvc5))


def recheck(directory: Path, workers: int = 2) -> list[Recheck]:
    """Check every certificate the manifest of ``directory`` lists, and every .smt2 file there, as the module says."""
    manifest = listed(directory)
    files = {f.relative_to(directory).as_posix(): f for f in sorted(directory.rglob("*.smt2"))}
    if manifest is None:
        return [Recheck(MANIFEST, (), None, f"there is no {MANIFEST} in {directory}: run irprops certificates to write one")]
    results = [Recheck(path, (), None, "it is listed in the MANIFEST but missing") for path in sorted(set(manifest) - set(files))]
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=ignore_ctrl_c)
    try:
        futures = {}
        for path, f in files.items():
            text, problem = _read(f)
            problem = problem or refused(text)
            if problem is not None:  # whatever the manifest says, never handed to a solver
                results.append(Recheck(path, (), None, problem))
                continue
            problem = ("it is not listed in the MANIFEST" if path not in manifest else
                       "its contents differ from the MANIFEST's SHA-256" if hashlib.sha256(text.encode()).hexdigest() != manifest[path]
                       else None)
            futures[path] = (problem, pool.submit(_recheck_text, text))
        for path, (problem, future) in futures.items():
            try:
                z3_found, cvc5_found, consistent = future.result()
            except concurrent.futures.process.BrokenProcessPool:
                z3_found, cvc5_found, consistent = ("crashed",), None, True
            if problem is None and not consistent:
                problem = "its hypotheses contradict each other (a query without its claim is unsat), so it proves nothing"
            results.append(Recheck(path, z3_found, cvc5_found, problem))
    except BaseException:  # Ctrl-C: no waiting for the queue, and the workers end now
        pool.shutdown(wait=False, cancel_futures=True)
        for child in multiprocessing.active_children():
            child.kill()
        raise
    pool.shutdown()
    return sorted(results, key=lambda r: r.path)


def _read(file: Path) -> tuple[str, str | None]:
    """The text of a certificate file, or why it has none."""
    if not file.is_file():
        return "", "it is not a file"
    try:
        return file.read_bytes().decode("utf-8"), None
    except OSError as error:
        return "", f"it cannot be read ({error.strerror})"
    except UnicodeDecodeError:
        return "", "it is not UTF-8 text, as every certificate irprops writes is"


def _recheck_text(text: str) -> tuple[tuple[str, ...], tuple[str, ...] | None, bool]:
    consistent = all("unsat" not in z3_answers(check) for check in vacuity_checks(text))  # recheck() refused foreign commands
    return z3_answers(text), (_cvc5_either(text) if cvc5_available() else None), consistent


def _cvc5_either(text: str) -> tuple[str, ...]:
    """cvc5's answers, from its default configuration (:data:`FIRST_PASS_MS` per query) and, for the queries that leaves
    open, from its coverings procedure, as the cross-check asks them (graded Q-measure's top-weightedness for k <= 3: a
    query its default leaves open after 60 s, its coverings procedure settles). Any sat is kept: a disagreement."""
    first = cvc5_answers(text, per_query_ms=FIRST_PASS_MS)
    if set(first) <= {"unsat"} or any(a == "sat" or a.startswith("error") for a in first):
        return first
    second = cvc5_answers(text, coverings=True)
    if len(second) != len(first):
        return first + second
    return tuple("sat" if "sat" in (a, b) else "unsat" if "unsat" in (a, b) else a for a, b in zip(first, second, strict=True))


def cvc5_available() -> bool:
    return importlib.util.find_spec("cvc5") is not None


def z3_answers(text: str) -> tuple[str, ...]:
    """Z3's answers to the (check-sat) commands of ``text``, under a deterministic resource limit."""
    import z3

    context = z3.Context()  # kept alive for the whole call
    try:
        out = z3.Z3_eval_smtlib2_string(context.ref(), f"(set-option :rlimit {RECHECK_RLIMIT})\n(set-option :timeout {RECHECK_MS})\n{text}")
    except z3.Z3Exception as error:
        return (f"error: {error}",)
    return tuple(out.split())


def cvc5_answers(text: str, coverings: bool = False, per_query_ms: int = RECHECK_MS) -> tuple[str, ...]:
    """cvc5's answers to the (check-sat) commands of ``text``; with ``coverings``, by its cylindrical algebraic
    coverings procedure for nonlinear arithmetic alone (``nl-cov``, without the incremental linearization it tries
    first by default), which settles at once some nonlinear induction steps that its default cannot in 60 s."""
    import cvc5

    manager = cvc5.TermManager()
    solver = cvc5.Solver(manager)
    solver.setOption("incremental", "true")
    solver.setOption("tlimit-per", str(per_query_ms))
    if coverings:
        solver.setOption("nl-cov", "true")
        solver.setOption("nl-ext", "none")
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "certificate")
    symbols = parser.getSymbolManager()
    answers = []
    try:
        while True:
            command = parser.nextCommand()
            if command.isNull():
                break
            out = command.invoke(solver, symbols)
            if out.strip():
                answers.append(out.strip())
    except RuntimeError as error:
        return (f"error: {error}",)
    return tuple(answers)
