"""Exact scores and sound comparisons between them.

An exact score is a ``Fraction`` when it is rational, and otherwise a SymPy expression
over rationals and base-2 logarithms of integers (:class:`log2`), such as the DCG value
``1 + 1/log2(3)``. Equalities and strict inequalities between such values are decided
soundly by :func:`sign`:

1. **interval separation**: the expression is enclosed in a rigorous interval
   (``mpmath.iv``, outward rounding, with every logarithm, root, power, ``exp`` and ``pi``
   widened by 2^8 ulps as a margin); if the interval excludes 0 its sign is certain; a
   function with no enclosure here (``sin``, say) makes the comparison :class:`Undecided`;
2. **formal identity**: otherwise each ``log2(n)`` (n rational) is expanded over the primes
   (``log2(12) = 2 + log2(3)``) and the expression is put over a common denominator in
   those logarithms as independent symbols; a zero numerator proves the value is 0;
3. **refinement**: otherwise the interval is recomputed with up to 4096 bits.

A value that is formally nonzero yet never separated from 0 raises :class:`Undecided`
(it would be a counterexample to Schanuel's conjecture); no verdict is ever guessed.
Floats never take part in these decisions.

>>> w2 = 1 / log2(3)                      # the DCG weight of rank 2
>>> sign(1 / log2(6) - w2 / (1 + w2))     # log2(6) = 1 + log2(3): equal, found formally
0
>>> sign(Fraction(1, 2) * w2 - 1 / log2(9))   # grade 1/2 at rank 2 vs grade 1 at rank 8
0
>>> compare(1 / log2(5), Fraction(3, 7))
1
"""

from __future__ import annotations

import contextlib
import decimal as decimal_module
import functools
import itertools
import math
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import TypeAlias

import mpmath
import sympy
from mpmath.libmp import from_man_exp, mpf_cmp, mpf_neg, to_rational
from sympy import Integer
from sympy.printing.str import StrPrinter

from .errors import Undecided

Exact: TypeAlias = Fraction | sympy.Expr
"""An exact value: a Fraction, or a SymPy expression over rationals and :class:`log2`."""

_FIRST_BITS = 64
_MAX_BITS = 4096
_LOG_MARGIN_BITS = 8


class log2(sympy.Function):
    """The base-2 logarithm, exact: ``log2(2**e)`` is the integer e; ``log2(3)`` stays symbolic.

    >>> log2(8), log2(6), 1 / log2(3)
    (3, log2(6), 1/log2(3))
    """

    @classmethod
    def eval(cls, x: sympy.Expr) -> sympy.Expr | None:
        if isinstance(x, sympy.Rational) and x.p > 0:  # the common case, read from the integers (SymPy's queries: 0.4 ms)
            n = int(x.p)
            return Integer(n.bit_length() - 1) if x.q == 1 and n & (n - 1) == 0 else None
        if x.is_number and x.is_zero:  # as log(0): no value, so that 0 * log2(0) is nan, not 0 (a fifteenth hostile review)
            return sympy.zoo
        if x.is_number and x.is_negative:  # as log(-1): not real
            return sympy.log(x) / sympy.log(2)
        if x.is_Integer and x.is_positive:
            n = int(x)
            if n & (n - 1) == 0:
                return Integer(n.bit_length() - 1)
        return None

    def _eval_is_real(self) -> bool | None:
        return self.args[0].is_positive

    def _eval_is_zero(self) -> bool | None:  # log2 of a positive rational is 0 at 1 only (read from the integers: a
        x = self.args[0]                      # DCG at depth 10,000 asked it of every 0 / log2(i + 1), 1 ms each)
        return bool(x.p == x.q) if isinstance(x, sympy.Rational) and x.p > 0 else None

    def _eval_is_finite(self) -> bool | None:
        x = self.args[0]
        return True if isinstance(x, sympy.Rational) and x.p > 0 else None

    def _eval_is_extended_positive(self) -> bool | None:
        x = self.args[0]
        return bool(x.p > x.q) if isinstance(x, sympy.Rational) and x.p > 0 else super()._eval_is_extended_positive()

    def _eval_is_extended_negative(self) -> bool | None:
        x = self.args[0]
        return bool(x.p < x.q) if isinstance(x, sympy.Rational) and x.p > 0 else super()._eval_is_extended_negative()

    def _eval_is_positive(self) -> bool | None:
        return _above_one(self.args[0])

    def fdiff(self, argindex: int = 1) -> sympy.Expr:
        return 1 / (self.args[0] * sympy.log(2))

    def _eval_rewrite_as_log(self, x: sympy.Expr, **kwargs: object) -> sympy.Expr:
        return sympy.log(x) / sympy.log(2)

    def _eval_evalf(self, prec: int) -> sympy.Expr:
        return (sympy.log(self.args[0]) / sympy.log(2))._eval_evalf(prec)

    def __rtruediv__(self, other: object) -> sympy.Expr:
        """``other / log2(n)``: for a rational ``other`` and an integer n > 2, the expression SymPy builds, built directly
        (a DCG term ``r_i / log2(i + 1)``; SymPy's own way asked its assumptions of each: 2 s at depth 10,000). The two
        are the same expression, tested on every shape of coefficient."""
        x = self.args[0]
        if type(x) is Integer and isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            if not other:
                return sympy.S.Zero
            reciprocal = _reciprocal(self)
            coefficient = sympy.Rational(int(other.numerator), int(other.denominator))
            return reciprocal if coefficient is sympy.S.One else sympy.Mul._from_args((coefficient, reciprocal))
        return super().__rtruediv__(other)  # type: ignore[no-any-return]


