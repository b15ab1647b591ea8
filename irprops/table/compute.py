"""Computing the rows of Table 2: one ``check`` per metric, in parallel, cached.

Each row is the full check of one metric family (search, proofs, cvc5 cross-check), run
in a worker process; rows are independent, so the machine's cores share them. A finished
row is cached under a key made of the source of every module that can change a verdict
(the metrics, the properties, the proofs), the pinned versions of the solver, the
computer algebra and Hypothesis, and the metric's name: a second run with nothing changed
reads the cache, and any change to a definition or a checker recomputes everything.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import multiprocessing
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from irprops.files import ignore_ctrl_c, write_atomically
from irprops.fingerprint import fingerprint, source_roots
from irprops.verdicts import CheckResult

BUDGET = 600.0
"""Seconds each property's search may take. Far above what any row needs (a few seconds), so
that the search always runs to its end and the reports are the same bytes on any machine:
a search stopped by the clock would print a machine-dependent count."""


def code_fingerprint(roots: Sequence[tuple[str, Path]] | None = None) -> str:
    """A hash of everything that can change a verdict: the checkers' source (``roots``, default
    :func:`~irprops.fingerprint.source_roots`), the search's budget and the pinned versions."""
    return fingerprint(roots if roots is not None else source_roots(), f"budget={BUDGET}")


def _check(metric: str) -> dict:  # type: ignore[type-arg]
    """One row, in a worker process; returned as a record (picklable, cacheable)."""
    from irprops.checking import check

    return check(metric, budget=BUDGET).to_record()


def compute(
    metrics: Sequence[str],
    workers: int = 2,
    cache: Path | None = None,
    done: Callable[[str, bool], None] | None = None,
) -> dict[str, CheckResult]:
    """The check of every metric, from the cache where it is current, else computed in parallel.

    ``done(metric, cached)`` is called as each row is ready (for a progress bar).
    """
    fingerprint = code_fingerprint() if cache is not None else ""
    results: dict[str, CheckResult] = {}
    todo = []
    for metric in metrics:
        path = cache / f"{hashlib.sha256((fingerprint + metric).encode()).hexdigest()}.json" if cache is not None else None
        found = _cached(path) if path is not None else None
        if found is not None:
            results[metric] = found
            if done:
                done(metric, True)
        else:
            todo.append((metric, path))
    if todo:
        spawn = multiprocessing.get_context("spawn")  # forking a process that runs threads can deadlock
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=max(1, min(workers, len(todo))), mp_context=spawn,
                                                      initializer=ignore_ctrl_c)
        try:
            futures = {pool.submit(_check, metric): (metric, path) for metric, path in todo}
            for future in concurrent.futures.as_completed(futures):
                metric, path = futures[future]
                record = future.result()
                results[metric] = CheckResult.from_record(record)
                if path is not None:
                    write_atomically(path, json.dumps(record))
                if done:
                    done(metric, False)
        except BaseException:  # Ctrl-C: no waiting for the rows still queued, and the workers end now
            pool.shutdown(wait=False, cancel_futures=True)
            for child in multiprocessing.active_children():
                child.kill()
            raise
        pool.shutdown()
    return {metric: results[metric] for metric in metrics}


def _cached(path: Path) -> CheckResult | None:
    """The row cached at ``path``; None when there is none, or it cannot be read (then it is computed and replaced)."""
    try:
        record = json.loads(path.read_text())
        found = CheckResult.from_record(record)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):  # truncated, empty, another shape
        return None
    return found if json.loads(json.dumps(found.to_record())) == record else None  # not exactly what a check writes


def through_cache(cache: Path | None, name: str, inputs: object, sources: Sequence[ModuleType], make: Callable[[], Any],
                  encode: Callable[[Any], Any], decode: Callable[[Any], Any]) -> Any:
    """``make()``, kept in ``cache`` under the code fingerprint, the source of the ``sources`` modules and ``inputs`` (as
    JSON): what a warm table computes from its cached rows (the footnotes: 1.3 s of exact maxima and closed forms).
    A file that does not decode to what it encodes is not used (and is written again)."""
    if cache is None:
        return make()
    code = [Path(module.__file__).read_bytes().hex() for module in sources]  # type: ignore[arg-type]
    key = json.dumps([code_fingerprint(), code, inputs], sort_keys=True)
    path = cache / f"{name}-{hashlib.sha256(key.encode()).hexdigest()}.json"
    try:
        record = json.loads(path.read_text())
        value = decode(record)
        if json.loads(json.dumps(encode(value))) == record:
            return value
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):  # none yet, truncated, another shape
        pass
    value = make()
    write_atomically(path, json.dumps(encode(value)))
    return value
