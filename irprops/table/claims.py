"""The summary claims of Section 4, checked on the computed table, and its comparison with the paper's.

Every claim here is computed from the verdicts (or, for the conflict, proved by Z3 over an
abstract metric); the paper's Table 2 and wording are reference data, quoted for the
comparison only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from irprops.properties import PROPERTIES
from irprops.properties.reference import TABLE_2
from irprops.verdicts import COLUMNS, CheckResult, Prop

from .footnotes import Footnote

PAIRS = ((Prop.CONVERGENT, Prop.TOP_WEIGHTED), (Prop.COMPLETE, Prop.REALIZABLE))


def _yes_no(verdict: str) -> str:
    return {"yes": "Yes", "no": "No"}.get(verdict, "Unknown")


def conflict_theorem() -> dict[str, Any]:
    """The conflict theorem (:func:`irprops.proofs.conflict.conflict`, Z3 over an abstract metric) as plain data, with the
    metric that escapes it without localization: what the claims quote (a warm table reads it from its cache, and so
    imports no solver)."""
    import dataclasses

    from irprops.proofs.conflict import WITHOUT_LOCALIZATION, conflict

    return {**dataclasses.asdict(conflict()), "without_localization": WITHOUT_LOCALIZATION}


def claims(results: Mapping[str, CheckResult], footnotes: list[Footnote], theorem: dict[str, Any] | None = None) -> dict[str, Any]:
    """The computed claims, keyed by what the paper asserts; ``theorem`` is :func:`conflict_theorem` (proved here if not
    given)."""
    patterns: dict[str, list[str]] = {}
    for label, result in results.items():
        pattern = "".join(_yes_no(result[p].verdict)[0] for p in COLUMNS)
        patterns.setdefault(pattern, []).append(label)
    pairs = {}
    for a, b in PAIRS:
        combos: dict[str, list[str]] = {f"{x}/{y}": [] for x in ("Yes", "No") for y in ("Yes", "No")}
        for label, result in results.items():
            key = f"{_yes_no(result[a].verdict)}/{_yes_no(result[b].verdict)}"
            combos.setdefault(key, []).append(label)
        pairs[f"{a} x {b}"] = {"combinations": combos, "all four occur": all(combos[k] for k in ("Yes/Yes", "Yes/No", "No/Yes", "No/No"))}
    most = max(sum(r[p].verdict == "yes" for p in COLUMNS) for r in results.values())
    theorem = theorem or conflict_theorem()
    return {
        "combinations": {"count": len(patterns), "paper": 10, "patterns": patterns, "columns": list(COLUMNS)},
        "pairs": pairs,
        "most properties": {"count": most,
                            "metrics": [label for label, r in results.items() if sum(r[p].verdict == "yes" for p in COLUMNS) == most]},
        "conflict": {
            "paper": "no metric possesses all seven: monotonicity and convergence together make realizability impossible",
            "theorem": theorem["statement"],
            "proved": theorem["proved"],
            "method": "Z3 over an abstract metric (its instances on the six situations of one small collection are unsatisfiable)",
            "used": list(theorem["used"]),
            "certificate": theorem["certificate"],
            "without": {description: answer for description, answer in theorem["variants"]},
            "note": ("The paper's argument needs localization and definedness: without either, the instances have models. "
                     f"A metric without localization that keeps the other three: {theorem['without_localization']}."),
        },
        "footnotes": {f.letter: {"fact": f.fact, "cells": [list(c) for c in f.cells]} for f in footnotes},
    }


def comparison(results: Mapping[str, CheckResult], footnotes: list[Footnote]) -> dict[str, Any]:
    """Cell by cell agreement with the published table, footnote placements, and the readings used."""
    cells, disagreements = 0, []
    for row in TABLE_2:
        for prop in COLUMNS:
            cells += 1
            computed = _yes_no(results[row.label][prop].verdict)
            paper = "Yes" if row.says(prop) else "No"
            if computed != paper:
                disagreements.append({"metric": row.label, "property": prop, "paper": paper, "computed": computed,
                                      "evidence": results[row.label][prop].evidence, "reading": PROPERTIES[prop].reading})
    placements = {}
    for f in footnotes:
        extra = sorted(set(f.cells) - set(f.paper_cells))
        missing = sorted(set(f.paper_cells) - set(f.cells))
        placements[f.letter] = {"paper": f.paper, "paper cells": [list(c) for c in f.paper_cells],
                                "computed cells": [list(c) for c in f.cells],
                                "same": not extra and not missing, "extra": [list(c) for c in extra], "missing": [list(c) for c in missing]}
    return {
        "table": {row.label: {p: ("Yes" if row.says(p) else "No") for p in COLUMNS} for row in TABLE_2},
        "agreement": {"cells": cells, "agree": cells - len(disagreements), "disagreements": disagreements},
        "footnotes": placements,
        "readings": {p: PROPERTIES[p].reading for p in COLUMNS},
    }
