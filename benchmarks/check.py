"""How long `irprops check` takes, per property, and how many candidates each search tried.

    python benchmarks/check.py [TARGET ...]

TARGET is what `irprops check` takes; by default three black-box proposals from
tests/proposals.py (exact binary, float binary, exact graded with logarithms) and two
built-in families. The target for a black-box proposal is under 10 seconds for all seven
properties on the 2-core development machine.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from irprops import COLUMNS, check

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [
    f"{ROOT}/tests/proposals.py:precision",
    f"{ROOT}/tests/proposals.py:float_precision",
    f"{ROOT}/tests/proposals.py:exact_dcg",
    "NDCG",
    "RBP",
]


def main() -> None:
    targets = sys.argv[1:] or DEFAULT
    table = Table("target", *COLUMNS, "total", title="seconds (candidates tried) per property")
    for target in targets:
        start = time.perf_counter()
        result = check(target)
        total = time.perf_counter() - start
        cells = [f"{v.seconds:.2f} ({v.tried:,}) {v.verdict}" for v in (result[p] for p in COLUMNS)]
        table.add_row(f"{result.metric} ({result.relevance})", *cells, f"{total:.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()
