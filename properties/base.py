"""The property registry and the refutation search every candidate-based property shares.

A property declares how to enumerate its candidates in minimal order, how Hypothesis
draws them, and how to turn one into a certified :class:`~irprops.verdicts.Witness`.
:meth:`SearchProperty.run` then searches exhaustively, then with Hypothesis, shrinks what
Hypothesis found, and reports a :class:`~irprops.verdicts.Verdict`: "no" with the
witness, or "unknown" with how many candidates were tried where. A proposal's defects
are skipped and reported; a hang stops that property's search.
"""

from __future__ import annotations

import itertools
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Literal, TypeVar

from irprops.files import raise_if_interrupted
from irprops.metrics import InputError, Situation, Undecided
from irprops.verdicts import COLUMNS, Problem, Prop, Search, Verdict, VerdictValue, Witness, show, situation_json

from . import targets
from .space import Space
from .targets import TOLERANCE, Defect, Hang, Target

if TYPE_CHECKING:  # Hypothesis is imported where a search draws examples: a warm table, say, never does (0.14 s)
    from hypothesis import settings
    from hypothesis import strategies as st

C = TypeVar("C")

RERUNS = 3
"""How many times a proposal's witness is re-run, each time with nothing cached, before it is reported."""

CROSS_CHECK_EXAMPLES = 20
"""Hypothesis examples of a cell a proof settles (issue 13): the search then cross-checks the proof, on finer grades and
deeper rankings than the exhaustive phase, and the structured deep phase checks it at every depth to 200; it cannot
change the verdict but by a counterexample, which withdraws the proof."""

RECHECKED = 5000
"""How many candidates before an exhaustive witness are looked at again exactly (:meth:`SearchProperty._hidden`) before
it is called minimal; past that, it is not."""

FIRST_BATCH, LAST_BATCH = 50, 3200
"""The candidates whose situations a toolkit scores in one call (:meth:`SearchProperty.ahead`): the first batch, the
largest."""

PROPERTIES: dict[Prop, Property] = {}
"""The seven properties, by key, in the paper's column order."""


def register(cls: type[Property]) -> type[Property]:
    """Register a property class (one instance) under its key."""
    instance = cls()
    if not isinstance(instance.key, Prop):
        raise TypeError(f"a property's key is a Prop, not {instance.key!r}")
    PROPERTIES[instance.key] = instance
    ordered = sorted(PROPERTIES.items(), key=lambda item: COLUMNS.index(item[0]))
    PROPERTIES.clear()
    PROPERTIES.update(ordered)
    return cls


class Property(ABC):
    """One of the seven properties: a quantified statement and a way to look for counterexamples."""

    key: Prop
    title: str
    wording: str
    """The paper's own wording (Moffat 2013, Section 4)."""
    reading: str
    """The choice that turns the wording into a statement, in one sentence (for reports)."""
    statement: str
    """The statement in symbols, one line (for reports): ``score(r, k + 1) >= score(r, k)``."""

    def instance(self, witness: Witness) -> str:
        """The statement instantiated on ``witness``, with its scores, in one line that shows why it fails."""
        return witness.text

    @abstractmethod
    def run(self, target: Target, space: Space, settled: Callable[[], bool] | None = None) -> Verdict:
        """The search's verdict; ``settled()``, asked once the exhaustive phase found no counterexample, says whether a
        proof settles the cell: the search then only cross-checks it (:data:`CROSS_CHECK_EXAMPLES` Hypothesis examples,
        and the structured deep phase in full)."""


