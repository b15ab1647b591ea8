"""Functions for the toolkit tests: toolkit functions of the documented contract, and float proposals.

A toolkit function takes trec_eval-style dictionaries, ``qrels[qid][docno] = grade`` and
``run[qid][docno] = score``, and the depth k, and returns ``{qid: score}``.
"""

from __future__ import annotations


def precision(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k, for every query of the call that has judgments (as trec_eval: a query not in the qrels is left out)."""
    scores = {}
    for qid, docs in run.items():
        if qid not in qrels:
            continue
        ranked = sorted(docs, key=lambda d: -docs[d])[:k]
        scores[qid] = sum(1 for d in ranked if qrels.get(qid, {}).get(d, 0) > 0) / k
    return scores


def fails_on_two_relevant_documents(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k, except that it raises on a query with exactly two relevant documents: the batch fails, each alone says which."""
    if any(sum(1 for g in judged.values() if g > 0) == 2 for judged in qrels.values()):
        raise RuntimeError("two relevant documents")
    return precision(qrels, run, k)


def not_a_dict(qrels: dict, run: dict, k: int) -> list:  # type: ignore[type-arg]
    return [1.0]


def integer_query_ids(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k under integer query ids: none is the id it was given (a string)."""
    return {int(qid) + 1000: score for qid, score in precision(qrels, run, k).items()}


def float_rbp(ranking: tuple, k: int, qrels: tuple) -> float:  # type: ignore[type-arg]
    """RBP(p = 0.8) in floats: convergent and top-weighted, but below rank 150 a swap moves the score by less than a
    float near 1 can hold (0.2 * 0.8 ** 152 * 0.2 is about 8e-17): identical floats there are no evidence of equality."""
    return sum(0.2 * 0.8 ** i * float(g) for i, g in enumerate(ranking[:k]))


def float_rr(ranking: tuple, k: int, qrels: tuple) -> float:  # type: ignore[type-arg]
    """Reciprocal rank in floats: swapping a document below the first relevant one changes nothing, truly."""
    return next((1.0 / i for i, g in enumerate(ranking[:k], start=1) if g), 0.0)


def float_mix(ranking: tuple, k: int, qrels: tuple) -> float:  # type: ignore[type-arg]
    """0.5 P@k + 0.5 RBP(p = 0.8)@k in floats: convergent and top-weighted exactly (the RBP term strictly increases and
    the P term cannot fall), but at k = 176 the swap of ranks 175 and 176 moves it by about 3e-19, under the float
    resolution of 0.5/176 (a hostile review)."""
    top = [float(g) for g in ranking[:k]]
    return 0.5 * sum(top) / k + 0.5 * sum(0.2 * 0.8 ** i * g for i, g in enumerate(top))


def float_err(ranking: tuple, k: int, qrels: tuple) -> float:  # type: ignore[type-arg]
    """ERR@k (Chapelle et al. 2009) in floats, stopping probability (2^g - 1)/2: convergent and top-weighted exactly over
    binary grades, but behind 48 relevant documents a swap moves it by about 4e-17 (a hostile review)."""
    score, reach = 0.0, 1.0
    for r, g in enumerate(ranking[:k], start=1):
        stop = (2.0 ** float(g) - 1.0) / 2.0
        score += reach * stop / r
        reach *= 1.0 - stop
    return score


def float_shifted_rbp(ranking: tuple, k: int, qrels: tuple) -> float:  # type: ignore[type-arg]
    """1 + RBP(p = 0.8)@k in floats: the constant hides what the deep ranks are worth (a hostile review)."""
    return 1.0 + sum(0.2 * 0.8 ** i * float(g) for i, g in enumerate(ranking[:k]))


def float_twin_weights(ranking: tuple, k: int, qrels: tuple) -> float:  # type: ignore[type-arg]
    """Weights 1/i in floats, except that ranks 40 and 41 weigh the same: swapping them changes nothing, truly. Not
    top-weighted (the swap of ranks 40 and 41 at k >= 41), but floats cannot tell this equality from float_mix's."""
    return sum(float(g) / (40 if i == 41 else i) for i, g in enumerate(ranking[:k], start=1))


def rprec_of_the_top_k(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """trec_eval's Rprec given the top k: ties broken by docno, descending; the relevant documents among the first R of
    the top k, over R (not min(k, R)); 0 when no document is relevant."""
    scores = {}
    for qid, judged in qrels.items():
        docs = run.get(qid, {})
        ranked = sorted(docs, key=lambda d: (-docs[d], [-ord(c) for c in d]))[:k]
        relevant = sum(1 for g in judged.values() if g > 0)
        scores[qid] = sum(1 for d in ranked[:relevant] if judged.get(d, 0) > 0) / relevant if relevant else 0.0
    return scores


def nan_on_two_relevant_documents(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k, except NaN for a query with exactly two relevant documents: a failure, not a score."""
    found = precision(qrels, run, k)
    return {qid: float("nan") if sum(1 for g in qrels[qid].values() if g > 0) == 2 else v for qid, v in found.items()}


def cumulated_integer_gain(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """The sum of the integer grades it is given over the top k (CG on grades times the check's scale)."""
    scores = {}
    for qid, docs in run.items():
        if qid in qrels:
            ranked = sorted(docs, key=lambda d: -docs[d])[:k]
            scores[qid] = float(sum(qrels[qid].get(d, 0) for d in ranked))
    return scores


def sleeps(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """Never returns in time: its warm-up must end at the time limit the user gave."""
    import time

    time.sleep(600)
    return {}


def float_steep_rbp(ranking: tuple, k: int, qrels: tuple) -> float:  # type: ignore[type-arg]
    """RBP(p = 1e-4)@k in floats: convergent and top-weighted exactly, but the weight of rank 6 (about 1e-20) vanishes
    beside a relevant document at rank 1, at a depth where floats otherwise count as evidence (a hostile review)."""
    return sum((1 - 1e-4) * 1e-4 ** i * float(g) for i, g in enumerate(ranking[:k]))


def float_blind_rank_3(ranking: tuple, k: int, qrels: tuple) -> float:
    """P@k in floats that ignores rank 3: truly not convergent (a relevant document swapped into rank 3 counts for
    nothing), and floats show it: alone at rank 3 it scores exactly what nothing relevant scores."""
    return sum(float(g) for r, g in enumerate(ranking[:k], start=1) if r != 3) / k


def precision_by_docno(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k of the documents in docno order, ignoring the scores (a hostile review: the glue's docnos once ran with the
    ranks, so this agreed with P everywhere)."""
    return {qid: sum(1 for d in sorted(docs)[:k] if qrels[qid].get(d, 0) > 0) / k for qid, docs in run.items() if qid in qrels}


def ap_dividing_by_r(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """AP@k that divides by R unguarded: a ZeroDivisionError on every query without relevant documents, a crash of the
    implementation (once read as irprops' "undefined", and agreeing with AP's undefined there)."""
    scores = {}
    for qid, docs in run.items():
        judged = qrels.get(qid, {})
        ranked = sorted(docs, key=lambda d: -docs[d])[:k]
        found, total = 0, 0.0
        for r, d in enumerate(ranked, start=1):
            if judged.get(d, 0) > 0:
                found += 1
                total += found / r
        scores[qid] = total / sum(1 for g in judged.values() if g > 0)
    return scores


def precision_consuming_the_run(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k that pops every query with an odd id off the run it was given and scores only the others: the queries it
    drops are its failures, not empty runs (once read from the dictionary it had emptied)."""
    for qid in [q for q in run if int(q) % 2]:
        run.pop(qid)
    return precision(qrels, run, k)


def precision_as_text(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k as strings: not numbers, whatever float() makes of them."""
    return {qid: str(v) for qid, v in precision(qrels, run, k).items()}


def rprec_of_the_whole_run(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """R-precision of the whole run, whatever k is (ranx's r-precision reads no cutoff)."""
    scores = {}
    for qid, judged in qrels.items():
        docs = run.get(qid, {})
        relevant = sum(1 for g in judged.values() if g > 0)
        ranked = sorted(docs, key=lambda d: -docs[d])[:relevant]
        scores[qid] = sum(1 for d in ranked if judged.get(d, 0) > 0) / relevant if relevant else 0.0
    return scores


def precision_paired_by_position(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k with a classic bug: it pairs the qrels and the run by position, not by query id, so a query's score depends on
    which other queries share the call (a hostile review: the pytest module pinned a value the query has only there)."""
    scores = {}
    for (_, judged), (qid, docs) in zip(qrels.items(), run.items(), strict=False):
        scores[qid] = sum(1 for d in sorted(docs, key=lambda d: -docs[d])[:k] if judged.get(d, 0) > 0) / k
    return scores


def precision_without_unjudged(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k of the run without its unjudged documents (a condensed list), ties in input order (Python's stable sort): a
    hostile review found its tie order called "no single policy", since condensing was not tried on tied rankings."""
    scores = {}
    for qid, docs in run.items():
        judged = qrels.get(qid, {})
        ranked = [d for d in sorted(docs, key=lambda d: -docs[d]) if d in judged][:k]
        scores[qid] = sum(1 for d in ranked if judged[d] > 0) / k
    return scores


def recall_paired_by_position(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """Recall@k with qrels and run paired by position, and NaN where nothing is relevant: alone, a query scores its
    recall or NaN; in a call with others, something else (a hostile review: the pytest module pinned the crowd's 0)."""
    scores = {}
    for (_, judged), (qid, docs) in zip(qrels.items(), run.items(), strict=False):
        relevant = sum(1 for g in judged.values() if g > 0)
        found = sum(1 for d in sorted(docs, key=lambda d: -docs[d])[:k] if judged.get(d, 0) > 0)
        scores[qid] = found / relevant if relevant else float("nan")
    return scores


def precision_nan_in_a_crowd(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k alone, NaN for every query of a call of many: its failures are the crowd's, not the query's."""
    found = precision(qrels, run, k)
    return {qid: float("nan") if len(run) > 1 else v for qid, v in found.items()}


def precision_one_query_at_a_time(qrels: dict, run: dict, k: int) -> dict:  # type: ignore[type-arg]
    """P@k that raises on a call of more than one query: scored alone, it agrees with P, but the crash must be said."""
    if len(run) > 1:
        raise RuntimeError("one query at a time")
    return precision(qrels, run, k)
