"""One call into each toolkit: trec_eval-style dictionaries in, a score per query out.

Each function scores every query of ``qrels``/``run`` at the depth ``k`` and returns
``{query_id: score}``; a query the toolkit gives no score is left out (the glue decides what
that means). ``cuts(spec)`` says whether the toolkit cuts at k itself (then it gets the whole
run) or whether the glue gives it the top k documents only. Each toolkit is imported on the
first call, in the proposal's process.

The conventions each call leaves to the toolkit, on purpose: its gains (linear in the grade
for ``nDCG``/``ndcg_cut``/``ndcg``), its treatment of a query with no relevant documents, of
unjudged documents (nonrelevant everywhere; RBP's residual is not returned), and its own
depth convention (``rbp_eval`` and cwl_eval's ``P`` read k; the rest as above).
"""

from __future__ import annotations

import importlib
import inspect
import io
import itertools
import os
from collections.abc import Callable
from typing import Any

from . import Spec

Qrels = dict[str, dict[str, Any]]
Run = dict[str, dict[str, float]]

_PYTREC_CUTS = {"P", "ndcg_cut", "map_cut", "recall", "success", "relative_P", "set_P", "set_recall"}
"""trec_eval's measures with a cutoff parameter (``P.10`` -> ``P_10``); the others read the whole run."""


def _ir_measures(spec: Spec, qrels: Qrels, run: Run, k: int) -> dict[str, float]:
    import ir_measures

    measure = ir_measures.parse_measure(_ir_measures_name(spec, k if cuts(spec) else None))
    return {m.query_id: float(m.value) for m in ir_measures.iter_calc([measure], qrels, run)}


def _ir_measures_name(spec: Spec, k: int | None) -> str:
    inner = ", ".join(f"{key}={value}" for key, value in spec.params)
    return spec.name + (f"({inner})" if inner else "") + (f"@{k}" if k is not None else "")


def _pytrec_eval(spec: Spec, qrels: Qrels, run: Run, k: int) -> dict[str, float]:
    import pytrec_eval

    name, key = (f"{spec.name}.{k}", f"{spec.name}_{k}") if cuts(spec) else (spec.name, spec.name)
    scores = pytrec_eval.RelevanceEvaluator(qrels, {name}).evaluate(run)
    return {qid: float(found[key]) for qid, found in scores.items() if key in found}


def _ranx_name(spec: Spec, k: int) -> str:
    if spec.name == "rbp":
        p = spec.param("p")
        if p is None or not p.startswith("0."):
            raise ValueError(f"ranx:rbp needs its persistence as rbp(p=0.8), not {spec.title!r}")
        return f"rbp.{p[2:]}"
    return f"{spec.name}@{k}"


def _ranx(spec: Spec, qrels: Qrels, run: Run, k: int) -> dict[str, float]:
    import ranx

    both = sorted(set(qrels) & set(run))  # ranx scores the queries of both, and refuses runs and qrels that differ
    if not both:
        return {}
    given = {q: qrels[q] for q in both}
    ranked = {q: run[q] for q in both}
    name = _ranx_name(spec, k)
    if (all(given.values()) and all(type(g) is int and 0 <= g < 2 ** 53 for docs in given.values() for g in docs.values())
            and all(len(set(docs.values())) == len(docs) for docs in ranked.values())):
        return dict(zip(both, _ranx_untied(given, ranked, name), strict=True))
    kept = ranx.Qrels.from_dict(given)
    if {q: dict(d) for q, d in kept.to_dict().items()} != {q: d for q, d in given.items() if d}:
        raise ValueError("ranx dropped grades from the qrels it was given (it keeps integer grades >= 0 only)")
    scored = ranx.evaluate(kept, ranx.Run.from_dict(ranked), name, return_mean=False)
    return {q: float(v) for q, v in zip(both, scored, strict=True)}


def _ranx_untied(qrels: Qrels, run: Run, name: str) -> list[float]:
    """ranx's scores of runs without tied scores, from its numba typed-list form: the arrays its ``Qrels`` and ``Run``
    become inside ``evaluate`` (``[[hash(docno), grade or score], ...]``, sorted by the second column), built without the
    typed dictionaries whose building and reading back cost seconds of compiling in every process and milliseconds in
    every call. The same metric code scores them; the two forms differ only in the order they give tied documents,
    so runs with ties go through ``Qrels``/``Run`` (tests/test_toolkits.py compares both forms), as do grades other than
    Python ints from 0 to 2^53 (which a float holds exactly), so that what each form accepts is what ranx accepts."""
    import warnings

    import numpy as np
    import ranx
    from ranx.utils import python_dict_to_typed_list

    with warnings.catch_warnings():  # its docno hashes are cast to int64 for sorting, with a warning at compile time
        warnings.simplefilter("ignore")
        judged = python_dict_to_typed_list(qrels, sort=True)
        # a run whose scores decrease in the order given is what ranx's sort would make of it (x[argsort(-x)] is x)
        ranked = python_dict_to_typed_list(run, sort=not all(_decreasing(list(docs.values())) for docs in run.values()))
        for docs, kept in zip(qrels.values(), judged, strict=True):
            if sorted(kept[:, 1].tolist()) != sorted(float(g) for g in docs.values()):
                raise ValueError("ranx dropped grades from the qrels it was given (it keeps integer grades >= 0 only)")
        # ranx 0.3's evaluate raises KeyError for one metric of typed lists with return_mean=False: asked twice
        scored = ranx.evaluate(judged, ranked, [name, name], return_mean=False)[name]
    return [float(v) for v in np.asarray(scored)]


