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
from sympy.functions.elementary.piecewise import ExprCondPair

from . import language
from .errors import InputError
from .exactnumbers import ExactInt
from .watching import RECORDING, formula_frame, watching

__all__ = ["BranchOnSymbol", "ExactInt", "Traced", "guarding", "refuse_outside_language", "untrace"]

_INSTEAD = {
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
    "language": "arithmetic, the algebra's operations (m.sum, m.prod, m.min, m.max, m.div, m.log2, ...), the SymPy "
                "functions of the formula language (README) and the file's own functions",
}

_POWER = "Python's `**` gives a float on the exact run's numbers (Fraction(2) ** Fraction(1, 2)) and a root on SymPy's"


class BranchOnSymbol(InputError):
    """A formula or weight function treated a symbolic rank or depth as a number: the closed form would not be the metric."""

    def __init__(self, construct: str, what: str, instead: str, where: str | None = None, rule: str | None = None) -> None:
        if rule is not None:  # a construct that computes differently on the two runs' numbers
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
        _SEEN.append(self)  # recorded even if the formula catches it: catching it is observing the symbol too

    def __str__(self) -> str:
        return str(self.args[0])


def untrace(value: Any) -> Any:
    """The SymPy expression behind a :class:`Traced` value (anything else unchanged)."""
    return value.expr if isinstance(value, (Traced, _TracedRelation)) else value


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


def _divides(op: Callable[[Any, Any], Any], left: Any, right: Any) -> None:
    """Record the divisor of ``op(left, right)``, if it is one and may be zero."""
    if not RECORDING:
        return
    divisor = None
    if op in (operator.truediv, sympy.Mod, floor_division, operator.floordiv, operator.mod):
        divisor = right
    elif op is operator.pow and not sympy.sympify(untrace(right)).is_nonnegative:
        divisor = left
    if divisor is not None:
        divisor = sympy.sympify(untrace(divisor))
        if not (divisor.is_number and divisor.is_nonzero):
            RECORDING[-1].append((divisor, "nonzero", "a division"))


def _binary(op: Callable[[Any, Any], Any], reflected: bool = False) -> Callable[[Traced, Any], Any]:
    def method(self: Traced, other: Any) -> Any:
        if isinstance(other, float):
            raise BranchOnSymbol(f"a float ({other!r}) combined", self.what, _INSTEAD["float"])
        if op is operator.pow and _fractional(self if reflected else other):  # a float on the exact run's numbers
            raise BranchOnSymbol("`**` with an exponent that may not be an integer", self.what, _INSTEAD["power"],
                                 rule=_POWER)
        other = untrace(other)
        _divides(op, *((other, self.expr) if reflected else (self.expr, other)))
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

    def _relation(self, op: str, other: Any) -> _TracedRelation:
        relation = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge}[op]
        return _TracedRelation(relation(self.expr, untrace(other)), self.what, op)

    def __lt__(self, other: Any) -> _TracedRelation:
        return self._relation("<", other)

    def __le__(self, other: Any) -> _TracedRelation:
        return self._relation("<=", other)

    def __gt__(self, other: Any) -> _TracedRelation:
        return self._relation(">", other)

    def __ge__(self, other: Any) -> _TracedRelation:
        return self._relation(">=", other)

    def __eq__(self, other: object) -> bool:
        raise BranchOnSymbol("`==`", self.what, _INSTEAD["=="])

    def __ne__(self, other: object) -> bool:
        raise BranchOnSymbol("`!=`", self.what, _INSTEAD["!="])

    def __bool__(self) -> bool:
        raise BranchOnSymbol("`bool()` (an if, and/or, or a conditional expression)", self.what, _INSTEAD["bool"])

    def __int__(self) -> int:
        raise BranchOnSymbol("`int()`", self.what, _INSTEAD["int"])

    def __float__(self) -> float:
        raise BranchOnSymbol("`float()` (or math.*)", self.what, _INSTEAD["float"])

    def __index__(self) -> int:
        raise BranchOnSymbol("`range()` or indexing", self.what, _INSTEAD["index"])

    def __hash__(self) -> int:
        if _from_user_code():  # a dict key or set member: a lookup would compare with one value for every rank
            raise BranchOnSymbol("a dict or set lookup", self.what, _INSTEAD["lookup"])
        # SymPy's caches hash their arguments: by identity, so that they never compare two traced values with ==
        return object.__hash__(self)

    def __round__(self, ndigits: int | None = None) -> int:
        raise BranchOnSymbol("`round()`", self.what, _INSTEAD["int"])

    def __str__(self) -> str:
        if _from_user_code():  # a string tells a symbol from a number: "i" against "300"
            raise BranchOnSymbol("`str()` (or an f-string, print, format)", self.what, _INSTEAD["text"])
        return f"Traced({self.expr})"

    def __repr__(self) -> str:
        if _from_user_code():
            raise BranchOnSymbol("`repr()`", self.what, _INSTEAD["text"])
        return f"Traced({self.expr!r})"

    def __format__(self, spec: str) -> str:
        raise BranchOnSymbol("`format()` (or an f-string)", self.what, _INSTEAD["text"])

    def __getattr__(self, name: str) -> Any:
        if _from_user_code():  # a probe such as i.numerator: present on a number, absent on a symbol
            raise BranchOnSymbol(f"reading the attribute `{name}`", self.what, _INSTEAD["inspect"], where="the formula")
        raise AttributeError(name)


