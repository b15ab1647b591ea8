"""Proofs for every k up to K, from the symbolic form at each concrete depth (the fallback).

Any metric with a symbolic form gets these, whatever its structure: for k = 1, 2, ..., K
the negation of the property, over every grade vector (0/1 for binary metrics, reals in
[0, 1] for graded ones), every R and every qrel grade, must be unsatisfiable. Only facts
true of every situation are assumed: the grade domains, the qrel grades in (0, 1] sorted
decreasingly, and at most R relevant documents among the ranks the query mentions. A formula
that reads unjudged marks has a mark ``u_i`` in {0, 1} for each rank it reads, and an
unjudged document has grade 0; a swap moves a document's mark with its grade. A formula that
reads N (the collection's judged nonrelevant documents) has N an integer at least the judged
nonrelevant documents (mark 0, grade 0) among the ranks down to the query's smaller depth
whose marks the query mentions: a rank down to the depth with no document is unjudged (mark 1),
so a mark 0 there is a document; below the depth a rank past the end of a run has mark 0 and
grade 0 and holds no document, so it is not counted.
Queries use concrete positions (one per depth, rank or pair of ranks). K is where the
time or an unencodable form stops the climb, and the verdict says which K it reached.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import operator
import time

import sympy
import z3

from irprops.metrics import Measure, NotExpressible, SymbolicForm
from irprops.metrics.symbolic import N_SYMBOL
from irprops.verdicts import Prop, Reach

from .encode import Encoder
from .lemma import Failed, Lemma, Proof
from .smt import Obligation, Query, conj, discharge
from .structure import prepare
from .weighted import GRADES, certificate_dir

K_TARGET = 20
RLIMIT_BUDGET = 60_000_000
"""Z3 resource units a cell may spend climbing k: deterministic, so K is the same on every machine."""
RLIMIT_PER_DEPTH = 15_000_000
"""At most this much on one depth: the climb stops at the first depth that needs more."""
SECONDS = 10.0
"""A wall-clock safety net per depth only (Z3's nonlinear engine does not always honour rlimit)."""
PROPERTIES = (Prop.MONOTONIC, Prop.CONVERGENT, Prop.TOP_WEIGHTED)
SITUATIONS = "the queries range over every grade vector, R and qrel grades; only facts true of every situation are assumed"


class _Depth:
    """The Z3 view of a measure's symbolic form at one depth, sharing variables across depths."""

    def __init__(self, measure: Measure, fixed: dict[sympy.Symbol, sympy.Rational], open_unit: tuple[sympy.Symbol, ...]) -> None:
        self.measure, self.fixed, self.open_unit = measure, fixed, open_unit
        self.binary = measure.metric.binary
        self.vars: dict[sympy.Basic, z3.ExprRef] = {}

    def grade(self, i: int) -> sympy.Symbol:
        return sympy.Symbol(f"b_{i}", integer=True, nonnegative=True) if self.binary else sympy.Symbol(f"r_{i}", nonnegative=True)

    @staticmethod
    def mark(i: int) -> sympy.Symbol:
        """The unjudged mark at rank i (as the symbolic backend writes it)."""
        return sympy.Symbol(f"u_{i}", integer=True, nonnegative=True)

    def swap(self, i: int, j: int) -> dict[sympy.Basic, sympy.Basic]:
        """The renaming that exchanges the documents at ranks i and j: their grades and their unjudged marks."""
        return {self.grade(i): self.grade(j), self.grade(j): self.grade(i), self.mark(i): self.mark(j), self.mark(j): self.mark(i)}

    def arrival(self, i: int, better: sympy.Symbol) -> dict[sympy.Basic, sympy.Basic]:
        """The renaming that puts at rank i a document of grade ``better`` from a rank the form does not read: a better
        document is relevant, so judged (its mark is 0)."""
        return {self.grade(i): better, self.mark(i): sympy.Integer(0)}

    def var(self, s: sympy.Symbol) -> z3.ExprRef:
        if s not in self.vars:
            integer = s.is_integer
            self.vars[s] = z3.Int(str(s)) if integer else z3.Real(str(s))
        return self.vars[s]

    def form(self, k: int) -> SymbolicForm:
        form = self.measure.symbolic(k)
        if form.unmodelled:
            raise NotExpressible(f"the form does not say where the metric is undefined: {form.unmodelled[0]}")
        return form

    def encode(self, expr: sympy.Expr, renaming: dict[sympy.Basic, sympy.Basic] | None = None) -> tuple[z3.ArithRef, list[z3.BoolRef]]:
        """The term, and what the form itself says must hold for it to have a value: each divisor it keeps nonzero where
        its branch is taken (the encoder's guards), and the atoms' facts.

        The form's *recorded* denominators are not assumed nonzero. They over-approximate where the metric is undefined: a
        division SymPy keeps in a Piecewise branch the metric never takes is zoo there in the exact run, and dropped, so
        the metric has a value where its recorded divisor is 0 (a nineteenth hostile review: assuming R - 20000 nonzero,
        the k <= K proofs left out R = 20000, the one R where four metrics broke their properties). Comparing the form
        where the metric is undefined as well proves more than the property asks, never less.
        """
        expr = expr.xreplace(self.fixed).xreplace(renaming or {})
        encoder = Encoder({s: self.var(s) for s in expr.free_symbols})
        term = encoder.term(expr)
        return term, [*encoder.guards, *encoder.facts.values()]

    def read_below(self, form: SymbolicForm, k: int) -> list[int]:
        """The ranks below k whose grades the form at depth k reads (a non-localized formula reads some)."""
        expressions = [form.expr, *(d for d, _ in form.denominators)]
        ranks = {int(str(s).split("_", 1)[1]) for e in expressions for s in e.free_symbols if str(s).startswith(("b_", "r_", "u_"))}
        return sorted(r for r in ranks if r > k)

    def facts(self, width: int, extra_relevant: list[z3.ArithRef] = (), depth: int | None = None) -> list[tuple[str, z3.BoolRef]]:  # type: ignore[assignment]
        """What every situation satisfies, for the grades of ranks 1..width (plus grades of other documents); N, where a
        form reads it, counts the judged nonrelevant documents down to ``depth`` (the query's smaller depth; width)."""
        grades = [self.var(self.grade(i)) for i in range(1, width + 1)] + list(extra_relevant)
        R = self.var(sympy.Symbol("R", integer=True, nonnegative=True))
        facts = [(f"grades in {'{0, 1}' if self.binary else '[0, 1]'}",
                  conj([z3.Or(x == 0, x == 1) if self.binary else z3.And(x >= 0, x <= 1) for x in grades])),
                 ("R >= number of relevant documents", R >= z3.Sum([z3.If(x > 0, 1, 0) for x in grades]) if grades else R >= 0)]
        qrels = [self.var(sympy.Symbol(f"g_{i}", positive=True)) for i in range(1, width + 1)]
        facts.append(("qrel grades in (0, 1], decreasing",
                      conj([z3.And(g > 0, g <= 1) for g in qrels] + [a >= b for a, b in itertools.pairwise(qrels)])))
        facts += [(f"0 < {p} < 1", z3.And(self.var(p) > 0, self.var(p) < 1)) for p in self.open_unit]
        marks = sorted((int(str(s)[2:]), v) for s, v in self.vars.items() if str(s).startswith("u_"))
        if marks:  # every mark the queries mention (encode them first); grades of unmentioned ranks are free, which is sound
            facts.append(("unjudged marks in {0, 1}; an unjudged document has grade 0",
                          conj([z3.And(z3.Or(u == 0, u == 1), z3.Implies(u == 1, self.var(self.grade(i)) == 0)) for i, u in marks])))
        if N_SYMBOL in self.vars:
            top = width if depth is None else depth
            judged_zeros = [z3.If(z3.And(u == 0, self.var(self.grade(i)) == 0), 1, 0) for i, u in marks if i <= top]
            facts.append((f"N >= the judged nonrelevant documents of ranks 1..{top}",
                          self.vars[N_SYMBOL] >= functools.reduce(operator.add, judged_zeros, z3.IntVal(0))))
        return facts


def bounded_proof(measure: Measure, prop: Prop, target: int = K_TARGET, budget: int = RLIMIT_BUDGET) -> Proof | Failed:
    """A proof of ``prop`` for k = 1..K (K as large as the resource ``budget`` allows, at most ``target``)."""
    if prop not in PROPERTIES:
        return Failed(prop, "no bounded proof for this property")
    p = prepare(measure)
    if p is None:
        return Failed(prop, "no symbolic form")
    p = dataclasses.replace(p, open_positive=())  # the forms at each depth are proved at the bound values of these
    fixed = {s: sympy.Rational(v.numerator, v.denominator) for s, v in p.form.params.items() if s not in p.open_unit}
    depth = _Depth(measure, fixed, p.open_unit)
    ob = Obligation(f"{certificate_dir(p)}/{prop}--k-up-to.smt2",
                    {"metric": measure.name, "property": prop, "reach": "k <= K (see the queries)", "lemma": Prop.BOUNDED})
    start, reached, spent = time.perf_counter(), 0, 0
    for k in range(1, target + 1):
        if spent >= budget or time.perf_counter() - start > 6 * SECONDS:
            break
        try:
            queries = list(getattr(_Queries(depth), prop)(k))
        except (NotExpressible, NotImplementedError):
            break
        trial = Obligation(ob.path, ob.header, [], queries)
        done = discharge(trial, rlimit=min(RLIMIT_PER_DEPTH, budget - spent), timeout_ms=int(SECONDS * 1000))
        spent += done.rlimit
        if not done.proved:
            if "sat" in done.statuses:  # a model: perhaps a counterexample, so no claim below it either
                return Failed(prop, f"at k = {k}, {done.failure()} (a model of the negation)")
            break
        ob.queries.extend(queries)
        reached = k
    if reached == 0:
        return Failed(prop, "no depth was proved within the time allowed")
    return _proof(prop, reached, ob, p.reach_of_parameters())


def _proof(prop: Prop, reached: int, ob: Obligation, params: str) -> Proof:
    statement = (f"for every k <= {reached}" + (f" and {params}" if params else "")
                 + f", the negation of {prop} has no model (one query per depth and rank or pair of ranks)")
    ob.header["reach"] = f"k <= {reached}"
    ob.header["proves"] = statement
    return Proof(prop, "yes", Reach(reached), (Lemma(Prop.BOUNDED, statement, "Z3", ob.path),),
                 (GRADES, SITUATIONS, "Z3's answers; logarithms as exact atoms with certified bounds (mpmath)"), (ob,),
                 parameters=params)


class _Queries:
    def __init__(self, depth: _Depth) -> None:
        self.d = depth

    def _query(self, name: str, facts: list[tuple[str, z3.BoolRef]], negated: z3.BoolRef, defined: list[z3.BoolRef]) -> Query:
        return Query(name, negated, (*facts, ("defined", conj(defined))))

    def monotonic(self, k: int):  # type: ignore[no-untyped-def]
        before, after = self.d.form(k), self.d.form(k + 1)
        s0, d0 = self.d.encode(before.expr)
        s1, d1 = self.d.encode(after.expr)
        yield self._query(f"k = {k}: score at k + 1 >= score at k", self.d.facts(k + 1, depth=k), s1 < s0, d0 + d1)

    def convergent(self, k: int):  # type: ignore[no-untyped-def]
        """For each rank i <= k, a swap with each rank j > k the form reads (the grades exchange), and with one it does not."""
        form = self.d.form(k)
        better = sympy.Symbol("y_below", integer=True, nonnegative=True) if self.d.binary else sympy.Symbol("y_below", nonnegative=True)
        below = self.d.read_below(form, k)
        width = max(below, default=k)
        s0, d0 = self.d.encode(form.expr)
        for i in range(1, k + 1):
            x = self.d.var(self.d.grade(i))
            for j in below:  # the form reads rank j: after the swap it sees the grade (and mark) that was at i
                renaming = self.d.swap(i, j)
                s1, d1 = self.d.encode(form.expr, renaming)
                better_at_j = self.d.var(self.d.grade(j)) > x
                facts = self.d.facts(width, depth=k) + [(f"the document at rank {j} is better than rank {i}", better_at_j)]
                yield self._query(f"k = {k}, i = {i}, j = {j}: swapping in a better document raises the score", facts, s1 <= s0, d0 + d1)
            renaming = self.d.arrival(i, better)
            s1, d1 = self.d.encode(form.expr, renaming)
            y = self.d.var(better)
            facts = self.d.facts(width, [y], depth=k) + [(f"the document below k is better than rank {i}", y > x)]
            yield self._query(f"k = {k}, i = {i}: swapping in a better document raises the score", facts, s1 <= s0, d0 + d1)

    def top_weighted(self, k: int):  # type: ignore[no-untyped-def]
        form = self.d.form(k)
        s0, d0 = self.d.encode(form.expr)
        for i in range(1, k + 1):
            for j in range(i + 1, k + 1):
                renaming = self.d.swap(i, j)
                s1, d1 = self.d.encode(form.expr, renaming)
                facts = self.d.facts(k) + [(f"grade at {i} < grade at {j}", self.d.var(self.d.grade(i)) < self.d.var(self.d.grade(j)))]
                yield self._query(f"k = {k}, ranks {i} < {j}: the swap raises the score", facts, s1 <= s0, d0 + d1)

