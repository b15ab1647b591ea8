"""The ``irprops`` command line.

Every user-input error prints one line naming the argument, the value and the rule,
and exits with status 2; no traceback reaches the user.

Importing it imports click and nothing heavy: each command imports what it needs (the metrics and SymPy, the
search and Hypothesis, the proofs and Z3, rich), so that ``irprops --help`` answers at once (issue 13, item 4).
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

import click

from irprops.entry import interrupted
from irprops.files import cache_home, keep_lost_interrupts, raise_if_interrupted, writable_folder


def _metrics() -> types.ModuleType:
    """``irprops.metrics``, imported on first use (SymPy with it)."""
    from irprops import metrics

    return metrics


class _NeverRaised(Exception):
    """Stands for the metrics' InputError while they are not imported (nothing can have raised it then)."""


def _input_error() -> type[Exception]:
    """:class:`irprops.metrics.InputError` once the metrics are imported, else an exception nothing raises."""
    module = sys.modules.get("irprops.metrics")
    return module.InputError if module is not None else _NeverRaised  # type: ignore[no-any-return]


class _Main(click.Group):
    """The command group, with the errors a user can cause turned into one line and an exit status.

    A usage error (bad option, bad value: :class:`metrics.InputError` or click's) exits with
    status 2, Ctrl-C with 130; under ``--json`` the error is the one JSON object on stdout.
    """

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,  # type: ignore[override]
             standalone_mode: bool = True, **extra: Any) -> Any:
        args = list(sys.argv[1:] if args is None else args)
        as_json = "--json" in args
        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            raise_if_interrupted()  # a Ctrl-C kept from a finalizer after the last place that asked: still an interruption
        except click.ClickException as error:
            if as_json:
                click.echo(json.dumps({"error": error.format_message(), "exit_status": 2}))
            else:
                error.show()
            sys.exit(error.exit_code)
        except _input_error() as error:  # looked up as the error arrives: the command has imported the metrics by then
            if as_json:
                click.echo(json.dumps({"error": str(error), "exit_status": 2}))
            else:
                click.echo(f"irprops: error: {error}", err=True)
            sys.exit(2)
        except (click.exceptions.Abort, KeyboardInterrupt):
            interrupted(as_json)
        except Exception as error:
            if not _caused_by_ctrl_c(error):
                raise
            interrupted(as_json)  # a library's own state broke while Ctrl-C unwound it (Hypothesis: an AssertionError)
        sys.exit(status if isinstance(status, int) else 0)


def _caused_by_ctrl_c(error: BaseException) -> bool:
    """Whether a KeyboardInterrupt is in the chain of exceptions that ``error`` was raised while handling."""
    seen: set[int] = set()
    chain: list[BaseException | None] = [error]
    while chain:
        found = chain.pop()
        if found is None or id(found) in seen:
            continue
        if isinstance(found, KeyboardInterrupt):
            return True
        seen.add(id(found))
        chain += [found.__cause__, found.__context__]
    return False


def _seconds(option: str, value: float) -> float:
    """A finite number of seconds from 0.001 to 3600 (``nan``, ``inf`` and ``1e-9`` are usage errors, exit status 2)."""
    if not math.isfinite(value) or not 0.001 <= value <= 3600:
        raise _metrics().InputError(option, value, "is not from 0.001 to 3600 seconds; write e.g. 2.5")
    return value


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="irprops")
def main() -> None:
    """Prove or refute numeric properties of IR effectiveness metrics (Moffat, AIRS 2013)."""
    # Hypothesis keeps what it learns in a folder, by default .hypothesis/ in the working directory: keep it in our cache
    os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(cache_home() / "hypothesis"))
    keep_lost_interrupts()