def log2_of_integer(n: int) -> log2:
    """``log2(n)`` for an integer n > 2 that is not a power of 2: the expression ``log2(Integer(n))`` is, built without
    SymPy's evaluation, which leaves it as it is (15 microseconds each; a DCG at depth 10,000 asks for 10,000 of them).

    >>> log2_of_integer(12) == log2(12), sympy.srepr(log2_of_integer(12)) == sympy.srepr(log2(12))
    (True, True)
    """
    if n <= 2 or not n & (n - 1):
        raise ValueError(f"log2_of_integer takes an integer > 2 that is not a power of 2, not {n}")
    atom = sympy.Basic.__new__(log2, Integer(n))
    atom.nargs = _ONE_ARGUMENT  # as sympy.Function's constructor sets it
    return atom  # type: ignore[no-any-return]


_ONE_ARGUMENT = log2(3).nargs


@functools.lru_cache(maxsize=65536)
def _reciprocal(logarithm: log2) -> sympy.Expr:
    """``1 / log2(n)`` (n > 2 an integer, not a power of 2), made once per n, as ``sympy.Pow`` makes it but without
    its evaluation (which leaves it as it is, after asking the base's assumptions)."""
    power = sympy.Expr.__new__(sympy.Pow, logarithm, sympy.S.NegativeOne)
    power.is_commutative = True  # as Pow's constructor sets it
    return power  # type: ignore[no-any-return]


def _above_one(x: sympy.Expr) -> bool | None:
    """Whether ``x > 1``, where SymPy can say: a maximum is above 1 when one of its arguments is, a minimum when all are
    (``log2(max(i, b))`` is positive at b = 2 for every rank i, which SymPy alone leaves open).

    >>> i = sympy.Symbol("i", integer=True, positive=True)
    >>> _above_one(sympy.Max(2, i)), _above_one(sympy.Min(2, i)), _above_one(i + 1)
    (True, None, True)
    """
    if isinstance(x, sympy.Max) and any(_above_one(a) is True for a in x.args):
        return True
    if isinstance(x, sympy.Min) and all(_above_one(a) is True for a in x.args):
        return True
    return (x - 1).is_positive


def _evalf_log2(expr: log2, prec: int, options: dict[str, object]) -> tuple[object, object, object, object]:
    """SymPy's evalf of ``log2(x)`` as of ``log(x) / log(2)``, with the accuracy SymPy tracks.

    Without it SymPy evaluates a sum of log2 terms at a fixed precision and reads a sign off the rounding:
    ``log2(9) - 2*log2(3)`` (exactly 0) was "negative", so ``Eq(log2(9), 2*log2(3))`` was False and ``sign`` -1
    in a formula, the same in every backend (a tenth hostile review). With it, SymPy leaves such a comparison open.
    """
    return sympy.core.evalf.evalf(sympy.log(expr.args[0]) / sympy.log(2), prec, options)


if not sympy.core.evalf.evalf_table:  # SymPy builds its table on first use; ours must not stand in for it
    sympy.core.evalf._create_evalf_table()
sympy.core.evalf.evalf_table[log2] = _evalf_log2


NOT_A_NUMBER = (sympy.nan, sympy.zoo, sympy.oo, -sympy.oo, sympy.I)
"""What SymPy gives where the exact run divides by zero or leaves the reals (log(0), 0 / 0, sqrt(-1))."""


def no_value(value: object) -> str | None:
    """Why ``value`` (a SymPy result) is no real number, or None: every form and run calls such a score undefined.

    >>> no_value(sympy.zoo * 0), no_value(sympy.root(-1, 3)), no_value(sympy.Rational(1, 2))
    ('a denominator is 0', 'not a real number (a root of a negative number)', None)
    """
    if not isinstance(value, sympy.Basic) or value.is_Rational:  # the common case, asked for every value the strict run sees
        return None
    if plainly_real(value):  # a sum of products of rationals and logarithms that divides only by positive ones: 7 s saved
        return None          # at depth 10,000, where SymPy's own query took every subexpression's facts (and no nan or zoo)
    if value.has(*NOT_A_NUMBER):
        return "a denominator is 0"
    if value.is_number and value.is_extended_real is False:
        return "not a real number (a root of a negative number)"
    return None


@functools.lru_cache(maxsize=64)
def plainly_real(expr: sympy.Basic) -> bool:
    """Whether ``expr`` is visibly a real number (so neither nan nor zoo, and free of symbols): rationals and ``log2`` of
    positive rationals, under sums, products and integer powers, where every negative power is of a visibly positive base
    (:func:`_visibly_positive`). False means only that it is not visible so."""
    try:
        return _visibly_real(expr)
    except RecursionError:
        return False


