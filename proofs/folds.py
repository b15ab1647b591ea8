"""Running-state metrics as fold programs, extracted from the closed form.

A closed form whose aggregates over the top U ranks (U = k or min(R, k)) are sums,
products and maxima, with inner prefix sums and products, is the result of a loop
over the ranks i = 1..U that keeps a few numbers:

* each top-level ``Sum(body(i), (i, 1, U))`` is an accumulator A (from 0, A += body);
* each prefix ``Sum(f(j), (j, 1, i))`` inside a body is a state P (from 0, P += f(i)),
  read after its update (upper limit i) or before it (upper limit i - 1); a prefix
  ``Product`` is a state Q (from 1, Q *= f(i));
* each ``MaxOver(Lambda(i, f(i)), 1, U)`` whose body SymPy shows nonnegative is a state H (from 0, H =
  max(H, f(i))), which is then the maximum (0 for an empty range, as the metric's);
* a counter N of the relevant grades seen (N += x) is always kept, so that the
  situation model's consistency (N <= R after every rank) can be stated.

A step may read R (Q-measure's min(i, R)): R is fixed by the qrels, the same in both runs
of a swap and at every depth. It never reads the depth k. A step or a prefix may also read the
ideal grade at its rank (``g_i``, 0 past R: graded Q-measure's cumulated ideal gain), an input G
of the rank that both runs of a swap share. Two counts are then kept where the situation model's
consistency needs them: the ideal gain seen (``N_ideal``: the grades seen never add up to more),
and, where a step counts the relevant documents (``[x > 0]``), that count (``N_pos`` <= R).

A step may also read the unjudged mark at its rank (``u_i``, an input U in {0, 1}; U = 1 forces the
grade to 0) and N, the collection's judged nonrelevant documents (fixed, as R is). Two counts are then
kept: the unjudged ranks seen (``N_unj``) and the judged nonrelevant ones (``N_zero``, which never
exceeds N, the situation model's consistency); every rank is relevant, unjudged or judged nonrelevant.
A mark is read at a rank only down to the depth, where it is the same at every depth (a rank past
the end of a short run is unjudged down to the depth).

All updates read the *old* state (a prefix read after its update is written out as
P + f(i)). The output is the closed form with each aggregate replaced by its state.
:meth:`Fold.run` evaluates the program on a concrete ranking, so that tests can check it
against the exact form: the proofs by induction are about this program.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from irprops.metrics import Situation
from irprops.metrics.exact import Exact, as_exact
from irprops.metrics.symbolic import N_SYMBOL, MaxOver, Relevant

from .structure import Prepared

X = sympy.Symbol("x")
"""The grade at the current rank."""
I = sympy.Symbol("i", integer=True, positive=True)
"""The current rank (1-based)."""
COUNT = sympy.Symbol("N_rel")
"""The grades seen, added up (always kept)."""
IDEAL_GRADE = sympy.Symbol("G")
"""The ideal grade at the current rank: the rank-th largest qrel grade, 0 past R."""
IDEAL = sympy.Symbol("N_ideal")
"""The ideal grades of the ranks seen, added up (kept when a step reads G)."""
POSITIVE = sympy.Symbol("N_pos")
"""The relevant documents seen, counted (the prefix sum of [x > 0], when the closed form has it)."""
MARK = sympy.Symbol("U")
"""The unjudged mark at the current rank (0 or 1; 1 forces the grade to 0)."""
UNJUDGED = sympy.Symbol("N_unj")
"""The unjudged ranks seen, counted (kept when a step reads marks or N)."""
ZEROS = sympy.Symbol("N_zero")
"""The judged nonrelevant documents seen, counted (kept when a step reads marks or N): at most N."""


@dataclass
class Fold:
    """A loop over the ranks 1..upper with state, updates and an output."""

    upper: sympy.Expr
    output: sympy.Expr
    init: dict[sympy.Symbol, sympy.Expr] = field(default_factory=dict)
    update: dict[sympy.Symbol, sympy.Expr] = field(default_factory=dict)
    binary: bool = True

    @property
    def state(self) -> tuple[sympy.Symbol, ...]:
        return tuple(self.init)

    def reads_ideal(self) -> bool:
        """Whether a step reads the ideal grade G at its rank."""
        return any(sympy.sympify(e).has(IDEAL_GRADE) for e in self.update.values())

    def reads_marks(self) -> bool:
        """Whether a step reads the unjudged mark U at its rank, or N (the judged nonrelevant documents)."""
        return ZEROS in self.init

    def reads_nonrelevant(self) -> bool:
        """Whether a step or the output reads N, the collection's judged nonrelevant documents."""
        return any(sympy.sympify(e).has(N_SYMBOL) for e in (*self.update.values(), self.output))

    def describe(self) -> str:
        steps = "; ".join(f"{v} := {self.update[v]} (from {self.init[v]})" for v in self.state)
        return f"for i = 1..{self.upper}: {steps}; score = {self.output}"

    def run(self, situation: Situation, k: sympy.Symbol, R: sympy.Symbol, params: dict[sympy.Symbol, sympy.Expr]) -> Exact | None:
        """The output on a concrete situation (None where a denominator is 0)."""
        upper = int(self.upper.xreplace({k: situation.k, R: situation.R}))
        if self.reads_nonrelevant() and situation.nonrelevant is None:
            return None  # N not known: no value, as in the exact run
        counts = {} if situation.nonrelevant is None else {N_SYMBOL: sympy.Integer(situation.nonrelevant)}
        state = dict(self.init)
        for i in range(1, upper + 1):
            grade = situation.grade(i)
            ideal = situation.qrels[i - 1] if i <= situation.R else 0
            x, g = sympy.Rational(grade.numerator, grade.denominator), sympy.Rational(ideal)
            mark = sympy.Integer(int(situation.unjudged(i)))
            values = {**state, X: x, IDEAL_GRADE: g, MARK: mark, I: sympy.Integer(i), R: sympy.Integer(situation.R), **counts, **params}
            state = {v: sympy.sympify(self.update[v]).xreplace(values) for v in self.state}
        out = self.output.xreplace({**state, k: sympy.Integer(situation.k), R: sympy.Integer(situation.R), **counts, **params}).doit()
        if out.has(sympy.zoo, sympy.nan):
            return None
        return as_exact(out)


