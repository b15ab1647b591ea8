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

import functools
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy
from sympy import Integer, Piecewise

from . import exact
from .algebra import Algebra, Undefined, declared_parameter, exact_const, exact_exp2, exact_int, exact_log2, exact_number
from .errors import NotExpressible
from .exactnumbers import ExactFraction, ExactInt, is_exact_number
from .situation import Situation
from .tracing import Traced, untrace
from .watching import RECORDING
from .writeout import written_out

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
            if not 1 <= int(j) <= int(k):
                return Integer(0)
            if int(k) > MAX_GRADED_SORT_DEPTH:
                return self  # C(k, j) subsets: past this depth a form's value at a situation sorts the grades (SymbolicForm.at)
            grades = [base[i] for i in range(1, int(k) + 1)]
            return sympy.Max(*(sympy.Min(*subset, evaluate=False) for subset in itertools.combinations(grades, int(j))), evaluate=False)
        return self


class Relevant(sympy.Function):
    """``Relevant(x)``: the indicator [x > 0] of a grade x >= 0 (``m.relevant(i)`` of a graded metric).

    It is 1 or 0 once SymPy knows the sign of x; over the grade symbols it stays a function, an
    integer in {0, 1} that is 0 exactly where the grade is 0.

    >>> Relevant(sympy.Rational(1, 3)), Relevant(0), Relevant(sympy.Symbol("r_1", nonnegative=True)).is_nonnegative
    (1, 0, True)
    """

    nargs = 1

    @classmethod
    def eval(cls, x: sympy.Expr) -> sympy.Expr | None:
        if x.is_positive:
            return Integer(1)
        if x.is_nonpositive:
            return Integer(0)
        return None

    def _eval_is_integer(self) -> bool:
        return True

    def _eval_is_nonnegative(self) -> bool:
        return True

    def _eval_is_finite(self) -> bool:
        return True


