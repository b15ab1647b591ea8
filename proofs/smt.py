"""Discharging proof obligations with Z3, and writing them as SMT-LIB 2 certificates.

An :class:`Obligation` is one certificate: named hypotheses, then one or more queries,
each asserting the *negation* of what it proves; every query must be ``unsat``. Z3 runs
with a deterministic resource limit (rlimit) as well as a wall-clock timeout, so that the
answer does not depend on the machine's speed. ``sat`` is a counterexample to the
encoded statement (for an induction step, a counterexample to induction, not a
refutation); ``unknown`` and timeouts are never proofs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import z3

from irprops.files import raise_if_interrupted

z3.set_param("ctrl_c", False)  # Python handles Ctrl-C, when the call returns (each query is bounded by RLIMIT): Z3's own
# handler, installed around each search, lost a Ctrl-C that came after the search ended and before Python's handler was
# back (a full test run under load: `irprops certificates` finished after its Ctrl-C, exit status 0, 1 run in 5)

RLIMIT = 20_000_000
"""Z3 resource units per query (deterministic); about a second of work on the development machine."""
TIMEOUT_MS = 20_000


def conj(formulas: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """The conjunction of ``formulas``; ``true`` when there are none (cvc5 rejects an empty ``(and)``)."""
    return z3.And(list(formulas)) if formulas else z3.BoolVal(True)


@dataclass(frozen=True)
class Query:
    """One check: the negation of a claim, under the obligation's hypotheses and its own."""

    name: str
    negated: z3.BoolRef
    hypotheses: tuple[tuple[str, z3.BoolRef], ...] = ()


@dataclass
class Obligation:
    """A certificate: what it proves (header), the named hypotheses, and the queries."""

    path: str
    header: dict[str, str]
    hypotheses: list[tuple[str, z3.BoolRef]] = field(default_factory=list)
    queries: list[Query] = field(default_factory=list)

    def assume(self, name: str, formula: z3.BoolRef) -> None:
        if all(existing != name for existing, _ in self.hypotheses):
            self.hypotheses.append((name, formula))

    def ask(self, name: str, negated: z3.BoolRef, **local: z3.BoolRef) -> None:
        self.queries.append(Query(name, negated, tuple(local.items())))


@dataclass(frozen=True)
class Discharged:
    """What Z3 answered: each query's status, the hypotheses its proof used, time and resources."""

    obligation: Obligation
    statuses: tuple[str, ...]
    cores: tuple[tuple[str, ...], ...]
    seconds: float
    rlimit: int

    @property
    def proved(self) -> bool:
        return all(s == "unsat" for s in self.statuses)

    def failure(self) -> str:
        """Why the obligation is not proved (the first query that is not unsat)."""
        for query, status in zip(self.obligation.queries, self.statuses):
            if status != "unsat":
                return f"{query.name}: Z3 answered {status}"
        return ""

    @property
    def used(self) -> tuple[str, ...]:
        """The hypotheses used by any query's proof (from unsat cores), in order of first use."""
        seen: dict[str, None] = {}
        for core in self.cores:
            seen.update(dict.fromkeys(core))
        return tuple(seen)


def answer(solver: z3.Solver) -> str:
    """``solver.check()`` as text (sat, unsat, unknown).

    Ctrl-C is Python's to handle (Z3's own handler is off, above), so it is raised when the query
    returns; should Z3 catch one all the same and answer unknown ("interrupted from keyboard"), that
    is raised again as KeyboardInterrupt, so that an interrupted proof is never reported as one the
    solver could not do (which would let a weaker proof, or none, stand in its place).
    """
    raise_if_interrupted()
    status = str(solver.check())
    if status == "unknown" and "interrupted" in solver.reason_unknown():
        raise KeyboardInterrupt
    return status


def discharge(obligation: Obligation, rlimit: int = RLIMIT, timeout_ms: int = TIMEOUT_MS) -> Discharged:
    """Run every query of ``obligation``; stop at the first that is not unsat.

    The negated claim is tracked like the hypotheses: an unsat core without it means the
    hypotheses contradict each other, and the query is "vacuous", not proved (the conflict
    theorem, whose negated claim is ``true``, is the one query meant that way).

    Each obligation runs in a fresh Z3 context, so that its answer and its resource count
    do not depend on what was solved before it.
    """
    start = time.perf_counter()
    context = z3.Context()
    solver = z3.Solver(ctx=context)
    solver.set("rlimit", max(1, rlimit))
    solver.set("timeout", timeout_ms)
    solver.set("unsat_core", True)
    names = {}
    for index, (name, formula) in enumerate(obligation.hypotheses):
        label = z3.Bool(f"h{index}", context)
        names[str(label)] = name
        solver.assert_and_track(formula.translate(context), label)
    statuses, cores = [], []
    for index, query in enumerate(obligation.queries):
        solver.push()
        for offset, (name, formula) in enumerate(query.hypotheses):
            label = z3.Bool(f"q{index}_{offset}", context)
            names[str(label)] = name
            solver.assert_and_track(formula.translate(context), label)
        claim = z3.Bool(f"claim{index}", context)
        solver.assert_and_track(query.negated.translate(context), claim)
        status = answer(solver)
        core = [str(c) for c in solver.unsat_core()] if status == "unsat" else []
        if status == "unsat" and str(claim) not in core and not z3.is_true(query.negated):
            status = "vacuous"  # the hypotheses contradict each other without the claim: the query proves nothing
        statuses.append(status)
        cores.append(tuple(names[c] for c in core if c in names) if status == "unsat" else ())
        solver.pop()
        if status != "unsat":
            break
    statistics = solver.statistics()
    used = int(statistics.get_key_value("rlimit count")) if "rlimit count" in statistics.keys() else 0  # noqa: SIM118 - z3 Statistics has no __contains__
    return Discharged(obligation, tuple(statuses), tuple(cores), time.perf_counter() - start, used)


def smt2(obligation: Obligation) -> str:
    """The obligation as an SMT-LIB 2 script; each ``(check-sat)`` must answer ``unsat``."""
    formulas = [f for _, f in obligation.hypotheses] + [f for q in obligation.queries for f in (q.negated, *(h for _, h in q.hypotheses))]
    lines = [f"; {key}: {value}" for key, value in obligation.header.items()]
    lines += ["; every (check-sat) below must answer unsat", "(set-logic ALL)"]
    lines += [_declare(v) for v in _constants(formulas)]
    for name, formula in obligation.hypotheses:
        lines += [f"; hypothesis: {name}", f"(assert {formula.sexpr()})"]
    for query in obligation.queries:
        lines += [f"; query: {query.name}", "(push 1)"]
        for name, formula in query.hypotheses:
            lines += [f"; hypothesis: {name}", f"(assert {formula.sexpr()})"]
        lines += [f"(assert {query.negated.sexpr()})", "(check-sat)", "(pop 1)"]
    return "\n".join(lines) + "\n"


def _constants(formulas: Sequence[z3.BoolRef]) -> list[z3.ExprRef]:
    """The uninterpreted constants of ``formulas``, visiting each shared subterm once."""
    found: dict[str, z3.ExprRef] = {}
    seen: set[int] = set()
    stack: list[z3.ExprRef] = list(formulas)
    while stack:
        e = stack.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            found.setdefault(str(e), e)
        else:
            stack.extend(e.children())
    return [found[name] for name in sorted(found)]


def _declare(v: z3.ExprRef) -> str:
    return f"(declare-fun {v.sexpr()} () {v.sort().sexpr()})"
