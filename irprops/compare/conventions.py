"""The named conventions that explain why a toolkit's score differs from a declared definition on a case.

A convention says what the definition would score on the case under it; a difference is explained by the first
convention (or pair of them) whose value the toolkit's agrees with. What none explains is reported as unexplained: a
candidate bug, or a convention not named here. They are tried in this order:

* **R = 0 scored 0**: the definition has no value (no relevant document) and the toolkit scores 0;
* **undefined scored 0**: the definition has no value for another reason (say SN-AP with nothing relevant retrieved);
* **no score where defined**: the toolkit leaves the query out where the definition has a value;
* a **tie policy**, on a case with tied scores (irprops' own value is the expectation over the orders of the tied
  documents, McSherry and Najork 2008): **ties broken by** input order, its reverse, docno ascending or docno
  descending; or **a tie across the depth counted in proportion** (rbp_eval: every tied document gets the mean weight
  of the tie's ranks, times the fraction of the tie above the depth);
* a **gain convention**, alone or after a tie policy: **gains rescaled to integers** (the definition's value times the
  integer scale the grades were given in, :data:`~irprops.toolkits.GRADE_SCALE`: 1/2 and 1 as 6 and 12, so that a
  metric linear in the gains such as RBP exceeds 1),
  or **grades thresholded to binary** (every relevant grade read as 1);
* **divides by R, not min(k, R)**: the definition's value times min(k, R)/R (trec_eval's Rprec given the top k);
* **the depth ignored**: the definition's value on the whole ranking (at a depth of its length, or R if more: ranx's
  r-precision reads no cutoff);
* **unjudged documents removed**: the definition's value on the ranking without its unjudged documents;
* **ties broken in another order**: on a tied case, where no tie policy is consistent with every tied case, the
  definition's value on some order of the tied documents (ranx's sort is not stable past a few documents).

A case the toolkit failed on (an error, NaN) is a difference of its own, **the implementation failed**, with its problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from irprops.metrics import Measure, Situation, Undefined
from irprops.toolkits import GRADE_SCALE

from .cases import ONE, Case, arrangements, orders

TOLERANCE = 1e-9
"""Two scores agree when they differ by at most this much, relative to the larger of 1 and the definition's value."""

TIE_ORDERS = ("input order", "reverse input order", "docno ascending", "docno descending")
EXPECTATION = "expectation over tie orders"
PRORATED = "a tie across the depth counted in proportion"
TIE_POLICIES = (EXPECTATION, PRORATED, *TIE_ORDERS)
"""Every tie policy: irprops' own first (the value a tied case is compared with)."""
ANOTHER_ORDER = "ties broken in another order"
"""The toolkit's value is the definition's on some order of the tied documents other than the four named ones (an
unstable sort, say): tried after them, only where no policy of :data:`TIE_POLICIES` is consistent with every tied case."""
RESCALED, THRESHOLDED = "gains rescaled to integers", "grades thresholded to binary"
R0, UNDEFINED, NO_SCORE = "R = 0 scored 0", "undefined scored 0", "no score where defined"
BY_R, CONDENSED = "divides by R, not min(k, R)", "unjudged documents removed"
DEPTH_IGNORED = "the depth ignored (the whole ranking scored)"
UNEXPLAINED = "unexplained (a candidate bug, or a convention irprops does not name)"
FAILED = "the implementation failed (it raised an error, or returned no number)"
BATCH_DEPENDENT = "the score depends on the other queries of the call"
"""A difference's witness, scored again alone, scores otherwise (pairing qrels and run by position, say)."""


def agree(value: float | None, reference: float | None) -> bool:
    """Whether a toolkit's value agrees with a reference: both absent, or both present within :data:`TOLERANCE`."""
    if value is None or reference is None:
        return value is None and reference is None
    return abs(value - reference) <= TOLERANCE * max(1.0, abs(reference))


def value(measure: Measure, s: Situation) -> float | None:
    """The definition's float on a situation, None where it has no value."""
    found = measure.at(s.k).screen(s)
    return None if isinstance(found, Undefined) else float(found)


