"""Loading a researcher's proposal: ``path/to/file.py:function`` or ``package.module:function``.

A plain function is never imported here: it runs in its own process (:mod:`~irprops.properties.sandbox`),
which imports it first. Only a declared metric is imported into irprops' process, where its forms are built.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from irprops.metrics import InputError

from .proposal_process import Missing, load, shown


def where_of(spec: str) -> str:
    """Where the proposal ``spec`` is found from any process: a file by its absolute path, else ``module:name``.

    >>> where_of("nowhere.py:f")
    Traceback (most recent call last):
    ...
    irprops.metrics.errors.InputError: target = 'nowhere.py:f': no such file (give path/to/file.py:function)
    """
    location, _, name = spec.rpartition(":")
    if not location or not name:
        raise InputError("target", spec, "not a metric name or a proposal",
                         "give a metric family such as nDCG, or path/to/file.py:function")
    path = Path(location)
    if location.endswith(".py") or path.exists():
        if not path.is_file():
            raise InputError("target", spec, "no such file", "give path/to/file.py:function")
        return f"{path.resolve()}:{name}"
    return spec


def load_proposal(spec: str) -> Any:
    """The object ``spec`` names, imported into this process."""
    try:
        return load(where_of(spec))
    except InputError:
        raise
    except Missing as missing:
        raise InputError("target", spec, str(missing)) from None
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 - any failure to load (SystemExit too) is the proposal's, reported on one line
        raise InputError("target", spec, f"loading it raised {shown(error)}") from None
