"""Metric declarations, the registry, and measures (a metric bound to parameters and a depth).

A metric is declared once, with :func:`declare`, as a formula over an
:class:`~metrics.algebra.Algebra`; its numeric, exact and symbolic forms all come from
that one function. Everything else (name parsing, the CLI's choices, the tests) reads
:data:`REGISTRY`.
"""

from __future__ import annotations

import functools
import inspect
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

import sympy

from . import exact
from .agreement import check_agreement, check_depth_agreement
from .algebra import DeclaredExactAlgebra, ExactAlgebra, FloatAlgebra, Formula, Undefined, run
from .errors import InputError, Undecided
from .exact import Exact
from .grades import format_grade
from .guards import guarding, refuse_outside_language
from .reads import Read, recording
from .situation import Situation
from .strictness import Steps, reaches_sympy, strict
from .symbolic import N_SYMBOL, ClosedFormAlgebra, SymbolicAlgebra, SymbolicForm
from .tracing import BranchOnSymbol, recording_divisors, untrace

Relevance = Literal["binary", "graded"]


RESERVED = frozenset({"k", "R", "N", "U", "i", "j", "n", "t", "x", "M", "ln2", "later", "undefined", "kept"})
"""Names no parameter may have: the depth, R, and the names of the forms' and the provers' own variables."""
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")


@dataclass(frozen=True)
class Param:
    """A metric parameter: its name, default, the rule its values obey, and SymPy assumptions."""

    name: str
    default: Fraction
    rule: str
    valid: Callable[[Fraction], bool]
    integer: bool = False
    assumptions: Mapping[str, bool] = field(default_factory=lambda: {"nonnegative": True})
    proof_interval: tuple[Fraction, Fraction | None] | None = None
    """An open interval the proof layer may prove a property for as a whole (a value in it is
    then kept symbolic): (0, 1), or (0, None) for every positive value; values outside it, and
    parameters without one, are substituted."""

    def __post_init__(self) -> None:
        if not _NAME.fullmatch(self.name) or self.name in RESERVED:
            raise InputError("parameter name", self.name, "a parameter is named by letters and digits, starting with a letter, and "
                             f"not {', '.join(sorted(RESERVED))} (the depth, R, and the variables of the forms and proofs)",
                             "e.g. p, beta, gain2")

    def check(self, value: Fraction, metric: str) -> Fraction:
        if self.integer and value.denominator != 1:
            raise InputError(f"{metric} parameter {self.name}", format_grade(value), "must be an integer")
        if not self.valid(value):
            raise InputError(f"{metric} parameter {self.name}", format_grade(value), f"must satisfy {self.rule}")
        return value


@dataclass(frozen=True)
class Metric:
    """One declared metric family (over all depths k)."""

    key: str
    formula: Formula
    relevance: Relevance
    aliases: tuple[str, ...]
    params: tuple[Param, ...]
    reference: str
    residual: Formula | None = None
    scale_params: tuple[str, ...] = ()
    """ir_measures' parameters that name irprops' own convention for this metric (``max_rel``, ``dcg``): accepted in a
    name, changing no value (:mod:`metrics.names`)."""

    @property
    def names(self) -> tuple[str, ...]:
        """The key and every alias."""
        return (self.key, *self.aliases)

    @property
    def summary(self) -> str:
        """The first line of the formula's docstring."""
        return self.description.splitlines()[0] if self.description else self.key

    @property
    def description(self) -> str:
        """The formula's docstring without its examples."""
        return (inspect.getdoc(self.formula) or "").split(">>>")[0].strip()

    @property
    def definition(self) -> str:
        """The formula line of the docstring (its second paragraph's first line)."""
        paragraphs = self.description.split("\n\n")
        return paragraphs[1].splitlines()[0] if len(paragraphs) > 1 else self.summary

    @property
    def binary(self) -> bool:
        return self.relevance == "binary"

    def defaults(self) -> dict[str, Fraction]:
        return {p.name: p.default for p in self.params}


REGISTRY: dict[str, Metric] = {}
"""Every declared metric, by key, in declaration order."""

_CATALOG: set[Formula] = set()
"""The catalog's own formulas (sealed once irprops.metrics.catalog is imported): only they skip the agreement check."""


