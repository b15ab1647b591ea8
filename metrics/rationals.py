"""Long exact sums and geometric powers of rationals in time close to linear in the depth.

Python's ``Fraction`` reduces every result by a gcd of its full numerator and denominator. A sum
of k terms whose denominators grow with the rank, as RBP's ``(1 - p) p^(i-1)`` do (5^(i-1) at
p = 4/5), then pays k gcds of numbers of thousands of digits, and ``p ** (i - 1)`` raises the
numerator and the denominator afresh at every rank: RBP@10000 took 2.5 s. Here

- :class:`RationalSum` keeps the sum over the least common multiple of the denominators seen and
  reduces it once, when it is read: a term whose denominator divides that multiple (or is a multiple
  of it) costs one product by a small quotient;
- :class:`Powers` is a Fraction that computes ``p ** n`` from the power it computed last when ``n``
  is one more: one product by p, not two powers.

The values are exactly those of Fraction arithmetic (a Fraction is its reduced form, whatever
the order in which it was reached); only the time differs.

>>> total = RationalSum()
>>> for i in range(1, 5):
...     total.add(Fraction(1, 2**i))
>>> total.value()
Fraction(15, 16)
>>> p = Powers(4, 5)
>>> [p ** n for n in range(4)] == [Fraction(4, 5) ** n for n in range(4)]
True
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

__all__ = ["Powers", "RationalSum"]


class RationalSum:
    """A running sum of rationals, ``n / d`` with d the least common multiple of the denominators added (not reduced)."""

    __slots__ = ("_d", "_n")

    def __init__(self, start: Fraction | int = 0) -> None:
        start = Fraction(start)
        self._n, self._d = start.numerator, start.denominator

    def add(self, term: Fraction | int) -> None:
        """Add ``term``: an int, or a Fraction (reduced, with a positive denominator, as every Fraction is)."""
        if isinstance(term, int):
            self._n += term * self._d
            return
        a, b = term.numerator, term.denominator
        d = self._d
        if b == d:
            self._n += a
        elif b < d and d % b == 0:
            self._n += a * (d // b)
        elif b > d and b % d == 0:
            self._n = self._n * (b // d) + a
            self._d = b
        else:
            g = math.gcd(d, b)
            self._n = self._n * (b // g) + a * (d // g)
            self._d = d // g * b

    def value(self) -> Fraction:
        """The sum, reduced."""
        return Fraction(self._n, self._d)


class Powers(Fraction):
    """A Fraction whose integer powers reuse the last one computed: ``p ** (n + 1)`` is ``(p ** n) * p``.

    Every other operation is Fraction's own, and gives a plain Fraction.
    """

    __slots__ = ("_last",)

    _last: tuple[int, Fraction]

    def __pow__(self, exponent: Any, modulo: None = None) -> Any:  # type: ignore[override]
        if modulo is not None or isinstance(exponent, bool) or not isinstance(exponent, int) or exponent < 0:
            return Fraction(self) ** exponent if modulo is None else NotImplemented
        n = int(exponent)
        last = getattr(self, "_last", None)
        if last is not None and last[0] == n:
            return last[1]
        if last is not None and last[0] == n - 1:
            power = last[1] * Fraction(self)
        else:
            power = Fraction(self) ** n
        self._last = (n, power)
        return power
