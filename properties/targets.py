"""What the property checkers evaluate: a built-in measure, or a researcher's proposal function.

A target maps a situation to an outcome: a :class:`Scored` value, the
:data:`~metrics.UNDEFINED` value, or an exception: :class:`Defect` when a proposal
misbehaves (raises, returns NaN, infinity or a non-number) and :class:`Hang` when it does
not return within its time limit.

Scores carry a fast float (``approx``) for screening and, unless the target only produces
floats, an exact value for certification. :func:`relation` is the only place a verdict's
comparison is decided: exactly for exact scores; for float scores by a stated tolerance,
with equality only for identical floats, and flagged as numerical evidence.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import signal
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from irprops.metrics import UNDEFINED, InputError, Measure, Situation, Undecided, Undefined, compare
from irprops.metrics.exact import Exact, as_exact, brief, decimal, log2, to_float, to_str
from irprops.metrics.grades import grade_texts
from irprops.metrics.reads import ReadMemo
from irprops.verdicts import Relevance, Score, show, situation_json

from .proposal_process import MAX_BITS, PRINTED_CHARS, call
from .sandbox import OutOfTime, Sandbox

TOLERANCE = 1e-9
"""Relative tolerance for float scores: a difference counts only beyond it (and beyond 1e-12)."""


class Defect(Exception):
    """A proposal misbehaved on an input: the situation and what went wrong."""

    def __init__(self, situation: Situation, problem: str) -> None:
        super().__init__(f"{problem} on {show(situation)}")
        self.situation = situation
        self.problem = problem


class Hang(Defect):
    """A proposal did not return within its time limit."""


class Scored:
    """A defined score: a float for screening, and the exact value (computed on demand) unless numerical."""

    __slots__ = ("_exact", "_make_exact", "approx", "numerical", "screened")

    def __init__(self, approx: float, exact: Exact | None = None, make_exact: Callable[[], Exact] | None = None,
                 screened: bool = True) -> None:
        self.approx = approx
        self._exact = exact
        self._make_exact = make_exact
        self.numerical = exact is None and make_exact is None
        self.screened = screened
        """Whether the float may screen comparisons (:func:`clearly`); not in an :class:`ExactView`."""

    @property
    def exact(self) -> Exact:
        if self._exact is None:
            if self._make_exact is None:
                raise ValueError("a float score has no exact value")
            self._exact = self._make_exact()
        return self._exact

    def text(self) -> str:
        """The score as JSON witnesses write it: exact when known, else the float's repr."""
        return repr(self.approx) if self.numerical else to_str(self.exact)

    def shown(self) -> str:
        """The score for people: exact when rational, else its decimal with the exact form."""
        if self.numerical:
            return self.text()
        if isinstance(self.exact, Fraction):
            return brief(self.exact)
        return f"{self.approx:.6g} (exactly {brief(self.exact)})"


Outcome = Scored | Undefined


def score_of(role: str, situation: Situation, outcome: Outcome) -> Score:
    """What a witness records of one of its scores (:class:`~irprops.verdicts.Score`): exact where the target is, with its
    float; a black box's float alone; neither where the score is undefined."""
    where = situation_json(situation)
    if not isinstance(outcome, Scored):
        return Score(role, where, None, None)
    if outcome.numerical:
        return Score(role, where, None, outcome.approx, f"{outcome.approx:.10g}")
    try:
        value = to_float(outcome.exact)
    except (Undecided, ValueError, OverflowError, TypeError):
        value = outcome.approx
    try:
        digits: str | None = decimal(outcome.exact)
    except (Undecided, ValueError, ArithmeticError, TypeError):
        digits = None
    return Score(role, where, to_str(outcome.exact), value, digits)


@dataclass(frozen=True)
class Relation:
    """A certified comparison of two scores: sign of (a - b), and whether floats decided it."""

    sign: int
    numerical: bool


def relation(a: Scored, b: Scored) -> Relation | None:
    """The certified sign of a - b, or None when it cannot be certified (counted: see :func:`undecided`)."""
    if a.numerical or b.numerical:
        if a.approx == b.approx:
            return Relation(0, True)
        if abs(a.approx - b.approx) > TOLERANCE * max(1.0, abs(a.approx), abs(b.approx)):
            return Relation(1 if a.approx > b.approx else -1, True)
        _UNDECIDED[0] += 1
        return None
    try:
        return Relation(compare(a.exact, b.exact), False)
    except Undecided:
        _UNDECIDED[0] += 1
        return None