@main.command(context_settings={"ignore_unknown_options": True})  # a ranking may start with -: P@3 -1-
@click.argument("metric")
@click.argument("ranking")
@click.option("--qrels", metavar="GRADES", help="Grades of every relevant document in the collection, e.g. 1,1,1/2.")
@click.option("--R", "R", type=int, metavar="N", help="N relevant documents: the ranking's own plus further ones of grade 1.")
@click.option("--N", "N", type=int, metavar="COUNT",
              help="COUNT judged nonrelevant documents in the collection (trec_eval's num_nonrel; BPref needs it).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def score(metric: str, ranking: str, qrels: str | None, R: int | None, N: int | None, as_json: bool) -> None:
    """Score RANKING exactly with METRIC (e.g. nDCG@10, 'RBP(p=0.5)@10', AP).

    RANKING is a string over 0, 1 and ? (also - for 0 and $ for 1), like 1--1??, or
    comma-separated grades in [0, 1], like 1,1/2,0,?. The depth is METRIC's @k, or the
    larger of the ranking's length and R. By default the qrels are the ranking's own
    relevant documents, and the number of judged nonrelevant documents is not known.
    """
    from irprops.metrics import InputError, exact, format_ranking
    from irprops.metrics import score as score_of

    if qrels is not None and R is not None:
        raise InputError("--R", R, "give either --qrels or --R, not both")
    result = score_of(metric, ranking, qrels=qrels, R=R, N=N)
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    s = result.situation
    collection = f", N = {s.nonrelevant}" if s.nonrelevant is not None else ""
    click.echo(f"{result.measure} of {format_ranking(s.ranking)}  (k = {s.k}, R = {s.R}{collection})")
    if not result.defined:
        click.echo(f"  value     undefined: {result.exact.reason}")  # type: ignore[union-attr]
        return
    click.echo(f"  exact     {exact.brief(result.exact)}")  # type: ignore[arg-type]
    click.echo(f"  value     {result.value!r}")
    if result.residual is not None:
        click.echo(f"  residual  {exact.brief(result.residual)} = {exact.to_float(result.residual)!r}")
        click.echo(f"  bounds    [{result.value!r}, {exact.to_float(result.upper)!r}]")  # type: ignore[arg-type]


@main.command()
@click.argument("target")
@click.argument("property_names", metavar="[PROPERTY]...", nargs=-1)
@click.option("--binary", "relevance", flag_value="binary", help="Check over binary situations (grades 0 and 1).")
@click.option("--graded", "relevance", flag_value="graded", help="Check over graded situations (grades in [0, 1]).")
@click.option("--timeout", type=float, default=1.0, show_default=True, metavar="SECONDS",
              help="Time limit for each call of a proposal (0.001 to 3600).")
@click.option("--budget", type=float, default=30.0, show_default=True, metavar="SECONDS",
              help="Time each property's search may take (0.001 to 3600).")
@click.option("--search-only", is_flag=True, help="Do not try proofs: refutation search only.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Also write a report for a paper into DIR: NAME.{md,tex,html,json}, a .bib, a table to \\input, SVG "
                   "figures and the proofs' certificates.")
@click.option("--format", "formats", metavar="LIST", help="The report's formats, of md,tex,html,json (default: all).")
@click.option("--compare-with", "compare_with", metavar="METRICS",
              help="Metrics to show beside the target in the report, e.g. nDCG,RBP (besides the catalog's nearest).")
def check(target: str, property_names: tuple[str, ...], relevance: str | None, timeout: float, budget: float, search_only: bool,
          as_json: bool, report_dir: str | None, formats: str | None, compare_with: str | None) -> None:
    """Check TARGET against the seven properties of Moffat (AIRS 2013), or the PROPERTY names given.

    TARGET is a metric family (AP, nDCG, 'RBP(p=0.5)', ...) or a proposal
    path/to/file.py:function, a function f(ranking, k, qrels) of Fraction grades that
    returns a number, or None where it is undefined. A proposal is checked over binary
    situations unless --graded is given (or the function has relevance = "graded").
    TARGET may also be a toolkit's metric, checked through its own code: ir_measures:nDCG,
    pytrec_eval:Rprec, ranx:ndcg, 'rbp_eval:rbp(p=0.8)', cwl_eval:AP (pip install
    'irprops[toolkits]'), or dicts:path/to/file.py:function for a function
    (qrels, run, k) -> {query_id: score} over trec_eval-style dictionaries.

    "no" comes with a counterexample re-checked exactly (or, for float scores, labelled
    numerical evidence); "yes" with a proof (built-in metrics, and proposals declared with
    a closed form); "unknown" says how far the search looked and why no proof was found.
    """
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from irprops import COLUMNS
    from irprops import check as run_check

    timeout, budget = _seconds("--timeout", timeout), _seconds("--budget", budget)
    writing = _report_options(report_dir, formats, compare_with)
    result = run_check(target, property_names or None, relevance=relevance, timeout=timeout, budget=budget, prove=not search_only)  # type: ignore[arg-type]
    raise_if_interrupted()  # a Ctrl-C that came during a finalizer is never a verdict
    if writing is not None:
        _write_report(result, Path(report_dir), *writing, quiet=as_json)  # type: ignore[arg-type]
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    title = escape(f"{result.metric} over {result.relevance} situations")  # a declared name is text, never markup
    table = Table("property", "verdict", "method", "witness or evidence", title=title, show_lines=True)
    style = {"yes": "green", "no": "red", "unknown": "yellow"}
    for key in COLUMNS:
        if key in result.verdicts:
            v = result.verdicts[key]
            table.add_row(key, f"[{style[v.verdict]}]{v.verdict}[/]", escape(v.method), escape(v.evidence))
    Console(highlight=False).print(table)
    if result.implementation is not None:
        Console(highlight=False).print(escape(result.implementation.line()))


def _report_options(report_dir: str | None, formats: str | None, compare_with: str | None) -> tuple[list[str], list[str]] | None:
    """``--report``'s formats and the names of ``--compare-with``, checked before the check runs (a usage error costs no
    search); None without ``--report``."""
    if report_dir is None:
        if formats is not None or compare_with is not None:
            option = "--format" if formats is not None else "--compare-with"
            raise _metrics().InputError(option, formats if formats is not None else compare_with, "shapes a report",
                                        "give --report DIR too")
        return None
    from irprops import report

    error = _metrics().InputError
    if not report_dir.strip():
        raise error("--report", report_dir, "is empty", "give a folder, e.g. --report paper/")
    try:  # made now, and written to once: a folder that cannot hold the report fails before the check runs
        writable_folder(Path(report_dir), "--report")
        Path(report_dir).mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=report_dir):
            pass
    except OSError as why:
        raise error("--report", report_dir, f"cannot be written ({why.strerror or why})", "give a folder you can write to") from None
    return report.parse_formats(formats), [m.name for m in report.parse_names(compare_with)] if compare_with is not None else []