class _TracedRelation:
    """A comparison of a traced value: usable as a condition inside SymPy (Piecewise), never as a Python truth value."""

    __slots__ = ("expr", "op", "what")

    def __init__(self, expr: sympy.Basic, what: str, op: str) -> None:
        self.expr, self.what, self.op = expr, what, op

    def _sympy_(self) -> sympy.Basic:
        return self.expr

    def __bool__(self) -> bool:
        raise BranchOnSymbol(f"`{self.op}` used as a truth value (an if, a conditional expression, or a min/max builtin)",
                             self.what, _INSTEAD["comparison"])


_GUARDS = 0
_SAVED: dict[tuple[type, str], Any] = {}
"""The methods the guards replace, by (class, name), while they are installed."""
_OWN: dict[tuple[type, str], bool] = {}
_SEEN: list[BranchOnSymbol] = []
"""Every refusal raised while the forms are built, caught by the formula or not."""
_WATCHED: list[list[tuple[str, str, str]]] = []
"""What :func:`~irprops.metrics.watching.watching` saw the formula's code use in the outermost guarded block."""


def _from_user_code() -> bool:
    """Whether the code that triggered the current special method (two frames up) is the formula's own."""
    return formula_frame(sys._getframe(2))


def _symbolic(value: object) -> bool:
    """A value a formula may not compare or branch on: a traced value, or any SymPy object other than a number or
    true/false. An expression without symbols counts too: ``Sum(1, (i, 1, 3))`` is 3 in the exact run but compares
    structurally in the symbolic run (``== 3`` is false)."""
    return isinstance(value, (Traced, _TracedRelation)) or (
        isinstance(value, sympy.Basic) and not isinstance(value, (sympy.Number, sympy.logic.boolalg.BooleanAtom)))


def _fractional(exponent: object) -> bool:
    """Whether ``exponent`` may take a value that is not an integer (a rank, a depth and their sums are integers)."""
    try:
        return sympy.sympify(untrace(exponent)).is_integer is not True
    except (sympy.SympifyError, TypeError):
        return True