def _visibly_real(expr: sympy.Basic) -> bool:
    if isinstance(expr, sympy.Rational):
        return True
    if isinstance(expr, log2):
        return isinstance(expr.args[0], sympy.Rational) and expr.args[0].p > 0
    if isinstance(expr, (sympy.Add, sympy.Mul)):
        return all(_visibly_real(a) for a in expr.args)
    if isinstance(expr, sympy.Pow) and isinstance(expr.exp, sympy.Integer):
        return _visibly_positive(expr.base) if expr.exp < 0 else _visibly_real(expr.base)
    return False


def _visibly_positive(expr: sympy.Basic) -> bool:
    """Whether ``expr`` is visibly above 0: positive rationals and ``log2`` of rationals above 1, under sums, products
    and integer powers."""
    if isinstance(expr, sympy.Rational):
        return expr.p > 0
    if isinstance(expr, log2):
        x = expr.args[0]
        return isinstance(x, sympy.Rational) and x.p > x.q
    if isinstance(expr, (sympy.Add, sympy.Mul)):
        return all(_visibly_positive(a) for a in expr.args)
    if isinstance(expr, sympy.Pow) and isinstance(expr.exp, sympy.Integer):
        return _visibly_positive(expr.base)
    return False


def as_exact(value: object) -> Exact:
    """Normalise an exact value: rationals become ``Fraction``; floats are refused.

    >>> as_exact(sympy.Rational(3, 4)), as_exact(2)
    (Fraction(3, 4), Fraction(2, 1))
    """
    if isinstance(value, bool):
        raise TypeError("a boolean is not a score")
    if isinstance(value, Fraction):
        return value if type(value) is Fraction else Fraction(value.numerator, value.denominator)
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        raise TypeError(f"a float ({value!r}) reached exact arithmetic; write the constant as a Fraction")
    expr = sympy.sympify(value)
    if expr.is_Rational:
        return Fraction(int(expr.p), int(expr.q))
    if expr.has(sympy.Float):
        raise TypeError(f"a float reached exact arithmetic in {expr}")
    return expr


def sign(value: Exact) -> int:
    """The sign (-1, 0 or 1) of an exact value, certified as described in the module docstring."""
    value = as_exact(value)
    if isinstance(value, Fraction):
        return (value > 0) - (value < 0)
    found = _interval_sign(value, _FIRST_BITS)
    if found is not None:
        return found
    if formally_zero(value):
        return 0
    bits = _FIRST_BITS * 2
    while bits <= _MAX_BITS:
        found = _interval_sign(value, bits)
        if found is not None:
            return found
        bits *= 2
    raise Undecided(f"cannot certify the sign of {value} with {_MAX_BITS} bits, and it is not formally zero")


def certainly(value: sympy.Expr, condition: str) -> bool:
    """Whether the number ``value`` is certainly ``"nonzero"``, ``"positive"`` or ``"nonnegative"``, decided by
    :func:`sign` (never by SymPy's assumptions, which call log2(9) - 2 log2(3) nonzero); False when undecided.

    >>> certainly(log2(9) - 2 * log2(3), "nonzero"), certainly(log2(3) - 1, "positive"), certainly(sympy.I, "nonzero")
    (False, True, True)
    """
    try:
        return breaks(value, condition) is False
    except (sympy.SympifyError, TypeError, ValueError):
        return False


def breaks(value: sympy.Expr, condition: str) -> bool | None:
    """Whether the number ``value`` breaks ``"nonzero"``, ``"positive"``, ``"nonnegative"`` or ``"integer"`` (or the
    Boolean ``value`` breaks ``"true"``): by the certified sign of a real number, and of the real and imaginary parts of
    one written with ``I`` (SymPy divides by ``I`` inside ``log(2)``; a number with a nonzero imaginary part is nonzero,
    and neither positive nor nonnegative); None where undecided (an error for a value that is not a number).

    >>> breaks(log2(9) - 2 * log2(3), "nonzero"), breaks(sympy.I, "nonzero"), breaks(sympy.log(-4), "positive")
    (True, False, True)
    >>> breaks(sympy.Rational(1, 2), "integer"), breaks(log2(9) / log2(3), "integer"), breaks(log2(3), "integer")
    (True, False, True)
    """
    if condition == "true":  # a Boolean (a Piecewise with no default branch, a root with another branch index)
        return False if value is True or value is sympy.true else True if value is False or value is sympy.false else None
    number = value if isinstance(value, Fraction) else sympy.sympify(value)
    if condition == "integer":
        return _breaks_integer(number)
    try:
        if isinstance(number, sympy.Basic) and number.has(sympy.I):
            real, imaginary = number.as_real_imag()
            if sign(imaginary) != 0:
                return condition != "nonzero"
            found = sign(real)
        else:
            found = sign(number)
    except Undecided:
        return None
    return {"nonzero": found == 0, "positive": found <= 0, "nonnegative": found < 0}[condition]


