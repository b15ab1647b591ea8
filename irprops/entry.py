"""The ``irprops`` command's entry point: a Ctrl-C while the program is still starting ends it as one later does.

The command line (:mod:`irprops.cli`) answers Ctrl-C with status 130 and no traceback, but only once it is imported;
importing it (SymPy, Z3, Hypothesis) takes about half a second, more on a busy machine, and a Ctrl-C in that time
printed Python's traceback. ``import irprops`` itself imports nothing heavy (its names are imported on first use).
"""

from __future__ import annotations

import json
import sys
from typing import NoReturn


def main() -> None:
    """Import the command line and run it; a Ctrl-C during the import exits with status 130."""
    try:
        from irprops.cli import main as command
    except KeyboardInterrupt:
        interrupted("--json" in sys.argv[1:])
    command()


def interrupted(as_json: bool) -> NoReturn:
    """End the command after a Ctrl-C: a line on stderr, the JSON object on stdout under ``--json``, status 130."""
    sys.stderr.write("irprops: interrupted\n")
    if as_json:
        sys.stdout.write(json.dumps({"error": "interrupted", "exit_status": 130}) + "\n")
    # CPython notes a KeyboardInterrupt that ends code run from a string (exec/eval of text, as SymPy's parser and dataclasses
    # run) as "unhandled", even when it is caught later, and `python -m` then dies by SIGINT instead of exiting with the
    # status asked for (-2, not 130, one run in twelve under load). Running a string to its end clears the note.
    exec("pass")  # noqa: S102 - a constant string
    sys.exit(130)