def _power(name: str) -> Callable[..., Any]:
    """SymPy's ``__pow__``/``__rpow__``, refusing a fractional exponent from the formula's own code: on the exact
    numbers of the exact run Python's ``**`` gives a float (``Fraction(2) ** Fraction(1, 2)``), on SymPy's a root."""
    def guarded(self: sympy.Basic, other: object, *rest: object) -> Any:
        base, exponent = (other, self) if name == "__rpow__" else (self, other)
        if _from_user_code():
            if _fractional(exponent):
                raise BranchOnSymbol("`**` with an exponent that may not be an integer",
                                     f"{untrace(base)} ** {untrace(exponent)}", _INSTEAD["power"], rule=_POWER)
            _divides(operator.pow, base, exponent)
        return _SAVED[(sympy.Expr, name)](self, other, *rest)
    return guarded


_DIVIDING = {"truediv": operator.truediv, "floordiv": operator.floordiv, "mod": operator.mod}


def _division(name: str, owner: type) -> Callable[..., Any]:
    """SymPy's ``/``, ``//`` or ``%`` of ``owner``, recording the divisor when the formula's own code divides: SymPy
    simplifies ``0 / x`` to 0, where the exact run has no value at x = 0."""
    op = _DIVIDING[name.strip("_").removeprefix("r")]

    def guarded(self: sympy.Basic, other: object) -> Any:
        if _from_user_code():
            _divides(op, *((other, self) if name.startswith("__r") else (self, other)))
        return _SAVED[(owner, name)](self, other)
    return guarded


def _condition_pair(cls: type, expr: object, cond: object) -> Any:
    """SymPy's ``(expr, cond)`` pair of a Piecewise, taking a comparison of a traced value as its condition
    (``sympy.Piecewise((1, m.k >= 7), (0, True))``: at a concrete depth the comparison is already True or False)."""
    return _SAVED[(ExprCondPair, "__new__")](cls, expr, untrace(cond))


def _guard(name: str, construct: str, instead: str, owner: type = sympy.Basic) -> Callable[..., Any]:
    """SymPy's special method ``name`` of ``owner``, refusing (BranchOnSymbol) when the formula's own code calls it on
    symbols."""
    def guarded(self: sympy.Basic, *other: object) -> Any:
        if _from_user_code() and (_symbolic(self) or any(_symbolic(o) for o in other)):
            raise BranchOnSymbol(construct, _what(self, *other, None), _INSTEAD[instead])
        if name == "__bool__":  # Python's own truth for a value without __bool__: its length if it has one
            return len(self) != 0 if hasattr(type(self), "__len__") else True  # type: ignore[arg-type]
        return _SAVED[(owner, name)](self, *other)
    return guarded


_GUARDED = (
    ("__eq__", "`==` between symbolic expressions", "=="),
    ("__ne__", "`!=` between symbolic expressions", "!="),
    ("__hash__", "a dict or set lookup", "lookup"),
    ("__str__", "`str()` (or an f-string, print, format)", "text"),
    ("__repr__", "`repr()`", "text"),
)
_GUARDED_BOOL = _guard("__bool__", "`bool()` (an if, and/or, or a conditional expression)", "bool")


def _what(a: object, b: object, *_: object) -> str:
    shown = a if _symbolic(a) else b
    if isinstance(shown, (Traced, _TracedRelation)):
        return shown.what
    return f"the symbolic expression {shown}" if _symbolic(shown) else f"the number {a}"


def _guarded_classes() -> list[tuple[type, str, Callable[..., Any]]]:
    """Each (class, method, guard) to install: all of Basic's guarded methods, and ``==``/``!=`` wherever a SymPy class
    defines its own (``Integer.__eq__``: ``sympy.Integer(1501) == k`` is SymPy's comparison, answered for every k at
    once), and ``**`` on expressions."""
    found: dict[type, None] = {}
    pending = [sympy.Basic]
    while pending:
        for sub in pending.pop().__subclasses__():
            if sub not in found:
                found[sub] = None
                pending.append(sub)
    chosen = [(sympy.Basic, name, _guard(name, construct, instead)) for name, construct, instead in _GUARDED]
    chosen += [(cls, name, _guard(name, construct, instead, cls))
               for cls in found for name, construct, instead in _GUARDED[:2] if name in vars(cls)]
    chosen += [(sympy.Expr, name, _power(name)) for name in ("__pow__", "__rpow__")]
    chosen += [(ExprCondPair, "__new__", _condition_pair)]
    divisions = [f"__{r}{op}__" for op in _DIVIDING for r in ("", "r")]
    chosen += [(cls, name, _division(name, cls)) for cls in (sympy.Basic, *found) for name in divisions if name in vars(cls)]
    return chosen


