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
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

__all__ = ["BUILTIN_PROBES", "INTROSPECTION", "formula_frame", "watching"]

BUILTIN_PROBES = frozenset({
    "type", "isinstance", "issubclass", "hasattr", "getattr", "setattr", "delattr", "vars", "dir", "id",
    "globals", "locals", "eval", "exec", "compile", "breakpoint", "__import__",
})
"""Builtins a formula's code may not name (nor import): type tests, attribute probes, code from text."""

INTROSPECTION = frozenset({
    "_getframe", "currentframe", "stack", "getouterframes", "f_back", "f_locals", "f_globals", "f_code", "tb_frame",
    "getprofile", "setprofile", "gettrace", "settrace", "expr", "what", "free_symbols", "atoms", "has", "args", "func",
    "numerator", "denominator", "bit_length", "as_integer_ratio", "is_integer", "evalf", "getattr_static", "attrgetter",
    "methodcaller", "suppress", "singledispatch", "register",
})
"""Attributes a formula's code may not read: frame and profiler access, SymPy's structure, number internals (plus any
``is_*`` and ``__dunder__`` attribute, such as SymPy's ``is_Integer`` or ``__class__``). They tell a symbol from a number."""

_BUILTINS = frozenset(getattr(builtins, name) for name in BUILTIN_PROBES if name != "type") | {sys._getframe}

_OWN = Path(__file__).resolve().parent.parent
_LIBRARY_DIRS = tuple(sorted({sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
                             | {str(_OWN / part) + "/" for part in ("metrics", "proofs", "properties", "irprops")}))
"""Where trusted code lives: the standard library, installed packages, and irprops' own packages (never tests/)."""

_NAMES = {"LOAD_GLOBAL", "LOAD_NAME", "IMPORT_NAME", "IMPORT_FROM"}
_ATTRIBUTES = {"LOAD_ATTR", "LOAD_METHOD", "STORE_ATTR", "DELETE_ATTR"}
_WRITES = {"STORE_GLOBAL", "DELETE_GLOBAL"}
_CATCHES = {"PUSH_EXC_INFO", "SETUP_FINALLY", "SETUP_WITH", "BEFORE_WITH", "BEFORE_ASYNC_WITH"}
_MATCHES = {"MATCH_CLASS", "MATCH_MAPPING", "MATCH_SEQUENCE", "MATCH_KEYS"}
Finding = tuple[str, str, str]
"""(construct, the function that uses it, "inspect", "catch" or "state")."""
_SCANNED: dict[CodeType, Finding | None] = {}
"""Each code object met so far: its first refused construct, or None (the formula's code is clean, or not the formula's)."""


def formula_frame(frame: FrameType) -> bool:
    """Whether ``frame`` runs the formula's own code: trusted code is recognised by where its file is, never by the
    module's ``__name__`` (a proposal may set it to anything); frozen modules only if Python itself froze them."""
    filename = frame.f_code.co_filename
    if filename.startswith("<frozen "):  # a frozen module's own code runs in that module's namespace
        module = sys.modules.get(filename[len("<frozen "):-1])
        frozen = getattr(getattr(module, "__spec__", None), "origin", None) == "frozen"
        return not (frozen and vars(module) is frame.f_globals)
    return not filename.startswith(_LIBRARY_DIRS)


def _refused(instruction: dis.Instruction, code: CodeType) -> Finding | None:
    name, op = instruction.argval, instruction.opname
    if op in _NAMES and name in BUILTIN_PROBES:
        return f"`{name}`", code.co_name, "inspect"
    if op in _ATTRIBUTES and isinstance(name, str) and (
            name in INTROSPECTION or name.startswith("is_") or (name.startswith("__") and name.endswith("__"))):
        return f"`{name}`", code.co_name, "inspect"
    if op in _MATCHES:
        return "a match statement", code.co_name, "inspect"
    if op in _CATCHES:
        return "a try or with statement", code.co_name, "catch"
    if op in _WRITES or (op == "STORE_DEREF" and name in code.co_freevars):
        scope = "global" if "GLOBAL" in op else "enclosing"
        return f"a write to the {scope} variable `{name}`", code.co_name, "state"
    return None


def _scan(code: CodeType) -> Finding | None:
    """The first refused construct ``code`` uses, or None."""
    return next((f for f in (_refused(i, code) for i in dis.get_instructions(code)) if f is not None), None)


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
