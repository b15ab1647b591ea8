"""Ranks and depths that formulas may compute with but not branch on, and integers that divide exactly.

A closed form is a proof's subject only if it *is* the metric at every depth. Python
control flow on a symbolic rank or depth silently picks one branch for every value:
``1 / i if i != 37 else 5 / i`` compares the *expression* i with 37 (never equal), so the
closed form would say 1/i at rank 37 too. The symbolic backends therefore hand formulas
and weight functions a :class:`Traced` value: arithmetic, SymPy functions
(``sympy.log(i)``, ``sympy.Piecewise((5 / i, sympy.Eq(i, 37)), (1 / i, True))``) and the
algebra's own operations work on it; ``==``, ``!=``, ``<`` used as a truth value,
``bool()``, ``int()``, ``float()``, ``range()``, ``min``/``max`` builtins and ``%`` in an
``if`` raise :class:`BranchOnSymbol`, which names the construct and what to write instead.

The concrete exact backend hands formulas :class:`ExactInt` depths and ranks, so that
``m.k * (m.k + 1) / 2`` and ``i / 2`` are exact fractions, as a reader expects, rather
than Python floats.

>>> i = Traced(sympy.Symbol("i", integer=True, positive=True), "the rank i")
>>> sympy.sympify(1 / (i * (i + 1)))
1/(i*(i + 1))
>>> 1 / i if i != 37 else 5 / i
Traceback (most recent call last):
...
irprops.metrics.tracing.BranchOnSymbol: `!=` on the rank i: ...
>>> ExactInt(3) * (ExactInt(3) + 1) / 2, ExactInt(1) / 3, 2 ** -ExactInt(2)
(6, Fraction(1, 3), Fraction(1, 4))
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

from .errors import InputError

__all__ = ["BranchOnSymbol", "ExactInt", "Traced", "untrace"]

_INSTEAD = {
    "==": "sympy.Piecewise((a, sympy.Eq(x, n)), (b, True))",
    "!=": "sympy.Piecewise((a, sympy.Ne(x, n)), (b, True))",
    "comparison": "sympy.Piecewise((a, x < n), (b, True)), or m.min / m.max",
    "bool": "sympy.Piecewise for a case split (sympy.Mod(x, 2) for parity)",
    "int": "the value itself: it is already an integer",
    "float": "exact operations (m.log2, sympy functions), never floats",
    "index": "m.sum / m.prod over the ranks (a Python range needs a number)",
}


class BranchOnSymbol(InputError):
    """A formula or weight function treated a symbolic rank or depth as a number: the closed form would not be the metric."""

    def __init__(self, construct: str, what: str, instead: str) -> None:
        rule = (f"the closed form would take one branch for every value of {what}, so it would not be the metric; "
                f"write {instead}")
        super().__init__("formula", construct, rule)
        self.args = (f"{construct} on {what}: {rule}",)

    def __str__(self) -> str:
        return str(self.args[0])


def untrace(value: Any) -> Any:
    """The SymPy expression behind a :class:`Traced` value (anything else unchanged)."""
    return value.expr if isinstance(value, (Traced, _TracedRelation)) else value


def _binary(op: Callable[[Any, Any], Any], reflected: bool = False) -> Callable[[Traced, Any], Any]:
    def method(self: Traced, other: Any) -> Any:
        if isinstance(other, float):
            raise BranchOnSymbol(f"a float ({other!r}) combined", self.what, _INSTEAD["float"])
        other = untrace(other)
        result = op(other, self.expr) if reflected else op(self.expr, other)
        return Traced(result, self.what) if isinstance(result, sympy.Basic) else result
    return method


class Traced:
    """A symbolic rank or depth as user code sees it: computes like a SymPy integer, refuses to be branched on."""

    __slots__ = ("expr", "what")

    def __init__(self, expr: sympy.Expr, what: str) -> None:
        self.expr = expr
        self.what = what

    def _sympy_(self) -> sympy.Expr:
        return self.expr

    __add__ = _binary(operator.add)
    __radd__ = _binary(operator.add, reflected=True)
    __sub__ = _binary(operator.sub)
    __rsub__ = _binary(operator.sub, reflected=True)
    __mul__ = _binary(operator.mul)
    __rmul__ = _binary(operator.mul, reflected=True)
    __truediv__ = _binary(operator.truediv)
    __rtruediv__ = _binary(operator.truediv, reflected=True)
    __pow__ = _binary(operator.pow)
    __rpow__ = _binary(operator.pow, reflected=True)
    __mod__ = _binary(sympy.Mod)
    __rmod__ = _binary(sympy.Mod, reflected=True)
    __floordiv__ = _binary(lambda a, b: sympy.floor(a / b))
    __rfloordiv__ = _binary(lambda a, b: sympy.floor(a / b), reflected=True)

    def __neg__(self) -> Traced:
        return Traced(-self.expr, self.what)

    def __pos__(self) -> Traced:
        return self

    def __abs__(self) -> Traced:
        return Traced(sympy.Abs(self.expr), self.what)

    def _relation(self, op: str, other: Any) -> _TracedRelation:
        relation = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge}[op]
        return _TracedRelation(relation(self.expr, untrace(other)), self.what, op)

    def __lt__(self, other: Any) -> _TracedRelation:
        return self._relation("<", other)

    def __le__(self, other: Any) -> _TracedRelation:
        return self._relation("<=", other)

    def __gt__(self, other: Any) -> _TracedRelation:
        return self._relation(">", other)

    def __ge__(self, other: Any) -> _TracedRelation:
        return self._relation(">=", other)

    def __eq__(self, other: object) -> bool:
        raise BranchOnSymbol("`==`", self.what, _INSTEAD["=="])

    def __ne__(self, other: object) -> bool:
        raise BranchOnSymbol("`!=`", self.what, _INSTEAD["!="])

    def __bool__(self) -> bool:
        raise BranchOnSymbol("`bool()` (an if, and/or, or a conditional expression)", self.what, _INSTEAD["bool"])

    def __int__(self) -> int:
        raise BranchOnSymbol("`int()`", self.what, _INSTEAD["int"])

    def __float__(self) -> float:
        raise BranchOnSymbol("`float()` (or math.*)", self.what, _INSTEAD["float"])

    def __index__(self) -> int:
        raise BranchOnSymbol("`range()` or indexing", self.what, _INSTEAD["index"])

    def __hash__(self) -> int:
        # by identity: SymPy's caches hash their arguments, and an equal hash would make them compare with ==
        return object.__hash__(self)

    def __round__(self, ndigits: int | None = None) -> int:
        raise BranchOnSymbol("`round()`", self.what, _INSTEAD["int"])

    def __repr__(self) -> str:
        return f"Traced({self.expr!r})"


class _TracedRelation:
    """A comparison of a traced value: usable as a condition inside SymPy (Piecewise), never as a Python truth value."""

    __slots__ = ("expr", "op", "what")

    def __init__(self, expr: sympy.Basic, what: str, op: str) -> None:
        self.expr, self.what, self.op = expr, what, op

    def _sympy_(self) -> sympy.Basic:
        return self.expr

    def __bool__(self) -> bool:
        raise BranchOnSymbol(f"`{self.op}` used as a truth value (an if, a conditional expression, or a min/max builtin)",
                             self.what, _INSTEAD["comparison"])


def _exact_binary(op: Callable[[Any, Any], Any], reflected: bool = False) -> Callable[[ExactInt, Any], Any]:
    def method(self: ExactInt, other: Any) -> Any:
        if isinstance(other, bool) or not isinstance(other, (int, Fraction)):
            return NotImplemented
        a, b = (Fraction(other), Fraction(int(self))) if reflected else (Fraction(int(self)), Fraction(other))
        result = op(a, b)
        return ExactInt(result.numerator) if isinstance(result, Fraction) and result.denominator == 1 else result
    return method


def _exact_pow(self: ExactInt, other: Any) -> Any:
    if isinstance(other, bool) or not isinstance(other, int):
        return NotImplemented
    return ExactInt(int(self) ** int(other)) if other >= 0 else Fraction(int(self)) ** int(other)


def _exact_rpow(self: ExactInt, other: Any) -> Any:
    if isinstance(other, bool) or not isinstance(other, (int, Fraction)):
        return NotImplemented
    value = Fraction(other) ** int(self)
    return ExactInt(value.numerator) if value.denominator == 1 else value


class ExactInt(int):
    """An int whose ``/`` (and negative powers) give a :class:`~fractions.Fraction`: depths and ranks in the exact backend."""

    __slots__ = ()

    __add__ = _exact_binary(operator.add)
    __radd__ = _exact_binary(operator.add, reflected=True)
    __sub__ = _exact_binary(operator.sub)
    __rsub__ = _exact_binary(operator.sub, reflected=True)
    __mul__ = _exact_binary(operator.mul)
    __rmul__ = _exact_binary(operator.mul, reflected=True)
    __truediv__ = _exact_binary(operator.truediv)
    __rtruediv__ = _exact_binary(operator.truediv, reflected=True)
    __pow__ = _exact_pow  # type: ignore[assignment]
    __rpow__ = _exact_rpow  # type: ignore[assignment]

    def __neg__(self) -> ExactInt:
        return ExactInt(-int(self))
