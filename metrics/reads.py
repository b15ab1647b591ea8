"""Exact scores shared between situations that agree on everything a formula read.

A formula sees a situation only through its algebra: the depth ``m.k``, the counts ``m.R`` and ``m.N``
and the grades and marks ``m.r(i)``, ``m.relevant(i)``, ``m.g(i)``, ``m.r_sorted(i)``, ``m.unjudged(i)`` (the formula
language lets it read nothing else, :data:`~irprops.metrics.language.ALGEBRA`, and keep no state between
runs). Its exact run is then a function of the answers to those reads, and each read it makes is a
function of the answers before it. So two situations at one depth that answer every read of one run
alike have the same exact score: ``1000`` with R = 1 and ``1000`` with R = 3 for RBP at k = 2, which
reads ranks 1 and 2 only, never R. A search that checks localization pairs such a situation with its top k;
the deep phase does it at every depth to 200, and the exact runs were most of a declared check's time.
The float screens that order the search are shared the same way, where the float run alone gave the
screen (one that asked the exact run is not kept).

:class:`ReadMemo` keeps each run as a path of reads and answers (a trie per depth): a situation is
answered from it by asking it the same reads, in order, and following the path; where an answer
differs, or a read fails, the exact run computes it (and adds its path). A run that raises is not
kept. Defence against a formula the language let through with some other input: nothing is shared
across checks (a memo lives in one target), and a re-run to test determinism uses a fresh target.

>>> from irprops.metrics import parse, Situation
>>> memo, rbp = ReadMemo(), parse("RBP(p=1/2)@2")
>>> memo.exact(rbp, Situation.of("1000", k=2)), memo.exact(rbp, Situation.of("1000", k=2, R=3)), memo.runs
(Fraction(1, 2), Fraction(1, 2), 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .algebra import Undefined
from .situation import Situation

if TYPE_CHECKING:
    from .exact import Exact
    from .registry import Measure

__all__ = ["Answers", "Read", "ReadMemo", "recording"]

Read = tuple[str, Any]
"""A read: the algebra's operation (``"r"``, ``"g"``, ``"r_sorted"``, ``"unjudged"``, ``"R"``, ``"N"``) and its argument."""


class Answers:
    """What a situation answers to reads: the raw grade, mark or count the algebra turns into the formula's value.

    >>> Answers(Situation.of("0110", k=3))(("r_sorted", 1)), Answers(Situation.of("01", k=2, R=3))(("R", None))
    (Fraction(1, 1), 3)
    """

    __slots__ = ("_top", "situation")

    def __init__(self, situation: Situation) -> None:
        self.situation = situation
        self._top: list[Fraction] | None = None

    def __call__(self, read: Read) -> object:
        kind, i = read
        situation = self.situation
        if kind == "r":
            return situation.grade(i)
        if kind == "unjudged":
            return situation.unjudged(i)
        if kind == "g":
            return situation.qrels[i - 1] if 1 <= i <= situation.R else Fraction(0)
        if kind == "r_sorted":
            if self._top is None:
                self._top = sorted((situation.grade(j) for j in range(1, situation.k + 1)), reverse=True)
            return self._top[i - 1] if 1 <= i <= situation.k else Fraction(0)
        if kind == "R":
            return situation.R
        if kind == "N":
            return situation.nonrelevant
        raise ValueError(f"no such read: {kind}")


def _key(answer: object) -> object:
    """``answer`` as a dictionary key: a Fraction's hash is slow to compute (a modular inverse), a pair of ints' is not."""
    return (answer.numerator, answer.denominator) if type(answer) is Fraction else answer


class _Node:
    __slots__ = ("next", "read", "value")

    def __init__(self) -> None:
        self.read: Read | None = None
        """The read a run asks next at this point of the path (the same for every run that got here)."""
        self.next: dict[object, _Node] = {}
        self.value: Exact | Undefined | float | None = None
        """The score of the run that ended here (None: no run ended here)."""


COLD_LOOKUPS, COLD_SHARE, COLD_RUN_SECONDS = 64, 2, 0.002
"""After this many lookups at depths of one binary magnitude (16 to 31, say), a memo that answered fewer than one in
COLD_SHARE of them from its paths, where its runs took less than COLD_RUN_SECONDS each on average, stops recording and
following paths there: each run is then made plainly. An NDCG check's deep phase found 1 in 10, and recording, keeping
and following the paths took a third of its time; with one in 2, Table 2's rows took 43 s of CPU instead of 53 s, RBP's
deep phase, which finds 3 in 4, keeping its paths. Where runs are dear (RBP written with SymPy powers, whose exact runs
are strict: 19.8 s kept, 29.4 s cold), even a few shared ones are worth their paths. Only the time changes: a path's
value is the run's."""
MAX_NODES = 500_000
"""Past this many reads kept, a memo adds no more paths (it still answers from those it has): about 200 MB at most (a
thirty-seventh hostile review saw a check of a nested sum peak at 650 MB under a cap of 2 million)."""


