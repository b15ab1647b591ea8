"""Partial sums and products shared within one concrete run of a formula.

ERR's ``m.sum(1, m.k, lambda i: m.r(i) / i * m.prod(1, i - 1, lambda j: 1 - m.r(j)))`` asks
for the product over ranks ``1..i-1`` once per rank ``i``: written out, k (k - 1) / 2 factors,
so an exact score at depth 200 took 20,000 Fraction products, and a search that checks
thousands of situations to depth 200 ran out of its time. Each inner function is a new
closure, but of the same code over the same values, so it is the same function: its partial
products from the same lower limit can be kept and extended, one factor per rank, as the
term-by-term writer of the closed form does (:mod:`irprops.metrics.writeout`).

Two closures are taken for the same function only when that is certain: same code and
globals, no defaults, and every free variable bound, at the time of the call, to the run's own
algebra, to a prefix object (with the function it computes at that time), or to a function that is again such a function (never to a number
or any other value: ``lambda j: j * i`` over the outer ``i`` is a different function for each
``i``, and so is a helper that reads a variable the formula rebinds between two sums, a
thirtieth hostile review). A formula writes no globals and no enclosing variables (the symbolic
run refuses one that does, before any exact run), so such a function's value at a rank is the
same every time it is asked.

>>> from irprops.metrics import Situation
>>> from irprops.metrics.algebra import ExactAlgebra
>>> m = ExactAlgebra(Situation.of("0101", k=4), {})
>>> asked = []
>>> def going_on(j):
...     asked.append(j)
...     return 1 - m.r(j)
>>> m.sum(1, m.k, lambda i: m.r(i) / i * m.prod(1, i - 1, going_on))
Fraction(1, 2)
>>> asked  # each factor once, not 0 + 1 + 2 + 3 times
[1, 2, 3]
"""

from __future__ import annotations

import types
from collections.abc import Callable, Hashable
from typing import Any, Protocol, cast

__all__ = ["Shared", "shared_key"]

Shared = dict[Hashable, list[Any]]
"""Per run: for each shared (kind, function, lower limit), the partial results ``[unit, f(lo), f(lo) op f(lo+1), ...]``."""


def shared_key(kind: str, f: Callable[..., Any], lo: int, algebra: object, allowed: tuple[type, ...],
               depth: int = 0) -> Hashable | None:
    """The key under which ``kind`` (``"sum"``/``"prod"``) of ``f`` from ``lo`` is kept, or None when ``f`` may not be
    the same function as another closure of its code (:func:`_function_key`). An instance of ``allowed`` held by ``f``
    counts as itself together with its ``current_key(depth)``, the function it computes now (None: not shared)."""
    if isinstance(f, types.MethodType):
        return (kind, f.__func__, lo) if f.__self__ is algebra else None
    function = _function_key(f, algebra, allowed, depth)
    return None if function is None else (kind, function, lo)


class Keyed(Protocol):
    """An object a shared function may hold (a prefix of :mod:`~irprops.metrics.algebra`): it says which function it
    computes now."""

    def current_key(self, depth: int) -> Hashable | None: ...


_NESTING = 8
"""How deep :func:`_function_key` follows functions held by functions before it gives up (and nothing is shared)."""


def _function_key(f: object, algebra: object, allowed: tuple[type, ...], depth: int) -> Hashable | None:
    """What makes the Python function ``f`` the function it is *now*: its code, globals, and the current value of every
    free variable, which must be ``algebra``, an instance of ``allowed`` (a :class:`Keyed` prefix object: itself with the key
of what it computes now), or again such a function
    (followed, since a function it calls may read a variable the formula rebinds between two sums: ``c = 1 ... c = 0``,
    a loop variable); None for anything else (a number, defaults, attributes, no Python code)."""
    if not isinstance(f, types.FunctionType) or f.__defaults__ or f.__kwdefaults__ or vars(f) or depth > _NESTING:
        return None  # attributes too: functions of one code may differ only in them (h.k, h.R; round 31)
    bound: list[Hashable] = []
    for cell in f.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:  # a free variable not yet bound
            return None
        if value is algebra:
            bound.append(_Same(value))
        elif isinstance(value, types.MethodType) and value.__self__ is algebra:  # m.r, m.relevant: read the situation only
            bound.append((_Same(algebra), value.__func__))
        elif isinstance(value, allowed):  # a prefix object: itself, and the function it computes now (it may be rebound)
            now = cast("Keyed", value).current_key(depth + 1)
            if now is None:
                return None
            bound.append((_Same(value), now))
        else:
            inner = _function_key(value, algebra, allowed, depth + 1)
            if inner is None:
                return None
            bound.append(inner)
    return (f.__code__, _Same(f.__globals__), tuple(bound))


class _Same:
    """An object compared by identity, and kept alive by the key (so that no other object can take its id)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)