N_SYMBOL = sympy.Symbol("N", integer=True, nonnegative=True)
"""The collection's number of judged nonrelevant documents, in every symbolic form that reads it."""


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
    mark_base: sympy.IndexedBase | None = None
    """The closed form's unjudged marks ``u[i]`` (each 0 or 1; 1 forces the grade at i to 0)."""
    reads_unjudged: bool = False
    """The formula reads unjudged marks: a form at a concrete depth has a 0/1 symbol ``u_i`` for each mark it reads, the
    closed form an indexed ``u[i]``. Only a proof that models the marks (the k <= K ones, and a fold's induction, whose
    steps take each rank's mark as an input) may rest on such a form."""
    nonrelevant: sympy.Symbol | None = None
    """The symbol N when the formula reads the collection's number of judged nonrelevant documents (``m.N``): only the
    proofs for k <= K model it (with the facts every situation satisfies), so no proof for every k may rest on the form."""
    unmodelled: tuple[str, ...] = ()
    """What the form does not say about the metric (a divisor inside a sum that may be 0): no proof may rest on it."""

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
        if self.nonrelevant is not None and situation.nonrelevant is None:
            return Undefined("the number of judged nonrelevant documents N is not known (give it: --N)")
        for denominator, why in self.denominators:
            value = self._substitute(denominator, situation)
            if exact.divides_by_zero(value):  # a weight with no value among those summed (round 35)
                return Undefined("a denominator is 0")
            if exact.sign(value) == 0:
                return Undefined(why)
        value = self._substitute(self.expr, situation)
        # log(0), log2(0), 0 / 0: undefined, as the exact run says (Measure.exact); a division by a zero SymPy cannot see
        # first, which SymPy's floats may call "not real"
        missing = "a denominator is 0" if exact.divides_by_zero(value) else exact.no_value(value)
        return value if missing is None else Undefined(missing)

    def in_R(self, expr: sympy.Expr, situation: Situation) -> sympy.Expr:
        """``expr`` (a denominator of this form, say) with the situation's depth, grades, marks and the parameters put
        in, and R left symbolic: where it is 0 as R varies, the form calls the metric undefined."""
        scalars: dict[sympy.Basic, Any] = {s: _rational(v) for s, v in self.params.items()}
        scalars.update(self._count_of(situation))
        if self.closed:
            scalars[self.k] = sympy.Integer(situation.k)
        expr = sympy.sympify(expr).xreplace(scalars)
        if self.closed:
            expr = expr.doit()
        return expr.xreplace(self._grade_values(expr, situation))  # type: ignore[no-any-return]

    def _substitute(self, expr: sympy.Expr, situation: Situation) -> exact.Exact:
        scalars: dict[sympy.Basic, Any] = {self.R: sympy.Integer(situation.R), **self._count_of(situation)}
        scalars.update({s: _rational(v) for s, v in self.params.items()})
        if not self.closed:
            expr = expr.xreplace(scalars)
            return exact.as_exact(expr.xreplace(self._grade_values(expr, situation)))
        scalars[self.k] = sympy.Integer(situation.k)
        # term by term with the grades put in at the leaves: SymPy's doit would sum symbolic terms first (a 300-factor
        # product inside a sum ran for minutes)
        value = written_out(expr.xreplace(scalars), lambda node: self._known(node, situation)).doit()
        return exact.as_exact(value.xreplace(self._grade_values(value, situation)))

    def _count_of(self, situation: Situation) -> dict[sympy.Basic, sympy.Basic]:
        """N's value in ``situation`` (nan where it is not known: the metric has no value there, as in the exact run)."""
        if self.nonrelevant is None:
            return {}
        N = situation.nonrelevant
        return {self.nonrelevant: sympy.nan if N is None else sympy.Integer(N)}

    def _known(self, node: sympy.Basic, situation: Situation) -> sympy.Basic | None:
        """The value of a grade, mark, sort or maximum whose ranks are integers, for :func:`written_out`."""
        if isinstance(node, (sympy.Indexed, sympy.Symbol)):
            value = self._grade_value(node, situation)
            return node if value is None else value
        if isinstance(node, OrderStatistic) and node.args[0].is_Integer and node.args[2].is_Integer:
            return _largest(situation, int(node.args[0]), int(node.args[2]))  # a sort, not k^2 Max
        if isinstance(node, MaxOver) and node.args[1].is_Integer and node.args[2].is_Integer:
            return self._maximum(node, situation)
        return None

    def _maximum(self, maximum: MaxOver, situation: Situation) -> sympy.Expr:
        """A maximum over given ranks, each term written out with its grades before SymPy compares the terms."""
        body, lo, hi = maximum.args
        terms = [written_out(body(i), lambda node: self._known(node, situation)).doit() for i in range(int(lo), int(hi) + 1)]
        if terms and all(t.is_number and exact.no_value(t) is None for t in terms):
            # numbers: compared exactly, one by one (SymPy's Max compares every pair, minutes for 1000 rationals: a seventeenth
            # hostile review's max over k prefix precisions ran past every time limit)
            return functools.reduce(lambda a, b: b if exact.compare(b, a) > 0 else a, terms)  # type: ignore[no-any-return]
        return sympy.Max(*terms) if terms else Integer(0)

    def _grade_values(self, expr: sympy.Expr, situation: Situation) -> dict[sympy.Basic, sympy.Rational]:
        values = {atom: self._grade_value(atom, situation) for atom in expr.atoms(sympy.Symbol, sympy.Indexed)}
        return {atom: value for atom, value in values.items() if value is not None}

    def _grade_value(self, atom: sympy.Basic, situation: Situation) -> sympy.Rational | None:
        """The value of a grade (``r``, ``b``), mark (``u``) or ideal grade (``g``) at an integer rank; None for others."""
        name, index = _grade_index(atom)
        if name in ("r", "b"):
            return _rational(situation.grade(index))
        if name == "u":
            return Integer(int(situation.unjudged(index)))
        if name == "g":
            return _rational(situation.qrels[index - 1] if index <= situation.R else 1)
        return None

    def __str__(self) -> str:
        return exact.show(self.expr)


def _largest(situation: Situation, j: int, k: int) -> sympy.Rational:
    """The j-th largest grade of the top k of ``situation`` (0 when j > k), as OrderStatistic(j, grades, k) means."""
    ordered = sorted((situation.grade(i) for i in range(1, k + 1)), reverse=True)
    return _rational(ordered[j - 1]) if 1 <= j <= k else Integer(0)