def _breaks_integer(number: Fraction | sympy.Basic) -> bool | None:
    """Whether the number is certainly not an integer (strictly between two consecutive ones), certainly one (formally
    equal to one: log2(9) / log2(3)), or None."""
    if isinstance(number, Fraction) or number.is_Rational:
        return Fraction(str(number)).denominator != 1
    if number.has(sympy.I):
        return None
    try:
        bits = 128
        lo, hi = enclose(number, bits)
        while hi - lo >= 1 and bits < 4096:
            bits *= 2
            lo, hi = enclose(number, bits)
        if hi - lo >= 1:
            return None
        n = lo.__floor__()  # n <= lo <= number <= hi < n + 2: an integer only if it is n or n + 1, each decided by its sign
        return not any(sign(number - m) == 0 for m in (n, n + 1))  # (a twenty-sixth hostile review: 3 - 2.8e-400 was None)
    except (Undecided, TypeError, ValueError):
        return None


def compare(a: Exact, b: Exact) -> int:
    """-1, 0 or 1 as ``a`` is less than, equal to or greater than ``b``, decided soundly."""
    a, b = as_exact(a), as_exact(b)
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    if a == b:  # the same expression (SymPy's == is structural): equal, without building a - b (a localized pair's scores)
        return 0
    return sign(sympy.sympify(a) - sympy.sympify(b))


def formally_zero(value: Exact) -> bool:
    """Whether ``value`` is identically zero with the logarithms of primes as independent symbols.

    A ``True`` answer proves the value is 0. ``False`` proves nothing by itself; it is also the answer, without
    trying, for a value with more than FORMAL_DIVISORS distinct sums as divisors once each term is in lowest terms, whose
    common denominator costs time exponential in their number (16 took 137 s; a sum of 1000 such weights never
    finished: round 35).
    """
    value = as_exact(value)
    if isinstance(value, Fraction):
        return value == 0
    expanded = value.replace(lambda e: isinstance(e, (log2, sympy.log)) and e.args[0].is_Rational and e.args[0].is_positive, _expand_log)
    divisors = _sum_divisors(expanded)
    if len(divisors) > FORMAL_DIVISORS:  # each term in lowest terms first: (a + 1)/(a^2 - 1) is 1/(a - 1), and equal terms cancel
        expanded = sympy.Add(*(sympy.cancel(term) if _sum_divisors(term) else term for term in sympy.Add.make_args(expanded)))
        divisors = _sum_divisors(expanded)
    if len(divisors) > FORMAL_DIVISORS:
        return False
    return sympy.cancel(sympy.together(expanded)) == 0


def _sum_divisors(value: sympy.Expr) -> set[sympy.Expr]:
    return {p.base for p in value.atoms(sympy.Pow) if p.exp.is_negative and p.base.is_Add}


FORMAL_DIVISORS = 8
"""The most distinct sums (``log2(3) - 1``, say) a value may divide by for :func:`formally_zero` to try (8 take 0.3 s)."""


def divides_by_zero(value: Exact) -> bool:
    """Whether ``value`` divides by a number that is certainly 0, which SymPy leaves unevaluated:
    ``1 / (log2(9) - 2 log2(3))``. A ``False`` answer proves nothing.

    >>> divides_by_zero(1 + 1 / (log2(9) - 2 * log2(3))), divides_by_zero(1 / log2(3))
    (True, False)
    """
    if isinstance(value, Fraction) or not isinstance(value, sympy.Basic):
        return False
    for power in value.atoms(sympy.Pow):
        if power.exp.is_negative and power.base.is_number and not power.base.is_Rational:
            with contextlib.suppress(Undecided):
                if sign(power.base) == 0:
                    return True
    return False


def enclose(value: Exact, bits: int = 64) -> tuple[Fraction, Fraction]:
    """Rational bounds ``(lo, hi)`` with lo <= value <= hi, from a rigorous interval evaluation."""
    value = as_exact(value)
    if isinstance(value, Fraction):
        return value, value
    interval = _with_bits(bits, _enclose, value)
    if interval is None:
        raise Undecided(f"cannot enclose {value} with {bits} bits")
    lo, hi = interval._mpi_  # the raw endpoints: converting via mpmath.mpf would round them
    return Fraction(*to_rational(lo)), Fraction(*to_rational(hi))


def to_float(value: Exact) -> float:
    """The nearest float to an exact value (for display only; never used to decide)."""
    value = as_exact(value)
    if isinstance(value, Fraction):
        return float(value)
    return _float_of(value)


@functools.lru_cache(maxsize=64)
def _enclosed(value: sympy.Expr) -> tuple[Fraction, Fraction]:
    """An enclosure of ``value`` whose midpoint is ``value`` to about 15 digits, kept for the float, the decimal and the
    brief form of one shown score: ``enclose(value, 80)`` where that is narrower than 2^-50 of the value, else with more
    bits, up to 4096 (a sum 5e-301 below zero, whose 80-bit enclosure was [-3e-39, 9e-39], was shown as 2.9e-39: a
    helper-73 finding); (0, 0) for a value certified 0 (``(log2(9) - 2 log2(3))^2 / 8`` was 2.5e-262, round 34)."""
    bits = 80
    lo, hi = enclose(value, bits)
    while (lo <= 0 <= hi or (hi - lo) * 2**50 > min(abs(lo), abs(hi))) and bits < _MAX_BITS:
        if lo <= 0 <= hi and breaks(value, "nonzero") is True:
            return Fraction(0), Fraction(0)
        bits = min(bits * 4, _MAX_BITS)
        try:
            lo, hi = enclose(value, bits)
        except Undecided:
            break
    return lo, hi