def expected(measure: Measure, case: Case, read: Callable[[Situation], float | None] | None = None) -> float | None:
    """The definition's value on a case: on a tied one, the mean over every order of the tied documents (None if any
    order has none); ``read``: how an order is scored (by default the definition's :func:`value`)."""
    found = arrangements(case)
    if found is None:
        raise ValueError("too many orders of the tied documents to average")
    values = [(read or (lambda x: value(measure, x)))(s) for s in found]
    return None if any(v is None for v in values) else sum(values) / len(values)  # type: ignore[arg-type]


def prorate(measure: Measure, case: Case, read: Callable[[Situation], float | None] | None = None) -> float | None:
    """The case's value when a group of tied documents across the depth counts in proportion to its part above the
    depth (the expected values without and with the whole group, weighted by that part); the expectation when no group
    crosses the depth."""
    s = case.situation
    start = 0
    for size in case.ties or ():
        if start < s.k < start + size:
            below = 0.0 if start == 0 else expected(measure, Case(s.at_depth(start), case.ties), read)
            whole = expected(measure, Case(s.at_depth(start + size), case.ties), read)
            if below is None or whole is None:
                return None
            return below + (whole - below) * (s.k - start) / size
        start += size
    return expected(measure, case, read)


def under(measure: Measure, case: Case, tie: str, gain: str | None = None, scaling: str | None = None,
          condensed: bool = False, scale: int = GRADE_SCALE) -> float | None:
    """The definition's value on ``case`` under the tie policy ``tie``, the gain convention ``gain`` (None: the grades as
    they are; :data:`RESCALED`: times ``scale``, the integer scale the toolkit was given the grades in), ``scaling``
    (:data:`BY_R` or None) and, with ``condensed``, without the unjudged documents; None where it has no value (and for
    :data:`ANOTHER_ORDER`, which has a value per order: :func:`values_under`)."""
    found = values_under(measure, case, tie, gain, scaling, condensed, scale)
    return found[0] if len(found) == 1 else None


def values_under(measure: Measure, case: Case, tie: str, gain: str | None = None, scaling: str | None = None,
                 condensed: bool = False, scale: int = GRADE_SCALE) -> list[float | None]:
    """:func:`under`'s value, or under :data:`ANOTHER_ORDER` the value on each order of the tied documents."""
    s = case.situation
    if scaling == DEPTH_IGNORED:
        case = Case(s.at_depth(_whole(s)), case.ties)
        s = case.situation
    if condensed and None not in s.ranking:
        return [None]

    def read(order: Situation) -> float | None:  # an order of the tied documents, condensed after it is chosen
        if condensed:
            order = Situation.unchecked(tuple(g for g in order.ranking if g is not None), order.k, order.qrels,
                                        order.nonrelevant)
        return value(measure, order)

    if gain == THRESHOLDED:
        s = case.situation
        case = Case(Situation.unchecked(tuple(None if g is None else (ONE if g else g) for g in s.ranking), s.k,
                                        tuple(ONE for _ in s.qrels), s.nonrelevant), case.ties)
    found: list[float | None]
    if tie == EXPECTATION or not case.ties:
        found = [expected(measure, case, read)]
    elif tie == PRORATED:
        found = [prorate(measure, case, read)]
    elif tie == ANOTHER_ORDER:  # the orders none of the named policies gives
        named = {order.ranking for order in orders(case).values()}
        found = [read(order) for order in arrangements(case) or () if order.ranking not in named]
    else:
        found = [read(orders(case)[tie])]
    return [_scaled(v, s, gain, scaling, scale) for v in found]


def _whole(s: Situation) -> int:
    """The depth past which nothing changes: the ranking's length, and R (for a metric that reads R ranks)."""
    return max(s.k, len(s.ranking), s.R)


def _scaled(found: float | None, s: Situation, gain: str | None, scaling: str | None, scale: int) -> float | None:
    if found is None:
        return None
    if gain == RESCALED:
        found *= scale
    if scaling == BY_R:
        if s.R <= s.k:
            return None
        found *= min(s.k, s.R) / s.R
    return found


Choice = tuple[Measure, str, "str | None", "str | None", bool]


