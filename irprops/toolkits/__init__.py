"""The IR toolkits irprops can check directly: their names, how a metric of theirs is named, and the adapter contract.

A toolkit metric is named ``TOOLKIT:NAME``, with parameters in parentheses where the
toolkit's name has none of its own: ``ir_measures:nDCG``, ``pytrec_eval:ndcg_cut``,
``ranx:ndcg``, ``ranx:rbp(p=0.8)``, ``rbp_eval:rbp(p=0.8)``, ``cwl_eval:AP``. It stands for
the family over the depth k: the adapter supplies k, as the toolkit's own cutoff where the
metric has one (``nDCG@k``, ``ndcg_cut_k``, ``P@k``), else by giving the toolkit only the
run's top k documents (trec_eval's ``Rprec``, ``recip_rank``; cwl_eval's ``AP``). Any other
toolkit is checked through the same glue with ``dicts:path/to/file.py:function``, a function
``function(qrels, run, k) -> {query_id: score}`` over trec_eval-style dictionaries
(``qrels[qid][docno] = int grade``, ``run[qid][docno] = float score``).

This package imports only the standard library (the toolkits themselves when a metric of
theirs is scored): it runs in the proposal's process, where the toolkit is imported, never
in irprops' own. The layers: nothing here imports the rest of irprops.

>>> parse("ranx:rbp(p=0.8)")
Spec(toolkit='ranx', name='rbp', params=(('p', '0.8'),))
>>> parse("nDCG") is None, parse("tests/proposals.py:precision") is None
(True, True)
>>> parse("ir_measures:nDCG").title
'ir_measures nDCG'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CUSTOM", "GRADE_SCALE", "TOOLKITS", "Spec", "SpecError", "Toolkit", "parse"]


@dataclass(frozen=True)
class Toolkit:
    """One toolkit: its import name, the distribution that installs it, and the conventions an adapter must know."""

    key: str
    module: str
    distribution: str
    grades: str
    """``"integer"`` (grades are given as integers: each times :data:`GRADE_SCALE` over graded situations, as they are
    over binary ones) or ``"fraction"`` (grades in [0, 1] as decimals, which it reads as gains)."""
    about: str
    example: str


TOOLKITS: dict[str, Toolkit] = {t.key: t for t in (
    Toolkit("ir_measures", "ir_measures", "ir-measures", "integer",
            "ir_measures (MacAvaney et al. 2022): its measure names, nDCG@k, P@k, AP@k, RR@k, Rprec, ...", "ir_measures:nDCG"),
    Toolkit("pytrec_eval", "pytrec_eval", "pytrec-eval-terrier", "integer",
            "pytrec_eval (Van Gysel and de Rijke 2018), trec_eval's own C code: ndcg_cut, P, map_cut, recall, Rprec, "
            "recip_rank, map, ndcg, bpref", "pytrec_eval:ndcg_cut"),
    Toolkit("ranx", "ranx", "ranx", "integer",
            "ranx (Bassani 2022), compiled with numba: ndcg, ndcg_burges, precision, recall, map, mrr, r-precision, "
            "rbp(p=...)", "ranx:ndcg"),
    Toolkit("rbp_eval", "rbp_eval", "rbp-eval", "fraction",
            "rbp_eval (Moffat and Zobel 2008's reference program, ported to Python): rbp(p=...), the base score",
            "rbp_eval:rbp(p=0.8)"),
    Toolkit("cwl_eval", "cwl", "cwl-eval", "fraction",
            "cwl_eval (Azzopardi et al. 2019), the C/W/L framework: P, AP, RR, RBP(p=...), NDCG, INST(T=...), INSQ(T=...), "
            "the expected utility per item", "cwl_eval:AP"),
)}
"""The toolkits irprops has an adapter for, by the prefix their metrics are named with."""

GRADE_SCALE = 12
"""The integer a grade is multiplied by for a toolkit that reads integer grades, over graded situations (binary ones are
given as 0 and 1): the same for every situation of a check, and a multiple of the denominators of every grade the
searches draw (1/2, 1/3, 1/4, 2/3, 3/4). A metric linear in the gains (RBP, DCG) then scores 12 times irprops' value."""

CUSTOM = "dicts"
"""The prefix of a toolkit function of the documented contract: ``dicts:path/to/file.py:function``."""

EXTRA = "toolkits"
"""The optional extra that installs every toolkit: ``pip install 'irprops[toolkits]'``."""


