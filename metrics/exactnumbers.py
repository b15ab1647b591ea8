"""The exact numbers a formula computes with where a value is a number: :class:`ExactInt` and :class:`ExactFraction`.

Python's own ``int`` and ``Fraction`` leave exact arithmetic silently: ``3 / 2`` is a float,
``Fraction(1) // 1`` is a plain int (so ``/ 10`` after it is a float), ``+k`` and ``abs(k)`` of an
int subclass are plain ints. A formula's exact run would then compute with floats where its
symbolic run (the closed form every proof is about) computes exactly, and the two could differ.
So depths, ranks and counts are :class:`ExactInt` and every other number the algebra hands out
is an :class:`ExactFraction`, in the exact run and, where a value is a number in both, in the
symbolic runs too: every operation the formula language allows keeps them exact and of these
types, so both runs compute alike.

>>> k = ExactInt(3)
>>> k * (k + 1) / 2, 1 / k, 2 ** -k, +k // 2, abs(-k) % 2
(6, ExactFraction(1, 3), ExactFraction(1, 8), 1, 1)
>>> half = ExactFraction(1, 2)
>>> half // 1 / 10, type(half * 2).__name__, half ** 2
(0, 'ExactFraction', ExactFraction(1, 4))
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction
from typing import Any

__all__ = ["ExactFraction", "ExactInt", "exact_value", "is_exact_number"]

_OPERATIONS = (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul), ("truediv", operator.truediv),
               ("floordiv", operator.floordiv), ("mod", operator.mod))


def exact_value(value: Any, integers: bool) -> Any:
    """``value`` (an int or a Fraction) as an :class:`ExactInt` or an :class:`ExactFraction`: an ExactInt only when
    ``integers`` (the operands were integers) and it is integral, as ``k * (k + 1) / 2`` is."""
    if isinstance(value, int):
        return ExactInt(value)
    numerator, denominator = int(value.numerator), int(value.denominator)  # plain ints: Fraction's fast path
    if integers and denominator == 1:
        return ExactInt(numerator)
    return ExactFraction(numerator, denominator)


def is_exact_number(other: Any) -> bool:
    """Whether ``other`` is an exact number these classes compute with (an int or a Fraction, never a bool)."""
    return isinstance(other, (int, Fraction)) and not isinstance(other, bool)


def _binary(op: Callable[[Any, Any], Any], reflected: bool = False) -> Callable[[Any, Any], Any]:
    name = op.__name__
    forward, backward = getattr(Fraction, f"__{name}__"), getattr(Fraction, f"__r{name}__")  # Fraction's own arithmetic
    on_ints = op is not operator.truediv

    def method(self: Any, other: Any) -> Any:
        integer = _INTEGER.get(type(other))  # the usual types told without isinstance (Fraction's is an ABC check)
        if integer is None:
            if not is_exact_number(other):
                return NotImplemented  # a SymPy value or a traced one computes it (its reflected method)
            integer = isinstance(other, int)
        if integer and isinstance(self, int):  # two integers: an integer, or an exact quotient
            a, b = (int(other), int(self)) if reflected else (int(self), int(other))
            return ExactInt(op(a, b)) if on_ints else exact_value(Fraction(a, b), True)
        # at least one Fraction: Fraction's method of whichever operand is one (its reflected method computes other op self)
        if not isinstance(self, int):  # self is an ExactFraction
            value = backward(self, other) if reflected else forward(self, other)
        else:
            value = forward(other, self) if reflected else backward(other, self)
        return exact_value(value, False)
    return method


def _power(self: Any, other: Any) -> Any:
    if not is_exact_number(other):
        return NotImplemented
    if isinstance(other, Fraction) and other.denominator != 1:
        return float(self) ** float(other)  # as Python's Fraction does, in every run alike
    return exact_value(Fraction(self) ** int(other), isinstance(self, int) and other >= 0)


def _rpower(self: Any, other: Any) -> Any:
    if not is_exact_number(other):
        return NotImplemented
    return _power(ExactFraction(other) if isinstance(other, Fraction) else ExactInt(other), self)


class ExactInt(int):
    """An int whose ``/`` (and negative powers) give an :class:`ExactFraction`: depths, ranks and counts."""

    __slots__ = ()

    # + - * / // % and their reflections are installed by _arithmetic below
    __pow__ = _power  # type: ignore[assignment]
    __rpow__ = _rpower  # type: ignore[assignment]

    def __neg__(self) -> ExactInt:
        return ExactInt(-int(self))

    def __pos__(self) -> ExactInt:
        return self

    def __abs__(self) -> ExactInt:
        return ExactInt(abs(int(self)))


class ExactFraction(Fraction):
    """A Fraction whose operations stay exact Fractions (``// 1`` an :class:`ExactInt`), never floats or plain ints."""

    __slots__ = ()

    __pow__ = _power  # type: ignore[assignment]
    __rpow__ = _rpower  # type: ignore[assignment]

    def __neg__(self) -> ExactFraction:
        return ExactFraction(-self.numerator, self.denominator)

    def __pos__(self) -> ExactFraction:
        return self

    def __abs__(self) -> ExactFraction:
        return ExactFraction(abs(self.numerator), self.denominator)

    def __repr__(self) -> str:
        return f"ExactFraction({self.numerator}, {self.denominator})"


def _arithmetic(cls: type) -> None:
    for name, op in _OPERATIONS:
        setattr(cls, f"__{name}__", _binary(op))
        setattr(cls, f"__r{name}__", _binary(op, reflected=True))


_arithmetic(ExactInt)
_arithmetic(ExactFraction)


_INTEGER = {int: True, ExactInt: True, Fraction: False, ExactFraction: False}
"""Whether an operand of these exact types is an integer (other types: :func:`is_exact_number`, then isinstance)."""
