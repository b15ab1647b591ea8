"""The conflict between the properties, as a theorem about any metric (Z3 over an abstract metric).

Moffat (2013, Section 4): "Is it possible for a metric to possess all seven of the
properties? The answer is no, because monotonicity and convergence between them require
that on any ranking that currently contains k < R documents, the score assigned cannot yet
be 1.0, making realizability impossible."

Formalised over an *abstract* metric, an unknown score S(x, k) and definedness D(x, k) on
the arrangements x of one collection (two relevant documents of grade 1 and one
nonrelevant) at depths 1 and 2, with M an upper bound of every defined score (the
supremum bounds them all). Each property contributes its instances on these six
situations, exactly as the property modules state it (comparisons with an undefined side
are not counterexamples). Any metric with the properties satisfies the instances, so
unsatisfiability proves the theorem for every metric.

Z3 finds: with monotonicity, convergence, localization, realizability, and the score
defined whenever the collection holds a relevant document, the instances are
unsatisfiable (the theorem, with a certificate). Without localization, or without the
definedness assumption, they have models: the argument as the paper words it needs both
(a metric undefined wherever a comparison would bite, or one that reads below the depth,
escapes it; :data:`WITHOUT_LOCALIZATION` is such a metric).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import z3

from irprops.verdicts import Prop

from .smt import Obligation, answer, conj, discharge

COLLECTION = (1, 1, 0)
ARRANGEMENTS = tuple(sorted(set(itertools.permutations(COLLECTION))))
DEPTHS = (1, 2)
PATH = "conflict/monotonic-convergent-localized-realizable.smt2"

WITHOUT_LOCALIZATION = (
    "S@k = 1 when the ranking is the ideal arrangement of its collection (the qrels sorted decreasingly, "
    "then nothing relevant), else D / (2 (1 + D)) with D = DCG@k: monotonic (D grows with k), convergent "
    "(a swap raises D, or makes the ranking ideal), realizable (the ideal scores 1, all else below 1/2), "
    "but not localized (it reads the whole ranking)"
)


def _name(x: tuple[int, ...], k: int) -> str:
    return f"{''.join(map(str, x))}@{k}"


def _swap(x: tuple[int, ...], i: int, j: int) -> tuple[int, ...]:
    y = list(x)
    y[i - 1], y[j - 1] = y[j - 1], y[i - 1]
    return tuple(y)


def instances(localized: bool = True, defined_with_relevant: bool = True) -> list[tuple[str, z3.BoolRef]]:
    """The properties' instances on the core, named for unsat cores."""
    S = {(x, k): z3.Real(f"S_{_name(x, k)}") for x in ARRANGEMENTS for k in DEPTHS}
    D = {(x, k): z3.Bool(f"D_{_name(x, k)}") for x in ARRANGEMENTS for k in DEPTHS}
    M = z3.Real("M")
    out = [("M bounds every defined score", conj([z3.Implies(D[s], S[s] <= M) for s in S])),
           ("realizable at depth 1", z3.Or([z3.And(D[(x, 1)], S[(x, 1)] == M) for x in ARRANGEMENTS])),
           (Prop.MONOTONIC, conj([z3.Implies(z3.And(D[(x, 1)], D[(x, 2)]), S[(x, 2)] >= S[(x, 1)]) for x in ARRANGEMENTS]))]
    convergent = []
    for x, k in [(x, k) for x in ARRANGEMENTS for k in DEPTHS]:
        for i in range(1, k + 1):
            for j in range(k + 1, len(COLLECTION) + 1):
                if x[i - 1] < x[j - 1]:
                    y = _swap(x, i, j)
                    convergent.append(z3.Implies(z3.And(D[(x, k)], D[(y, k)]), S[(y, k)] > S[(x, k)]))
    out.append((Prop.CONVERGENT, conj(convergent)))
    if localized:
        same_top = [(x, y) for x in ARRANGEMENTS for y in ARRANGEMENTS if x < y and x[:1] == y[:1]]
        out.append((Prop.LOCALIZED,
                    conj([z3.And(D[(x, 1)] == D[(y, 1)], z3.Implies(D[(x, 1)], S[(x, 1)] == S[(y, 1)])) for x, y in same_top])))
    if defined_with_relevant:
        out.append(("defined whenever the collection holds a relevant document", conj(list(D.values()))))
    return out


def theorem() -> Obligation:
    """The obligation whose unsatisfiability is the theorem (its certificate)."""
    ob = Obligation(PATH, {
        "metric": "any metric (an abstract score S and definedness D on six situations)",
        "property": "the conflict between the properties (Moffat 2013, Section 4)",
        "reach": "every metric",
        "lemma": "conflict",
        "proves": "no metric defined whenever a relevant document exists is monotonic, convergent, localized and realizable",
    })
    for name, formula in instances():
        ob.assume(name, formula)
    ob.ask("the four properties together", z3.BoolVal(True))
    return ob


@dataclass(frozen=True)
class Conflict:
    """The theorem's status, the hypotheses its proof used, and the variants that have models."""

    proved: bool
    statement: str
    used: tuple[str, ...]
    variants: tuple[tuple[str, str], ...]
    certificate: str = PATH


def conflict() -> Conflict:
    done = discharge(theorem())
    variants = []
    for description, localized, defined in (("without localization", False, True), ("without the definedness assumption", True, False)):
        solver = z3.Solver()
        solver.add(*(f for _, f in instances(localized, defined)))
        variants.append((description, answer(solver)))
    statement = ("No metric that is defined whenever the collection holds a relevant document is at once monotonic, convergent, "
                 "localized and realizable")
    return Conflict(done.proved, statement, done.used, tuple(variants))