@dataclass
class SearchLog:
    """What one property's search met: candidates tried, the proposal's defects, a hang, the clock."""

    budget: float
    tried: int = 0
    defects: int = 0
    first_defect: Defect | None = None
    hang: Hang | None = None
    out_of_time: bool = False
    started: float = field(default_factory=time.perf_counter)

    @property
    def stopped(self) -> bool:
        return self.hang is not None or self.out_of_time

    def attempt(self, property_: SearchProperty[C], candidate: C, target: Target) -> Witness | None:
        """Test one candidate; a defect is counted and skipped, a hang or the budget ends the search.

        A witness is re-run :data:`RERUNS` times, each on a fresh copy of the target (nothing
        cached): a proposal that answers differently on any re-run is nondeterministic, which
        is a defect (a random black box often repeats one answer, seldom three).
        """
        if self.stopped:
            return None
        raise_if_interrupted()
        if time.perf_counter() - self.started > self.budget:
            self.out_of_time = True
            return None
        self.tried += 1
        try:
            found = property_.witness(candidate, target)
            if found is not None and target.fresh() is not target:
                for _ in range(RERUNS):
                    again = property_.witness(candidate, target.fresh())
                    if again is None or (again.data, again.text) != (found.data, found.text):
                        raise Defect(_first_situation(candidate), f"answered differently when re-run on the same input ({found.text})")
            return found
        except Hang as hang:
            self.hang = hang
        except Defect as defect:
            self.record(defect)
        return None

    def record(self, defect: Defect) -> None:
        self.defects += 1
        self.first_defect = self.first_defect or defect

    def defect_note(self) -> str:
        if not self.defects:
            return ""
        return (f" The proposal failed on {self.defects:,} inputs, which were skipped; "
                f"the first: it {self.first_defect.problem} on {show(self.first_defect.situation)}.")  # type: ignore[union-attr]

    @property
    def stop_kind(self) -> Literal["hang", "budget"] | None:
        if self.hang is not None:
            return "hang"
        return "budget" if self.out_of_time else None

    def search(self, how: str, evidence: str, unit: str, seconds: float, *, minimal: bool = False) -> Search:
        """What the search did, as a verdict carries it."""
        first = Problem(self.first_defect.problem, situation_json(self.first_defect.situation)) if self.first_defect else None
        hang = Problem(self.hang.problem, situation_json(self.hang.situation)) if self.hang else None
        return Search(how, evidence, self.tried, unit, minimal, self.defects, first, self.stop_kind, hang, self.budget, seconds)

    def stop_reason(self, noun: str) -> tuple[str, str]:
        """The method and evidence of a search that stopped early."""
        if self.hang is not None:
            return ("search stopped: the proposal hung",
                    f"the proposal {self.hang.problem} on {show(self.hang.situation)}; the search stopped after {self.tried:,} {noun}")
        return ("search stopped: time budget",
                f"the search used its time budget of {self.budget:g} s and stopped after {self.tried:,} {noun}, without a counterexample")


def _first_situation(candidate: object) -> Situation:
    parts = candidate if isinstance(candidate, tuple) else (candidate,)
    return next(p for p in parts if isinstance(p, Situation))


def method(phase: str, numerical: bool) -> str:
    """The method string of a verdict: how it was searched and in which arithmetic."""
    if numerical:
        return (f"{phase}, numerical evidence (float scores; a difference counts beyond relative {TOLERANCE:g}, "
                "equality only for identical floats)")
    return f"{phase}, exact arithmetic"


