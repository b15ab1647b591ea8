"""Watching a formula while its symbolic forms are built: what it asks about its arguments, and what it remembers.

A formula can tell a symbolic rank from a number without branching on it: by its type
(``isinstance(i, int)``, ``type(i) is int``), its attributes (``hasattr(i, "bit_length")``,
``i.__class__``, ``sympy.sympify(i).is_Integer``), the call stack (``sys._getframe``), or
state kept between calls (a global counter that is 1 only on the first call). Then its
exact form may hide a feature at a depth no check looks at (``m.k > 1500`` behind
``isinstance(m.k, int)``), while its closed form, the subject of every proof, does not
have it. No finite comparison of the two forms can rule that out, so the symbolic run
refuses the constructs instead: :func:`watching` records each one the formula's own code
uses (SymPy, mpmath, the standard library and irprops are not the formula's code), and
the caller turns the first into a refusal.

The formula's code is read twice: each function it runs is scanned once for the names of
type tests, attribute probes, frame access and dunder attributes, for try and with
statements (catching what the symbolic run raises, say an AttributeError, tells it
apart), and for writes to global or enclosing variables; calls of the introspecting
builtins are caught as they happen (so that ``check = isinstance`` does not escape).

>>> import sympy
>>> proposal = {"__name__": "proposal"}
>>> weight = eval("lambda i: 3 if isinstance(i, int) and i > 1500 else 1", proposal)
>>> with watching() as seen:
...     _ = weight(sympy.Symbol("i"))
>>> seen[0]
('`isinstance`', '<lambda>', 'inspect')
"""

from __future__ import annotations

import builtins
import contextlib
import dis
import sys
import sysconfig
from collections.abc import Iterator
from types import CodeType, FrameType
from typing import Any

__all__ = ["INTROSPECTION", "formula_frame", "watching"]

INTROSPECTION = frozenset({
    "type", "isinstance", "issubclass", "hasattr", "getattr", "setattr", "delattr", "vars", "dir", "id",
    "globals", "locals", "eval", "exec", "compile", "breakpoint",
    "_getframe", "currentframe", "stack", "getouterframes", "f_back", "f_locals", "f_globals", "f_code", "tb_frame",
    "expr", "what", "free_symbols", "atoms", "has", "args", "func", "numerator", "denominator", "bit_length",
    "as_integer_ratio", "is_integer", "evalf", "getattr_static", "attrgetter", "methodcaller", "suppress",
})
"""Names a formula's code may not use: type tests, attribute probes and frame access (plus any ``is_*`` and
``__dunder__`` attribute, such as SymPy's ``is_Integer`` or ``__class__``). They tell a symbol from a number."""

_BUILTINS = frozenset(getattr(builtins, name) for name in
                      ("isinstance", "issubclass", "hasattr", "getattr", "setattr", "delattr", "vars", "dir", "id",
                       "globals", "locals", "eval", "exec", "compile", "__import__")) | {sys._getframe}

_TRUSTED_NAMES = ("sympy", "mpmath", "irprops", "functools", "collections", "typing", "abc", "fractions", "numbers")
_LIBRARY_DIRS = tuple(sorted({sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}))

_WRITES = {"STORE_GLOBAL", "DELETE_GLOBAL"}
_CATCHES = {"PUSH_EXC_INFO", "SETUP_FINALLY", "SETUP_WITH", "BEFORE_WITH", "BEFORE_ASYNC_WITH"}
Finding = tuple[str, str, str]
"""(construct, the function that uses it, "inspect", "catch" or "state")."""
_SCANNED: dict[CodeType, Finding | None] = {}
"""Each code object met so far: its first refused construct, or None (the formula's code is clean, or not the formula's)."""


def formula_frame(frame: FrameType) -> bool:
    """Whether ``frame`` runs the formula's own code: not SymPy, mpmath, irprops or the standard library."""
    module = frame.f_globals.get("__name__", "") or ""
    if module.split(".")[0] in _TRUSTED_NAMES:
        return False
    filename = frame.f_code.co_filename
    return not (filename.startswith("<frozen") or filename.startswith(_LIBRARY_DIRS))


def _scan(code: CodeType) -> Finding | None:
    """The first refused construct ``code`` names, or None."""
    found = None
    for name in code.co_names:
        if name in INTROSPECTION or name.startswith("is_") or (name.startswith("__") and name.endswith("__")):
            found = (f"`{name}`", code.co_name, "inspect")
            break
    if found is None:
        for instruction in dis.get_instructions(code):
            if instruction.opname in _CATCHES:
                found = ("a try or with statement", code.co_name, "catch")
                break
            if instruction.opname in _WRITES or (instruction.opname == "STORE_DEREF" and instruction.argval in code.co_freevars):
                scope = "global" if "GLOBAL" in instruction.opname else "enclosing"
                found = (f"a write to the {scope} variable `{instruction.argval}`", code.co_name, "state")
                break
    return found


@contextlib.contextmanager
def watching() -> Iterator[list[Finding]]:
    """Record every refused construct the formula's code uses in this block.

    Installs a profile hook for the block; the previous one is restored after it.
    """
    seen: list[Finding] = []
    previous = sys.getprofile()

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            try:
                found = _SCANNED[code]
            except KeyError:
                found = _SCANNED[code] = _scan(code) if formula_frame(frame) else None
            if found is not None:
                seen.append(found)
        elif event == "c_call" and arg in _BUILTINS and formula_frame(frame):
            seen.append((f"`{getattr(arg, '__name__', arg)}()`", frame.f_code.co_name, "inspect"))

    sys.setprofile(hook)
    try:
        yield seen
    finally:
        sys.setprofile(previous)
