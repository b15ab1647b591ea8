"""The language of a declared formula: what its own code may contain, read from its bytecode and the values it names.

A proof is about the formula's closed form, built by running the formula on symbols; the
metric is what the formula computes on numbers. The two runs execute the same code, and
they take the same path through it as long as nothing in it can tell a symbol from a
number: then each run computes the same function, and the closed form is the metric. So
the formula's own code (every function of it that runs while the closed form is built)
is held to a small language, checked against an allowlist rather than a list of known
tricks:

* operations: arithmetic, comparisons (the symbolic values refuse to be branched on),
  calls (also with ``*args``), local variables, tuples and lists (indexed and sliced), loops and comprehensions, lambdas and nested
  functions, ``if`` and conditional expressions;
* names: the algebra's operations on ``m`` (:data:`ALGEBRA`), the SymPy functions in
  :data:`SYMPY` (as ``sympy.log`` or imported by name), the builtins in :data:`BUILTINS`,
  ``fractions.Fraction``, ``irprops.metrics.exact.log2``, the file's own functions (held to
  the same language) and constants (numbers, strings, tuples of them);
* values: every argument, default and enclosing variable a function of the formula is
  entered with is one of those or a number, rank, depth, grade or expression;
* calls out of the formula's code go only to SymPy, ``fractions`` and irprops' own algebra,
  and to the builtins above.

Everything else is refused, with the construct named: type and attribute tests, ``is``,
``in``, try/with, match, imports, classes, writes to globals, enclosing variables or
objects, dicts and sets, f-strings, and any library function not listed (so that a helper
such as ``functools.singledispatch`` or ``json.dumps`` cannot run a type test for it).

>>> scan((lambda i: 1 / i if i > 2 else 2).__code__) is None
True
>>> scan((lambda i: isinstance(i, int)).__code__) is None  # a name: judged by its value when the code runs
True
>>> refusal_of_value("probe", isinstance)
('`probe` (the builtin `isinstance`)', 'inspect')
"""

from __future__ import annotations

import builtins
import contextlib
import dis
import fractions
import sys
import sysconfig
import types
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

import sympy

from . import exact, templates

__all__ = [
    "ALGEBRA", "BUILTINS", "SYMPY", "argument_refusal", "builtin_call", "entering", "entry_refusal", "genuine", "library_call",
    "refusal_of_value", "scan", "trusted_file",
]

ALGEBRA = frozenset({
    "k", "R", "N", "r", "g", "r_sorted", "unjudged", "relevant", "param", "log2", "exp2", "num", "const", "sum", "prod", "max_over", "min",
    "max", "div", "prefix_sum", "prefix_prod",
})
"""The attributes a formula's code may read: the algebra's operations (``m.sum``, ``m.r``, ...)."""

SYMPY = frozenset({
    "Piecewise", "Eq", "Ne", "Lt", "Le", "Gt", "Ge", "And", "Or", "Not", "true", "false", "Mod", "floor", "ceiling",
    "log", "exp", "sqrt", "root", "Pow", "Rational", "Integer", "Min", "Max", "Abs", "sign", "binomial", "factorial", "harmonic",
    "KroneckerDelta", "pi", "E", "sympify",
})
"""The SymPy names a formula may use (``sympy.log(i)``, ``from sympy import Piecewise``)."""

BUILTINS = frozenset({"abs", "sum", "pow", "len", "range", "zip", "enumerate", "reversed"})
"""The builtins a formula may call (``min``/``max`` are ``m.min``/``m.max``: the builtins branch)."""

_MODULES: dict[int, tuple[str, frozenset[str]]] = {
    id(sympy): ("sympy", SYMPY), id(exact): ("irprops.metrics.exact", frozenset({"log2"})),
    id(fractions): ("fractions", frozenset({"Fraction"})),
}
_CALLABLES: dict[int, str] = {
    **{id(getattr(sympy, name)): f"sympy.{name}" for name in SYMPY},
    **{id(getattr(builtins, name)): name for name in BUILTINS},
    id(fractions.Fraction): "Fraction", id(exact.log2): "log2",
}
"""Library objects a formula may name, by identity (captured when irprops is imported, before any proposal)."""
_ALIVE = (sympy, exact, fractions, *(getattr(sympy, name) for name in SYMPY), *(getattr(builtins, name) for name in BUILTINS))
"""The objects behind those identities, kept alive so that no other object can take over an id."""

