"""Before a declared metric's fold is proved anything about: the fold program must score what the metric scores.

The induction proofs (:mod:`proofs.foldproofs`) are about the fold program :func:`proofs.folds.extract` reads off the
closed form. For the catalog's metrics a test runs each fold against the exact form; a declared metric's fold is
extracted when it is proved, so it is compared here, at that moment, with the metric's exact form: every binary ranking
of up to 6 documents (every graded one of up to 4) at depths 1 to 5, and structured and drawn rankings at depths 10 and
30, each with R the relevant documents it ranks and R above that. A fold that scores one of them differently (or has no
value where the metric has one) is not used. Like the agreement check of the forms, this is defence in depth, not a proof.

>>> from irprops.metrics import parse
>>> from .folds import extract
>>> from .structure import prepare
>>> p = prepare(parse("AP"))
>>> disagreement(p, extract(p)) is None
True
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import sympy

from irprops.metrics import Situation, Undefined, judged_nonrelevant
from irprops.metrics.errors import Undecided
from irprops.metrics.exact import compare, show

from .folds import Fold
from .structure import Prepared

__all__ = ["FOLD_CHECKED", "FOLD_CHECKED_MARKED", "disagreement"]

FOLD_CHECKED = ("the fold program is the closed form's (extracted from it), and it scored like the exact form on every "
                "ranking of up to 6 binary or 4 graded documents at depths 1 to 5 and on structured and drawn rankings at "
                "depths 10 and 30 before the proof")
"""The trusted-base line of a declared metric's fold proof."""
FOLD_CHECKED_MARKED = ("the fold program is the closed form's (extracted from it), and it scored like the exact form on every "
                       "ranking over the scale and unjudged documents of up to 5 binary or 3 graded documents at depths 1 to 4 "
                       "(one longer than the depth, and one shorter: a short run), each with N its judged nonrelevant documents "
                       "and two more, and on drawn ones at depths 10 and 30, before the proof")
"""The same, for a fold over unjudged marks and N."""


def _scale(binary: bool) -> tuple[Fraction, ...]:
    return (Fraction(0), Fraction(1)) if binary else (Fraction(0), Fraction(1, 2), Fraction(1))


def _with_rs(ranking: tuple[Fraction | None, ...], k: int, marked: bool = False) -> list[Situation]:
    """The ranking at depth k with R its relevant documents, one more and three more (of grade 1); ``marked``: each with N
    its judged nonrelevant documents and two more."""
    relevant = tuple(sorted((g for g in ranking if g), reverse=True))
    zeros = judged_nonrelevant(ranking)
    counts = (zeros, zeros + 2) if marked else (None,)
    return [Situation(ranking, k, relevant + (Fraction(1),) * extra, N) for extra in (0, 1, 3) for N in counts]


def situations(binary: bool, marked: bool = False) -> list[Situation]:
    """The situations a declared fold is compared on (the same on every run); ``marked`` (a fold that reads unjudged marks
    or N): rankings with unjudged documents too, each with N."""
    if marked:
        return _marked(binary)
    scale = _scale(binary)
    found: list[Situation] = []
    for k in range(1, 6 if binary else 4):
        for ranking in itertools.product(scale, repeat=k + 1):
            found += _with_rs(ranking, k)
    draw = random.Random("irprops fold check")
    one, zero = Fraction(1), Fraction(0)
    for k in (10, 30):
        rankings = [(zero,) * (k + 1), (one,) * (k + 1), (zero,) * (k - 1) + (one, zero), (one, zero) * (k // 2) + (one,),
                    *(tuple(draw.choice(scale) for _ in range(k + 1)) for _ in range(6))]
        for ranking in rankings:
            found += _with_rs(ranking, k)
    return found


def _marked(binary: bool) -> list[Situation]:
    """Every ranking over the scale and unjudged documents of up to 5 (binary) or 3 (graded) documents at depths 1 to 4,
    one document longer than the depth and as long (a short run's last ranks are unjudged down to the depth), and
    structured and drawn ones at depths 10 and 30."""
    entries: tuple[Fraction | None, ...] = (*_scale(binary), None)
    found: list[Situation] = []
    for k in range(1, 5 if binary else 3):
        for length in (k - 1, k + 1):
            for ranking in itertools.product(entries, repeat=length):
                found += _with_rs(ranking, k, marked=True)
    draw = random.Random("irprops fold check, marked")
    for k in (10, 30):
        for _ in range(8):
            found += _with_rs(tuple(draw.choice(entries) for _ in range(draw.choice((k - 3, k + 1)))), k, marked=True)
    return found


def disagreement(p: Prepared, fold: Fold) -> str | None:
    """Where ``fold`` scores a situation differently from the metric's exact form (a sentence), or None."""
    params = {s: sympy.Rational(v.numerator, v.denominator) for s, v in p.form.params.items()}
    for situation in situations(p.binary, fold.reads_marks()):
        expected = p.measure.exact(situation)
        if isinstance(expected, Undefined):
            continue  # the proofs show the metric defined where they conclude anything; the fold need not be
        try:
            got = fold.run(situation, p.k, p.R, params)
            same = got is not None and compare(got, expected) == 0
        except Undecided:
            continue  # no decision: not evidence of a disagreement
        except (TypeError, ValueError, ArithmeticError) as error:
            got, same = f"an error ({type(error).__name__})", False  # type: ignore[assignment]
        if not same:
            marks = ("" if p.binary else ", ").join("?" if g is None else str(int(g)) if p.binary else show(g) for g in situation.ranking)
            N = "" if situation.nonrelevant is None else f" and N = {situation.nonrelevant}"
            return (f"the fold extracted from the closed form scores {got if got is None or isinstance(got, str) else show(got)} "
                    f"at k = {situation.k} on {marks} with R = {situation.R}{N}, where the metric scores {show(expected)}")
    return None
