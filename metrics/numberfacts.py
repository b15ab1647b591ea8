"""SymPy's signs of numbers, certified: SymPy decides them from a two-digit evaluation, which is wrong at exact zeros.

SymPy orders two numbers, and calls a number positive or negative, from ``evalf(2)``. For a number that is exactly 0
but not written as 0, such as ``d = log2(9) - 2 log2(3)``, the evaluation is an insignificant float (``0.e-110``) that
SymPy then reads with a sign: ``sign(d)`` evaluates to 1 and ``sign(d) > 0`` to True, ``(d**2).is_positive`` and
``d**2 > 0`` are True. A formula that decides on such a number then takes the wrong branch in every run and every form
alike, so no cross-check can notice (a twenty-third hostile review: 12 false "yes" for all k). irprops replaces SymPy's
two numeric decision points with :func:`~irprops.metrics.exact.sign`, which certifies a sign by interval arithmetic or
shows the number formally zero, and leaves the question open (None) where it cannot. Importing irprops installs them.

>>> import sympy
>>> from irprops.metrics.exact import log2
>>> d = log2(9) - 2 * log2(3)
>>> (d**2).is_positive, d**2 > 0, sympy.sign(d), sympy.sign(d) > 0
(False, False, 0, False)
>>> (log2(3) - 1).is_positive, log2(3) > 1
(True, True)
"""

from __future__ import annotations

import math
from typing import Any

import sympy
from sympy.core import expr as _sympy_expr
from sympy.core import relational as _sympy_relational
from sympy.core.evalf import PrecisionExhausted
from sympy.functions.elementary import integers as _sympy_integers

from . import exact
from .errors import Undecided

__all__ = ["certified"]

_ORIGINAL_SIGN_OF_NUMBER = _sympy_expr.Expr._eval_is_extended_positive_negative
_ORIGINAL_DIFFERENCE = _sympy_relational._n2
_ORIGINAL_INT = sympy.Expr.__int__
_BUSY: list[bool] = []  # a certification that asks SymPy about a sign on its way (formally_zero's expansion) gets no answer


def _certified_sign(value: sympy.Expr) -> int | None:
    if _BUSY or value.has(*exact.NOT_A_NUMBER):
        return None
    _BUSY.append(True)
    try:
        return exact.sign(value)
    except (Undecided, TypeError, ValueError, ArithmeticError):
        return None
    finally:
        _BUSY.pop()


def _sign_of_number(self: sympy.Expr, positive: bool) -> bool | None:
    """``Expr._eval_is_extended_positive_negative``: for a number, its certified sign (None where undecided)."""
    if not self.is_number:
        return _ORIGINAL_SIGN_OF_NUMBER(self, positive)
    if _BUSY:
        return None
    if self.has(*exact.NOT_A_NUMBER):
        return _ORIGINAL_SIGN_OF_NUMBER(self, positive)
    _BUSY.append(True)  # SymPy's realness asks the signs of the parts, which lands here again (1 + sqrt(d), d = 0)
    try:
        real = self.is_extended_real
    finally:
        _BUSY.pop()
    if real is False:
        return _ORIGINAL_SIGN_OF_NUMBER(self, positive)  # a non-real number is neither positive nor negative
    found = _certified_sign(self)
    if found is None:
        return None
    return found > 0 if positive else found < 0


def _difference(a: sympy.Expr, b: sympy.Expr) -> Any:
    """``relational._n2``: the sign of a - b as a number SymPy compares with 0 (None where undecided)."""
    if not (a.is_comparable and b.is_comparable):
        return None
    difference = a - b
    if difference.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
        return _ORIGINAL_DIFFERENCE(a, b)  # SymPy's own handling of the infinities
    found = _certified_sign(difference)
    return None if found is None else sympy.Integer(found)


def _integer_part(expr: sympy.Expr, no: int, options: dict[str, Any], return_ints: bool = False) -> Any:
    """``get_integer_part`` as ``floor`` and ``ceiling`` call it (``no`` = -1 and 1): the integer part of a real number,
    certified by :func:`~irprops.metrics.exact.sign`; ``PrecisionExhausted`` (SymPy then leaves the function unevaluated)
    where it cannot be certified. SymPy's own returns the nearest integer for a number within about 2^-350 of one (a
    twenty-fifth hostile review: floor(3 - 2.8e-400) was 3, and three properties were "proved" of the wrong metric)."""
    if not return_ints or _BUSY or expr.has(*exact.NOT_A_NUMBER):
        raise PrecisionExhausted(f"irprops: the integer part of {expr} is not certified")
    _BUSY.append(True)
    try:
        bits = 64
        lo, hi = exact.enclose(expr, bits)
        while hi - lo >= 1 and bits < 4096:  # floor(10**30 sqrt(2)) needs more than 64 bits to come within 1
            bits *= 2
            lo, hi = exact.enclose(expr, bits)
        n = math.floor(lo) if no < 0 else math.ceil(hi)
        for _ in range(4):  # the enclosure is within 1 of the value; each step moves n towards it
            low, high = (n, n + 1) if no < 0 else (n - 1, n)  # floor: n <= x < n + 1; ceiling: n - 1 < x <= n
            above_low, above_high = exact.sign(expr - low), exact.sign(expr - high)
            if (above_low >= 0 > above_high) if no < 0 else (above_low > 0 >= above_high):
                return n, 0
            n += 1 if (above_high >= 0 if no < 0 else above_high > 0) else -1
    except (Undecided, TypeError, ValueError, ArithmeticError):
        pass
    finally:
        _BUSY.pop()
    raise PrecisionExhausted(f"irprops: the integer part of {expr} is not certified")


def _int(self: sympy.Expr) -> int:
    """``Expr.__int__`` (which ``Mod`` and ``%`` call): the integer part of a real number towards 0, its floor or
    ceiling certified by :func:`_integer_part`, else ``TypeError`` (SymPy's own answer where it cannot compute one).
    SymPy guesses the integer below where it cannot tell a number from an integer (a twenty-seventh hostile review:
    int(3 + log(1 + 1845/2^4100)) was 2, and Mod of that number by 1 was 1 + 2^-4088)."""
    if not self.is_number or self.has(*exact.NOT_A_NUMBER) or self.is_extended_real is False:
        return _ORIGINAL_INT(self)
    sign = _certified_sign(self)
    try:
        if sign is not None:
            return int(_integer_part(self, -1 if sign >= 0 else 1, {}, return_ints=True)[0])
    except PrecisionExhausted:
        pass
    raise TypeError(f"irprops: the integer part of {exact.show(self)} is not certified")


def certified() -> bool:
    """Whether SymPy's numeric sign decisions are irprops' certified ones (installed on import)."""
    return (_sympy_expr.Expr._eval_is_extended_positive_negative is _sign_of_number
            and _sympy_relational._n2 is _difference and _sympy_integers.get_integer_part is _integer_part
            and sympy.Expr.__int__ is _int)


_sympy_expr.Expr._eval_is_extended_positive_negative = _sign_of_number  # type: ignore[method-assign]
_sympy_relational._n2 = _difference
_sympy_integers.get_integer_part = _integer_part
sympy.Expr.__int__ = _int  # type: ignore[method-assign]