@functools.lru_cache(maxsize=256)
def _reaches_sympy(formula: Formula) -> bool:
    """:func:`~irprops.metrics.strictness.reaches_sympy`, once per formula."""
    return reaches_sympy(formula)


_STRICT_INSIDE: set[Formula] = set()
"""Formulas of irprops' own families whose only code that may compute with SymPy (a weight function) runs strictly
where it is called (:func:`~irprops.metrics.families.weighted_precision`): their exact run needs no strict run around it."""


def strict_inside(formula: Formula) -> Formula:
    """Mark ``formula`` (one of irprops' own families) as running the researcher's code in it strictly itself."""
    _STRICT_INSIDE.add(formula)
    return formula


def in_catalog(formula: Formula) -> bool:
    """Whether ``formula`` is one of the catalog's own (by identity, never by its module's name)."""
    return formula in _CATALOG


def seal_catalog() -> None:
    """Record every formula registered so far as the catalog's (called once, right after the catalog is imported)."""
    if not _CATALOG:
        _CATALOG.update(m.formula for m in REGISTRY.values())


def declare(
    key: str,
    *,
    relevance: Relevance,
    reference: str = "a proposal",
    aliases: tuple[str, ...] = (),
    params: tuple[Param, ...] = (),
    residual: Formula | None = None,
    scale_params: tuple[str, ...] = (),
) -> Callable[[Formula], Formula]:
    """Register ``formula`` as the metric ``key``. Names are matched case-insensitively."""

    def register(formula: Formula) -> Formula:
        metric = Metric(key, formula, relevance, aliases, params, reference, residual, scale_params)
        taken = {name.lower(): m.key for m in REGISTRY.values() for name in m.names}
        for name in metric.names:
            if name.lower() in taken:
                raise ValueError(f"metric name {name!r} of {key} is already used by {taken[name.lower()]} (names match case-insensitively)")
            taken[name.lower()] = key
        REGISTRY[key] = metric
        return formula

    return register