def extract(p: Prepared) -> Fold | None:
    """The fold program of the closed form, or None when its shape is not a fold."""
    builder = _Builder(p)
    try:
        output = builder.top(p.expr)
    except _NotAFold:
        return None
    if builder.upper is None or output.has(sympy.Indexed):
        return None
    fold = Fold(builder.upper, output, builder.init, builder.update, p.binary)
    if COUNT not in fold.init:
        fold.init[COUNT], fold.update[COUNT] = sympy.Integer(0), COUNT + X
    if fold.reads_ideal() and IDEAL not in fold.init:
        fold.init[IDEAL], fold.update[IDEAL] = sympy.Integer(0), IDEAL + IDEAL_GRADE
    if any(sympy.sympify(e).has(MARK, N_SYMBOL) for e in (*fold.update.values(), output)):
        if UNJUDGED not in fold.init:
            fold.init[UNJUDGED], fold.update[UNJUDGED] = sympy.Integer(0), UNJUDGED + MARK
        nonrelevant = (1 - X) if p.binary else (1 - Relevant(X))
        fold.init[ZEROS], fold.update[ZEROS] = sympy.Integer(0), ZEROS + (1 - MARK) * nonrelevant
    return fold


class _NotAFold(Exception):
    pass


class _Builder:
    def __init__(self, p: Prepared) -> None:
        self.p = p
        self.upper: sympy.Expr | None = None
        self.init: dict[sympy.Symbol, sympy.Expr] = {}
        self.update: dict[sympy.Symbol, sympy.Expr] = {}
        self.names: dict[sympy.Basic, sympy.Symbol] = {}

    @property
    def _reads(self) -> tuple[sympy.IndexedBase, ...]:
        """The indexed reads a running state may make: grades, and qrel grades and marks where the form has them."""
        return tuple(b for b in (self.p.grades, self.p.form.qrel_base, self.p.form.mark_base) if b is not None)

    def _marks(self, rank: sympy.Symbol) -> dict[sympy.Basic, sympy.Basic]:
        """The mark at ``rank`` written U (the current rank's input)."""
        marks = self.p.form.mark_base
        return {} if marks is None else {marks[rank]: MARK}

    def top(self, e: sympy.Basic) -> sympy.Expr:
        """Replace every top-level aggregate of ``e`` by its state variable."""
        ranked = tuple(b for b in (self.p.grades, self.p.form.mark_base) if b is not None)  # what the ranking answers
        if isinstance(e, (sympy.Sum, sympy.Product, MaxOver)) and e.has(*ranked):
            return self._aggregate(e)
        if isinstance(e, sympy.Indexed):
            raise _NotAFold
        if not e.args:
            return e  # type: ignore[return-value]
        return e.func(*(self.top(a) for a in e.args))

    def _range(self, lo: sympy.Expr, hi: sympy.Expr) -> None:
        if lo != 1 or hi not in (self.p.k, sympy.Min(self.p.R, self.p.k)) or (self.upper is not None and hi != self.upper):
            raise _NotAFold
        self.upper = hi

    def _aggregate(self, e: sympy.Basic) -> sympy.Symbol:
        if e in self.names:
            return self.names[e]
        if isinstance(e, MaxOver):
            body, lo, hi = e.args
            if not _nonnegative(body.expr):  # H from 0 is max(0, f(1), ..., f(U)): the metric's max only when f >= 0
                raise _NotAFold
            self._range(lo, hi)
            step = self._body(body.expr, body.variables[0])
            name = self._new("H", sympy.Integer(0), None)
            self.update[name] = sympy.Max(name, step)
        else:
            if len(e.limits) != 1:
                raise _NotAFold
            variable, lo, hi = e.limits[0]
            self._range(lo, hi)
            step = self._body(e.function, variable)
            if isinstance(e, sympy.Sum):
                name = self._new("A", sympy.Integer(0), None)
                self.update[name] = name + step
            else:
                name = self._new("Q", sympy.Integer(1), None)
                self.update[name] = name * step
        self.names[e] = name
        return name

    def _new(self, prefix: str, start: sympy.Expr, update: sympy.Expr | None) -> sympy.Symbol:
        name = sympy.Symbol(f"{prefix}{len(self.init) + 1}")
        self.init[name] = start
        if update is not None:
            self.update[name] = update
        return name

    def _body(self, body: sympy.Expr, variable: sympy.Symbol) -> sympy.Expr:
        """The body at rank I with grade X, inner prefix aggregates replaced by state."""
        read = self._reads
        replaced = body.replace(lambda a: isinstance(a, (sympy.Sum, sympy.Product)) and a.has(*read), lambda a: self._prefix(a, variable))
        replaced = _ideal_read(replaced, variable, self.p)
        replaced = replaced.xreplace({self.p.grades[variable]: X, **self._marks(variable)}).xreplace({variable: I})
        if replaced.has(sympy.Indexed, sympy.Sum, sympy.Product, MaxOver) or replaced.has(self.p.k):
            raise _NotAFold  # a step reads the current rank and grade, the state and R (fixed by the qrels), never the depth
        return replaced

    def _prefix(self, e: sympy.Basic, outer: sympy.Symbol) -> sympy.Expr:
        if len(e.limits) != 1:
            raise _NotAFold
        j, lo, hi = e.limits[0]
        if lo != 1 or hi not in (outer, outer - 1):
            raise _NotAFold
        inner = _ideal_read(e.function, j, self.p).xreplace({self.p.grades[j]: X, **self._marks(j)})
        if inner.has(outer) or inner.has(self.p.k) or inner.has(self.p.R):
            raise _NotAFold  # a running state is a sum over the earlier ranks alone: it cannot read the current rank, k or R
        f = inner.xreplace({j: I})
        if f.has(sympy.Indexed, sympy.Sum, sympy.Product):
            raise _NotAFold
        key = (type(e), f)
        if key not in self.names:
            if isinstance(e, sympy.Sum):
                kept = {X: COUNT, IDEAL_GRADE: IDEAL, Relevant(X): POSITIVE, MARK: UNJUDGED}
                name = kept.get(f) or self._new("P", sympy.Integer(0), None)
                self.init.setdefault(name, sympy.Integer(0))
                self.update[name] = name + f
            else:
                name = self._new("Q", sympy.Integer(1), None)
                self.update[name] = name * f
            self.names[key] = name
        name = self.names[key]
        return self.update[name] if hi == outer else name


