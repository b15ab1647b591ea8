"""A declared formula's exact run is strict: a step whose value is no real number leaves the metric without a value.

Python stops at ``1 / 0``; SymPy does not: ``sympy.Pow(0, -1)`` is ``zoo``, ``sympy.log(0)`` is ``zoo``,
``sympy.Mod(1, 0)`` is ``nan``, ``sympy.log(-2)`` is complex, and a later step may drop such a value
(a ``Piecewise`` branch not taken) or decide on it (``Eq(zoo, zoo + 1)`` is True, while for a finite
d ``Eq(d, d + 1)`` is False, as SymPy decides it on symbols while building the closed form). The
closed form is the metric only where every value the formula computes is a real number, and the
forms record exactly those conditions (:mod:`~irprops.metrics.domains`). So the exact run, which
defines the metric, gives no score as soon as the formula receives a value that is no real number
from any call (SymPy, the algebra, an operator on SymPy values), whatever it does with it next (a
twentieth hostile review: ``Piecewise((B, Eq(d, d + 1)), (A, True))`` with ``d = Pow(T, -1)`` was
B in the exact run where T = 0 and A in the closed form, and 23 false "yes" for all k followed).

>>> import sympy
>>> def formula(m):
...     d = sympy.Pow(m.k - 3, -1)
...     return sympy.Piecewise((5, sympy.Eq(d, d + 1)), (1, True))
>>> with strict() as steps:
...     value = formula(type("M", (), {"k": 3})())
>>> value, steps
(5, ['a step has no real value (sympy.Pow with a negative exponent: 0 is not nonzero)'])
"""

from __future__ import annotations

import contextlib
import dis
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import sympy

from . import domains, exact
from .watching import formula_frame, restore_profile

__all__ = ["Steps", "reaches_sympy", "strict"]


_SYMPY = str(Path(sympy.__file__).parent) + "/"
_ALGEBRA = str(Path(__file__).with_name("algebra.py"))
"""SymPy's code, and the exact algebra's (which calls a SymPy function the formula hands it: ``m.sum(1, m.k, sympy.log)``)."""


def reaches_sympy(formula: Any) -> bool:
    """Whether the exact run of ``formula`` may compute with SymPy values: its code (its nested functions, the file's
    functions it names, their defaults and enclosing values, the globals and builtins it names) names SymPy, one of its
    values, irprops' exact log2, or the algebra's ``log2`` (whose exact values are SymPy numbers). Where it cannot, every
    value is an exact integer or fraction, and a division by zero raises at once: the run is strict without
    :func:`strict` (which costs 5 to 10 times the run)."""
    pending: list[Any] = [formula]
    seen: set[int] = set()
    while pending:
        value = pending.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, (tuple, list, frozenset)):
            pending.extend(value)
            continue
        if not isinstance(value, types.FunctionType):
            if _sympy_value(value):
                return True
            continue
        cells = [c.cell_contents for c in value.__closure__ or () if _filled(c)]
        pending += [*(value.__defaults__ or ()), *(value.__kwdefaults__ or {}).values(), *cells]
        codes = [value.__code__]
        while codes:
            code = codes.pop()
            codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
            for instruction in dis.get_instructions(code):
                if instruction.opname in ("LOAD_ATTR", "LOAD_METHOD") and instruction.argval == "log2":
                    return True
                if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                    # a global name is looked up in the globals, then in the function's own builtins: a file may rebind
                    # ``__builtins__`` to a dictionary holding SymPy's functions (a twenty-second hostile review), or
                    # add them to the builtins module
                    found = _resolved(instruction.argval, value)
                    if found is not None:
                        pending.append(found[0])
    return False


def _resolved(name: str, function: types.FunctionType) -> tuple[Any] | None:
    """The value the global ``name`` has in ``function`` (as Python resolves it: globals, then the function's builtins)."""
    for namespace in (function.__globals__, function.__builtins__):
        if name in namespace:
            return (namespace[name],)
    return None


def _filled(cell: types.CellType) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def _sympy_value(value: Any) -> bool:
    """A SymPy module, object, class or function, or irprops' exact log2 (or its module)."""
    if value is exact or value is exact.log2:
        return True
    module = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None) or type(value).__module__
    return isinstance(module, str) and (module == "sympy" or module.startswith("sympy."))


_WORDS = {"integer": "an integer"}


