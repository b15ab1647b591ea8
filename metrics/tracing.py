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
(6, ExactFraction(1, 3), ExactFraction(1, 4))
"""

from __future__ import annotations

import contextlib
import operator
import sys
from collections.abc import Callable, Iterator
from typing import Any

import sympy

from .domains import negative_power_divisor
from .errors import InputError
from .exact import certainly
from .exactnumbers import ExactInt
from .watching import RECORDING, formula_frame

__all__ = ["INSTEAD", "POWER_RULE", "REFUSALS", "BranchOnSymbol", "ExactInt", "Traced", "TracedRelation", "divides", "fractional",
           "from_user_code", "recording_divisors", "untrace"]

INSTEAD = {
    "==": "sympy.Piecewise((a, sympy.Eq(x, n)), (b, True))",
    "!=": "sympy.Piecewise((a, sympy.Ne(x, n)), (b, True))",
    "comparison": "sympy.Piecewise((a, sympy.Lt(x, n)), (b, True)), or m.min / m.max",
    "bool": "sympy.Piecewise for a case split (sympy.Mod(x, 2) for parity)",
    "int": "the value itself: it is already an integer",
    "float": "exact operations (m.log2, sympy functions), never floats",
    "index": "m.sum / m.prod over the ranks (a Python range needs a number)",
    "lookup": "sympy.Piecewise((v, sympy.Eq(x, n)), ..., (default, True)) instead of a table",
    "text": "the value itself in expressions: its text differs between a symbol and a number",
    "inspect": "arithmetic on the values only: a type, attribute or stack test tells a symbol from a number",
    "catch": "the computation without try/except or with: catching what the symbolic run raises tells it apart",
    "state": "a formula without state: one that remembers earlier calls may differ between the symbolic and exact runs",
    "power": "sympy.sqrt(x), sympy.root(x, n) or sympy.Pow(x, e)",
    "symbol": "numbers as constants, and the algebra's values for the situation (m.k, m.R, m.r(i), m.param(name)): a "
              "SymPy symbol of the file's own is either the closed form's k or R under another name, or a free symbol",
    "compiled": "the number so that SymPy need not run code it compiles from text (give it a simpler form: a rational, "
                "sympy.nsimplify of it, or a sum of fewer radicals)",
    "language": "arithmetic, the algebra's operations (m.sum, m.prod, m.min, m.max, m.div, m.log2, ...), the SymPy "
                "functions of the formula language (README) and the file's own functions",
}

POWER_RULE = "Python's `**` gives a float on the exact run's numbers (Fraction(2) ** Fraction(1, 2)) and a root on SymPy's"


class BranchOnSymbol(InputError):
    """A formula or weight function treated a symbolic rank or depth as a number: the closed form would not be the metric."""

    def __init__(self, construct: str, what: str, instead: str, where: str | None = None, rule: str | None = None,
                 compiled: bool = False) -> None:
        if compiled:  # code a library compiled from text and ran while it evaluated the formula (where names both)
            rule = (f"irprops judges code by the file it comes from, and this code has none, so it cannot tell it from "
                    f"the formula's own; write {instead}")
            shown = f"{construct} in {where}: {rule}"
        elif rule is not None:  # a construct that computes differently on the two runs' numbers
            rule = f"{rule}, so the closed form need not be the metric; write {instead}"
            shown = f"{construct} on {what}: {rule}"
        elif where is None:
            rule = (f"the closed form would take one branch for every value of {what}, so it would not be the metric; "
                    f"write {instead}")
            shown = f"{construct} on {what}: {rule}"
        else:  # a type or stack test, a catch or state: no branch yet, but the formula can tell the runs apart
            rule = (f"it lets the formula tell {what} from a number, so its closed form need not be the metric; "
                    f"write {instead}")
            shown = f"{construct} in {where}: {rule}"
        super().__init__("formula", construct, rule)
        self.args = (shown,)
        REFUSALS.append(self)  # recorded even if the formula catches it: catching it is observing the symbol too

    def __str__(self) -> str:
        return str(self.args[0])


def untrace(value: Any) -> Any:
    """The SymPy expression behind a :class:`Traced` value (anything else unchanged)."""
    return value.expr if isinstance(value, (Traced, TracedRelation)) else value


@contextlib.contextmanager
def recording_divisors() -> Iterator[list[tuple[Any, str, str]]]:
    """Collect, while the forms are built, what must hold for the formula's value to be defined: every divisor of its
    ``/``, ``//``, ``%`` and negative powers nonzero, every argument of a logarithm positive (``(value, condition,
    construct)``).

    SymPy cancels as it computes (``(k - 7) / (k - 7)`` is 1 at once, ``0 * log(x)`` is 0), but the metric divides by
    zero at k = 7: each such value must be a recorded denominator, as ``m.div``'s are, or shown to be nonzero, or the
    closed form would not be the metric.
    """
    found: list[tuple[Any, str, str]] = []
    RECORDING.append(found)
    try:
        yield found
    finally:
        RECORDING.pop()


def divides(op: Callable[[Any, Any], Any], left: Any, right: Any) -> None:
    """Record the divisor of ``op(left, right)``, if it is one and may be zero."""
    if not RECORDING:
        return
    divisor = None
    if op in (operator.truediv, sympy.Mod, floor_division, operator.floordiv, operator.mod):
        divisor = right
    elif op is operator.pow:
        divisor = negative_power_divisor(sympy.sympify(untrace(left)), untrace(right))
    if divisor is not None:
        divisor = sympy.sympify(untrace(divisor))
        if not (divisor.is_number and certainly(divisor, "nonzero")):  # SymPy calls log2(9) - 2 log2(3) nonzero
            RECORDING[-1].append((divisor, "nonzero", "a division"))


def _binary(op: Callable[[Any, Any], Any], reflected: bool = False) -> Callable[[Traced, Any], Any]:
    def method(self: Traced, other: Any) -> Any:
        if isinstance(other, float):
            raise BranchOnSymbol(f"a float ({other!r}) combined", self.what, INSTEAD["float"])
        if op is operator.pow and fractional(self if reflected else other):  # a float on the exact run's numbers
            raise BranchOnSymbol("`**` with an exponent that may not be an integer", self.what, INSTEAD["power"],
                                 rule=POWER_RULE)
        other = untrace(other)
        divides(op, *((other, self.expr) if reflected else (self.expr, other)))
        result = op(other, self.expr) if reflected else op(self.expr, other)
        return Traced(result, self.what) if isinstance(result, sympy.Basic) else result
    return method


def floor_division(a: Any, b: Any) -> Any:
    """``a // b`` on symbolic values: floor(a / b)."""
    return sympy.floor(a / b)