def _decreasing(scores: list[float]) -> bool:
    return all(a > b for a, b in itertools.pairwise(scores))


def _rbp_eval(spec: Spec, qrels: Qrels, run: Run, k: int) -> dict[str, float]:
    import rbp_eval

    p = float(spec.param("p") or "nan")
    if not 0 < p < 1:
        raise ValueError(f"rbp_eval:rbp needs its persistence 0 < p < 1, as rbp(p=0.8), not {spec.title!r}")
    lines = [f"{q} 0 {d} {float(g)!r}" for q, docs in qrels.items() for d, g in docs.items()]  # "1.0": a gain, not a binary mark
    ranked = [f"{q} Q0 {d} {rank} {score!r} irprops" for q, docs in run.items() for rank, (d, score) in enumerate(docs.items(), 1)]
    judged = rbp_eval.load_qrels(io.StringIO("\n".join(lines) + "\n"))
    results = rbp_eval.evaluate(judged, rbp_eval.load_run(io.StringIO("\n".join(ranked) + "\n")), rbp_eval.Ordering.SCORE, [p], [float(k)])
    return {str(r.qid): float(r.depth_res[0].persist_res[0].sum) for r in results.qid_res if r.num_rel >= 0}


_CWL_NAMES = {"P": "Precision", "U": "UMeasure", "nDCG": "NDCG"}
"""cwl_eval's class names for the names its metrics report (``P@10`` is ``PrecisionCWLMetric``)."""
_CWL_SHORT = {"P", "Precision", "AP", "RR", "NDCG", "nDCG"}
"""cwl_eval's metrics that read no rank past the ranking and k: their vectors are padded to the ranking's length plus one,
not to cwl_eval's 1000 ranks (the same expected utility, tested; AP's is quadratic in the length). RBP, INST, INSQ and
the others normalise over all ranks: they get 1000."""


def _cwl_metric(spec: Spec, k: int) -> Any:
    module = importlib.import_module("cwl.ruler.measures")
    found = None
    name = _CWL_NAMES.get(spec.name, spec.name)
    for path in sorted(module.__path__):
        for file in sorted(os.listdir(path)):
            if file.startswith("cwl_") and file.endswith(".py"):
                candidate = getattr(importlib.import_module(f"cwl.ruler.measures.{file[:-3]}"), f"{name}CWLMetric", None)
                found = found or candidate
    if found is None:
        raise ValueError(f"cwl_eval has no metric {spec.name!r} (its names: P, AP, RR, RBP, NDCG, INST, INSQ, TrAP, ...)")
    params = {("theta" if key == "p" and spec.name == "RBP" else key): float(value) for key, value in spec.params}
    if "k" in inspect.signature(found).parameters:
        params["k"] = k
    return found(**params)


def _cwl_eval(spec: Spec, qrels: Qrels, run: Run, k: int) -> dict[str, float]:
    from cwl.ruler.ranking import RankingMaker
    from cwl.seeker.trec_qrel_handler import TrecQrelHandler

    metric = _cwl_metric(spec, k)
    judged = TrecQrelHandler()
    for q, docs in qrels.items():
        for d, g in docs.items():
            judged.put_value(q, d, float(g))
    scores = {}
    for q, docs in run.items():
        if q not in qrels:
            continue
        maker = RankingMaker(q, judged, None, max_n=max(len(docs), k) + 1 if spec.name in _CWL_SHORT else max(1000, len(docs)))
        for d in docs:
            maker.add(d, "doc")
        metric.measure(maker.get_ranking())
        scores[q] = float(metric.expected_utility)
    return scores


def cuts(spec: Spec) -> bool:
    """Whether the toolkit's metric has a depth of its own (it gets the whole run and k), else it gets the top k."""
    if spec.toolkit == "ir_measures":
        import ir_measures

        return "cutoff" in ir_measures.parse_measure(_ir_measures_name(spec, None)).SUPPORTED_PARAMS
    if spec.toolkit == "pytrec_eval":
        return spec.name in _PYTREC_CUTS
    if spec.toolkit == "ranx":
        return spec.name != "rbp"
    if spec.toolkit == "rbp_eval":
        return True
    if spec.toolkit == "cwl_eval":
        return "k" in inspect.signature(type(_cwl_metric(spec, 1))).parameters
    return True  # a function of the documented contract is given k and the whole run


CALLS: dict[str, Callable[[Spec, Qrels, Run, int], dict[str, float]]] = {
    "ir_measures": _ir_measures, "pytrec_eval": _pytrec_eval, "ranx": _ranx, "rbp_eval": _rbp_eval, "cwl_eval": _cwl_eval,
}
"""The call of each toolkit with an adapter."""

