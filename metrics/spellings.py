"""The names other toolkits give the declared metrics: trec_eval's ``measure_k``, ranx's, ir_measures'.

Each :class:`Spelling` maps one toolkit's name (``k`` stands for the depth it carries, ``.P``
for RBP's persistence as ranx writes it) onto a declared metric, and says where the toolkit's
convention differs from the formula irprops keeps. ir_measures' names are irprops' own syntax
(``nDCG@10``, ``RBP(p=0.8)@10``); the parameters it adds (``rel=``, ``max_rel=``, ``dcg=``)
are read by :mod:`metrics.names`.

>>> spelled("ndcg_cut_10"), spelled("rbp.95"), spelled("hit_rate@5"), spelled("AP@10")
('NDCG@10', 'RBP(p=0.95)', 'Success@5', None)
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

R_ZERO = "scores a query without relevant documents (R = 0) as 0, where the formula is undefined"


@dataclass(frozen=True)
class Spelling:
    """A toolkit's name for a declared metric, as the toolkit documents it: ``ndcg_cut_k``, ``rbp.P``, ``Rprec``."""

    toolkit: str
    written: str
    metric: str
    note: str = ""
    cutoff: bool = False
    """The depth ``@k`` is required (ranx's name without it means another depth than irprops' default)."""

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """The name as a regular expression: ``k`` a depth, ``.P`` the digits of a persistence after its point."""
        text = re.escape(self.written).replace(r"\.P", r"\.(?P<p>\d+)")
        text = re.sub(r"_k$", r"_(?P<k>\\d+)", text)
        text = re.sub(r"@k$", r"@(?P<k>\\d+)" if self.cutoff else r"(?:@(?P<k>\\d+))?", text)  # without: the whole run
        return re.compile(text, re.IGNORECASE)

    def irprops_name(self, name: str) -> str | None:
        """The irprops name ``name`` spells in this toolkit, or None if it is not this spelling."""
        match = self.pattern.fullmatch(name.strip())
        if match is None:
            return None
        groups = match.groupdict()
        params = f"(p=0.{groups['p']})" if groups.get("p") else ""
        depth = f"@{groups['k']}" if groups.get("k") else ""  # the parser checks the depth's size
        return f"{self.metric}{params}{depth}"


SPELLINGS: tuple[Spelling, ...] = (
    Spelling("trec_eval", "P_k", "P"),
    Spelling("trec_eval", "recall_k", "Recall", R_ZERO),
    Spelling("trec_eval", "Rprec", "RPrec", R_ZERO),
    Spelling("trec_eval", "recip_rank", "RR"),
    Spelling("trec_eval", "success_k", "Success"),
    Spelling("trec_eval", "map", "AP", R_ZERO),
    Spelling("trec_eval", "map_cut_k", "AP", R_ZERO),
    Spelling("trec_eval", "ndcg", "NDCG", R_ZERO),
    Spelling("trec_eval", "ndcg_cut_k", "NDCG", R_ZERO),
    Spelling("trec_eval", "bpref", "BPref", f"reads N, the judged nonrelevant documents, from the qrels (irprops: --N); {R_ZERO}"),
    Spelling("ranx", "precision@k", "P", "without a cutoff is at the run's length; irprops' Precision without @k is at "
             "max(length, R)", cutoff=True),
    Spelling("ranx", "recall@k", "Recall", R_ZERO),
    Spelling("ranx", "f1@k", "F", "without a cutoff is at the run's length (irprops refuses f1 without @k)", cutoff=True),
    Spelling("ranx", "r-precision", "RPrec", R_ZERO),
    Spelling("ranx", "hit_rate@k", "Success"),
    Spelling("ranx", "mrr@k", "RR"),
    Spelling("ranx", "map@k", "AP", R_ZERO),
    Spelling("ranx", "dcg@k", "DCG"),
    Spelling("ranx", "ndcg@k", "NDCG", R_ZERO),
    Spelling("ranx", "ndcg_burges@k", "NDCG-exp", f"takes the integer grades as they are: their top level is gmax (default 2; "
             f"write NDCG-exp(gmax=3)@k for grades 0..3); {R_ZERO}"),
    Spelling("ranx", "rbp.P", "RBP", "also reads rbp@95 as p = 0.95, where irprops (as ir_measures) reads RBP@95 as the depth"),
)
"""trec_eval's and ranx's names, by toolkit (ir_measures' are irprops' own syntax, with its parameters)."""


NOT_DECLARED: dict[str, tuple[str, str]] = {
    "dcg_burges": ("DCG with exponential gain (Burges et al. 2005)",
                   "only its normalised form is (NDCG-exp, ranx's ndcg_burges); its unnormalised sum depends on the integer scale"),
    "inst": ("INST (Moffat et al.)",
             ("its target shrinks with the gain seen, so its normaliser, a sum over an infinite ranking, is a trigamma value at a "
              "point that need not be an integer, with no exact form the exact layer can decide (INSQ, its static form, is "
              "declared)")),
}
"""Toolkit names of metrics irprops does not declare yet, by lower-case name: (the metric, why not)."""
_WHOLE_RUN = "{name} without a cutoff is at the run's length; an irprops name without @k is at max(length, R)"
REFUSED: dict[str, tuple[str, str]] = {
    **{name: (f"{what} is not declared in irprops yet: {why}", "declare it as a proposal (irprops check --help)")
       for name, (what, why) in NOT_DECLARED.items()},
    "f1": (_WHOLE_RUN.format(name="ranx's f1"), "write F@<the run's length>, e.g. F@10"),
}
"""Toolkit names irprops does not read, with why and what to write instead (a clear refusal, not a near-miss suggestion)."""


def spelled(name: str) -> str | None:
    """The irprops name of a trec_eval or ranx name (``P_5`` is ``P@5``), or None if ``name`` is none of theirs."""
    for spelling in SPELLINGS:
        found = spelling.irprops_name(name)
        if found is not None:
            return found
    return None


def spellings_of(metric: str) -> list[Spelling]:
    """The toolkit spellings of the metric ``metric`` (a registry key), in toolkit order."""
    return [s for s in SPELLINGS if s.metric == metric]
