"""Loading a researcher's proposal: ``path/to/file.py:function`` or ``package.module:function``."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from irprops.metrics import InputError
from irprops.metrics.errors import close_matches


def load_proposal(spec: str) -> tuple[Callable[..., Any], str]:
    """The function ``spec`` names, and its name.

    >>> load_proposal("nowhere.py:f")
    Traceback (most recent call last):
    ...
    irprops.metrics.errors.InputError: target = 'nowhere.py:f': no such file (give path/to/file.py:function)
    """
    location, _, name = spec.rpartition(":")
    if not location or not name:
        raise InputError("target", spec, "not a metric name or a proposal",
                         "give a metric family such as nDCG, or path/to/file.py:function")
    module = _module(spec, location)
    function = getattr(module, name, None)
    if function is None:
        functions = [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")]
        suggestions = close_matches(name, functions)
        hint = f"did you mean {' or '.join(suggestions)}?" if suggestions else f"it defines: {', '.join(functions) or 'no functions'}"
        raise InputError("target", spec, f"{location} has no function {name!r}", hint)
    if not callable(function) and type(function).__name__ not in ("Measure", "Metric"):
        raise InputError("target", spec, f"{name} is not a function or a declared metric")
    return function, name


def _module(spec: str, location: str) -> Any:
    path = Path(location)
    try:
        if location.endswith(".py") or path.exists():
            if not path.is_file():
                raise InputError("target", spec, "no such file", "give path/to/file.py:function")
            module_name = f"irprops_proposal_{abs(hash(str(path.resolve())))}"
            loader_spec = importlib.util.spec_from_file_location(module_name, path)
            if loader_spec is None or loader_spec.loader is None:
                raise InputError("target", spec, "cannot be loaded as Python")
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[module_name] = module
            loader_spec.loader.exec_module(module)
            return module
        return importlib.import_module(location)
    except InputError:
        raise
    except Exception as error:  # noqa: BLE001 - any failure to load is the proposal's, reported on one line
        raise InputError("target", spec, f"loading it raised {type(error).__name__}: {error}") from None
