"""How long `irprops check` takes on declared proposals, per cell, with each cell's verdict and reach.

    python benchmarks/declared.py [adversarial] [declared] [ordinary]

The proposals are tests/adversarial_proposals.py's (built to fool the prover),
tests/declared_proposals.py's (inverse squares, increasing weights, a geometric and a root
discount) and tests/ordinary_proposals.py's (ERR, Q-measure, rank-1 terms, MAP over min(k, R),
...); name sets to run only those. One the checker refuses (a Python branch on a symbolic value) is shown as refused.
Printed per cell: seconds, then the verdict with its reach ("P" proof for all k, "P<=K" for
k <= K, "W@k" a witness at depth k, "?" unknown). The target (issue 10): every
check under 30 s on the 2-core machine, the median well under 10 s.
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from irprops import COLUMNS, InputError, Measure, Verdict, check, weighted_precision

adv: Any = importlib.import_module("tests.adversarial_proposals")
declared: Any = importlib.import_module("tests.declared_proposals")
ordinary: Any = importlib.import_module("tests.ordinary_proposals")


def proposals(sets: list[str]) -> dict[str, Measure]:
    """The proposals of the named sets (adversarial, declared, ordinary; all three when none is named)."""
    found: dict[str, Measure] = {}
    if not sets or "adversarial" in sets:
        found |= {m.name: m for m in vars(adv).values() if isinstance(m, Measure) and not m.name.startswith(("branch", "range"))}
        found["bump-at-40"] = weighted_precision("bump-at-40", adv.bump_at_40_weight, relevance="binary")
    for name, module in (("declared", declared), ("ordinary", ordinary)):
        if not sets or name in sets:
            found |= {m.name: m for m in vars(module).values() if isinstance(m, Measure)}
    return found


def reach(v: Verdict) -> str:
    if v.settled_by_proof:
        return "P" if v.proof.reach.all_k else f"P<={v.proof.reach.max_k}"  # type: ignore[union-attr]
    if v.verdict == "no" and v.witness is not None:
        return f"W@{v.witness.data['k']}"
    return "?"


def main() -> None:
    table = Table("proposal", *COLUMNS, "total s", title="seconds and verdict per cell (P proof for all k, P<=K, W@k witness, ? unknown)")
    totals = []
    for name, measure in proposals(sys.argv[1:]).items():
        start = time.perf_counter()
        try:
            result = check(measure)
        except InputError as refused:
            table.add_row(name, f"refused: {refused}"[:60], *[""] * (len(COLUMNS) - 1), f"{time.perf_counter() - start:.1f}")
            continue
        totals.append(time.perf_counter() - start)
        cells = [f"{v.seconds:.1f} {v.verdict} {reach(v)}" for v in (result[p] for p in COLUMNS)]
        table.add_row(name, *cells, f"{totals[-1]:.1f}")
    Console().print(table)
    print(f"{len(totals)} proposals: median {statistics.median(totals):.1f} s, max {max(totals):.1f} s per check")


if __name__ == "__main__":
    main()