@dataclass(frozen=True)
class Measure:
    """A metric with its parameter values and, optionally, a depth: ``RBP(p=0.5)@10``.

    Without a depth it names the family over k, as the property checkers take it.
    """

    metric: Metric
    params: Mapping[str, Fraction] = field(default_factory=dict)
    k: int | None = None
    rel: Fraction | None = None
    """ir_measures' ``rel=``: grades at or above it count as relevant (1), the others as nonrelevant (0), before scoring."""

    @property
    def name(self) -> str:
        """The canonical name, e.g. ``RBP(p=0.8)@10``, ``AP(rel=1/2)`` or ``SN-DCG``."""
        shown = [f"{p.name}={decimal(self.params[p.name])}" for p in self.metric.params]
        if self.rel is not None:
            shown.append(f"rel={format_grade(self.rel)}")
        return self.metric.key + (f"({','.join(shown)})" if shown else "") + (f"@{self.k}" if self.k is not None else "")

    def at(self, k: int) -> Measure:
        """The same measure at depth ``k``."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise InputError("k", k, "the depth must be an integer >= 1")
        if k > MAX_DEPTH:
            raise InputError("k", k, f"the depth must be at most {MAX_DEPTH:,} (an exact score that deep takes minutes)")
        return Measure(self.metric, self.params, k, self.rel)

    def check(self, situation: Situation) -> Situation:
        """Return the situation this measure scores: ``situation``, with its grades thresholded if ``rel`` is given or the
        metric is binary and the grades are not (then every positive grade counts as relevant, as ir_measures' and
        trec_eval's default relevance level 1 of integer grades does); raise :class:`InputError` at another depth.

        >>> from irprops.metrics import parse
        >>> print(parse("AP(rel=1/2)@3").check(Situation.of("1/2,0,1/4", qrels="1,1/2,1/4")))
        100 at k = 3 with qrels {1,1}
        >>> print(parse("AP@3").check(Situation.of("1/2,0,1/4", qrels="1,1/2,1/4")))
        101 at k = 3 with qrels {1,1,1}
        """
        if self.k is not None and situation.k != self.k:
            raise InputError("k", situation.k, f"{self.name} is evaluated at depth {self.k}")
        if self.rel is not None:
            return thresholded(situation, self.rel)
        if self.metric.binary and not situation.binary:
            return thresholded(situation, None)
        return situation

    def numeric(self, situation: Situation) -> float | Undefined:
        """The numeric form: a float, fast; for display and search, never for verdicts."""
        return self._floats(situation)[0]

    def screen(self, situation: Situation) -> float | Undefined:
        """The numeric form where it can be trusted to say whether the score is defined; else the exact form decides.

        A denominator within rounding of 0 (a normaliser that vanishes at some depth) makes the floats
        unreliable about definedness, so then the exact form is computed: Undefined if it is.
        """
        return self.screen_run(situation)[0]

    def screen_run(self, situation: Situation, reads: list[tuple[Read, object]] | None = None) -> tuple[float | Undefined, bool]:
        """:meth:`screen`, and whether the float run alone gave it (not doubtful, no exact run asked): then it is a
        function of the reads of the situation noted in ``reads``, if given (a :class:`~irprops.metrics.reads.ReadMemo`
        shares it with situations that answer them alike)."""
        value, doubtful, floats_alone = self._floats(situation, reads)
        if doubtful and not isinstance(value, Undefined):
            exact_value = self.exact(situation)
            if isinstance(exact_value, Undefined):
                return exact_value, False
        return value, floats_alone and not doubtful

    def _floats(self, situation: Situation, reads: list[tuple[Read, object]] | None = None) -> tuple[float | Undefined, bool, bool]:
        """The float run, whether it is doubtful and whether the float run alone gave it; where floats fail (an overflow,
        a logarithm of a rounded 0, a SymPy value the formula computes with) or find no value (a denominator 0, which may be
        a number rounded to 0), the exact value, rounded, or Undefined."""
        situation = self.check(situation)
        algebra = FloatAlgebra(situation, self.params) if reads is None else recording(FloatAlgebra)(situation, self.params, reads)
        try:
            value = run(self.metric.formula, algebra)
            if isinstance(value, (float, int)) and not isinstance(value, bool) and math.isfinite(value):
                return (float(value) if isinstance(value, float) else value), algebra.doubtful, True
        except (ArithmeticError, ValueError, TypeError):
            pass  # the exact run decides (and names a genuine failure of the formula)
        # undefined in floats (a 0 that may be a rounded-away number), or no float: the exact run decides
        exact_value = self.exact(situation)
        if isinstance(exact_value, Undefined):
            return exact_value, False, False
        try:
            return exact.to_float(exact_value), False, False
        except OverflowError:
            return (math.inf if exact.sign(exact_value) > 0 else -math.inf), False, False
        except Undecided as why:  # sqrt of a number exactly 0 that no interval shows (a twenty-fourth hostile review)
            raise InputError("formula", self.name, f"at k = {situation.k} its exact value {str(exact_value)[:80]} cannot be "
                             f"rounded to a float ({why})", "write the quantity so that SymPy can simplify it") from None

    def exact(self, situation: Situation, *, reads: list[tuple[Read, object]] | None = None) -> Exact | Undefined:
        """The exact form: a Fraction, or a SymPy expression over exact logarithms.

        With ``reads``, each read of the situation the formula makes is noted there with its answer
        (:class:`~irprops.metrics.reads.ReadMemo` shares the score with situations that answer alike).
        """
        if in_catalog(self.metric.formula) or self.metric.formula in _STRICT_INSIDE or not _reaches_sympy(self.metric.formula):
            value = run(self.metric.formula, self._exact_algebra(situation, reads))
        else:  # strict: a step with no real value leaves the metric without one, whatever the formula does with it next
            steps = Steps()
            try:
                with strict() as steps:
                    value = run(self.metric.formula, self._exact_algebra(situation, reads))
            except (TypeError, ValueError, ArithmeticError):  # SymPy refusing to compare or compute with such a value
                if not steps:
                    raise
            if steps:
                return Undefined(steps[0])
            if steps.undecided:  # neither a value nor none: no verdict may rest on it
                integer = steps.undecided_condition == "integer"  # binomial(c, 2), c within 2^-5000 of 3
                raise InputError("formula", self.name, f"at k = {situation.k}, {steps.undecided[0]}, so the exact run cannot say "
                                 f"whether the metric has a value there (it may be exactly {'an integer' if integer else '0'})",
                                 "write the quantity so that it is visibly an integer, or visibly not one" if integer else
                                 "write the quantity so that it is visibly nonzero or positive, or guard it with m.div(x, d, why)")
        missing = exact.no_value(value)  # SymPy divided by 0 (0 / x at x = 0 is nan), or root(-1, 3) is (-1)**(1/3)
        if missing is not None:
            return Undefined(missing)
        if isinstance(value, sympy.Basic) and not exact.plainly_real(value) and value.free_symbols:  # a formula's own symbol
            raise InputError("formula", self.name, f"at k = {situation.k} its value {str(value)[:80]} is no number: it holds "
                             f"the symbols {', '.join(sorted(map(str, value.free_symbols)))}",
                             "compute with numbers and the algebra's values (m.k, m.R, m.r(i), m.param(name))")
        if isinstance(value, sympy.Basic):
            parts = [a for a in sympy.preorder_traversal(value) if isinstance(a, _DISCONTINUOUS)]
            open_ = next((a for a in parts if isinstance(a, sympy.core.relational.Relational)), parts[0] if parts else None)
            if open_ is not None:  # log2(9) > 2 log2(3): equal numbers, which SymPy cannot order
                shown = exact.show(open_)
                shown = shown if len(shown) <= 120 else f"{shown[:100]}... ({len(shown):,} characters)"
                if isinstance(open_, sympy.core.relational.Relational):
                    raise InputError("formula", self.name, f"at k = {situation.k} it leaves the comparison {shown} open: SymPy "
                                     "cannot decide it, as its two sides may be equal, so the formula has no exact value",
                                     "decide the comparison in the formula (log2(9) is 2 log2(3)), or compare numbers that differ")
                raise InputError("formula", self.name, f"at k = {situation.k} it leaves sympy.{type(open_).__name__} of a number "
                                 f"unevaluated ({shown}): SymPy cannot decide which side of a jump the number is on (it may be "
                                 "exactly an integer, or 0), so the formula has no exact value",
                                 "write the number so that it is visibly an integer or visibly between two integers")
        return value if isinstance(value, Undefined) else exact.as_exact(value)

    def residual(self, situation: Situation) -> Exact | None:
        """The exact residual (score uncertainty) for metrics that declare one, such as RBP."""
        if self.metric.residual is None:
            return None
        return exact.as_exact(run(self.metric.residual, self._exact_algebra(situation)))

    def _exact_algebra(self, situation: Situation, reads: list[tuple[Read, object]] | None = None) -> ExactAlgebra:
        """The exact backend: a declared formula computes with ExactFractions, as in its symbolic runs."""
        algebra = ExactAlgebra if in_catalog(self.metric.formula) else DeclaredExactAlgebra
        if reads is not None:
            return recording(algebra)(self.check(situation), self.params, reads)  # type: ignore[no-any-return]
        return algebra(self.check(situation), self.params)

    def symbolic(self, k: int | None = None) -> SymbolicForm:
        """The SymPy form at a concrete depth: an expression in b_i or r_i, R and parameters.

        A declared (not built-in) formula's form is first compared with its exact form at that depth
        (:func:`~irprops.metrics.agreement.check_depth_agreement`), which raises InputError on a disagreement.
        """
        depth = self.k if k is None else k
        if depth is None:
            raise InputError("k", None, f"{self.name} has no depth", "give k, or use closed_form()")
        algebra = SymbolicAlgebra(depth, self.metric.binary, self._assumptions())
        form = self._form(algebra, depth)
        key = (self.metric.formula, tuple(sorted(self.params.items())), depth)
        if key not in _AGREED_AT and not in_catalog(self.metric.formula):
            check_depth_agreement(self, form, depth)
            _AGREED_AT.add(key)
        return form

    def closed_form(self) -> SymbolicForm | None:
        """The SymPy form for symbolic k (``Sum``/``Product``), or None where none exists.

        A formula that branches on a symbolic value raises
        :class:`~irprops.metrics.tracing.BranchOnSymbol` (its form would not be the metric);
        one that fails in the symbolic backend for another reason has no closed form.
        """
        algebra = ClosedFormAlgebra(self.metric.binary, self._assumptions())
        try:
            form = self._form(algebra, algebra.k_symbol)
        except BranchOnSymbol:
            raise
        except Exception:  # noqa: BLE001 - NotExpressible, or a formula SymPy cannot run: no closed form, no proof
            return None
        return SymbolicForm(**{**form.__dict__, "grade_base": algebra.grades, "qrel_base": algebra.qrel_grades,
                                "mark_base": algebra.marks})

    def reads_unjudged(self) -> bool:
        """Whether the formula reads unjudged marks (``m.unjudged``) at some depth, as its closed form shows; True when it
        has none (then the search covers unjudged documents too, which costs time but never a case).

        >>> from irprops.metrics import parse
        >>> parse("RBP(p=0.8)").reads_unjudged()   # its residual reads them, its score does not
        False
        """
        return self._reads()[0]

    def reads_nonrelevant(self) -> bool:
        """Whether the formula reads N, the collection's judged nonrelevant documents (``m.N``), as its closed form shows;
        True when it has none (then the search gives every situation an N, which costs time but never a case).

        >>> from irprops.metrics import parse
        >>> parse("BPref").reads_nonrelevant(), parse("AP").reads_nonrelevant()
        (True, False)
        """
        return self._reads()[1]

    def _reads(self) -> tuple[bool, bool]:
        """Whether the closed form reads unjudged marks, and whether it reads N (both True when there is none), once per
        formula and parameters."""
        key = (self.metric.formula, tuple(sorted(self.params.items())))
        if key not in _READS:
            try:
                form = self.closed_form()
            except BranchOnSymbol:
                form = None
            _READS[key] = (True, True) if form is None else (form.reads_unjudged, form.nonrelevant is not None)
        return _READS[key]

    def validate_forms(self) -> None:
        """Raise :class:`~irprops.metrics.tracing.BranchOnSymbol` if the formula branches on a symbolic
        rank, depth, grade, R or parameter: its symbolic forms would not be the metric.

        >>> from irprops.metrics import parse
        >>> parse("nDCG").validate_forms()
        """
        if not in_catalog(self.metric.formula):  # a C function or wrapper would run unwatched
            refuse_outside_language("the formula", self.metric.formula, f"the declaration of {self.name}")
        self._check_assumptions()
        forms = [self.closed_form()]
        for depth in (1, 2):
            try:
                forms.append(self.symbolic(depth))
            except BranchOnSymbol:
                raise
            except Exception:  # noqa: BLE001, S112 - no symbolic form at this depth: nothing to validate
                continue
        for form in forms:
            floats = sorted(form.expr.atoms(sympy.Float), key=str) if form is not None else []
            if floats:
                raise InputError("formula", self.name, f"it holds the float {floats[0]}, which exact arithmetic cannot use",
                                 "write exact numbers: sympy.Rational(1, 2), m.num(1) / 2, metrics.exact.log2")
        if not in_catalog(self.metric.formula):  # by identity: a proposal can name its module anything
            key = (self.metric.formula, tuple(sorted(self.params.items())))
            if key not in _AGREED:
                check_agreement(self, forms)
                again, first = self.closed_form(), forms[0]  # after the exact runs: a formula counting its calls shows it
                if (sympy.srepr(again.expr) if again else None) != (sympy.srepr(first.expr) if first else None):
                    raise InputError("formula", self.name, "it gives another closed form when run again, so it keeps state "
                                     "between calls and its closed form need not be the metric", "write a formula without state")
                _AGREED.add(key)

    def residual_closed_form(self) -> sympy.Expr | None:
        """The declared residual for symbolic k on a fully judged ranking (every unjudged mark 0), simplified (RBP:
        ``p**k``), or None for a metric without one.

        >>> from irprops.metrics import parse
        >>> parse("RBP(p=0.8)").residual_closed_form()
        p**k
        """
        if self.metric.residual is None:
            return None
        algebra = ClosedFormAlgebra(self.metric.binary, self._assumptions())
        with guarding():
            residual = sympy.sympify(untrace(self.metric.residual(algebra)))
        judged = residual.replace(lambda e: isinstance(e, sympy.Indexed) and e.base == algebra.marks, lambda e: sympy.Integer(0))
        return sympy.simplify(judged.doit())

    def _check_assumptions(self) -> None:
        """Raise :class:`InputError` if a parameter's value breaks the SymPy assumptions its declaration states: the forms'
        symbols carry them, and SymPy simplifies by them (``floor(p)`` is ``p`` for an integer p)."""
        for param in self.metric.params:
            value = self.params.get(param.name)
            broken = [a for a, flag in param.assumptions.items() if value is not None and
                      getattr(sympy.Rational(value.numerator, value.denominator), f"is_{a}", None) is not flag]
            if broken:
                raise InputError(f"{self.metric.key} parameter {param.name}", format_grade(value),
                                 f"its declaration assumes it is {' and '.join(broken)}, which it is not",
                                 "declare the assumptions its values satisfy")

    def _form(self, algebra: SymbolicAlgebra | ClosedFormAlgebra, k: object) -> SymbolicForm:
        self._check_assumptions()
        with guarding(), recording_divisors() as divisors:
            expr = sympy.sympify(untrace(self.metric.formula(algebra)))
        params = {untrace(algebra.param(name)): value for name, value in self.params.items()}
        # a divisor written with Python's / (not m.div) is a denominator too; one that mentions a summation index, or an
        # argument of a function defined only on part of the numbers (log), must be shown nonzero (positive) by SymPy:
        # otherwise the form cannot say where the metric is undefined, and no proof may rest on it
        outer = {s for s in (k, algebra.R_symbol, N_SYMBOL, *params) if isinstance(s, sympy.Symbol)}
        values = self._proof_values(params)
        recorded = list(algebra.denominators)
        unmodelled = [f"m.div by {d}, which may be 0 at some rank" for d, _ in recorded
                      if not _plain_symbols(d) <= outer and not _holds(d.xreplace(values), "nonzero")]
        for value, condition, construct in divisors:
            try:
                d = sympy.sympify(untrace(value))
            except (sympy.SympifyError, TypeError):
                unmodelled.append(f"{construct} of a value that is not an expression")
                continue
            if _holds(d.xreplace(values), condition):  # log2(max(i, b)) at b = 2 and a concrete rank; log(i + 1)
                continue
            if condition == "nonzero" and _plain_symbols(d) <= outer:  # a condition on the situation: a denominator
                if all(d != known for known, _ in recorded):
                    recorded.append((d, "a denominator is 0"))
            elif _violated(d.xreplace(values), condition):  # binomial(-249, 3) at k = 1: no value at this depth, as in the
                recorded.append((sympy.Integer(0), f"{construct}: {d} is not {condition}"))  # exact run
            else:
                unmodelled.append(f"{construct}: {d} may not be {condition}")
        return SymbolicForm(self.name, k, expr, tuple(recorded), self.metric.binary, algebra.R_symbol, params,
                            reads_unjudged=algebra.reads_unjudged, nonrelevant=N_SYMBOL if algebra.reads_nonrelevant else None,
                            unmodelled=tuple(unmodelled))  # type: ignore[arg-type]

    def _proof_values(self, params: dict[sympy.Basic, Fraction]) -> dict[sympy.Symbol, sympy.Expr]:
        """What each parameter stands for where a condition of the form is checked: its value, or, for one whose proofs
        hold for every value in (0, 1) (declared with that proof interval, its value inside it), 1 / (1 + q) with q > 0, so
        that a condition that holds at the value only is not taken for one that holds over the interval (a sixteenth
        hostile review: a divisor 2 R - floor(4 p), nonzero at p = 1/4 and 0 at p = 1/2 with R = 1, went unrecorded, and
        realizable was "proved" for every p in (0, 1))."""
        declared = {p.name: p for p in self.metric.params}
        values: dict[sympy.Symbol, sympy.Expr] = {}
        for symbol, v in params.items():
            if not isinstance(symbol, sympy.Symbol):
                continue
            param = declared.get(str(symbol))
            if param is not None and param.proof_interval == (0, 1) and 0 < v < 1:
                values[symbol] = 1 / (1 + sympy.Symbol(f"q_{symbol}", positive=True))
            elif param is not None and param.proof_interval == (0, None) and v > 0:
                values[symbol] = sympy.Symbol(f"q_{symbol}", positive=True)  # any positive value, not the one bound
            else:
                values[symbol] = sympy.Rational(v.numerator, v.denominator)
        return values

    def _assumptions(self) -> dict[str, Mapping[str, bool]]:
        return {p.name: p.assumptions for p in self.metric.params}


_DISCONTINUOUS = (sympy.Piecewise, sympy.core.relational.Relational, sympy.logic.boolalg.Boolean, sympy.floor, sympy.ceiling,
                  sympy.sign, sympy.Mod, sympy.KroneckerDelta, sympy.Heaviside)
"""What a number may hold only where SymPy could not decide a comparison (its value jumps where the comparison flips)."""


def _holds(e: sympy.Expr, condition: str) -> bool:
    """Whether SymPy shows ``e`` nonzero, positive or nonnegative for every value of its symbols (by their assumptions)."""
    if condition == "true":
        return e is sympy.true
    if e.is_number and condition in ("nonzero", "positive", "nonnegative"):
        return exact.certainly(e, condition)  # SymPy's assumptions call log2(9) - 2 log2(3) nonzero
    return {"nonzero": e.is_nonzero, "positive": e.is_positive, "nonnegative": e.is_nonnegative,
            "integer": e.is_integer}[condition] is True


def _violated(e: sympy.Expr, condition: str) -> bool:
    """Whether ``e`` certainly breaks ``condition`` (a logarithm of -3, a binomial with top argument -249), decided as the
    strict exact run decides it (:func:`~irprops.metrics.exact.breaks`)."""
    try:
        return (condition == "true" or e.is_number) and exact.breaks(e, condition) is True
    except (sympy.SympifyError, TypeError, ValueError, AttributeError):
        return False


def _plain_symbols(e: sympy.Expr) -> set[sympy.Symbol]:
    """The free symbols of ``e`` other than grade sequences (``b`` in ``b[i]``) and their entries."""
    labels = {base.label for base in e.atoms(sympy.IndexedBase)}
    return {s for s in e.free_symbols if isinstance(s, sympy.Symbol) and s not in labels}


MAX_DEPTH = 100_000
"""The deepest k a measure is evaluated at (P@1000000 took 2 s, P@100000000 minutes)."""

_READS: dict[tuple[object, ...], tuple[bool, bool]] = {}
"""Whether each formula (with its parameters) reads unjudged marks, and N, by its closed form."""

_AGREED: set[tuple[object, ...]] = set()
"""Declared formulas (with their parameters) whose forms were found to agree, so each is checked once."""

_AGREED_AT: set[tuple[object, ...]] = set()
"""Declared formulas (with their parameters) and depths whose form at that depth was found to agree with the exact form."""


def thresholded(situation: Situation, rel: Fraction | None) -> Situation:
    """``situation`` with grades >= ``rel`` (with None: > 0) made 1 and the others 0; unjudged documents stay unjudged, and
    the relevant documents below ``rel`` join the judged nonrelevant ones (N, where given), as in trec_eval's num_nonrel.

    >>> print(thresholded(Situation.of("1,1/2,0", qrels="1,1/2,1/2", N=1), Fraction(1)))
    100 at k = 3 with qrels {1} and N = 3
    """
    one, zero = Fraction(1), Fraction(0)
    ranking = tuple(None if g is None else (one if (g >= rel if rel is not None else g > 0) else zero) for g in situation.ranking)
    kept = tuple(one for g in situation.qrels if (g >= rel if rel is not None else True))
    N = None if situation.nonrelevant is None else situation.nonrelevant + len(situation.qrels) - len(kept)
    return Situation.unchecked(ranking, situation.k, kept, N)


def decimal(value: Fraction) -> str:
    """``0.8`` for 4/5 when the decimal terminates, else ``1/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    for prime in (2, 5):
        while d % prime == 0:
            d //= prime
    if d == 1:
        text = f"{float(value)!r}"
        if Fraction(text) == value:
            return text
    return str(value)
