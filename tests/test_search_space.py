"""The search space: consistent situations, enumerated in minimal-witness order; checkers never look verdicts up."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

from hypothesis import given, settings

from irprops.metrics import Situation
from irprops.properties import PROPERTIES, Space
from irprops.properties.space import size, smaller

from .conftest import ROOT


def revalidated(s: Situation) -> Situation:
    """The same situation through the validating constructor (raises if inconsistent)."""
    return Situation(s.ranking, s.k, s.qrels)


class TestEnumeration:
    def test_every_enumerated_situation_is_consistent(self) -> None:
        for binary in (True, False):
            space = Space.default(binary)
            for k, length in itertools.islice(space.depths_and_lengths(at_least=1), 6):
                for s in space.situations(k, length):
                    assert revalidated(s) == s and hash(revalidated(s)) == hash(s)

    def test_situations_come_in_the_minimal_witness_order(self) -> None:
        space = Space.default(binary=True)
        keys = [size(s)[:3] for k, length in space.depths_and_lengths(at_least=1) for s in space.situations(k, length)]
        assert keys == sorted(keys)

    def test_every_candidate_of_every_search_property_is_consistent(self) -> None:
        space = Space(binary=False, max_k=2, below=1, extra=1, grades=Space.default(False).grades, search_max_k=3, examples=5)
        for prop in PROPERTIES.values():
            if hasattr(prop, "candidates"):
                for candidate in prop.candidates(space):
                    for part in candidate if isinstance(candidate, tuple) else (candidate,):
                        if isinstance(part, Situation):
                            assert revalidated(part) == part

    @settings(max_examples=100)
    @given(Space.default(binary=False).strategy(at_least=1))
    def test_hypothesis_situations_and_their_shrinks_are_consistent(self, s: Situation) -> None:
        assert revalidated(s) == s and len(s.ranking) >= s.k + 1
        for simpler in smaller(s, min_length=1):
            assert revalidated(simpler) == simpler and len(simpler.ranking) >= simpler.k + 1 and size(simpler) < size(s)


def test_the_registry_lists_the_seven_properties_in_the_papers_column_order() -> None:
    assert list(PROPERTIES) == ["bounded", "monotonic", "convergent", "top_weighted", "localized", "complete", "realizable"]
    assert all(p.wording and p.title and type(p).__module__ != "properties.base" for p in PROPERTIES.values())


def test_no_checker_consults_the_papers_table() -> None:
    """The published Table 2 is reference data: no module of the checkers imports it."""
    for path in sorted((ROOT / "properties").glob("*.py")):
        if path.name == "reference.py":
            continue
        for node in ast.walk(ast.parse(Path(path).read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any("reference" in n for n in names), f"{path.name} imports the reference table"
