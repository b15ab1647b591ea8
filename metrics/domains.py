"""Where the SymPy functions of the formula language have a real value: what each construction of one must satisfy.

SymPy simplifies as it builds (``0 * log(x)`` is 0, ``0 * (k - 250) ** -1`` is 0), while the
exact run of the same formula has no value where x is 0 or k is 250. So every function of
the language that is undefined (zoo, nan) or not real for some arguments is recorded with
what its arguments must be, and the closed form keeps the record. The record is taken
**where the object is built**, from the constructor's own arguments bound by name, not
from how the formula called it: ``sympy.Pow(b=x, e=-1)``, ``sympy.Pow(x, e=-1)``, a
``pow`` builtin, ``sympy.root`` (which builds ``x ** (1/n)``) and SymPy's cache (on or off,
``SYMPY_USE_CACHE=no``) all reach the same constructor with the same arguments. The
watcher (:mod:`~irprops.metrics.watching`) asks :func:`conditions` for every call made
while SymPy works on the formula's behalf.

>>> import sympy
>>> x = sympy.Symbol("x")
>>> [(str(v), c) for v, c, _ in conditions(_CODES[sympy.Pow.__new__.__wrapped__], {"cls": sympy.Pow, "b": x, "e": -1})]
[('x', 'nonzero')]
>>> negative_power_divisor(x, 2) is None, negative_power_divisor(x, -1)
(True, x)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

import sympy
from sympy.functions.elementary.piecewise import ExprCondPair

from . import exact

__all__ = ["Condition", "builds", "conditions", "negative_power_divisor"]

Condition = tuple[Any, str, str]
"""(the value, what it must be: "nonzero", "positive", "nonnegative", "integer" or "true", the construct named for a reader)."""

_CACHED = str(Path(sympy.__file__).parent / "core" / "cache.py")
"""The file of SymPy's ``cacheit`` wrapper, which every cached constructor call passes through (a cache hit never
reaches the constructor itself)."""


def negative_power_divisor(base: Any, exponent: Any) -> Any:
    """What ``base ** exponent`` divides by: the base where the exponent may be negative, guarded by that (a twelfth
    hostile review: ``sympy.Pow(R - 500, 2)`` recorded R - 500 as a denominator, and the k <= K proofs left R = 500 out);
    None where the exponent is certainly nonnegative."""
    try:
        e = sympy.sympify(exponent)
        if e.is_number:
            if exact.certainly(e, "nonnegative"):
                return None
            return base if exact.certainly(-e, "positive") else sympy.Piecewise((base, e < 0), (1, True))
        if e.is_nonnegative:
            return None
        return base if e.is_negative else sympy.Piecewise((base, e < 0), (1, True))
    except (sympy.SympifyError, TypeError):
        return base  # not an expression: refused as it is


def _integer(exponent: object) -> bool:
    """Whether SymPy shows ``exponent`` an integer (a Python int is one)."""
    if isinstance(exponent, int):
        return True
    return isinstance(exponent, sympy.Basic) and getattr(exponent, "is_integer", None) is True


def _power(b: Any, e: Any, label: str) -> list[Condition]:
    """``b ** e``: it divides by b where e may be negative; a root of a negative number is not real (nor one number)."""
    divisor = negative_power_divisor(b, e)
    found: list[Condition] = [(divisor, "nonzero", f"{label} with a negative exponent")] if divisor is not None else []
    if not _integer(e):
        found.append((b, "nonnegative", f"{label} with an exponent that may not be an integer"))
    return found


def _log(args: tuple[Any, ...]) -> list[Condition]:
    if len(args) > 1:  # log(x, base): log(2, -2) is not real, log(2, 1) divides by log(1) = 0
        return [(args[0], "positive", "sympy.log"), (args[1], "positive", "sympy.log's base"),
                (args[1] - 1, "nonzero", "sympy.log's base")]
    return [(args[0], "positive", "sympy.log")] if args else []


def _binomial(args: tuple[Any, ...]) -> list[Condition]:
    """binomial(-1, 1/2) is zoo, and SymPy's simplify calls binomial(n, n + 2) 0, which it is not at a negative n
    (binomial(-2, 0) is 1: a thirteenth hostile review), so a proof may rest on one only where its top argument is >= 0."""
    if len(args) != 2:
        return []
    return [(args[0], "integer", "sympy.binomial"), (args[1], "integer", "sympy.binomial"),
            (args[0], "nonnegative", "sympy.binomial's top argument")]


def _argument(position: int, condition: str, label: str) -> Callable[[tuple[Any, ...]], list[Condition]]:
    return lambda args: [(args[position], condition, label)] if len(args) > position else []


_FUNCTIONS: dict[type, Callable[[tuple[Any, ...]], list[Condition]]] = {
    sympy.log: _log, sympy.binomial: _binomial,
    sympy.Mod: _argument(1, "nonzero", "sympy.Mod's divisor"),
    sympy.harmonic: _argument(0, "nonnegative", "sympy.harmonic"),
    sympy.factorial: _argument(0, "nonnegative", "sympy.factorial"),
    exact.log2: _argument(0, "positive", "irprops.metrics.exact.log2"),
}
"""The function classes of the language that are undefined or not real for some arguments, by class."""


def _function(bound: dict[str, Any]) -> list[Condition]:
    rule = _FUNCTIONS.get(bound.get("cls"))  # type: ignore[arg-type]
    args = bound.get("args")
    return rule(args) if rule is not None and isinstance(args, tuple) else []


def _piecewise(bound: dict[str, Any]) -> list[Condition]:
    """nan where no condition holds: the last pair's condition must hold (as ``True`` does). A pair is a tuple (as a
    formula writes it) or SymPy's ExprCondPair (as SymPy rebuilds one); anything else is refused."""
    pairs = bound.get("args")
    last = pairs[-1] if isinstance(pairs, tuple) and pairs else None
    if isinstance(last, ExprCondPair):
        condition: Any = last.cond
    else:
        condition = last[1] if isinstance(last, tuple) and len(last) == 2 else False
    return [(condition, "true", "sympy.Piecewise without a last (x, True) branch")]


