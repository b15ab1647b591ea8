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


def float_rbp(ranking: tuple, k: int, qrels: tuple) -> float:  # type: ignore[type-arg]
    """RBP(p = 0.8) in floats: convergent and top-weighted, but below rank 150 a swap moves the score by less than a
    float near 1 can hold (0.2 * 0.8 ** 152 * 0.2 is about 8e-17): identical floats there are no evidence of equality."""
    return sum(0.2 * 0.8 ** i * float(g) for i, g in enumerate(ranking[:k]))


def float_twin_weights(ranking: tuple, k: int, qrels: tuple) -> float:  # type: ignore[type-arg]
    """Weights 1/i in floats, except that ranks 40 and 41 weigh the same: swapping them changes nothing, truly, and each
    weighs 1/40, which floats resolve. Not top-weighted (the swap of ranks 40 and 41 at k >= 41), and the float rule for
    equalities must not hide it."""
    return sum(float(g) / (40 if i == 41 else i) for i, g in enumerate(ranking[:k], start=1))
