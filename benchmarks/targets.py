"""Issue 13's performance figures, each measured against its target, with the ratio (figure / target).

    python benchmarks/targets.py [--declared] [--repeat 3]

Measures, on this machine, each as the command line runs it (a fresh process):

- ``irprops table`` cold (empty cache, 2 workers) and warm (every row cached), wall clock;
- ``irprops --help``, wall clock, the median of --repeat runs;
- ``irprops check`` of a black-box proposal, CPU seconds of the process and its proposal's: a plain file
  (benchmarks/plain_proposal.py:precision) and one that imports irprops, and so SymPy, in its own process too
  (tests/proposals.py:precision);
- with --declared, ``irprops check`` of the 14 ordinary and declared proposals of benchmarks/declared.py (about
  3 minutes; its adversarial set is 131 more, about half an hour): the median and the largest wall clock;
- exact ``irprops score nDCG@10000`` and ``RBP@10000`` of a fixed half-relevant ranking (and of an all-relevant
  one), wall clock.

A ratio above 1 misses its target. CPU seconds are given where the machine is shared (they do not count the other
core's work); the wall clock figures assume an idle machine. The commands run as a user's Python runs them: the
project's bytecode is compiled first (as a first import writes it), and PYTHONDONTWRITEBYTECODE, where the shell sets
it, is dropped from their environment (with it, every command compiled the project's 180 modules again: 0.15 s).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
IRPROPS = [sys.executable, "-m", "irprops"]


def user_environment(**extra: str) -> dict[str, str]:
    """The environment a user's command runs in: this one, without PYTHONDONTWRITEBYTECODE, with ``extra``."""
    return {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, **extra}


def timed(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Run ``irprops ARGS`` to its end: (wall seconds, CPU seconds of the process and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*IRPROPS, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
                   env=env or user_environment())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_of(repeat: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(repeat))


def ranking(seed: int = 1, depth: int = 10_000) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice("01") for _ in range(depth))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--declared", action="store_true", help="also check the 14 ordinary and declared proposals (about 3 minutes)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each short command (the median is shown)")
    arguments = parser.parse_args()
    figures: list[tuple[str, str, float, float]] = []  # (figure, unit, measured, target)
    subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(ROOT / d) for d in ("irprops", "metrics", "properties",
                                                                                      "proofs"))], check=True)
    with tempfile.TemporaryDirectory() as folder:
        env = user_environment(XDG_CACHE_HOME=folder)  # the row cache lives under it: empty, then filled
        out = str(Path(folder) / "reports")
        figures.append(("irprops table, cold, 2 workers", "s wall", timed(["table", "--out", out], env)[0], 10.0))
        figures.append(("irprops table, warm", "s wall", median_of(arguments.repeat, lambda: timed(["table", "--out", out], env)[0]), 0.5))
    figures.append(("irprops --help", "s wall", median_of(arguments.repeat, lambda: timed(["--help"])[0]), 0.15))
    for label, proposal in (("a plain file", "benchmarks/plain_proposal.py:precision"),
                            ("a file importing irprops", "tests/proposals.py:precision")):
        figures.append((f"irprops check of a black-box proposal, {label}", "s CPU",
                        median_of(arguments.repeat, lambda p=proposal: timed(["check", p, "--json"])[1]), 1.5))  # type: ignore[misc]
    if arguments.declared:
        seconds = declared_checks()
        figures.append(("irprops check of a declared proposal, median", "s wall", statistics.median(seconds), 5.0))
        figures.append(("irprops check of a declared proposal, largest", "s wall", max(seconds), 30.0))
    for metric, target in (("nDCG@10000", 1.0), ("RBP@10000", 0.5)):
        for label, grades in (("half relevant", ranking()), ("all relevant", "1" * 10_000)):
            measured = median_of(arguments.repeat, lambda m=metric, g=grades: timed(["score", m, g])[0])  # type: ignore[misc]
            figures.append((f"exact irprops score {metric}, {label}", "s wall", measured, target))

    view = Table("figure", "measured", "target", "ratio", title="issue 13's targets on this machine")
    for figure, unit, measured, target in figures:
        ratio = measured / target
        view.add_row(figure, f"{measured:.2f} {unit}", f"<= {target:g}", f"{ratio:.2f}" + ("" if ratio <= 1 else " missed"))
    Console().print(view)


def declared_checks() -> list[float]:
    """Wall seconds of ``check`` of each ordinary and declared proposal of benchmarks/declared.py (in this process, as it
    runs them)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT))
    from declared import proposals  # type: ignore[import-not-found]

    from irprops import InputError, check

    seconds = []
    for measure in proposals(["ordinary", "declared"]).values():
        start = time.perf_counter()
        try:
            check(measure)
        except InputError:
            continue  # refused by the checker (a Python branch on a symbolic value): no check to time
        seconds.append(time.perf_counter() - start)
    return seconds


if __name__ == "__main__":
    main()
