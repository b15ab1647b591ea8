"""Recognising a metric's structure from its closed form (never from its name).

The closed form comes from the metric's one declaration (symbolic k, sums as ``Sum``).
:func:`prepare` fixes the parameters (kept symbolic over their proof interval, else
substituted); :func:`weighted_sum` matches

    scale * sum_{i=1..U} w(i) * x[i] / N

where x is the grade sequence, w(i) and the scale are free of grades and qrels, U is k
or min(R, k), and the normaliser N is one of: 1; a sum of grade-free weights v(j) up
to some U'; R; the ideal sum_{j<=k} v(j) * g_j over the sorted qrel grades; or the self
ideal sum_{j<=k} v(j) * s_j over the sorted top-k grades. Anything else is not a weighted
sum, and the other analyses (folds, maxima) or the bounded proofs take over.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from irprops.metrics import Measure, Normaliser, SymbolicForm
from irprops.metrics.exact import certainly, show
from irprops.metrics.symbolic import MaxOver, OrderStatistic
from irprops.metrics.timing import limited

from . import gains
from .signs import SYMPY_SECONDS
from .summation import evaluated


@dataclass(frozen=True)
class Prepared:
    """A measure's closed form with parameters fixed for proving."""

    measure: Measure
    form: SymbolicForm
    expr: sympy.Expr
    open_unit: tuple[sympy.Symbol, ...]
    """Parameters kept symbolic: proofs hold for every value in (0, 1)."""
    open_positive: tuple[sympy.Symbol, ...] = ()
    """Parameters kept symbolic: proofs hold for every positive value (only the fold and k <= K provers keep them)."""

    @property
    def open(self) -> tuple[sympy.Symbol, ...]:
        """Every parameter kept symbolic."""
        return self.open_unit + self.open_positive

    @property
    def grades(self) -> sympy.IndexedBase:
        return self.form.grade_base  # type: ignore[return-value]

    @property
    def k(self) -> sympy.Symbol:
        return self.form.k  # type: ignore[return-value]

    @property
    def R(self) -> sympy.Symbol:
        return self.form.R

    @property
    def binary(self) -> bool:
        return self.form.binary

    def hidden_denominators(self) -> list[sympy.Expr]:
        """The recorded denominators of the form that the closed form no longer divides by (``m.div(d, d)`` is 1 in it):
        where one is 0 the metric is undefined, and nothing in the closed form says so."""
        fixed = {s: sympy.Rational(v.numerator, v.denominator) for s, v in self.form.params.items() if s not in self.open}
        shown = _divisors(evaluated(self.expr))
        recorded = [d.xreplace(fixed) for d, _ in self.form.denominators]
        return [d for d in recorded if d not in shown]

    def undefined_on_all_relevant(self) -> sympy.Expr | None:
        """A divisor of the metric not shown nonzero on the all-relevant ranking of depth k (every grade 1, R = k) for every
        k >= 1, or None: a proof that scores exceed every bound on that ranking needs them defined there (a fifteenth
        hostile review: ``m.div(x * d, d)`` with d = max(0, 12 - k) scored 4k up to k = 11 and was undefined after, and its
        unboundedness was "proved"). The divisors are the recorded denominators and those the closed form divides by."""
        fixed = {s: sympy.Rational(v.numerator, v.denominator) for s, v in self.form.params.items() if s not in self.open}
        divisors = [d.xreplace(fixed) for d, _ in self.form.denominators] + sorted(_divisors(evaluated(self.expr)), key=str)
        for d in divisors:
            if not _nonzero_for_every_k(self._all_relevant(d), self.k):
                return d
        return None

    def _all_relevant(self, e: sympy.Expr) -> sympy.Expr:
        """``e`` on the all-relevant ranking of depth k: every grade and qrel grade 1, R = k. The j-th largest grade of the
        top k is 1 there only for 1 <= j <= k (a twenty-third hostile review: the (2k - 20)-th largest is 0 from k = 21 on,
        and a metric dividing by it was "proved" unbounded)."""
        ones = e.replace(lambda a: isinstance(a, sympy.Indexed), lambda a: sympy.Integer(1)).xreplace({self.R: self.k})
        ones = ones.replace(lambda a: isinstance(a, OrderStatistic),
                            lambda a: sympy.Piecewise((1, sympy.And(a.args[0] >= 1, a.args[0] <= a.args[2])), (0, True)))
        return evaluated(ones)

    def reach_of_parameters(self) -> str:
        """How the proof covers the parameters, for its text."""
        fixed = {str(s): v for s, v in self.form.params.items() if s not in self.open}
        parts = ([f"every {p} in (0, 1)" for p in self.open_unit] + [f"every {p} > 0" for p in self.open_positive]
                 + [f"{name} = {value}" for name, value in fixed.items()])
        return ", ".join(parts)


