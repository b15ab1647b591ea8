"""A declared formula that reaches SymPy through its module's own builtins (a twenty-second hostile review, issue 10).

The module rebinds ``__builtins__`` to a dictionary holding ``sympy.Pow``, ``sympy.Piecewise`` and ``sympy.Eq`` under
short names. The formula's code loads them as globals, which Python resolves in the function's builtins, not in the
module's globals: the static scan that decides whether the exact run must be strict followed only the globals, so the
exact run was not strict, had a value at k = 8 where the metric has none, and the search built three false "no" on it.
"""

from __future__ import annotations

import builtins
from fractions import Fraction
from typing import Any

import sympy

from .adversarial_proposals import proposal

__builtins__ = {**vars(builtins), "P": sympy.Pow, "PW": sympy.Piecewise, "EQ": sympy.Eq}


# d = 1 / (k - 8) is no real number at k = 8 (zoo), where Eq(d, d + 1) is True and the sign flips; at every other depth d
# is a finite number, Eq(d, d + 1) is False, and the score is sum_{i<=k} r_i / 2^i. Under the strict semantics the
# metric has no value at k = 8, and is monotonic, convergent and top-weighted everywhere else.
@proposal("sympy-by-builtins")
def sympy_by_builtins(m: Any) -> Any:
    d = P(m.k - 8, -1)  # type: ignore[name-defined]  # noqa: F821
    return m.sum(1, m.k, lambda i: m.r(i) / 2**i) * PW((-1, EQ(d, d + 1)), (1, True))  # type: ignore[name-defined]  # noqa: F821


def sympy_by_builtins_truth(ranking: tuple[Fraction, ...], k: int) -> Fraction | None:
    """The metric in plain fractions: no value at k = 8 (a division by zero), sum_{i<=k} r_i / 2^i elsewhere."""
    if k == 8:
        return None
    return sum((Fraction(ranking[i - 1] if i <= len(ranking) else 0, 2**i) for i in range(1, k + 1)), Fraction(0))
