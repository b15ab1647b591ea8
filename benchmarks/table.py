"""How long `irprops table` takes, cold (nothing cached) and warm (every row cached), and where the time goes.

    python benchmarks/table.py [--workers 2] [--catalog]

Builds Table 2 (with --catalog, the extended table of every declared metric) twice
into a temporary cache: once cold, with every row checked in worker processes, then
warm, reading every row back. Prints the seconds of each cell (search plus proof plus
cross-check, as the worker measured it), each row's total, and the two wall clock
figures against issue 13's targets: cold at most 10 s and warm at most 0.5 s on 2 cores.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table

from irprops import COLUMNS
from irprops import table as t2
from irprops.table.render_text import HEADERS

TARGETS = {"cold": 10.0, "warm": 0.5}  # issue 13 (benchmarks/targets.py measures them as the command line runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--catalog", action="store_true", help="the extended table (irprops table --catalog)")
    arguments = parser.parse_args()
    workers, catalog = arguments.workers, arguments.catalog
    with tempfile.TemporaryDirectory() as directory:
        cache = Path(directory)
        start = time.perf_counter()
        cold = t2.build(workers=workers, cache=cache, catalog=catalog)
        seconds = {"cold": time.perf_counter() - start}
        start = time.perf_counter()
        t2.build(workers=workers, cache=cache, catalog=catalog)
        seconds["warm"] = time.perf_counter() - start
    view = Table("Metric", *(HEADERS[p] for p in COLUMNS), "Row",
                 title=f"seconds per cell, cold, {workers} workers (search + proof + cross-check)",
                 box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    cpu = 0.0
    for label, result in cold.rows:
        row = [result[p].seconds for p in COLUMNS]
        cpu += sum(row)
        view.add_row(label, *(f"{s:.2f}" for s in row), f"{sum(row):.1f}")
    console = Console()
    console.print(view)
    print(f"cells: {cpu:.1f} s of checking in all, over {workers} workers")
    for phase, limit in TARGETS.items():
        print(f"{phase}: {seconds[phase]:.1f} s wall clock (target < {limit:g} s): {'met' if seconds[phase] < limit else 'MISSED'}")


if __name__ == "__main__":
    main()
