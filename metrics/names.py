"""Metric names as people type them: ``nDCG@10``, ``RBP(p=0.5)@10``, ``MAP``, ``SN-DCG@5``.

The syntax is ir_measures': ``NAME[(param=value, ...)][@k]``. Names and aliases are
matched case-insensitively against the registry; a name without ``@k`` is the family
over all depths. Unknown names fail with the closest known names.
"""

from __future__ import annotations

import re
from fractions import Fraction

from .errors import InputError, close_matches, exact_number
from .registry import MAX_DEPTH, REGISTRY, Measure, Metric

_SYNTAX = re.compile(r"^\s*(?P<base>[A-Za-z][\w*-]*?)\s*(?:\((?P<params>[^()]*)\))?\s*(?:@\s*(?P<k>[^@\s]*))?\s*$")
_HINT = "write NAME, NAME@k or NAME(param=value)@k, e.g. nDCG@10 or RBP(p=0.8)@10"


def known_names() -> list[str]:
    """Every accepted metric name and alias, in registry order."""
    return [name for metric in REGISTRY.values() for name in metric.names]


def lookup(base: str) -> Metric:
    """The metric a bare name (no parameters, no depth) refers to.

    >>> lookup("MAP").key, lookup("success").key, lookup("sn-dcg").key
    ('AP', 'HIT', 'SN-DCG')
    """
    wanted = base.strip().lower()
    for metric in REGISTRY.values():
        if wanted in (name.lower() for name in metric.names):
            return metric
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
    >>> parse("nDGC@10")
    Traceback (most recent call last):
    ...
    irprops.metrics.errors.InputError: metric = 'nDGC': unknown metric (did you mean NDCG or SNDCG or DCG?)
    """
    match = _SYNTAX.match(name)
    if not match:
        raise InputError("metric", name, "not a metric name", _HINT)
    metric = lookup(match["base"])
    params = _parse_params(metric, match["params"])
    measure = Measure(metric, params)
    if match["k"] is None:
        return measure
    if not re.fullmatch(r"[+-]?\d+", match["k"]):
        raise InputError("metric", name, f"the depth {match['k']!r} after @ is not an integer", _HINT)
    if len(match["k"].lstrip("+-0")) > len(str(MAX_DEPTH)):
        raise InputError("metric", name, f"the depth k after @ must be at most {MAX_DEPTH:,}", f"e.g. {metric.key}@10")
    k = int(match["k"])
    if k < 1:
        raise InputError("metric", name, "the depth k after @ must be at least 1", f"e.g. {metric.key}@10")
    return measure.at(k)


def _parse_params(metric: Metric, text: str | None) -> dict[str, Fraction]:
    values = metric.defaults()
    if text is None or not text.strip():
        return values
    declared = {p.name: p for p in metric.params}
    seen: set[str] = set()
    for item in text.split(","):
        key, eq, raw = (part.strip() for part in item.partition("="))
        if key not in declared:
            known = ", ".join(declared) or "none"
            raise InputError(f"{metric.key} parameter", key, "no such parameter", f"{metric.key} takes: {known}")
        if not eq or key in seen:
            raise InputError(f"{metric.key} parameter", item.strip(), "write each parameter once, as name=value")
        value = exact_number(raw, f"{metric.key} parameter {key}", f"e.g. {key}={declared[key].default}")
        values[key] = declared[key].check(value, metric.key)
        seen.add(key)
    return values
