"""Proposals declared as metrics (by their weight function), so that they can be proved, not only searched."""

from __future__ import annotations

import sympy

from irprops.metrics import weighted_precision
from irprops.metrics.exact import log2

inverse_squares = weighted_precision("inverse-squares", lambda i: 1 / (i * (i + 1)))
"""Moffat (2013, Section 2): weights 1/(i(i+1)), whose prefix sums converge to one, "similar to RBP"."""

increasing = weighted_precision("log-increasing", lambda i: log2(i + 1), "weights")
"""Weights that grow with the rank: top-weightedness must fail."""

halves = weighted_precision("halves", lambda i: sympy.Rational(1, 2) ** (i - 1), "ideal")
"""Geometric weights normalised by the ideal ranking: an NDCG with RBP's discount (p = 1/2)."""

root_discount = weighted_precision("root-discount", lambda i: 1 / sympy.sqrt(i), "ideal")
"""Weights 1/sqrt(i) normalised by the ideal ranking: roots are compared exactly too."""
