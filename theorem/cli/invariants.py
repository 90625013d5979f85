"""``transformer-dynamics invariants``: ``b``, ``χ_hub``, ``χ'``, the Pareto front and the real
rank of a digraph, with witnesses and certificates."""

from __future__ import annotations

import time

from ..invariants import (
    InvariantResult,
    biclique_cover_number,
    chromatic_index,
    hub_chromatic_index,
    hub_pareto_front,
    real_rank,
)
from .options import digraph_from
from .output import encoded, library_version, table, write_json

__all__ = ["run"]


#: The table lists this many hubs of a witness, and this many vertices of a hub side.
SHOWN_HUBS = 40


SHOWN_VERTICES = 20


def _short(vertices: list[int]) -> str:
    """``vertices`` as a list, cut after :data:`SHOWN_VERTICES` with the count left."""
    if len(vertices) <= SHOWN_VERTICES:
        return str(vertices)
    return str(vertices[:SHOWN_VERTICES])[:-1] + f", ... {len(vertices) - SHOWN_VERTICES} more]"


def run(args, out, err) -> int:
    """Run ``transformer-dynamics invariants``: the exact invariants of one digraph, with
    witnesses and certificates.

    Computes ``b`` (:func:`~theorem.invariants.biclique_cover_number`), ``χ_hub``, ``χ'``,
    the Pareto front of (hubs, colors) and the real rank of ``M``, sharing ``--time-limit``
    between them (docs/conventions.md#exact-answers: a value the time limit left unproved
    comes with both bounds). Prints a table, or with ``--json`` one JSON object, on ``out``;
    progress goes to ``err`` (docs/conventions.md#command-line).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the ``invariants`` command (``main``'s parser): the digraph
        (:func:`~theorem.cli.options.digraph_arguments`), ``seed``, ``time_limit`` and the
        output options.
    out : file-like
        Text stream for the results.
    err : file-like
        Text stream for progress.

    Returns
    -------
    int
        0 when every invariant is proved optimal, 3 when the time limit left one unproved.

    Examples
    --------
    The paper's second example, ``main(["invariants", "--family", "complete-bipartite",
    "--n", "3", "--m", "4", "--json"])``, exits with 0 and reports ``b = 1``, ``χ_hub = 1``
    and ``χ' = 4``, all optimal, in a few tenths of a second
    (``tests/theorem/cli/test_cli.py`` checks it). Without its second parameter the family
    is bad input:

    >>> import io
    >>> from theorem.cli import main
    >>> err = io.StringIO()
    >>> main(["invariants", "--family", "complete-bipartite", "--n", "3"],
    ...      out=io.StringIO(), err=err)
    2
    >>> print(err.getvalue(), end="")
    transformer-dynamics: error: this family needs --m B
    """
    start = time.monotonic()
    digraph, planted = digraph_from(args, err)

    def progress(what):
        if not args.json or args.progress:
            print(f"computing {what} ...", file=err, flush=True)

    def witness(r):
        return r.witness.tolist() if r.name == "chromatic_index" else r.witness.to_json()

    # with --json, what is large (the edges, the witnesses) is encoded as soon as it is
    # known, so that its time counts against the budget the later steps share
    parts = {"digraph": encoded(digraph.to_json)} if args.json else {}
    results = {}
    overrun = [0.0]     # the most a step ran past its limit, its output included

    def step(what, fraction, later, call):
        """Run ``call(limit)`` with a fair part of the budget left: b gets a third, χ_hub
        half of the rest, the coloring of χ' a third of what is left, then the Pareto front
        nine tenths and the real rank the remainder. What a step ran past its limit (the
        linear-time work no limit cuts: the trivial witnesses and their checks on millions
        of edges, the output) is kept back for each of the ``later`` steps."""
        progress(what)
        left = args.time_limit - (time.monotonic() - start) - later * overrun[0]
        limit = max(fraction * left, 1e-3)
        began = time.monotonic()
        r = call(limit)
        if isinstance(r, InvariantResult):
            results[r.name] = r
            if args.json:
                parts[r.name] = encoded(lambda: {**r.summary(), "witness": witness(r)})
        overrun[0] = max(overrun[0], time.monotonic() - began - limit)
        return r

    b = step("biclique_cover_number", 1 / 3, 4,
             lambda t: biclique_cover_number(digraph, time_limit=t))
    h = step("hub_chromatic_index", 1 / 2, 3,
             lambda t: hub_chromatic_index(digraph, time_limit=t, biclique_cover=b))
    step("chromatic_index", 1 / 3, 2, lambda t: chromatic_index(digraph, time_limit=t))
    front = step("the Pareto front", 0.9, 1,
                 lambda t: hub_pareto_front(digraph, time_limit=t, biclique_cover=b,
                                            hub_chromatic=h))
    rank = step("the real rank", 1.0, 0, lambda t: real_rank(digraph, time_limit=t))
    optimal = all(r.optimal for r in results.values()) and front.optimal

    if args.json:
        report = {"command": "invariants", "version": library_version(), "seed": args.seed,
                  "digraph": parts["digraph"], "real_rank": rank, "optimal": optimal,
                  "pareto_front": front.pairs(), "pareto_front_complete": front.complete}
        report.update((name, parts[name]) for name in results)
        if planted is not None:
            report["planted_hubs"] = planted.n_hubs
        write_json(report, out)
        out.write("\n")
    else:
        print(f"transformer-dynamics {library_version()}: invariants of a digraph with "
              f"{digraph.n} vertices and {digraph.n_edges} edges\n", file=out)
        print(table(
            ["invariant", "value", "bounds", "optimal", "how proved", "time"],
            [[name, str(r.value), f"[{r.lower_bound}, {r.upper_bound}]",
              "yes" if r.optimal else "NO", r.certificate.statement[:90], f"{r.elapsed:.2f} s"]
             for name, r in results.items()]), file=out)
        print(f"\nreal rank of M: {'not computed in time' if rank is None else rank} "
              "(bounds b neither way)", file=out)
        if planted is not None:
            print(f"planted hubs: {planted.n_hubs}", file=out)
        print("Pareto front (hubs, colors): "
              + ", ".join(f"({p.hubs}, {p.colors}){'' if p.optimal else '?'}" for p in front.points)
              + ("" if front.complete else ", ... (time limit: the front may continue)"),
              file=out)
        ext = results["hub_chromatic_index"].witness
        print(f"\ncolored hub extension with {ext.n_colors} colors ({ext.n_hubs} hubs):",
              file=out)
        for p, ((a, b), c) in enumerate(zip(ext.hubs[:SHOWN_HUBS], ext.colors)):
            print(f"  hub {p:>3}  color {c:>2}  sources {_short(a)}  targets {_short(b)}",
                  file=out)
        if ext.n_hubs > SHOWN_HUBS:
            print(f"  ... {ext.n_hubs - SHOWN_HUBS} more hubs (--json lists every hub)", file=out)
        print(f"\n{'all invariants proved optimal' if optimal else 'TIME LIMIT: bounds only'}",
              file=out)
    return 0 if optimal else 3
