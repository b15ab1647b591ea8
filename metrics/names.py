"""Metric names as people type them: ``nDCG@10``, ``RBP(p=0.5)@10``, ``MAP``, ``SN-DCG@5``.

The syntax is ir_measures': ``NAME[(param=value, ...)][@k]``. Names and aliases are
matched case-insensitively against the registry; a name without ``@k`` is the family
over all depths. Unknown names fail with the closest known names.

trec_eval's and ranx's names (``ndcg_cut_10``, ``P_5``, ``recip_rank``, ``rbp.8``,
``hit_rate@5``) are read through :mod:`metrics.spellings`. ir_measures' parameters are
read as irprops' scale of grades in [0, 1] gives them meaning:

* ``rel=t`` (any metric): grades >= t count as relevant (1), the others as nonrelevant (0).
  ir_measures' integer levels are grades g/M of a scale 0..M: its ``rel=2`` of 0..3 is
  ``rel=2/3`` here;
* ``max_rel=M`` (the metrics that declare it, the DCG family): the top of the grade scale, which irprops' grade 1 is
  (an integer grade g of 0..M is g/M), so it changes no value;
* ``dcg=log2``: the linear-gain DCG irprops declares; ``nDCG(dcg=exp-log2)`` is NDCG-exp, nDCG over Burges et al.'s
  exponential gain, whose ``max_rel=M`` is its parameter gmax (the top integer level, default 2).
"""

from __future__ import annotations

import re
from fractions import Fraction

from .errors import InputError, close_matches, exact_number
from .registry import MAX_DEPTH, REGISTRY, Measure, Metric
from .spellings import REFUSED, spelled

_SYNTAX = re.compile(r"^\s*(?P<base>[A-Za-z][\w*-]*?)\s*(?:\((?P<params>[^()]*)\))?\s*(?:@\s*(?P<k>[^@\s]*))?\s*$")
_HINT = "write NAME, NAME@k or NAME(param=value)@k, e.g. nDCG@10 or RBP(p=0.8)@10"


def known_names() -> list[str]:
    """Every accepted metric name and alias, in registry order."""
    return [name for metric in REGISTRY.values() for name in metric.names]


def lookup(base: str) -> Metric:
    """The metric a bare name (no parameters, no depth) refers to.

    >>> lookup("MAP").key, lookup("success").key, lookup("sn-dcg").key
    ('AP', 'Success', 'SN-DCG')
    """
    wanted = base.strip().lower()
    for metric in REGISTRY.values():
        if wanted in (name.lower() for name in metric.names):
            return metric
    if wanted in REFUSED:
        raise InputError("metric", base, *REFUSED[wanted])
    best = {}
    for metric in REGISTRY.values():
        for found in close_matches(base, metric.names, n=1):
            best[metric.key] = found
    suggestions = close_matches(base, best.values())
    hint = f"did you mean {' or '.join(suggestions)}?" if suggestions else f"known metrics: {', '.join(REGISTRY)}"
    raise InputError("metric", base, "unknown metric", hint)


def parse(name: str) -> Measure:
    """Parse a metric name into a :class:`Measure`.

    >>> parse("RBP(p=0.5)@10").name, parse("NDCG").name, parse("Prec@5").name
    ('RBP(p=0.5)@10', 'NDCG', 'P@5')
    >>> parse("ndcg_cut_10").name, parse("rbp.95").name, parse("nDCG(dcg=log2,max_rel=3)@10").name, parse("AP(rel=2/3)").name
    ('NDCG@10', 'RBP(p=0.95)', 'NDCG@10', 'AP(rel=2/3)')
    >>> parse("nDCG(dcg=exp-log2,max_rel=3)@10").name, parse("ndcg_burges@5").name
    ('NDCG-exp(gmax=3)@10', 'NDCG-exp(gmax=2)@5')
    >>> parse("nDGC@10")
    Traceback (most recent call last):
    ...
    irprops.metrics.errors.InputError: metric = 'nDGC': unknown metric (did you mean NDCG or SNDCG or DCG?)
    """
    match = _SYNTAX.match(spelled(name) or name)
    if not match:
        raise InputError("metric", name, "not a metric name", _HINT)
    metric, text = _exponential_gain(lookup(match["base"]), match["params"])
    params, rel = _parse_params(metric, text)
    measure = Measure(metric, params, rel=rel)
    if match["k"] is None:
        return measure
    if not re.fullmatch(r"[+-]?\d+", match["k"]):
        raise InputError("metric", name, f"the depth {match['k']!r} after @ is not an integer", _HINT)
    if len(match["k"].lstrip("+-0")) > len(str(MAX_DEPTH)):
        raise InputError("metric", name, f"the depth k after @ must be at most {MAX_DEPTH:,}", f"e.g. {metric.key}@10")
    # leading zeros stripped first: int() refuses a string of more than 4,300 digits, zeros included
    k = int(("-" if match["k"].startswith("-") else "") + (match["k"].lstrip("+-").lstrip("0") or "0"))
    if k < 1:
        raise InputError("metric", name, "the depth k after @ must be at least 1", f"e.g. {metric.key}@10")
    return measure.at(k)