@limited(SYMPY_SECONDS, False)
def _nonzero_for_every_k(d: sympy.Expr, k: sympy.Symbol) -> bool:
    """Whether SymPy shows ``d`` (an expression in k >= 1 and parameters) nonzero for every k, within the time limit."""
    if d.has(sympy.Sum, sympy.Product, MaxOver, OrderStatistic, sympy.Indexed):
        return False
    if d.is_number:
        return certainly(d, "nonzero")
    return bool(d.is_positive or d.is_negative)  # SymPy's assumptions, not simplify (which calls binomial(n, n + 2) 0)


def _divisors(e: sympy.Expr) -> set[sympy.Expr]:
    """The bases of the negative powers ``e`` divides by on every path, through sums and products only: a division
    inside a sum over ranks (perhaps an empty one), a case split or a function is not one the value always needs."""
    if e.is_Pow and e.exp.is_negative:
        return {e.base}
    if isinstance(e, (sympy.Add, sympy.Mul)):
        return set().union(*(_divisors(a) for a in e.args))
    return set()


def prepare(measure: Measure, keep_open: bool = True) -> Prepared | None:
    """The measure's closed form, parameters kept symbolic where their proof interval allows (and ``keep_open``), else
    fixed at the values the measure is bound with."""
    form = measure.closed_form()
    if form is None:
        return None
    open_unit, open_positive, fixed = [], [], {}
    declared = {p.name: p for p in measure.metric.params}
    for symbol, value in form.params.items():
        param = declared[str(symbol)]
        interval, general = param.proof_interval, set(param.assumptions.items()) <= _OF_EVERY_VALUE
        if keep_open and general and interval == (0, 1) and 0 < value < 1:
            open_unit.append(symbol)
        elif keep_open and general and interval == (0, None) and value > 0:
            open_positive.append(symbol)
        else:
            fixed[symbol] = sympy.Rational(value.numerator, value.denominator)
    if (open_unit or open_positive) and not _defined_over_the_interval(form, fixed, open_unit, open_positive):
        return prepare(measure, keep_open=False)
    return Prepared(measure, form, form.expr.xreplace(fixed), tuple(open_unit), tuple(open_positive))


_OF_EVERY_VALUE = frozenset({("positive", True), ("nonnegative", True), ("real", True), ("nonzero", True), ("finite", True)})
"""SymPy assumptions true of every value of a proof interval: a parameter declared with others (``integer``, which lets
SymPy write floor(beta) as beta) is proved at its value only (a forty-first hostile review: floor(beta) - beta, 0 at
beta = 1, was "proved" for every beta > 0 while the metric is its negation at beta = 1/2)."""


def _defined_over_the_interval(form: SymbolicForm, fixed: dict[sympy.Symbol, sympy.Rational],
                               open_unit: list[sympy.Symbol], open_positive: list[sympy.Symbol]) -> bool:
    """Whether every recorded denominator that mentions a parameter kept open is nonzero over its whole interval, by
    SymPy's assumptions (p = 1/(1 + q), beta = q, q > 0): a denominator beta - 2 leaves the metric without a value at
    beta = 2, and a proof for every beta > 0 would be about no score there (a forty-first hostile review: m.div(x (beta -
    2), beta - 2) was "proved" monotonic for every beta > 0)."""
    kept = {*open_unit, *open_positive}
    values = {**{p: 1 / (1 + sympy.Symbol(f"q_{p}", positive=True)) for p in open_unit},
              **{p: sympy.Symbol(f"q_{p}", positive=True) for p in open_positive}}
    for d, _ in form.denominators:
        d = sympy.sympify(d).xreplace(fixed)
        if d.free_symbols & kept and d.xreplace(values).is_nonzero is not True:
            return False
    return True


