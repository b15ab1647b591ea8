"""Writing files without losing any, and Ctrl-C: what irprops writes replaces a file whole or not at all.

Each file is written to a temporary file beside it and renamed over it (:func:`write_atomically`),
so a reader, a crash or ``kill -9`` sees the old file or the new one, never a part. A set of files
(the reports, the certificates) is written with every file ready first and Ctrl-C held back while
they are renamed into place (:func:`uninterrupted`). A folder irprops is told to write into is
checked before any work starts (:func:`writable_folder`), so that an unwritable ``--out`` costs
one line, not a run.

>>> import tempfile; from pathlib import Path
>>> with tempfile.TemporaryDirectory() as folder:
...     write_atomically(Path(folder) / "a" / "table.md", "| x |\\n")
...     sorted(p.name for p in Path(folder, "a").iterdir())
['table.md']
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["cache_home", "forget_kept_interrupts", "ignore_ctrl_c", "keep_lost_interrupts", "raise_if_interrupted", "uninterrupted",
           "writable_folder", "write_atomically"]


def cache_home() -> Path:
    """irprops' cache folder: ``$XDG_CACHE_HOME/irprops``, else ``~/.cache/irprops``."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "irprops"


def write_atomically(path: Path, data: str | bytes) -> None:
    """Replace ``path`` by ``data`` whole (written beside it, then renamed over it); make its folder if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data.encode() if isinstance(data, str) else data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold Ctrl-C back until the block ends (then it is raised as usual); in the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raise_if_interrupted()
    held: list[Any] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held:
        raise KeyboardInterrupt


_LOST: list[KeyboardInterrupt] = []


def keep_lost_interrupts() -> None:
    """Keep a Ctrl-C that Python could not raise, because it came while a finalizer ran ("Exception ignored in ..."), or
    that a library swallowed (mpmath's interval comparisons catch everything with a bare ``except:``, and so may a
    proposal): :func:`raise_if_interrupted` raises it at the next place that asks, and the CLI asks before it exits,
    instead of printing it and going on. In the main thread, Ctrl-C is raised as usual and also kept."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupt)
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if _is_ctrl_c(unraisable.exc_value):
            _LOST.append(KeyboardInterrupt())
            return
        if _half_built_z3_object(unraisable):
            return
        previous(unraisable)

    if getattr(sys.unraisablehook, "__name__", "") != "hook":
        sys.unraisablehook = hook


def _interrupt(signum: int, frame: Any) -> None:
    _LOST.append(KeyboardInterrupt())
    raise KeyboardInterrupt


def _half_built_z3_object(unraisable: Any) -> bool:
    """Whether Z3's finalizer failed on an object whose construction never finished: a Ctrl-C that comes inside
    ``z3.Context.__init__`` leaves a context without its ``owner``, and its ``__del__`` raises AttributeError as the process
    exits (a full test run printed that traceback after "irprops: interrupted"). Such an object holds nothing to free."""
    finalizer = unraisable.object
    return (isinstance(unraisable.exc_value, AttributeError) and getattr(finalizer, "__name__", "") == "__del__"
            and getattr(finalizer, "__module__", "").split(".")[0] == "z3")


def _is_ctrl_c(error: BaseException | None) -> bool:
    """Whether ``error`` is a Ctrl-C, or an error it caused: ctypes reports one that came while Z3's finalizer called into
    C as ``ArgumentError("argument 1: KeyboardInterrupt: ")`` (a full test run once printed that traceback)."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, KeyboardInterrupt):
            return True
        if type(error).__name__ == "ArgumentError" and "KeyboardInterrupt" in str(error):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def raise_if_interrupted() -> None:
    """Raise the Ctrl-C that :func:`keep_lost_interrupts` kept, if any (the search and the solver ask before each step)."""
    if _LOST:
        _LOST.clear()
        raise KeyboardInterrupt


def forget_kept_interrupts() -> None:
    """Drop the Ctrl-C kept so far: one that reached the caller as a KeyboardInterrupt must not be raised again by the next
    call (in a notebook, or a test run, the process goes on after it)."""
    _LOST.clear()


def ignore_ctrl_c() -> None:
    """In a worker or helper process: leave Ctrl-C to the parent, which ends its workers at once (no traceback from each)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def writable_folder(folder: Path, option: str, hint: str | None = None) -> None:
    """Raise a one-line :class:`InputError` unless ``folder`` is, or can be made, a folder irprops can write into."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.is_dir() and os.access(existing, os.W_OK | os.X_OK):
        return
    from irprops.metrics import InputError  # only to raise it: importing the metrics imports SymPy (0.3 s)

    if not existing.is_dir():
        raise InputError(option, str(folder), f"{existing} is a file, not a folder", hint or "give a folder")
    raise InputError(option, str(folder), f"{existing} is not writable", hint or "give a folder you can write to")
