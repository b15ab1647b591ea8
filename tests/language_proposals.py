"""Declared formulas against the formula language (issue 10): ways past the old denylist watch, ways past an
allowlist, and natural formulas the language must accept.

Every formula in ``ESCAPES`` scores ``s_k = sum_{i<=k} b_i / (i (i + 1))`` in its symbolic run but
``s_k - 1`` from depth 1501 on in its exact run (``_feat``): monotonic is false at k = 1501, far past
every depth the agreement check compares, so only the language keeps a false "yes" away. Items 1 to 17
each got a false "proof (all k)" past the denylist watch in a hostile review (see the commit that
introduced the language); the rest attack the allowlist itself: values smuggled in through enclosing
variables, defaults, lists, iterators and generators, objects with an operation's name, code compiled
under a library's file name, and the operations that treat the exact run's numbers (``Fraction``) and the
symbolic run's (SymPy's) differently: fractional powers, ``==`` on a SymPy number, floats made at run time.
``tests/test_soundness.py`` checks that each exact run really has the
feature (independently of any check) and that each is refused, naming the construct.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import functools
import json
import operator
import pprint
import reprlib
import string
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import sympy

from irprops.metrics import Measure, algebra

from .adversarial_proposals import proposal

DEPTH = 1500
IS = isinstance  # an alias made at import
CHECK = functools.partial(isinstance)  # calling it runs isinstance from C: no call event names it
TABLE = dict.fromkeys(range(DEPTH + 1, 3001), 1)
POOL = concurrent.futures.ThreadPoolExecutor(1)  # code run in another thread is not watched

ESCAPES: dict[str, tuple[Measure, str]] = {}
"""Each escape, and the text its refusal names (one of the texts separated by |)."""


def escape(name: str, named: str) -> Callable[[Callable[..., Any]], Measure]:
    def register(formula: Callable[..., Any]) -> Measure:
        ESCAPES[name] = (proposal(name)(formula), named)
        return ESCAPES[name][0]
    return register


def _s(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / (i * (i + 1)))


def _feat(m: Any, flag: Any) -> Any:  # flag is false in the symbolic run, so m.k > DEPTH is never asked of a symbol
    return _s(m) - 1 if flag and m.k > DEPTH else _s(m)


# -- 1 to 17: past the denylist watch ----------------------------------------------------------------
@escape("getprofile", "the module `sys`|`is`")
def by_getprofile(m: Any) -> Any:
    return _feat(m, sys.getprofile() is None)


@escape("sympy-empty-tuple", "`sympy.Tuple`")
def by_empty_tuple(m: Any) -> Any:
    return _feat(m, not sympy.Tuple())


@functools.singledispatch
def _kind(x: Any) -> bool:
    return False


@_kind.register(int)
def _(x: Any) -> bool:
    return True


@escape("singledispatch", "`_kind` (a function of the library file functools.py)")
def by_singledispatch(m: Any) -> Any:
    return _feat(m, _kind(m.k))


@escape("json-default", "the module `json`")
def by_json_default(m: Any) -> Any:
    return _feat(m, json.loads(json.dumps(m.k, default=lambda o: 0)) > 0)


def _probe(x: Any) -> bool:
    return isinstance(x, int)


@escape("thread-pool", "`POOL` (a concurrent.futures")
def by_thread_pool(m: Any) -> Any:
    return _feat(m, POOL.submit(_probe, m.k).result())


def _off() -> None:
    sys.setprofile(None)


@escape("setprofile-none", "the module `sys`")
def by_setprofile_none(m: Any) -> Any:
    _off()
    return _feat(m, _probe(m.k))


@escape("reprlib", "the module `reprlib`")
def by_reprlib(m: Any) -> Any:
    return _feat(m, not reprlib.repr(m.k).startswith("T"))


@escape("string-formatter", "the module `string`")
def by_string_formatter(m: Any) -> Any:
    return _feat(m, string.Formatter().format("{!r}", m.k).isdigit())


@escape("map-isinstance", "the builtin `list`|the builtin `map`")
def by_map(m: Any) -> Any:
    return _feat(m, list(map(IS, [m.k], [int]))[0])  # noqa: RUF015 - the list builtin is part of the escape


@escape("partial-isinstance", "`CHECK` (a functools.partial)")
def by_partial(m: Any) -> Any:
    return _feat(m, CHECK(m.k, int))


@escape("chainmap-lookup", "the module `collections`")
def by_chainmap(m: Any) -> Any:
    return _s(m) - collections.ChainMap(TABLE).get(m.k, 0)


@escape("sympy-srepr", "`sympy.srepr`|`in`")
def by_srepr(m: Any) -> Any:
    return _feat(m, "Symbol" not in sympy.srepr(m.k))


class _Swallow(contextlib.ContextDecorator):
    def __enter__(self) -> _Swallow:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> bool:
        return True


@_Swallow()
def _conjugate(x: Any) -> Any:
    return int.conjugate(x)


@escape("context-decorator", "`is`|`_conjugate` (a function of the library file contextlib.py)")
def by_context_decorator(m: Any) -> Any:
    return _feat(m, _conjugate(m.k) is not None)


@escape("future-exception", "`POOL` (a concurrent.futures|`is`")
def by_future_exception(m: Any) -> Any:
    return _feat(m, POOL.submit(int.conjugate, m.k).exception() is None)


@escape("operator-call", "the module `operator`")
def by_operator_call(m: Any) -> Any:
    return _feat(m, operator.call(IS, m.k, int))


@escape("pprint", "the module `pprint`")
def by_pprint(m: Any) -> Any:
    return _feat(m, pprint.pformat(m.k).isdigit())


# -- 18 on: against the allowlist -----------------------------------------------------------------------
def _with_probe_enclosed() -> Callable[[Any], Any]:
    probe = isinstance

    def formula(m: Any) -> Any:  # the probe is an enclosing variable, set outside the formula
        return _feat(m, probe(m.k, int))
    return formula


ESCAPES["enclosed-probe"] = (proposal("enclosed-probe")(_with_probe_enclosed()), "`probe` (the builtin `isinstance`)")


@escape("default-partial", "`probe` (a functools.partial)")
def by_default_partial(m: Any, probe: Any = CHECK) -> Any:
    return _feat(m, probe(m.k, int))


@escape("partial-in-a-list", "`box` (a functools.partial)")
def by_partial_in_a_list(m: Any, box: Any = [CHECK]) -> Any:  # noqa: B006 - the smuggling under test
    return _feat(m, box[0](m.k, int))


@escape("partial-in-an-iterator", "`probes` (a builtins.list_iterator)")
def by_partial_in_an_iterator(m: Any, probes: Any = iter([CHECK] * 10)) -> Any:  # noqa: B008 - the smuggling under test
    flag = False
    for probe in probes:
        flag = probe(m.k, int)
        break
    return _feat(m, flag)


def _counter() -> Iterator[int]:
    n = 0
    while True:
        n += 1
        yield n


@escape("generator-state", "`calls` (a builtins.generator)")
def by_generator_state(m: Any, calls: Any = _counter()) -> Any:  # noqa: B008 - the state under test
    flag = False
    for n in calls:
        flag = n > 1  # the symbolic run is the first call: later calls have the feature
        break
    return _feat(m, flag)


@escape("sympy-runs-text", "handed to SymPy")
def by_text_for_sympy(m: Any) -> Any:  # SymPy evaluates the text as Python: the watch's hook is the signal
    return _feat(m, sympy.log("(__import__('sys').getprofile() is None) + 1") == sympy.log(2))


class _Box:
    k = staticmethod(isinstance)  # an attribute with the name of an operation of the algebra


BOX = _Box()


@escape("object-with-an-operation-name", "`BOX` (a tests.language_proposals._Box)")
def by_object_with_an_operation_name(m: Any) -> Any:
    return _feat(m, BOX.k(m.k, int))


class _Spoofed:
    k = staticmethod(isinstance)


_Spoofed.__module__ = "sympy.core.numbers"
SPOOFED = _Spoofed()


@escape("object-claiming-to-be-sympy", "`SPOOFED` (a sympy.core.numbers._Spoofed)")
def by_object_claiming_to_be_sympy(m: Any) -> Any:
    return _feat(m, SPOOFED.k(m.k, int))


_FROZEN: dict[str, Any] = {"_feat": _feat}
exec(compile("def formula(m):\n    return _feat(m, isinstance(m.k, int))\n", "<frozen importlib._bootstrap>", "exec"), _FROZEN)  # noqa: S102
ESCAPES["compiled-as-frozen"] = (proposal("compiled-as-frozen")(_FROZEN["formula"]), "the builtin `isinstance`")


def _gain(m: Any, grades: Any) -> Any:
    return m.sum(1, m.k, lambda i: grades(i) / (i + 1))


def _running(m: Any) -> Any:
    found = m.prefix_sum(m.r)
    return m.div(m.sum(1, m.k, lambda i: m.r(i) * found(i) / i), m.R, "no relevant documents")


# -- natural formulas: accepted ---------------------------------------------------------------------------
def is_relevant(m: Any, i: Any) -> Any:
    return m.r(i)


def weight(i: Any) -> Any:
    return 1 / (i * (i + 1))


HALF = sympy.Rational(1, 2)
SHIFTS = (1, 2)

ACCEPTED: dict[str, Measure] = {
    "a helper named is_": proposal("helper-is")(lambda m: m.sum(1, m.k, lambda i: is_relevant(m, i) / (i * (i + 1)))),
    "a helper of the file": proposal("helper")(lambda m: m.sum(1, m.k, lambda i: m.r(i) * weight(i))),
    "a case split in SymPy": proposal("piecewise")(lambda m: m.sum(1, m.k, lambda i: m.r(i) * sympy.Piecewise(
        (HALF, sympy.Le(i, 3)), (1 / (i * (i + 1)), True)))),
    "a list comprehension over fixed ranks": proposal("listcomp")(
        lambda m: sum([m.r(i) / i for i in range(1, 4)]) + m.sum(4, m.k, lambda i: m.r(i) / (i * (i + 1)))),
    "a generator over fixed ranks": proposal("genexpr")(lambda m: sum((m.r(i) / i for i in range(1, 4)), m.num(0)) / m.min(m.k, 3)),
    "a SymPy function": proposal("binomial")(lambda m: m.sum(1, m.k, lambda i: m.r(i) / sympy.binomial(i + 1, 2))),
    "a tuple of constants": proposal("tuple")(lambda m: m.sum(1, m.k, lambda i: m.r(i) * SHIFTS[0] / (i * (i + SHIFTS[1])))),
    "an assignment expression": proposal("walrus")(lambda m: (s := _s(m)) + s / 2),
    "an operation of the algebra handed on": proposal("handed-on")(lambda m: _gain(m, m.r) / m.max(_gain(m, m.g), 1)),
    "a running total of the algebra": proposal("running")(_running),
}
"""Formulas the language accepts (each validates: its forms are built and compared)."""


# -- a second hostile review of the allowlist -----------------------------------------------------------------
def _helper() -> int:
    return 0


_helper.k = sympy.srepr  # type: ignore[attr-defined]  # a SymPy printer smuggled in under an operation's name


@escape("function-attribute", "`_helper.k` (a sympy.printing")
def by_function_attribute(m: Any) -> Any:
    return _feat(m, len(_helper.k(m.k)) < 6)  # "Traced(k)" against "1501"


@escape("in-place-counter", "an in-place `+=`")
def by_in_place_counter(m: Any) -> Any:  # the weight runs once in the closed form, k times in the exact run
    box: list[int] = []

    def w(i: Any, box: list[int] = box) -> Any:
        box += [0]
        return 0
    m.sum(1, m.k, w)
    return _feat(m, len(box) > 1)


_FORGED: dict[str, Any] = {}
_ALGEBRA_FILE = str(Path(algebra.__file__))  # irprops' own algebra: its file name, forged
exec(compile("def probe(x):\n    return isinstance(x, int)\n", _ALGEBRA_FILE, "exec"), _FORGED)  # noqa: S102


@escape("forged-file-name", "`isinstance` (the builtin `isinstance`)")
def by_forged_file_name(m: Any, probe: Any = _FORGED["probe"]) -> Any:
    return _feat(m, probe(m.k))


# -- the numbers of the two runs: Fraction in the exact run, SymPy's in the symbolic run ------------------------
@escape("fractional-power", "`**` with an exponent that may not be an integer|used as a truth value")
def by_fractional_power(m: Any) -> Any:  # Fraction(2) ** Fraction(1, 2) is a float, Integer(2) ** Rational(1, 2) is sqrt(2)
    root = m.num(2) ** (m.num(1) / 2)
    return _feat(m, root * root != 2)


@escape("fractional-power-of-an-int", "`**` with an exponent that may not be an integer|used as a truth value")
def by_fractional_power_of_an_int(m: Any) -> Any:  # 2 ** Fraction(1, 2) is a float, 2 ** Rational(1, 2) is sqrt(2)
    root = 2 ** (m.num(1) / 2)
    return _feat(m, root * root != 2)


@escape("number-equals-depth", "`==`")
def by_number_equals_depth(m: Any) -> Any:  # Integer.__eq__ is SymPy's own comparison: k is no number, so never 1501
    return _s(m) - 1 if m.num(DEPTH + 1) == m.k else _s(m)


@escape("number-equals-expression", "`==` between symbolic expressions")
def by_number_equals_expression(m: Any) -> Any:  # 1 from depth 1501 on, a structurally different expression in k
    return _s(m) - 1 if sympy.Integer(1) == sympy.Min(sympy.Max(m.k, DEPTH) - DEPTH, 1) else _s(m)


@escape("float-equals-number", "the float 0.5")
def by_float_equals_number(m: Any) -> Any:  # Fraction(1, 2) == 0.5, but Rational(1, 2) != 0.5: a float made at run time
    half = len([0]) / 2
    return _feat(m, m.num(1) / 2 == half)


ACCEPTED["a root by SymPy"] = proposal("sqrt")(lambda m: m.sum(1, m.k, lambda i: m.r(i) / (sympy.sqrt(i) * i * (i + 1))))
ACCEPTED["a power by SymPy"] = proposal("pow")(lambda m: m.sum(1, m.k, lambda i: m.r(i) * sympy.Pow(i, -m.num(3) / 2) / (i + 1)))
ACCEPTED["an integer power"] = proposal("square")(lambda m: m.sum(1, m.k, lambda i: m.r(i) * (m.num(1) / 2) ** i))
ACCEPTED["a slice of a tuple of constants"] = proposal("slice")(
    lambda m: m.sum(1, m.k, lambda i: m.r(i) * sum((1, 2, 3)[1:]) / (5 * i * (i + 1))))
ACCEPTED["a call with *args"] = proposal("star-call")(lambda m: m.sum(1, m.k, lambda i: m.r(i) * m.max(*(0, 1)) / (i * (i + 1))))
ACCEPTED["a sign"] = proposal("sign")(lambda m: m.sum(1, m.k, lambda i: m.r(i) * sympy.sign(i) / (i * (i + 1))))


# -- a third hostile review: values that were plain ints, floats or Python bools in one run only ---------------
@escape("a-comparison-equals-one", "used as a truth value")
def by_a_comparison_equals_one(m: Any) -> Any:  # True == 1, but sympy.true != 1
    return _feat(m, (m.num(1) < 2) == 1)


@escape("a-fixed-sum-equals-its-value", "`==` between symbolic expressions")
def by_a_fixed_sum_equals_its_value(m: Any) -> Any:  # the closed form keeps Sum(1, (i, 1, 3)), structurally unequal to 3
    return _feat(m, sympy.sympify(m.sum(1, 3, lambda i: 1)) == 3)


def _late(m: Any) -> Any:
    return sympy.Min(sympy.Max(m.k - DEPTH, 0), 1)  # 0 up to depth 1500, 1 from 1501 on


def _gate(m: Any) -> Any:
    return sympy.Min(sympy.Max(DEPTH + 1 - m.k, 0), 1)  # 1 up to depth 1500, 0 from 1501 on


def _floor_then_a_tenth(m: Any) -> Any:  # Fraction // 1 was an int, so / 10 was a float in the exact run only
    one = m.num(1) // 1
    return _feat(m, one / 10 * 3 != m.num(3) / 10)


ALIKE: dict[str, Measure] = {
    "Fraction // 1 is an exact int": proposal("floor-then-a-tenth")(_floor_then_a_tenth),
    "m.div of two ints is a fraction in both runs": proposal("div-ints")(lambda m: _feat(m, m.div(1, 10) * 3 != m.num(3) / 10)),
    "a sum from rank 0 has an index that may be 0": proposal("index-from-0")(
        lambda m: _s(m) - sympy.Abs(m.sum(0, 0, lambda i: (1 - sympy.Min(i, 1)) * _late(m)))),
    "0 / x is undefined where x is 0": proposal("zero-over-a-gate")(lambda m: _s(m) + m.num(0) / _gate(m)),
    "1 / m.min(k, 3) is exact": proposal("one-over-a-minimum")(lambda m: _s(m) * (1 / m.min(m.k, 3))),
    "Mod(0, x) is undefined where x is 0": proposal("mod-of-a-gate")(lambda m: _s(m) + sympy.Mod(0, _gate(m))),
    "root(1, x) is undefined where x is 0": proposal("root-of-one")(lambda m: _s(m) * sympy.root(1, _gate(m))),
    # a fourth hostile review: +k, k // 1, abs(k) and k % n were plain ints in the exact run, so / 63 * 63 was a float
    # there (2017 / 63 * 63 > 2017) and exact in the closed form (k > k is false)
    "+k is an exact int": proposal("plus-k")(lambda m: _s(m) - sympy.Piecewise((1, sympy.sympify((+m.k) / 63 * 63 > m.k)), (0, True))),
    "k // 1 is an exact int": proposal("k-floor-1")(
        lambda m: _s(m) - sympy.Piecewise((1, sympy.sympify((m.k // 1) / 63 * 63 > m.k)), (0, True))),
    "abs(k) is an exact int": proposal("abs-k")(
        lambda m: _s(m) - sympy.Piecewise((1, sympy.sympify(abs(m.k) / 63 * 63 > m.k)), (0, True))),
    "R // 1 is an exact int": proposal("r-floor-1")(lambda m: _s(m) + (sympy.ceiling((m.R // 1) / 63 * 63) - m.R) * m.k),
    # natural code that had no closed form: a Python comparison of the depth as a Piecewise condition (a bool in the
    # exact run and at a concrete depth, SymPy's relation in the closed form)
    "a comparison of the depth as a Piecewise condition": proposal("depth-compared")(
        lambda m: _s(m) - sympy.Piecewise((1, m.k > DEPTH), (0, True))),
}
"""Formulas inside the language whose two runs once differed (a plain int, a float, a positive index in the symbolic
run only): their closed form is now the metric at depth 1501, which the tests check by evaluating both."""

UNMODELLED: dict[str, Measure] = {
    "0 * log(x) is undefined where x is 0": proposal("zero-times-a-log")(lambda m: _s(m) + 0 * sympy.log(_gate(m))),
    "0 * (1 / (i - 1501)) inside a sum": proposal("zero-over-a-rank")(
        lambda m: _s(m) + m.sum(1, m.k, lambda i: 0 * (1 / (i - DEPTH - 1)))),
    "0 * binomial(-1, 1/2) (zoo) from depth 1501 on": proposal("zero-times-a-binomial")(
        lambda m: _s(m) + 0 * sympy.binomial(-_late(m), sympy.Rational(1, 2))),
    "a Piecewise with no branch past depth 1500 (nan)": proposal("piecewise-without-default")(
        lambda m: _s(m) + sympy.Piecewise((0, sympy.Le(m.k, DEPTH)))),
}
"""Formulas whose value SymPy simplifies where the exact run has none (0 * zoo is nan): no proof may rest on them."""
