"""Induction over the ranks for fold programs, with invariants inferred Houdini-style.

An invariant is a conjunction of candidate atoms (v >= 0, v <= 1, v <= n, v <= u,
v + u <= 1, v in {0, 1}, ... over the state variables and the number n of ranks done).
Houdini starts from every atom true initially and drops, one by one, the atoms Z3 cannot
show preserved by a step, until what is left is inductive. The same works for two runs
of the fold side by side (a *relational* invariant, atoms such as B.v - A.v = 1), which
is how swaps are compared. The result is then checked once more as three obligations
(base, step, conclusion) that become the certificate; a step Z3 answers ``sat`` to is a
counterexample to induction, never a refutation of the property.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sympy
import z3
from z3.z3util import get_vars

from irprops.metrics.symbolic import N_SYMBOL

from .encode import Encoder
from .folds import COUNT, IDEAL, IDEAL_GRADE, MARK, POSITIVE, UNJUDGED, ZEROS, Fold, I, X
from .smt import Obligation, Query, answer, conj
from .summation import evaluated

State = dict[sympy.Symbol, z3.ArithRef]
Build = Callable[[z3.ArithRef, State, "State | None"], z3.BoolRef]


@dataclass(frozen=True)
class Atom:
    """A candidate conjunct of an invariant: its text, and its formula for (n, run A, run B)."""

    text: str
    build: Build


@dataclass
class Machine:
    """The fold program in Z3: fresh states, one step, the output."""

    fold: Fold
    open_unit: tuple[sympy.Symbol, ...]
    k: sympy.Symbol
    R: sympy.Symbol
    open_positive: tuple[sympy.Symbol, ...] = ()

    def __post_init__(self) -> None:
        self.params = {p: z3.Real(str(p)) for p in (*self.open_unit, *self.open_positive)}

    def parameter_facts(self) -> list[tuple[str, z3.BoolRef]]:
        return [(f"0 < {p} < 1", z3.And(v > 0, v < 1)) if p in self.open_unit else (f"{p} > 0", v > 0)
                for p, v in self.params.items()]

    def state(self, tag: str) -> State:
        return {v: z3.Real(f"{tag}.{v}") for v in self.fold.state}

    def initial(self) -> State:
        return {v: Encoder({}).term(e) for v, e in self.fold.init.items()}

    def grade(self, name: str) -> z3.ArithRef:
        return z3.Int(name) if self.fold.binary else z3.Real(name)

    def domain(self, x: z3.ArithRef) -> z3.BoolRef:
        return z3.Or(x == 0, x == 1) if self.fold.binary else z3.And(x >= 0, x <= 1)

    def mark(self, name: str) -> z3.ArithRef:
        """A rank's unjudged mark (an input of a step of a fold that reads marks or N)."""
        return z3.Int(name)

    @staticmethod
    def mark_domain(u: z3.ArithRef, x: z3.ArithRef) -> z3.BoolRef:
        """A mark is 0 or 1, and an unjudged rank (mark 1) has grade 0."""
        return z3.And(z3.Or(u == 0, u == 1), z3.Implies(u == 1, x == 0))

    def reads_R(self) -> bool:
        """Whether a step reads R (then every step also states the situation model's consistency: seen <= R), directly,
        through the ideal grade (0 past R) or through the count of relevant documents (at most R)."""
        return (any(sympy.sympify(e).has(self.R) for e in self.fold.update.values()) or self.fold.reads_ideal()
                or POSITIVE in self.fold.update)

    def step(self, state: State, x: z3.ArithRef, rank: z3.ArithRef, u: z3.ArithRef | None = None) -> tuple[State, list[z3.BoolRef]]:
        """The state after one rank, and the guards its divisions need.

        A step that reads R gets R as the one constant ``R`` every query shares, with the facts R >= 0 and
        (consistency of the situation) the relevant grades seen up to this rank add up to at most R. A step that reads
        the ideal grade G gets the one constant of its rank (two runs at one rank share it), in [0, 1], positive exactly
        down to rank R, with the consistency facts of :meth:`consistency`. A fold that reads marks or N takes the rank's
        mark ``u`` (required: a caller states which rankings it means), in {0, 1} with grade 0 where it is 1, and N as
        the one constant ``N`` (>= 0); both the state before the rank and the state after it are consistent (judged
        nonrelevant documents seen <= N), as every state a situation reaches is.
        """
        R = z3.Int("R")
        symbols: dict[sympy.Basic, z3.ExprRef] = {**state, X: x, I: rank, **self.params, **({self.R: R} if self.reads_R() else {})}
        facts: list[z3.BoolRef] = []
        if self.fold.reads_marks():
            if u is None:
                raise ValueError("a step of a fold that reads marks needs the rank's mark")
            symbols[MARK], symbols[N_SYMBOL] = u, z3.Int("N")
            facts += [self.mark_domain(u, x), z3.Int("N") >= 0, *(fact for _, fact in self.judged(state))]
        if self.fold.reads_ideal():
            g = symbols[IDEAL_GRADE] = z3.Real(f"G[{rank.sexpr()}]")  # brackets: no parameter's name (letters and digits)
            facts += [g >= 0, g <= 1, z3.Implies(rank <= R, g > 0), z3.Implies(rank > R, g == 0)]
        encoder = Encoder(symbols)
        after = {v: encoder.term(e) for v, e in self.fold.update.items()}
        consistent = [R >= 0, *(fact for _, fact in self.consistency(after, R))] if self.reads_R() else []
        if self.fold.reads_marks() and not self.reads_R():
            consistent = [fact for _, fact in self.judged(after)]
        parameters = [fact for _, fact in self.parameter_facts()]  # the parameters' range holds at every step
        return after, encoder.guards + list(encoder.facts.values()) + facts + consistent + parameters

    def judged(self, state: State, when: str = "") -> list[tuple[str, z3.BoolRef]]:
        """Where the fold counts judged nonrelevant documents: at most N of them are seen (none otherwise)."""
        return [(f"judged nonrelevant seen{when} <= N", state[ZEROS] <= z3.Int("N"))] if ZEROS in state else []

    def consistency(self, state: State, R: z3.ArithRef, when: str = "") -> list[tuple[str, z3.BoolRef]]:
        """What every situation satisfies after any number of ranks: the relevant grades seen add up to at most R; where
        kept, the relevant documents seen are at most R, and the grades seen add up to at most the ideal grades of as many
        ranks (the ranked grades are some of the qrel grades: any n of them add up to at most the n largest)."""
        facts = [(f"relevant seen{when} <= R", state[COUNT] <= R)]
        if POSITIVE in state:
            facts.append((f"relevant documents seen{when} <= R", state[POSITIVE] <= R))
        if IDEAL in state:
            facts.append((f"grades seen{when} <= ideal grades of as many ranks", state[COUNT] <= state[IDEAL]))
        return facts + self.judged(state, when)

    def output(self, state: State, k: z3.ArithRef, R: z3.ArithRef) -> tuple[z3.ArithRef, list[z3.BoolRef]]:
        counts = {N_SYMBOL: z3.Int("N")} if self.fold.reads_marks() else {}
        encoder = Encoder({**state, self.k: k, self.R: R, **counts, **self.params})
        return encoder.term(evaluated(self.fold.output)), encoder.guards + list(encoder.facts.values())  # sums only if checked

    def definedness_reads_grades(self) -> bool:
        """Whether whether a run is defined may depend on the order of the grades: a step's divisors mention the state or
        the grade, or the output's mention a state variable other than sums of a function of the grades (``N_rel + x``,
        which every arrangement of the same grades shares). Then two rankings may be defined while one between them is
        not."""
        state, x, rank, k, R = self.state("D"), self.grade("d_x"), z3.Int("d_i"), z3.Int("d_k"), z3.Int("d_R")
        # marks and N only where the fold reads them: a Z3 term made needlessly changes the order in which Z3 meets the others,
        # and a Houdini query of graded Q-measure then ran past its resource limit (and an hour) under some hash seeds
        counts = {MARK: z3.Int("d_u"), N_SYMBOL: z3.Int("d_N")} if self.fold.reads_marks() else {}
        step = Encoder({**state, X: x, I: rank, IDEAL_GRADE: z3.Real("d_G"), **counts, **self.params,
                        **({self.R: R} if self.reads_R() else {})})
        for e in self.fold.update.values():
            step.term(e)
        end = Encoder({**state, self.k: k, self.R: R, **({N_SYMBOL: z3.Int("d_N")} if counts else {}), **self.params})
        end.term(evaluated(self.fold.output))
        free = {v for v, e in self.fold.update.items()  # v + f(x): the same after any arrangement of the same grades
                if not (sympy.sympify(e) - v).has(I, self.k, self.R, *self.fold.state)}
        ordered = {str(z) for v, z in state.items() if v not in free}
        in_steps = any(str(v) in {*(str(z) for z in state.values()), str(x)} for guard in step.guards for v in get_vars(guard))
        return in_steps or any(str(v) in ordered for guard in end.guards for v in get_vars(guard))

    def ranks_done(self, n: z3.ArithRef, k: z3.ArithRef, R: z3.ArithRef) -> z3.BoolRef:
        """n equals the loop's upper bound U (k, or min(R, k))."""
        return n == k if self.fold.upper == self.k else n == z3.If(R <= k, R, k)