@dataclass(frozen=True)
class WeightedSum:
    """scale * sum_{i=1..upper} weight(i) * x[i] / normaliser."""

    index: sympy.Symbol
    weight: sympy.Expr
    scale: sympy.Expr
    upper: sympy.Expr
    normaliser: Normaliser
    normaliser_weight: sympy.Expr | None = None
    """v(index), for the normalisers that are weighted sums."""
    normaliser_upper: sympy.Expr | None = None
    telescoped_from: sympy.Expr | None = None
    """The closed-form normaliser N(k) that equals sum_{j<=k} v(j) (N(0) = 0), when it was written in k alone."""
    gain: sympy.Expr | None = None
    """f(x) (in :data:`proofs.gains.X`) when the sum is over the gains f(x[i]) of the grades (and an ideal or self
    normaliser over the gains of its grades), not over the grades themselves."""

    def same_weights(self) -> bool:
        """Whether the normaliser weighs ranks exactly as the numerator does, over the same ranks."""
        return (
            self.normaliser_weight is not None
            and _zero(self.normaliser_weight - self.weight)
            and (self.normaliser_upper is None or self.normaliser_upper == self.upper)
        )

    def describe(self, p: Prepared) -> str:
        x = "b" if p.binary else "r"
        v = show(self.normaliser_weight.xreplace({self.index: sympy.Symbol("j")})) if self.normaliser_weight is not None else ""
        norms = {
            "none": "1",
            "weights": f"sum_{{j<={show(self.normaliser_upper)}}} {v}",
            "relevant": "R",
            "ideal": f"sum_{{j<=k}} {v} * g_j, the qrel grades g_1 >= g_2 >= ... (0 beyond R)",
            "self": f"sum_{{j<=k}} {v} * s_j, the top-k grades sorted s_1 >= s_2 >= ...",
        }
        scale = "" if self.scale == 1 else f"({show(self.scale)}) * "
        term = f"f({x}_i)" if self.gain is not None else f"{x}_i"
        if self.gain is not None:
            norms = {kind: text.replace("g_j,", "f(g_j),").replace("* s_j,", "* f(s_j),") for kind, text in norms.items()}
        telescoped = (f" (N = {show(self.telescoped_from)} telescoped: it is 0 at k = 0, and each rank adds N(j) - N(j - 1), "
                      "by SymPy's simplification)") if self.telescoped_from is not None else ""
        gain = f", the gain f(x) = {show(self.gain)}" if self.gain is not None else ""
        return (f"score = {scale}sum_{{i<={show(self.upper)}}} w(i) * {term} / N, w(i) = {show(self.weight)}{gain}, "
                f"N = {norms[self.normaliser]}{telescoped}")


def weighted_sum(p: Prepared) -> WeightedSum | None:
    """The weighted-sum structure of the closed form, if it has one."""
    x, k, R = p.grades, p.k, p.R
    numerators, denominators, scale = [], [], sympy.Integer(1)
    for factor in sympy.Mul.make_args(p.expr):
        if isinstance(factor, sympy.Add) and factor.has(x):
            factor = _with_leading_terms(factor, p)  # c * x[1] + sum_{i<=k} ...: one sum whose weight at rank 1 is raised by c
        if isinstance(factor, sympy.Sum) and factor.has(x):
            numerators.append(factor)
        elif factor.is_Pow and factor.exp == -1:
            denominators.append(factor.base)
        elif factor.has(x, R, k) or factor.has(sympy.Indexed):
            return None
        else:
            scale *= factor
    if len(numerators) != 1 or len(numerators[0].limits) != 1:
        return None
    term, (i, lo, upper) = numerators[0].function, numerators[0].limits[0]
    weight, gain = _coefficient(term, x[i]), None
    if weight is None and (over_gains := gains.recognise(term, x[i])) is not None:
        weight, gain = over_gains
    if weight is None or lo != 1 or upper not in (k, sympy.Min(R, k)):
        return None
    if not fixed(weight, p) or weight.has(sympy.Indexed, MaxOver, OrderStatistic):
        return None
    structure = {"index": i, "weight": weight, "scale": scale, "upper": upper, "gain": gain}
    if not denominators:
        return WeightedSum(**structure, normaliser="none")
    n = sympy.Mul(*denominators)  # k (k + 1) / 2 arrives as two factors
    if n == k or n == sympy.Min(R, k):
        return WeightedSum(**structure, normaliser="weights", normaliser_weight=sympy.Integer(1), normaliser_upper=n)
    if n == R:
        return WeightedSum(**structure, normaliser="relevant")
    if isinstance(n, sympy.Sum) and len(n.limits) == 1 and n.limits[0][1] == 1:
        j, _, top = n.limits[0]
        body = n.function.xreplace({j: i})
        found = _normaliser(body, i, top, p, gain)
        if found is not None:
            kind, v = found
            if not fixed(v, p) or top not in (k, sympy.Min(R, k)):  # the normaliser's range is the top k
                return None
            return WeightedSum(**structure, normaliser=kind, normaliser_weight=v, normaliser_upper=top)
    v = telescoped(n, i, p)
    if v is None:
        return None
    ratio = _simplified(v / weight)
    if ratio is None:
        return None
    if ratio != 1 and not ratio.has(i) and fixed(ratio, p) and ratio.is_positive:  # N = ratio * sum w: fold ratio into the scale
        structure["scale"], v, n = scale / ratio, weight, n / ratio
    return WeightedSum(**structure, normaliser="weights", normaliser_weight=v, normaliser_upper=k, telescoped_from=n)