def _write_report(result: Any, out: Path, formats: list[str], chosen: list[str], quiet: bool) -> None:
    """Write ``result``'s report into ``out``, beside the catalog's verdicts (from the table's cache; computed, with
    progress shown, where it is cold)."""
    from rich.progress import Progress

    from irprops import report

    with Progress(transient=True, disable=quiet, console=_stderr_console()) as progress:
        task = progress.add_task("the catalog's verdicts (cached after the first run)", total=None)
        catalog = report.catalog_results(done=lambda metric, cached: progress.advance(task))
        others = report.chosen_results(",".join(chosen)) if chosen else {}
    try:
        written = report.write(report.build(result, catalog, others), out, formats)
    except OSError as why:
        raise _metrics().InputError("--report", str(out), f"could not be written ({why.strerror or why})",
                                    "give a folder you can write to") from None
    if not quiet:
        click.echo(f"report written to {out}: {', '.join(p.name for p in written)}", err=True)


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


@main.command()
@click.argument("implementation")
@click.argument("metric")
@click.option("--examples", type=int, default=300, show_default=True, metavar="N",
              help="Deeper situations drawn by Hypothesis after the exhaustive ones (0 to 100000).")
@click.option("--timeout", type=float, default=120.0, show_default=True, metavar="SECONDS",
              help="Time limit for loading the toolkit (its warm-up included) and for each call of it, a batch of up to "
                   "2,000 situations (0.001 to 3600).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--pytest", "pytest_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write a test module that pins every difference found.")
