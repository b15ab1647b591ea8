"""Per cell: how the proof layer settles it, how far the proof reaches, and how long it takes.

    python benchmarks/prove.py [METRIC ...]

For every declared metric (default parameters) and every property, runs the proof layer
alone (no search) in a fresh process, and prints the conclusion, the approach (weighted
sum, fold induction, closed-form reading, bounded Z3), the reach (all k, or k <= K) and
the seconds; "-" where no proof was found.
"""

from __future__ import annotations

import sys
import time

from rich.console import Console
from rich.table import Table

from irprops.metrics import REGISTRY, Measure
from irprops.proofs import Proof, prove
from irprops.verdicts import COLUMNS

APPROACH = {"form": "weighted sum", "fold": "fold induction", "top k only": "closed form", "defined at R = 0": "closed form",
            "bounded": "bounded Z3"}


def main() -> None:
    keys = sys.argv[1:] or list(REGISTRY)
    table = Table("metric", *COLUMNS, "total s", title="proof per cell: conclusion, approach, reach, seconds")
    grand = 0.0
    for key in keys:
        metric = REGISTRY[key]
        measure = Measure(metric, metric.defaults())
        cells, total = [], 0.0
        for prop in COLUMNS:
            start = time.perf_counter()
            found = prove(measure, prop)
            seconds = time.perf_counter() - start
            total += seconds
            if isinstance(found, Proof):
                approach = APPROACH.get(found.lemmas[0].name, found.lemmas[0].name)
                cells.append(f"{found.conclusion}: {approach}, {found.reach}, {seconds:.2f}")
            else:
                cells.append(f"- {seconds:.2f}")
        grand += total
        table.add_row(key, *cells, f"{total:.1f}")
    Console().print(table)
    print(f"total {grand:.1f} s")


if __name__ == "__main__":
    main()