_UNDECIDED = [0]


def note_undecided() -> None:
    """Count a comparison a property could not certify in its own terms (floats too coarse to show a difference)."""
    _UNDECIDED[0] += 1


def undecided() -> int:
    """How many comparisons :func:`relation` could not certify so far in this process: a search whose count rose before
    its witness skipped candidates it could not decide, so its witness is not certified minimal."""
    return _UNDECIDED[0]


def informative(s: Scored) -> bool:
    """Whether the float hint of ``s`` tells it apart from others: not for a score past floating point (10 ** 5000), nor
    for one of an :class:`ExactView`."""
    return s.screened and abs(s.approx) < sys.float_info.max


def clearly(a: Scored, b: Scored) -> int:
    """A cheap screen on the floats: 1 or -1 when a - b is clearly positive or negative, else 0.

    Used only to skip candidates that are almost surely not witnesses: a candidate the
    screen dismisses can only be a missed witness, never a false one, because every
    reported relation is certified by :func:`relation`.
    """
    if not (informative(a) and informative(b)):
        return 0
    gap = a.approx - b.approx
    if abs(gap) > 1e-6 * max(1.0, abs(a.approx), abs(b.approx)):
        return 1 if gap > 0 else -1
    return 0


class Target:
    """Something with a score on situations; outcomes are cached."""

    name: str
    relevance: Relevance
    exact: bool
    """Whether scores are exact (built-in measures, proposals returning Fractions or ints)."""
    reads_unjudged = False
    """Whether scores can tell an unjudged document from a nonrelevant one (then the search ranges over both)."""
    reads_nonrelevant = False
    """Whether scores read N, the collection's judged nonrelevant documents (then the search gives it, over a range)."""
    provable = False
    """Whether a proof may be asked for (a declared metric): the searches then also score what self-checks it."""
    batches = False
    """Whether many situations cost less scored in one call (:meth:`prefetch`): a toolkit's metric."""

    def __init__(self) -> None:
        self._cache: dict[Situation, Outcome] = {}
        self.evaluations = 0

    def score(self, situation: Situation) -> Outcome:
        """The outcome on ``situation``; raises :class:`Defect` or :class:`Hang` for a misbehaving proposal."""
        found = self._cache.get(situation)
        if found is None:
            self.evaluations += 1
            found = self._cache[situation] = self._evaluate(situation)
        return found

    def prefetch(self, situations: Iterable[Situation]) -> None:
        """Score ``situations`` ahead of their use, where many are cheaper in one call (a toolkit); by default nothing:
        the search never depends on it, and each is scored when asked."""

    def certainly_undefined(self, situation: Situation) -> bool:
        """Whether the score is undefined on ``situation``, certified in the target's own arithmetic."""
        return isinstance(self.score(situation), Undefined)

    def seen(self) -> dict[Situation, Outcome]:
        """Every outcome computed so far."""
        return dict(self._cache)

    def fresh(self) -> Target:
        """The same target with nothing cached, to re-run a witness; deterministic targets return themselves."""
        return self

    def close(self) -> None:
        """Let go of what the target holds (a proposal's process); nothing for a declared metric."""

    def exact_view(self) -> Target:
        """This target with every outcome certified (:class:`ExactView`); a float a black box returned stays the float it
        is (its exact scores are compared exactly, a thirty-second hostile review)."""
        return ExactView(self)

    def certified(self, situation: Situation) -> Outcome:
        """The outcome on ``situation`` with its definedness and value certified in exact arithmetic."""
        outcome = self.score(situation)
        if isinstance(outcome, Undefined) or outcome.numerical:
            return outcome
        return Scored(outcome.approx, exact=outcome.exact, screened=False)

    def _evaluate(self, situation: Situation) -> Outcome:
        raise NotImplementedError