class SearchProperty(Property, Generic[C]):
    """A property refuted by a single candidate: a situation, a swap, a pair of situations."""

    noun = "cases"
    preferred = ""
    """What makes a witness strong, for a property whose witnesses can be weak (``Witness.weak``):
    the exhaustive search then returns the first strong witness, and the first weak one only
    if it finds no strong one."""

    @abstractmethod
    def candidates(self, space: Space) -> Iterator[C]:
        """Every candidate of the exhaustive phase, smallest first."""

    @abstractmethod
    def strategy(self, space: Space) -> st.SearchStrategy[C]:
        """Candidates for the Hypothesis phase."""

    @abstractmethod
    def witness(self, candidate: C, target: Target) -> Witness | None:
        """The certified witness ``candidate`` is, or None."""

    def shrink(self, candidate: C) -> Iterator[C]:
        """Candidates one step smaller than ``candidate`` (for witnesses Hypothesis found)."""
        return iter(())

    def passed_over(self, seen: list[C], target: Target, log: SearchLog, everything: bool = False) -> tuple[C, Witness] | None:
        """The smallest strong witness among the situations of ``seen`` that the enumeration did not pair, or None.

        Asked when a weak witness came before the first strong one: a property that pairs each situation with one
        partner only (localization: with its top k alone) may have passed over two situations with both scores defined
        where the partner was undefined; with ``everything``, when the enumeration ended with weak witnesses only (then
        any strong one is smaller than none, a thirty-second hostile review)."""
        return None

    def needs(self, candidate: C) -> list[Situation]:
        """The situations :meth:`witness` scores on ``candidate`` (those it holds, by default), which a target that scores
        many situations per call (a toolkit) is given ahead, in batches (:meth:`ahead`)."""
        parts = candidate if isinstance(candidate, tuple) else (candidate,)
        return [p for p in parts if isinstance(p, Situation)]

    def ahead(self, candidates: Iterator[C], target: Target) -> Iterator[C]:
        """``candidates``, with the situations of each batch handed to ``target.prefetch`` before the batch is tried (for
        a toolkit; a target that scores one at a time is not asked). Batches grow from :data:`FIRST_BATCH` candidates, so
        that a witness met early costs a small call. Only what is cached changes: every verdict is what it would be."""
        if not target.batches:
            yield from candidates
            return
        size = FIRST_BATCH
        while chunk := list(itertools.islice(candidates, size)):
            target.prefetch(s for c in chunk for s in self.needs(c))
            yield from chunk
            size = min(size * 4, LAST_BATCH)

    def deep_candidates(self, space: Space) -> Iterator[C]:
        """Structured candidates at depths up to ``space.deep_max_k``, chosen by the statement's shape (landmark
        ranks around the depth), where a formula could hide a feature (a weight, a sign change, a read below k)."""
        return iter(())

    def run(self, target: Target, space: Space, settled: Callable[[], bool] | None = None) -> Verdict:
        start = time.perf_counter()
        log = SearchLog(space.budget)
        undecided = targets.undecided()
        weak: Witness | None = None
        seen: list[C] = []
        for candidate in self.ahead(self.candidates(space), target):
            seen.append(candidate)
            found = log.attempt(self, candidate, target)
            if found is not None and not found.weak:
                passed = self.passed_over(seen, target, log) if weak is not None else None
                cut = log.stopped  # the time ran out while the passed-over pairs were compared: a smaller one may be left
                if passed is not None:  # a smaller strong witness among situations the enumeration did not pair
                    candidate, found = passed
                hidden = self._hidden(seen[:-1], target, True, space.budget)
                if isinstance(hidden, tuple) and passed is None:  # floats hid an earlier witness: that one is first
                    candidate, found = hidden
                among = f" among {self.noun} {self.preferred}" if self.preferred else ""
                order, minimal = _order(targets.undecided() - undecided, hidden is True or (hidden is not False and passed is not None),
                                        cut=cut)
                evidence = f"{found.text}. {order}{among} over {space.describe()}"
                return self._verdict("no", method("exhaustive search", found.numerical), evidence, found, log, start, minimal=minimal)
            if found is not None and weak is None:
                weak, weak_at, weak_undecided = found, len(seen) - 1, targets.undecided() - undecided
            if log.stopped:
                break
        if weak is not None and not log.stopped:
            passed = self.passed_over(seen, target, log, everything=True)
            if passed is not None:  # only weak witnesses in the enumeration, but a strong pair among what it saw
                hidden = self._hidden(seen, target, True, space.budget)
                order, minimal = _order(targets.undecided() - undecided, hidden is not False, cut=log.stopped)
                evidence = f"{passed[1].text}. {order} over {space.describe()}"
                return self._verdict("no", method("exhaustive search", passed[1].numerical), evidence, passed[1], log, start,
                                     minimal=minimal)
        if weak is not None:
            hidden = self._hidden(seen[:weak_at], target, False, space.budget)
            if isinstance(hidden, tuple):
                weak = hidden[1]
            order, minimal = _order(weak_undecided, hidden is True)
            why = "the proposal hung" if log.stop_kind == "hang" else "its time budget ran out"
            ended = (f"the search stopped ({why}) before it found a counterexample {self.preferred}" if log.stopped
                     else f"no counterexample {self.preferred} was found")
            evidence = f"{weak.text}. {order} over {space.describe()}; {ended}"
            return self._verdict("no", method("exhaustive search", weak.numerical), evidence, weak, log, start, minimal=minimal)
        if log.stopped:
            return self._stopped(log, start)
        asked = time.perf_counter()
        proved = settled is not None and settled()
        log.started += time.perf_counter() - asked  # the proof's time is not the search's: its budget is for searching
        examples = min(space.examples, CROSS_CHECK_EXAMPLES) if proved else space.examples
        sampled = self._hypothesis(target, space, log, examples)
        if log.stopped:
            return self._stopped(log, start)
        if sampled is not None:
            found = self._shrunk(*sampled, target, log)
            evidence = f"{found.text}. Found by Hypothesis and shrunk, after the exhaustive search over {space.describe()} found none"
            return self._verdict("no", method("Hypothesis search", found.numerical), evidence, found, log, start)
        deep = self._deep(target, space, log, proved)
        if log.stopped:
            return self._stopped(log, start)
        if deep is not None:
            evidence = (f"{deep.text}. Found by the structured deep search (k <= {space.deep_max_k}), after the exhaustive "
                        f"search over {space.describe()} and {examples} Hypothesis examples found none")
            return self._verdict("no", method("structured deep search", deep.numerical), evidence, deep, log, start)
        deep_note = f", then structured cases with k <= {space.deep_max_k}" if space.deep_max_k and self._has_deep(space) else ""
        skipped = targets.undecided() - undecided
        skipped_note = f"; {skipped:,} comparisons could not be decided and were skipped (they refute nothing)" if skipped else ""
        short = " (a proof settles the cell: the search cross-checks it)" if examples < space.examples else ""
        evidence = (f"not refuted in {log.tried:,} {self.noun}: exhaustively over {space.describe()}, "
                    f"then {examples} Hypothesis examples with k <= {space.search_max_k}{short}{deep_note}{skipped_note}")
        return self._verdict("unknown", method("exhaustive and Hypothesis search", not target.exact), evidence, None, log, start)

    def _hidden(self, before: list[C], target: Target, strong: bool, seconds: float) -> tuple[C, Witness] | bool:
        """The first of the candidates ``before`` a witness that is a witness too (a strong one, if ``strong``) when seen
        through the target's :class:`~targets.ExactView`, where no float screens a comparison or says a score is undefined;
        True when that cannot be certified (more than :data:`RECHECKED` candidates, more than ``seconds``, an exact run that
        cannot decide), else False."""
        view = target.exact_view()
        if len(before) > RECHECKED:
            return True
        deadline = time.perf_counter() + seconds  # an exact form 200 times slower than its floats took 350 s (round 32)
        for candidate in before:
            if time.perf_counter() > deadline:
                return True
            raise_if_interrupted()
            try:
                found = self.witness(candidate, view)
            except (InputError, Undecided, Defect, Hang):
                return True
            if found is not None and not (strong and found.weak):
                return candidate, found
        return False

    def _has_deep(self, space: Space) -> bool:
        return next(iter(self.deep_candidates(space)), None) is not None

    def cross_checking(self, candidate: C) -> C:
        """``candidate`` as the deep phase tries it when a proof settles the cell and the search only cross-checks it
        (a property may then screen it more cheaply, never unsoundly: a witness is still certified exactly)."""
        return candidate

    def _deep(self, target: Target, space: Space, log: SearchLog, proved: bool = False) -> Witness | None:
        """The first structured deep candidate that is a witness (a strong one if there is one); ``proved``: a proof
        settles the cell (each candidate is then tried as :meth:`cross_checking` makes it)."""
        weak = None
        for candidate in self.ahead((self.cross_checking(c) if proved else c for c in self.deep_candidates(space)), target):
            found = log.attempt(self, candidate, target)
            if found is not None and not found.weak:
                return found
            weak = weak or found
            if log.stopped:
                break
        return weak

    def _hypothesis(self, target: Target, space: Space, log: SearchLog, examples: int) -> tuple[C, Witness] | None:
        from hypothesis import find
        from hypothesis.errors import NoSuchExample

        confirmed: dict[C, Witness] = {}
        answered: dict[C, bool] = {}

        def is_witness(candidate: C) -> bool:
            # Hypothesis replays candidates: each is tested once, so that a nondeterministic
            # proposal (a defect, caught by the re-run in attempt) cannot make the search flaky
            if candidate not in answered:
                found = log.attempt(self, candidate, target)
                if found is not None:
                    confirmed[candidate] = found
                answered[candidate] = found is not None
            return answered[candidate]

        try:
            candidate = find(self.strategy(space), is_witness, settings=_search_settings(examples))
        except NoSuchExample:
            return None
        return candidate, confirmed[candidate]

    def _shrunk(self, candidate: C, found: Witness, target: Target, log: SearchLog) -> Witness:
        """Greedily move to a smaller candidate that is still a witness, while there is one."""
        improved = True
        while improved:
            improved = False
            for smaller in self.shrink(candidate):
                witness = log.attempt(self, smaller, target)
                if witness is not None:
                    candidate, found, improved = smaller, witness, True
                    break
        return found

    def _verdict(self, verdict: VerdictValue, how: str, evidence: str, witness: Witness | None, log: SearchLog, start: float,
                 *, minimal: bool = False) -> Verdict:
        tried = f"; {log.tried:,} {self.noun} tried." if verdict == "no" else "."
        seconds = time.perf_counter() - start
        searched = log.search(how, evidence + tried + log.defect_note(), self.noun, seconds, minimal=minimal)
        return Verdict(self.key, verdict, searched, witness, seconds=seconds)

    def _stopped(self, log: SearchLog, start: float) -> Verdict:
        how, evidence = log.stop_reason(self.noun)
        return self._verdict("unknown", how, evidence, None, log, start)


