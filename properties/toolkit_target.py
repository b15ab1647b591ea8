"""A toolkit's metric as a search target: ``ir_measures:nDCG``, ``pytrec_eval:Rprec``, ``ranx:rbp(p=0.8)``, ...

The toolkit runs in a proposal process (:mod:`~irprops.properties.sandbox`) through the
adapter of :mod:`irprops.toolkits`, which owns the glue (document ids, grades, depths, empty
runs). Its scores are floats: a verdict it takes part in is numerical evidence, compared as
:func:`~irprops.properties.targets.relation` says. The searches announce the situations they
are about to score (:meth:`ToolkitTarget.prefetch`), and the toolkit scores them in one call,
one query id per situation: a check costs a few hundred calls, not tens of thousands.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterable
from typing import Any

from irprops.metrics import InputError, Situation
from irprops.metrics.grades import grade_texts
from irprops.toolkits import CUSTOM, EXTRA, GRADE_SCALE, TOOLKITS, Spec, SpecError, parse
from irprops.verdicts import Relevance

from .loading import where_of
from .sandbox import OutOfTime, Sandbox
from .targets import Hang, Outcome, ProposalTarget, Target

FRESH_WARMUP = 5.0
"""A toolkit whose warm-up took longer has its witnesses re-run in its own process only, not in a fresh one, which would
take it again (a JIT compiling into an empty cache: ranx, about 30 s). Far above the warm-ups of a warm cache, so that
the choice does not change from run to run with the machine's load (ranx's 0.7 s reached 1.5 s on a busy machine,
and its evidence changed with it when this was 1 s: a helper-74 finding)."""
BATCH = 2000
"""The most situations one toolkit call scores."""


def toolkit_spec(text: str) -> Spec | None:
    """The toolkit metric ``text`` names, or None; an unreadable one, or a toolkit not installed, is an input error."""
    try:
        spec = parse(text)
    except SpecError as error:
        raise InputError("target", text, str(error).partition(": ")[2]) from None
    if spec is None or spec.toolkit == CUSTOM:
        return spec
    toolkit = TOOLKITS[spec.toolkit]
    if importlib.util.find_spec(toolkit.module) is None:
        raise InputError("target", text, f"{toolkit.key} is not installed",
                         f"pip install 'irprops[{EXTRA}]' (or pip install {toolkit.distribution})")
    return spec


class ToolkitTarget(ProposalTarget):
    """A toolkit metric, scored in its own process, many situations per call."""

    batches = True

    def __init__(self, spec: Spec, name: str, relevance: Relevance, timeout: float, sandbox: Sandbox) -> None:
        super().__init__(None, name, relevance, timeout, None, sandbox)
        self.spec = spec
        self.exact = False
        self.warmup = sandbox.loaded.warmup
        """The seconds the toolkit's first call took, before the search started (reported with the verdicts)."""
        self.calls = 0
        """How many requests went to the toolkit's process (a batch is one)."""
        self._batching = True
        self._each: float | None = None

    def seen(self) -> dict[Situation, Outcome]:
        """Every situation the toolkit scored, asked for or not (its report counts what the toolkit computed)."""
        return Target.seen(self)

    def fresh(self) -> ToolkitTarget:
        return ToolkitTarget(self.spec, self.name, self.relevance, self.timeout, self.sandbox)  # type: ignore[arg-type]

    def _limit(self, situations: int) -> float:
        """The time a batch may take: the timeout for each of its situations until one batch has been timed, then the
        timeout plus ten times what its situations took each so far (a batch that hangs is found sooner)."""
        if self._each is None:
            return self.timeout * situations
        return self.timeout + 10 * self._each * situations

    def reopened(self, environment: dict[str, str]) -> ToolkitTarget | str:
        box = self.sandbox
        assert box is not None
        if self.warmup > FRESH_WARMUP:
            return (f"its warm-up took {self.warmup:.1f} s (a JIT compiling), which a fresh process would take again; "
                    "its witnesses were re-run in its own process, each time with nothing cached")
        try:
            again = Sandbox(box.where, environment=environment, toolkit=box.toolkit, scale=box.scale)
        except InputError as error:
            return f"the fresh process could not load the toolkit ({error})"
        return ToolkitTarget(self.spec, self.name, self.relevance, self.timeout, again)

    def prefetch(self, situations: Iterable[Situation]) -> None:
        """Score the situations not scored yet, :data:`BATCH` per call; those a batch cannot answer are left to
        :meth:`score`, one by one (which then says which situation failed, or hung)."""
        if not self._batching:
            return
        wanted = list(dict.fromkeys(s for s in situations if s not in self._cache))
        for start in range(0, len(wanted), BATCH):
            chunk = wanted[start:start + BATCH]
            self.calls += 1
            asked = time.perf_counter()
            try:
                answers = self.sandbox.ask_many([self._request(s) for s in chunk], self._limit(len(chunk)))  # type: ignore[union-attr]
            except OutOfTime:  # the process was ended: from now on one by one, and the one that hangs is named
                self._batching = False
                return
            self._each = max(self._each or 0.0, (time.perf_counter() - asked) / len(chunk))
            if answers is None:
                return
            for situation, answer in zip(chunk, answers, strict=True):
                if answer.get("kind") in ("defect", "withheld"):
                    continue  # asked again alone when the search scores it, which raises the defect there
                self.evaluations += 1
                self._cache[situation] = self._read(answer, situation)

    @staticmethod
    def _request(situation: Situation) -> tuple[list[str | None], int, list[str]]:
        return grade_texts(situation.ranking), situation.k, grade_texts(situation.qrels)  # type: ignore[return-value]

    def _answer(self, situation: Situation) -> dict[str, Any]:
        self.calls += 1
        try:
            return self.sandbox.ask(*self._request(situation), self.timeout)  # type: ignore[union-attr]
        except OutOfTime:
            raise Hang(situation, f"did not return within {self.timeout:g} s") from None


def toolkit_target(text: str, spec: Spec, relevance: Relevance | None, timeout: float) -> ToolkitTarget:
    """The target of the toolkit metric ``spec`` (``text`` as the user wrote it)."""
    if timeout <= 0:
        raise InputError("--timeout", timeout, "must be positive")
    if relevance is not None and relevance not in ("binary", "graded"):
        raise InputError("relevance", relevance, "must be binary or graded")
    spec = _located(spec)
    box = toolkit_sandbox(text, spec, GRADE_SCALE if relevance == "graded" else 1)
    return ToolkitTarget(spec, text, relevance or "binary", timeout, box)


def toolkit_sandbox(text: str, spec: Spec, scale: int, *, load_seconds: float | None = None,
                    compared: bool = False) -> Sandbox:
    """The process the toolkit metric ``spec`` (``text`` as the user wrote it) is scored in, through
    :mod:`irprops.toolkits`' adapter, its grades times ``scale``; ``load_seconds`` and ``compared`` as
    :class:`~irprops.properties.sandbox.Sandbox` takes them."""
    spec = _located(spec)
    return Sandbox(spec.name if spec.toolkit == CUSTOM else text, toolkit=spec.text, scale=scale,
                   load_seconds=load_seconds, compared=compared)


def _located(spec: Spec) -> Spec:
    """A ``dicts:`` function's file by its absolute path, so that any process finds it."""
    return Spec(CUSTOM, where_of(spec.name)) if spec.toolkit == CUSTOM else spec
