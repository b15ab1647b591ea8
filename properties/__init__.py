"""The seven properties of Moffat (AIRS 2013) as quantified statements, and their refutation search.

Each property lives in its own module, whose docstring gives the statement, the paper's
wording and the choices made. :func:`check` runs them on a built-in metric family or a
researcher's proposal and returns verdicts: "no" with a certified witness, or "unknown"
with how hard the search looked ("yes" needs the proof layer).

>>> from properties import check
>>> check("RR", ["top_weighted"])["top_weighted"].witness.data
{'k': 3, 'ranking': ['1', '0', '1'], 'qrels': ['1', '1'], 'i': 2, 'j': 3}
"""

from . import bounded, complete, convergent, localized, monotonic, realizable, top_weighted  # noqa: F401  (registration)
from .base import COLUMNS, PROPERTIES, Property
from .check import check
from .space import Space
from .targets import BuiltinTarget, Defect, Hang, ProposalTarget, Target
from .verdict import CheckResult, Verdict, Witness

__all__ = [
    "COLUMNS", "PROPERTIES", "BuiltinTarget", "CheckResult", "Defect", "Hang", "Property", "ProposalTarget",
    "Space", "Target", "Verdict", "Witness", "check",
]
