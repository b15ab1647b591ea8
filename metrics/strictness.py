"""A declared formula's exact run is strict: a step whose value is no real number leaves the metric without a value.

Python stops at ``1 / 0``; SymPy does not: ``sympy.Pow(0, -1)`` is ``zoo``, ``sympy.log(0)`` is ``zoo``,
``sympy.Mod(1, 0)`` is ``nan``, ``sympy.log(-2)`` is complex, and a later step may drop such a value
(a ``Piecewise`` branch not taken) or decide on it (``Eq(zoo, zoo + 1)`` is True, while for a finite
d ``Eq(d, d + 1)`` is False, as SymPy decides it on symbols while building the closed form). The
closed form is the metric only where every value the formula computes is a real number, and the
forms record exactly those conditions (:mod:`~irprops.metrics.domains`). So the exact run, which
defines the metric, gives no score as soon as the formula receives a value that is no real number
from any call (SymPy, the algebra, an operator on SymPy values), whatever it does with it next (a
twentieth hostile review: ``Piecewise((B, Eq(d, d + 1)), (A, True))`` with ``d = Pow(T, -1)`` was
B in the exact run where T = 0 and A in the closed form, and 23 false "yes" for all k followed).

>>> import sympy
>>> def formula(m):
...     d = sympy.Pow(m.k - 3, -1)
...     return sympy.Piecewise((5, sympy.Eq(d, d + 1)), (1, True))
>>> with strict() as steps:
...     value = formula(type("M", (), {"k": 3})())
>>> value, steps
(5, ['a step has no real value (zoo)'])
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from types import FrameType
from typing import Any

import sympy

from . import exact
from .watching import formula_frame

__all__ = ["strict"]


@contextlib.contextmanager
def strict() -> Iterator[list[str]]:
    """Record, in this block, the first value that is no real number handed to the formula's code by a call."""
    found: list[str] = []
    previous = sys.getprofile()

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event != "return" or found or not isinstance(arg, sympy.Basic) or formula_frame(frame):
            return
        caller = frame.f_back
        if caller is not None and formula_frame(caller):
            why = exact.no_value(arg)
            if why is not None:
                found.append(f"a step has no real value ({arg if len(str(arg)) < 40 else why})")

    sys.setprofile(hook)
    try:
        yield found
    finally:
        sys.setprofile(previous)
