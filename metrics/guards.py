"""While the symbolic forms are built: SymPy's own objects refuse what would let a formula tell its runs apart.

:class:`~irprops.metrics.tracing.Traced` values cover what the algebra hands out; :func:`guarding` covers what the
formula derives from them with SymPy functions (``sympy.sympify(i) == 250``, ``sympy.log(i) == sympy.log(250)``, a
dict keyed by an expression), which SymPy would compare structurally and answer for every rank at once. It patches
SymPy's special methods for the duration, and only calls from the formula's own code are refused: ``==``, ``!=``,
``bool()``, hashing and text of expressions with symbols, ``**`` with an exponent that may not be an integer; every
divisor of ``/ // %`` is recorded. It also runs the formula-language watch (:mod:`~irprops.metrics.watching`).
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Callable, Iterator
from typing import Any

import sympy
from sympy.functions.elementary.piecewise import ExprCondPair

from . import language
from .tracing import (
    INSTEAD,
    POWER_RULE,
    REFUSALS,
    BranchOnSymbol,
    Traced,
    TracedRelation,
    divides,
    fractional,
    from_user_code,
    untrace,
)
from .watching import watching

__all__ = ["guarding", "refuse_outside_language"]

_GUARDS = 0
_SAVED: dict[tuple[type, str], Any] = {}
"""The methods the guards replace, by (class, name), while they are installed."""
_OWN: dict[tuple[type, str], bool] = {}
_WATCHED: list[list[tuple[str, str, str]]] = []
"""What :func:`~irprops.metrics.watching.watching` saw the formula's code use in the outermost guarded block."""


def _symbolic(value: object) -> bool:
    """A value a formula may not compare or branch on: a traced value, or any SymPy object other than a number or
    true/false. An expression without symbols counts too: ``Sum(1, (i, 1, 3))`` is 3 in the exact run but compares
    structurally in the symbolic run (``== 3`` is false)."""
    return isinstance(value, (Traced, TracedRelation)) or (
        isinstance(value, sympy.Basic) and not isinstance(value, (sympy.Number, sympy.logic.boolalg.BooleanAtom)))


def _power(name: str) -> Callable[..., Any]:
    """SymPy's ``__pow__``/``__rpow__``, refusing a fractional exponent from the formula's own code: on the exact
    numbers of the exact run Python's ``**`` gives a float (``Fraction(2) ** Fraction(1, 2)``), on SymPy's a root."""
    def guarded(self: sympy.Basic, other: object, *rest: object) -> Any:
        base, exponent = (other, self) if name == "__rpow__" else (self, other)
        if from_user_code():
            if rest and rest[0] is not None:  # pow(x, e, q): SymPy takes the modulus its own way (an eighteenth hostile review:
                # a modular inverse in the exact run, Mod(1/7, q) = 1/7 in the closed form), and q divides unrecorded
                raise BranchOnSymbol("`pow` with a modulus (three arguments)", f"pow({untrace(base)}, {untrace(exponent)}, ...)",
                                     "sympy.Mod(x ** e, q)", rule="Python's three-argument pow takes a modular inverse on the "
                                     "exact run's integers and a remainder of a fraction on SymPy's expressions")
            if fractional(exponent):
                raise BranchOnSymbol("`**` with an exponent that may not be an integer",
                                     f"{untrace(base)} ** {untrace(exponent)}", INSTEAD["power"], rule=POWER_RULE)
            divides(operator.pow, base, exponent)
        return _SAVED[(sympy.Expr, name)](self, other, *rest)
    return guarded


_DIVIDING = {"truediv": operator.truediv, "floordiv": operator.floordiv, "mod": operator.mod}


def _division(name: str, owner: type) -> Callable[..., Any]:
    """SymPy's ``/``, ``//`` or ``%`` of ``owner``, recording the divisor when the formula's own code divides: SymPy
    simplifies ``0 / x`` to 0, where the exact run has no value at x = 0."""
    op = _DIVIDING[name.strip("_").removeprefix("r")]

    def guarded(self: sympy.Basic, other: object) -> Any:
        if from_user_code():
            divides(op, *((other, self) if name.startswith("__r") else (self, other)))
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
        if from_user_code() and (_symbolic(self) or any(_symbolic(o) for o in other)):
            raise BranchOnSymbol(construct, _what(self, *other, None), INSTEAD[instead])
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
    if isinstance(shown, (Traced, TracedRelation)):
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


def _unguard(guards: list[tuple[type, str, Callable[..., Any]]]) -> None:
    """SymPy's own methods back in place of the guards, once the outermost :func:`guarding` block ends."""
    if _GUARDS != 0:
        return
    for cls, name, _ in reversed(guards):
        if _OWN[(cls, name)]:
            setattr(cls, name, _SAVED[(cls, name)])
        else:
            delattr(cls, name)  # it was inherited (Basic's __str__ from SymPy's Printable)
    _SAVED.clear()
    del sympy.Basic.__bool__  # type: ignore[attr-defined]


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
        REFUSALS.clear()
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
        try:
            watch.close()
        finally:  # SymPy's own methods come back even if the watch could not give the profile hook back
            _unguard(guards)
    if _GUARDS == 0 and _WATCHED and _WATCHED[0]:  # a type or stack test, or state: refused even if nothing branched
        construct, function, kind = _WATCHED[0][0]
        _WATCHED.clear()
        REFUSALS.clear()
        if kind == "compiled":  # code a library compiled from text (function says which, and where it ran)
            raise BranchOnSymbol(construct, "a symbolic rank or depth", INSTEAD[kind], function, compiled=True) from failure
        raise BranchOnSymbol(construct, "a symbolic rank or depth", INSTEAD[kind], where=f"`{function}`") from failure
    if failure is not None:  # the first construct outside the language is named above, even if what followed failed
        raise failure
    if _GUARDS == 0 and REFUSALS:  # the formula caught a refusal (try/except): the forms are refused all the same
        first = REFUSALS[0]
        REFUSALS.clear()
        raise first


def refuse_outside_language(name: str, function: Any, where: str) -> None:
    """Raise :class:`BranchOnSymbol` if ``function``, handed to ``where`` as a formula or weight, is outside the formula
    language (a C function, a ``functools.partial``, a cached wrapper: code that would run unwatched)."""
    refusal = language.entry_refusal(name, function)
    if refusal is not None:
        raise BranchOnSymbol(refusal[0], "a symbolic rank or depth", INSTEAD[refusal[1]], where=where)