class ExactView(Target):
    """A target whose outcomes are certified: whether a score is defined comes from the exact run, and no comparison is
    screened in floating point. The exhaustive search screens on floats (a candidate whose floats clearly say "no witness"
    is passed over); before it calls a witness minimal, it looks at the candidates before it again through this view, where
    a float that hid a witness (a 0 that is -1.1e-16 in floats, a term lost to rounding) cannot (a thirty-first hostile
    review)."""

    def __init__(self, inner: Target) -> None:
        super().__init__()
        self.inner, self.name, self.relevance, self.exact = inner, inner.name, inner.relevance, inner.exact
        self.reads_unjudged = inner.reads_unjudged
        self.reads_nonrelevant = inner.reads_nonrelevant

    def _evaluate(self, situation: Situation) -> Outcome:
        return self.inner.certified(situation)


class BuiltinTarget(Target):
    """A declared metric, bound to its parameters: floats screen, the exact form certifies."""

    exact = True

    def __init__(self, measure: Measure, relevance: Relevance | None = None) -> None:
        super().__init__()
        self.measure = measure
        self.name = measure.name
        self.relevance = relevance or measure.metric.relevance
        self.reads_unjudged = measure.reads_unjudged()
        self.reads_nonrelevant = measure.reads_nonrelevant()
        self._memo = ReadMemo()  # exact scores shared between situations that answer the formula's reads alike
        self.provable = True

    def _exact(self, situation: Situation) -> Exact | Undefined:
        return self._memo.exact(self.measure, situation)

    def _evaluate(self, situation: Situation) -> Outcome:
        approx = self._memo.screen(self.measure, situation)
        if isinstance(approx, Undefined):
            return approx
        return Scored(approx, make_exact=lambda: _defined(self._exact(situation), situation, self.name))

    def certainly_undefined(self, situation: Situation) -> bool:
        return isinstance(self.score(situation), Undefined) and isinstance(self._exact(situation), Undefined)

    def certified(self, situation: Situation) -> Outcome:
        value = self._exact(situation)
        if isinstance(value, Undefined):
            return value
        screened = self.score(situation)
        return Scored(screened.approx if isinstance(screened, Scored) else _rounded(value), exact=value, screened=False)


def _rounded(value: Exact) -> float:
    """The float nearest ``value`` as far as floats go (an infinity past them, a NaN where it cannot be rounded)."""
    try:
        return to_float(value)
    except OverflowError:
        return math.inf if compare(value, 0) > 0 else -math.inf
    except Undecided:
        return math.nan


def _defined(value: Exact | Undefined, situation: Situation, name: str) -> Exact:
    if isinstance(value, Undefined):  # floats rounded a zero denominator away: no comparison is certified here
        raise Undecided(f"{name}: the numeric form is defined on {situation} but the exact form is not")
    return value


