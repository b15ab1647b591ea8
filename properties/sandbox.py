"""A proposal's own process: the search scores a researcher's function there, never in irprops' process.

Whatever the function does (loops in C code, swallows every exception, resets the alarm,
starts threads that never end, calls ``os._exit``, prints, allocates without end), irprops
goes on: the child runs :mod:`irprops.properties.proposal_process` in its own session, under
a memory limit (:data:`MEMORY_BYTES`), a file-size limit and a CPU-time limit per call, and
the parent ends it (with everything it started) when a call runs past its time by the clock.
The next call starts a new child. Nothing the child sends is unpickled or evaluated: answers
are JSON.

>>> import sys; from pathlib import Path; from tempfile import TemporaryDirectory
>>> with TemporaryDirectory() as folder:
...     _ = (Path(folder) / "p.py").write_text("def half(ranking, k, qrels):\\n    print('hi')\\n    return ranking[0] / 2\\n")
...     with Sandbox(f"{folder}/p.py:half") as box:
...         box.ask(["1"], 1, ["1"], seconds=5.0)
{'kind': 'exact', 'value': ['1', '2'], 'id': 1, 'printed': 'hi\\n'}
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from irprops.metrics import InputError

__all__ = ["LOAD_SECONDS", "MEMORY_BYTES", "Loaded", "OutOfTime", "Sandbox"]

MEMORY_BYTES = 4 << 30
"""The address space a proposal's process may use (4 GiB): past it, allocations fail with MemoryError, a defect."""
LOAD_SECONDS = 60.0
"""How long importing the proposal's module may take in its process."""
TOOLKIT_LOAD_SECONDS = 300.0
"""How long importing a toolkit and its first call may take (ranx compiles its metrics with numba on first use: 28 s)."""
PIPELINE_BYTES = 32 << 10
"""The most request bytes :meth:`Sandbox.ask_each` has sent and not had answered: half a pipe's buffer, so that irprops
never waits to write while the proposal waits for irprops to read its answers."""
CHILD = Path(__file__).with_name("proposal_process.py")
_LIVE: weakref.WeakSet[Sandbox] = weakref.WeakSet()


class OutOfTime(Exception):
    """The proposal did not answer in time; its process has been ended."""


@dataclass(frozen=True)
class Loaded:
    """What the child found under the proposal's name."""

    name: str
    declared: bool
    """A metric declared with irprops (checked in irprops' process, where its forms are built)."""
    callable: bool
    relevance: str
    warmup: float = 0.0
    """The seconds a toolkit's first call took in the child, before any situation was timed (a JIT compiling)."""