def _ideal_read(e: sympy.Expr, rank: sympy.Symbol, p: Prepared) -> sympy.Expr:
    """``e`` with the ideal grade at ``rank`` (``Piecewise((g[rank], rank <= R), (0, True))``, as the closed form reads
    ``m.g(rank)``) written G; any other read of a qrel grade is left for the caller to refuse (it stays indexed)."""
    qrels, R = p.form.qrel_base, p.R
    if qrels is None:
        return e

    def ideal(node: sympy.Basic) -> bool:
        if not (isinstance(node, sympy.Piecewise) and len(node.args) == 2 and node.args[0].expr == qrels[rank]):
            return False
        (_, condition), (otherwise, rest) = node.args
        parts = condition.args if isinstance(condition, sympy.And) else (condition,)
        return otherwise == 0 and rest == sympy.true and {_at_least_zero(c) for c in parts} in ({R - rank}, {R - rank, rank - 1})

    return e.replace(ideal, lambda node: IDEAL_GRADE)


def _at_least_zero(relation: sympy.Basic) -> sympy.Expr | None:
    """The expression e with ``relation`` equivalent to e >= 0, for <= and >= (None for any other)."""
    if isinstance(relation, sympy.GreaterThan):
        return relation.lhs - relation.rhs
    if isinstance(relation, sympy.LessThan):
        return relation.rhs - relation.lhs
    return None


def _nonnegative(e: sympy.Expr) -> bool:
    """Whether SymPy shows ``e`` nonnegative with every grade (an indexed value: a grade, a qrel grade, a mark) at
    least 0: a maximum's state then starts at 0 without changing the maximum of a nonempty range (empty, it is 0)."""
    grades = {a: sympy.Dummy(nonnegative=True) for a in e.atoms(sympy.Indexed)}
    return e.xreplace(grades).is_nonnegative is True
