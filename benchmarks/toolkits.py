"""Issue 12's figure: `irprops check` of a toolkit's metric, warm-up included, against its target of 10 s each.

    python benchmarks/toolkits.py [TARGET ...]      (default: the nine the issue names)

Runs ``irprops check TARGET --json`` for each toolkit metric the issue names, as a fresh process, and prints its wall
clock, the warm-up the check reports (a JIT compiling), the situations scored and the calls into the toolkit, the
refuted cells, and the ratio to the target (above 1 misses it). It needs the toolkits (pip install -e '.[toolkits]').
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

TARGETS = tuple(sys.argv[1:]) or ("ir_measures:nDCG", "ir_measures:P", "ir_measures:AP", "ir_measures:RR", "pytrec_eval:Rprec",
           "pytrec_eval:ndcg_cut", "ranx:ndcg", "ranx:rbp(p=0.8)", "rbp_eval:rbp(p=0.8)")
TARGET_SECONDS = 10.0


def main() -> int:
    command = Path(sys.executable).with_name("irprops")
    print(f"{'toolkit metric':24} {'wall s':>7} {'warm-up':>8} {'situations':>11} {'calls':>6} {'ratio':>6}  refuted")
    for target in TARGETS:
        start = time.perf_counter()
        ran = subprocess.run([str(command), "check", target, "--json"], capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        if ran.returncode != 0:
            print(f"{target:24} failed: {ran.stderr.strip()[:200]}")
            continue
        found = json.loads(ran.stdout)
        used = found["implementation"]
        refuted = ", ".join(p for p, v in found["properties"].items() if v["verdict"] == "no")
        print(f"{target:24} {wall:7.1f} {used['warmup_seconds']:8.1f} {used['situations']:11,} {used['calls']:6,} "
              f"{wall / TARGET_SECONDS:6.2f}  {refuted}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
