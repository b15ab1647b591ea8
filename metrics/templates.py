"""Code that trusted libraries compile from their own templates, under the file name ``<string>``.

SymPy's polynomial arithmetic builds its monomial operations with ``exec`` (``MonomialOps._build``, the only
``exec`` in ``sympy.polys``), from templates that depend only on the number of variables. Such code has no file, so the
watcher (:mod:`~irprops.metrics.watching`) would take it for the formula's own and refuse what it does on SymPy's behalf
(a twenty-fourth hostile review: "a write into an object" for SymPy's own code). ``_build`` is wrapped to record the code
it compiles when one of SymPy's own methods in its module calls it on a pristine ``MonomialOps`` (each fills the
template with its own text); :func:`compiled_by_library` answers from that record. Code a proposal compiles itself
(``exec`` in its file, ``eval`` of a string, ``_build`` called with its own text, or with its own ``_vars`` on SymPy's
``MonomialOps``: a twenty-fifth hostile review) is never in it. (An audit hook on ``exec`` did the same, but Python
calls an audit hook on every ``id()`` and guarded attribute read too: the strict run was five times slower.)

mpmath, which SymPy evaluates with, compiles its real numbers' arithmetic (``_mpf.__add__``, ``__eq__``, ...) the same
way, in ``ctx_mp_python.binary_op`` when mpmath is imported; ``nsimplify`` (which SymPy's ``Mod`` may call) runs it.
Those functions are recorded as they stand on mpmath's class when irprops is imported, before any proposal is loaded (a
twenty-sixth session, by hand: ``Mod(3, 1 + d)``, d a nested-radical zero, was refused for "a write into an object" in
mpmath's ``__mul__``). What ``exec`` runs to define a template's function is recorded with it: the module-level code
of the template, which defines the function, is SymPy's as much as the function is.

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

from mpmath import ctx_mp_python
from sympy.polys import monomials

__all__ = ["compiled_by_library"]

_BUILD = monomials.MonomialOps._build
_VARS = monomials.MonomialOps._vars
"""SymPy's compiler, and the method that names the template's variables, as SymPy defines them."""
_COMPILED: set[CodeType] = set()
"""Every code object compiled from a trusted library's template, nested code included (kept alive: no id reuse)."""


def _nested(code: CodeType) -> list[CodeType]:
    inner = [const for const in code.co_consts if isinstance(const, CodeType)]
    return [code, *(found for each in inner for found in _nested(each))]


def _build(self: Any, code: str, name: str) -> Any:
    """``MonomialOps._build`` (``exec`` of the text, then the function it defines), recording what it compiles for
    SymPy's own methods: the template's module-level code and the function in it."""
    template = sys._getframe(1)  # who handed the compiler its text: one of SymPy's own methods in its module
    if not (template.f_globals is vars(monomials) and template.f_code.co_filename == monomials.__file__
            and type(self) is monomials.MonomialOps and monomials.MonomialOps._vars is _VARS
            and set(vars(self)) <= {"ngens"} and type(self.ngens) is int and type(code) is str):
        return _BUILD(self, code, name)
    compiled = compile(code, "<string>", "exec")  # as exec(code, ns) compiles it
    _COMPILED.update(_nested(compiled))
    namespace: dict[str, Any] = {}
    exec(compiled, namespace)  # noqa: S102 - SymPy's own template text, as SymPy runs it
    return namespace[name]


def _arithmetic_of_mpmaths_numbers() -> list[CodeType]:
    """The code ``binary_op`` compiled onto mpmath's real number type when mpmath was imported."""
    return [found for value in vars(ctx_mp_python._mpf).values()
            if callable(value) and getattr(value, "__globals__", None) is vars(ctx_mp_python)
            and getattr(getattr(value, "__code__", None), "co_filename", None) == "<string>"
            for found in _nested(value.__code__)]


def compiled_by_library(code: CodeType) -> bool:
    """Whether ``code`` was compiled by a trusted library from its own template (SymPy's monomial operations, mpmath's
    arithmetic)."""
    return code in _COMPILED


monomials.MonomialOps._build = _build  # type: ignore[method-assign]
_COMPILED.update(_arithmetic_of_mpmaths_numbers())
