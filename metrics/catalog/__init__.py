"""The declared metrics. Importing this package registers them, in Table 2's family order.

To add a metric, declare it with :func:`metrics.registry.declare` in one of these
modules (or a new one imported here) and add its tests.
"""

from . import averaging, counting, discounted, geometric  # noqa: F401  (registration)