def compare(implementation: str, metric: str, examples: int, timeout: float, as_json: bool, pytest_file: str | None) -> None:
    """Compare a toolkit's IMPLEMENTATION of a metric with irprops' declared METRIC, situation by situation.

    IMPLEMENTATION is a toolkit's metric (ir_measures:nDCG, pytrec_eval:ndcg_cut,
    ranx:ndcg, 'rbp_eval:rbp(p=0.8)', cwl_eval:AP); METRIC a declared family (NDCG,
    'RBP(p=0.8)', AP). Both score every small situation (rankings up to 6 documents,
    binary and graded, unjudged documents, R = 0, runs shorter than k, tied scores),
    then deeper ones from Hypothesis. Each difference is put under the convention that
    explains it, with its smallest situation and both values; the declared metrics the
    implementation agrees with, and its tie order, are named. Float scores agree within
    relative 1e-9.
    """
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from irprops.compare import compare as run_compare
    from irprops.compare.report import number, pytest_module, shown
    from irprops.metrics import InputError

    if not 0 <= examples <= 100_000:
        raise InputError("--examples", examples, "must be from 0 to 100000")
    timeout = _seconds("--timeout", timeout)
    if pytest_file is not None:
        writable_folder(Path(pytest_file).resolve().parent, "--pytest")
        _not_the_implementation(implementation, Path(pytest_file))
    console = Console(highlight=False, stderr=as_json)
    with console.status("comparing") as status:
        result = run_compare(implementation, metric, examples=examples, timeout=timeout,
                             progress=lambda text: status.update(escape(text)))
    raise_if_interrupted()
    if pytest_file is not None:
        written = Path(pytest_file)
        try:
            written.parent.mkdir(parents=True, exist_ok=True)
            written.write_text(pytest_module(result, written), encoding="utf-8")
        except OSError as error:
            raise InputError("--pytest", pytest_file, f"cannot be written ({error.strerror or error})",
                             "give a file in a folder you can write to") from None
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    title = escape(f"{result.implementation} against irprops' {result.metric}: {result.agree:,} of {result.situations:,} "
                   "situations agree")
    view = Table("convention", "situations", "the first", result.implementation, result.metric, title=title, show_lines=True)
    for d in result.differences:
        value = number(d.implementation_value) if d.problem is None else d.problem
        view.add_row(escape(d.convention), f"{d.count:,}", escape(shown(d.witness)), escape(value),
                     number(d.metric_value, "undefined"))
    console.print(view)
    kind = "binary situations" if result.scale == 1 else "situations"  # a binary metric is compared on binary grades only
    agrees = ", ".join(f"{m} on all {n:,} {kind} where it has a value" for m, n in result.agrees_with) or "no declared metric"
    console.print(escape(f"agrees with: {agrees}"))
    console.print(escape(f"tie order: {result.tie_order()}"))
    for reason, count in result.not_compared:
        console.print(escape(f"not compared: {reason} ({count:,} situations)"))
    for note in result.notes:
        console.print(escape(f"note: {note}"))
    console.print(escape(f"warm-up {result.warmup_seconds:.1f} s; {result.seconds:.1f} s in all"
                         + (f"; wrote {pytest_file}" if pytest_file else "")))


def _not_the_implementation(implementation: str, written: Path) -> None:
    """Refuse a --pytest FILE that is the file of the ``dicts:`` function compared (it would be overwritten)."""
    from irprops.metrics import InputError
    from irprops.toolkits import CUSTOM, SpecError, parse

    try:
        spec = parse(implementation)
    except SpecError:
        return  # compare says what is wrong with the name
    if spec is None or spec.toolkit != CUSTOM:
        return
    location = spec.name.rpartition(":")[0]
    if location and Path(location).resolve() == written.resolve():
        raise InputError("--pytest", str(written), "is the file of the function compared, which it would overwrite",
                         "give another file, e.g. test_differences.py")


@main.command()
@click.option("--out", type=click.Path(file_okay=False), default="reports", show_default=True,
              help="Directory for table2.md, .tex, .csv, .json, .html.")
@click.option("--order", "order_", metavar="COLUMNS",
              help="Column priority for the row order, comma-separated (may drop columns), e.g. complete,realizable.")
