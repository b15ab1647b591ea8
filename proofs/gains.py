"""Gains: a weighted sum over f(x_i), for a gain f of the grade, such as nDCG's exponential gain.

A term ``w(i) * F(x_i)`` whose grade enters only through a function F of the grade alone
is a weighted sum over the gains ``f(x_i) = F(x_i) / F(1)`` (the weight takes the factor
F(1)). The lemmas of :mod:`proofs.weighted` are stated for grades in [0, 1]; they hold of
the gains when f maps the grades of a situation to the grades of a situation: f(0) = 0,
f(1) = 1 and f strictly increasing on [0, 1] make the gains lie in [0, 1], keep the order
of the grades (so the ideal and the sorted top k stay sorted, and a larger grade a larger
gain), and make a gain positive exactly where the grade is (so R and the relevant
documents are the same). :func:`recognise` finds F, and :func:`increasing` proves the
order (SymPy's sign of the derivative on (0, 1), for an F that is continuous on the reals
by its form: sums and products of powers with nonnegative integer exponents, of
exponentials of positive bases, and of ``exp``).

>>> x = sympy.IndexedBase("x")[1]
>>> weight, gain = recognise((2 ** (2 * x) - 1) / sympy.log(3), x)
>>> weight, gain
(3/log(3), 2**(2*x)/3 - 1/3)
>>> increasing(gain)
"f'(x) = 2*2**(2*x)*log(2)/3 > 0 on (0, 1) (SymPy)"
>>> recognise((2 ** x) / sympy.log(3), x) is None   # F(0) = 1: a nonrelevant document would gain
True

Reference: Burges et al., Learning to Rank using Gradient Descent, ICML 2005 (the exponential gain 2^g - 1).
"""

from __future__ import annotations

import sympy

from irprops.metrics.exact import breaks, certainly
from irprops.metrics.symbolic import MaxOver, OrderStatistic
from irprops.metrics.timing import limited

from .signs import SYMPY_SECONDS, is_positive

__all__ = ["GAIN", "X", "increasing", "recognise"]

X = sympy.Symbol("x", real=True)
"""The grade variable of a gain f(x)."""

GAIN = ("gains: a gain f with f(0) = 0, f(1) = 1, strictly increasing on [0, 1] maps the grades of a situation to the "
        "grades of a situation (in [0, 1], in the same order, positive exactly where the grades are), so every lemma "
        "stated for all grades holds of the gains f(x_i); f' > 0 on (0, 1) and f continuous make f strictly increasing "
        "(mean value theorem)")
"""The meta-step a proof over gains rests on, for its trusted base."""

MAX_BITS = 64
"""The largest size (in bits) of a number in a gain, and of an exponent's coefficient: larger ones are not recognised
(2 ** (10 ** 9 * x) at x = 1 is a number of a billion bits)."""
MAX_EXPONENT = 1024
"""The largest coefficient of an exponent in a gain (2 ** (M x) for a scale of M up to 1024 grades)."""


def recognise(term: sympy.Expr, grade: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr] | None:
    """``(w, f)`` when ``term`` is ``w * F(grade)`` with w free of the grade and F a continuous function of the grade
    alone (no rank, depth, R or parameter) with F(0) = 0 and F(1) > 0: then w = w * F(1) and f(x) = F(x) / F(1), in
    :data:`X`. None otherwise (a linear term ``w * grade`` included: its gain is the grade itself), and None where SymPy
    or the interval arithmetic gives up on it (a number too large for memory)."""
    try:
        return _recognised(term, grade)
    except (MemoryError, OverflowError, RecursionError, ValueError, TypeError, ZeroDivisionError):
        return None


def _recognised(term: sympy.Expr, grade: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr] | None:
    if isinstance(term, sympy.Piecewise):
        return None
    independent, dependent = sympy.factor_terms(term).as_independent(grade, as_Add=False)
    if dependent == grade or not dependent.has(grade) or independent.has(grade):
        return None
    F = dependent.xreplace({grade: X})
    if F.has(sympy.Indexed, OrderStatistic, MaxOver, sympy.Sum, sympy.Product) or F.free_symbols != {X}:
        return None
    if not _continuous(F) or not _modest(F):
        return None
    at_zero, at_one = F.xreplace({X: sympy.Integer(0)}), F.xreplace({X: sympy.Integer(1)})
    if not (at_zero.is_number and at_one.is_number) or breaks(at_zero, "nonzero") is not True:
        return None
    if not certainly(at_one, "positive"):
        return None
    return independent * at_one, F / at_one


def _continuous(F: sympy.Expr) -> bool:
    """Whether F is built, where it depends on x, from sums, products, x ** n (n a nonnegative integer), b ** (...) (b a
    positive number) and exp: continuous on the reals (no pole, no jump, no logarithm of 0)."""
    for node in sympy.preorder_traversal(F):
        if not node.has(X):
            if not (node.is_number or node == X):
                return False
            continue
        if node == X or isinstance(node, (sympy.Add, sympy.Mul, sympy.exp)):
            continue
        if isinstance(node, sympy.Pow):
            base, exponent = node.args
            if not base.has(X) and base.is_number and base.is_positive is True:
                continue
            if exponent.is_Integer and exponent >= 0:
                continue
        return False
    return True


def _modest(F: sympy.Expr) -> bool:
    """Whether every rational number in F has at most MAX_BITS bits, and every exponent (of a power, or the argument of
    an exp) that varies with x is a polynomial in x with coefficients at most MAX_EXPONENT and no exponential in it (a
    tower exp(exp(2^62 x)) has no value at x = 1 that fits in memory), and every fixed exponent is at most MAX_EXPONENT."""
    if F.has(sympy.Float):
        return False
    if any(max(abs(int(n.p)), int(n.q)).bit_length() > MAX_BITS for n in F.atoms(sympy.Rational)):
        return False
    for node in sympy.preorder_traversal(F):
        if isinstance(node, sympy.Pow):
            exponent = node.exp
        elif isinstance(node, sympy.exp):
            exponent = node.args[0]
        else:
            continue
        if exponent.has(X):
            if exponent.has(sympy.exp) or any(isinstance(a, sympy.Pow) and a.exp.has(X) for a in sympy.preorder_traversal(exponent)):
                return False
            if not exponent.is_polynomial(X) or any(abs(c) > MAX_EXPONENT for c in sympy.Poly(exponent, X).coeffs()):
                return False
        elif exponent.is_Integer and abs(exponent) > MAX_EXPONENT:
            return False
    return True


@limited(SYMPY_SECONDS, None)
def increasing(f: sympy.Expr) -> str | None:
    """How SymPy shows f' > 0 on (0, 1) (x = 1 / (1 + q) for q > 0), or None (not shown within the time limit)."""
    derivative = sympy.diff(f, X)
    q = sympy.Symbol("q", positive=True)
    if is_positive(derivative.xreplace({X: 1 / (1 + q)})):
        return f"f'(x) = {derivative} > 0 on (0, 1) (SymPy)"
    return None
