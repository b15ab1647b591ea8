"""Localization and completeness for every k, read off the closed form.

* **localized**: the closed form mentions no R and no qrel grade, and every grade it
  reads, x[e], has its index e ranging within 1..k (e is a summation variable whose
  range lies in 1..k, or the maximum/sort of the top k). Then two situations with the
  same top k have the same closed form value, and the same definedness.
* **complete**: with R = 0 every grade is 0 (the qrels are empty, so the ranking holds no
  relevant document) and every qrel grade is absent; then every denominator of the
  closed form (the recorded ones and every negative power) is shown positive for every
  k >= 1, by a small positivity argument over sums, products, powers and log2.
"""

from __future__ import annotations

import sympy

from irprops.metrics.exact import log2
from irprops.metrics.symbolic import MaxOver, OrderStatistic
from irprops.metrics.timing import limited
from irprops.verdicts import Prop

from .lemma import ALL_K, Failed, Lemma, Proof
from .signs import SYMPY_SECONDS
from .structure import Prepared
from .weighted import CLOSED, GRADES

READ = "a value that is a function of the top-k grades alone is the same for two situations with the same top k"


def localized(p: Prepared) -> Proof | Failed:
    expressions = [p.expr, *(d for d, _ in p.form.denominators)]
    for e in expressions:
        if e.has(p.R):
            return Failed(Prop.LOCALIZED, "the closed form mentions R")
        if p.form.qrel_base is not None and e.has(p.form.qrel_base):
            return Failed(Prop.LOCALIZED, "the closed form mentions the qrel grades")
        outside = _reads_outside_top_k(e, p, {})
        if outside is not None:
            return Failed(Prop.LOCALIZED, f"the closed form reads {outside}, which may lie below the depth k")
    statement = ("the closed form mentions only k, the parameters and the grades x_1..x_k (every grade index ranges within 1..k); "
                 "no R, no qrel grade")
    return Proof(Prop.LOCALIZED, "yes", ALL_K, (Lemma("top k only", statement, "structure"),), (CLOSED, READ))


def _reads_outside_top_k(e: sympy.Basic, p: Prepared, ranges: dict[sympy.Symbol, sympy.Expr]) -> str | None:
    """The first grade access not provably within ranks 1..k, or None."""
    if isinstance(e, sympy.Indexed) and e.base == p.grades:
        (index,) = e.indices
        return None if _within(index, p.k, ranges) else str(e)
    if isinstance(e, OrderStatistic):  # the j-th largest of the top k: j may read grades too (a sixteenth hostile review:
        # j = k + 1 where the grade at rank k + 1 is positive)
        return _reads_outside_top_k(e.args[0], p, ranges) if e.args[1] == p.grades and e.args[2] == p.k else str(e)
    if isinstance(e, (sympy.Sum, sympy.Product)):
        inner = dict(ranges)
        for variable, lo, hi in e.limits:
            found = _limit_reads(lo, hi, p, inner)  # a twelfth hostile review: b_{k+1} read only through a sum's limit
            if found is not None:
                return found
            if not (lo.is_Integer and lo >= 1 and _within(hi, p.k, inner)):
                inner[variable] = sympy.oo
            else:
                inner[variable] = hi
        return _reads_outside_top_k(e.function, p, inner)
    if isinstance(e, MaxOver):
        body, lo, hi = e.args
        found = _limit_reads(lo, hi, p, ranges)
        if found is not None:
            return found
        inner = {**ranges, body.variables[0]: hi if lo.is_Integer and lo >= 1 and _within(hi, p.k, ranges) else sympy.oo}
        return _reads_outside_top_k(body.expr, p, inner)
    for arg in e.args:
        found = _reads_outside_top_k(arg, p, ranges)
        if found is not None:
            return found
    return None


def _limit_reads(lo: sympy.Expr, hi: sympy.Expr, p: Prepared, ranges: dict[sympy.Symbol, sympy.Expr]) -> str | None:
    """The first grade access outside ranks 1..k in a sum's, product's or maximum's limits, or None."""
    return _reads_outside_top_k(lo, p, ranges) or _reads_outside_top_k(hi, p, ranges)