class ProposalTarget(Target):
    """A plain function ``f(ranking, k, qrels)`` proposed as a metric.

    ``ranking`` and ``qrels`` are tuples of Fractions, ``k`` an int. It returns a number or
    ``None`` (undefined); ``ZeroDivisionError`` also means undefined. Anything else (another
    exception, NaN, infinity, a non-number, a bool) is a :class:`Defect`; running longer than
    ``timeout`` seconds is a :class:`Hang`. With a ``sandbox`` the function runs in its own
    process (:mod:`irprops.properties.sandbox`); without one (a lambda given to the Python
    API, which no other process can import), in this process under an alarm, which Python
    code honours and a loop in C code does not.
    """

    def __init__(self, function: Callable[..., Any] | None, name: str, relevance: Relevance, timeout: float = 1.0,
                 where: str | None = None, sandbox: Sandbox | None = None) -> None:
        super().__init__()
        if function is None and sandbox is None:
            raise ValueError("a proposal needs its function or its sandbox")
        self.function = function
        self.where = where
        """Where a fresh process finds the function (``path/to/file.py:f`` or ``module:f``), if anywhere."""
        self.sandbox = sandbox
        self.name = name
        self.relevance = relevance
        self.timeout = timeout
        self.exact = True  # until a float is seen
        self.floats_seen = 0
        self.batches = sandbox is not None  # its process is asked ahead, pipelined (:meth:`prefetch`)
        self._asked_for: dict[Situation, Outcome] = {}
        """The outcomes the searches asked for, in the order they asked (:meth:`seen`)."""
        self._hung: dict[Situation, Hang] = {}
        """The situation :meth:`prefetch` found hung: it stands for the search's first asking of that situation."""
        self._asked: dict[Situation, dict[str, Any]] = {}
        """The defects :meth:`prefetch` was answered (not cached, as a defect asked alone is not): each stands for the
        search's first asking of that situation."""

    def fresh(self) -> ProposalTarget:
        return ProposalTarget(self.function, self.name, self.relevance, self.timeout, self.where, self.sandbox)

    def close(self) -> None:
        """End the proposal's process, if it has one."""
        if self.sandbox is not None:
            self.sandbox.close()

    def reopened(self, environment: dict[str, str]) -> ProposalTarget | str:
        """The same proposal in a new process with ``environment`` (its own hash seed, say), or why there is none."""
        if self.where is None:
            return "it has no name a fresh process can import (a lambda, a nested function, or one defined in __main__)"
        try:
            box = Sandbox(self.where, environment=environment)
        except InputError as error:
            return f"the fresh process could not load the proposal ({error})"
        return ProposalTarget(None, self.name, self.relevance, self.timeout, self.where, box)

    def score(self, situation: Situation) -> Outcome:
        found = super().score(situation)
        self._asked_for[situation] = found
        return found

    def seen(self) -> dict[Situation, Outcome]:
        """The outcomes the searches asked for, in the order they first asked: not those :meth:`prefetch` had answered
        and no search asked for (how many it answered before its time ran out depends on the machine), so what a verdict
        reports of them is what asking one at a time reports."""
        return dict(self._asked_for)

    def prefetch(self, situations: Iterable[Situation]) -> None:
        """Ask the proposal's process about the situations not scored yet, pipelined (:meth:`Sandbox.ask_each`): each
        call is timed as one asked alone would be, and nothing is cached that asking alone would not give. A defect, or
        a situation that hung, is kept for the search's first asking of that situation, which raises it there and not
        before (asked again after that, as before). Asking stops after :data:`PREFETCH_SECONDS` (and a slow proposal is
        asked one call ahead), so that the search's time budget holds."""
        if not self.batches or self._hung:  # after a hang, one by one: the search stops when it reaches it
            return
        wanted = list(dict.fromkeys(s for s in situations if s not in self._cache))
        if not wanted:
            return
        answers, hung = self.sandbox.ask_each([self._request(s) for s in wanted], self.timeout, PREFETCH_SECONDS)  # type: ignore[union-attr]
        for situation, answer in zip(wanted, answers):
            if answer.get("kind") == "defect":
                self._asked[situation] = answer
                continue
            try:
                outcome = self._read(answer, situation)
            except Defect:
                self._asked[situation] = answer
                continue
            self.evaluations += 1
            self._cache[situation] = outcome
        if hung:
            situation = wanted[len(answers)]
            self._hung[situation] = Hang(situation, f"did not return within {self.timeout:g} s")

    @staticmethod
    def _request(situation: Situation) -> tuple[list[str | None], int, list[str]]:
        return [t or "0" for t in grade_texts(situation.ranking)], situation.k, grade_texts(situation.qrels)  # type: ignore[return-value]

    def _evaluate(self, situation: Situation) -> Outcome:
        hung = self._hung.pop(situation, None)  # what asking it now would have done: asked again after that, as before
        if hung is not None:
            raise hung
        asked = self._asked.pop(situation, None)
        return self._read(self._answer(situation) if asked is None else asked, situation)

    def _read(self, answer: dict[str, Any], situation: Situation) -> Outcome:
        """The outcome an answer of the proposal's process stands for; raises :class:`Defect` for a defect."""
        kind = answer.get("kind")
        if kind == "undefined":
            return UNDEFINED
        if kind == "exact":
            numerator, denominator = answer["value"]
            value = Fraction(int(numerator, 16), int(denominator, 16))
            return Scored(_approximately(value), exact=value)
        if kind == "float":
            self.exact = False
            self.floats_seen += 1
            return Scored(float(answer["value"]))
        if kind == "symbolic":
            return self._symbolic(answer["value"], situation)
        problem = str(answer.get("problem", "answered in a way irprops cannot read"))
        printed = str(answer.get("printed", ""))
        raise Defect(situation, f"{problem}, after printing {printed!r}" if printed else problem)

    def _symbolic(self, tree: Any, situation: Situation) -> Outcome:
        """An exact SymPy number (say over metrics.exact.log2): certified like the built-in metrics."""
        found = _exact_value(json.dumps(tree))
        if isinstance(found, str):
            raise Defect(situation, found)
        value, approx = found
        return Scored(approx, exact=value)

    def _answer(self, situation: Situation) -> dict[str, Any]:
        ranking, _, qrels = self._request(situation)
        if self.sandbox is not None:
            try:
                return self.sandbox.ask(ranking, situation.k, qrels, self.timeout)
            except OutOfTime:
                raise Hang(situation, f"did not return within {self.timeout:g} s") from None
        request = {"ranking": ranking, "k": situation.k, "qrels": qrels}
        previous = signal.signal(signal.SIGALRM, _alarm)
        printed = io.StringIO()  # what the proposal prints stays off irprops' output (--json stays one JSON object)
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                answer = call(self.function, request, passing=(KeyboardInterrupt, _Timeout))  # type: ignore[arg-type]
        except _Timeout:
            raise Hang(situation, f"did not return within {self.timeout:g} s") from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        return {**answer, "printed": printed.getvalue()[:PRINTED_CHARS]}