@contextlib.contextmanager
def guarding() -> Iterator[None]:
    """While the symbolic forms are built: SymPy expressions with symbols refuse ``==``, ``!=``, ``bool()`` and
    hashing *from the formula's own code* (SymPy's and irprops' bookkeeping is untouched).

    ``Traced`` values cover what the algebra hands out; this covers what the formula derives from them
    with SymPy functions (``sympy.sympify(i) == 250``, ``sympy.log(i) == sympy.log(250)``, a dict keyed by
    an expression), which SymPy would compare structurally and answer for every rank at once.
    """
    global _GUARDS
    guards = _guarded_classes() if _GUARDS == 0 else []
    watch = contextlib.ExitStack()
    if _GUARDS == 0:
        _SEEN.clear()
        _WATCHED[:] = [watch.enter_context(watching())]
        for cls, name, guard in guards:
            _SAVED[(cls, name)] = getattr(cls, name)
            _OWN[(cls, name)] = name in vars(cls)
            setattr(cls, name, guard)
        sympy.Basic.__bool__ = _GUARDED_BOOL  # type: ignore[attr-defined]
    _GUARDS += 1
    failure: Exception | None = None
    try:
        yield
    except Exception as error:  # noqa: BLE001 - re-raised below, unless the watch saw a construct before it
        failure = error
    finally:
        _GUARDS -= 1
        watch.close()
        if _GUARDS == 0:
            for cls, name, _ in reversed(guards):
                if _OWN[(cls, name)]:
                    setattr(cls, name, _SAVED[(cls, name)])
                else:
                    delattr(cls, name)  # it was inherited (Basic's __str__ from SymPy's Printable)
            _SAVED.clear()
            del sympy.Basic.__bool__  # type: ignore[attr-defined]
    if _GUARDS == 0 and _WATCHED and _WATCHED[0]:  # a type or stack test, or state: refused even if nothing branched
        construct, function, kind = _WATCHED[0][0]
        _WATCHED.clear()
        _SEEN.clear()
        raise BranchOnSymbol(construct, "a symbolic rank or depth", _INSTEAD[kind], where=f"`{function}`") from failure
    if failure is not None:  # the first construct outside the language is named above, even if what followed failed
        raise failure
    if _GUARDS == 0 and _SEEN:  # the formula caught a refusal (try/except): the forms are refused all the same
        first = _SEEN[0]
        _SEEN.clear()
        raise first


def refuse_outside_language(name: str, function: Any, where: str) -> None:
    """Raise :class:`BranchOnSymbol` if ``function``, handed to ``where`` as a formula or weight, is outside the formula
    language (a C function, a ``functools.partial``, a cached wrapper: code that would run unwatched)."""
    refusal = language.entry_refusal(name, function)
    if refusal is not None:
        raise BranchOnSymbol(refusal[0], "a symbolic rank or depth", _INSTEAD[refusal[1]], where=where)


def _arithmetic(cls: type, make: Callable[..., Any]) -> None:
    """Install ``+ - * /`` and their reflections on ``cls``, each made by ``make(op)`` / ``make(op, reflected=True)``."""
    for name, op in (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul), ("truediv", operator.truediv)):
        setattr(cls, f"__{name}__", make(op))
        setattr(cls, f"__r{name}__", make(op, reflected=True))


_arithmetic(Traced, _binary)