_PROBES = frozenset({
    "type", "isinstance", "issubclass", "hasattr", "getattr", "setattr", "delattr", "vars", "dir", "id", "globals", "locals",
    "eval", "exec", "compile", "breakpoint", "__import__", "callable", "super", "object",
})
_HINTS = {"min": "comparison", "max": "comparison", "int": "int", "round": "int", "float": "float", "str": "text",
          "repr": "text", "format": "text", "print": "text", "ascii": "text", "bool": "bool", "dict": "lookup", "set": "lookup",
          "frozenset": "lookup", "hash": "lookup"}

_OWN = Path(__file__).resolve().parent.parent
_OWN_DIRS = tuple(str(_OWN / part) + "/" for part in ("metrics", "proofs", "properties", "irprops"))
"""irprops' own packages (never tests/)."""
_TRUSTED = tuple(sorted({sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")} | set(_OWN_DIRS)))
"""Where trusted code lives: the standard library, installed packages, and irprops' own packages (never tests/)."""
_ALGEBRA_FILES = tuple(str(_OWN / "metrics" / f)
                       for f in ("algebra.py", "symbolic.py", "tracing.py", "guards.py", "exact.py", "exactnumbers.py"))
"""irprops' algebra: its operations, the values it hands out (ranks, depths, grades) and their arithmetic."""
_CALLEES = (str(Path(sympy.__file__).parent) + "/", str(Path(fractions.__file__)), *_ALGEBRA_FILES)
"""Where the formula's code may call into: SymPy, ``fractions`` and irprops' algebra (the first frame of a call)."""

_PLAIN = (type(None), bool, int, str, fractions.Fraction)
_CONTAINERS = (tuple, frozenset)
_ITERATORS = {type(iter(range(0))), type(iter(())), type(iter([])), zip, enumerate, reversed, types.GeneratorType}
"""What a comprehension's hidden argument ``.0`` may be: an iterator its enclosing code made with ``for``."""

_OPERATIONS = frozenset({
    "NOP", "CACHE", "RESUME", "EXTENDED_ARG", "POP_TOP", "PUSH_NULL", "COPY", "SWAP", "RETURN_VALUE", "RETURN_CONST",
    "LOAD_CONST", "LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_AND_CLEAR", "LOAD_FAST_LOAD_FAST", "STORE_FAST",
    "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST", "STORE_FAST_MAYBE_NULL", "LOAD_GLOBAL", "LOAD_DEREF", "LOAD_CLOSURE",
    "MAKE_CELL", "COPY_FREE_VARS", "STORE_DEREF", "LOAD_ATTR", "LOAD_METHOD", "PRECALL", "CALL", "KW_NAMES", "MAKE_FUNCTION",
    "SET_FUNCTION_ATTRIBUTE", "BUILD_TUPLE", "BUILD_LIST", "LIST_APPEND", "LIST_EXTEND", "UNPACK_SEQUENCE", "BINARY_OP",
    "BINARY_SUBSCR", "UNARY_NEGATIVE", "UNARY_POSITIVE", "UNARY_NOT", "TO_BOOL", "COMPARE_OP", "GET_ITER", "FOR_ITER",
    "END_FOR", "JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT",
    "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP", "POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_FORWARD_IF_FALSE",
    "POP_JUMP_FORWARD_IF_TRUE", "POP_JUMP_BACKWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_TRUE", "RETURN_GENERATOR",
    "YIELD_VALUE", "BUILD_SLICE", "BINARY_SLICE", "CALL_FUNCTION_EX", "LIST_TO_TUPLE",
})
"""The bytecode operations of the language (CPython 3.11, and their 3.12 and 3.13 spellings)."""

_NAMED = {
    "is": ("IS_OP", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE", "POP_JUMP_FORWARD_IF_NONE", "POP_JUMP_FORWARD_IF_NOT_NONE",
           "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE"),
    "in": ("CONTAINS_OP",),
    "try": ("PUSH_EXC_INFO", "SETUP_FINALLY", "SETUP_WITH", "BEFORE_WITH", "BEFORE_ASYNC_WITH", "CHECK_EXC_MATCH",
            "POP_EXCEPT", "RERAISE"),
    "match": ("MATCH_CLASS", "MATCH_MAPPING", "MATCH_SEQUENCE", "MATCH_KEYS", "GET_LEN"),
    "write": ("STORE_ATTR", "DELETE_ATTR", "STORE_SUBSCR", "DELETE_SUBSCR", "STORE_SLICE", "STORE_GLOBAL",
              "DELETE_GLOBAL", "DELETE_DEREF", "STORE_NAME", "DELETE_NAME"),
    "table": ("BUILD_MAP", "BUILD_CONST_KEY_MAP", "BUILD_SET", "SET_ADD", "MAP_ADD", "DICT_MERGE", "DICT_UPDATE", "SET_UPDATE"),
    "text": ("FORMAT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC", "CONVERT_VALUE", "BUILD_STRING"),
    "import": ("IMPORT_NAME", "IMPORT_FROM", "IMPORT_STAR"),
    "raise": ("RAISE_VARARGS", "LOAD_ASSERTION_ERROR"),
    "class": ("LOAD_BUILD_CLASS", "LOAD_CLASSDEREF", "LOAD_NAME", "LOAD_FROM_DICT_OR_DEREF", "LOAD_FROM_DICT_OR_GLOBALS"),
}
_CONSTRUCTS = {
    "is": ("`is` (an identity test)", "inspect"), "in": ("`in` (a membership test)", "lookup"),
    "try": ("a try or with statement", "catch"), "match": ("a match statement", "inspect"),
    "table": ("a dict or set", "lookup"), "text": ("an f-string", "text"), "import": ("an import inside the formula", "language"),
    "raise": ("a raise or assert statement", "language"), "class": ("a class or module-level name lookup", "language"),
}
_KIND_OF = {op: kind for kind, ops in _NAMED.items() for op in ops}

Refusal = tuple[str, str]
"""(the construct, named for a reader; the kind of fix: a key of tracing's hints)."""


def trusted_file(filename: str) -> bool:
    """Whether code from ``filename`` is trusted (the standard library, installed packages, irprops), not the formula's."""
    return filename.startswith(_TRUSTED)


def genuine(code: CodeType, namespace: dict[str, Any]) -> bool:
    """Whether ``code``, running in ``namespace``, is a trusted module's own: its file is trusted *and* the namespace is
    that module's, loaded from that file (code compiled under a library's file name by a proposal is not); or it is code
    a trusted library compiled from its own template (:mod:`~irprops.metrics.templates`)."""
    key = (code, id(namespace))
    if key not in _GENUINE:  # the profile hook asks for every call while the forms are built: once per code and namespace
        module = sys.modules.get(str(namespace.get("__name__")))
        _GENUINE[key] = (templates.compiled_by_library(code)
                         or (trusted_file(code.co_filename) and module is not None and vars(module) is namespace
                             and getattr(module, "__file__", None) == code.co_filename))
    return _GENUINE[key]


_GENUINE: dict[tuple[CodeType, int], bool] = {}


def _refusal_of_operation(instruction: dis.Instruction, code: CodeType) -> Refusal | None:
    op, name = instruction.opname, instruction.argval
    if op == "STORE_DEREF" and name in code.co_freevars:
        return f"a write to the enclosing variable `{name}`", "state"
    if op in ("STORE_GLOBAL", "DELETE_GLOBAL"):
        return f"a write to the global variable `{name}`", "state"
    if op in _KIND_OF and _KIND_OF[op] == "write":
        return "a write into an object or name (`x[j] = ...`, `x.a = ...`)", "state"
    if op in _KIND_OF:
        return _CONSTRUCTS[_KIND_OF[op]]
    if op == "BINARY_OP" and instruction.argrepr.endswith("="):  # x += [0] changes a list in place: state between calls
        return f"an in-place `{instruction.argrepr}`", "state"
    if op not in _OPERATIONS:
        return f"the Python operation {op}", "language"
    if op == "LOAD_CONST" and isinstance(name, float):
        return f"the float {name!r}", "float"
    return None


def scan(code: CodeType) -> Refusal | None:
    """The first operation in ``code`` outside the language (its names and attributes are judged by :func:`entering`)."""
    return next((r for r in (_refusal_of_operation(i, code) for i in dis.get_instructions(code)) if r is not None), None)


def _reads(code: CodeType) -> tuple[dict[str, None], list[tuple[str | None, str]]]:
    """The global and enclosing names ``code`` reads (in order), and each attribute it reads with the name it reads it off."""
    names: dict[str, None] = {}
    attributes: list[tuple[str | None, str]] = []
    previous: str | None = None
    for instruction in dis.get_instructions(code):
        op, arg = instruction.opname, str(instruction.argval)
        if op in ("LOAD_ATTR", "LOAD_METHOD"):
            attributes.append((previous, arg))
        named = op == "LOAD_GLOBAL" or (op == "LOAD_DEREF" and arg in code.co_freevars)
        if named:
            names[arg] = None
        previous = arg if named else None
    return names, attributes


_READS: dict[CodeType, tuple[dict[str, None], list[tuple[str | None, str]]]] = {}


def entering(code: CodeType, f_locals: dict[str, Any], f_globals: dict[str, Any], f_builtins: dict[str, Any]) -> Refusal | None:
    """Why the formula's ``code``, entered with these variables, is outside the language (None if it is inside).

    Each global it names must be a constant, an allowed library object or the file's own function; each
    argument and enclosing variable a value of the language; each attribute an operation of the algebra
    (``m.sum``), or an allowed name of an allowed module (``sympy.log``).
    """
    if code not in _READS:
        _READS[code] = _reads(code)
    names, attributes = _READS[code]
    free = set(code.co_freevars)
    values: dict[str, Any] = {}
    for name in names:
        if name in free:
            if name in f_locals:
                values[name] = f_locals[name]
        elif name in f_globals:
            values[name] = f_globals[name]
        elif name in f_builtins:
            values[name] = f_builtins[name]
    for name, value in values.items():
        refusal = refusal_of_value(name, value, flowing=name in free)
        if refusal is not None:
            return refusal
    arguments = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 4) + bool(code.co_flags & 8)
    for name in code.co_varnames[:arguments]:
        if name == ".0" and type(f_locals.get(name)) in _ITERATORS:  # a comprehension's iterator, made by its enclosing code
            continue
        if name in f_locals:
            refusal = refusal_of_value(name, f_locals[name], flowing=True)
            if refusal is not None:
                return refusal
    for owner_name, attribute in attributes:
        owner = values.get(owner_name) if owner_name is not None else None
        if id(owner) in _MODULES:
            label, allowed = _MODULES[id(owner)]
            if attribute in allowed and id(getattr(owner, attribute, None)) not in _CALLABLES:
                return f"`{label}.{attribute}`, which is no longer {label}'s own (it was replaced)", "language"
            if attribute not in allowed:
                float_ = attribute == "Float"
                return f"`{label}.{attribute}` ({'a float' if float_ else 'not in the formula language'})", \
                    "float" if float_ else "language"
        elif attribute not in ALGEBRA:
            return f"the attribute `{attribute}`", "inspect"
    return None


def refusal_of_value(name: str, value: Any, flowing: bool = False, depth: int = 0, constant: bool = False) -> Refusal | None:
    """Why ``value``, named ``name`` in the formula's code, is outside the language (None if it is inside).

    Constants, the allowed library objects and modules, and the file's own functions (whose defaults and
    enclosing values are judged too) are inside; with ``flowing`` (an argument), so are the values a
    formula computes with (ranks, depths, grades, expressions, lists, iterators), except that a value made when the
    file was loaded (``constant``: a default of a top-level function) holds no SymPy symbol.
    """
    kind = type(value)
    if kind in _PLAIN or id(value) in _CALLABLES or id(value) in _MODULES:
        return None
    if kind is float:
        return f"`{name}`, the float {value!r}", "float"
    if (kind in _CONTAINERS or (flowing and kind is list)) and depth < 4:
        return next((r for r in (refusal_of_value(name, v, flowing, depth + 1, constant) for v in value) if r is not None), None)
    if kind is types.FunctionType and not genuine(value.__code__, value.__globals__):
        return _function_values(name, value, depth)
    if isinstance(value, sympy.Basic) and _computed(value):
        floats = value.atoms(sympy.Float)
        if floats:
            return f"`{name}`, which holds the float {min(floats, key=str)}", "float"
        if (constant or not flowing) and value.free_symbols:  # a global Symbol("k", ...) is the closed form's k, and a
            # Symbol("z") stays free
            shown = ", ".join(sorted(map(str, value.free_symbols)))
            return f"`{name}`, a SymPy constant with the symbols {shown}", "symbol"
        return None
    if flowing and _computed(value):
        return None
    return _described(name, value)


def _function_values(name: str, function: types.FunctionType, depth: int) -> Refusal | None:
    """Why a default or enclosing value of the file's own ``function`` is outside the language: each is named. Those of
    a function defined at the file's top level were computed when the file was loaded: constants, never the algebra's
    values (a nested function's may be: ``lambda i, k=m.k: ...``)."""
    if depth >= 4:
        return None
    nested = "<locals>" in function.__qualname__
    code = function.__code__
    defaults = function.__defaults__ or ()
    named = list(zip(code.co_varnames[code.co_argcount - len(defaults):code.co_argcount], defaults))
    named += list((function.__kwdefaults__ or {}).items())
    named += [(f"{name}.{attribute}", value) for attribute, value in vars(function).items()]  # helper.k = sympy.srepr
    for variable, cell in zip(code.co_freevars, function.__closure__ or ()):
        with contextlib.suppress(ValueError):  # an empty cell: a variable not yet assigned
            named.append((variable, cell.cell_contents))
    return next((r for r in (refusal_of_value(variable, v, True, depth + 1, constant=not nested) for variable, v in named)
                 if r is not None), None)


def _computed(value: Any) -> bool:
    """A value the formula computes with: an irprops or SymPy value, a list of them, an iterator over them."""
    kind = type(value)
    if kind is types.FunctionType:  # a function the algebra made (m.prefix_sum(m.r))
        return value.__code__.co_filename in _ALGEBRA_FILES and genuine(value.__code__, value.__globals__)
    if kind is types.MethodType:  # an operation of the algebra handed on (gain(m.r))
        return value.__func__.__code__.co_filename in _ALGEBRA_FILES and _computed(value.__self__)
    module = sys.modules.get(kind.__module__)
    origin = getattr(module, "__file__", None) or ""
    if origin.startswith(_CALLEES[0]) and not issubclass(kind, sympy.Basic):
        return False  # a SymPy object that is not an expression, such as the printer sympy.srepr
    return origin.startswith((_CALLEES[0], *_ALGEBRA_FILES)) and vars(module).get(kind.__qualname__) is kind


def _described(name: str, value: Any) -> Refusal:
    if isinstance(value, types.BuiltinFunctionType) and getattr(value, "__self__", None) is builtins:
        builtin = value.__name__
        kind = "inspect" if builtin in _PROBES else _HINTS.get(builtin, "language")
        what = f"the builtin `{builtin}`"
    elif isinstance(value, type) and value.__module__ == "builtins":
        kind, what = ("inspect" if value.__name__ in _PROBES else _HINTS.get(value.__name__, "language"),
                      f"the builtin `{value.__name__}`")
    elif isinstance(value, (list, dict, set, bytearray)):
        kind, what = "state", f"a {type(value).__name__}, which can change between calls"
    elif isinstance(value, types.ModuleType):
        kind, what = "language", f"the module `{value.__name__}`"
    elif isinstance(value, types.FunctionType):  # a library's function: it runs unwatched (functools.singledispatch)
        kind, what = "language", f"a function of the library file {Path(value.__code__.co_filename).name}"
    else:
        kind, what = "language", f"a {type(value).__module__}.{type(value).__qualname__}"
    return f"`{name}` ({what})", kind


def entry_refusal(name: str, function: Any) -> Refusal | None:
    """Why ``function``, handed to irprops as a formula or weight, is outside the language (None if inside).

    It must be a Python function of the proposal's code (then its code is watched as it runs) or an allowed
    library function (``sympy.log``); irprops' own functions, such as the catalog's, are trusted. A C function,
    a ``functools.partial`` or a cached wrapper would run without being watched.
    """
    code = getattr(function, "__code__", None)
    if isinstance(code, CodeType) and type(function) is types.FunctionType and code.co_filename.startswith(_OWN_DIRS) \
            and genuine(code, function.__globals__):
        return None
    return refusal_of_value(name, function)


def library_call(callee: CodeType, namespace: dict[str, Any]) -> bool:
    """Whether the formula's code may call into ``callee``, a library function (SymPy, fractions, irprops' algebra)."""
    return callee.co_filename.startswith(_CALLEES) and genuine(callee, namespace)


def argument_refusal(callee: CodeType, arguments: dict[str, Any]) -> Refusal | None:
    """Why the formula's code may not hand ``arguments`` to ``callee``, a library function (None if it may).

    A string for SymPy: SymPy evaluates strings as Python code (``sympy.log("...")``), which would run unwatched.
    A float for any of them: the exact run computes with ``Fraction`` where the symbolic run has SymPy's numbers,
    and the two treat floats differently (``Fraction(1, 2) == 0.5`` is true, ``sympy.Rational(1, 2) == 0.5`` false).
    """
    pending, seen = list(arguments.values()), 0
    while pending and seen < 1000:
        value, seen = pending.pop(), seen + 1
        if isinstance(value, str) and callee.co_filename.startswith(_CALLEES[0]):
            return f"the text {value[:40]!r} handed to SymPy (SymPy runs text as Python code)", "text"
        if isinstance(value, (float, sympy.Float)):
            to = "an operation on SymPy's or the algebra's values" if callee.co_filename.startswith(_ALGEBRA_FILES) \
                or callee.co_name.startswith("_") else f"`{callee.co_name}`"
            return f"the float {value} handed to {to}", "float"
        if type(value) in (tuple, list, dict):
            pending.extend(value.values() if isinstance(value, dict) else value)
    return None


def builtin_call(function: Callable[..., Any]) -> bool:
    """Whether the formula's code may call the C function ``function`` (only the builtins in :data:`BUILTINS`)."""
    return id(function) in _CALLABLES