def _grade_index(atom: sympy.Basic) -> tuple[str, int]:
    if isinstance(atom, sympy.Indexed) and atom.indices[0].is_Integer:
        return str(atom.base), int(atom.indices[0])
    name, _, index = str(atom).partition("_")
    return (name, int(index)) if index.isdigit() else ("", 0)


def _rational(value: Fraction | int) -> sympy.Rational:
    value = Fraction(value)
    return sympy.Rational(value.numerator, value.denominator)


class Parameter(sympy.Symbol):
    """A metric parameter in a symbolic form: a symbol no other symbol equals, whatever its name.

    SymPy symbols with the same name and assumptions are one symbol. A parameter named ``k`` or ``t``
    would be the depth, or a rank variable of the provers, and ``m.k - m.param("k")`` would be 0. A
    symbol of its own class is equal only to itself (and prints as its name).

    >>> Parameter("k", integer=True, positive=True) == sympy.Symbol("k", integer=True, positive=True)
    False
    """


class _Symbolic(Algebra):
    """Shared code of the symbolic backends.

    Everything symbolic the formula sees (ranks and depths that are symbols, grades, R,
    parameters) is :class:`~irprops.metrics.tracing.Traced`: the formula computes with it
    but cannot branch on it, so the form is the metric. Values coming back from the formula
    are untraced at each operation.
    """

    def __init__(self, binary: bool, params: Mapping[str, Mapping[str, bool]]) -> None:
        self.binary = binary
        self.R_symbol = sympy.Symbol("R", integer=True, nonnegative=True)
        self.denominators: list[tuple[sympy.Expr, str]] = []
        self.reads_unjudged = False
        self.reads_nonrelevant = False
        self._params = {name: Parameter(name, **assumptions) for name, assumptions in params.items()}

    @property
    def R(self) -> Traced:  # type: ignore[override]
        return Traced(self.R_symbol, "the number of relevant documents R")

    @property
    def N(self) -> Traced:
        self.reads_nonrelevant = True  # the proofs must know: only the forms at concrete depths model it
        return Traced(N_SYMBOL, "the number of judged nonrelevant documents N")

    def param(self, name: str) -> Traced:
        return Traced(declared_parameter(self._params, name), f"the parameter {name}")

    # A value that is a number in both runs has the exact run's type here too (Fraction, ExactInt, the exact
    # log2): Python treats Fraction and SymPy's numbers differently (Fraction(1) // 1 is an int, so / 10 then
    # gives a float; True == 1 but sympy.true != 1), and formulas must not be able to tell the runs apart.

    def log2(self, x: Any) -> Any:
        if is_exact_number(x):
            return exact_log2(x)
        return _retrace(exact.log2(untrace(x)), x)

    def exp2(self, x: Any) -> Any:
        if is_exact_number(x):
            return exact_exp2(x)
        return _retrace(sympy.Pow(2, untrace(x)), x)

    def num(self, q: Any) -> Any:
        if isinstance(q, Traced):
            return q  # m.num(i) of a symbolic rank: already exact
        if isinstance(q, sympy.Basic) and not q.is_Rational:
            return _retrace(q, q)
        return exact_number(q)

    def const(self, e: Any) -> Any:
        if is_exact_number(e) or (isinstance(e, sympy.Basic) and not e.free_symbols):
            return exact_const(e)
        return _retrace(sympy.sympify(untrace(e)), e)

    def unjudged(self, i: Any) -> Any:
        self.reads_unjudged = True  # the proofs must know: only the forms at concrete depths model the marks
        return self._mark(i)

    def _mark(self, i: Any) -> Any:
        return ExactFraction(0)  # the closed form: fully judged situations only

    def relevant(self, i: Any) -> Any:
        grade = untrace(self.r(i))
        if is_exact_number(grade):
            return ExactFraction(1 if grade > 0 else 0)  # no rank there: 0, of the exact run's type (m.num's Fraction)
        return Traced(grade if self.binary else Relevant(grade), "the relevance of a grade")  # [b > 0] is b

    def min(self, a: Any, b: Any) -> Any:
        a, b = untrace(a), untrace(b)
        return exact_int(min(a, b)) if is_exact_number(a) and is_exact_number(b) else Traced(sympy.Min(a, b), "a minimum")

    def max(self, a: Any, b: Any) -> Any:
        a, b = untrace(a), untrace(b)
        return exact_int(max(a, b)) if is_exact_number(a) and is_exact_number(b) else Traced(sympy.Max(a, b), "a maximum")

    def div(self, a: Any, b: Any, why: str = "") -> Any:
        if is_exact_number(a) and is_exact_number(b) and b != 0:
            return ExactFraction(a) / b
        b = sympy.sympify(untrace(b))
        if not (b.is_number and exact.certainly(b, "nonzero")):  # SymPy calls log2(9) - 2 log2(3) nonzero
            self.denominators.append((b, why or "a denominator is 0"))
        return _retrace(untrace(a) / b, a)