@functools.lru_cache(maxsize=64)
def _float_of(value: sympy.Expr) -> float:
    """:func:`to_float` of an expression, kept: a score is shown, summed up (:func:`brief`) and written out, each of
    which asked for its float (an enclosure of every term: 0.7 s at depth 10,000)."""
    lo, hi = _enclosed(value)
    if lo <= 0 <= hi and breaks(value, "nonzero") is True:  # certified 0 (where the enclosure could not say)
        return 0.0
    return float((lo + hi) / 2)


def to_str(value: Exact) -> str:
    """The exact value as text: ``3/5``, ``1 + 1/log2(3)``.

    >>> to_str(Fraction(3, 5)), to_str(1 + 1 / log2(3))
    ('3/5', '1 + 1/log2(3)')
    """
    value = as_exact(value)
    if isinstance(value, Fraction):
        return _digits(value.numerator) + ("" if value.denominator == 1 else "/" + _digits(value.denominator))
    with _unlimited_digits():
        return show(value)


def decimal(value: Exact, digits: int = 10) -> str:
    """``value`` to ``digits`` significant digits, computed from the exact value and never through a float, whose range
    would clamp 10**400 and flush 5 * 10**-401 to 0 (for display only; never used to decide).

    >>> decimal(Fraction(2, 3)), decimal(Fraction(10 ** 400)), decimal(Fraction(1, 2 * 10 ** 400)), decimal(1 / log2(3))
    ('0.6666666667', '1.000000000e+400', '5e-401', '0.6309297536')
    """
    value = as_exact(value)
    middle = value if isinstance(value, Fraction) else sum(_enclosed(value), Fraction(0)) / 2
    with decimal_module.localcontext() as context:
        context.prec, context.Emax, context.Emin = digits, decimal_module.MAX_EMAX, decimal_module.MIN_EMIN
        quotient = decimal_module.Decimal(middle.numerator) / decimal_module.Decimal(middle.denominator)
    return format(quotient, f".{digits}g")


BRIEF_DIGITS = 40
"""Past this many digits, :func:`brief` shows a fraction by its digit counts (the full form stays in JSON)."""
BRIEF_NODES = 400
"""Past this many nodes, :func:`brief` shows an expression by its size (printing one sorts its terms numerically:
half a minute for nDCG@3000)."""


def brief(value: Exact) -> str:
    """The exact value for people: :func:`to_str` unless a fraction has over BRIEF_DIGITS digits or an expression over
    BRIEF_NODES nodes, then its size and about what it is.

    >>> brief(Fraction(3, 5)), brief(Fraction(1, 7 ** 100))
    ('3/5', 'a fraction of 1 and 85 digits, about 3.09e-85')
    >>> brief(sum(1 / log2(i) for i in range(3, 300)))
    'an expression over 290 logarithms (1162 nodes), about 46.1'
    """
    value = as_exact(value)
    if isinstance(value, Fraction) and max(value.numerator.bit_length(), value.denominator.bit_length()) > BRIEF_DIGITS * 3.33:
        sizes = (len(_digits(abs(value.numerator))), len(_digits(value.denominator)))
        if max(sizes) > BRIEF_DIGITS:
            return f"a fraction of {sizes[0]} and {sizes[1]} digits, about {_about(value)}"
    if isinstance(value, sympy.Basic):
        nodes, logarithms = _shape(value)
        if nodes > BRIEF_NODES:
            try:
                near = to_float(value)
                if near == 0 or abs(near) < sys.float_info.min:  # 0, or below normal floats: the enclosure says which
                    lo, hi = _enclosed(value)
                    about = f", about {near:.3g}" if lo <= 0 <= hi else f", about {_about((lo + hi) / 2)}"
                else:
                    about = f", about {near:.3g}"
            except (Undecided, OverflowError):
                about = ""
            return f"an expression over {logarithms} logarithms ({nodes} nodes){about}"
    return to_str(value)


def _shape(value: sympy.Basic) -> tuple[int, int]:
    """The nodes of ``value``'s tree (as ``sympy.preorder_traversal`` visits them) and its distinct ``log2`` atoms, in one
    pass."""
    nodes, logarithms, stack = 0, set(), [value]
    while stack:
        node = stack.pop()
        nodes += 1
        if isinstance(node, log2):
            logarithms.add(node)
        stack.extend(node.args)
    return nodes, len(logarithms)


