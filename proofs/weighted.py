"""All-k proofs for weighted sums: score = c * sum_{i<=U} w(i) x_i / N.

Each property reduces to facts about the weight function w (SymPy, see
:mod:`proofs.signs`), a term-level lemma (Z3, see :mod:`proofs.termwise`), and where the
normaliser N stands: N is unchanged by a swap inside the top k for every kind; by a swap
that brings a document in from below k unless N is the self ideal; and by extending k
only when N is 1 or R.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy

from irprops.metrics import Situation, Undefined, compare
from irprops.metrics.exact import show, to_float, to_str
from irprops.verdicts import Prop, Witness, grades_json

from . import gains, signs, termwise, weightfacts
from .lemma import ALL_K, Failed, Lemma, Proof, Prover, z3_lemma
from .smt import Discharged
from .structure import Prepared, WeightedSum

GRADES = "grades lie in [0, 1] (the situation model)"
CONSISTENT = "the relevant documents of the top k are among the R relevant documents (the situation model)"
FRAME = "frame: a swap, an extension or a substitution changes a sum of per-rank terms only in the terms it touches"
SUMS = "termwise inequalities add up over the ranks"
SYMPY = "SymPy's sign determination, summation and limits (computations, not proofs)"
CLOSED = "the closed form is the metric's own (generated from its one declaration, tested against the exact form)"
MVT = ("mean value theorem: a negative derivative on [1, oo) makes w strictly decreasing on the ranks, "
       "and transitivity gives w(i) > w(j) for i < j")
TRANSITIVE = "transitivity: w(i) > w(i + 1) for every rank i gives w(i) > w(j) for i < j"
REARRANGE = "rearrangement by adjacent exchanges (bubble sort): grades in decreasing order maximise a sum with nonincreasing weights"
DOMINANCE = "the i-th largest grade of a sub-multiset is at most the i-th largest grade of the whole multiset"
UNBOUNDED_AT = Fraction(10)
UNBOUNDED_BOUNDS = (UNBOUNDED_AT, Fraction(5), Fraction(3), Fraction(2))
"""The bounds an unboundedness witness tries to exceed, in order (the first one reached within EXCEEDING_DEPTH)."""
EXCEEDING_DEPTH = 2048
"""The deepest all-relevant ranking an unboundedness witness looks at (slowly divergent weights, such as 1/i, need 12,367 ranks for 10)."""


def certificate_dir(p: Prepared) -> str:
    """Where a measure's certificates go: its key, plus any parameter fixed by the proof."""
    fixed = "".join(f"_{s}={v}" for s, v in p.form.params.items() if s not in p.open)
    return "".join(ch if ch.isalnum() or ch in "-_=." else "_" for ch in p.measure.metric.key + fixed)