def _only_where(guard: sympy.Basic, value: Any, condition: str, construct: str) -> tuple[Any, str, str]:
    """A recorded condition (value, condition, construct) required only where ``guard`` holds (1 is nonzero, positive,
    nonnegative and an integer)."""
    try:
        value = sympy.sympify(untrace(value))
    except (sympy.SympifyError, TypeError):
        return value, condition, construct  # not an expression: refused as it is
    if condition == "true":
        return sympy.Or(sympy.Not(guard), value), condition, construct
    return Piecewise((value, guard), (1, True)), condition, construct


def _limits(i: sympy.Symbol, lo: Any, hi: Any) -> tuple[sympy.Symbol, sympy.Expr, sympy.Expr]:
    """(i, lo, hi) for a sum over lo..hi that is empty when hi < lo, as the exact form's is.

    SymPy reads a sum whose upper limit is below its lower limit by Karr's convention
    (``Sum(f, (i, 9, 7)) = -f(8)``), not as empty; so when hi >= lo - 1 is not certain for every
    depth and R, the upper limit becomes max(hi, lo - 1).

    >>> k = sympy.Symbol("k", integer=True, positive=True)
    >>> _limits(sympy.Symbol("i"), 1, k), _limits(sympy.Symbol("i"), k, 7)
    ((i, 1, k), (i, k, Max(7, k - 1)))
    """
    lo, hi = sympy.sympify(untrace(lo)), sympy.sympify(untrace(hi))
    return (i, lo, hi) if (hi - lo + 1).is_nonnegative else (i, lo, sympy.Max(hi, lo - 1))


def _at_most(e: sympy.Expr, k: int) -> bool:
    """Whether ``e <= k`` for every R and parameter value, as SymPy or the structure of a Min, Max or Piecewise shows.

    >>> R = sympy.Symbol("R", integer=True, nonnegative=True)
    >>> _at_most(sympy.Min(3, R), 3), _at_most(R, 3), _at_most(sympy.Max(R, 1), 3)
    (True, False, False)
    """
    if (e - k).is_nonpositive:
        return True
    if isinstance(e, sympy.Min):
        return any(_at_most(a, k) for a in e.args)
    if isinstance(e, sympy.Max):
        return all(_at_most(a, k) for a in e.args)
    if isinstance(e, Piecewise):
        return all(_at_most(pair.expr, k) for pair in e.args)
    return False


def _rank(i: Any) -> int:
    """A concrete rank from a formula (an int, or an integer SymPy number); a symbolic one cannot index a concrete depth."""
    value = untrace(i)
    if isinstance(value, int) or (isinstance(value, sympy.Basic) and value.is_Integer):
        return int(value)
    raise NotExpressible(f"the rank {value} is not a concrete integer at a concrete depth")


def _retrace(value: Any, like: Any) -> Any:
    """``value`` traced when it is symbolic (so the formula cannot branch on what it computed)."""
    if isinstance(value, sympy.Basic) and value.free_symbols:
        return Traced(value, like.what if isinstance(like, Traced) else "a symbolic value")
    return value


def _call(f: Callable[[Any], Any], i: Any, what: str) -> Any:
    """f at the rank i (traced when symbolic), with the result untraced."""
    return sympy.sympify(untrace(f(Traced(i, what) if isinstance(i, sympy.Basic) and i.free_symbols else i)))


class SymbolicAlgebra(_Symbolic):
    """Concrete depth k, symbolic grades ``b_i`` (binary) or ``r_i`` (graded), R and parameters."""

    def __init__(self, k: int, binary: bool, params: Mapping[str, Mapping[str, bool]]) -> None:
        super().__init__(binary, params)
        self.k = ExactInt(k)

    def _grade(self, i: int) -> sympy.Symbol:
        if self.binary:
            return sympy.Symbol(f"b_{i}", integer=True, nonnegative=True)
        return sympy.Symbol(f"r_{i}", nonnegative=True)

    def r(self, i: int) -> Any:
        i = _rank(i)
        return Traced(self._grade(i), f"the grade at rank {i}") if i >= 1 else ExactFraction(0)  # no rank 0, as in the exact run

    def g(self, i: int) -> Any:
        i = _rank(i)
        if i < 1:
            return ExactFraction(0)
        grade = Integer(1) if self.binary else sympy.Symbol(f"g_{i}", positive=True)
        return Traced(Piecewise((grade, self.R_symbol >= i), (0, True)), f"the ideal grade at rank {i}")

    def r_sorted(self, i: int) -> Any:
        i = _rank(i)
        return Traced(self._r_sorted(i), f"the sorted grade at rank {i}") if 1 <= i <= self.k else ExactFraction(0)

    def _mark(self, i: Any) -> Any:
        """The unjudged mark at a concrete rank: a symbol ``u_i`` in {0, 1} (1 forces the grade at i to 0)."""
        i = _rank(i)
        if i < 1:
            return ExactFraction(0)
        return Traced(sympy.Symbol(f"u_{i}", integer=True, nonnegative=True), f"the unjudged mark at rank {i}")

    def _r_sorted(self, i: int) -> sympy.Expr:
        grades = [self._grade(j) for j in range(1, self.k + 1)]
        if self.binary:
            return Piecewise((1, sympy.Add(*grades) >= i), (0, True))
        if self.k > MAX_GRADED_SORT_DEPTH:
            raise NotExpressible(f"the ideal ordering of {self.k} graded symbols is only written out for k <= {MAX_GRADED_SORT_DEPTH}")
        # the i-th largest of the grades is the largest minimum over i-element subsets
        return sympy.Max(*(sympy.Min(*subset, evaluate=False) for subset in itertools.combinations(grades, i)), evaluate=False)

    def _bounded(self, lo: int, hi: Any, f: Callable[[int], Any], unit: int) -> list[Any]:
        lo, hi = untrace(lo), untrace(hi)
        if isinstance(hi, (int, sympy.Integer)) and isinstance(lo, (int, sympy.Integer)):
            return [_call(f, ExactInt(i), "") for i in range(int(lo), int(hi) + 1)]
        if not isinstance(lo, (int, sympy.Integer)):
            raise NotExpressible(f"a sum or product from a symbolic lower limit {lo} at a concrete depth")
        if not _at_most(sympy.sympify(hi), self.k):  # the terms are written out up to k only
            raise NotExpressible(f"a sum or product up to {hi}, which may pass the depth k = {self.k}")
        return [Piecewise((self._reached(f, i, sympy.Ge(hi, i)), sympy.Ge(hi, i)), (unit, True)) for i in range(int(lo), self.k + 1)]

    def _reached(self, f: Callable[[int], Any], i: int, guard: sympy.Basic) -> Any:
        """f(i), for a term the metric computes only where ``guard`` holds: every divisor, ``m.div`` denominator and
        condition the call records must hold there only (at i > R the term ``1 / (i - R - 3)`` is never computed, so the
        form must not be undefined at R = i - 3)."""
        records = RECORDING[-1] if RECORDING else None
        first_record, first_denominator = len(records) if records is not None else 0, len(self.denominators)
        value = _call(f, ExactInt(i), "")
        new = self.denominators[first_denominator:]
        self.denominators[first_denominator:] = [(Piecewise((d, guard), (1, True)), why) for d, why in new]
        if records is not None:
            records[first_record:] = [_only_where(guard, *record) for record in records[first_record:]]
        return value

    def sum(self, lo: int, hi: Any, f: Callable[[int], Any]) -> Traced:
        return Traced(sympy.Add(*self._bounded(lo, hi, f, 0)), "a sum")

    def prod(self, lo: int, hi: Any, f: Callable[[int], Any]) -> Traced:
        return Traced(sympy.Mul(*self._bounded(lo, hi, f, 1)), "a product")

    def max_over(self, lo: int, hi: int, f: Callable[[int], Any]) -> Traced:
        lo, hi = _rank(lo), _rank(hi)
        return Traced(sympy.Max(*(_call(f, ExactInt(i), "") for i in range(lo, hi + 1))) if hi >= lo else Integer(0), "a maximum")