class Sandbox:
    """The process a proposal ``where`` (``path/to/file.py:f`` or ``module:f``) runs in; see the module docstring."""

    def __init__(self, where: str, *, memory: int = MEMORY_BYTES, environment: dict[str, str] | None = None,
                 toolkit: str | None = None, scale: int = 1, load_seconds: float | None = None,
                 compared: bool = False) -> None:
        self.where = where
        self._limited = load_seconds is not None
        self.load_seconds = load_seconds or (TOOLKIT_LOAD_SECONDS if toolkit else LOAD_SECONDS)
        """How long loading may take (a toolkit's import and warm-up included)."""
        self.toolkit = toolkit
        """A toolkit metric (``ranx:ndcg``): the child scores it through :mod:`irprops.toolkits`' adapter."""
        self.scale = scale
        """What a toolkit's integer grades are multiplied by (:data:`irprops.toolkits.GRADE_SCALE` over graded situations)."""
        self.compared = compared
        """For ``irprops compare``: the adapter withholds what would be the glue's score, not the toolkit's."""
        self.retried: tuple[int, str] = (0, "")
        """Of the last :meth:`ask_many`: the toolkit calls of many queries that raised (each query then scored alone),
        and the first error."""
        self.memory = memory
        self.environment = environment
        self._process: subprocess.Popen[bytes] | None = None
        self._requests: Any = None
        self._answers = -1
        self._buffer = b""
        self._asked = 0
        _LIVE.add(self)
        self.loaded = self._start()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ask(self, ranking: Sequence[str | None], k: int, qrels: Sequence[str], seconds: float) -> dict[str, Any]:
        """The child's answer on a situation (grades as fraction texts); raises :class:`OutOfTime` after ``seconds``."""
        return self._asking({"ranking": ranking, "k": k, "qrels": qrels, "seconds": seconds}, seconds)

    def ask_many(self, situations: Sequence[tuple[Any, ...]], seconds: float) -> list[dict[str, Any]] | None:
        """The child's answers on many situations ``(ranking, k, qrels[, tie group sizes])`` in one request (a toolkit
        scores them in one call), or None when it
        answered otherwise (a defect of the whole request: the caller asks one at a time); raises :class:`OutOfTime`
        after ``seconds``."""
        requests = [{"ranking": r, "k": k, "qrels": q, **({"ties": list(t[0])} if t else {})} for r, k, q, *t in situations]
        answer = self._asking({"batch": requests, "seconds": seconds}, seconds)
        retried = answer.get("retried")
        self.retried = (int(retried[0]), str(retried[1])) if isinstance(retried, list) and len(retried) == 2 else (0, "")
        answers = answer.get("answers")
        if answer.get("kind") != "batch" or not isinstance(answers, list) or len(answers) != len(requests):
            return None
        return [a if isinstance(a, dict) else {"kind": "defect", "problem": "its process sent an answer irprops cannot read"}
                for a in answers]

    def ask_each(self, situations: Sequence[tuple[Any, ...]], seconds: float, within: float) -> tuple[list[dict[str, Any]], bool]:
        """The child's answers on ``situations`` ``(ranking, k, qrels)``, each asked as :meth:`ask` would, but sent without
        waiting for the answer before (pipelined: a call costs the proposal's own time, not a round trip between two
        processes), and each answer given ``seconds`` from the moment the previous one came.

        Returns the answers of a prefix of ``situations`` and whether the next one did not come in time (the process
        is then ended, as :meth:`ask` ends it: that situation hung). The prefix stops there; where the process ended (that
        answer says so, after every answer it gave before); at an answer out of turn; or once ``within`` seconds have
        passed: then the process is ended rather than waited for on what was sent ahead (a caller that keeps a time
        budget is held past ``within`` by one call at most; the next request starts a new process). No more is sent
        ahead than half of ``within`` allows at the pace of the slowest call so far (one at a time, at first).
        """
        if self._process is None:
            try:
                self._start()
            except InputError:
                return [], False
        started = last = time.monotonic()
        answers: list[dict[str, Any]] = []
        pending: collections.deque[tuple[int, int]] = collections.deque()  # (id, bytes) of the requests not answered yet
        waiting, sent, slowest, broken = 0, 0, within, False
        while len(answers) < len(situations):
            ahead = max(1, int(within / max(2 * slowest, 1e-6)))
            while (not broken and sent < len(situations) and (not pending or (waiting < PIPELINE_BYTES and len(pending) < ahead))
                   and (sent == 0 or time.monotonic() - started < within)):
                ranking, k, qrels = situations[sent][:3]
                self._asked += 1
                line = json.dumps({"ranking": ranking, "k": k, "qrels": qrels, "seconds": seconds, "id": self._asked}) + "\n"
                try:
                    self._requests.write(line)
                except OSError:  # the process has ended: its answers before its end are read below (a helper-73 finding:
                    broken = True  # returning here blamed the end on the first request not read, not on the one it met)
                    break
                pending.append((self._asked, len(line)))
                waiting, sent = waiting + len(line), sent + 1
            if not broken:
                try:
                    self._requests.flush()
                except OSError:
                    broken = True
            if not pending:
                return ([*answers, self._ended()] if broken else answers), False
            answer = self._read(seconds)
            if answer is None:
                self.close()
                return answers, True
            if not answer:
                return [*answers, self._ended()], False
            asked, size = pending.popleft()
            if answer.get("id") != asked:  # a line the proposal wrote on the pipe itself: the process is not trusted
                self.close()
                return [*answers, {"kind": "defect", "problem": "its process wrote an answer out of turn (on irprops' pipe)",
                                   "printed": ""}], False
            answers.append(answer)
            now = time.monotonic()
            slowest = now - last if len(answers) == 1 else max(slowest, now - last)
            waiting, last = waiting - size, now
            if pending and now - started > within:  # calls turned slow (a helper-73 finding: 400 sent ahead took 20 s)
                self.close()
                break
        return answers, False

    def _asking(self, request: dict[str, Any], seconds: float) -> dict[str, Any]:
        if self._process is None:
            try:
                self._start()
            except InputError as error:
                return {"kind": "defect", "problem": f"its process could not be started again ({error})"[:300], "printed": ""}
        self._asked += 1
        try:
            self._requests.write(json.dumps({**request, "id": self._asked}) + "\n")
            self._requests.flush()
        except OSError:
            return self._ended()
        answer = self._read(seconds)
        if answer is None:
            self.close()
            raise OutOfTime(seconds)
        if not answer:
            return self._ended()
        if answer.get("id") != self._asked:  # a line the proposal wrote on the pipe itself: the process is ended, not trusted
            self.close()
            return {"kind": "defect", "problem": "its process wrote an answer out of turn (on irprops' pipe)", "printed": ""}
        return answer

    def close(self) -> None:
        """End the child and everything it started."""
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            process.kill()
        process.wait()
        with contextlib.suppress(OSError):
            self._requests.close()
        with contextlib.suppress(OSError):
            os.close(self._answers)
        self._buffer = b""

    def _start(self) -> Loaded:
        requests_read, requests_write = os.pipe()
        answers_read, answers_write = os.pipe()
        environment = {**os.environ, **(self.environment or {})}
        self._process = subprocess.Popen(
            [sys.executable, str(CHILD), str(requests_read), str(answers_write), str(self.memory)],
            pass_fds=(requests_read, answers_write), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=environment, start_new_session=True)
        os.close(requests_read)
        os.close(answers_write)
        self._requests, self._answers = os.fdopen(requests_write, "w", encoding="utf-8"), answers_read
        try:
            start = {"where": self.where, "toolkit": self.toolkit, "scale": self.scale, "compared": self.compared,
                     "path": [p for p in sys.path if p]}
            self._requests.write(json.dumps(start) + "\n")
            self._requests.flush()
            answer = self._read(self.load_seconds)
        except BaseException:  # Ctrl-C while it loads: the child ends with it
            self.close()
            raise
        if not answer or answer.get("kind") != "ready":
            self.close()
            limit = self.load_seconds
            loading = "importing it and its warm-up" if self.toolkit else "importing it"
            problem = (answer or {}).get("problem") or (f"{loading} took over {limit:g} s" if answer is None else
                                                       "its process ended while importing it")
            if answer is None and self._limited:
                raise InputError("target", self.where, str(problem)[:300], "give a longer --timeout")
            raise InputError("target", self.where, str(problem)[:300])
        return Loaded(str(answer["name"]), bool(answer["declared"]), bool(answer["callable"]), str(answer["relevance"]),
                      float(answer.get("warmup") or 0.0))

    def _read(self, seconds: float) -> dict[str, Any] | None:
        """The next answer; None past ``seconds``; {} when the child has ended."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                return None
            data = os.read(self._answers, 1 << 16)
            if not data:
                return {}
            self._buffer += data
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError, MemoryError):  # a line the proposal wrote on the pipe itself, say
            return {"kind": "defect", "problem": "its process sent an answer irprops cannot read"}
        return answer if isinstance(answer, dict) else {"kind": "defect", "problem": "its process sent an answer irprops cannot read"}

    def _ended(self) -> dict[str, Any]:
        process = self._process
        status = process.wait() if process is not None else None
        self.close()
        how = (f"by signal {signal.Signals(-status).name}" if status is not None and status < 0 and -status in signal.valid_signals()
               else f"with exit status {status}")
        limits = " (a memory, file-size or CPU-time limit, or a crash)" if status is not None and status < 0 else ""
        return {"kind": "defect", "problem": f"ended its process {how}{limits}", "printed": ""}


@atexit.register
def _close_all() -> None:
    for box in list(_LIVE):
        box.close()
