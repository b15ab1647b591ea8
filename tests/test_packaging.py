"""The distribution installs one import name, irprops, with its certificates, and needs pytest only to test."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """A wheel built (offline, without build isolation) from a copy of the sources."""
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("dist")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for folder in PROJECT["tool"]["setuptools"]["package-dir"].values():
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(out), str(source)]
    subprocess.run(command, check=True, capture_output=True, timeout=300)
    (built,) = out.glob("irprops-*.whl")
    return zipfile.ZipFile(built)


class TestTheWheel:
    def test_puts_exactly_one_name_into_site_packages(self, wheel: zipfile.ZipFile) -> None:
        tops = {name.split("/")[0] for name in wheel.namelist()}
        assert len(tops) == 2 and "irprops" in tops
        (info,) = tops - {"irprops"}
        assert re.fullmatch(r"irprops-[\d.]+\.dist-info", info)

    def test_holds_the_three_folders_as_subpackages(self, wheel: zipfile.ZipFile) -> None:
        names = set(wheel.namelist())
        modules = ("metrics/exact.py", "metrics/catalog/discounted.py", "properties/base.py", "proofs/weighted.py",
                   "verdicts.py", "table/compute.py")
        for module in modules:
            assert f"irprops/{module}" in names, module

    def test_ships_every_committed_certificate(self, wheel: zipfile.ZipFile) -> None:
        committed = {p.relative_to(ROOT / "proofs").as_posix() for p in (ROOT / "proofs" / "smt2").rglob("*.smt2")}
        shipped = {n.removeprefix("irprops/proofs/") for n in wheel.namelist() if n.endswith(".smt2")}
        assert committed and shipped == committed


class TestDependencies:
    def test_pytest_is_needed_only_by_the_test_extra(self) -> None:
        names = {re.split(r"[<>=\[ ;]", d)[0] for d in PROJECT["project"]["dependencies"]}
        assert "pytest" not in names
        assert any(d.startswith("pytest") for d in PROJECT["project"]["optional-dependencies"]["test"])

    def test_no_library_module_imports_pytest_or_hypothesis_strategies_for_tests(self) -> None:
        for folder in PROJECT["tool"]["setuptools"]["package-dir"].values():
            for path in (ROOT / folder).rglob("*.py"):
                assert not re.search(r"^\s*(import|from) pytest\b", path.read_text(), re.MULTILINE), path


def test_an_installed_package_is_never_a_certificate_destination(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`irprops certificates` outside a source checkout needs --out (exit 2), so it cannot write into site-packages."""
    from click.testing import CliRunner

    from irprops import cli
    from irprops.proofs import certificates

    fake = tmp_path / "site-packages" / "irprops" / "proofs" / "smt2"
    fake.mkdir(parents=True)
    monkeypatch.setattr(certificates, "COMMITTED", fake)
    result = CliRunner().invoke(cli.main, ["certificates"])
    assert result.exit_code == 2 and "--out" in result.output and "give --out DIR" in result.output
    assert list(fake.iterdir()) == []
