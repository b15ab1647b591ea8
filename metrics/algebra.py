"""The operations a metric formula is written in, and the two concrete backends.

A metric is declared once, as a function ``formula(m)`` of an :class:`Algebra` ``m``.
Run with :class:`FloatAlgebra` it gives the numeric form, with :class:`ExactAlgebra`
the exact form, and with the backends of :mod:`metrics.symbolic` the SymPy forms.
A formula may use only these operations, plus ``+ - * /`` and ``**`` with integer
exponents, and Python loops over integers (not over grades):

* ``m.k``, ``m.R``: the depth and the number of relevant documents;
* ``m.N``: the number of judged nonrelevant documents in the collection (BPref's); the score is undefined
  where the situation does not give it;
* ``m.r(i)``: the grade at rank i (1-based); 0 if unjudged or below the ranking;
* ``m.g(i)``: the i-th largest qrel grade, 0 if i > R (the ideal ranking);
* ``m.r_sorted(i)``: the i-th largest of the grades r_1..r_k (the ideal of the top k);
* ``m.unjudged(i)``: 1 if rank i holds an unjudged document, or none at a rank i <= k (a short run), else 0;
* ``m.relevant(i)``: 1 if the grade at rank i is positive, else 0 (the indicator [r_i > 0]; r_i itself on binary grades);
* ``m.param(name)``: a declared parameter such as RBP's p;
* ``m.log2(x)``: the base-2 logarithm (exact where the backend is exact);
* ``m.exp2(x)``: 2 to the power x, for a real x with |x| <= 100,000 (exact: a Fraction for an integer x, else SymPy's
  2**x, an exact irrational such as sqrt(2)); nDCG's exponential gain is ``m.exp2(M * m.r(i)) - 1``;
* ``m.sum(lo, hi, f)``, ``m.prod(lo, hi, f)``: sum and product of f(i) for lo <= i <= hi;
* ``m.prefix_sum(f)``, ``m.prefix_prod(f)``: the function n -> sum (product) of f(1..n);
* ``m.max_over(lo, hi, f)``: the largest f(i);
* ``m.min(a, b)``, ``m.max(a, b)``: the smaller or larger of two depths, counts or parameters;
* ``m.div(a, b, why)``: a / b, where b = 0 makes the score undefined (``why`` says when);
* ``m.num(q)``: a rational constant (``m.num(1) / i`` rather than ``1 / i``);
* ``m.const(e)``: a SymPy constant (an exact weight such as ``1/log2(3)``) in the backend's numbers.

Upper limits of sums and products never exceed k, except when reading below the depth
is the point (a non-localized proposal).
"""

from __future__ import annotations

import functools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from . import exact
from .errors import InputError
from .exactnumbers import ExactFraction, ExactInt, exact_value
from .rationals import Powers, RationalSum
from .screenfloats import ScreenFloat
from .sharing import Shared, shared_key
from .situation import Situation

Formula = Callable[["Algebra"], Any]
"""A metric formula: a function of an algebra returning the score."""


def declared_parameter(params: Mapping[str, Any], name: str) -> Any:
    """The value of the parameter ``name`` (``m.param(name)``); an error naming the declared ones if it is not one."""
    if name not in params:
        declared = ", ".join(map(repr, params)) or "none"
        raise InputError("m.param", name, f"the metric declares no parameter of that name (declared: {declared})",
                         f"declare it: irprops.declare(key, relevance=..., params=(irprops.metrics.Param({name!r}, "
                         "Fraction(4, 5), '0 <= p < 1', lambda p: 0 <= p < 1),)), or read one that is declared")
    return params[name]


@dataclass(frozen=True)
class Undefined:
    """The value of a metric on a situation where it is not defined (e.g. AP when R = 0).

    All undefined values are equal; ``reason`` says why this one is undefined.

    >>> Undefined("R = 0") == UNDEFINED
    True
    """

    reason: str = field(default="", compare=False)

    def __repr__(self) -> str:
        return "undefined" + (f" ({self.reason})" if self.reason else "")


UNDEFINED = Undefined()


class _DivisionByZero(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class Algebra(ABC):
    """The interface formulas are written against; see the module docstring."""

    k: Any
    R: Any

    @property
    @abstractmethod
    def N(self) -> Any:
        """The number of judged nonrelevant documents in the collection."""

    @abstractmethod
    def r(self, i: Any) -> Any: ...

    @abstractmethod
    def g(self, i: Any) -> Any: ...

    @abstractmethod
    def r_sorted(self, i: Any) -> Any: ...

    @abstractmethod
    def unjudged(self, i: Any) -> Any: ...

    @abstractmethod
    def relevant(self, i: Any) -> Any: ...

    @abstractmethod
    def param(self, name: str) -> Any: ...

    @abstractmethod
    def log2(self, x: Any) -> Any: ...

    @abstractmethod
    def exp2(self, x: Any) -> Any: ...

    @abstractmethod
    def num(self, q: int | Fraction) -> Any: ...

    @abstractmethod
    def const(self, e: sympy.Expr) -> Any: ...

    @abstractmethod
    def sum(self, lo: Any, hi: Any, f: Callable[[Any], Any]) -> Any: ...

    @abstractmethod
    def prod(self, lo: Any, hi: Any, f: Callable[[Any], Any]) -> Any: ...

    @abstractmethod
    def max_over(self, lo: Any, hi: Any, f: Callable[[Any], Any]) -> Any: ...

    @abstractmethod
    def min(self, a: Any, b: Any) -> Any: ...

    @abstractmethod
    def max(self, a: Any, b: Any) -> Any: ...

    @abstractmethod
    def div(self, a: Any, b: Any, why: str = "") -> Any: ...

    def prefix_sum(self, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
        return lambda n: self.sum(1, n, f)

    def prefix_prod(self, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
        return lambda n: self.prod(1, n, f)


class _Concrete(Algebra):
    """Shared code of the float and exact backends: the situation is known."""

    def __init__(self, situation: Situation, params: Mapping[str, Fraction | int]) -> None:
        self.situation = situation
        self.k = situation.k
        self.R = situation.R
        self._params = params
        self._shared: Shared = {}  # partial sums and products kept for the rest of this run (irprops.metrics.sharing)

    @property
    def N(self) -> Any:
        count = self.situation.nonrelevant
        if count is None:
            raise _DivisionByZero("the number of judged nonrelevant documents N is not known (give it: --N)")
        return self._count(count)

    def _count(self, n: int) -> Any:
        """A count as the formula is handed it."""
        return n

    def r(self, i: int) -> Any:
        return self.num(self.situation.grade(i))

    def g(self, i: int) -> Any:
        return self.num(self.situation.qrels[i - 1] if 1 <= i <= self.R else 0)

    def r_sorted(self, i: int) -> Any:
        return self.num(self._top_sorted[i - 1] if 1 <= i <= self.k else 0)

    @functools.cached_property
    def _top_sorted(self) -> list[Fraction]:
        return sorted((self.situation.grade(i) for i in range(1, self.k + 1)), reverse=True)

    def unjudged(self, i: int) -> Any:
        return self.num(1 if self.situation.unjudged(i) else 0)

    def relevant(self, i: int) -> Any:
        return self.num(1 if self.situation.grade(i) > 0 else 0)

    def param(self, name: str) -> Any:
        return self.num(declared_parameter(self._params, name))

    def min(self, a: Any, b: Any) -> Any:
        return min(a, b)

    def max(self, a: Any, b: Any) -> Any:
        return max(a, b)

    def prod(self, lo: int, hi: int, f: Callable[[int], Any]) -> Any:
        kept = self._kept("prod", lo, hi, f, self.num(1))
        if kept is None:
            product = self.num(1)
            for i in range(lo, hi + 1):
                product = product * f(self._rank(i))
            return product
        while len(kept) <= hi - lo + 1:
            kept.append(kept[-1] * f(self._rank(lo + len(kept) - 1)))
        return kept[max(hi - lo + 1, 0)]

    def _rank(self, i: int) -> Any:
        """A rank as the formula is handed it."""
        return i

    def _kept(self, kind: str, lo: Any, hi: Any, f: Callable[[int], Any], unit: Any) -> list[Any] | None:
        """The partial results of ``kind`` of ``f`` from ``lo`` kept in this run (started with ``unit``), or None when
        they may not be shared (:func:`~irprops.metrics.sharing.shared_key`; limits that are not plain integers)."""
        if type(lo) not in (int, ExactInt) or type(hi) not in (int, ExactInt):
            return None
        key = shared_key(kind, f, int(lo), self, (_Prefix,))
        if key is None:
            return None
        kept = self._shared.setdefault(key, [unit])
        return kept if kept else None  # an empty list: a term that cannot be kept was met (ExactAlgebra.sum)

    def prefix_sum(self, f: Callable[[int], Any]) -> Callable[[int], Any]:
        return _Prefix(f, self.num(0), lambda a, b: a + b, self)

    def prefix_prod(self, f: Callable[[int], Any]) -> Callable[[int], Any]:
        return _Prefix(f, self.num(1), lambda a, b: a * b, self)

    def div(self, a: Any, b: Any, why: str = "") -> Any:
        if self._is_zero(b):
            raise _DivisionByZero(why or "a denominator is 0")
        return a / b

    @abstractmethod
    def _is_zero(self, value: Any) -> bool: ...


class _Prefix:
    """n -> f(1) op ... op f(n), as the symbolic runs compute it (``m.sum(1, n, f)``, f asked afresh at each call),
    computed incrementally while f is certainly the same function it was (:func:`~irprops.metrics.sharing.shared_key`).

    A formula may rebind a variable f reads between two calls (a thirty-eighth hostile review: ``w = lambda j: 1 / j``,
    ``P(249)``, ``w = ...``, ``P(m.k)``): the partial results kept from the first call were of another function, and the
    exact run computed another metric than the closed form, which every proof is about (two false "yes", a false "no").
    They are then computed again, from the first rank."""

    def __init__(self, f: Callable[[int], Any], unit: Any, op: Callable[[Any, Any], Any], algebra: object) -> None:
        self._f, self._op, self._unit, self._algebra = f, op, unit, algebra
        self._values: list[Any] = [unit]
        self._keying = False
        self._active: list[Any] | None = None
        """The partial results of the call under way (None: no call is)."""
        self._of: Hashable | None = None
        """The function the kept values are of (its key when they were computed), None when none are kept."""

    def current_key(self, depth: int = 0) -> Hashable | None:
        """The key of the function this prefix computes now (None: it cannot be told, and nothing is kept). Met again
        while its own key is being formed (f reads this prefix: ``P = m.prefix_sum(lambda j: m.r(j) + P(j - 1) / 2)``),
        it stands for itself: the rest of the key is what it computes."""
        if self._keying:
            return "this prefix"
        self._keying = True
        try:
            return shared_key("prefix", self._f, 1, self._algebra, (_Prefix,), depth)
        finally:
            self._keying = False

    def __call__(self, n: int) -> Any:
        if self._active is not None:  # a call f makes of this prefix: f is the same function until the outer call ends
            return self._extend(self._active, n)
        key = self.current_key()
        if key is None:  # not certainly one function from call to call: computed afresh, kept for this call only
            values = [self._unit]
        else:
            if key != self._of:  # another function than the kept values are of: start again
                self._values, self._of = [self._unit], key
            values = self._values
        self._active = values
        try:
            return self._extend(values, n)
        finally:
            self._active = None

    def _extend(self, values: list[Any], n: int) -> Any:
        """f(1) op ... op f(n), from the partial results ``values`` (extended in place). Within one call, and the calls f
        makes of this prefix during it, f is one function: the formula language lets no code the formula calls rebind a
        variable of the formula, and the formula's own code waits for the call to end."""
        while len(values) <= n:
            values.append(self._op(values[-1], self._f(len(values))))
        return values[max(n, 0)]


class FloatAlgebra(_Concrete):
    """The numeric form: IEEE floats (:class:`~irprops.metrics.screenfloats.ScreenFloat`), fast, for search and display,
    never for verdicts.

    ``doubtful`` turns true when a denominator is so close to 0 that rounding may hide an
    exact 0: whether the score is defined must then be decided in exact arithmetic.
    """

    TINY = 1e-9

    def __init__(self, situation: Situation, params: Mapping[str, Fraction | int]) -> None:
        super().__init__(situation, params)
        self.doubtful = False

    def div(self, a: Any, b: Any, why: str = "") -> Any:
        if isinstance(b, float) and 0 < abs(b) < self.TINY:
            self.doubtful = True
        return super().div(a, b, why)

    def num(self, q: int | Fraction) -> float:
        return ScreenFloat(q)

    def log2(self, x: float) -> float:
        if x <= 0:  # no value, as in the exact run (math.log2 would raise)
            raise _DivisionByZero("log2 of a number <= 0")
        return ScreenFloat(math.log2(x))

    def exp2(self, x: float) -> float:
        return ScreenFloat(2.0 ** x)  # an overflow is a float failure: the exact run decides (see Measure._floats)

    def const(self, e: sympy.Expr) -> float:
        return ScreenFloat(_float_of(e))

    def sum(self, lo: int, hi: int, f: Callable[[int], float]) -> float:
        return ScreenFloat(math.fsum(f(i) for i in range(lo, hi + 1)))

    def max_over(self, lo: int, hi: int, f: Callable[[int], float]) -> float:
        return max((f(i) for i in range(lo, hi + 1)), default=ScreenFloat(0.0))

    def _is_zero(self, value: float) -> bool:
        return value == 0


class ExactAlgebra(_Concrete):
    """The exact form: Fractions, and SymPy expressions over :class:`exact.log2` where needed.

    Depths, counts and ranks are :class:`~irprops.metrics.tracing.ExactInt`, so that ``/``
    between them is exact: ``m.k * (m.k + 1) / 2`` is a Fraction, not a float.
    """

    def __init__(self, situation: Situation, params: Mapping[str, Fraction | int]) -> None:
        super().__init__(situation, params)
        self.k = ExactInt(situation.k)
        self.R = ExactInt(situation.R)

    def _rank(self, i: int) -> Any:
        return ExactInt(i)

    def _count(self, n: int) -> Any:
        return ExactInt(n)

    def prefix_sum(self, f: Callable[[int], Any]) -> Callable[[int], Any]:
        return super().prefix_sum(lambda i: f(ExactInt(i)))

    def prefix_prod(self, f: Callable[[int], Any]) -> Callable[[int], Any]:
        return super().prefix_prod(lambda i: f(ExactInt(i)))

    def num(self, q: int | Fraction) -> Fraction:
        return Fraction(q)

    def param(self, name: str) -> Any:
        value = super().param(name)  # p ** (i - 1) at every rank: each power from the one before (irprops.metrics.rationals)
        return Powers(value) if type(value) is Fraction else value

    def min(self, a: Any, b: Any) -> Any:
        return exact_int(min(a, b))

    def max(self, a: Any, b: Any) -> Any:
        return exact_int(max(a, b))

    def div(self, a: Any, b: Any, why: str = "") -> Any:
        if isinstance(a, int) and not isinstance(a, bool):  # two counts: a fraction, as m.k * (m.k + 1) / 2 is
            a = ExactInt(a)
        return super().div(a, b, why)

    def log2(self, x: int | Fraction) -> exact.Exact:
        if isinstance(x, (int, Fraction)) and x <= 0:  # log2(0) is zoo: the metric has no value here
            raise _DivisionByZero("log2 of a number <= 0")
        return exact_log2(x)

    def exp2(self, x: Any) -> exact.Exact:
        return exact_exp2(x)

    def const(self, e: sympy.Expr) -> exact.Exact:
        return exact_const(e)

    def sum(self, lo: int, hi: int, f: Callable[[int], exact.Exact]) -> exact.Exact:
        kept = self._kept("sum", lo, hi, f, self.num(0))
        while kept is not None and len(kept) <= hi - lo + 1:
            term = _rational(f(ExactInt(lo + len(kept) - 1)))
            if term is None:  # a term over logarithms: this sum is written out whole, now and whenever it is asked again
                kept.clear()
                kept = None
            else:
                kept.append(kept[-1] + term)
        if kept is not None:
            return kept[max(hi - lo + 1, 0)]
        zero, running, symbolic = self.num(0), RationalSum(), []
        for i in range(lo, hi + 1):
            term = f(ExactInt(i))
            number = _rational(term)
            if number is not None:
                running.add(number)
                if isinstance(number, ExactFraction):  # the sum is of its type, as when the terms were added one by one
                    zero = number * 0
            else:
                symbolic.append(term)
        rational = zero + running.value()
        if not symbolic:
            return rational
        value = exact.as_exact(sympy.Add(*symbolic, sympy.Rational(rational.numerator, rational.denominator)))
        return exact_value(value, False) if isinstance(value, Fraction) else value

    def max_over(self, lo: int, hi: int, f: Callable[[int], exact.Exact]) -> exact.Exact:
        values = [f(ExactInt(i)) for i in range(lo, hi + 1)]
        return max(values, key=functools.cmp_to_key(exact.compare), default=self.num(0))

    def _is_zero(self, value: exact.Exact) -> bool:
        if exact.no_value(value) is not None:
            raise _DivisionByZero("a value with no number (log2(0), say) in a denominator")
        return exact.sign(value) == 0


class DeclaredExactAlgebra(ExactAlgebra):
    """The exact form of a declared formula: every number it is handed is an :class:`ExactFraction`, as in its symbolic
    runs, so that no Python operation computes differently in the two (the catalog's formulas, which are irprops' own,
    compute with plain Fractions, about twice as fast)."""

    def num(self, q: int | Fraction) -> Fraction:
        return exact_number(q)


def _rational(term: Any) -> Fraction | int | None:
    """A term of an exact sum as a Python rational (a SymPy rational such as ``Rational(1, 2) ** i`` too), or None."""
    if isinstance(term, (Fraction, int)):
        return term
    if isinstance(term, sympy.Rational):
        return Fraction(int(term.p), int(term.q))
    return None


def exact_int(value: Any) -> Any:
    """A plain int as an :class:`ExactInt` (whose / is exact); anything else unchanged."""
    return ExactInt(value) if type(value) is int else value


def exact_number(q: Any) -> ExactFraction:
    """``m.num(q)`` in the exact run (and for numbers in the symbolic runs): a Fraction, never a float or text."""
    if isinstance(q, bool) or not isinstance(q, (int, Fraction, sympy.Rational)):
        raise InputError("m.num", repr(q), "it takes an exact number (an int, a Fraction or a SymPy rational)",
                         "write m.num(1) / 2, or sympy.Rational(1, 2)")
    if isinstance(q, sympy.Rational):
        return ExactFraction(int(q.p), int(q.q))
    return ExactFraction(int(q.numerator), int(q.denominator))  # plain ints: Fraction's fast path, no ABC checks


def exact_const(e: Any) -> exact.Exact:
    """``m.const(e)`` of a constant in the exact run (and in the symbolic runs): an ExactFraction when rational."""
    value = exact.as_exact(e)
    return exact_value(value, False) if isinstance(value, Fraction) else value


def exact_log2(x: int | Fraction) -> exact.Exact:
    """``m.log2(x)`` of a number in the exact run (and in the symbolic runs): a Fraction when rational."""
    x = Fraction(x)
    return _log2_of(x.numerator, x.denominator)


@functools.lru_cache(maxsize=65536)
def _log2_of(numerator: int, denominator: int) -> exact.Exact:
    """log2(numerator / denominator), made once: a DCG run at depth k asks for log2(2) .. log2(k + 1), and every run of
    the deep search at every depth asks again (the values are immutable)."""
    if denominator == 1 and numerator > 2 and numerator & (numerator - 1):
        return exact.log2_of_integer(numerator)
    value = exact.as_exact(exact.log2(sympy.Rational(numerator, denominator)))
    return exact_value(value, False) if isinstance(value, Fraction) else value


MAX_EXP2 = 100_000
"""The largest |x| of ``m.exp2(x)`` on a number: 2^x then has at most 100,000 bits (2^(10^12) exhausted memory)."""


def exact_exp2(x: Any) -> exact.Exact:
    """``m.exp2(x)`` of a number in the exact run (and in the symbolic runs): a Fraction when x is an integer, else SymPy's
    2**x (an exact irrational: 2**(1/2) is sqrt(2)).

    >>> exact_exp2(Fraction(3)), exact_exp2(Fraction(-1)), exact_exp2(Fraction(1, 2))
    (ExactFraction(8, 1), ExactFraction(1, 2), sqrt(2))
    """
    if isinstance(x, (int, Fraction)):
        number = Fraction(x)
        if abs(number) > MAX_EXP2:
            raise InputError("m.exp2", str(number), f"2^x of |x| > {MAX_EXP2:,} has too many digits for exact arithmetic",
                             "scale the formula so that the exponent stays small")
        if number.denominator == 1:
            return exact_value(Fraction(2) ** int(number), False)
    value = exact.as_exact(sympy.Pow(2, sympy.sympify(x)))
    return exact_value(value, False) if isinstance(value, Fraction) else value


@functools.lru_cache(maxsize=65536)
def _float_of(e: sympy.Expr) -> float:
    """The float of an exact constant (a weight such as 1/log2(7)), computed once: SymPy's evalf is slow."""
    return float(e)


def run(formula: Formula, algebra: Algebra) -> Any:
    """Evaluate ``formula`` in ``algebra``; a zero denominator gives :class:`Undefined`."""
    try:
        return formula(algebra)
    except _DivisionByZero as undefined:
        return Undefined(undefined.why)
    except ZeroDivisionError:  # a plain / by an exact zero (m.div names the reason; / cannot)
        return Undefined("a denominator is 0")