def _about(value: Fraction) -> str:
    """``value`` to three digits, also past floating point (``1e+5000``, ``7.94e-970``), from its integer logarithm.

    >>> _about(Fraction(10) ** 5000 / 3), _about(Fraction(4, 5) ** 10000), _about(-Fraction(1, 3))
    ('3.33e+4999', '7.94e-970', '-0.333')
    >>> _about(Fraction(9996, 10**403)), _about(Fraction(1234, 10**326))  # rounded up to 10; below normal floats
    ('1e-399', '1.23e-323')
    """
    try:
        near = float(value)
    except OverflowError:
        near = math.inf
    if value == 0 or (sys.float_info.min <= abs(near) < math.inf):
        return f"{near:.3g}"
    exponent = len(_digits(abs(value.numerator))) - len(_digits(value.denominator))  # past (or below) normal floats
    mantissa = abs(value) / Fraction(10) ** exponent
    while mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    while mantissa < 1:
        mantissa, exponent = mantissa * 10, exponent - 1
    rounded = Fraction(round(mantissa * 100), 100)  # three digits, exactly
    if rounded >= 10:
        rounded, exponent = rounded / 10, exponent + 1
    return f"{'-' if value < 0 else ''}{float(rounded):.3g}e{exponent:+d}"


def _digits(n: int) -> str:
    """``str(n)`` for any size (Python refuses over 4,300 digits by default: a guard against slow parsing, not printing)."""
    with _unlimited_digits():
        return str(n)


@contextlib.contextmanager
def _unlimited_digits() -> Iterator[None]:
    previous = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(previous)


class _Printer(StrPrinter):
    """SymPy's str printer, writing sums as the papers do: ``1 + 1/log2(3)``, ``1 - p``, ``i + 1``.

    A positive constant goes first, unless the sum has a bare symbol term (an index).
    """

    def _as_ordered_terms(self, expr, order=None):  # type: ignore[no-untyped-def]
        terms = super()._as_ordered_terms(expr, order)
        constant_first = not any(term.is_Symbol for term in terms)

        def place(term: sympy.Expr) -> int:
            if not term.is_Number:
                return 1
            return 0 if term > 0 and constant_first else 2

        return sorted(terms, key=place)


def show(expr: sympy.Basic) -> str:
    """Print a SymPy expression with constants first, as the papers write sums.

    The terms of a sum are printed in decreasing order of size, except in an expression of over BRIEF_NODES nodes: there
    they keep SymPy's own order of them (increasing arguments of the logarithms in a DCG), since sorting them by size
    evaluates every term (an nDCG at depth 10,000 took 12 s to print, now 0.1 s).
    """
    large = sum(1 for _ in itertools.islice(sympy.preorder_traversal(expr), BRIEF_NODES + 1)) > BRIEF_NODES
    return _Printer({"order": "none"} if large else {}).doprint(expr)


# -- interval evaluation ---------------------------------------------------------------

def _with_bits(bits: int, fn, *args):  # type: ignore[no-untyped-def]
    saved = mpmath.iv.prec
    mpmath.iv.prec = bits
    try:
        return fn(*args, bits)
    except _Straddle:
        return None
    except TypeError as error:  # a function with no rigorous enclosure here: no decision, not a crash
        raise Undecided(str(error)) from None
    finally:
        mpmath.iv.prec = saved


def _interval_sign(value: sympy.Expr, bits: int) -> int | None:
    interval = _with_bits(bits, _enclose, value)
    if interval is None:
        return None
    lo, hi = (Fraction(*to_rational(end)) for end in interval._mpi_)
    if lo > 0:
        return 1
    if hi < 0:
        return -1
    if lo == hi == 0:
        return 0
    return None


class _Straddle(Exception):
    """An intermediate interval contains 0 where a division needs it not to."""


def _enclose(e: sympy.Expr, bits: int):  # type: ignore[no-untyped-def]
    iv = mpmath.iv
    if e.is_Rational:
        return iv.mpf(int(e.p)) / iv.mpf(int(e.q))
    if isinstance(e, log2) and e.args[0].is_Integer:
        return _log_enclosure(int(e.args[0]), bits) / _log_enclosure(2, bits)
    if isinstance(e, sympy.log) and e.args[0].is_Integer:
        return _log_enclosure(int(e.args[0]), bits)
    if isinstance(e, (log2, sympy.log)) and len(e.args) == 1:
        ln = _widen(iv.log(_positive(_enclose(e.args[0], bits))), bits)
        return ln / _log_enclosure(2, bits) if isinstance(e, log2) else ln
    if isinstance(e, sympy.exp) or e is sympy.E:
        return _widen(iv.exp(_enclose(e.exp if e is not sympy.E else sympy.Integer(1), bits)), bits)
    if e is sympy.pi:
        return _widen(iv.pi, bits)
    if isinstance(e, sympy.Abs):
        inner = _enclose(e.args[0], bits)
        lo, hi = (Fraction(*to_rational(end)) for end in inner._mpi_)
        if lo >= 0:
            return inner
        if hi <= 0:
            return -inner
        return iv.make_mpf((mpmath.mpf(0)._mpf_, max(inner._mpi_[1], mpf_neg(inner._mpi_[0]), key=functools.cmp_to_key(mpf_cmp))))
    if e.is_Add and len(e.args) >= _MANY_TERMS:
        return _sum_enclosure(e.args, bits)
    if e.is_Add:
        total = iv.mpf(0)
        for term in e.args:
            total += _enclose(term, bits)
        return total
    if e.is_Mul:
        product = iv.mpf(1)
        for factor in e.args:
            product *= _enclose(factor, bits)
        return product
    if e.is_Pow and e.exp.is_Integer:
        base = _enclose(e.base, bits)
        n = int(e.exp)
        if n < 0:
            if base.a <= 0 <= base.b:
                raise _Straddle
            return iv.mpf(1) / base ** (-n)
        return base**n
    if e.is_Pow:  # roots and real powers: x^y = exp(y ln x), x > 0
        return _widen(iv.exp(iv.log(_positive(_enclose(e.base, bits))) * _enclose(e.exp, bits)), bits)
    if isinstance(e, (sympy.Max, sympy.Min)):
        parts = [_enclose(a, bits)._mpi_ for a in e.args]
        pick = max if isinstance(e, sympy.Max) else min
        order = functools.cmp_to_key(mpf_cmp)
        return iv.make_mpf((pick((p[0] for p in parts), key=order), pick((p[1] for p in parts), key=order)))
    raise TypeError(f"cannot bound {e} ({type(e).__name__}) exactly")


