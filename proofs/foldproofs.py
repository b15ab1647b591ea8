"""All-k proofs for fold programs (running-state metrics such as AP, SP, SN-AP, RR, HIT).

Each proof is an induction over the ranks with an inferred invariant (see
:mod:`proofs.induction`), checked as one certificate with a base case, a step and a
conclusion:

* bounded: the invariant of one run at n = U, with the situation model's consistency
  (relevant grades seen <= R), gives 0 <= score <= 1;
* monotonic (U = k): one more step from a state satisfying the invariant does not lower
  the score;
* convergent: two runs from the same state, one given a 0 and one a 1 at rank i <= k (graded:
  a grade x and a larger y), then the same grades: a relational invariant shows the second scores more;
* top_weighted (binary): two runs given (0, 1) and (1, 0) at ranks l, l + 1, then the same
  grades; any swap of a 0 at i above a 1 at j is a sequence of such adjacent swaps, each
  raising the score or (equal grades) leaving it (a meta-step);
* realizable: the run on the ideal ranking (relevant documents first) scores 1 at every
  k and R >= 1, and the bound is 1;
* unbounded: the run on the all-relevant ranking scores at least n after n ranks.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy
import z3

from irprops.metrics import Situation, Undefined, compare
from irprops.metrics.exact import to_float, to_str
from irprops.verdicts import Prop, Witness, grades_json

from .folds import Fold
from .induction import Atom, Machine, State, conjunction, houdini, obligation, pair_atoms, single_atoms
from .lemma import ALL_K, Failed, Lemma, Proof, Prover
from .smt import Query, conj, discharge
from .structure import Prepared
from .weighted import CLOSED, CONSISTENT, GRADES, UNBOUNDED_AT, certificate_dir

INDUCTION = "induction over the ranks (base case and step checked by Z3)"
ADJACENT = ("a swap of a 0 at rank i above a 1 at rank j is a sequence of adjacent swaps, each moving a 1 above a 0 (raising the score) "
            "or exchanging equal grades (no change)")
FOLD = "the fold program is the closed form's (extracted from it; tested against the exact form)"
MARKED = ("each rank's unjudged mark is 0 or 1, and 1 forces its grade to 0 (down to the depth, a rank past the end of a run "
          "is unjudged, so the marks a run reads are the same at every depth); N, the collection's judged nonrelevant "
          "documents, is at least the judged nonrelevant documents seen (the situation model)")

Start = tuple[z3.ArithRef, State, State | None, list[z3.BoolRef]]


class FoldProver(Prover):
    """Induction proofs for one measure whose closed form is a fold."""

    kind = "induction"

    def __init__(self, p: Prepared, fold: Fold) -> None:
        self.p, self.fold = p, fold
        self.m = Machine(fold, p.open_unit, p.k, p.R, p.open_positive)
        self.form = Lemma("fold", fold.describe() + (f", for {p.reach_of_parameters()}" if p.reach_of_parameters() else ""), "structure")
        self._invariant: list[Atom] | None = None

    # -- the runs -----------------------------------------------------------------------

    def _run_step(
        self, grade: Callable[[z3.ArithRef], tuple[z3.ArithRef, list[z3.BoolRef]]], judged: bool = False
    ) -> Callable[[z3.ArithRef, State, State | None], tuple[State, State | None, list[z3.BoolRef]]]:
        """One rank of a run whose grades ``grade`` gives: of any marks (a fold that reads them), or of a ranking every
        document of which is ``judged`` (the special rankings: ideal, all relevant)."""
        def step(n: z3.ArithRef, a: State, b: State | None) -> tuple[State, State | None, list[z3.BoolRef]]:
            x, facts = grade(n)
            a1, guards = self.m.step(a, x, n + 1, self._mark(judged))
            return a1, None, facts + guards
        return step

    def _mark(self, judged: bool, name: str = "u") -> z3.ArithRef | None:
        """The mark a step takes: none for a fold that reads no marks, 0 on a judged ranking, else any mark."""
        if not self.fold.reads_marks():
            return None
        return z3.IntVal(0) if judged else self.m.mark(name)

    def _any_grade(self, n: z3.ArithRef) -> tuple[z3.ArithRef, list[z3.BoolRef]]:
        x = self.m.grade("x")
        return x, [self.m.domain(x)]

    def invariant(self) -> list[Atom]:
        """The invariant of every run (Houdini over :func:`single_atoms`)."""
        if self._invariant is None:
            self._invariant = houdini(single_atoms(self.m), lambda: (z3.IntVal(0), self.m.initial(), None, []),
                                      self._run_step(self._any_grade))
        return self._invariant

    def _header(self, prop: Prop, lemma: str) -> dict[str, str]:
        return {"metric": self.p.measure.name, "property": prop, "reach": "all k", "lemma": lemma, "fold": self.fold.describe()}

    def _path(self, prop: Prop, lemma: str) -> str:
        return f"{certificate_dir(self.p)}/{prop}--{lemma}.smt2"

    def _finish(self, prop: Prop, lemma: str, statement: str, invariant: list[Atom], base: Start,
                step: Callable, conclusion: tuple, trusted: list[str], extra: tuple[Lemma, ...] = (),  # type: ignore[type-arg]
                more: list[Query] | None = None) -> Proof | Failed:
        ob = obligation(self._path(prop, lemma), {**self._header(prop, lemma), "proves": statement}, invariant, base, step, conclusion)
        ob.queries.extend(more or [])
        done = discharge(ob)
        if not done.proved:
            return Failed(prop, f"{lemma}: {done.failure()}")
        text = " and ".join(atom.text for atom in invariant) or "true"
        proof = Lemma(lemma, f"{statement}; invariant: {text}", "Z3", ob.path, done.used)
        marked = (MARKED,) if self.fold.reads_marks() else ()
        return Proof(prop, "yes", ALL_K, (self.form, *extra, proof), (CLOSED, FOLD, INDUCTION, *trusted, *marked), (ob,))

    def _end(self, a: State, n: z3.ArithRef, k: z3.ArithRef, R: z3.ArithRef) -> tuple[z3.ArithRef, list[tuple[str, z3.BoolRef]]]:
        """The score after n = U ranks, with the facts about k and R that hold then."""
        out, guards = self.m.output(a, k, R)
        facts = [("k >= 1", k >= 1), ("R >= 0", R >= 0), ("n = U", self.m.ranks_done(n, k, R)), ("defined", conj(guards)),
                 *self.m.parameter_facts()]
        return out, facts

    # -- properties -----------------------------------------------------------------------

    def bounded(self) -> Proof | Failed:
        inv = self.invariant()
        n, a, k, R = z3.Int("n"), self.m.state("A"), z3.Int("k"), z3.Int("R")
        out, facts = self._end(a, n, k, R)
        hypotheses = [("invariant", conjunction(inv, n, a)), ("n >= 0", n >= 0), *self.m.consistency(a, R), *facts]
        conclusion = ("conclusion: 0 <= score <= 1", z3.Or(out < 0, out > 1), hypotheses)
        found = self._finish(Prop.BOUNDED, "induction",
                             "every run keeps the invariant, which with n = U and relevant seen <= R gives 0 <= score <= 1",
                             inv, (z3.IntVal(0), self.m.initial(), None, []), self._run_step(self._any_grade), conclusion,
                             [GRADES, CONSISTENT])
        if isinstance(found, Failed):
            unbounded = self.unbounded()
            return unbounded if isinstance(unbounded, Proof) else found
        return found.stating(sympy.Integer(0), sympy.Integer(1))

    def monotonic(self) -> Proof | Failed:
        if self.fold.upper != self.p.k:
            return Failed(Prop.MONOTONIC, "the loop runs to min(R, k), not k")
        inv = self.invariant()
        n, a, x, R = z3.Int("n"), self.m.state("A"), self.m.grade("x"), z3.Int("R")
        a1, guards = self.m.step(a, x, n + 1, self._mark(judged=False))
        before, facts0 = self._end(a, n, z3.Int("k"), R)
        after, facts1 = self._end(a1, n + 1, z3.Int("k1"), R)
        hypotheses = [("invariant", conjunction(inv, n, a)), ("n >= 1", n >= 1), ("grade", self.m.domain(x)),
                      ("step defined", conj(guards)), *self.m.consistency(a1, R, " by k + 1"),
                      *facts0, *[(f"{name} at k + 1", f) for name, f in facts1]]
        conclusion = ("conclusion: the score at k + 1 is at least the score at k", after < before, hypotheses)
        return self._finish(Prop.MONOTONIC, "induction", "every run keeps the invariant, under which one more rank never lowers the score",
                            inv, (z3.IntVal(0), self.m.initial(), None, []), self._run_step(self._any_grade), conclusion,
                            [GRADES, CONSISTENT])

    def _paired(self, prop: Prop, lemma: str, statement: str,
                starts: Callable[[State, z3.ArithRef], tuple[State, State, z3.ArithRef, list[z3.BoolRef]]],
                trusted: list[str]) -> Proof | Failed:
        if self.fold.upper != self.p.k:
            return Failed(prop, "the swap argument needs a loop to k, not to min(R, k)")
        if self.fold.reads_marks():
            return Failed(prop, "the steps read unjudged marks or N, which the swap argument does not model")
        if not self.fold.binary and prop is Prop.TOP_WEIGHTED:
            return Failed(prop, "the adjacent-swap argument needs binary grades (graded swaps of ranks i < j are not chains of "
                                "adjacent swaps that each raise the score)")
        inv = self.invariant()
        prefix, rank = self.m.state("S"), z3.Int("i")

        def start() -> Start:
            a, b, n, facts = starts(prefix, rank)
            return n, a, b, [rank >= 1, conjunction(inv, rank - 1, prefix), *facts]

        def step(n: z3.ArithRef, a: State, b: State | None) -> tuple[State, State | None, list[z3.BoolRef]]:
            x = self.m.grade("x")
            a1, ga = self.m.step(a, x, n + 1)
            b1, gb = self.m.step(b, x, n + 1)  # type: ignore[arg-type]
            return a1, b1, [self.m.domain(x), conjunction(inv, n, a), conjunction(inv, n, b), *ga, *gb]  # type: ignore[arg-type]

        relation = houdini(pair_atoms(self.m), start, step)
        n, a, b, k, R = z3.Int("n"), self.m.state("A"), self.m.state("B"), z3.Int("k"), z3.Int("R")
        out_a, facts = self._end(a, n, k, R)
        out_b, facts_b = self._end(b, n, k, R)
        hypotheses = [("relational invariant", conjunction(relation, n, a, b)),
                      ("invariants", z3.And(conjunction(inv, n, a), conjunction(inv, n, b))),
                      ("n >= 1", n >= 1), *self.m.consistency(b, R), *facts,
                      ("defined", conj([f for name, f in facts_b if name == "defined"]))]
        conclusion = ("conclusion: the run with the better grade higher scores strictly more", out_b <= out_a, hypotheses)
        return self._finish(prop, lemma, statement, relation, start(), step, conclusion, [GRADES, CONSISTENT, *trusted])

    def convergent(self) -> Proof | Failed:
        def starts(s: State, i: z3.ArithRef) -> tuple[State, State, z3.ArithRef, list[z3.BoolRef]]:
            if self.fold.binary:
                a, ga = self.m.step(s, z3.IntVal(0), i)
                b, gb = self.m.step(s, z3.IntVal(1), i)
                return a, b, i, ga + gb
            x, y = self.m.grade("x_out"), self.m.grade("y_in")  # the grade that leaves rank i, and the better one that comes in
            a, ga = self.m.step(s, x, i)
            b, gb = self.m.step(s, y, i)
            return a, b, i, [self.m.domain(x), self.m.domain(y), x < y, *ga, *gb]

        brought = "a 1 instead of a 0" if self.fold.binary else "a grade y instead of a smaller grade x"
        return self._paired(Prop.CONVERGENT, "bring-in",
                            f"from any state, {brought} at rank i <= k, then the same grades to k, ends with a higher score "
                            "(the qrels are the same, so R >= relevant seen by B)", starts, [])

    def top_weighted(self) -> Proof | Failed:
        if self.m.definedness_reads_grades():  # a seventeenth hostile review: two rankings defined, one between them not
            return Failed(Prop.TOP_WEIGHTED, "the metric divides by a quantity of the grades, so a ranking between two "
                                             "adjacent swaps may be undefined: the chain of adjacent swaps does not apply")

        def starts(s: State, l: z3.ArithRef) -> tuple[State, State, z3.ArithRef, list[z3.BoolRef]]:
            a0, g1 = self.m.step(s, z3.IntVal(0), l)
            a, g2 = self.m.step(a0, z3.IntVal(1), l + 1)
            b0, g3 = self.m.step(s, z3.IntVal(1), l)
            b, g4 = self.m.step(b0, z3.IntVal(0), l + 1)
            return a, b, l + 1, g1 + g2 + g3 + g4

        return self._paired(Prop.TOP_WEIGHTED, "adjacent-swap",
                            "from any state, (1, 0) instead of (0, 1) at ranks l, l + 1 <= k, "
                            "then the same grades to k, ends with a higher score", starts, [ADJACENT])

    def _special_run(
        self, x_at: Callable[[z3.ArithRef, z3.ArithRef], tuple[z3.ArithRef, list[z3.BoolRef]]]
    ) -> tuple[list[Atom], Callable, z3.ArithRef]:  # type: ignore[type-arg]
        """The invariant of the run on a special ranking whose grade at a rank is ``x_at(rank, R)``."""
        R = z3.Int("R")

        def grade(n: z3.ArithRef) -> tuple[z3.ArithRef, list[z3.BoolRef]]:
            x, facts = x_at(n + 1, R)
            return x, [R >= 1, *facts]

        step = self._run_step(grade, judged=True)
        return houdini(single_atoms(self.m, ideal=True, R=R), lambda: (z3.IntVal(0), self.m.initial(), None, [R >= 1]), step), step, R

    def realizable(self) -> Proof | Failed:
        if self.fold.reads_ideal():
            return Failed(Prop.REALIZABLE, "the steps read the ideal grades, which a run on a special ranking does not model")
        bound = self.bounded()
        if isinstance(bound, Failed) or bound.conclusion != "yes":
            return Failed(Prop.REALIZABLE, "no bound of 1 is proved")
        later = z3.Real("later")

        def ideal(rank: z3.ArithRef, R: z3.ArithRef) -> tuple[z3.ArithRef, list[z3.BoolRef]]:
            if self.fold.binary:
                return z3.If(rank <= R, z3.IntVal(1), z3.IntVal(0)), []
            return z3.If(rank == 1, z3.RealVal(1), later), [later >= 0, later <= 1]

        inv, step, R = self._special_run(ideal)
        n, a = z3.Int("n"), self.m.state("A")
        out, facts = self._end(a, n, z3.Int("k"), R)
        defined = conj([fact for name, fact in facts if name == "defined"])
        hypotheses = [("ideal invariant", conjunction(inv, n, a)), ("n >= 0", n >= 0), ("R >= 1", R >= 1),
                      *((name, fact) for name, fact in facts if name != "defined")]
        # the ideal run must be defined, not assumed so: an undefined ideal arrangement reaches nothing
        conclusion = ("conclusion: the ideal ranking is defined and scores 1", z3.Or(out != 1, z3.Not(defined)), hypotheses)
        what = "the ideal ranking (relevant documents first" + (")" if self.fold.binary else "; its top grade is 1)")
        found = self._finish(Prop.REALIZABLE, "ideal", f"{what} keeps the invariant, each of its steps is defined, which gives a "
                             "defined score of 1 at every k and R >= 1; with the bound 1 below, 1 is the supremum and it is reached",
                             inv, (z3.IntVal(0), self.m.initial(), None, [R >= 1]), step, conclusion, [], (),
                             self._defined_steps(inv, ideal, R))
        if isinstance(found, Failed):
            return found
        return Proof(Prop.REALIZABLE, "yes", ALL_K, found.lemmas + bound.lemmas[1:], tuple(dict.fromkeys(found.trusted + bound.trusted)),
                     found.obligations + bound.obligations)

    def _defined_steps(self, inv: list[Atom], x_at: Callable[[z3.ArithRef, z3.ArithRef], tuple[z3.ArithRef, list[z3.BoolRef]]],
                       R: z3.ArithRef) -> list[Query]:
        """The query that every step of the special run is defined (its divisors nonzero), which the induction's step
        only assumes: a run through an undefined step reaches nothing."""
        n = z3.Int("n")
        a = {v: z3.Real(f"A.{v}") for v in self.m.initial()}
        x, facts = x_at(n + 1, R)
        _, guards = self.m.step(a, x, n + 1, self._mark(judged=True))
        if not guards:
            return []
        hypotheses = conj([n >= 0, R >= 1, conjunction(inv, n, a), *facts])
        return [Query("every step of the run is defined", z3.Not(z3.Implies(hypotheses, conj(guards))), ())]

    def unbounded(self) -> Proof | Failed:
        if self.fold.reads_ideal():
            return Failed(Prop.BOUNDED, "the steps read the ideal grades, which a run on a special ranking does not model")
        def relevant(rank: z3.ArithRef, R: z3.ArithRef) -> tuple[z3.ArithRef, list[z3.BoolRef]]:
            return z3.IntVal(1) if self.fold.binary else z3.RealVal(1), []
        inv, step, R = self._special_run(relevant)
        n, a, k = z3.Int("n"), self.m.state("A"), z3.Int("k")
        out, facts = self._end(a, n, k, R)
        # the run must be defined, at each step and at the end, not assumed so (a fifteenth hostile review: a score divided
        # by max(0, 12 - k) was "proved" unbounded, the induction assuming it defined where it is not)
        known = conj([conjunction(inv, n, a), n >= 0, R == k, *(f for name, f in facts if name != "defined")])
        defined = [Query("the all-relevant ranking's score is defined at every depth",
                         z3.Not(z3.Implies(known, conj([f for name, f in facts if name == "defined"]))), ())]
        hypotheses = [("all-relevant invariant", conjunction(inv, n, a)), ("n >= 0", n >= 0), ("R = k", R == k), *facts]
        conclusion = ("conclusion: the all-relevant ranking scores at least k", out < k, hypotheses)
        witness = self._exceeding(UNBOUNDED_AT)
        if witness is None:
            return Failed(Prop.BOUNDED, "no all-relevant ranking exceeding the bound was found")
        found = self._finish(Prop.BOUNDED, "all-relevant", "the all-relevant ranking keeps the invariant, "
                             "which gives a score of at least k at depth k: no constant bounds the scores",
                             inv, (z3.IntVal(0), self.m.initial(), None, [R >= 1]), step, conclusion, [],
                             (Lemma("exceeds", f"for M = {UNBOUNDED_AT}: {witness.text}", "exact arithmetic"),),
                             [*self._defined_steps(inv, relevant, R), *defined])
        if isinstance(found, Failed):
            return found
        return Proof(Prop.BOUNDED, "no", ALL_K, found.lemmas, found.trusted, found.obligations, witness)

    def _exceeding(self, bound: Fraction) -> Witness | None:
        depth = int(bound) + 1
        s = Situation((Fraction(1),) * depth, depth, (Fraction(1),) * depth)
        value = self.p.measure.exact(s)
        if isinstance(value, Undefined) or compare(value, bound) <= 0:
            return None
        data = {"k": depth, "ranking": grades_json(s.ranking), "qrels": grades_json(s.qrels), "bound": str(bound), "value": to_str(value)}  # type: ignore[arg-type]
        return Witness(data, f"the all-relevant ranking of depth {depth} scores {to_float(value):.6g} > {bound}")  # type: ignore[arg-type]
