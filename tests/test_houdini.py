"""Houdini's invariant inference (irprops.proofs.induction.houdini): the largest inductive subset of the candidate
atoms, found in a few rounds that each drop every failing atom (issue 13, item 2)."""

from __future__ import annotations

import pytest
import z3

from irprops.proofs import induction
from irprops.proofs.induction import Atom, houdini

# A two-variable program: x counts the ranks, y adds up x. Only "x >= 0" and "y >= 0" are inductive; "x = 0" fails at
# the first step, and "y = 0" is carried on only while "x = 0" is kept, so it goes in the second round.
ATOMS = [
    Atom("x = 0", lambda n, a, b: a["x"] == 0),
    Atom("y = 0", lambda n, a, b: a["y"] == 0),
    Atom("x >= 0", lambda n, a, b: a["x"] >= 0),
    Atom("y >= 0", lambda n, a, b: a["y"] >= 0),
    Atom("x <= -1", lambda n, a, b: a["x"] <= -1),
]


def start() -> tuple[z3.ArithRef, dict[str, z3.ArithRef], None, list[z3.BoolRef]]:
    return z3.IntVal(0), {"x": z3.RealVal(0), "y": z3.RealVal(0)}, None, []


def step(n: z3.ArithRef, a: dict[str, z3.ArithRef], b: object) -> tuple[dict[str, z3.ArithRef], None, list[z3.BoolRef]]:
    return {"x": a["x"] + 1, "y": a["y"] + a["x"]}, None, []


class TestHoudini:
    def test_it_keeps_exactly_the_largest_inductive_subset(self) -> None:
        assert [atom.text for atom in houdini(ATOMS, start, step)] == ["x >= 0", "y >= 0"]

    def test_it_drops_every_failing_atom_of_a_round_at_once(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # Four counters, each with "ci >= 0" (inductive) and "ci = 0" (true at the start, not carried on by any other).
        names = [f"c{i}" for i in range(4)]
        atoms = [Atom(f"{v} >= 0", lambda n, a, b, v=v: a[v] >= 0) for v in names]
        atoms += [Atom(f"{v} = 0", lambda n, a, b, v=v: a[v] == 0) for v in names]
        asked: list[z3.BoolRef] = []
        real = induction._holds

        def counted(claim: z3.BoolRef) -> bool:
            asked.append(claim)
            return real(claim)

        monkeypatch.setattr(induction, "_holds", counted)
        kept = houdini(atoms, lambda: (z3.IntVal(0), {v: z3.RealVal(0) for v in names}, None, []),
                       lambda n, a, b: ({v: a[v] + 1 for v in names}, None, []))
        assert [atom.text for atom in kept] == [f"{v} >= 0" for v in names]
        # 8 at the start, a round of 8 that drops the four "= 0", a round of 4 that drops none. Dropping one atom and
        # asking again from the first took 8 + 4 * 5 + 4 = 32.
        assert len(asked) == 8 + 8 + 4