EXPONENTIAL = {"NDCG": "NDCG-exp", "NDCG-exp": "NDCG-exp"}
"""The metric ir_measures' ``dcg=exp-log2`` names, by the metric it is written on (its ``max_rel`` is the new one's gmax)."""


def _exponential_gain(metric: Metric, text: str | None) -> tuple[Metric, str | None]:
    """``nDCG(dcg=exp-log2, max_rel=M)`` as ``NDCG-exp(gmax=M)``: the metric and the parameters that remain. ``max_rel``
    is checked here, under the name the user wrote."""
    items = [(item, *(part.strip() for part in item.partition("="))) for item in (text or "").split(",") if item.strip()]
    exponential = any(key == "dcg" and value.lower() == "exp-log2" for _, key, _, value in items) or metric.key == "NDCG-exp"
    if not exponential:
        return metric, text
    if metric.key not in EXPONENTIAL:
        declared = ", ".join(f"{key} ({variant})" for key, variant in EXPONENTIAL.items() if key != variant)
        raise InputError(f"{metric.key} parameter dcg", "exp-log2", "the exponential gain is declared for nDCG only",
                         f"declared: {declared}; declare another as a proposal (irprops check --help)")
    variant = REGISTRY[EXPONENTIAL[metric.key]]
    top = next(p for p in variant.params if p.name == "gmax")
    if {"gmax", "max_rel"} <= {key for _, key, _, _ in items}:
        raise InputError(f"{metric.key} parameter", "max_rel", "gives gmax a second time (ir_measures' max_rel is NDCG-exp's gmax)",
                         "give gmax or max_rel, not both")
    for item, key, eq, value in items:
        if key in ("dcg", "max_rel") and sum(1 for _, other, _, _ in items if other == key) > 1:
            raise InputError(f"{metric.key} parameter", item.strip(), "write each parameter once, as name=value")
        if key == "dcg" and value.lower() != "exp-log2":
            raise InputError(f"{metric.key} parameter dcg", value, "must be exp-log2 (the exponential gain) or log2 (linear)")
        if key == "max_rel":
            level = exact_number(value, f"{metric.key} parameter max_rel", "e.g. max_rel=3")
            if not eq or level.denominator != 1 or not top.valid(level):
                raise InputError(f"{metric.key} parameter max_rel", value, f"must satisfy {top.rule.replace('gmax', 'max_rel')} "
                                 "(the top integer grade level: NDCG-exp's gmax)")
    kept = [f"gmax={value}" if key == "max_rel" else item for item, key, _, value in items if key != "dcg"]
    return variant, ",".join(kept)


def _parse_params(metric: Metric, text: str | None) -> tuple[dict[str, Fraction], Fraction | None]:
    """The metric's parameter values (defaults where not given), and ir_measures' ``rel=`` threshold if given."""
    values = metric.defaults()
    rel: Fraction | None = None
    if text is None or not text.strip():
        return values, rel
    declared = {p.name: p for p in metric.params}
    seen: set[str] = set()
    for item in text.split(","):
        key, eq, raw = (part.strip() for part in item.partition("="))
        if not eq or key in seen:
            raise InputError(f"{metric.key} parameter", item.strip(), "write each parameter once, as name=value")
        seen.add(key)
        if key in declared:
            value = exact_number(raw, f"{metric.key} parameter {key}", f"e.g. {key}={declared[key].default}")
            values[key] = declared[key].check(value, metric.key)
        elif key == "rel":
            rel = _threshold(metric, raw)
        elif key in _SCALE:
            _check_scale(metric, key, raw)
        else:
            known = ", ".join([*declared, "rel", *metric.scale_params])
            raise InputError(f"{metric.key} parameter", key, "no such parameter", f"{metric.key} takes: {known}")
    return values, rel


def _threshold(metric: Metric, raw: str) -> Fraction:
    value = exact_number(raw, f"{metric.key} parameter rel", "e.g. rel=1/2")
    if value > 1 and value.denominator == 1:
        raise InputError(f"{metric.key} parameter rel", raw, "irprops' grades lie in [0, 1], so a threshold above 1 keeps nothing",
                         f"an integer level g of a scale 0..M is the grade g/M: ir_measures' rel={value} of grades 0..3 is "
                         f"rel={value}/3")
    if not 0 < value <= 1:
        raise InputError(f"{metric.key} parameter rel", raw, "the threshold must lie in (0, 1]", "e.g. rel=1/2")
    return value


_SCALE: dict[str, str] = {
    "max_rel": "an integer >= 1 (the top of the grade scale, which irprops' grade 1 is)",
    "dcg": "log2 (ir_measures' exp-log2, the exponential gain, is NDCG-exp on nDCG)",
}


def _check_scale(metric: Metric, key: str, raw: str) -> None:
    """Refuse an ir_measures parameter naming irprops' own convention (so changing no value) where it does not apply or
    has another value."""
    if key not in metric.scale_params:
        where = ", ".join(m.key for m in REGISTRY.values() if key in m.scale_params)
        raise InputError(f"{metric.key} parameter", key, "no such parameter", f"{key} applies to {where}")
    ok = raw.isdigit() and raw.strip("0") != "" if key == "max_rel" else raw.lower() == "log2"  # max_rel: an integer >= 1
    if not ok:
        raise InputError(f"{metric.key} parameter {key}", raw, f"must be {_SCALE[key]}")
