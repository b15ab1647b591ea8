"""Proofs as values: a chain of named lemmas, each machine-checked or explicitly a meta-step.

A :class:`Proof` says which property it settles ("yes", or "no" for an unboundedness
proof), how far it reaches (every k, or k <= K), the lemmas in order, the trusted base
(axioms, computer-algebra computations, meta-steps a reader must accept), and the Z3
obligations that become certificates. :meth:`Proof.record` is the part a verdict carries
(:class:`~irprops.verdicts.ProofRecord`). :class:`Failed` says why no proof was found; it is
never a verdict by itself. :class:`Prover` is the one dispatcher every structural prover
shares: a method per property, timed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from irprops.verdicts import CrossCheck, Lemma, ProofRecord, Prop, Reach, Verdict, Witness

from .smt import Discharged, Obligation

if TYPE_CHECKING:
    import sympy

ALL_K = Reach()

__all__ = ["ALL_K", "Failed", "Lemma", "Proof", "Prover", "z3_lemma"]


@dataclass(frozen=True)
class Proof:
    """A machine-checked settlement of one property of one measure."""

    property: Prop
    conclusion: Literal["yes", "no"]
    reach: Reach
    lemmas: tuple[Lemma, ...]
    trusted: tuple[str, ...]
    obligations: tuple[Obligation, ...] = ()
    witness: Witness | None = None
    seconds: float = field(default=0.0, compare=False)
    parameters: str = ""
    """The parameter values the proof covers (``every p in (0, 1)``, ``every beta > 0``, ``b = 2``); empty without any."""
    scores: tuple[sympy.Expr | None, sympy.Expr | None] | None = None
    """The interval (lowest, highest) the proof states every defined score of the measure lies in, exact, with the
    measure's parameter values; None at an end it states nothing about. The orchestration holds it against every
    score the search computed, and withdraws the proof if one lies outside (a backstop, not part of the proof)."""

    def stating(self, low: sympy.Expr | None, high: sympy.Expr | None) -> Proof:
        """This proof, stating that every score lies in [low, high]."""
        return replace(self, scores=(low, high))

    def record(self, cross_check: CrossCheck | None = None) -> ProofRecord:
        """The proof as a verdict carries it (no solver objects), with cvc5's opinion if one was asked."""
        return ProofRecord(self.conclusion, self.reach, self.lemmas, self.trusted, cross_check, parameters=self.parameters)

    def verdict(self) -> Verdict:
        """The verdict this proof gives on its own (no search, no cross-check)."""
        return Verdict(self.property, self.conclusion, None, self.witness, self.record(), seconds=self.seconds)


@dataclass(frozen=True)
class Failed:
    """No proof: why (a lemma that does not hold or could not be shown, a solver answer)."""

    property: Prop
    reason: str


class Prover:
    """A structural prover: one method per property it has an argument for, named as the property."""

    kind = "structural"
    """How the prover argues, for the reason given when it has no argument ("weighted-sum", "induction")."""

    def prove(self, prop: Prop) -> Proof | Failed:
        """The proof of ``prop`` (timed), or why there is none."""
        method: Callable[[], Proof | Failed] | None = getattr(self, str(prop), None)
        if method is None:
            return Failed(prop, f"no {self.kind} argument for this property")
        start = time.perf_counter()
        found = method()
        return replace(found, seconds=time.perf_counter() - start) if isinstance(found, Proof) else found


def z3_lemma(name: str, statement: str, done: Discharged) -> Lemma:
    """A lemma proved by Z3: its certificate and the hypotheses its proof used."""
    return Lemma(name, statement, "Z3", done.obligation.path, done.used)
