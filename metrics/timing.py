"""A wall-clock limit for computations that SymPy may make arbitrarily slow (signs, series, sums written out).

>>> @limited(1.0, otherwise="too slow")
... def quick() -> str:
...     return "done"
>>> quick()
'done'
"""

from __future__ import annotations

import ctypes
import functools
import signal
import threading
import time
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

__all__ = ["limited", "reraise_ctrl_c"]


class _OutOfTime(BaseException):
    """Raised by the alarm; a BaseException so that SymPy's own ``except Exception`` cannot swallow it."""


def _alarm(signum: int, frame: object) -> None:
    raise _OutOfTime


def limited(seconds: float, otherwise: Any) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Run the function for at most ``seconds`` (in the main thread, by SIGALRM), answering ``otherwise`` past that.

    Inside another limit (the alarm handler is this module's) the function runs under the outer limit only.
    Off the main thread it runs unlimited. Any other timer that is running (another library's, or one
    left behind) is set aside for the call and set again after it, less the time the call took.
    """
    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGALRM) is _alarm:
                return fn(*args, **kwargs)
            previous = signal.signal(signal.SIGALRM, _alarm)
            other, start = signal.setitimer(signal.ITIMER_REAL, seconds)[0], time.monotonic()
            try:
                return fn(*args, **kwargs)
            except _OutOfTime:
                return otherwise  # type: ignore[no-any-return]
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
                if other > 0:
                    signal.setitimer(signal.ITIMER_REAL, max(other - (time.monotonic() - start), 0.001))
        return run
    return decorate


def reraise_ctrl_c(error: BaseException) -> None:
    """Raise ``KeyboardInterrupt`` again if ``error`` is a Ctrl-C that a C call turned into another exception (ctypes,
    under Z3's bindings, gives ``ArgumentError: argument 2: KeyboardInterrupt``): a Ctrl-C ends the run, and never
    counts as a formula the prover could not handle."""
    if isinstance(error, ctypes.ArgumentError) and "KeyboardInterrupt" in str(error):
        raise KeyboardInterrupt from error