class SpecError(ValueError):
    """A toolkit metric that cannot be named so: the message says why and what to write."""


@dataclass(frozen=True)
class Spec:
    """A toolkit metric as named: toolkit, the toolkit's metric name, and parameters in the order given."""

    toolkit: str
    name: str
    params: tuple[tuple[str, str], ...] = ()

    @property
    def title(self) -> str:
        """How reports name it: ``ranx rbp(p=0.8)``."""
        inner = ", ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.toolkit} {self.name}" + (f"({inner})" if inner else "")

    @property
    def text(self) -> str:
        """The spec as :func:`parse` reads it: ``ranx:rbp(p=0.8)``."""
        inner = ", ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.toolkit}:{self.name}" + (f"({inner})" if inner else "")

    def param(self, key: str, default: str | None = None) -> str | None:
        return dict(self.params).get(key, default)


_SPEC = re.compile(r"^(?P<name>[A-Za-z_][\w.\-]*)(?:\((?P<params>[^()]*)\))?$")


def parse(text: str) -> Spec | None:
    """The toolkit metric ``text`` names, or None when it names none (a metric family, a proposal); raises
    :class:`SpecError` for a toolkit prefix with a name that cannot be read."""
    prefix, colon, rest = text.partition(":")
    if not colon or prefix not in TOOLKITS and prefix != CUSTOM:
        return None
    if prefix == CUSTOM:
        if ":" not in rest:
            raise SpecError(f"{text!r}: give dicts:path/to/file.py:function, a function (qrels, run, k) -> {{query_id: score}}")
        return Spec(CUSTOM, rest)
    found = _SPEC.match(rest.strip())
    if found is None:
        raise SpecError(f"{text!r}: not a metric name (write {TOOLKITS[prefix].example})")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in (found["params"] or "").split(","))):
        key, equals, value = part.partition("=")
        if not equals or not key.strip() or not value.strip():
            raise SpecError(f"{text!r}: the parameter {part!r} is not key=value (write {prefix}:rbp(p=0.8))")
        if key.strip() in params:
            raise SpecError(f"{text!r}: the parameter {key.strip()} is given twice (give it once)")
        params[key.strip()] = value.strip()
    spec = Spec(prefix, found["name"], tuple(params.items()))
    _validate(text, spec)
    return spec


_PERSISTENCE = {"ranx": "rbp", "rbp_eval": "rbp", "cwl_eval": "RBP"}
"""The metric of each toolkit that takes a persistence p."""


def _validate(text: str, spec: Spec) -> None:
    """Refuse what an adapter would otherwise read silently: a depth in the name or as a parameter (the adapter
    supplies k), parameters a toolkit's name does not take, a persistence outside (0, 1)."""
    if re.search(r"(@|_|\.)\d+$", spec.name) and spec.toolkit in ("ir_measures", "pytrec_eval", "ranx"):
        raise SpecError(f"{text!r}: the depth is the property's k, supplied by irprops (write {spec.toolkit}:"
                        f"{re.sub(r'(@|_|[.])[0-9]+$', '', spec.name)})")
    if "cutoff" in dict(spec.params) or "k" in dict(spec.params):
        raise SpecError(f"{text!r}: the depth is the property's k, supplied by irprops (leave out cutoff and k)")
    if spec.toolkit == "rbp_eval" and spec.name != "rbp":
        raise SpecError(f"{text!r}: rbp_eval's metric is rbp (write rbp_eval:rbp(p=0.8))")
    allowed = {"p"} if spec.name == _PERSISTENCE.get(spec.toolkit) else set()
    if spec.toolkit in ("pytrec_eval", "ranx", "rbp_eval") and set(dict(spec.params)) - allowed:
        extra = min(set(dict(spec.params)) - allowed)
        takes = f"its one parameter is {', '.join(sorted(allowed))}" if allowed else "it takes none"
        raise SpecError(f"{text!r}: {spec.toolkit}:{spec.name} takes no parameter {extra} ({takes})")
    if spec.name == _PERSISTENCE.get(spec.toolkit):
        p = dict(spec.params).get("p")
        try:
            inside = p is not None and 0 < float(p) < 1
        except ValueError:
            inside = False
        if not inside:
            raise SpecError(f"{text!r}: give the persistence as p=..., with 0 < p < 1 (write {spec.toolkit}:{spec.name}(p=0.8))")