class Traced:
    """A symbolic rank or depth as user code sees it: computes like a SymPy integer, refuses to be branched on."""

    __slots__ = ("expr", "what")

    def __init__(self, expr: sympy.Expr, what: str) -> None:
        self.expr = expr
        self.what = what

    def _sympy_(self) -> sympy.Expr:
        return self.expr

    # + - * / and their reflections are installed by _arithmetic below
    __pow__ = _binary(operator.pow)
    __rpow__ = _binary(operator.pow, reflected=True)
    __mod__ = _binary(sympy.Mod)
    __rmod__ = _binary(sympy.Mod, reflected=True)
    __floordiv__ = _binary(floor_division)
    __rfloordiv__ = _binary(floor_division, reflected=True)

    def __neg__(self) -> Traced:
        return Traced(-self.expr, self.what)

    def __pos__(self) -> Traced:
        return self

    def __abs__(self) -> Traced:
        return Traced(sympy.Abs(self.expr), self.what)

    def _relation(self, op: str, other: Any) -> TracedRelation:
        relation = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge}[op]
        return TracedRelation(relation(self.expr, untrace(other)), self.what, op)

    def __lt__(self, other: Any) -> TracedRelation:
        return self._relation("<", other)

    def __le__(self, other: Any) -> TracedRelation:
        return self._relation("<=", other)

    def __gt__(self, other: Any) -> TracedRelation:
        return self._relation(">", other)

    def __ge__(self, other: Any) -> TracedRelation:
        return self._relation(">=", other)

    def __eq__(self, other: object) -> bool:
        raise BranchOnSymbol("`==`", self.what, INSTEAD["=="])

    def __ne__(self, other: object) -> bool:
        raise BranchOnSymbol("`!=`", self.what, INSTEAD["!="])

    def __bool__(self) -> bool:
        raise BranchOnSymbol("`bool()` (an if, and/or, or a conditional expression)", self.what, INSTEAD["bool"])

    def __int__(self) -> int:
        raise BranchOnSymbol("`int()`", self.what, INSTEAD["int"])

    def __float__(self) -> float:
        raise BranchOnSymbol("`float()` (or math.*)", self.what, INSTEAD["float"])

    def __index__(self) -> int:
        raise BranchOnSymbol("`range()` or indexing", self.what, INSTEAD["index"])

    def __hash__(self) -> int:
        if from_user_code():  # a dict key or set member: a lookup would compare with one value for every rank
            raise BranchOnSymbol("a dict or set lookup", self.what, INSTEAD["lookup"])
        # SymPy's caches hash their arguments: by identity, so that they never compare two traced values with ==
        return object.__hash__(self)

    def __round__(self, ndigits: int | None = None) -> int:
        raise BranchOnSymbol("`round()`", self.what, INSTEAD["int"])

    def __str__(self) -> str:
        if from_user_code():  # a string tells a symbol from a number: "i" against "300"
            raise BranchOnSymbol("`str()` (or an f-string, print, format)", self.what, INSTEAD["text"])
        return f"Traced({self.expr})"

    def __repr__(self) -> str:
        if from_user_code():
            raise BranchOnSymbol("`repr()`", self.what, INSTEAD["text"])
        return f"Traced({self.expr!r})"

    def __format__(self, spec: str) -> str:
        raise BranchOnSymbol("`format()` (or an f-string)", self.what, INSTEAD["text"])

    def __getattr__(self, name: str) -> Any:
        if from_user_code():  # a probe such as i.numerator: present on a number, absent on a symbol
            raise BranchOnSymbol(f"reading the attribute `{name}`", self.what, INSTEAD["inspect"], where="the formula")
        raise AttributeError(name)