class WeightedProver(Prover):
    """Lemma chains for one measure whose closed form is a weighted sum."""

    kind = "weighted-sum"

    def __init__(self, p: Prepared, ws: WeightedSum) -> None:
        self.p, self.ws = p, ws
        self.w = signs.Weight(ws.weight, ws.index, p.open_unit)
        self.structure = Lemma("form", ws.describe(p) + (f", for {p.reach_of_parameters()}" if p.reach_of_parameters() else ""),
                               "structure")

    # -- lemmas -----------------------------------------------------------------------

    def _z3(self, prop: Prop, name: str, lemma: Callable[[str, dict[str, str]], Discharged], statement: str) -> Lemma | Failed:
        header = {"metric": self.p.measure.name, "property": prop, "reach": "all k", "lemma": name, "form": self.ws.describe(self.p)}
        done = lemma(f"{certificate_dir(self.p)}/{prop}--{name}.smt2", header)
        if not done.proved:
            return Failed(prop, f"lemma {name}: {done.failure()}")
        self._done.append(done)
        return z3_lemma(name, statement, done)

    def _certified(self, prop: Prop, fact: str, weight: sympy.Expr, name: str, statement: str) -> Lemma | Failed | None:
        """The fact as a certificate about this metric's weight function (see :mod:`proofs.weightfacts`); Failed when
        Z3 finds a rank where it is false (no other method may then prove it); None when it cannot be written for Z3."""
        slug = {"w>0": "w-positive", "w>=0": "w-nonnegative", "w<=1": "w-at-most-1"}.get(name, name.replace(" ", "-"))
        header = {"metric": self.p.measure.name, "property": prop, "reach": "all k", "lemma": name}
        try:
            done = weightfacts.certify(f"{certificate_dir(self.p)}/{prop}--{slug}.smt2", header, weight, self.ws.index, fact,
                                       self.p.open_unit)
        except NotImplementedError:  # logarithms or powers of the rank: the fact stays a SymPy computation
            return None
        if "sat" in done.statuses:
            return Failed(prop, f"Z3 finds a rank where {statement} is false")
        if not done.proved:
            return None
        self._done.append(done)
        return z3_lemma(name, f"{statement} (written out from the closed form)", done)

    def _weight(self, prop: Prop, fact: str) -> Lemma | Failed:
        w = self.w
        checks = {
            "w >= 0": (signs.nonnegative, f"w(i) = {self.ws.weight} >= 0 for every rank i >= 1"),
            "w > 0": (signs.positive, f"w(i) = {self.ws.weight} > 0 for every rank i >= 1"),
            "w <= 1": (signs.at_most_one, f"w(i) = {self.ws.weight} <= 1 for every rank i >= 1"),
        }
        if fact in checks or fact == "w decreasing":
            name = "weights decrease" if fact == "w decreasing" else fact.replace(" ", "")
            statement = f"w(i) = {self.ws.weight} > w(i + 1) for every rank i >= 1" if fact == "w decreasing" else checks[fact][1]
            certified = self._certified(prop, fact, self.ws.weight, name, statement)
            if certified is not None:
                return certified
        if fact == "w decreasing":
            how = signs.decreasing(w)
            return (Lemma("weights decrease", f"w(i) > w(i + 1) for every rank i >= 1: {how}", "SymPy") if how
                    else Failed(prop, f"cannot show w(i) = {self.ws.weight} strictly decreasing"))
        if fact == "w nonincreasing":
            if signs.constant(w):
                return Lemma("weights constant", f"w(i) = {self.ws.weight} for every rank", "SymPy")
            return self._weight(prop, "w decreasing")
        if fact == "c > 0":
            scale = self.ws.scale.subs(w.substitution())
            return (Lemma("scale positive", f"c = {self.ws.scale} > 0", "SymPy") if signs.is_positive(scale)
                    else Failed(prop, f"cannot show the scale {self.ws.scale} positive"))
        check, statement = checks[fact]
        return Lemma(fact.replace(" ", ""), statement, "SymPy") if check(w) else Failed(prop, f"cannot show {statement}")

    def _gain(self, prop: Prop) -> Lemma | Failed:
        """f(0) = 0 and f(1) = 1 (by its recognition), and f strictly increasing on [0, 1] (SymPy)."""
        f = self.ws.gain
        assert f is not None
        how = gains.increasing(f)
        if how is None:
            return Failed(prop, f"cannot show the gain f(x) = {show(f)} strictly increasing on [0, 1]")
        return Lemma("gain", f"f(x) = {show(f)} has f(0) = 0, f(1) = 1, and {how}; f is continuous, so it is strictly "
                     "increasing on [0, 1], and the gains f(x_i) are grades of a situation: the lemmas below hold of them",
                     "SymPy")

    def _normaliser_positive(self, prop: Prop) -> Lemma | Failed:
        """N > 0 wherever the score is defined: every weight of the normaliser is positive (SymPy), for every rank."""
        v = self.ws.normaliser_weight
        assert v is not None  # the kinds with a weighted normaliser
        shown = show(v.xreplace({self.ws.index: sympy.Symbol("j")}))
        statement = (f"v(j) = {shown} > 0 for every rank j >= 1, so N > 0 wherever the score is defined "
                     "(N has at least one term with a positive grade)")
        certified = self._certified(prop, "w > 0", v, "normaliser positive", statement)
        if certified is not None:
            return certified
        if signs.positive(signs.Weight(v, self.ws.index, self.p.open_unit)):
            return Lemma("normaliser positive", statement, "SymPy")
        return Failed(prop, f"cannot show the normaliser's weights v(j) = {shown} positive for every rank j >= 1, "
                            "so c / N > 0 is not established")

    def _chain(self, prop: Prop, steps: list[Callable[[], Lemma | Failed]], trusted: list[str], conclusion: str = "yes",
               witness: Witness | None = None) -> Proof | Failed:
        self._done: list[Discharged] = []
        lemmas = [self.structure]
        if self.ws.normaliser in ("weights", "ideal", "self"):  # every lemma below divides by N: its sign is proved, not assumed
            steps = [lambda: self._normaliser_positive(prop), *steps]
        if self.ws.gain is not None:  # the lemmas are stated for grades: they hold of the gains once f is shown to keep them grades
            steps, trusted = [lambda: self._gain(prop), *steps], [*trusted, gains.GAIN]
        for step in steps:
            found = step()
            if isinstance(found, Failed):
                return found
            lemmas.append(found)
        decrease = next((lemma for lemma in lemmas if lemma.name == "weights decrease"), None)
        if decrease is not None and decrease.method != "SymPy":  # certified rank by rank: transitivity, not the mean value theorem
            trusted = [TRANSITIVE if t == MVT else t for t in trusted]
        base = [CLOSED, *trusted] + ([SYMPY] if any(lemma.method == "SymPy" for lemma in lemmas) else [])
        return Proof(prop, conclusion, ALL_K, tuple(lemmas), tuple(dict.fromkeys(base)), tuple(d.obligation for d in self._done), witness)  # type: ignore[arg-type]

    # -- properties -------------------------------------------------------------------

    def monotonic(self) -> Proof | Failed:
        if self.ws.normaliser not in ("none", "relevant") or self.ws.upper != self.p.k:
            return Failed(Prop.MONOTONIC, "the normaliser or the summation range changes with k")
        return self._chain(Prop.MONOTONIC, [
            lambda: self._weight(Prop.MONOTONIC, "w >= 0"),
            lambda: self._weight(Prop.MONOTONIC, "c > 0"),
            lambda: self._z3(Prop.MONOTONIC, "extension", termwise.extend,
                             "the score at k + 1 adds (c / N) w(k + 1) x_{k+1} >= 0 to the score at k "
                             "(N does not depend on k, and c / N > 0)"),
        ], [GRADES, FRAME])

    def convergent(self) -> Proof | Failed:
        if self.ws.upper != self.p.k or self.ws.normaliser == "self":
            return Failed(Prop.CONVERGENT, "the normaliser or the range depends on which documents are in the top k")
        return self._chain(Prop.CONVERGENT, [
            lambda: self._weight(Prop.CONVERGENT, "w > 0"),
            lambda: self._weight(Prop.CONVERGENT, "c > 0"),
            lambda: self._z3(Prop.CONVERGENT, "bring-in", termwise.bring_in,
                             "a better document swapped in at rank i <= k raises (c / N) w(i) x_i; "
                             "nothing else in the top k changes, nor N (c / N > 0)"),
        ], [GRADES, FRAME])

    def top_weighted(self) -> Proof | Failed:
        if self.ws.upper != self.p.k:
            return Failed(Prop.TOP_WEIGHTED, "the summation range is not the top k")
        return self._chain(Prop.TOP_WEIGHTED, [
            lambda: self._weight(Prop.TOP_WEIGHTED, "w decreasing"),
            lambda: self._weight(Prop.TOP_WEIGHTED, "w >= 0"),
            lambda: self._weight(Prop.TOP_WEIGHTED, "c > 0"),
            lambda: self._z3(Prop.TOP_WEIGHTED, "swap", termwise.swap,
                             "exchanging grades x_i < x_j at ranks i < j <= k raises (c / N) (w(i) x_i + w(j) x_j); "
                             "N is unchanged (c / N > 0)"),
        ], [GRADES, FRAME, MVT])

    def bounded(self) -> Proof | Failed:
        found = self._bounded()
        if not isinstance(found, Proof) or found.conclusion != "yes" or found.scores is not None:
            return found
        return found.stating(sympy.Integer(0), self._valued(self.ws.scale))

    def _valued(self, bound: sympy.Expr | None) -> sympy.Expr | None:
        """``bound`` with the measure's parameter values, if that makes it a number (else None: no stated bound)."""
        if bound is None:
            return None
        values = {s: sympy.Rational(v.numerator, v.denominator) for s, v in self.p.form.params.items()}
        valued = sympy.sympify(bound).xreplace(values)
        return valued if valued.is_number else None

    def _bounded(self) -> Proof | Failed:
        kind = self.ws.normaliser
        if kind == "none":
            return self._bounded_by_series()
        if kind == "weights" and self.ws.same_weights():
            return self._chain(Prop.BOUNDED, [
                lambda: self._weight(Prop.BOUNDED, "w >= 0"),
                lambda: self._weight(Prop.BOUNDED, "c > 0"),
                lambda: self._z3(Prop.BOUNDED, "termwise", termwise.termwise,
                                 f"0 <= w(i) x_i <= w(i), so 0 <= score <= c = {self.ws.scale} (N is the sum of the same weights)"),
            ], [GRADES, SUMS])
        if kind == "relevant":
            return self._chain(Prop.BOUNDED, [
                lambda: self._weight(Prop.BOUNDED, "w >= 0"),
                lambda: self._weight(Prop.BOUNDED, "w <= 1"),
                lambda: self._weight(Prop.BOUNDED, "c > 0"),
                lambda: self._z3(Prop.BOUNDED, "count", termwise.count,
                                 f"w(i) x_i <= x_i, and the x_i of the top k add up to at most R, so 0 <= score <= c = {self.ws.scale}"),
            ], [GRADES, SUMS, CONSISTENT])
        if kind in ("ideal", "self") and self.ws.same_weights():
            return self._chain(Prop.BOUNDED, [
                lambda: self._weight(Prop.BOUNDED, "w >= 0"),
                lambda: self._weight(Prop.BOUNDED, "w nonincreasing"),
                lambda: self._weight(Prop.BOUNDED, "c > 0"),
                lambda: self._z3(Prop.BOUNDED, "exchange", termwise.exchange,
                                 "moving the larger grade to the rank of larger weight never lowers the sum"),
                lambda: self._z3(Prop.BOUNDED, "dominance", termwise.dominance,
                                 "so the sum is at most the sum over the grades sorted decreasingly, which is at most N: "
                                 f"0 <= score <= c = {self.ws.scale}"),
            ], [GRADES, SUMS, REARRANGE, DOMINANCE] + ([CONSISTENT] if kind == "ideal" else []))
        return Failed(Prop.BOUNDED, f"no bound for a {kind} normaliser with these weights")

    def _bounded_by_series(self) -> Proof | Failed:
        if not signs.nonnegative(self.w):
            return Failed(Prop.BOUNDED, "cannot show the weights nonnegative")
        found = signs.series(self.w)
        if found.bounded is None:
            return Failed(Prop.BOUNDED, found.how)
        series = Lemma("weight sums", found.how, "SymPy")
        if found.bounded:
            bound = f"c * {found.bound}" if found.bound is not None else "c times the sum of the series"
            proved = self._chain(Prop.BOUNDED, [
                lambda: self._weight(Prop.BOUNDED, "w >= 0"),
                lambda: self._weight(Prop.BOUNDED, "c > 0"),
                lambda: series,
                lambda: self._z3(Prop.BOUNDED, "termwise", termwise.termwise,
                                 f"0 <= w(i) x_i <= w(i), so 0 <= score <= c * sum_{{i<=k}} w(i) <= {bound}"),
            ], [GRADES, SUMS])
            high = self._valued(self.ws.scale * self.w.unsubstituted(found.bound)) if found.bound is not None else None
            return proved.stating(sympy.Integer(0), high) if isinstance(proved, Proof) else proved
        exceeded = next(((bound, w) for bound in UNBOUNDED_BOUNDS if (w := self._exceeding(bound)) is not None), None)
        if exceeded is None:
            return Failed(Prop.BOUNDED, f"the weights' sum diverges but no all-relevant ranking of depth <= {EXCEEDING_DEPTH} "
                                        f"exceeds {UNBOUNDED_BOUNDS[-1]}")
        at, witness = exceeded
        return self._chain(Prop.BOUNDED, [
            lambda: self._weight(Prop.BOUNDED, "w >= 0"),
            lambda: self._weight(Prop.BOUNDED, "c > 0"),
            lambda: series,
            lambda: Lemma("all relevant", f"the all-relevant ranking scores c * sum_{{i<=k}} w(i) at depth k, "
                          f"which exceeds any bound M for k large enough; for M = {at}: {witness.text}", "exact arithmetic"),
        ], [], conclusion="no", witness=witness)

    def _all_relevant(self, k: int) -> float:
        """The all-relevant ranking's score at depth k as a float (only to find a depth: the witness is exact); -inf where the
        metric is undefined, so that no depth is taken for one exceeding a bound there."""
        value = self.p.measure.numeric(Situation.unchecked((Fraction(1),) * k, k, (Fraction(1),) * k))
        return value if isinstance(value, float) else float("-inf")

    def _exceeding(self, bound: Fraction) -> Witness | None:
        """The shallowest all-relevant ranking of depth <= EXCEEDING_DEPTH whose score exceeds ``bound``, certified exactly.

        The depth is found by doubling then bisection on the floats (the scores grow with k: w >= 0), and certified exactly.
        """
        k = 1
        while self._all_relevant(k) <= float(bound) * 1.001:
            if k >= EXCEEDING_DEPTH:
                return None
            k = min(2 * k, EXCEEDING_DEPTH)
        low = k // 2
        while k - low > 1:
            middle = (low + k) // 2
            low, k = (low, middle) if self._all_relevant(middle) > float(bound) * 1.001 else (middle, k)
        for depth in range(max(1, k - 5), k + 1):
            s = Situation((Fraction(1),) * depth, depth, (Fraction(1),) * depth)
            value = self.p.measure.exact(s)
            if not isinstance(value, Undefined) and compare(value, bound) > 0:
                data = {"k": depth, "ranking": grades_json(s.ranking), "qrels": grades_json(s.qrels), "bound": str(bound),
                        "value": to_str(value)}  # type: ignore[arg-type]
                return Witness(data, f"the all-relevant ranking of depth {depth} scores {to_float(value):.6g} > {bound} "  # type: ignore[arg-type]
                               "(exactly, by interval arithmetic)")
        return None

    def realizable(self) -> Proof | Failed:
        kind, same = self.ws.normaliser, self.ws.same_weights()
        reaches = {
            "ideal": "the ideal arrangement (qrels sorted by grade) makes the numerator equal N, so it scores c",
            "self": "any arrangement whose top k is sorted by grade makes the numerator equal N, so it scores c",
        }
        if kind in reaches and same:
            reach = reaches[kind]
        elif kind == "weights" and same and self.ws.upper == sympy.Min(self.p.R, self.p.k) and self.p.binary:
            # binary: every relevant document has grade 1, so they fill the counted ranks with 1s
            reach = ("ranking the relevant documents (all of grade 1) first fills all min(R, k) counted ranks, "
                     "so the numerator equals N and the score is c")
        else:
            return Failed(Prop.REALIZABLE, "no arrangement is known to reach the bound for every k and R")
        bound = self.bounded()
        if isinstance(bound, Failed):
            return Failed(Prop.REALIZABLE, f"no bound: {bound.reason}")
        proof = self._chain(Prop.REALIZABLE, [
            lambda: self._weight(Prop.REALIZABLE, "w > 0"),
            lambda: Lemma("ideal", f"{reach}; N > 0 since the first weight is positive and the top grade is 1", "structure"),
        ], [])
        if isinstance(proof, Failed):
            return proof
        upper = Lemma("bound", f"the score is at most c = {self.ws.scale} on every situation (the boundedness proof below), "
                      "so c is the supremum and it is reached at every depth k", "structure")
        shown = {(lemma.name, lemma.statement) for lemma in proof.lemmas}
        from_bound = tuple(lemma for lemma in bound.lemmas[1:] if (lemma.name, lemma.statement) not in shown)
        return Proof(Prop.REALIZABLE, "yes", ALL_K, proof.lemmas + (upper,) + from_bound,
                     tuple(dict.fromkeys(proof.trusted + bound.trusted)), proof.obligations + bound.obligations)
