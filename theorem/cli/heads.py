"""``transformer-dynamics heads``: what realizing a digraph's attention costs — hub-feature
heads, bilinear ``K = I`` heads, one factored head — each built and verified."""

from __future__ import annotations

from ..transformer import head_costs
from .options import digraph_from
from .output import library_version, table, write_json

__all__ = ["run"]


def run(args, out, err) -> int:
    """Run ``transformer-dynamics heads``: the cost table of one digraph (Section 3).

    Builds, for the digraph of ``--digraph`` or ``--family``, the heads of a colored hub
    extension with ``χ_hub`` colors (token set and ``S^{d−1}``), the ``χ'`` bilinear ``K = I``
    weights and the one head of key dimension ``rank_R(M)``
    (:func:`~theorem.transformer.head_costs`), verifies each, and prints them side by side
    with their sizes and parameter counts, or with ``--json`` one JSON object with the keys
    ``hub_heads``, ``bilinear_heads``, ``universal_rank`` and ``token_heads``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the ``heads`` command: the digraph
        (:func:`~theorem.cli.options.digraph_arguments`), ``d``, ``seed``, ``time_limit`` and
        the output options.
    out : file-like
        Text stream for the results.
    err : file-like
        Text stream for progress.

    Returns
    -------
    int
        0 when every construction is verified (the bilinear one at the paper's strength) and
        ``b``, ``χ_hub``, ``χ'`` are proved, 1 when a verification failed, 3 when the time
        limit left an invariant unproved or a verification undone.

    Examples
    --------
    ``main(["heads", "--family", "complete-bipartite", "--n", "3", "--m", "4", "--json"])``
    exits with 0 and reports one hub head against four bilinear ones
    (``tests/theorem/cli/test_heads.py`` checks it). A token dimension below the number of
    vertices is bad input:

    >>> import io
    >>> from theorem.cli import main
    >>> err = io.StringIO()
    >>> main(["heads", "--family", "cycle", "--n", "5", "--d", "3"], out=io.StringIO(), err=err)
    2
    >>> print(err.getvalue(), end="")
    transformer-dynamics: error: the token dimension d = 3 is below the number of vertices N = 5: the heads are built on N orthonormal tokens in R^d, so give d ≥ 5
    """
    digraph, _ = digraph_from(args, err)

    def progress(stage):
        if not args.json or args.progress:
            print(f"computing {stage} ...", file=err, flush=True)

    costs = head_costs(digraph, d=args.d, time_limit=args.time_limit, progress=progress)
    code = 1 if costs.failed else 0 if costs.verified and costs.optimal else 3
    if args.json:
        write_json({"command": "heads", "version": library_version(), "seed": args.seed,
                    **costs.to_json(), "exit_code": code}, out)
        out.write("\n")
        return code
    p = costs.profile
    print(f"transformer-dynamics {library_version()}: attention heads of a digraph with "
          f"{digraph.n} vertices and {digraph.n_edges} edges, tokens orthonormal in "
          f"R^{costs.d}\n", file=out)
    print("invariants: " + ", ".join(
        f"{name} = {r.value if r.optimal else f'[{r.lower_bound}, {r.upper_bound}]'}"
        for name, r in (("b", p.biclique_cover), ("χ_hub", p.hub_chromatic),
                        ("χ'", p.chromatic))) + f", rank_R(M) = {p.real_rank}\n", file=out)
    print(table(["construction", "functions", "size", "key dims", "parameters", "verified"],
                costs.rows()), file=out)
    eps = costs.hub_heads_report
    print("\nε(β), the weight a query puts outside its in-neighbours (hub heads): "
          + ", ".join(f"β = {b:g}: {e:.2g}" for b, e in zip(eps.betas, eps.epsilon)), file=out)
    if any(r > 1 for r in costs.bilinear_ranks):
        print("bilinear maxima are not strict: a weight claiming m edges has a great "
              "(m − 1)-sphere of maxima through them", file=out)
    verdict = {0: "every construction verified, every invariant proved",
               1: "a VERIFICATION FAILED", 3: "TIME LIMIT: bounds only, or a verification "
               "not finished"}[code]
    print(f"\n{verdict} ({costs.elapsed:.1f} s)", file=out)
    return code
