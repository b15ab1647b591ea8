"""The numbers of the float run: :class:`ScreenFloat`, a float that computes with SymPy's exact constants as floats.

A formula may compute with SymPy's numbers (``m.r(i) * sympy.Rational(1, 2) ** i``). With plain
floats, ``0.5 * Rational(1, 4)`` is SymPy's arithmetic (a SymPy ``Float``, about fifty times
slower), and a float run that ends in a SymPy value is not used at all: the exact run is computed
instead, so that a check of such a formula scored every situation twice, the slow way. A
``ScreenFloat`` rounds a nonzero SymPy rational to a float first, where that float is finite
and nonzero (else the number is left to SymPy, and the exact run decides, as before). The float
run is a screen: it orders candidates and never decides a verdict, nor, alone, that a score is
undefined (:meth:`irprops.metrics.Measure.screen`).

>>> import sympy
>>> half = ScreenFloat(0.5)
>>> half * sympy.Rational(1, 4), type(1 - half).__name__
(0.125, 'ScreenFloat')
>>> type(half * sympy.Rational(1, 10) ** 400).__name__  # 10^-400 is 0 as a float: SymPy computes it
'Float'
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy

__all__ = ["ScreenFloat"]


def _as_float(other: Any) -> float | None:
    """``other`` as a float where the float run may compute with it as one, else None."""
    if type(other) is float or type(other) is ScreenFloat:  # the usual operands, told without isinstance
        return float(other)
    if isinstance(other, bool):
        return None
    if isinstance(other, (float, int, Fraction)):
        try:
            return float(other)
        except OverflowError:
            return None
    if isinstance(other, sympy.Rational) and other.p != 0:  # SymPy's 0 stays SymPy's (x / 0 is its zoo, as in the exact run)
        try:
            value = int(other.p) / int(other.q)  # correctly rounded, and ten times faster than SymPy's float()
        except OverflowError:
            return None
        return value if value != 0 else None
    return None


def _binary(op: Callable[[float, float], float], reflected: bool = False) -> Callable[[float, Any], Any]:
    def method(self: float, other: Any) -> Any:
        value = _as_float(other)
        if value is None:
            return NotImplemented
        return ScreenFloat(op(value, float(self)) if reflected else op(float(self), value))
    return method


class ScreenFloat(float):
    """A float of the float run: its arithmetic with ints, floats, Fractions and SymPy rationals gives a ScreenFloat."""

    __slots__ = ()

    def __neg__(self) -> ScreenFloat:
        return ScreenFloat(-float(self))

    def __pos__(self) -> ScreenFloat:
        return self

    def __abs__(self) -> ScreenFloat:
        return ScreenFloat(abs(float(self)))


for _name, _op in (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul), ("truediv", operator.truediv),
                   ("pow", operator.pow)):
    setattr(ScreenFloat, f"__{_name}__", _binary(_op))
    setattr(ScreenFloat, f"__r{_name}__", _binary(_op, reflected=True))
