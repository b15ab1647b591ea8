"""irprops metrics: the effectiveness metrics of Moffat (AIRS 2013) in three agreeing forms.

>>> from irprops.metrics import score
>>> round(score("nDCG@5", "10100", R=3).value, 4)
0.7039
"""

from . import (
    catalog,  # noqa: F401  (registers the metrics)
    registry,
)
from .algebra import UNDEFINED, Algebra, Undefined
from .errors import InputError, NotExpressible, Undecided
from .exact import Exact, compare, sign
from .families import Normaliser, weighted_precision
from .grades import format_ranking
from .names import known_names, lookup, parse
from .numberfacts import certified  # installs certified signs of numbers into SymPy
from .registry import REGISTRY, Measure, Metric, Param, Relevance, decimal, declare, in_catalog
from .scoring import Score, score
from .situation import Situation, judged_nonrelevant
from .spellings import SPELLINGS, Spelling, spellings_of
from .symbolic import MaxOver, OrderStatistic, SymbolicForm

registry.seal_catalog()  # the formulas registered so far are the catalog's, whatever a proposal later calls its module

__all__ = [
    "REGISTRY",
    "SPELLINGS",
    "UNDEFINED",
    "Algebra",
    "Exact",
    "InputError",
    "MaxOver",
    "Measure",
    "Metric",
    "Normaliser",
    "NotExpressible",
    "OrderStatistic",
    "Param",
    "Relevance",
    "Score",
    "Situation",
    "Spelling",
    "SymbolicForm",
    "Undecided",
    "Undefined",
    "certified",
    "compare",
    "decimal",
    "declare",
    "format_ranking",
    "in_catalog",
    "judged_nonrelevant",
    "known_names",
    "lookup",
    "parse",
    "score",
    "sign",
    "spellings_of",
    "weighted_precision",
]
