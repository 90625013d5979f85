"""``transformer-dynamics sweep`` and ``sweep-report``: random hub extensions over a grid, on
a local pool or a dask cluster, resumable; and the summary of a results file."""

from __future__ import annotations

import argparse

from ..errors import SweepError
from ..sweeps import INVARIANTS, random_hub_grid, read_rows, row_columns, summarize_sweep, sweep
from .output import library_version, progress_bar, table, write_json

__all__ = ["run", "report", "numbers"]


def numbers(kind):
    """An argparse type: a comma-separated list of ``kind`` (``--N 10,20,40``).

    Parameters
    ----------
    kind : type
        ``int`` or ``float``.

    Returns
    -------
    callable
        ``text -> list``; raises argparse's ``ArgumentTypeError`` for anything else.

    Examples
    --------
    >>> numbers(int)("10, 20,40"), numbers(float)("0.2,0.4")
    ([10, 20, 40], [0.2, 0.4])
    """
    def parse(text: str) -> list:
        try:
            values = [kind(v) for v in text.split(",")]
        except ValueError:
            values = []
        if not values:
            raise argparse.ArgumentTypeError(
                f"must be a comma-separated list of {kind.__name__}s, got {text!r}")
        return values
    return parse


def run(args, out, err) -> int:
    """Run ``transformer-dynamics sweep``: one task per ``(N, n, p, seed)``, rows appended to
    ``--out`` as they finish; an interrupted sweep resumes when run again with the same
    ``--out`` (docs/sweeps.md).

    Parameters
    ----------
    args : argparse.Namespace
        ``N``, ``hubs``, ``p``, ``seeds``, ``invariants``, ``solve_limit``, ``time_limit``,
        ``out``, ``scheduler``, ``workers`` and the output options.
    out : file-like
        Text stream for the results.
    err : file-like
        Text stream for progress.

    Returns
    -------
    int
        0 when every row is there and every invariant proved, 3 when the time limit left
        rows undone (run again to finish) or an invariant unproved.

    Raises
    ------
    ImportError
        ``--scheduler`` without the ``distributed`` extra.
    SweepError
        ``--workers`` with ``--scheduler``, or a scheduler that cannot be reached; the
        library's errors for a bad grid or file pass through.

    Examples
    --------
    A probability outside ``[0, 1]`` is bad input, refused before anything runs:

    >>> import io
    >>> from theorem.cli import main
    >>> err = io.StringIO()
    >>> main(["sweep", "--N", "10", "--hubs", "2", "--p", "1.5", "--seeds", "2", "--out",
    ...       "r.csv"], out=io.StringIO(), err=err)
    2
    >>> print(err.getvalue(), end="")
    transformer-dynamics: error: p must be a probability in [0, 1], got 1.5
    """
    random_hub_grid(args.N, args.hubs, args.p, args.seeds)      # bad grids before a cluster
    row_columns(args.invariants)
    client = None
    if args.scheduler is not None:
        try:
            from distributed import Client
        except ImportError:
            raise ImportError("--scheduler needs dask.distributed: pip install "
                              "'transformer-dynamics[distributed]'") from None
        if args.workers is not None:
            raise SweepError("--workers is for the local pool; with --scheduler the cluster "
                             "has its own workers")
        try:
            if args.scheduler == "local":
                client = Client(n_workers=2, threads_per_worker=1, processes=True,
                                dashboard_address=None)
            else:
                # a malformed address is refused before a Client starts its event-loop thread
                # (which a failed Client leaves behind: later forks of this process would hang)
                from distributed.comm.addressing import parse_address, parse_host_port
                parse_host_port(parse_address(args.scheduler)[1])
                client = Client(args.scheduler, timeout=min(30.0, args.time_limit))
        except (OSError, ValueError, TypeError) as exc:
            raise SweepError(f"cannot reach the dask scheduler {args.scheduler!r}: {exc}; give "
                             "tcp://HOST:PORT of a running scheduler, or 'local'") from None
    show = not args.json or args.progress
    try:
        result = sweep({"N": args.N, "hubs": args.hubs, "p": args.p}, args.seeds,
                       invariants=args.invariants, time_limit=args.solve_limit, out=args.out,
                       client=client, workers=args.workers, total_time_limit=args.time_limit,
                       progress=progress_bar(err, "sweep") if show else None)
    finally:
        if client is not None:
            client.close()
    code = 0 if result.complete and result.optimal else 3
    summary = summarize_sweep(result.rows)
    if args.json:
        write_json({"command": "sweep", "version": library_version(), "seed": args.seeds,
                    "out": str(result.path), "rows": len(result.rows), "resumed": result.resumed,
                    "computed": result.computed, "missing": result.missing,
                    "optimal": result.optimal, "summary": summary}, out)
        out.write("\n")
        return code
    print(f"transformer-dynamics {library_version()}: sweep of {len(result.rows)} rows in "
          f"{result.path} ({result.resumed} found there, {result.computed} computed now, "
          f"{result.missing} left)\n", file=out)
    print(_summary_table(summary), file=out)
    if result.missing:
        print(f"\nTIME LIMIT: {result.missing} grid points left; run the same command again "
              "to finish them", file=out)
    elif not result.optimal:
        print("\nsome invariants are bounds only (their *_optimal is False): raise "
              "--solve-limit for those", file=out)
    return code


def _summary_table(summary: list[dict]) -> str:
    names = [n for n in INVARIANTS if summary and n in summary[0]]
    headers = ["hubs", "p", "N", "rows", "planted"] + [
        f"{n} {part}" for n in names for part in ("median [q10, q90]", "proved")]
    rows = []
    for cell in summary:
        line = [str(cell["hubs"]), str(cell["p"]), str(cell["N"]), str(cell["rows"]),
                f"{cell['planted_hubs']:.1f}"]
        for n in names:
            s = cell[n]
            line += [f"{s['median']:g} [{s['q10']:g}, {s['q90']:g}]", f"{s['optimal']:.0%}"]
        rows.append(line)
    return table(headers, rows)


def report(args, out, err) -> int:
    """Run ``transformer-dynamics sweep-report``: summary statistics of a results file, and
    with ``--plot DIR`` the invariants against ``N`` for each ``(n, p)`` (plot extra).

    Parameters
    ----------
    args : argparse.Namespace
        ``results`` (the CSV file), ``plot`` and the output options.
    out : file-like
        Text stream for the results.
    err : file-like
        Text stream for notes.

    Returns
    -------
    int
        0 when every invariant of every row is proved, 3 otherwise.

    Examples
    --------
    >>> import io
    >>> from theorem.cli import main
    >>> err = io.StringIO()
    >>> main(["sweep-report", "no-such-file.csv"], out=io.StringIO(), err=err)
    2
    >>> err.getvalue().startswith("transformer-dynamics: error: [Errno 2] No such file")
    True
    """
    columns, rows = read_rows(args.results)
    summary = summarize_sweep(rows)
    optimal = all(row[c] for row in rows for c in columns if c.endswith("_optimal"))
    figures = []
    if args.plot:
        from ..drawing import draw_sweep
        figures = [str(p) for p in draw_sweep(summary, args.plot)]
    if args.json:
        write_json({"command": "sweep-report", "version": library_version(), "seed": None,
                    "results": str(args.results), "rows": len(rows), "optimal": optimal,
                    "summary": summary, "figures": figures}, out)
        out.write("\n")
    else:
        print(f"transformer-dynamics {library_version()}: {len(rows)} rows of "
              f"{args.results}\n", file=out)
        print(_summary_table(summary), file=out)
        for path in figures:
            print(f"wrote {path}", file=out)
    return 0 if optimal else 3