def _violated(value: Any, condition: str) -> bool | None:
    """Whether the number ``value`` breaks ``condition`` ("nonzero", "positive", "nonnegative", "integer": a binomial's
    arguments, or "true"), decided by its certified sign: SymPy calls ``d / d`` 1 for
    ``d = log2(15) - log2(3) - log2(5)``, which is exactly 0. None where the sign cannot be certified
    (``sqrt(2) + sqrt(3) - sqrt(5 + 2 sqrt(6))`` is 0 too, and no interval shows it): then the run cannot say whether
    the step has a value (a twenty-fourth hostile review: it was taken as nonzero, and the search built two false "no"
    on a score that does not exist). A number written with ``I`` is judged by its parts: SymPy divides by ``I`` inside
    ``log(2)``, and every ``sympy.log`` of a number was refused for it. A binomial of 1/2 has no value (a twenty-fifth
    hostile review: the integer conditions went unchecked, and a "no" was built on binomial(1/2, 2))."""
    if condition == "true":
        return exact.breaks(value, condition)
    if condition not in ("nonzero", "positive", "nonnegative", "integer"):
        return False
    try:
        number = sympy.sympify(value)
        return exact.breaks(number, condition) if number.is_number else False
    except (sympy.SympifyError, TypeError, ValueError, AttributeError):
        return False


class Steps(list[str]):
    """The steps of the run with no real value, in order; ``undecided``: the first step whose domain could not be decided
    (a divisor whose sign cannot be certified), where the run cannot say whether the metric has a value."""

    def __init__(self) -> None:
        super().__init__()
        self.undecided: list[str] = []
        self.undecided_condition = ""
        """The condition (``"nonzero"``, ``"integer"``, ...) of the first undecided step."""


_FORMULA: dict[tuple[int, int], tuple[bool, CodeType, dict[str, Any]]] = {}
"""Whether code running in a namespace is the formula's (:func:`~irprops.metrics.watching.formula_frame`), by their ids."""


@contextlib.contextmanager
def strict() -> Iterator[Steps]:
    """Record, in this block, the first step of the formula with no real value: a value that is no real number handed to
    the formula's code by a call, or a partial function SymPy builds for it outside its domain (a divisor that is
    exactly 0 although SymPy cancels it, :mod:`~irprops.metrics.domains`)."""
    found = Steps()
    behalf: list[FrameType] = []  # the formula's calls into SymPy still running, innermost last
    formula = _FORMULA

    def of_formula(frame: FrameType) -> bool:  # formula_frame, once per code and namespace: asked for every call
        key = (id(frame.f_code), id(frame.f_globals))  # hashing a code object hashes its bytecode: ids are cheap
        known = formula.get(key)
        if known is None:  # the code and namespace are kept, so that their ids keep naming them
            known = formula[key] = (formula_frame(frame), frame.f_code, frame.f_globals)
        return known[0]

    # A trace function, not a profile function: Python calls it for every Python call only (not for each call of a
    # builtin), and for the return of only the frames it asks to follow (with the ids below, about a third cheaper).
    def returned(frame: FrameType, event: str, arg: Any) -> Any:
        if event != "return" or found:  # a frame left by an exception returns None: nothing to check
            return returned
        if behalf and frame is behalf[-1]:
            behalf.pop()
        caller = frame.f_back
        if isinstance(arg, sympy.Basic) and caller is not None and of_formula(caller) and not of_formula(frame):
            why = exact.no_value(arg)
            if why is not None:
                found.append(f"a step has no real value ({arg if len(str(arg)) < 40 else why})")
        return returned

    def called(frame: FrameType, event: str, arg: Any) -> Any:  # event is "call": Python calls it for a new frame only
        if found:
            return None
        caller = frame.f_back
        if caller is None:
            return None
        known = formula.get((id(caller.f_code), id(caller.f_globals)))  # of_formula(caller), inlined: the common case
        by_formula = known[0] if known is not None else of_formula(caller)
        follow = by_formula and not of_formula(frame)  # a value handed to the formula's code
        code = frame.f_code
        if not behalf:
            if not (code.co_filename.startswith(_SYMPY) and (by_formula or caller.f_code.co_filename == _ALGEBRA)):
                return _follow(frame, returned) if follow else None
            behalf.append(frame)
            follow = True
        if id(code) in builders or (code.co_name == "wrapper" and code.co_filename == cached):
            for value, condition, construct in domains.conditions(code, frame.f_locals):
                broken = _violated(value, condition)
                if broken:
                    found.append(f"a step has no real value ({construct}: {str(value)[:40]} is not {_WORDS.get(condition, condition)})")
                    return None
                if broken is None and not found.undecided:
                    found.undecided_condition = condition
                    found.undecided.append(f"{construct}: irprops cannot certify that {str(value)[:60]} is "
                                           f"{_WORDS.get(condition, condition)}")
        return _follow(frame, returned) if follow else None

    builders, cached = domains.builders()
    previous = sys.getprofile(), sys.gettrace()
    sys.setprofile(None)  # a watcher's profile function does not watch the exact run
    sys.settrace(called)
    try:
        yield found
    finally:
        sys.settrace(previous[1])
        restore_profile(previous[0])  # cProfile's hook is an object sys.setprofile refuses


def _follow(frame: FrameType, local: Any) -> Any:
    """Follow ``frame`` to its return (not line by line)."""
    frame.f_trace_lines = False
    return local