class ClosedFormAlgebra(_Symbolic):
    """Symbolic depth ``k``: grades ``b[i]``/``r[i]``, sums as ``Sum``, products as ``Product``."""

    def __init__(self, binary: bool, params: Mapping[str, Mapping[str, bool]]) -> None:
        super().__init__(binary, params)
        self.k_symbol = sympy.Symbol("k", integer=True, positive=True)
        self.grades = sympy.IndexedBase("b" if binary else "r")
        self.qrel_grades = sympy.IndexedBase("g", positive=True)  # read only down to R, where each qrel grade is in (0, 1]
        self.marks = sympy.IndexedBase("u", integer=True, nonnegative=True)
        self._indices = 0

    def _mark(self, i: Any) -> Any:
        i = untrace(i)
        return Traced(Piecewise((self.marks[i], sympy.Le(1, i)), (0, True)), "an unjudged mark")  # u[i] itself for a rank i >= 1

    def _index(self, lo: Any) -> sympy.Symbol:
        """A summation index from ``lo`` on: positive only if ``lo`` is positive at every depth (SymPy decides relations
        and functions of the index by its assumptions: ``Min(i, 1)`` is 1 for a positive i, 0 at i = 0)."""
        name = "ijlmnst"[self._indices % 7] + ("" if self._indices < 7 else str(self._indices // 7))
        self._indices += 1
        start = sympy.sympify(untrace(lo))
        if start.is_positive:
            return sympy.Symbol(name, integer=True, positive=True)
        return sympy.Symbol(name, integer=True, nonnegative=True) if start.is_nonnegative else sympy.Symbol(name, integer=True)

    @property
    def k(self) -> Traced:  # type: ignore[override]
        return Traced(self.k_symbol, "the depth k")

    def r(self, i: Any) -> Traced:
        i = untrace(i)
        return Traced(Piecewise((self.grades[i], sympy.Le(1, i)), (0, True)), "a grade")  # b[i] itself for a rank i >= 1

    def g(self, i: Any) -> Traced:
        i = untrace(i)
        grade = Integer(1) if self.binary else self.qrel_grades[i]
        return Traced(Piecewise((grade, sympy.And(sympy.Le(1, i), sympy.Le(i, self.R_symbol))), (0, True)), "an ideal grade")

    def r_sorted(self, i: Any) -> Traced:
        i = untrace(i)
        if not self.binary:
            return Traced(OrderStatistic(i, self.grades, self.k_symbol), "a sorted grade")
        count = untrace(self.sum(1, self.k_symbol, self.r))
        return Traced(Piecewise((1, sympy.And(sympy.Le(1, i), sympy.Le(i, count))), (0, True)), "a sorted grade")

    def sum(self, lo: Any, hi: Any, f: Callable[[Any], Any]) -> Traced:
        i = self._index(lo)
        return Traced(sympy.Sum(_call(f, i, f"the rank {i}"), _limits(i, lo, hi)), "a sum")

    def prod(self, lo: Any, hi: Any, f: Callable[[Any], Any]) -> Traced:
        i = self._index(lo)
        return Traced(sympy.Product(_call(f, i, f"the rank {i}"), _limits(i, lo, hi)), "a product")

    def max_over(self, lo: Any, hi: Any, f: Callable[[Any], Any]) -> Traced:
        i = self._index(lo)
        return Traced(MaxOver(sympy.Lambda(i, _call(f, i, f"the rank {i}")), untrace(lo), untrace(hi)), "a maximum")
