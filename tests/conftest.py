"""Shared test configuration: reproducible Hypothesis runs and paths to the source documents."""

from __future__ import annotations

import fcntl
import os
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import irprops  # noqa: F401 - before any test module imports SymPy: irprops sizes SymPy's caches (irprops/__init__.py)

settings.register_profile(
    "ci",
    derandomize=True,  # the same examples on every run and every machine
    deadline=None,  # exact arithmetic through SymPy has uneven timings
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("explore", deadline=None, max_examples=2000, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# A run started in the background of a non-interactive shell (`cmd &` in a script) has Ctrl-C ignored (POSIX), and so
# would every command a test starts: the Ctrl-C tests would see commands run to their end. Python's own handler is put
# back, as a terminal has it (each xdist worker imports this file).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# importing it registers a metric: only the test that checks it loads it (and unregisters it)
collect_ignore = ["declared_formula.py", "nonrelevant_formulas.py"]

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path(os.environ.get("IRPROPS_SEEDS", ROOT.parent / "shared" / "seeds"))
"""The source documents: ``../shared/seeds`` beside the clone (CI has it), or ``$IRPROPS_SEEDS``."""

needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the source documents are not at {SEEDS} (set IRPROPS_SEEDS to read them)")


@pytest.fixture(autouse=True)
def _no_ctrl_c_kept_from_an_earlier_test() -> None:
    """A Ctrl-C a test sends is kept by irprops (files.keep_lost_interrupts) if it reaches no irprops entry point: it must
    not be raised in a later test of the same worker (a full run: a set of files was never written)."""
    from irprops import files

    files.forget_kept_interrupts()


# The table builds are session fixtures (a module fixture is built again whenever a worker comes back to the module from
# another): tests/test_table.py checks them, tests/test_report.py reads the catalog's verdicts through the same cache.


@pytest.fixture(scope="session")
def cache_home(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """An XDG cache home whose irprops/table cache starts empty at the start of the run, shared by the xdist workers."""
    run = tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent
    home = run / "xdg-cache-for-the-table"
    home.mkdir(exist_ok=True)
    return home


@pytest.fixture(scope="session")
def built(cache_home: Path):  # type: ignore[no-untyped-def]
    """Table 2, built cold once per test run: the first worker to ask builds it (about a minute on both cores) while the
    others wait, then read its rows from the shared cache (every worker built it cold, each on both cores, before)."""
    from irprops import table as t2

    with (cache_home / "build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return t2.build(cache=cache_home / "irprops" / "table")


@pytest.fixture(scope="session")
def catalog(built, cache_home: Path):  # type: ignore[no-untyped-def]
    """The extended table, built after Table 2 through the same cache (so only the rows beyond Table 2 are checked)."""
    from irprops import table as t2

    with (cache_home / "build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return t2.build(cache=cache_home / "irprops" / "table", catalog=True)
