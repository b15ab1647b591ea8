"""The symbolic forms of a metric: SymPy expressions built from the same formula.

* :class:`SymbolicAlgebra` fixes the depth k and makes each grade a symbol: ``b_i``
  (0 or 1) for binary metrics, ``r_i`` in [0, 1] for graded ones; ``R`` is a symbol, the
  qrel grades of the ideal ranking are ``g_i`` (graded) or 1 (binary), parameters such
  as ``p`` are symbols.
* :class:`ClosedFormAlgebra` also makes the depth a symbol ``k``: grades become
  ``b[i]``/``r[i]``, sums become ``Sum`` and products ``Product``; weights stay functions
  of the index, e.g. ``1/log2(i + 1)``. Formulas that need what SymPy cannot write for a
  symbolic k (a maximum over k grades, a sort of k graded values) have no closed form.

Every division is recorded: the form is defined exactly where all its recorded
denominators are nonzero.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy
from sympy import Integer, Piecewise

from . import exact
from .algebra import Algebra, Undefined
from .errors import NotExpressible
from .situation import Situation

MAX_GRADED_SORT_DEPTH = 10
"""Largest k for which the ideal ordering of k graded symbols is written out (2^k terms)."""


class MaxOver(sympy.Function):
    """``MaxOver(Lambda(i, f), lo, hi)``: the largest f(i) for lo <= i <= hi (0 when the range is empty).

    The closed form of a maximum over a symbolic number of terms; ``doit`` writes it out
    once the bounds are integers.
    """

    nargs = 3

    def doit(self, **hints: object) -> sympy.Expr:
        body, lo, hi = (a.doit(**hints) if hints.get("deep", True) else a for a in self.args)
        if lo.is_Integer and hi.is_Integer:
            terms = [body(i) for i in range(int(lo), int(hi) + 1)]
            return sympy.Max(*terms) if terms else Integer(0)
        return self.func(body, lo, hi)


class OrderStatistic(sympy.Function):
    """``OrderStatistic(j, r, k)``: the j-th largest of the grades r[1], ..., r[k] (0 when j > k).

    The closed form of a sort of a symbolic number of grades; ``doit`` writes it out (as
    the largest minimum over j-element subsets) once j and k are integers.
    """

    nargs = 3

    def doit(self, **hints: object) -> sympy.Expr:
        j, base, k = self.args
        if j.is_Integer and k.is_Integer:
            if int(j) > int(k):
                return Integer(0)
            grades = [base[i] for i in range(1, int(k) + 1)]
            return sympy.Max(*(sympy.Min(*subset, evaluate=False) for subset in itertools.combinations(grades, int(j))), evaluate=False)
        return self


@dataclass(frozen=True)
class SymbolicForm:
    """A metric's score as a SymPy expression, with where it is defined and how to evaluate it.

    ``params`` maps each parameter symbol to the value the measure was bound with;
    ``expr`` itself keeps the parameter symbolic, so proofs can hold for every p.
    """

    measure: str
    k: int | sympy.Symbol
    expr: sympy.Expr
    denominators: tuple[tuple[sympy.Expr, str], ...]
    binary: bool
    R: sympy.Symbol
    params: Mapping[sympy.Symbol, Fraction | int] = field(default_factory=dict)
    grade_base: sympy.IndexedBase | None = None
    qrel_base: sympy.IndexedBase | None = None

    @property
    def defined(self) -> sympy.Basic:
        """The condition under which the form is defined: every denominator nonzero."""
        return sympy.And(*(sympy.Ne(d, 0) for d, _ in self.denominators))

    @property
    def closed(self) -> bool:
        """Whether the depth is symbolic (a closed form for every k)."""
        return isinstance(self.k, sympy.Symbol)

    def at(self, situation: Situation) -> exact.Exact | Undefined:
        """The exact score of ``situation``, from this form alone (parameters as bound)."""
        if not self.closed and situation.k != self.k:
            raise ValueError(f"this form is for k = {self.k}, the situation has k = {situation.k}")
        for denominator, why in self.denominators:
            if exact.sign(self._substitute(denominator, situation)) == 0:
                return Undefined(why)
        return self._substitute(self.expr, situation)

    def _substitute(self, expr: sympy.Expr, situation: Situation) -> exact.Exact:
        scalars: dict[sympy.Basic, Any] = {self.R: sympy.Integer(situation.R)}
        scalars.update({s: _rational(v) for s, v in self.params.items()})
        if self.closed:
            scalars[self.k] = sympy.Integer(situation.k)
            expr = expr.xreplace(scalars).doit()
        else:
            expr = expr.xreplace(scalars)
        return exact.as_exact(expr.xreplace(self._grade_values(expr, situation)))

    def _grade_values(self, expr: sympy.Expr, situation: Situation) -> dict[sympy.Basic, sympy.Rational]:
        values: dict[sympy.Basic, sympy.Rational] = {}
        for atom in expr.atoms(sympy.Symbol, sympy.Indexed):
            name, index = _grade_index(atom)
            if name in ("r", "b"):
                values[atom] = _rational(situation.grade(index))
            elif name == "g":
                values[atom] = _rational(situation.qrels[index - 1] if index <= situation.R else 1)
        return values

    def __str__(self) -> str:
        return exact.show(self.expr)


def _grade_index(atom: sympy.Basic) -> tuple[str, int]:
    if isinstance(atom, sympy.Indexed) and atom.indices[0].is_Integer:
        return str(atom.base), int(atom.indices[0])
    name, _, index = str(atom).partition("_")
    return (name, int(index)) if index.isdigit() else ("", 0)


def _rational(value: Fraction | int) -> sympy.Rational:
    value = Fraction(value)
    return sympy.Rational(value.numerator, value.denominator)


class _Symbolic(Algebra):
    def __init__(self, binary: bool, params: Mapping[str, Mapping[str, bool]]) -> None:
        self.binary = binary
        self.R = sympy.Symbol("R", integer=True, nonnegative=True)
        self.denominators: list[tuple[sympy.Expr, str]] = []
        self._params = {name: sympy.Symbol(name, **assumptions) for name, assumptions in params.items()}

    def param(self, name: str) -> sympy.Symbol:
        return self._params[name]

    def log2(self, x: Any) -> sympy.Expr:
        return exact.log2(x)

    def num(self, q: int | Fraction) -> sympy.Rational:
        return _rational(q)

    def const(self, e: sympy.Expr) -> sympy.Expr:
        return sympy.sympify(e)

    def unjudged(self, i: Any) -> sympy.Integer:
        return Integer(0)  # symbolic forms describe fully judged situations

    def min(self, a: Any, b: Any) -> Any:
        return min(a, b) if isinstance(a, int) and isinstance(b, int) else sympy.Min(a, b)

    def max(self, a: Any, b: Any) -> Any:
        return max(a, b) if isinstance(a, int) and isinstance(b, int) else sympy.Max(a, b)

    def div(self, a: Any, b: Any, why: str = "") -> Any:
        b = sympy.sympify(b)
        if not (b.is_number and b.is_nonzero):
            self.denominators.append((b, why or "a denominator is 0"))
        return a / b


class SymbolicAlgebra(_Symbolic):
    """Concrete depth k, symbolic grades ``b_i`` (binary) or ``r_i`` (graded), R and parameters."""

    def __init__(self, k: int, binary: bool, params: Mapping[str, Mapping[str, bool]]) -> None:
        super().__init__(binary, params)
        self.k = k

    def r(self, i: int) -> sympy.Symbol:
        if self.binary:
            return sympy.Symbol(f"b_{i}", integer=True, nonnegative=True)
        return sympy.Symbol(f"r_{i}", nonnegative=True)

    def g(self, i: int) -> sympy.Expr:
        grade = Integer(1) if self.binary else sympy.Symbol(f"g_{i}", positive=True)
        return Piecewise((grade, self.R >= i), (0, True))

    def r_sorted(self, i: int) -> sympy.Expr:
        grades = [self.r(j) for j in range(1, self.k + 1)]
        if self.binary:
            return Piecewise((1, sympy.Add(*grades) >= i), (0, True))
        if self.k > MAX_GRADED_SORT_DEPTH:
            raise NotExpressible(f"the ideal ordering of {self.k} graded symbols is only written out for k <= {MAX_GRADED_SORT_DEPTH}")
        # the i-th largest of the grades is the largest minimum over i-element subsets
        return sympy.Max(*(sympy.Min(*subset, evaluate=False) for subset in itertools.combinations(grades, i)), evaluate=False)

    def _bounded(self, lo: int, hi: Any, f: Callable[[int], Any], unit: int) -> list[Any]:
        if isinstance(hi, int):
            return [f(i) for i in range(lo, hi + 1)]
        return [Piecewise((f(i), sympy.Ge(hi, i)), (unit, True)) for i in range(lo, self.k + 1)]

    def sum(self, lo: int, hi: Any, f: Callable[[int], Any]) -> sympy.Expr:
        return sympy.Add(*self._bounded(lo, hi, f, 0))

    def prod(self, lo: int, hi: Any, f: Callable[[int], Any]) -> sympy.Expr:
        return sympy.Mul(*self._bounded(lo, hi, f, 1))

    def max_over(self, lo: int, hi: int, f: Callable[[int], Any]) -> sympy.Expr:
        return sympy.Max(*(f(i) for i in range(lo, hi + 1))) if hi >= lo else Integer(0)


class ClosedFormAlgebra(_Symbolic):
    """Symbolic depth ``k``: grades ``b[i]``/``r[i]``, sums as ``Sum``, products as ``Product``."""

    def __init__(self, binary: bool, params: Mapping[str, Mapping[str, bool]]) -> None:
        super().__init__(binary, params)
        self.k = sympy.Symbol("k", integer=True, positive=True)
        self.grades = sympy.IndexedBase("b" if binary else "r")
        self.qrel_grades = sympy.IndexedBase("g")
        self._indices = 0

    def _index(self) -> sympy.Symbol:
        name = "ijlmnst"[self._indices % 7] + ("" if self._indices < 7 else str(self._indices // 7))
        self._indices += 1
        return sympy.Symbol(name, integer=True, positive=True)

    def r(self, i: Any) -> sympy.Expr:
        return self.grades[i]

    def g(self, i: Any) -> sympy.Expr:
        grade = Integer(1) if self.binary else self.qrel_grades[i]
        return Piecewise((grade, sympy.Le(i, self.R)), (0, True))

    def r_sorted(self, i: Any) -> sympy.Expr:
        if not self.binary:
            return OrderStatistic(i, self.grades, self.k)
        return Piecewise((1, sympy.Le(i, self.sum(1, self.k, self.r))), (0, True))

    def sum(self, lo: Any, hi: Any, f: Callable[[Any], Any]) -> sympy.Expr:
        i = self._index()
        return sympy.Sum(f(i), (i, lo, hi))

    def prod(self, lo: Any, hi: Any, f: Callable[[Any], Any]) -> sympy.Expr:
        i = self._index()
        return sympy.Product(f(i), (i, lo, hi))

    def max_over(self, lo: Any, hi: Any, f: Callable[[Any], Any]) -> sympy.Expr:
        i = self._index()
        return MaxOver(sympy.Lambda(i, f(i)), lo, hi)