def _root(bound: dict[str, Any]) -> list[Condition]:
    """root(x, n) is x ** (1/n): undefined where n is 0, and it divides by x where n < 0 (root(0, -1) is zoo: a fourteenth
    hostile review, whose index was -1 at k = 250 only); root(4, 2, 1) is -2, another branch than the principal root."""
    found: list[Condition] = [(bound.get("arg"), "nonnegative", "sympy.root"), (bound.get("n"), "nonzero", "sympy.root's index")]
    divisor = negative_power_divisor(bound.get("arg"), bound.get("n"))
    if divisor is not None:
        found.append((divisor, "nonzero", "sympy.root with an index that may be negative"))
    if bound.get("k", 0) != 0:
        found.append((False, "true", "sympy.root with a branch index other than 0"))
    return found


_CONSTRUCTORS: dict[Callable[..., Any], Callable[[dict[str, Any]], list[Condition]]] = {
    **{inspect.unwrap(cls.__new__): _function for cls in _FUNCTIONS},
    inspect.unwrap(sympy.Pow.__new__): lambda bound: _power(bound.get("b"), bound.get("e"), "sympy.Pow"),
    inspect.unwrap(sympy.Piecewise.__new__): _piecewise,
    inspect.unwrap(sympy.sqrt): lambda bound: [(bound.get("arg"), "nonnegative", "sympy.sqrt")],
    inspect.unwrap(sympy.root): _root,
}
"""Where each of them is built (its constructor, or SymPy's function that builds it), with the rule for its arguments."""
_CODES: dict[Callable[..., Any], CodeType] = {function: function.__code__ for function in _CONSTRUCTORS}
_RULES: dict[CodeType, Callable[[dict[str, Any]], list[Condition]]] = {_CODES[f]: rule for f, rule in _CONSTRUCTORS.items()}
_SIGNATURES: dict[CodeType, inspect.Signature] = {_CODES[f]: inspect.signature(f) for f in _CONSTRUCTORS}


_BUILDERS = frozenset(id(code) for code in _RULES)
"""The constructors' code by identity (they live as long as SymPy): hashing a code object hashes its bytecode."""


def builds(code: CodeType) -> bool:
    """Whether a call of ``code`` may build one of the language's partial functions (cheap: asked for every call)."""
    return id(code) in _BUILDERS or (code.co_name == "wrapper" and code.co_filename == _CACHED)


def builders() -> tuple[frozenset[int], str]:
    """What :func:`builds` reads, for a caller that asks for every call and cannot afford a function call each time:
    the ids of the constructors' code, and the file of SymPy's cache wrapper (a call named ``wrapper`` there)."""
    return _BUILDERS, _CACHED


def conditions(code: CodeType, arguments: dict[str, Any]) -> list[Condition]:
    """What the arguments of a call of ``code`` (a frame's code and its local variables, at the call) must satisfy for
    the value it builds to be defined and real: nothing for code that builds none of the language's partial functions.

    A call through SymPy's cache wrapper is bound to the wrapped constructor's signature here (a cache hit never runs
    the constructor); a constructor run directly (a cache miss, or the cache off) has its arguments bound by Python.
    """
    if code.co_filename == _CACHED and code.co_name == "wrapper":
        inner = getattr(arguments.get("func"), "__code__", None)
        if inner not in _RULES:
            return []
        try:
            bound = _SIGNATURES[inner].bind(*arguments.get("args", ()), **arguments.get("kwargs", {})).arguments
        except TypeError:
            return []  # SymPy raises the same TypeError when it calls the constructor
        return _RULES[inner](bound)
    rule = _RULES.get(code)
    return rule(arguments) if rule is not None else []