def _search_settings(examples: int) -> settings:
    from hypothesis import HealthCheck, Phase, Verbosity, settings

    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        phases=(Phase.generate, Phase.shrink),
        report_multiple_bugs=False,
    )


def _order(skipped: int, unchecked: bool = False, *, cut: bool = False) -> tuple[str, bool]:
    """The minimality claim of an exhaustive witness, and whether it holds: not when ``skipped`` comparisons before it
    could not be decided exactly, nor when the candidates before it could not all be looked at again exactly
    (``unchecked``): an earlier candidate may have been a witness; nor when the search's time ran out (``cut``) while
    the pairs the enumeration passed over were compared (a thirty-third hostile review: the classes are visited in the
    order they were met, so the smallest pair may be in one not reached)."""
    order = "Minimal in the exhaustive order (k, then ranking length, then R)"
    if cut:
        return ("First found in the exhaustive order (k, then ranking length, then R), not certified minimal (the search's "
                "time ran out while it compared the situations the enumeration had not paired)"), False
    if skipped:
        return (f"First in the exhaustive order (k, then ranking length, then R), not certified minimal ({skipped:,} earlier "
                "comparisons could not be decided exactly)"), False
    if unchecked:
        return ("First in the exhaustive order (k, then ranking length, then R), not certified minimal (the candidates before "
                f"it were screened in floating point, and could not all be looked at again exactly: more than {RECHECKED:,}, "
                "more than the search's time, or not decidable)"), False
    return order, True