@click.option("--workers", type=int, default=2, show_default=True, help="Worker processes (rows are computed in parallel).")
@click.option("--no-cache", is_flag=True, help="Recompute every row instead of reading the cache.")
@click.option("--catalog", is_flag=True, help="Write the extended table instead: every declared metric, into catalog.*.")
def table(out: str, order_: str | None, workers: int, no_cache: bool, catalog: bool) -> None:
    """Regenerate Table 2 of the paper from the metrics' definitions into reports/.

    Every No gets an exact counterexample, every Yes a proof; the footnotes and the
    summary claims of Section 4 are computed; the published table is used only for the
    comparison. Rows are ordered by their Yes/No pattern over the columns (--order).
    With --catalog, the rows are every metric irprops declares (catalog.md, .tex, .csv,
    .json, .html), Table 2's under their catalog names.
    """
    import time

    from rich import box
    from rich.console import Console
    from rich.table import Table

    from irprops import table_output

    start = time.perf_counter()
    cache = None if no_cache else table_output.default_cache()
    kept = table_output.kept_at(cache, order_, catalog) if cache is not None else None
    output = table_output.lookup(kept) if kept is not None else None  # warm: the whole output is kept
    columns = _columns(order_) if output is None else []  # an --order kept with an output was valid
    if workers < 1:
        raise _metrics().InputError("--workers", workers, "must be at least 1")
    writable_folder(Path(out), "--out")
    if cache is not None:
        writable_folder(cache, "the cache", "run with --no-cache, or set XDG_CACHE_HOME")
    console = Console(highlight=False)
    if importlib.util.find_spec("cvc5") is None:  # asked without importing the proofs (Z3): a warm table needs neither
        console.print("note: cvc5 is not installed, so no proof is cross-checked and the reports will differ from the "
                      "committed ones in saying so (pip install 'irprops[cvc5]')", markup=False)
    made = output is None
    if output is None:
        output = _built_table(columns, workers, cache, catalog, console)
    written = table_output.write(output, Path(out))  # the reports first: keeping the output may fail (a full disk)
    if made and kept is not None and cache is not None:
        try:
            if table_output.kept_at(cache, order_, catalog) == kept:  # not kept when a source changed during the build
                table_output.store(kept, output)
        except OSError as error:
            console.print(f"note: the output could not be kept for the next run ({error})", markup=False)
    heading = "The catalog" if catalog else "Table 2"
    view = Table(*output.headers, title=f"{heading}, regenerated from the definitions",
                 box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)  # fits 80 columns
    for label, cells in output.rows:
        view.add_row(f"{label}@k", *cells)
    console.print(view, markup=False)
    console.print(f"{output.agree} of {output.cells} cells agree with the published table; "
                  f"{output.combinations} combinations of properties over {output.count} metrics "
                  f"(the paper says 10 over its 13).", markup=False)
    console.print(f"wrote {', '.join(str(p) for p in written)} in {time.perf_counter() - start:.1f} s", markup=False)


def _columns(order_: str | None) -> list[Any]:
    """The columns ``--order`` names, in its order (all seven by default); an unknown or repeated one is an error."""
    from irprops.metrics import InputError
    from irprops.verdicts import Prop

    columns = Prop.parse_all(order_.split(",")) if order_ else list(Prop)
    if len(set(columns)) < len(columns):
        raise InputError("--order", order_, "names a column twice", "name each column at most once")
    return columns


def _built_table(columns: list[Any], workers: int, cache: Path | None, catalog: bool, console: Any) -> Any:
    """Check the rows not cached (with a progress bar), build the table and render it: a
    :class:`~irprops.table_output.Output`."""
    from rich.progress import Progress

    from irprops import table as t2
    from irprops.table import HEADERS
    from irprops.table_output import Output

    count = len(t2.catalog_rows() if catalog else t2.rows())
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"checking the {'catalog' if catalog else 'thirteen'} metrics", total=count)
        built = t2.build(columns, workers, cache, lambda metric, cached: progress.advance(task), catalog=catalog)
    agreement = built.paper["agreement"]
    return Output(t2.texts(built), ("Metric", *(HEADERS[c] for c in columns)),
                  tuple((label, tuple(f"{result[c].verdict} {built.marks(label, c)}".strip() for c in columns))
                        for label, result in built.rows),
                  int(agreement["agree"]), int(agreement["cells"]), int(built.claims["combinations"]["count"]), count)