def _within(e: sympy.Expr, k: sympy.Symbol, ranges: dict[sympy.Symbol, sympy.Expr]) -> bool:
    """Whether ``e`` is at most k whenever the summation variables lie in their ranges."""
    if e in (k, 1):  # rank 1 lies in the top k at every depth k >= 1
        return True
    if isinstance(e, sympy.Min):
        return any(_within(a, k, ranges) for a in e.args)
    for variable, upper in ranges.items():
        offset = _simplified(e - variable)
        if offset is not None and offset.is_Integer and offset <= 0 and upper is not sympy.oo and _within(upper, k, ranges):
            return True
    return False


def complete(p: Prepared) -> Proof | Failed:
    at_zero = {p.R: sympy.Integer(0)}
    expr = _empty_collection(p.expr, p).xreplace(at_zero)
    if expr.has(sympy.zoo, sympy.nan):
        return Failed(Prop.COMPLETE, "the closed form divides by zero when R = 0")
    recorded = [_empty_collection(d, p).xreplace(at_zero) for d, _ in p.form.denominators]
    # the negative powers of the closed form as written: a grade times 1/R vanishes with the grade, but still divides by R
    written = [_empty_collection(b, p).xreplace(at_zero) for b in _negative_power_bases(p.expr)]
    denominators = list(dict.fromkeys(recorded + written + _negative_power_bases(expr)))
    for d in denominators:
        if not positive(sympy.sympify(d)):
            return Failed(Prop.COMPLETE, f"cannot show the denominator {d} nonzero when R = 0")
    shown = ", ".join(sorted({str(d) for d in denominators})) or "none: the closed form divides by nothing"
    statement = (f"with R = 0 (no relevant document, every grade 0) the denominators of the closed form "
                 f"are positive for every k >= 1: {shown}")
    return Proof(Prop.COMPLETE, "yes", ALL_K, (Lemma("defined at R = 0", statement, "structure"),),
                 (CLOSED, GRADES, "SymPy's sign determination (a computation, not a proof)"))


def _empty_collection(e: sympy.Expr, p: Prepared) -> sympy.Expr:
    """The closed form on a collection without relevant documents: every grade (and qrel grade) 0."""
    bases = {p.grades} | ({p.form.qrel_base} if p.form.qrel_base is not None else set())
    return e.replace(lambda a: isinstance(a, sympy.Indexed) and a.base in bases, lambda a: sympy.Integer(0))


@limited(SYMPY_SECONDS, None)
def _simplified(e: sympy.Expr) -> sympy.Expr | None:
    """SymPy's simplification of ``e``, None past the time limit (then nothing is shown of it)."""
    return sympy.simplify(e)  # type: ignore[no-any-return]


def _negative_power_bases(e: sympy.Basic) -> list[sympy.Expr]:
    found = []
    for a in sympy.preorder_traversal(e):
        if a.is_Pow and a.exp.is_negative:
            found.append(a.base)
    return found


def positive(e: sympy.Expr, ranges: tuple[sympy.Symbol, ...] = ()) -> bool:
    """Whether ``e`` is positive for every k >= 1 (summation variables positive integers)."""
    if e.is_positive:
        return True
    if isinstance(e, sympy.Sum):
        (variable, lo, hi), = e.limits
        length = _simplified(hi - lo)
        nonempty = length is not None and length.is_nonnegative
        return bool(nonempty) and positive(e.function, (*ranges, variable))
    if isinstance(e, (sympy.Add, sympy.Mul)):
        return all(positive(a, ranges) for a in e.args)
    if e.is_Pow:
        return positive(e.base, ranges)
    if isinstance(e, log2):
        return _above_one(e.args[0])
    return False


def _above_one(x: sympy.Expr) -> bool:
    """Whether ``x`` > 1 (so log2(x) > 0), through max(...) and min(...) of such terms."""
    if isinstance(x, sympy.Max):
        return any(_above_one(a) for a in x.args)
    if isinstance(x, sympy.Min):
        return all(_above_one(a) for a in x.args)
    return bool((x - 1).is_positive)
