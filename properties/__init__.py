"""The seven properties of Moffat (AIRS 2013) as quantified statements, and their refutation search.

Each property lives in its own module, whose docstring gives the statement, the paper's
wording and the choices made. :func:`search` runs them on a built-in metric family or a
researcher's proposal and returns verdicts: "no" with a certified witness, or "unknown"
with how hard the search looked ("yes" needs the proof layer, which ``irprops.check``
adds; this package never imports it).

>>> from irprops.properties import search
>>> search("RR", ["top_weighted"])["top_weighted"].witness.data
{'k': 3, 'ranking': ['1', '0', '1'], 'qrels': ['1', '1'], 'i': 2, 'j': 3}
"""

from irprops.verdicts import COLUMNS, CheckResult, Prop, Verdict, Witness

from . import bounded, complete, convergent, localized, monotonic, realizable, top_weighted  # noqa: F401  (registration)
from .base import PROPERTIES, Property
from .realizable import arrangements
from .search import make_target, run_search, search
from .space import Space
from .targets import BuiltinTarget, Defect, Hang, ProposalTarget, Scored, Target

__all__ = [
    "COLUMNS", "PROPERTIES", "BuiltinTarget", "CheckResult", "Defect", "Hang", "Prop", "Property", "ProposalTarget",
    "Scored", "Space", "Target", "Verdict", "Witness", "arrangements", "make_target", "run_search", "search",
]
