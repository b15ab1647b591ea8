"""Code that trusted libraries compile at run time from their own templates, under the file name ``<string>``.

SymPy's polynomial arithmetic builds its monomial operations with ``exec`` (``MonomialOps._build``, the only
``exec`` in ``sympy.polys``), from templates that depend only on the number of variables. Such code has no file, so the
watcher (:mod:`~irprops.metrics.watching`) would take it for the formula's own and refuse what it does on SymPy's behalf
(a twenty-fourth hostile review: "a write into an object" for SymPy's own code). ``_build`` is wrapped to record the code
it compiles when one of SymPy's own methods in its module calls it on a pristine ``MonomialOps`` (each fills the
template with its own text); :func:`compiled_by_library` answers from that record. Code a proposal compiles itself
(``exec`` in its file, ``eval`` of a string, ``_build`` called with its own text, or with its own ``_vars`` on SymPy's
``MonomialOps``: a twenty-fifth hostile review) is never in it. (An audit hook on ``exec`` did the same, but Python
calls an audit hook on every ``id()`` and guarded attribute read too: the strict run was five times slower.)

>>> from sympy.polys.monomials import MonomialOps
>>> compiled_by_library(MonomialOps(2).mul().__code__)
True
>>> namespace: dict[str, object] = {}
>>> exec("def f(i):\\n    return i", namespace)
>>> compiled_by_library(namespace["f"].__code__)
False
>>> compiled_by_library(MonomialOps(2)._build("def g(A):\\n    return A", "g").__code__)  # SymPy's compiler, a proposal's text
False
"""

from __future__ import annotations

import sys
from types import CodeType
from typing import Any

from sympy.polys import monomials

__all__ = ["compiled_by_library"]

_BUILD = monomials.MonomialOps._build
_VARS = monomials.MonomialOps._vars
"""SymPy's compiler, and the method that names the template's variables, as SymPy defines them."""
_COMPILED: set[CodeType] = set()
"""Every code object SymPy's methods had ``_build`` compile, with the functions defined in it (kept alive: no id reuse)."""


def _nested(code: CodeType) -> list[CodeType]:
    inner = [const for const in code.co_consts if isinstance(const, CodeType)]
    return [code, *(found for each in inner for found in _nested(each))]


def _build(self: Any, code: str, name: str) -> Any:
    """``MonomialOps._build``, recording what it compiles for SymPy's own methods."""
    function = _BUILD(self, code, name)
    template = sys._getframe(1)  # who handed the compiler its text: one of SymPy's own methods in its module
    if template.f_globals is vars(monomials) and template.f_code.co_filename == monomials.__file__ \
            and type(self) is monomials.MonomialOps and monomials.MonomialOps._vars is _VARS \
            and set(vars(self)) <= {"ngens"} and type(self.ngens) is int:
        _COMPILED.update(_nested(function.__code__))
    return function


def compiled_by_library(code: CodeType) -> bool:
    """Whether ``code`` was compiled by a trusted template compiler (SymPy's monomial operations) from its template."""
    return code in _COMPILED


monomials.MonomialOps._build = _build  # type: ignore[method-assign]
