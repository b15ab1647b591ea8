"""Compile generated LaTeX with the system's pdflatex and report what went wrong (a helper for the tests, not a test file).

    @needs_pdflatex
    def test_it_compiles(tmp_path):
        problems = compile_latex(path.read_text(), tmp_path)  # a fragment to ``\\input`` (reports/table2.tex), or a document
        assert not problems, "\\n\\n".join(problems)

A fragment is ``\\input`` into a minimal document (``article`` with ``booktabs``, nothing else), so a fragment that needs
another package fails here just as it would in a paper that loads only what the file says it needs. Font generation is
switched off (``MKTEX*=0``) and ``$HOME``'s TeX folders ignored: a document asking for fonts this TeX distribution lacks
(``[T1]{fontenc}`` without cm-super or lmodern) is a problem reported, not bitmap fonts quietly made in, or read from,
``~/.texlive*`` (which a fresh CI machine does not have).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

pdflatex = shutil.which("pdflatex")

needs_pdflatex = pytest.mark.skipif(
    pdflatex is None,
    reason="pdflatex is not installed (apt-get install texlive-latex-base texlive-latex-recommended)",
)

FRAGMENT_PREAMBLE = "\\documentclass{article}\n\\usepackage{booktabs}\n"
"""The document a fragment is ``\\input`` into: the packages the generated tables say they need (``booktabs``); the
fonts are the Computer Modern ones every TeX distribution has (OT1: ``[T1]{fontenc}`` needs cm-super or lmodern)."""

_DOCUMENT = re.compile(r"^[^%\n]*\\documentclass\b", re.MULTILINE)
_CONTEXT = re.compile(r"^l\.\d+ ")  # TeX's "l.<line> <text read so far>" that ends an error's message
_OVERFULL = re.compile(r"^Overfull \\[hv]box ")
_MISSING_GLYPH = re.compile(r"^Missing character: ")
_NO_PAGES = re.compile(r"^No pages of output\.")
_FATAL = re.compile(r"^!\s+==> Fatal error occurred")  # said again as "no PDF was written"
_END_OF_RUN = re.compile(r"^Here is how much of TeX's memory")
_BOILERPLATE = re.compile(r"^(See the LaTeX manual|Type  H <return>|\s*\.\.\.\s*$)")


def is_document(source: str) -> bool:
    """Whether ``source`` is a whole document (a ``\\documentclass`` outside a comment) rather than a fragment."""
    return _DOCUMENT.search(source) is not None


def compile_latex(source: str, workdir: Path, *, search: Sequence[Path] = (), timeout: float = 120.0) -> list[str]:
    """Compile ``source`` once with pdflatex in ``workdir``; return every problem found, an empty list if none.

    ``source`` is a whole document, or a fragment (a ``\\begin{table}...``) that is written to ``fragment.tex`` and
    ``\\input`` into :data:`FRAGMENT_PREAMBLE`'s document. ``search`` adds folders to TeX's search path (TEXINPUTS), for a
    document that inputs files beside it. The problems are the log's errors (each ``!`` line with the lines of its context
    up to TeX's ``l.<n>`` line), its ``Overfull \\hbox`` / ``Overfull \\vbox`` warnings, glyphs missing from a font, and a
    PDF not written (a timeout, a crash, an empty document). A package or font the distribution lacks is an error here,
    never a skip: only a missing pdflatex skips (:data:`needs_pdflatex`).
    """
    if pdflatex is None:
        raise RuntimeError("pdflatex is not installed (mark the test with tests.latex.needs_pdflatex)")
    workdir.mkdir(parents=True, exist_ok=True)
    if is_document(source):
        main = source
    else:
        (workdir / "fragment.tex").write_text(source, encoding="utf-8")
        main = FRAGMENT_PREAMBLE + "\\begin{document}\n\\input{fragment}\n\\end{document}\n"
    (workdir / "document.tex").write_text(main, encoding="utf-8")
    for stale in ("document.log", "document.pdf"):
        (workdir / stale).unlink(missing_ok=True)
    environment = {
        **os.environ,
        "max_print_line": "100000",  # one log line per message: an overfull box's line is not wrapped at 79 characters
        "MKTEXPK": "0", "MKTEXTFM": "0", "MKTEXMF": "0", "MKTEXTEX": "0",  # no fonts or files made on demand in $HOME
        # nor read from $HOME: fonts made there earlier (~/.texlive*/texmf-var) or packages in ~/texmf would make a document
        # compile on this machine that fails on a fresh one (CI); only the distribution's own files count
        "TEXMFHOME": str(workdir / "no-texmf-home"), "TEXMFVAR": str(workdir / "no-texmf-var"),
        "TEXMFCONFIG": str(workdir / "no-texmf-config"),
    }
    if search:
        environment["TEXINPUTS"] = os.pathsep.join([str(p) for p in search] + [""])  # the trailing "" keeps the defaults
    # \tracinglostchars=2: a character the font lacks goes to the log as "Missing character" (TeX drops it silently)
    command = [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "-jobname=document",
               "\\tracinglostchars=2\\relax\\input{document}"]
    problems: list[str] = []
    try:
        run = subprocess.run(command, check=False, cwd=workdir, env=environment, stdin=subprocess.DEVNULL, capture_output=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        problems.append(f"pdflatex did not finish within {timeout:g} s (is it waiting for input?)")
        returncode = None
    else:
        returncode = run.returncode
    log = workdir / "document.log"
    if log.exists():
        problems += log_problems(log.read_text(encoding="utf-8", errors="replace"))
    else:
        problems.append("pdflatex wrote no log")
    if not (workdir / "document.pdf").exists():
        problems.append(f"no PDF was written (pdflatex exit status {returncode})")
    elif returncode not in (0, None) and not problems:
        problems.append(f"pdflatex exited with status {returncode} but its log names no error")
    return problems


def log_problems(log: str) -> list[str]:
    """The errors, overfull boxes and missing glyphs of a pdflatex log (see :func:`compile_latex`)."""
    lines = log.splitlines()
    problems: list[str] = []
    for n, line in enumerate(lines):
        if line.startswith("!") and not _FATAL.match(line):
            message = [line]
            for following in lines[n + 1: n + 12]:  # the message's lines, then its context, up to the l.<n> line
                if following.startswith("!") or _END_OF_RUN.match(following):
                    break
                if following.strip() and not _BOILERPLATE.match(following):
                    message.append(following.rstrip())
                if _CONTEXT.match(following):
                    break
            problems.append("\n".join(message))
        elif _OVERFULL.match(line):
            box = next((b for b in lines[n + 1: n + 3] if b.strip()), "")  # what TeX shows of the box's contents
            problems.append(f"{line}\n{box[:300]}".rstrip())
        elif _MISSING_GLYPH.match(line) or _NO_PAGES.match(line):
            problems.append(line)
    return problems