@main.command()
@click.option("--recheck", is_flag=True, help="Re-run the certificates with Z3 and cvc5 instead of regenerating them.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Directory to write to or read from (default: the repository's proofs/smt2; --recheck: the installed ones).")
def certificates(recheck: bool, out: str | None) -> None:
    """Regenerate the SMT-LIB certificates of every proof, or re-check them with Z3 and cvc5.

    Regeneration writes the .smt2 files into --out (by default the source checkout's
    proofs/smt2, never an installed package) and removes only stale .smt2 files there.
    With --recheck every file the MANIFEST lists must be there unchanged, hold only the
    commands irprops writes, have consistent hypotheses, and answer unsat at every
    (check-sat); the command exits with status 1 when one does not, and names the file.
    """
    from irprops.proofs import certificates as certs

    if not recheck:
        directory = Path(out) if out else _checkout_certificates()
        writable_folder(directory, "--out")
        written = certs.regenerate(directory)
        click.echo(f"{len(written)} certificates written to {directory}")
        return
    directory = Path(out) if out else certs.COMMITTED
    if not directory.exists():
        raise click.UsageError(f"no certificates in {directory}: run irprops certificates first")
    results = certs.recheck(directory)
    solvers = "Z3 and cvc5" if certs.cvc5_available() else "Z3 (cvc5 is not installed: pip install irprops[cvc5])"
    failed = [r for r in results if not r.ok]
    for r in failed:
        if r.problem is not None:
            click.echo(f"FAILED: {r.path}: {r.problem}")
            continue
        flag = "DISAGREEMENT" if r.disagreement else "not proved"
        click.echo(f"{flag}: {r.path}: z3 {', '.join(r.z3)}; cvc5 {', '.join(r.cvc5) if r.cvc5 is not None else 'not run'}")
    click.echo(f"{len(results) - len(failed)} of {len(results)} certificates re-checked unsat with {solvers}")
    if failed:
        sys.exit(1)


def _checkout_certificates() -> Path:
    """The source checkout's proofs/smt2, when irprops runs from one (an editable install); else a usage error."""

    from irprops.proofs import certificates as certs

    root = certs.COMMITTED.parent.parent
    pyproject = root / "pyproject.toml"
    if certs.COMMITTED.parent.name == "proofs" and pyproject.exists() and 'name = "irprops"' in pyproject.read_text():
        return certs.COMMITTED
    raise _metrics().InputError("--out", "(not given)",
                             "irprops is not running from a source checkout, and an installed package is never written to",
                             "give --out DIR")


@main.command(name="metrics")
@click.argument("name", required=False)
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the README's generated tables of metrics and names.")
def list_metrics(name: str | None, as_markdown: bool) -> None:
    """List the declared metrics, or show one: its formula, parameters and symbolic forms."""
    metrics = _metrics()
    if as_markdown:
        from irprops.metric_docs import markdown

        click.echo(markdown())
        return
    if name is None:
        from rich.console import Console
        from rich.table import Table

        table = Table("metric", "also", "grades", "parameters", "definition")
        for metric in metrics.REGISTRY.values():
            params = ", ".join(f"{p.name} ({p.rule}, default {metrics.decimal(p.default)})" for p in metric.params)
            also = [*metric.aliases, *(f"{s.written} ({s.toolkit})" for s in metrics.spellings_of(metric.key))]
            table.add_row(metric.key, ", ".join(also), metric.relevance, params, metric.definition, style=None)
        Console(highlight=False).print(table, markup=False)
        from irprops.metrics.spellings import NOT_DECLARED

        click.echo("Not declared yet: " + "; ".join(f"{what} ({why})" for what, why in NOT_DECLARED.values()) + ".")
        return
    measure = metrics.parse(name)
    metric = measure.metric
    click.echo(f"{measure.name}: {metric.description}")
    click.echo(f"\nGrades: {metric.relevance}.  Reference: {metric.reference}.")
    for spelling in metrics.spellings_of(metric.key):
        click.echo(f"As {spelling.toolkit}: {spelling.written}" + (f" ({spelling.toolkit} {spelling.note})" if spelling.note else ""))
    closed = measure.closed_form()
    click.echo(f"\nFor every k:  {closed if closed is not None else 'no closed form for symbolic k'}")
    if measure.k is not None:
        try:
            shown = str(measure.symbolic())
        except metrics.NotExpressible as why:  # SN-DCG@11: the ideal ordering of 11 graded symbols is not written out
            shown = f"not written out ({why})"
        click.echo(f"At k = {measure.k}:  {shown}")