def _with_leading_terms(total: sympy.Add, p: Prepared) -> sympy.Expr:
    """``a * sum_{i<=k} f(i) + c * x[1]`` as ``sum_{i<=k} (a f(i) + c [i = 1] x[i])``, exact for every k >= 1 (rank 1 is always
    in the top k); anything else is returned as it was.

    >>> from irprops.metrics import Measure, Metric
    >>> bonus = Measure(Metric("bonus", lambda m: m.r(1) + m.sum(1, m.k, lambda i: m.r(i) / i), "binary", (), (), ""), {})
    >>> prepared = prepare(bonus)
    >>> _with_leading_terms(prepared.expr, prepared)
    Sum(Piecewise(((1 + 1/i)*b[i], Eq(i, 1)), (b[i]/i, True)), (i, 1, k))
    """
    x, first = p.grades, p.grades[1]
    sums = [t for t in total.args if t.has(sympy.Sum)]
    if len(sums) != 1:
        return total
    coefficient, inner = sums[0].as_independent(sympy.Sum, as_Add=False)
    if not (isinstance(inner, sympy.Sum) and len(inner.limits) == 1 and inner.limits[0][1:] == (1, p.k)):
        return total
    if coefficient.has(x, p.R, p.k, sympy.Indexed):
        return total
    extra = sympy.Add(*(t for t in total.args if t is not sums[0]))
    c = sympy.expand(extra).coeff(first)
    if c == 0 or sympy.expand(extra - c * first) != 0 or c.has(x, p.R, p.k, sympy.Indexed):
        return total
    i = inner.limits[0][0]
    w = _coefficient(coefficient * inner.function, x[i])
    if w is None:
        return total
    return sympy.Sum(sympy.Piecewise((w + c, sympy.Eq(i, 1)), (w, True)) * x[i], inner.limits[0])


def telescoped(n: sympy.Expr, i: sympy.Symbol, p: Prepared) -> sympy.Expr | None:
    """v(i) = n(i) - n(i - 1) when the normaliser n is a closed form in k alone with n(0) = 0, so that
    n(k) = sum_{j<=k} v(j) for every k >= 1 (telescoping): SRBP's 1 - p^k, or k (k + 1) / 2.

    >>> from irprops.metrics import parse
    >>> prepared = prepare(parse("P"))
    >>> i = sympy.Symbol("i", integer=True, positive=True)
    >>> telescoped(1 - sympy.Rational(1, 2) ** prepared.k, i, prepared), telescoped(prepared.k + 1, i, prepared)
    (2**(-i), None)
    """
    k = p.k
    if n.has(p.grades, p.R, sympy.Indexed, sympy.Sum, sympy.Product, MaxOver, OrderStatistic) or not n.has(k):
        return None
    if not _zero(n.subs(k, 0)):
        return None
    v = _simplified(n.subs(k, i) - n.subs(k, i - 1))
    return v if v is not None and fixed(v, p) else None


@limited(SYMPY_SECONDS, None)
def _simplified(e: sympy.Expr) -> sympy.Expr | None:
    """SymPy's simplification, after powers of one base are merged (2**(2*i) and 4**i; not across roots, whose bases may
    be negative); None past the time limit."""
    roots = any(a.is_Pow and not a.exp.is_integer for a in sympy.preorder_traversal(e))
    force = not roots  # with a root, force would merge sqrt(a) * sqrt(b) into sqrt(a b) when a and b are negative
    return sympy.simplify(sympy.powsimp(sympy.expand_power_base(sympy.expand(e), force=force), force=force))  # type: ignore[no-any-return]


@limited(SYMPY_SECONDS, None)
def _expanded(e: sympy.Expr) -> sympy.Expr | None:
    """SymPy's expansion of ``e``, None past the time limit (a sum of five terms to the 40th power)."""
    return sympy.expand(e)  # type: ignore[no-any-return]


@limited(SYMPY_SECONDS, False)
def _zero(e: sympy.Expr) -> bool:
    """Whether SymPy simplifies ``e`` to 0 within the time limit (past it: not shown zero). Its sums are first put in
    closed form only where checked (:func:`~irprops.proofs.summation.evaluated`); one that stays a sum is not
    simplified (SymPy's simplify would sum it its own way), so ``e`` is then not shown zero."""
    if e.has(sympy.Sum, sympy.Product):
        e = evaluated(e)
        if e.has(sympy.Sum, sympy.Product):
            return False
    return bool(sympy.simplify(e) == 0)


