"""How fast Ctrl-C ends irprops: the seconds from SIGINT to exit, and the exit status.

    python benchmarks/interrupts.py

Runs `irprops check BPref`, `irprops certificates --out TMP` and `irprops table --no-cache --out TMP`
(each about 10 to 30 s of work), sends SIGINT after 1, 3 and 6 seconds, and prints how long each took
to exit and with what status. Target: every one exits with status 130 within a second.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from irprops.proofs.certificates import COMMITTED

DELAYS = (1.0, 3.0, 6.0)


def interrupted(args: list[str], after: float) -> tuple[int, float]:
    process = subprocess.Popen([sys.executable, "-m", "irprops", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(after)
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    status = process.wait(timeout=120)
    return status, time.perf_counter() - sent


def main() -> None:
    table = Table("command", *(f"Ctrl-C after {d:g} s" for d in DELAYS), title="exit status and seconds from Ctrl-C to exit")
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(COMMITTED, Path(folder) / "certs")
        commands = {
            "check BPref": ["check", "BPref", "--json"],
            "certificates": ["certificates", "--out", f"{folder}/certs"],
            "table --no-cache": ["table", "--no-cache", "--out", f"{folder}/reports"],
        }
        for name, args in commands.items():
            cells = []
            for delay in DELAYS:
                status, seconds = interrupted(args, delay)
                cells.append(f"{status}, {seconds:.2f} s")
            table.add_row(name, *cells)
    Console().print(table)


if __name__ == "__main__":
    main()