def choices(measure: Measure, case: Case, others: Iterable[Measure] = (), ties: Iterable[str] = (),
            scale: int = GRADE_SCALE) -> list[Choice]:
    """Every combination of conventions that may apply to ``case`` (the definition as it is excluded), fewest first; a
    declared metric of ``others`` counts as one convention ("as SN-AP"), tried before the others of as many; on a tied
    case, only the tie policies ``ties`` (those consistent with every tied case) and the expectation (where the order
    makes no difference), or every one if there are none, tie orders before the other conventions of as many."""
    s = case.situation
    ties = list(ties)
    policies = ([EXPECTATION, *ties] if ties else [*TIE_POLICIES, ANOTHER_ORDER]) if case.ties else [EXPECTATION]
    gains: list[str | None] = [None, *([RESCALED] if scale != 1 else []), *([THRESHOLDED] if any(g != 1 for g in s.qrels) else [])]
    scalings: list[str | None] = [None, *([BY_R] if s.R > s.k else []), *([DEPTH_IGNORED] if _whole(s) > s.k else [])]
    condensing = [False, True] if None in s.ranking else [False]
    found = [(m, tie, gain, scaling, condense) for m in (measure, *others) for tie in policies for gain in gains
             for scaling in scalings for condense in condensing]
    found = [c for c in found if c != (measure, EXPECTATION, None, None, False)]
    # a tied case's value is first read as a tie order (before a gain or scaling convention as many: a coincidence),
    # another order of the tied documents last among them
    return sorted(found, key=lambda c: (_count(c, measure), c[0] is measure, c[1] == EXPECTATION, c[1] == ANOTHER_ORDER))


def _count(choice: Choice, measure: Measure) -> int:
    m, tie, gain, scaling, condense = choice
    return (m is not measure) + (tie != EXPECTATION) + (gain is not None) + (scaling is not None) + condense


def name(choice: Choice, measure: Measure) -> str:
    """The conventions of a choice, joined by " + "."""
    m, tie, gain, scaling, condense = choice
    parts = [f"as {m.name}" if m is not measure else None, None if tie == EXPECTATION else _tie_name(tie), gain, scaling,
             CONDENSED if condense else None]
    return " + ".join(p for p in parts if p)


def explain(measure: Measure, case: Case, own: float | None, found: float | None, ties: Iterable[str] = (),
            others: Iterable[Measure] = (), scale: int = GRADE_SCALE) -> str:
    """The first of :func:`explanations`."""
    return explanations(measure, case, own, found, ties, others, scale)[0]


def explanations(measure: Measure, case: Case, own: float | None, found: float | None, ties: Iterable[str] = (),
                 others: Iterable[Measure] = (), scale: int = GRADE_SCALE) -> list[str]:
    """Every combination of conventions that explains the toolkit's value ``found`` where the definition's is ``own``,
    of the fewest conventions that do or one more, fewest first and then in the order of :func:`choices` (the tie
    policies ``ties``, consistent with every tied case, before the others; the declared metrics ``others`` the toolkit
    agrees with as one convention each); ``[UNEXPLAINED]`` when none does. ``irprops compare`` then names each class
    by the explanation most cases share, so that a coincidence of fewer conventions on a few cases does not name them
    (trec_eval's Rprec on a tie across the depth: docno order and R as divisor, not "the depth ignored")."""
    if own is None and found == 0:
        return [R0 if case.situation.R == 0 else UNDEFINED]
    if found is None:
        return [NO_SCORE]
    names: list[str] = []
    fewest = None
    for choice in choices(measure, case, others, ties, scale):
        count = _count(choice, measure)
        if fewest is not None and count > fewest + 1:
            break
        if any(agree(found, v) for v in values_under(choice[0], case, *choice[1:], scale)):
            names.append(name(choice, measure))
            fewest = count
    return names or [UNEXPLAINED]


def _tie_name(policy: str) -> str:
    return policy if policy in (PRORATED, ANOTHER_ORDER) else f"ties broken by {policy}"


def consistent(measure: Measure, case: Case, found: float | None, others: Iterable[Measure] = (),
               scale: int = GRADE_SCALE) -> set[str] | None:
    """The tie policies under which (with some other convention) the toolkit's value on a tied case agrees; None where
    the toolkit gives no score, or the definition has none under any (R = 0: the tie says nothing)."""
    if found is None:  # the toolkit gave no score: its ties say nothing
        return None
    every = [(measure, EXPECTATION, None, None, False),  # every tie policy
             *(c for c in choices(measure, case, others, (), scale) if c[1] != ANOTHER_ORDER)]
    values = [(c[1], under(c[0], case, *c[1:], scale)) for c in every]
    if all(v is None for _, v in values):
        return None
    return {tie for tie, v in values if agree(found, v)}
