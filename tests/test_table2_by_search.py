"""Table 2 from the metrics' definitions: search alone refutes exactly the "No" cells, and
with the proof layer every cell is settled as the paper says.

Boundedness is aside for search alone: no finite search decides it. Every "no" witness is
re-verified by the independent re-checker. The paper's table is reference data here; the
verdicts come from the metrics' definitions.
"""

from __future__ import annotations

import pytest

from irprops import COLUMNS
from irprops.properties.reference import TABLE_2, Row
from tests.helpers import checked, default_measure
from tests.recheck import of_measure, recheck


@pytest.mark.slow
@pytest.mark.parametrize("row", TABLE_2, ids=lambda row: row.label)
def test_search_alone_says_no_exactly_where_the_paper_says_no(row: Row) -> None:
    result = checked(row.metric, prove=False)
    score = of_measure(default_measure(row.metric))
    for prop in COLUMNS:
        verdict = result[prop]
        assert verdict.verdict != "yes", "search alone never proves"
        if prop == "bounded":
            assert verdict.verdict == "unknown"
        elif row.says(prop):
            assert verdict.verdict == "unknown", f"{row.label} {prop}: the paper says Yes, the search found {verdict.evidence}"
        else:
            assert verdict.verdict == "no", f"{row.label} {prop}: the paper says No, the search found nothing: {verdict.evidence}"
            assert recheck(score, prop, dict(verdict.witness.data)), f"{row.label} {prop}: the witness does not re-check"


@pytest.mark.slow
@pytest.mark.parametrize("row", TABLE_2, ids=lambda row: row.label)
def test_with_proofs_every_cell_is_settled_as_the_paper_says(row: Row) -> None:
    result = checked(row.metric)
    score = of_measure(default_measure(row.metric))
    for prop in COLUMNS:
        verdict = result[prop]
        assert verdict.verdict == ("yes" if row.says(prop) else "no"), f"{row.label} {prop}: {verdict.evidence}"
        if verdict.verdict == "yes":
            assert verdict.method == "proof (all k)" and verdict.proof.reach.all_k and verdict.proof.trusted
        else:
            assert recheck(score, prop, dict(verdict.witness.data))


def test_the_reference_table_has_the_papers_shape() -> None:
    assert [r.label for r in TABLE_2] == ["DCG", "SP", "RPrec", "SN-DCG", "SN-AP", "Prec", "NDCG", "SDCG", "HIT", "RR", "Recall",
                                          "AP", "RBP"]
    assert sum(not c for r in TABLE_2 for c in r.cells) == 35 and len({r.cells for r in TABLE_2}) == 10  # the paper's "ten combinations"