def _one(text: str, v: sympy.Symbol, f: Callable[[z3.ArithRef, z3.ArithRef], z3.BoolRef]) -> Atom:
    return Atom(text, lambda n, a, b: f(n, a[v]))


def _two(text: str, v: sympy.Symbol, u: sympy.Symbol, f: Callable[[z3.ArithRef, z3.ArithRef], z3.BoolRef]) -> Atom:
    return Atom(text, lambda n, a, b: f(a[v], a[u]))


def _pair(text: str, v: sympy.Symbol, f: Callable[[z3.ArithRef, z3.ArithRef], z3.BoolRef]) -> Atom:
    return Atom(text, lambda n, a, b: f(a[v], b[v]))  # type: ignore[index]


def _starts_at(value: z3.ArithRef) -> Callable[[z3.ArithRef, z3.ArithRef], z3.BoolRef]:
    return lambda n, x: z3.Implies(n == 0, x == value)


def single_atoms(machine: Machine, ideal: bool = False, R: z3.ArithRef | None = None) -> list[Atom]:
    """Candidate atoms about one run; ``ideal`` adds equalities that hold on special rankings,
    and ``R`` (the number of relevant documents of such a ranking) atoms v = min(n, R)."""
    names = list(machine.fold.state)
    start = machine.initial()
    atoms: list[Atom] = []
    for v in names:
        atoms += [
            _one(f"n = 0 -> {v} = {machine.fold.init[v]}", v, _starts_at(start[v])),
            _one(f"{v} >= 0", v, lambda n, x: x >= 0),
            _one(f"{v} <= 1", v, lambda n, x: x <= 1),
            _one(f"{v} <= n", v, lambda n, x: x <= n),
            _one(f"{v} in {{0, 1}}", v, lambda n, x: z3.Or(x == 0, x == 1)),
        ]
        if ideal:
            atoms += [
                _one(f"{v} = n", v, lambda n, x: x == n),
                _one(f"n >= 1 -> {v} = 1", v, lambda n, x: z3.Implies(n >= 1, x == 1)),
                _one(f"n >= 1 -> {v} = 0", v, lambda n, x: z3.Implies(n >= 1, x == 0)),
                _one(f"n >= 1 -> {v} >= 1", v, lambda n, x: z3.Implies(n >= 1, x >= 1)),
            ]
        if ideal and R is not None:
            atoms.append(_one(f"{v} = min(n, R)", v, lambda n, x: x == z3.If(n <= R, n, R)))
    for v, u in itertools.permutations(names, 2):
        atoms.append(_two(f"{v} <= {u}", v, u, lambda x, y: x <= y))
        if ideal:
            atoms.append(_two(f"{v} = {u}", v, u, lambda x, y: x == y))
    for v, u in itertools.combinations(names, 2):
        atoms.append(_two(f"{v} + {u} <= 1", v, u, lambda x, y: x + y <= 1))
    relevant = COUNT if machine.fold.binary else POSITIVE
    if ZEROS in names and relevant in names:  # every rank is relevant, unjudged or judged nonrelevant
        atoms.append(Atom(f"{relevant} + {UNJUDGED} + {ZEROS} = n", lambda n, a, b: a[relevant] + a[UNJUDGED] + a[ZEROS] == n))
    return atoms