def fixed(weight: sympy.Expr, p: Prepared) -> bool:
    """Whether a weight function of the rank is free of the depth k and of R (the lemmas treat it as fixed), and is no sum
    or product over other ranks (SymPy's facts about such a weight would rest on its summation).

    >>> from irprops.metrics import parse
    >>> p = prepare(parse("NDCG"))
    >>> fixed(1 / sympy.log(sympy.Symbol("i") + 1), p), fixed(1 / p.k, p)
    (True, False)
    """
    return not weight.has(p.k, p.R, sympy.Sum, sympy.Product)  # a weight that is a sum: SymPy's facts about it are its summation


def _coefficient(term: sympy.Expr, grade: sympy.Indexed) -> sympy.Expr | None:
    """w when ``term`` is w * grade with w free of grades and qrels, else None (branch by branch for a Piecewise)."""
    if isinstance(term, sympy.Piecewise):
        pieces = [(_coefficient(e, grade), c) for e, c in term.args]
        if any(w is None or c.has(sympy.Indexed) for w, c in pieces):
            return None
        return sympy.Piecewise(*pieces)
    expanded = _expanded(term)
    w = expanded.coeff(grade) if expanded is not None else None
    if w is None or w == 0 or not _zero(term - w * grade) or w.has(sympy.Indexed) or w.has(MaxOver, OrderStatistic):
        return None
    return w


def _normaliser(body: sympy.Expr, i: sympy.Symbol, top: sympy.Expr, p: Prepared,
                gain: sympy.Expr | None = None) -> tuple[Normaliser, sympy.Expr] | None:
    """The kind of normaliser whose term at rank i is ``body``, and its weight v(i); over the gains f of the numerator's
    grades when ``gain`` is f (its grades' gains must be the same f: the ideal of the gains is the gains of the ideal)."""
    x, R, k = p.grades, p.R, p.k
    if not body.has(x, R, sympy.Indexed, OrderStatistic):
        return "weights", body
    if top != k:
        return None
    if isinstance(body, sympy.Piecewise) and len(body.args) == 2 and body.args[1] == (0, True):
        value, condition = body.args[0]
        if condition in (sympy.Ge(R, i), sympy.Le(i, R)):
            grade = p.form.qrel_base[i] if not p.binary else sympy.Integer(1)  # type: ignore[index]
            v = value if p.binary else _weight_over(value, grade, gain)
            if v is not None and not v.has(x, R, sympy.Indexed):
                return "ideal", v
        if (p.binary and isinstance(condition, sympy.Le) and condition.lhs == i and _is_count_of_top_k(condition.rhs, p)
                and not value.has(x, R, sympy.Indexed)):
            return "self", value
    sorted_grade = OrderStatistic(i, x, k)
    if gain is not None:
        v = _weight_over(body, sorted_grade, gain) if body.has(sorted_grade) else None
    else:
        v = _simplified(body / sorted_grade) if body.has(sorted_grade) else None
    if v is not None and not v.has(x, R, sympy.Indexed, OrderStatistic):
        return "self", v
    return None


def _weight_over(term: sympy.Expr, grade: sympy.Expr, gain: sympy.Expr | None) -> sympy.Expr | None:
    """v when ``term`` is v * grade (no gain) or v * f(grade) for the gain f, else None."""
    if gain is None:
        return _coefficient(term, grade)
    found = gains.recognise(term, grade)
    if found is None or not _zero(found[1] - gain):
        return None
    return found[0]


def _is_count_of_top_k(e: sympy.Expr, p: Prepared) -> bool:
    """Whether ``e`` is sum_{l<=k} x[l], the number of relevant documents in the top k."""
    if not isinstance(e, sympy.Sum) or len(e.limits) != 1:
        return False
    l, lo, hi = e.limits[0]
    return lo == 1 and hi == p.k and e.function == p.grades[l]


def maximum(p: Prepared) -> sympy.Expr | None:
    """The scale c when the closed form is c * max_{i<=k} x[i], else None."""
    scale, found = sympy.Integer(1), None
    for factor in sympy.Mul.make_args(p.expr):
        if isinstance(factor, MaxOver):
            body, lo, hi = factor.args
            if lo == 1 and hi == p.k and body.expr == p.grades[body.variables[0]]:
                found = factor
                continue
            return None
        if factor.has(p.grades, p.R, p.k):
            return None
        scale *= factor
    return scale if found is not None else None
