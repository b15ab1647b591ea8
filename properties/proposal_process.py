"""The process a proposal runs in, and the one reading of what a proposal returns.

This file imports only the standard library: the child runs it as a script
(``python proposal_process.py REQUESTS ANSWERS MEMORY``), so that it starts without
importing irprops, and :func:`classify` is shared with the parent. The parent
(:mod:`irprops.properties.sandbox`) writes situations as JSON lines on one pipe and reads
answers as JSON lines on another. What the proposal returns is read here and sent as plain
data (a number as hexadecimal digits, an exact SymPy value as a tree of the few operations
irprops reads), never pickled, so nothing a proposal returns or prints can run code in the
parent. What it prints goes to a file, and the first :data:`PRINTED_CHARS` characters come
back with each answer.

An answer is one of ``{"kind": "exact", "value": [numerator, denominator]}`` (hexadecimal),
``{"kind": "float", "value": repr}``, ``{"kind": "symbolic", "value": tree}``,
``{"kind": "undefined"}`` and ``{"kind": "defect", "problem": text}``; a toolkit's adapter may also answer
``{"kind": "withheld", "reason": text}`` for a situation its glue does not give the toolkit.

>>> from fractions import Fraction
>>> classify(Fraction(1, 3)), classify(None), classify(0.5)
({'kind': 'exact', 'value': ['1', '3']}, {'kind': 'undefined'}, {'kind': 'float', 'value': '0.5'})
>>> classify(True)["problem"]
'returned bool True, not a number'
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import importlib
import importlib.util
import json
import math
import numbers
import os
import sys
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

PRINTED_CHARS = 500
"""How much of what a proposal prints on one call comes back with the answer."""
MAX_BITS = 1 << 20
"""The largest numerator or denominator a proposal may return, in bits (about 315,000 decimal digits)."""
MAX_NODES = 10_000
"""The most operations an exact SymPy value a proposal returns may have."""
FILE_BYTES = 256 << 20
"""The largest file a proposal may write (what it prints included): past it, the system ends its process."""
_READ = {"Add", "Mul", "Pow", "log", "exp", "log2"}


def classify(result: object) -> dict[str, Any]:
    """What a proposal returned, as an answer: a number, undefined (None), or a defect."""
    if result is None:
        return {"kind": "undefined"}
    sympy = sys.modules.get("sympy")
    if sympy is not None and isinstance(result, sympy.Basic) and not (result.is_Rational or isinstance(result, sympy.Float)):
        try:
            return {"kind": "symbolic", "value": _tree(result, [MAX_NODES])}
        except (ValueError, RecursionError):
            return _defect(f"returned {_text(result)}, not an exact real number irprops reads (+, *, **, log, exp, pi, E)")
    if isinstance(result, bool) or not isinstance(result, (numbers.Number, Decimal)):
        return _defect(f"returned {type(result).__name__} {_text(result)}, not a number")
    if isinstance(result, numbers.Rational) and not isinstance(result, float):
        try:
            value = Fraction(int(result.numerator), int(result.denominator))
        except (ValueError, TypeError, OverflowError, ZeroDivisionError):
            return _defect(f"returned {_text(result)}, not a finite number")
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_BITS:
            return _defect(f"returned a number of more than {MAX_BITS:,} bits")
        return {"kind": "exact", "value": [_hex(value.numerator), _hex(value.denominator)]}
    if isinstance(result, (numbers.Real, Decimal)):  # a Decimal is rounded arithmetic (its division rounds): not exact
        try:
            approx = float(result)
        except (ValueError, TypeError, OverflowError):
            return _defect(f"returned {_text(result)}, not a finite number")
        if not math.isfinite(approx):
            return _defect(f"returned {approx!r}")
        return {"kind": "float", "value": repr(approx)}
    return _defect(f"returned {type(result).__name__} {_text(result)}, not a real number")


def _tree(expr: Any, left: list[int]) -> list[Any]:
    left[0] -= 1
    if left[0] < 0:
        raise ValueError("too large")
    if expr.is_Integer:
        return ["int", _hex(int(expr))]
    if expr.is_Rational:
        return ["rational", _hex(int(expr.p)), _hex(int(expr.q))]
    name = type(expr).__name__
    if name in ("Pi", "Exp1"):
        return [name]
    if name in _READ and expr.args:
        return [name, *(_tree(a, left) for a in expr.args)]
    raise ValueError(name)


def _hex(n: int) -> str:
    """``n`` in hexadecimal: no limit on digits, unlike ``str(n)`` past 4,300 decimal digits."""
    return format(n, "x")


def shown(error: BaseException) -> str:
    """An exception as ``Type: message``, even one whose ``str()`` fails."""
    try:
        text = str(error)
    except Exception:  # noqa: BLE001 - an unprintable exception is shown by its type
        text = "(its message cannot be printed)"
    return f"{type(error).__name__}: {text}"[:300]


def _text(value: object) -> str:
    try:
        return repr(value)[:100]
    except Exception:  # noqa: BLE001 - a value whose repr fails is shown by its type
        return f"(a {type(value).__name__} that cannot be printed)"


def _defect(problem: str) -> dict[str, Any]:
    return {"kind": "defect", "problem": problem}


def call(function: Callable[..., Any], request: dict[str, Any], passing: tuple[type[BaseException], ...] = ()) -> dict[str, Any]:
    """The answer of ``function`` on a request ``{"ranking", "k", "qrels"}`` (grades as fraction texts).

    ``ZeroDivisionError`` means undefined; any other exception (``SystemExit`` and a call of
    ``os._exit`` too) is a defect, except those in ``passing``, which are raised.
    """
    ranking = tuple(None if g is None else Fraction(*_grade(g)) for g in request["ranking"])
    qrels = tuple(Fraction(*_grade(g)) for g in request["qrels"])
    try:
        with _no_exit():
            result = function(ranking, request["k"], qrels)
    except passing:
        raise
    except ZeroDivisionError:
        return {"kind": "undefined"}
    except BaseException as error:  # noqa: BLE001 - anything else (SystemExit too) is a defect of the proposal
        return _defect(f"raised {shown(error)}")
    return classify(result)


@functools.lru_cache(maxsize=1024)
def _grade(text: str) -> tuple[int, int]:
    """The numerator and denominator of the grade a fraction text stands for, read once (a ranking 200 deep is mostly
    "0": Fraction reads text slowly). Each call gets Fractions of its own: a proposal that changes one it was given (its
    ``_numerator``) must not change what the next call is given (a helper-73 finding, when the Fractions were shared)."""
    grade = Fraction(text)
    return grade.numerator, grade.denominator


class _ProposalExit(Exception):
    """``os._exit`` called by a proposal."""


@contextlib.contextmanager
def _no_exit() -> Iterator[None]:
    """While a proposal runs, ``os._exit`` raises instead of ending the process (``sys.exit`` raises SystemExit anyway)."""
    real = os._exit

    def refused(status: int) -> NoReturn:
        raise _ProposalExit(f"os._exit({status}) was called")

    os._exit = refused  # type: ignore[assignment]
    try:
        yield
    finally:
        os._exit = real


def import_file(path: Path, module_name: str) -> Any:
    """Import the Python file ``path`` as the module ``module_name``, afresh every time.

    A file imported before is run again, so that what it reads when it is imported (a data file, an environment
    variable, its own edited text) is read again: reusing the module would check the metric as it was (a second
    hostile review got a false "yes" and a false "no" that way). The metrics its previous import declared, where they are
    still registered as the same formulas, are unregistered first, so that declaring them again is no clash: a second
    ``check`` of a file of declared metrics in one process (a notebook, a test run) used to fail with "already used".
    """
    previous = sys.modules.get(module_name)
    registry = _registry()
    for key, formula in getattr(previous, "__irprops_declared__", {}).items():
        if key in registry and registry[key].formula is formula:
            del registry[key]
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    before = dict(registry)
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no __pycache__ left in the researcher's folder
    try:
        spec.loader.exec_module(module)
    finally:  # what it declared before it failed is its too
        sys.dont_write_bytecode = writes
        module.__irprops_declared__ = {key: m.formula for key, m in registry.items() if before.get(key) is not m}  # type: ignore[attr-defined]
    return module


def _registry() -> dict[str, Any]:
    """irprops' metric registry where this process has imported it (the proposal's own process need not); a new empty
    dictionary where it has not."""
    found = getattr(sys.modules.get("irprops.metrics"), "REGISTRY", None)
    return found if found is not None else {}


def module_name(path: Path) -> str:
    """The name a proposal file is imported under (the same in every process)."""
    import hashlib

    return f"irprops_proposal_{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]}"


class Missing(LookupError):
    """The module has no object of the name asked for (the message names what it has)."""


def load(where: str) -> Any:
    """The object ``where`` names: ``path/to/file.py:name`` or ``package.module:qualified.name``."""
    location, _, name = where.rpartition(":")
    if location.endswith(".py") or os.path.sep in location:
        module: Any = import_file(Path(location), module_name(Path(location)))
    else:
        module = importlib.import_module(location)
    found = module
    for part in name.split("."):
        if not hasattr(found, part):
            functions = [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")]
            near = difflib.get_close_matches(name, functions, n=3, cutoff=0.5)
            hint = f"did you mean {' or '.join(near)}?" if near else f"it defines: {', '.join(functions) or 'no functions'}"
            raise Missing(f"{location} has no function {name!r} ({hint})")
        found = getattr(found, part)
    return found


def _declared(obj: object) -> bool:
    """Whether ``obj`` is a metric declared with irprops (it is then checked in the parent, with its forms)."""
    if type(obj).__name__ in ("Measure", "Metric") and type(obj).__module__.startswith("irprops."):
        return True
    registry = getattr(sys.modules.get("irprops.metrics"), "REGISTRY", None)
    return registry is not None and any(metric.formula is obj for metric in registry.values())


@contextlib.contextmanager
def _limits(seconds: float) -> Iterator[None]:
    """A CPU-time limit for one call (a backstop: the parent ends a call that runs past its time by the clock)."""
    try:
        import resource
    except ImportError:  # not a Unix system: the parent's clock alone
        yield
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = used.ru_utime + used.ru_stime
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = int(spent + seconds) + 2
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))
    yield


def _confine(memory: int) -> None:
    """The child's own session (a Ctrl-C at the terminal reaches the parent, which ends the child), a memory limit,
    a file-size limit, and an end when the parent ends."""
    with contextlib.suppress(OSError):
        os.setsid()
    try:
        import resource
    except ImportError:
        return
    for limit, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_FSIZE, FILE_BYTES)):
        if value > 0:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(limit, (value, value))
    with contextlib.suppress(Exception):  # Linux: end with the parent (PR_SET_PDEATHSIG), even if stuck in C code
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)


def serve(requests: int, answers: int, memory: int) -> None:
    """The child: load the proposal named in the first request, then answer each situation until the pipe closes."""
    _confine(memory)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    import tempfile

    with tempfile.TemporaryFile() as file:  # a file with no name: the descriptors below keep it
        printed = os.dup(file.fileno())
    os.dup2(printed, 1)
    os.dup2(printed, 2)
    inbox, outbox = os.fdopen(requests, "r", encoding="utf-8"), os.fdopen(answers, "w", encoding="utf-8")
    start = json.loads(inbox.readline())
    sys.path[:0] = [p for p in start["path"] if p not in sys.path]
    try:
        function, warmup = _loaded(start)
        ready: dict[str, Any] = {"kind": "ready", "declared": _declared(function), "callable": callable(function),
                                 "name": str(getattr(function, "__name__", start["where"].rpartition(":")[2])),
                                 "relevance": str(getattr(function, "relevance", "") or ""), "warmup": warmup}
    except Missing as missing:
        ready = {"kind": "failed", "problem": str(missing)}
    except BaseException as error:  # noqa: BLE001 - any failure to load is reported to the parent as a sentence
        ready = {"kind": "failed", "problem": f"loading it raised {shown(error)}"}
    _send(outbox, ready, printed)
    if ready["kind"] != "ready":
        return
    for line in inbox:
        request = json.loads(line)
        with _limits(float(request["seconds"])):
            answer = call_many(function, request["batch"]) if "batch" in request else call(function, request)
        _send(outbox, {**answer, "id": request.get("id")}, printed)


def _loaded(start: dict[str, Any]) -> tuple[Any, float]:
    """The function the first request names, and the seconds its warm-up took: a toolkit metric (``"toolkit"``) is the
    adapter of :mod:`irprops.toolkits`, warmed up here (a JIT compiles before the first situation is timed)."""
    if not start.get("toolkit"):
        return load(start["where"]), 0.0
    toolkits = importlib.import_module("irprops.toolkits")
    glue = importlib.import_module("irprops.toolkits.glue")
    spec = toolkits.parse(start["toolkit"])
    adapter = glue.Adapter(spec, load(spec.name) if spec.toolkit == toolkits.CUSTOM else None, int(start.get("scale") or 1),
                           compared=bool(start.get("compared")))
    return adapter, adapter.warm()


def call_many(function: Any, requests: list[dict[str, Any]]) -> dict[str, Any]:
    """The answers on many situations, as ``{"kind": "batch", "answers": [...]}``: in one call of ``function.batch`` (a
    toolkit's adapter) when it has one, else one call each."""
    batch = getattr(function, "batch", None)
    if batch is None:
        return {"kind": "batch", "answers": [call(function, r) for r in requests]}
    items = [(r["ranking"], r["k"], r["qrels"], *([r["ties"]] if r.get("ties") else [])) for r in requests]
    try:
        with _no_exit():
            found = batch(items)
    except BaseException as error:  # noqa: BLE001 - the batch failed as a whole: each situation alone says which
        if len(requests) == 1:
            return {"kind": "batch", "answers": [_defect(f"raised {shown(error)}")]}
        return {"kind": "batch", "answers": [call_many(function, [r])["answers"][0] for r in requests]}
    taken = getattr(function, "take_retried", None)
    retried = taken() if callable(taken) else (0, "")
    extra = {"retried": [int(retried[0]), str(retried[1])[:300]]} if retried[0] else {}
    answers = []
    for value in found:
        if isinstance(value, ZeroDivisionError):
            answers.append({"kind": "undefined"})
        elif isinstance(value, BaseException) and _withheld(value):
            answers.append({"kind": "withheld", "reason": str(value)[:300]})
        elif isinstance(value, BaseException):
            answers.append(_defect(f"raised {shown(value)}"))
        else:
            answers.append(classify(value))
    return {"kind": "batch", "answers": answers, **extra}


def _withheld(error: BaseException) -> bool:
    """Whether an adapter's answer is :class:`irprops.toolkits.glue.Withheld` (not imported here: standard library only)."""
    kind = type(error)
    return kind.__name__ == "Withheld" and kind.__module__ == "irprops.toolkits.glue"


def _send(outbox: Any, answer: dict[str, Any], printed: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    text = os.pread(printed, PRINTED_CHARS * 4, 0).decode("utf-8", "replace")[:PRINTED_CHARS]
    os.ftruncate(printed, 0)
    os.lseek(printed, 0, os.SEEK_SET)
    outbox.write(json.dumps({**answer, "printed": text}) + "\n")
    outbox.flush()


if __name__ == "__main__":
    if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
        del sys.path[0]  # the folder of this script is not the proposal's: its modules must not shadow the proposal's imports
    serve(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
