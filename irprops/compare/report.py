"""What a comparison prints: a sentence per case, and a pytest module that pins every difference found.

>>> from irprops.compare.cases import Case, situation
>>> from fractions import Fraction
>>> shown(Case(situation((Fraction(0), Fraction(1)), 1, (Fraction(1),)), (2,)))
'`01` (k = 1, R = 2) tied as [2]'
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from irprops.metrics import Situation
from irprops.toolkits import CUSTOM, parse
from irprops.verdicts import show

from . import Comparison
from .cases import Case
from .conventions import FAILED


def shown(case: Case) -> str:
    """A case the way the paper writes a situation, with its groups of tied scores (an empty run as such)."""
    s = Situation.unchecked(case.situation.ranking, case.situation.k, case.situation.qrels)  # N: the ranking's zeros
    if not s.ranking:
        return show(s).replace("``", "an empty run", 1)
    return show(s) + (f" tied as {list(case.ties)}" if case.ties else "")


def number(value: float | None, none: str = "no score") -> str:
    """A score to six digits; ``none`` where there is none (the toolkit's "no score", the definition's "undefined")."""
    return none if value is None else f"{value:.6g}"


def pytest_module(comparison: Comparison, written_to: Path | None = None) -> str:
    """A test module that pins each difference: the toolkit's value on its witness, through irprops' glue (one test per
    convention, named by it), and that irprops' definition scores otherwise. ``written_to``: where the module goes (a
    ``dicts:`` function's file is then found relative to it)."""
    spec = parse(comparison.implementation)
    if spec is None:
        raise ValueError(f"{comparison.implementation!r} is not a toolkit's metric")
    lines = [
        f'"""Differences between {_doc(comparison.implementation)} and irprops\' {comparison.metric}, found by',
        f"`irprops compare {_doc(comparison.implementation)} {comparison.metric}` on {comparison.situations:,} situations.",
        "",
        "Each test pins the toolkit's score on the smallest situation of one class of difference, fed to it as",
        "irprops.toolkits.glue feeds it (docnos, scores and grades as its docstring says"
        + (f", grades times {comparison.scale}" if comparison.scale != 1 else "") + ").",
        '"""',
        "",
    ]
    if spec.toolkit == CUSTOM:
        location, _, name = spec.name.rpartition(":")
        if location.endswith(".py") or os.sep in location:
            here = written_to.resolve().parent if written_to is not None else Path.cwd()
            relative = os.path.relpath(Path(location).resolve(), here)
            where = f"str(Path(__file__).resolve().parent / {relative!r}) + {':' + name!r}"
        else:
            where = repr(spec.name)
        lines += ["import math", "from pathlib import Path", "", "import pytest", "",
                  "from irprops.properties.proposal_process import load", "from irprops.toolkits import parse",
                  "from irprops.toolkits.glue import Adapter", "",
                  f"TOOLKIT = Adapter(parse({comparison.implementation!r}), load({where}), scale={comparison.scale})"]
    else:
        lines += ["import math", "", "import pytest", "", "from irprops.toolkits import parse",
                  "from irprops.toolkits.glue import Adapter", "",
                  f"TOOLKIT = Adapter(parse({comparison.implementation!r}), scale={comparison.scale})"]
    lines += ["", "", "def failed(value: object) -> bool:",
              '    """An error the toolkit raised (the glue returns it), or a score that is not a finite number."""',
              "    return isinstance(value, BaseException) or (isinstance(value, float) and not math.isfinite(value))"]
    for difference in comparison.differences:
        case = difference.witness
        request = case.request()
        test = "test_" + re.sub(r"[^0-9a-z]+", "_", difference.convention.lower()).strip("_")
        found = difference.implementation_value
        scored = f"TOOLKIT.batch([{request!r}])[0]"
        problem = " ".join((difference.problem or "").split())
        check = (f"    assert failed({scored})  # {problem}" if difference.convention == FAILED or difference.failed_alone
                 else f"    assert {scored} is None" if found is None
                 else f"    assert {scored} == pytest.approx({found!r}, rel=1e-9)")
        if not difference.alone:
            lines += ["", "", (f"# not pinned: {difference.convention} ({shown(case)}) scores otherwise alone than among "
                               "the other queries of its call")]
            continue
        lines += [
            "",
            "",
            f"def {test}() -> None:",
            (f'    """{difference.convention}: {difference.count:,} situations, the first {shown(case)}; irprops\' '
             f'{comparison.metric} is {number(difference.metric_value, "undefined")}."""'),
            check,
        ]
    return "\n".join(lines) + "\n"


def _doc(text: str) -> str:
    """``text`` as it may stand in a docstring (a backslash or three quotes in a path)."""
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
