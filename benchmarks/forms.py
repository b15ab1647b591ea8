"""How long one evaluation of each form of each metric takes.

    python benchmarks/forms.py [--k 10] [--n 200]

Prints, per declared metric, the mean time of one numeric, exact and symbolic evaluation
on ``n`` generated situations at depth ``k``, and the time to build the symbolic form once.
Figures, not assertions: compare them before and after a change.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

from irprops.metrics import REGISTRY, Measure, NotExpressible, Situation
from irprops.metrics.strategies import BINARY_GRADES, GRADED_GRADES


def situations(binary: bool, k: int, n: int, rng: random.Random) -> list[Situation]:
    scale = BINARY_GRADES if binary else GRADED_GRADES
    found = []
    for _ in range(n):
        ranking = tuple(rng.choice(scale) for _ in range(k))
        extra = tuple(rng.choice(scale[1:]) for _ in range(rng.randint(0, 3)))
        found.append(Situation(ranking, k, tuple(g for g in ranking if g) + extra))
    return found


def mean_microseconds(fn, items) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    for item in items:
        fn(item)
    return (time.perf_counter() - start) / len(items) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--n", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(20131)
    table = Table("metric", "numeric (us)", "exact (us)", "symbolic at (us)", "build symbolic (ms)",
                  title=f"one evaluation at k = {args.k}, mean of {args.n}")
    for metric in REGISTRY.values():
        measure = Measure(metric, metric.defaults())
        cases = situations(metric.binary, args.k, args.n, rng)
        numeric = mean_microseconds(measure.numeric, cases)
        exact = mean_microseconds(measure.exact, cases)
        start = time.perf_counter()
        try:
            form = measure.symbolic(args.k)
        except NotExpressible:
            table.add_row(metric.key, f"{numeric:.0f}", f"{exact:.0f}", "not expressible", "")
            continue
        build = (time.perf_counter() - start) * 1e3
        symbolic = mean_microseconds(form.at, cases[: max(1, args.n // 4)])
        table.add_row(metric.key, f"{numeric:.0f}", f"{exact:.0f}", f"{symbolic:.0f}", f"{build:.1f}")
    Console().print(table)
    print(f"grades: 0/1 for binary metrics; {', '.join(map(str, GRADED_GRADES))} for graded ones; default parameters")


if __name__ == "__main__":
    main()
