"""``transformer-dynamics spaces``: the spaces, their conventions, admissible embeddings."""

from __future__ import annotations

import time

import numpy as np

from manifolds import ManifoldError, admissible_embedding, check_admissible, parse_space, space_spec

from ..covers import MAX_COVER_VERTICES
from .output import library_version, table, write_json

__all__ = ["run"]


DEFAULT_SPACES = ("sphere:2", "projective:2", "grassmannian:4,2")


def run(args, out, err) -> int:
    """Run ``transformer-dynamics spaces``: the homogeneous spaces, their conventions, and an
    admissible embedding on each, checked independently.

    For each ``--space`` (default ``sphere:2``, ``projective:2``, ``grassmannian:4,2``;
    docs/conventions.md#spaces-and-metrics) prints its conventions and an admissible
    embedding of ``--n-points`` points (docs/conventions.md#admissible-embeddings-and-radii),
    whose separation :func:`manifolds.check_admissible` recomputes. Prints tables, or with
    ``--json`` one JSON object, on ``out``; progress goes to ``err``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the ``spaces`` command: ``space`` (a list, or ``None`` for the
        default spaces), ``n_points``, ``seed`` and the output options.
    out : file-like
        Text stream for the results.
    err : file-like
        Text stream for progress.

    Returns
    -------
    int
        0 when every embedding passed its check, 1 when one failed.

    Raises
    ------
    ManifoldError
        ``--n-points`` above :data:`~theorem.covers.MAX_COVER_VERTICES`, or a ``--space``
        that does not parse (``main`` reports it, exit code 2).

    Examples
    --------
    A space the command line cannot read is bad input (exit code 2):

    >>> import io
    >>> from theorem.cli import main
    >>> err = io.StringIO()
    >>> main(["spaces", "--space", "torus:2"], out=io.StringIO(), err=err)
    2
    >>> err.getvalue().startswith("transformer-dynamics: error: cannot read space 'torus:2'")
    True
    """
    if args.n_points > MAX_COVER_VERTICES:
        raise ManifoldError(
            f"--n-points {args.n_points} is above {MAX_COVER_VERTICES} (MAX_COVER_VERTICES, the "
            "most points a density cover embeds; a packing's cost grows as N²); give fewer "
            "points, or call manifolds.admissible_embedding from Python")
    spaces = [parse_space(s) for s in (args.space or DEFAULT_SPACES)]
    rng = np.random.default_rng(args.seed)
    records = []
    for space in spaces:
        spec = space_spec(space)
        if not args.json or args.progress:
            print(f"embedding {args.n_points} points on {spec} ...", file=err, flush=True)
        start = time.perf_counter()
        emb = admissible_embedding(space, args.n_points, rng=rng)
        elapsed = time.perf_counter() - start
        # Re-check: the separation recomputed from the returned points by check_admissible
        # (the same distances, so agreement is exact) — it catches an embedding whose points
        # or reported separation were altered after the search.
        try:
            checked = check_admissible(emb.points, space, r0=0.0)
            passed = checked.separation == emb.separation
        except ManifoldError:
            passed = False
        records.append({
            "space": spec,
            "dim": space.dim,
            "ambient_shape": list(space.ambient_shape),
            "injectivity_radius": space.injectivity_radius,
            **space.conventions(),
            "n_points": emb.n_points,
            "separation": emb.separation,
            "closest_pair": list(emb.closest_pair),
            "check_passed": bool(passed),
            "seconds": round(elapsed, 3),
            "points": emb.points.tolist(),
        })
    ok = all(r["check_passed"] for r in records)
    if args.json:
        write_json({"command": "spaces", "version": library_version(), "seed": args.seed,
                   "passed": ok, "spaces": records}, out)
        out.write("\n")
    else:
        print(f"transformer-dynamics {library_version()}: spaces (seed {args.seed})\n", file=out)
        print(table(
            ["space", "points are", "dim", "inj. radius", "distance", "metric"],
            [[r["space"], r["point_model"], str(r["dim"]), f"{r['injectivity_radius']:.6f}",
              r["distance"], r["metric"]] for r in records]), file=out)
        print(f"\nadmissible embeddings of {args.n_points} points (admissible for every "
              "r0 below the separation)\n", file=out)
        print(table(
            ["space", "separation", "degrees", "closest pair", "check", "time"],
            [[r["space"], f"{r['separation']:.9f}", f"{np.degrees(r['separation']):.4f}",
              f"({r['closest_pair'][0]}, {r['closest_pair'][1]})",
              "passed" if r["check_passed"] else "FAILED", f"{r['seconds']:.2f} s"]
             for r in records]), file=out)
        print(f"\n{'all checks passed' if ok else 'SOME CHECKS FAILED'}", file=out)
    return 0 if ok else 1