@functools.lru_cache(maxsize=4096)
def _exact_value(tree: str) -> tuple[Exact, float] | str:
    """The exact value and its float of a tree (as JSON text: a proposal returns the same values again and again),
    or why it is not an exact real number."""
    try:
        parsed = json.loads(tree)
        if _size(parsed) > MAX_BITS // 2:
            raise ValueError("too large")
        value = as_exact(_rebuilt(parsed))
        approx = to_float(value)
    except (TypeError, ValueError, KeyError, IndexError, Undecided, RecursionError, MemoryError, OverflowError):
        return "returned a SymPy value that is not an exact real number of a size irprops reads"
    return (value, approx) if math.isfinite(approx) else f"returned {brief(value)}"


_BUILD: dict[str, Callable[..., Any]] = {"Add": sympy.Add, "Mul": sympy.Mul, "Pow": sympy.Pow, "log": sympy.log, "exp": sympy.exp,
                                         "log2": log2}
_LARGEST_POWER = 1 << 16


def _size(tree: Any) -> int:
    """The operations and hexadecimal digits of a tree: a bound on the work of rebuilding it."""
    if isinstance(tree, str):
        return len(tree)
    if not isinstance(tree, list):
        raise TypeError("not a tree")
    return 1 + sum(_size(a) for a in tree)


def _bits(r: sympy.Rational) -> int:
    return max(int(r.p).bit_length(), int(r.q).bit_length(), 1)


def _rebuilt(tree: Any) -> sympy.Expr:
    """The SymPy value of a tree :func:`~irprops.properties.proposal_process.classify` wrote (from any process: checked)."""
    head, *rest = tree
    if head == "int" and len(rest[0]) <= MAX_BITS // 4:
        return sympy.Integer(int(rest[0], 16))
    if head == "rational" and max(len(rest[0]), len(rest[1])) <= MAX_BITS // 4:
        return sympy.Rational(int(rest[0], 16), int(rest[1], 16))
    if head in ("Pi", "Exp1"):
        return sympy.pi if head == "Pi" else sympy.E
    args = [_rebuilt(a) for a in rest]
    if head == "Pow" and not (len(args) == 2 and args[1].is_Rational and abs(args[1].p) <= _LARGEST_POWER):
        raise ValueError("a power irprops does not read")
    if head == "Pow" and args[0].is_Rational and _bits(args[0]) * abs(args[1].p) > MAX_BITS:
        raise ValueError("a power past the largest number irprops reads")  # checked before it is computed
    return _BUILD[head](*args)  # type: ignore[no-any-return]


def _approximately(value: Fraction) -> float:
    """``value`` as a float for display and ordering hints (verdicts use the exact value): the largest float if too large."""
    try:
        return float(value)
    except OverflowError:
        return sys.float_info.max if value > 0 else -sys.float_info.max


PREFETCH_SECONDS = 0.5
"""How long one :meth:`ProposalTarget.prefetch` may take (:meth:`Sandbox.ask_each`'s ``within``): past it, the proposal's
process is ended rather than waited for on what was sent ahead, and the rest is scored when the search asks."""


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so that a proposal's ``except Exception`` cannot swallow it."""


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout
