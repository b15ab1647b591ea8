"""Declared formulas that tell the symbolic run from the exact run, to hide a feature past every depth a check looks at.

Each scores ``s_k = sum_{i<=k} b_i / (i (i + 1))`` (monotonic, bounded by 1, top-weighted) in
its symbolic run, but its exact run subtracts 1 from depth 1501 on, or triples the weights
from rank 1501 on: monotonic (or top-weighted) is false at k = 1501, far past the agreement
check's deepest depth (1000), so only a refusal of the construct keeps a false "yes" away.
Each names the construct it uses to tell the runs apart: ``CONSTRUCTS`` maps the proposal to
the text the refusal must name.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import sympy

from irprops.metrics import Measure

from .adversarial_proposals import proposal

FEATURE_DEPTH = 1500
IS_INSTANCE = isinstance  # an alias, made before any run: only the call itself shows what it is


def _s(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / (i * (i + 1)))


def _concrete_by_helper(x: Any) -> bool:
    return type(x) is not sympy.Symbol and str(type(x).__name__) == "ExactInt"


@proposal("hides-by-isinstance")
def by_isinstance(m: Any) -> Any:
    return _s(m) - 1 if isinstance(m.k, int) and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-type")
def by_type(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) * (3 if type(i) is not type(m.k) or (type(i) is int and i > FEATURE_DEPTH) else 1)
                 / (i * (i + 1)))


@proposal("hides-by-hasattr")
def by_hasattr(m: Any) -> Any:
    return _s(m) - 1 if hasattr(m.k, "bit_length") and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-getattr")
def by_getattr(m: Any) -> Any:
    return _s(m) - 1 if getattr(m.k, "numerator", None) is not None and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-class")
def by_class(m: Any) -> Any:
    return _s(m) - 1 if m.k.__class__.__name__ == "ExactInt" and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-sympy-attribute")
def by_sympy_attribute(m: Any) -> Any:
    return _s(m) - 1 if sympy.sympify(m.k).is_Integer and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-free-symbols")
def by_free_symbols(m: Any) -> Any:
    return _s(m) - 1 if not sympy.sympify(m.k).free_symbols and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-catch")
def by_catch(m: Any) -> Any:
    try:
        m.k.real  # noqa: B018 - the probe under test: an int has .real, a traced depth does not
        concrete = True
    except AttributeError:
        concrete = False
    return _s(m) - 1 if concrete and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-suppress")
def by_suppress(m: Any) -> Any:
    concrete = False
    with contextlib.suppress(Exception):
        concrete = m.k + 0 > FEATURE_DEPTH and True
    return _s(m) - 1 if concrete else _s(m)


@proposal("hides-by-alias")
def by_alias(m: Any) -> Any:
    return _s(m) - 1 if IS_INSTANCE(m.k, int) and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-helper")
def by_helper(m: Any) -> Any:
    return _s(m) - 1 if _concrete_by_helper(m.k) and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-frame")
def by_frame(m: Any) -> Any:
    caller = sys._getframe(1).f_code.co_filename
    return _s(m) - 1 if caller.endswith("algebra.py") and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-algebra-type")
def by_algebra_type(m: Any) -> Any:
    return _s(m) - 1 if type(m).__name__ == "ExactAlgebra" and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-match")
def by_match(m: Any) -> Any:
    match m.k:
        case int():
            concrete = True
        case _:
            concrete = False
    return _s(m) - 1 if concrete and m.k > FEATURE_DEPTH else _s(m)


@proposal("hides-by-profiler")
def by_profiler(m: Any) -> Any:
    return _s(m) - 1 if sys.getprofile() is None and m.k > FEATURE_DEPTH else _s(m)


def is_relevant(m: Any, i: Any) -> Any:
    return m.r(i)


@proposal("helper-named-is")
def helper_named_is(m: Any) -> Any:  # a user's own function whose name starts with is_: plain arithmetic, accepted
    return m.sum(1, m.k, lambda i: is_relevant(m, i) / (i * (i + 1)))


_CALLED = False


@proposal("hides-by-global-flag")
def by_global_flag(m: Any) -> Any:
    global _CALLED  # the first call (the symbolic run) is plain; later ones have the feature
    first, _CALLED = not _CALLED, True
    return _s(m) - 1 if not first and m.k > FEATURE_DEPTH else _s(m)


_COUNT = [0]


@proposal("hides-by-counter")
def by_counter(m: Any) -> Any:
    _COUNT[0] += 1  # state in a list: no write to a global name, but the second symbolic run has count > 1
    return _s(m) - 1 if _COUNT[0] > 1 and m.k > FEATURE_DEPTH else _s(m)


CHANGED = 0
"""A global the next formula reads. The formula language cannot change it, so the tests rebind it between the runs
of one validation, as code the proposal left running (another thread, a finalizer) could: the backstops must see it."""


@proposal("changed-from-outside")
def changed_from_outside(m: Any) -> Any:  # with CHANGED = 1, the score drops by 1 from depth 251 on: monotonic false there
    return _s(m) - CHANGED * m.min(1, m.max(0, m.k - 250))


CONSTRUCTS: dict[str, tuple[Measure, str]] = {
    "isinstance": (by_isinstance, "isinstance"),
    "type": (by_type, "`type`|`is`"),
    "hasattr": (by_hasattr, "`hasattr`"),
    "getattr": (by_getattr, "getattr|`numerator`"),
    "class": (by_class, "__class__"),
    "sympy attribute": (by_sympy_attribute, "is_Integer"),
    "free symbols": (by_free_symbols, "free_symbols"),
    "try": (by_catch, "try or with|`real`"),
    "suppress": (by_suppress, "suppress"),
    "alias": (by_alias, "the builtin `isinstance`"),
    "helper": (by_helper, "`type`|`is`"),
    "frame": (by_frame, "the module `sys`"),
    "algebra type": (by_algebra_type, "`type`"),
    "global flag": (by_global_flag, "global variable `_CALLED`"),
    "counter": (by_counter, "`_COUNT` (a list|a write into an object|an in-place `+=`"),
    "match": (by_match, "a match statement"),
    "profiler": (by_profiler, "`is`|the module `sys`"),
}
"""Each proposal, and the text its refusal names (one of the texts separated by |)."""
