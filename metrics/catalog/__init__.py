"""The declared metrics. Importing this package registers them, in Table 2's family order.

To add a metric, declare it with :func:`metrics.registry.declare` in one of these
modules (or a new one imported here) and add its tests.
"""

from . import averaging, counting, discounted, geometric  # noqa: F401  (registration: Table 2's families first)

# isort: split
from . import beyond, judged  # noqa: F401  (then the metrics beyond Table 2, in their own order)