def pair_atoms(machine: Machine) -> list[Atom]:
    """Candidate atoms relating run B to run A."""
    atoms: list[Atom] = []
    for v in machine.fold.state:
        atoms += [
            _pair(f"B.{v} = A.{v}", v, lambda x, y: y == x),
            _pair(f"B.{v} = A.{v} + 1", v, lambda x, y: y == x + 1),
            _pair(f"B.{v} >= A.{v}", v, lambda x, y: y >= x),
            _pair(f"B.{v} > A.{v}", v, lambda x, y: y > x),
        ]
    return atoms


def conjunction(atoms: Sequence[Atom], n: z3.ArithRef, a: State, b: State | None = None) -> z3.BoolRef:
    return conj([atom.build(n, a, b) for atom in atoms])


def houdini(
    atoms: list[Atom],
    start: Callable[[], tuple[z3.ArithRef, State, State | None, list[z3.BoolRef]]],
    step: Callable[[z3.ArithRef, State, State | None], tuple[State, State | None, list[z3.BoolRef]]],
) -> list[Atom]:
    """The largest subset of ``atoms`` that holds at the start and is preserved by ``step``.

    Each round asks, of every atom kept, whether the conjunction of all of them carries it one rank on, and drops all
    that fail at once (an atom that fails under the conjunction fails under any part of it, so it is in no inductive
    subset): the same largest subset as dropping one atom per round, in a few rounds (4,860 queries for the catalog's
    proofs instead of 10,247, identical certificates).

    ``start()`` gives (n, A, B, facts) describing the starting states; ``step(n, A, B)``
    gives the states after one more rank and the facts (grade domains, guards) it needs.
    """
    n0, a0, b0, facts0 = start()
    kept = [atom for atom in atoms if _holds(z3.Implies(conj(facts0), atom.build(n0, a0, b0)))]
    n = z3.Int("n")
    a = {v: z3.Real(f"A.{v}") for v in a0}
    b = {v: z3.Real(f"B.{v}") for v in b0} if b0 is not None else None
    while True:  # each round drops every atom the others do not carry one rank on, until none is dropped
        a1, b1, facts = step(n, a, b)
        hypotheses = conj([n >= 0, conjunction(kept, n, a, b), *facts])
        dropped = {id(atom) for atom in kept if not _holds(z3.Implies(hypotheses, atom.build(n + 1, a1, b1)))}
        if not dropped:
            return kept
        kept = [atom for atom in kept if id(atom) not in dropped]


