"""Every docstring example and the README's Python examples run, through the installed package.

The modules are imported by their package names (``irprops.metrics.exact``), never by folder
path: a folder imported as a top-level name would build a second registry.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

from .conftest import ROOT

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


PACKAGES = ("irprops", "irprops.metrics", "irprops.properties", "irprops.proofs")


def modules() -> list[str]:
    """Every module of the irprops package, subpackages included.

    Each mapped subpackage is walked from its own ``__path__``: in an editable install run
    from the checkout, ``irprops.__path__`` is the folder irprops/ alone.
    """
    found = set(PACKAGES)
    for package in PACKAGES:
        path = importlib.import_module(package).__path__
        found |= {name for _, name, _ in pkgutil.walk_packages(path, f"{package}.")}
    return sorted(found - {"irprops.__main__"})  # importing __main__ runs the command line


class TestDocstrings:
    def test_the_package_walk_sees_every_layer(self) -> None:
        names = modules()
        for layer in ("irprops.metrics.exact", "irprops.properties.base", "irprops.proofs.weighted", "irprops.table.compute"):
            assert layer in names

    @pytest.mark.parametrize("name", modules())
    def test_examples_in_the_module_run_as_written(self, name: str) -> None:
        module = importlib.import_module(name)
        result = doctest.testmod(module, optionflags=FLAGS, verbose=False, report=True)
        assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


class TestReadme:
    def test_its_python_examples_run_as_written(self) -> None:
        result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=FLAGS, verbose=False, report=True)
        assert result.attempted > 0 and result.failed == 0, f"{result.failed} of {result.attempted} README examples failed"