class ReadMemo:
    """Exact scores and float screens of one measure's situations, shared along the reads of their runs (see the module
    docstring)."""

    def __init__(self) -> None:
        self._roots: dict[tuple[str, int, int], _Node] = {}
        self._tally: dict[tuple[str, int, int], list[Any]] = {}
        """Lookups, hits and the seconds of the runs made, at the depths of each binary magnitude (:data:`COLD_LOOKUPS`)."""
        self._nodes = 0
        self.runs = 0
        """Exact runs made (the rest were answered from the paths)."""
        self.screens = 0
        """Float screens made."""

    def exact(self, measure: Measure, situation: Situation) -> Exact | Undefined:
        """``measure.exact(situation)``, from a kept run where ``situation`` answers its reads alike."""
        def compute(reads: list[tuple[Read, object]] | None) -> tuple[Exact | Undefined, bool]:
            value = measure.exact(situation, reads=reads)
            self.runs += 1
            return value, True
        return self._shared("exact", measure, situation, compute)  # type: ignore[return-value]

    def screen(self, measure: Measure, situation: Situation) -> float | Undefined:
        """``measure.screen(situation)``, from a kept float run where ``situation`` answers its reads alike (a screen that
        needed the exact run is not kept: the exact run's reads are not the float run's)."""
        def compute(reads: list[tuple[Read, object]] | None) -> tuple[float | Undefined, bool]:
            found = measure.screen_run(situation, reads)
            self.screens += 1
            return found
        return self._shared("screen", measure, situation, compute)  # type: ignore[return-value]

    def _shared(self, kind: str, measure: Measure, situation: Situation,
                compute: Callable[[list[tuple[Read, object]] | None], tuple[object, bool]]) -> object:
        if measure.check(situation) is not situation:  # a threshold (rel=, or graded grades for a binary metric): the
            return compute([])[0]  # reads are the thresholded situation's, not this one's, so nothing is shared
        key = (kind, id(measure), situation.k)
        tally = self._tally.setdefault((kind, id(measure), situation.k.bit_length()), [0, 0, 0.0])
        lookups, hits, seconds = tally
        if lookups >= COLD_LOOKUPS and hits * COLD_SHARE < lookups and seconds < COLD_RUN_SECONDS * (lookups - hits):
            return compute(None)[0]  # paths seldom shared at such depths, runs cheap: a plain run, nothing recorded
        root = self._roots.setdefault(key, _Node())
        found = _follow(root, situation)
        tally[0] += 1
        if found is not None:
            tally[1] += 1
            return found
        reads: list[tuple[Read, object]] = []
        started = time.perf_counter()
        value, keep = compute(reads)  # raises: nothing kept
        tally[2] += time.perf_counter() - started
        if keep and self._nodes < MAX_NODES:
            self._keep(root, reads, value)  # type: ignore[arg-type]
        return value

    def _keep(self, root: _Node, reads: list[tuple[Read, object]], value: Exact | Undefined | float) -> None:
        node = root
        for read, answer in reads:
            if node.value is not None or (node.read is not None and node.read != read):
                return  # a run asked differently where another asked or ended: keep neither guess (no run can)
            node.read = read
            node = node.next.setdefault(_key(answer), _Node())
            self._nodes += 1
        if node.read is None and node.value is None:
            node.value = value


def _follow(node: _Node, situation: Situation) -> Exact | Undefined | float | None:
    """The kept score of the path ``situation`` answers alike, or None (no such path; a read it cannot answer)."""
    answers = Answers(situation)
    while node.value is None:
        if node.read is None:
            return None
        try:
            answer = answers(node.read)
        except (TypeError, ValueError, IndexError):
            return None
        child = node.next.get(_key(answer))
        if child is None:
            return None
        node = child
    return node.value


def recording(algebra: type) -> type:
    """The subclass of the exact ``algebra`` class whose instances, made with a list ``reads`` after the situation and
    the parameters, note there each read of the situation with its answer (for a :class:`ReadMemo`)."""
    if algebra not in _RECORDING:
        _RECORDING[algebra] = type(algebra.__name__, (_Recording, algebra), {"__module__": __name__})
    return _RECORDING[algebra]


class _Recording:
    """The reads of the algebra (``m.R``, ``m.r(i)`` and ``m.relevant(i)``, ``m.g(i)``, ``m.r_sorted(i)``, ``m.unjudged(i)``),
    each noted the first time a run makes it: a read made again gets the same answer, so the first ones decide the run."""

    situation: Situation

    def __init__(self, situation: Situation, params: Any, reads: list[tuple[Read, object]]) -> None:
        self._reads = reads
        self._noted: set[Read] = set()
        self._answers = Answers(situation)
        super().__init__(situation, params)  # type: ignore[call-arg]

    def _note(self, read: Read) -> None:
        if read not in self._noted:
            self._noted.add(read)
            self._reads.append((read, self._answers(read)))

    @property
    def R(self) -> Any:
        self._note(("R", None))
        return self._relevant

    @R.setter
    def R(self, value: Any) -> None:
        self._relevant = value

    @property
    def N(self) -> Any:
        self._note(("N", None))
        return super().N  # type: ignore[misc]

    def r(self, i: Any) -> Any:
        value = super().r(i)  # type: ignore[misc]
        self._note(("r", i))
        return value

    def g(self, i: Any) -> Any:
        value = super().g(i)  # type: ignore[misc]
        self._note(("g", i))
        return value

    def r_sorted(self, i: Any) -> Any:
        value = super().r_sorted(i)  # type: ignore[misc]
        self._note(("r_sorted", i))
        return value

    def unjudged(self, i: Any) -> Any:
        value = super().unjudged(i)  # type: ignore[misc]
        self._note(("unjudged", i))
        return value

    def relevant(self, i: Any) -> Any:
        value = super().relevant(i)  # type: ignore[misc]
        self._note(("r", i))  # a function of the grade: situations with the same grade there answer alike
        return value


_RECORDING: dict[type, type] = {}