class TracedRelation:
    """A comparison of a traced value: usable as a condition inside SymPy (Piecewise), never as a Python truth value."""

    __slots__ = ("expr", "op", "what")

    def __init__(self, expr: sympy.Basic, what: str, op: str) -> None:
        self.expr, self.what, self.op = expr, what, op

    def _sympy_(self) -> sympy.Basic:
        return self.expr

    def __bool__(self) -> bool:
        raise BranchOnSymbol(f"`{self.op}` used as a truth value (an if, a conditional expression, or a min/max builtin)",
                             self.what, INSTEAD["comparison"])


REFUSALS: list[BranchOnSymbol] = []
"""Every refusal raised while the forms are built, caught by the formula or not."""
def from_user_code() -> bool:
    """Whether the code that triggered the current special method (two frames up) is the formula's own."""
    return formula_frame(sys._getframe(2))


def fractional(exponent: object) -> bool:
    """Whether ``exponent`` may take a value that is not an integer (a rank, a depth and their sums are integers)."""
    try:
        return sympy.sympify(untrace(exponent)).is_integer is not True
    except (sympy.SympifyError, TypeError):
        return True


def _arithmetic(cls: type, make: Callable[..., Any]) -> None:
    """Install ``+ - * /`` and their reflections on ``cls``, each made by ``make(op)`` / ``make(op, reflected=True)``."""
    for name, op in (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul), ("truediv", operator.truediv)):
        setattr(cls, f"__{name}__", make(op))
        setattr(cls, f"__r{name}__", make(op, reflected=True))


_arithmetic(Traced, _binary)
