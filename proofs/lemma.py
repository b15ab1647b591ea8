"""Proofs as values: a chain of named lemmas, each machine-checked or explicitly a meta-step.

A :class:`Proof` says which property it settles ("yes", or "no" for an unboundedness
proof), how far it reaches ("all k" or "k <= K"), the lemmas in order, the trusted base
(axioms, computer-algebra computations, meta-steps a reader must accept), and the Z3
obligations that become certificates. :class:`Failed` says why no proof was found; it is
never a verdict by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from properties.verdict import Verdict, Witness

from .smt import Discharged, Obligation


@dataclass(frozen=True)
class Lemma:
    """One step of a proof."""

    name: str
    statement: str
    method: Literal["Z3", "SymPy", "meta-step", "structure", "exact arithmetic"]
    certificate: str | None = None
    used: tuple[str, ...] = ()
    """For Z3 lemmas, the hypotheses the unsat core used."""

    def line(self) -> str:
        how = self.method + (f", {self.certificate}" if self.certificate else "")
        used = f"; used: {', '.join(self.used)}" if self.used else ""
        return f"{self.name} ({how}): {self.statement}{used}"


@dataclass(frozen=True)
class Proof:
    """A machine-checked settlement of one property of one measure."""

    property: str
    conclusion: Literal["yes", "no"]
    reach: str
    """"all k", or "k <= K"."""
    lemmas: tuple[Lemma, ...]
    trusted: tuple[str, ...]
    obligations: tuple[Obligation, ...] = ()
    witness: Witness | None = None
    seconds: float = field(default=0.0, compare=False)

    def verdict(self) -> Verdict:
        chain = " ".join(f"[{n}] {lemma.line()}." for n, lemma in enumerate(self.lemmas, start=1))
        evidence = f"{chain} Trusted: {'; '.join(self.trusted)}."
        return Verdict(self.property, self.conclusion, f"proof ({self.reach})", evidence, self.witness, len(self.lemmas), self.seconds)


@dataclass(frozen=True)
class Failed:
    """No proof: why (a lemma that does not hold or could not be shown, a solver answer)."""

    property: str
    reason: str


def z3_lemma(name: str, statement: str, done: Discharged) -> Lemma:
    """A lemma proved by Z3: its certificate and the hypotheses its proof used."""
    return Lemma(name, statement, "Z3", done.obligation.path, done.used)
