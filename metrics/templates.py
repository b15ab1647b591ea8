"""Code that trusted libraries compile at run time from their own templates, under the file name ``<string>``.

SymPy's polynomial arithmetic builds its monomial operations with ``exec`` (``MonomialOps._build``, the only
``exec`` in ``sympy.polys``), from templates that depend only on the number of variables. Such code has no file, so the watcher
(:mod:`~irprops.metrics.watching`) would take it for the formula's own and refuse what it does on SymPy's behalf (a
twenty-fourth hostile review: "a write into an object" for SymPy's own code). An audit hook records the code objects
this compiler runs through ``exec`` when it is called by SymPy's own code in its module (``MonomialOps.mul`` and the
like, each of which fills the template with its own text); :func:`compiled_by_library` answers from that record. Code
a proposal compiles itself (``exec`` in its file, ``eval`` of a string, or ``MonomialOps._build`` called with its own
text, or with its own ``_vars`` on SymPy's ``MonomialOps``: a twenty-fifth hostile review) is never in it.

>>> from sympy.polys.monomials import MonomialOps
>>> compiled_by_library(MonomialOps(2).mul().__code__)
True
>>> namespace: dict[str, object] = {}
>>> exec("def f(i):\\n    return i", namespace)
>>> compiled_by_library(namespace["f"].__code__)
False
>>> compiled_by_library(MonomialOps(2)._build("def g(A):\\n    return A", "g").__code__)  # SymPy's compiler, a proposal's text
False

Reference: PEP 578 (runtime audit hooks): the ``exec`` event carries the code object about to run.
"""

from __future__ import annotations

import sys
from types import CodeType
from typing import Any

from sympy.polys import monomials

__all__ = ["compiled_by_library"]

_COMPILERS = {(monomials.MonomialOps._build.__code__, id(vars(monomials)))}
"""(the function that calls ``exec``, its module's namespace): the template compilers whose output is trusted."""
_VARS = monomials.MonomialOps._vars
"""The method that names the template's variables, as SymPy defines it."""
_COMPILED: set[CodeType] = set()
"""Every code object those compilers ran through ``exec``, with the functions defined in it (kept alive: no id reuse)."""


def _nested(code: CodeType) -> list[CodeType]:
    inner = [const for const in code.co_consts if isinstance(const, CodeType)]
    return [code, *(found for each in inner for found in _nested(each))]


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event != "exec" or not isinstance(args[0], CodeType) or not args[0].co_filename.startswith("<"):
        return
    caller = sys._getframe(1)  # the frame that called exec (the hook runs inside exec, called from C)
    if (caller.f_code, id(caller.f_globals)) not in _COMPILERS:
        return
    template = caller.f_back  # who handed the compiler its text: one of SymPy's own methods in the same module
    if template is None or template.f_globals is not caller.f_globals or template.f_code.co_filename != monomials.__file__:
        return
    ops: Any = caller.f_locals.get("self")  # the text is SymPy's only if the names it fills in are (a proposal may replace
    if not isinstance(ops, monomials.MonomialOps) or type(ops) is not monomials.MonomialOps:  # _vars)
        return
    if monomials.MonomialOps._vars is _VARS and set(vars(ops)) <= {"ngens"} and type(ops.ngens) is int:
        _COMPILED.update(_nested(args[0]))


def compiled_by_library(code: CodeType) -> bool:
    """Whether ``code`` was compiled by a trusted template compiler (SymPy's monomial operations) from its template."""
    return code in _COMPILED


sys.addaudithook(_audit)