_MANY_TERMS = 32
"""From this many terms on, a sum is enclosed by :func:`_sum_enclosure` (a DCG at depth 10,000 has 10,000 terms, and
mpmath's intervals cost 100 microseconds each); shorter sums term by term, as the committed reports' values were."""
_TRIAL_FACTORS = 1 << 16
"""The largest factor tried when an integer is split into factors whose logarithms are added (the cofactor left is
enclosed whole)."""


def _sum_enclosure(terms: tuple[sympy.Expr, ...], bits: int):  # type: ignore[no-untyped-def]
    """An interval holding the sum of ``terms``: those :func:`fixed_point_sum` reads in fixed point, the rest by
    :func:`_enclose`. The fixed-point width is ``bits`` plus guard bits for the number of terms, plus the binary digits
    the largest coefficient lies below 1 (fixed point has no exponent: 10^-400 times a sum of weights was 4.3e-37, its
    units' size), rounded up to whole 64-bit words (so that a 64- and an 80-bit enclosure share the logarithms' bounds)."""
    below_one = max(0, -max((_exponent(t.as_coeff_Mul()[0]) for t in terms), default=0))
    width = -(-(bits + 2 * len(terms).bit_length() + 16 + below_one) // 64) * 64
    low, high, others = fixed_point_sum(terms, width)
    total = mpmath.iv.make_mpf((from_man_exp(low, -width), from_man_exp(high, -width)))
    for term in others:
        total += _enclose(term, bits)
    return total


def _exponent(coefficient: sympy.Expr) -> int:
    """About log2 of a rational ``coefficient`` (within 1); 0 for anything else."""
    if not coefficient.is_Rational or coefficient.p == 0:
        return 0
    return int(abs(coefficient.p)).bit_length() - int(coefficient.q).bit_length()


def fixed_point_sum(terms: tuple[sympy.Expr, ...], width: int) -> tuple[int, int, list[sympy.Expr]]:
    """Integers ``lo <= 2^width * S <= hi``, where S is the sum of the terms of the forms ``c / log2(n)`` (c rational, n an
    integer >= 2) and ``c`` (rational) among ``terms``, and the other terms, which it does not read.

    Each term is rounded outward on its own, in Python's integers: 1/log2(n) = ln 2 / ln n lies in
    [lo(ln 2) / hi(ln n), hi(ln 2) / lo(ln n)], where ln n is the sum of the logarithms of its factors (``m ln p`` for each
    ``p^m``), each from :func:`_log_enclosure` at ``width`` bits: the same trusted enclosure and margin as a single
    logarithm in :func:`_enclose`, and nothing else is trusted.

    >>> lo, hi, rest = fixed_point_sum((1 / log2(3), sympy.Rational(1, 3), log2(5)), 64)   # 1/log2(3) + 1/3, and log2(5)
    >>> 0 < hi - lo < 2**12, round(lo / 2**64, 12), rest
    (True, 0.964263086905, [log2(5)])
    """
    one = 1 << width
    low = high = 0
    others: list[sympy.Expr] = []
    for term in terms:
        coefficient, atom = term.as_coeff_Mul()
        if not coefficient.is_Rational:
            others.append(term)
            continue
        p, q = int(coefficient.p), int(coefficient.q)
        if atom is sympy.S.One:
            low += (p * one) // q
            high += -((-p * one) // q)
            continue
        bounds = _reciprocal_log_bounds(atom, width)
        if bounds is None:
            others.append(term)
            continue
        below, above = bounds if p >= 0 else bounds[::-1]  # c * x is smallest at x's upper bound when c < 0
        low += (p * below) // q
        high += -((-p * above) // q)
    return low, high, others


def reciprocal_log_bounds(n: int, width: int) -> tuple[int, int] | None:
    """Integers ``lo <= 2^width / log2(n) <= hi`` for an integer n >= 2, from the logarithms' enclosures at ``width``
    bits (see :func:`fixed_point_sum`); None where they cannot give one.

    >>> lo, hi = reciprocal_log_bounds(3, 64); 0 < hi - lo < 2**12, round(lo / 2**64, 12)
    (True, 0.630929753571)
    """
    return _reciprocal_bounds(n, width) if n >= 2 else None


def _reciprocal_log_bounds(atom: sympy.Expr, width: int) -> tuple[int, int] | None:
    """For ``atom`` = 1/log2(n), n an integer >= 2: :func:`reciprocal_log_bounds`; else None."""
    if not (atom.is_Pow and atom.exp is sympy.S.NegativeOne and isinstance(atom.base, log2)):
        return None
    n = atom.base.args[0]
    if not (isinstance(n, Integer) and n.p > 1):
        return None
    return _reciprocal_bounds(int(n), width)


@functools.lru_cache(maxsize=65536)
def _reciprocal_bounds(n: int, width: int) -> tuple[int, int] | None:
    two_low, two_high = _log_fixed(2, width)
    low = high = 0
    for factor, times in _factors(n):
        below, above = _log_fixed(factor, width)
        low, high = low + times * below, high + times * above
    if low <= 0 or two_low <= 0:
        return None
    return (two_low << width) // high, -((-two_high << width) // low)


@functools.lru_cache(maxsize=65536)
def _log_fixed(n: int, width: int) -> tuple[int, int]:
    """Integers lo <= 2^width ln n <= hi, from :func:`_log_enclosure` at ``width`` bits."""
    saved = mpmath.iv.prec
    mpmath.iv.prec = width
    try:
        lo, hi = (Fraction(*to_rational(end)) for end in _log_enclosure(n, width)._mpi_)
    finally:
        mpmath.iv.prec = saved
    return math.floor(lo * (1 << width)), math.ceil(hi * (1 << width))


@functools.lru_cache(maxsize=65536)
def _factors(n: int) -> tuple[tuple[int, int], ...]:
    """``n`` as ``((p, m), ...)`` with n = prod p^m: its factors up to :data:`_TRIAL_FACTORS` by trial division, and the
    cofactor left (prime or not: only the product matters)."""
    found: list[tuple[int, int]] = []
    factor = 2
    while factor * factor <= n and factor <= _TRIAL_FACTORS:
        if n % factor == 0:
            times = 0
            while n % factor == 0:
                n, times = n // factor, times + 1
            found.append((factor, times))
        factor += 1 if factor == 2 else 2
    if n > 1:
        found.append((n, 1))
    return tuple(found)


def _positive(interval):  # type: ignore[no-untyped-def]
    """``interval``, which a logarithm or a real power needs strictly positive."""
    if interval.a <= 0:
        raise _Straddle
    return interval


def _widen(interval, bits: int):  # type: ignore[no-untyped-def]
    """``interval`` widened by 2^(8 - bits) (|x| + 1) on each side: the margin every
    transcendental function of mpmath.iv gets here, as logarithms do."""
    iv = mpmath.iv
    margin = (iv.mpf(2) ** (_LOG_MARGIN_BITS - bits) * (abs(interval) + 1))._mpi_[1]
    return interval + iv.make_mpf((mpf_neg(margin), margin))


@functools.lru_cache(maxsize=4096)
def _log_enclosure(n: int, bits: int):  # type: ignore[no-untyped-def]
    """ln n, widened by 2^(8 - bits) (|ln n| + 1) on each side beyond mpmath's directed rounding."""
    iv = mpmath.iv
    inner = iv.log(iv.mpf(n))
    margin = (iv.mpf(2) ** (_LOG_MARGIN_BITS - bits) * (abs(inner) + 1))._mpi_[1]
    return inner + iv.make_mpf((mpf_neg(margin), margin))


# -- formal identity -------------------------------------------------------------------

@functools.cache
def _prime_log(p: int) -> sympy.Symbol:
    return sympy.Symbol(f"L{p}", positive=True)


def _expand_log(e: sympy.Expr) -> sympy.Expr:
    """log2(n) as sum m_p log2(p) over the prime factors of the rational n (log2(2) = 1);
    ln n = ln2 * log2(n)."""
    n = sympy.Rational(e.args[0])
    # factoring is bounded (an 80-digit semiprime took minutes, a twenty-fourth hostile review): a cofactor left whole gets
    # its own logarithm symbol, and a formal zero over independent symbols is still a zero (only "not zero" proves nothing)
    factors = {**sympy.factorint(int(n.p), limit=_FACTOR_LIMIT)}
    for p, m in sympy.factorint(int(n.q), limit=_FACTOR_LIMIT).items():
        factors[p] = factors.get(p, 0) - m
    in_base_2 = sum((Integer(m) * (1 if p == 2 else _prime_log(p)) for p, m in factors.items()), Integer(0))
    return in_base_2 if isinstance(e, log2) else _natural_scale() * in_base_2


_FACTOR_LIMIT = 10**5
"""Trial division (and the matching effort of SymPy's other methods) when a logarithm's argument is factored."""


@functools.lru_cache(maxsize=1)
def _natural_scale() -> sympy.Symbol:
    """ln 2, as a symbol: ln n = ln 2 * log2 n, so natural logs share the log2 basis."""
    return sympy.Symbol("ln2", positive=True)