HOUDINI_SAFETY_MS = 120_000
"""A safety net only: no Houdini query of the catalog takes more than a few seconds within its resource limit."""


def _holds(claim: z3.BoolRef) -> bool:
    """Whether Z3 shows ``claim``; a query left unknown within the first budget gets a larger one, so that an atom near
    the first budget is not kept in one process and dropped in another (Z3's effort varies with the terms it has met:
    Q-measure's invariant over every beta > 0 differed between ``irprops certificates`` and the test that compares).
    Z3's nonlinear engine does not always honour the resource limit (a Q-measure query under one hash seed ran for an
    hour past it): a wall-clock limit far above any query's normal time stops it, and the atom is dropped (a weaker
    invariant, never a false one)."""
    for rlimit in (5_000_000, 100_000_000):
        solver = z3.Solver()
        solver.set("rlimit", rlimit)
        solver.set("timeout", HOUDINI_SAFETY_MS)
        solver.add(z3.Not(claim))
        found = answer(solver)
        if found != "unknown":
            return found == "unsat"
    return False


def obligation(path: str, header: dict[str, str], invariant: Sequence[Atom],
               base: tuple[z3.ArithRef, State, State | None, list[z3.BoolRef]],
               step: Callable[[z3.ArithRef, State, State | None], tuple[State, State | None, list[z3.BoolRef]]],
               conclusion: tuple[str, z3.BoolRef, list[tuple[str, z3.BoolRef]]] | None) -> Obligation:
    """Base, step and (optionally) conclusion of an induction, as one certificate."""
    ob = Obligation(path, {**header, "invariant": " and ".join(atom.text for atom in invariant) or "true"})
    n0, a0, b0, facts0 = base
    ob.ask("base: the invariant holds at the start", z3.Not(z3.Implies(conj(facts0), conjunction(invariant, n0, a0, b0))))
    n = z3.Int("n")
    a = {v: z3.Real(f"A.{v}") for v in a0}
    b = {v: z3.Real(f"B.{v}") for v in b0} if b0 is not None else None
    a1, b1, facts = step(n, a, b)
    ob.ask("step: one more rank preserves the invariant",
           z3.Not(z3.Implies(conj([n >= 0, conjunction(invariant, n, a, b), *facts]), conjunction(invariant, n + 1, a1, b1))))
    if conclusion is not None:
        text, negated, hypotheses = conclusion
        ob.queries.append(Query(text, negated, tuple(hypotheses)))
    return ob
