"""Watching a formula while its symbolic forms are built: every function of its own code that runs is held to the
formula language (:mod:`irprops.metrics.language`), and so is every call it makes out of its code.

A formula can tell a symbolic rank from a number without branching on it: by its type
(``isinstance(i, int)``), its attributes (``i.numerator``, ``sympy.sympify(i).is_Integer``),
the call stack, state kept between calls, or a library helper that does one of these for it
(``functools.singledispatch``, ``json.dumps(..., default=...)``). Then its exact form may
hide a feature at a depth no check looks at, while its closed form, the subject of every
proof, does not have it. No finite comparison of the two forms can rule that out, so the
symbolic run holds the formula's code to an allowlist instead: :func:`watching` records each
construct outside it, and the caller turns the first into a refusal. Code is the formula's
when its file is outside the standard library, installed packages and irprops' own packages
(judged by where the file is, never by a module's ``__name__``).

>>> import sympy
>>> proposal = {"__name__": "proposal"}
>>> weight = eval("lambda i: 3 if isinstance(i, int) and i > 1500 else 1", proposal)
>>> i = sympy.Symbol("i")
>>> with watching() as seen:
...     _ = weight(i)
>>> seen[0]
('`isinstance` (the builtin `isinstance`)', '<lambda>', 'inspect')
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import sympy

from . import domains, language

__all__ = ["RECORDING", "formula_frame", "watching"]

RECORDING: list[list[tuple[Any, str, str]]] = []
"""While forms are built: what each value the formula divides by, or hands to a function defined only on part of
the numbers, must be (a divisor nonzero, a logarithm's argument positive), innermost recording last."""

Finding = tuple[str, str, str]
"""(construct, the function that uses it, the kind of fix: a key of tracing's hints)."""
_SCANNED: dict[CodeType, tuple[str, str] | None] = {}
"""Each code object of the formula met so far: its first operation outside the language, or None."""


def formula_frame(frame: FrameType) -> bool:
    """Whether ``frame`` runs the formula's own code: trusted code is recognised by where its file is, never by the
    module's ``__name__`` (a proposal may set it to anything); frozen modules only if Python itself froze them."""
    filename = frame.f_code.co_filename
    if filename.startswith("<frozen "):  # a frozen module's own code runs in that module's namespace
        module = sys.modules.get(filename[len("<frozen "):-1])
        frozen = getattr(getattr(module, "__spec__", None), "origin", None) == "frozen"
        return not (frozen and vars(module) is frame.f_globals)
    return not language.genuine(frame.f_code, frame.f_globals)


def _entered(frame: FrameType) -> tuple[str, str] | None:
    code = frame.f_code
    if code not in _SCANNED:
        _SCANNED[code] = language.scan(code)
    found = _SCANNED[code]
    if found is None:
        found = language.entering(code, frame.f_locals, frame.f_globals, frame.f_builtins)
    return found


def _called(frame: FrameType, seen: list[Finding]) -> None:
    """The formula's code called library code: only SymPy, fractions and the algebra, never with text for SymPy, nor
    with a float."""
    caller = frame.f_back.f_code.co_name if frame.f_back is not None else "?"
    if _collector(frame.f_code):
        return  # the garbage collector ran a callback or a finalizer in the middle of the formula: not the formula's call
    if not language.library_call(frame.f_code, frame.f_globals):
        module = frame.f_globals.get("__name__", frame.f_code.co_filename)
        seen.append((f"a call into `{module}.{frame.f_code.co_name}` (outside SymPy and the algebra)", caller, "language"))
        return
    refusal = language.argument_refusal(frame.f_code, frame.f_locals)
    if refusal is not None:
        seen.append((refusal[0], caller, refusal[1]))
    if RECORDING and (frame.f_code.co_filename, frame.f_code.co_name) == (_SYMBOLIC, "log2"):  # m.log2(x): x must be positive
        RECORDING[-1].append((frame.f_locals.get("x"), "positive", "m.log2"))


_ON_BEHALF = (str(Path(sympy.__file__).parent) + "/", str(Path(language.__file__).with_name("guards.py")))
"""Code that works on the formula's behalf when the formula calls it: SymPy, and the guards on SymPy's operators. Every
partial function it builds while it does is recorded (:mod:`~irprops.metrics.domains`); irprops' algebra records its own."""

_SYMBOLIC = str(Path(language.__file__).with_name("symbolic.py"))
_HAND_OFF = (_SYMBOLIC, "_call")
"""Where the symbolic algebra calls a term function the formula handed it (``m.sum(1, m.k, f)``)."""


def _handed_off(frame: FrameType) -> bool:
    """Whether ``frame`` is the algebra calling a function the formula handed it: ``m.sum(lo, hi, sympy.log)`` calls
    sympy.log from irprops' code, not the formula's, and its conditions must be recorded all the same (a fifteenth hostile
    review: log((k - 250)**2) written that way went unrecorded, and complete was "proved" though k = 250 has no score)."""
    return (frame.f_code.co_filename, frame.f_code.co_name) == _HAND_OFF


def _compiled_by_library(frame: FrameType, found: tuple[str, str]) -> Finding | None:
    """A finding in code compiled from text (no file) that a library runs, not the formula (SymPy's ``int()`` of a
    number near an integer parses text of mpmath's): named so, since the formula wrote none of it."""
    caller = frame.f_back
    if not frame.f_code.co_filename.startswith("<") or caller is None or formula_frame(caller):
        return None
    module = caller.f_globals.get("__name__", caller.f_code.co_filename)
    where = f"`{frame.f_code.co_name}`, code that `{module}.{caller.f_code.co_name}` compiled from text and ran for the formula"
    return found[0].replace(" inside the formula", ""), where, "compiled"


def _collector(code: CodeType) -> bool:
    """Whether ``code`` is a finalizer or a callback of the garbage collector (which may run during any allocation)."""
    return code.co_name == "__del__" or any(getattr(callback, "__code__", None) is code for callback in gc.callbacks)


@contextlib.contextmanager
def watching() -> Iterator[list[Finding]]:
    """Record every construct outside the formula language that the formula's code uses in this block.

    Installs a profile hook for the block; the previous one is restored after it.
    """
    seen: list[Finding] = []
    previous = sys.getprofile()
    behalf: list[FrameType] = []  # the calls from the formula into SymPy (and the guards) still running, innermost last

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            if formula_frame(frame):
                found = _entered(frame)
                if found is not None:
                    seen.append(_compiled_by_library(frame, found) or (found[0], frame.f_code.co_name, found[1]))
                return
            caller = frame.f_back
            if caller is not None and (formula_frame(caller) or (_handed_off(caller)
                                                                 and language.library_call(frame.f_code, frame.f_globals))):
                _called(frame, seen)  # also a library function the formula handed to the algebra (m.sum(lo, hi, sympy.log))
                if frame.f_code.co_filename.startswith(_ON_BEHALF):
                    behalf.append(frame)
            if behalf and RECORDING and domains.builds(frame.f_code):  # whatever SymPy builds for the formula, however it
                RECORDING[-1].extend(domains.conditions(frame.f_code, frame.f_locals))  # was called: its domain is recorded
        elif event == "return" and behalf and frame is behalf[-1]:
            behalf.pop()
        elif event == "c_call" and not language.builtin_call(arg) and formula_frame(frame):
            seen.append((f"`{getattr(arg, '__qualname__', arg)}()`", frame.f_code.co_name, "inspect"))

    sys.setprofile(hook)
    try:
        yield seen
    finally:
        restore_profile(previous)


def restore_profile(previous: Any) -> None:
    """Give the profile hook back to whoever held it before :func:`watching` (or the strict exact run): a Python function, or a profiler
    written in C (cProfile's ``Profile``: ``sys.getprofile()`` returns the object, which ``sys.setprofile`` refuses,
    since it is not callable, so it is switched on again by its own ``enable()``)."""
    if previous is None or callable(previous):
        sys.setprofile(previous)
    elif callable(getattr(previous, "enable", None)):
        sys.setprofile(None)
        previous.enable()
    else:  # an unknown holder: leave no hook rather than a broken one
        sys.setprofile(None)
