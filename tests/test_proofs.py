"""The proof layer: its encodings compute the metrics, its proofs fail on mutants, its certificates are current.

A proof is only as good as its link to the metric: the recognised weighted sums, the
extracted fold programs and their Z3 encodings are each evaluated on concrete situations
and must score exactly what the metric's exact form scores.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from irprops import check
from irprops.metrics import REGISTRY, Measure, Metric, Situation, Undefined, compare
from irprops.metrics.algebra import Algebra
from irprops.metrics.exact import as_exact, log2
from irprops.metrics.strategies import situations
from irprops.proofs import Failed, Proof, prove
from irprops.proofs.foldproofs import FoldProver
from irprops.proofs.folds import extract
from irprops.proofs.gains import X
from irprops.proofs.induction import Machine
from irprops.proofs.smt import Obligation, Query, discharge
from irprops.proofs.structure import prepare, weighted_sum
from irprops.properties.reference import TABLE_2
from irprops.verdicts import CrossCheck
from tests.helpers import default_measure

WEIGHTED = [key for key in REGISTRY if weighted_sum(prepare(default_measure(key))) is not None]
FOLDS = [key for key in REGISTRY
         if extract(prepare(default_measure(key))) is not None and weighted_sum(prepare(default_measure(key))) is None]


def _params(p) -> dict:  # type: ignore[no-untyped-def]
    return {s: sympy.Rational(v.numerator, v.denominator) for s, v in p.form.params.items()}


def _rational(q: Fraction) -> sympy.Rational:
    return sympy.Rational(q.numerator, q.denominator)


class TestTheRecognisedStructureIsTheMetric:
    def test_structures_are_found_for_the_metrics_the_proofs_need(self) -> None:
        assert set(WEIGHTED) >= {"P", "Recall", "RPrec", "DCG", "SDCG", "NDCG", "SN-DCG", "RBP"}
        assert set(FOLDS) >= {"RR", "HIT", "AP", "SP", "SN-AP"}

    @pytest.mark.parametrize("key", WEIGHTED)
    @settings(max_examples=25)
    @given(data=st.data())
    def test_the_weighted_sum_scores_like_the_metric(self, key: str, data: st.DataObject) -> None:
        measure = default_measure(key)
        p = prepare(measure)
        ws = weighted_sum(p)
        s = data.draw(situations(measure.metric.binary, max_length=6))
        expected = measure.exact(s)
        values = {**_params(p), p.R: s.R}
        upper = int(ws.upper.xreplace({p.k: s.k, p.R: s.R}))
        gain = (lambda x: x) if ws.gain is None else (lambda x: ws.gain.xreplace({X: x}))  # the sum is over f(x_i) where f is its gain
        numerator = sum((ws.weight.xreplace({ws.index: i, **values}) * gain(_rational(s.grade(i))) for i in range(1, upper + 1)),
                        sympy.Integer(0))
        grades_by = {"ideal": list(s.qrels) + [Fraction(0)] * s.k, "self": sorted((s.grade(i) for i in range(1, s.k + 1)), reverse=True)}
        if ws.normaliser == "none":
            normaliser = sympy.Integer(1)
        elif ws.normaliser == "relevant":
            normaliser = sympy.Integer(s.R)
        else:
            top = int(ws.normaliser_upper.xreplace({p.k: s.k, p.R: s.R}))
            grade = (lambda i: 1) if ws.normaliser == "weights" else (lambda i: gain(_rational(grades_by[ws.normaliser][i - 1])))
            normaliser = sum((ws.normaliser_weight.xreplace({ws.index: i, **values}) * grade(i) for i in range(1, top + 1)),
                             sympy.Integer(0))
        if isinstance(expected, Undefined):
            assert normaliser == 0
        else:
            assert compare(as_exact(ws.scale.xreplace(values) * numerator / normaliser), expected) == 0


class TestTheFoldIsTheMetric:
    @pytest.mark.parametrize("key", FOLDS)
    @settings(max_examples=40)
    @given(data=st.data())
    def test_running_the_fold_scores_like_the_metric(self, key: str, data: st.DataObject) -> None:
        measure = default_measure(key)
        p = prepare(measure)
        s = data.draw(situations(measure.metric.binary, max_length=7, unjudged=measure.reads_unjudged(),
                                 nonrelevant=measure.reads_nonrelevant()))
        expected, got = measure.exact(s), extract(p).run(s, p.k, p.R, _params(p))
        assert (got is None) if isinstance(expected, Undefined) else compare(got, expected) == 0

    @pytest.mark.parametrize("key", FOLDS)
    @settings(max_examples=25)
    @given(data=st.data())
    def test_the_z3_encoding_of_the_fold_scores_like_the_metric(self, key: str, data: st.DataObject) -> None:
        measure = default_measure(key)
        p = prepare(measure)
        machine = Machine(extract(p), p.open_unit, p.k, p.R, p.open_positive)
        s = data.draw(situations(measure.metric.binary, max_length=7, unjudged=measure.reads_unjudged(),
                                 nonrelevant=measure.reads_nonrelevant()))
        state = machine.initial()
        upper = s.k if machine.fold.upper == p.k else min(s.k, s.R)
        # the parameters the proofs keep open, and the ideal grade each step reads, at their values in this situation
        known = [(v, z3.RealVal(str(_params(p)[symbol]))) for symbol, v in machine.params.items()]
        known.append((z3.Int("R"), z3.IntVal(s.R)))  # the constant a step that reads R shares (BPref's min(n, R))
        if s.nonrelevant is not None:
            known.append((z3.Int("N"), z3.IntVal(s.nonrelevant)))
        for i in range(1, upper + 1):
            grade = s.grade(i)
            mark = z3.IntVal(int(s.unjudged(i))) if machine.fold.reads_marks() else None
            state, _ = machine.step(state, z3.IntVal(int(grade)) if machine.fold.binary else z3.RealVal(str(grade)), z3.IntVal(i), mark)
            known.append((z3.Real(f"G[{i}]"), z3.RealVal(str(s.qrels[i - 1] if i <= s.R else 0))))
        out, guards = machine.output(state, z3.IntVal(s.k), z3.IntVal(s.R))
        out, guards = z3.substitute(out, *known), [z3.substitute(g, *known) for g in guards]
        expected = measure.exact(s)
        defined = all(z3.is_true(z3.simplify(g)) for g in guards)
        assert defined == (not isinstance(expected, Undefined))
        if defined:
            value = z3.simplify(out)
            assert Fraction(value.as_fraction()) == expected


class TestTheBoundedEncodingIsTheMetric:
    @pytest.mark.parametrize("key", ["AP", "RR", "NDCG", "SN-DCG", "DCG-b", "RBP", "HIT"])
    @settings(max_examples=12)
    @given(data=st.data())
    def test_the_z3_encoding_at_depth_k_scores_like_the_metric(self, key: str, data: st.DataObject) -> None:
        from irprops.metrics.exact import to_float
        from irprops.proofs.bounded import _Depth
        from irprops.proofs.smt import conj

        measure = default_measure(key)
        p = prepare(measure)
        s = data.draw(situations(measure.metric.binary, max_length=5))
        form = measure.symbolic(s.k)
        fixed = {x: _rational(v) for x, v in p.form.params.items() if x not in p.open_unit}
        depth = _Depth(measure, fixed, p.open_unit)
        term, defined = depth.encode(form.expr)
        pinned = []
        for symbol in (form.expr.free_symbols | {x for d, _ in form.denominators for x in d.free_symbols}) - set(fixed):
            name, _, index = str(symbol).partition("_")
            value = {"b": lambda i: s.grade(i), "r": lambda i: s.grade(i),
                     "g": lambda i: s.qrels[i - 1] if i <= s.R else Fraction(1)}.get(name)
            if value is not None:
                pinned.append(depth.var(symbol) == z3.RealVal(str(value(int(index)))))
            elif name == "R":
                pinned.append(depth.var(symbol) == s.R)
            else:
                pinned.append(depth.var(symbol) == z3.RealVal(str(p.form.params[symbol])))
        solver = z3.Solver()
        solver.add(*pinned)
        expected = measure.exact(s)
        if isinstance(expected, Undefined):
            return  # the encoding may give such a situation a value: a comparison proved there too proves more, not less
        solver.add(conj(defined))
        assert solver.check() == z3.sat  # a situation where the metric has a value is never left out of a query
        solver.add(z3.Or(term - to_float(expected) > 1e-9, term - to_float(expected) < -1e-9))
        assert solver.check() == z3.unsat  # and the encoding scores it as the metric does


class TestMutantsLoseTheirProofsAndTheSearchFindsWhy:
    """Change a metric slightly: the proof of the affected cell must fail, and search must refute it."""

    @staticmethod
    def mutant(formula, relevance: str = "graded") -> Measure:  # type: ignore[no-untyped-def]
        return Measure(Metric(f"mutant-{formula.__name__}", formula, relevance, (), (), "a test mutant"), {})  # type: ignore[arg-type]

    def test_increasing_weights_are_not_top_weighted(self) -> None:
        def increasing_dcg(m: Algebra) -> object:
            return m.sum(1, m.k, lambda i: m.r(i) * m.log2(i + 1))

        measure = self.mutant(increasing_dcg)
        assert isinstance(prove(measure, "top_weighted"), Failed)
        verdict = check(measure, ["top_weighted"])["top_weighted"]
        assert verdict.verdict == "no" and verdict.witness.data["k"] == 2

    def test_dropping_a_normaliser_loses_boundedness(self) -> None:
        def unnormalised_sdcg(m: Algebra) -> object:
            return m.sum(1, m.k, lambda i: m.r(i) / m.log2(i + 1))

        assert prove(default_measure("SDCG"), "bounded").conclusion == "yes"  # type: ignore[union-attr]
        assert prove(self.mutant(unnormalised_sdcg), "bounded").conclusion == "no"  # type: ignore[union-attr]

    def test_normalising_by_r_loses_localization(self) -> None:
        def dcg_over_r(m: Algebra) -> object:
            return m.div(m.sum(1, m.k, lambda i: m.r(i) / m.log2(i + 1)), m.R, "R = 0")

        measure = self.mutant(dcg_over_r)
        assert isinstance(prove(measure, "localized"), Failed) and isinstance(prove(measure, "complete"), Failed)
        assert check(measure, ["localized"])["localized"].verdict == "no"

    def test_a_fold_that_counts_the_current_rank_late_keeps_its_proofs_only_where_true(self) -> None:
        def ap_late(m: Algebra) -> object:  # precision before the current rank: a mutant of AP
            found = m.prefix_sum(m.r)
            return m.div(m.sum(1, m.k, lambda i: m.r(i) * found(i - 1) / i), m.R, "R = 0")

        measure = self.mutant(ap_late, "binary")
        results = {p: prove(measure, p) for p in ("monotonic", "realizable")}
        assert isinstance(results["monotonic"], Proof) and isinstance(results["realizable"], Failed)
        assert check(measure, ["realizable"])["realizable"].verdict == "no"

    def test_graded_r_precision_is_not_realizable_and_gets_no_proof(self) -> None:
        def graded_rprec(m: Algebra) -> object:  # graded grades: half-relevant documents cannot fill the ranks
            depth = m.min(m.k, m.R)
            return m.div(m.sum(1, depth, m.r), depth, "R = 0")

        measure = self.mutant(graded_rprec)
        assert prove(default_measure("RPrec"), "realizable").conclusion == "yes"  # type: ignore[union-attr]
        assert isinstance(prove(measure, "realizable"), Failed)
        assert check(measure, ["realizable"])["realizable"].verdict == "no"

    def test_a_weak_inequality_for_a_strict_one_breaks_the_swap_lemma(self) -> None:
        x, y, w, v, s = z3.Reals("x y w v s")
        ob = Obligation("mutant.smt2", {"proves": "swap with w_i >= w_j"})
        for name, f in [("x < y", x < y), ("w_i >= w_j (mutant of >)", w >= v), ("w_j >= 0", v >= 0), ("s > 0", s > 0)]:
            ob.assume(name, f)
        ob.ask("strict rise", s * (w * y + v * x) <= s * (w * x + v * y))
        assert discharge(ob).statuses == ("sat",)


class TestVacuousQueriesProveNothing:
    def test_a_query_whose_hypotheses_contradict_each_other_is_vacuous_not_proved(self) -> None:
        x = z3.Real("x")
        ob = Obligation("t/vacuous.smt2", {}, [("x > 1", x > 1), ("x < 0", x < 0)], [Query("x = 5", z3.Not(x == 5))])
        assert discharge(ob).statuses == ("vacuous",) and not discharge(ob).proved

    def test_a_query_that_needs_its_claim_is_proved_and_its_core_names_only_hypotheses(self) -> None:
        x = z3.Real("x")
        ob = Obligation("t/proved.smt2", {}, [("x > 1", x > 1), ("unused", z3.Real("y") > 0)], [Query("x > 0", z3.Not(x > 0))])
        done = discharge(ob)
        assert done.proved and done.used == ("x > 1",)

    def test_the_conflict_form_whose_claim_is_false_is_proved_by_its_hypotheses_alone(self) -> None:
        x = z3.Real("x")
        ob = Obligation("t/conflict.smt2", {}, [("x > 1", x > 1), ("x < 0", x < 0)], [Query("no model", z3.BoolVal(True))])
        assert discharge(ob).proved


class TestProofsAreHonest:
    def test_a_cell_whose_certificate_cvc5_refutes_is_unknown_and_flagged(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops import checking

        disputed = CrossCheck("disagreement", "cvc5 answers sat on X.smt2")
        monkeypatch.setattr(checking, "cross_check", lambda obligations: disputed)
        verdict = check("AP", ["bounded"])["bounded"]
        assert verdict.verdict == "unknown" and verdict.method == "proof disputed: Z3 and cvc5 disagree"
        assert verdict.proof is not None and verdict.proof.cross_check == disputed and verdict.proof.disputed

    def test_cvc5_confirms_the_proofs_it_is_shown(self) -> None:
        proof = check("RR", ["realizable"])["realizable"].proof
        assert proof is not None and proof.cross_check is not None and proof.cross_check.status == "confirmed"

    def test_every_yes_of_table_2_lists_its_trusted_base_and_cites_what_it_used(self) -> None:
        for row in TABLE_2:
            measure = default_measure(row.metric)
            for prop in ("bounded", "top_weighted", "realizable"):
                proof = prove(measure, prop)
                if isinstance(proof, Proof) and proof.conclusion == "yes":
                    assert proof.trusted and all(lemma.method for lemma in proof.lemmas)
                    hypotheses = {ob.path: {name for name, _ in ob.hypotheses} | {n for q in ob.queries for n, _ in q.hypotheses}
                                  for ob in proof.obligations}
                    for lemma in proof.lemmas:
                        if lemma.method == "Z3":  # its certificate is among the proof's, and it cites hypotheses of that file
                            assert lemma.certificate in hypotheses and set(lemma.used) <= hypotheses[lemma.certificate], lemma
                            # a term lemma needs its hypotheses; a weight fact such as "1 > 0" may hold by arithmetic alone
                            assert lemma.used or lemma.statement.endswith("(written out from the closed form)"), lemma

    def test_rbp_is_proved_for_every_p_in_the_open_unit_interval_and_not_at_p_0(self) -> None:
        form = prove(default_measure("RBP"), "top_weighted").lemmas[0]  # type: ignore[union-attr]
        assert form.name == "form" and form.statement.endswith("for every p in (0, 1)")
        at_zero = Measure(REGISTRY["RBP"], {"p": Fraction(0)})
        assert isinstance(prove(at_zero, "top_weighted"), Failed)
        assert check(at_zero, ["top_weighted"])["top_weighted"].verdict == "no"

    def test_unboundedness_comes_with_a_ranking_above_the_bound(self) -> None:
        for key, depth in (("DCG", 35), ("SP", 11)):
            proof = prove(default_measure(key), "bounded")
            assert isinstance(proof, Proof) and proof.conclusion == "no" and proof.witness.data["k"] == depth
            s = Situation.of("1" * depth)
            assert compare(default_measure(key).exact(s), Fraction(10)) > 0

    def test_an_induction_invariant_is_the_textbook_one_for_ap(self) -> None:
        p = prepare(default_measure("AP"))
        invariant = {atom.text for atom in FoldProver(p, extract(p)).invariant()}
        assert {"A2 <= N_rel", "N_rel <= n", "A2 >= 0"} <= invariant

    def test_logs_are_exact_atoms_in_an_encoding_never_floats(self) -> None:
        from irprops.proofs.encode import Encoder

        encoder = Encoder({})
        term = encoder.term(1 / log2(3) + 1 / log2(9))
        # 1/log2(9) = (1/2) * 1/log2(3) is not the same atom, but both are defined exactly by
        # an equation with the prime log log2_3 (log2(9) = 2 log2_3), never by a decimal
        definitions = [str(f) for name, f in encoder.facts.items() if name.endswith("defined")]
        assert len(definitions) == 2 and all("log2_3" in d and "== 1" in d for d in definitions)
        assert any("2*log2_3" in d for d in definitions)
        solver = z3.Solver()
        solver.add(*encoder.facts.values(), term <= 0)
        assert solver.check() == z3.unsat  # the atoms are positive, from the facts alone
