"""The ``transformer-dynamics`` command line.

Subcommands:

``spaces``
    The homogeneous spaces with their conventions, and an admissible embedding of
    ``--n-points`` points on each, checked independently (:func:`manifolds.check_admissible`).

With ``--json`` standard output is exactly one JSON object (library version and seed
included); progress and tables go to standard error or are left out. Exit codes: 0 when
every check passed, 1 when a check failed, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from importlib.metadata import PackageNotFoundError, version

import numpy as np

from manifolds import (
    Grassmannian,
    ManifoldError,
    ProjectiveSpace,
    Sphere,
    admissible_embedding,
    check_admissible,
    parse_space,
    space_spec,
)

__all__ = ["main"]

DEFAULT_SPACES = ("sphere:2", "projective:2", "grassmannian:4,2")


def library_version() -> str:
    """The installed distribution's version (``"unknown"`` when run from a bare checkout)."""
    try:
        return version("transformer-dynamics")
    except PackageNotFoundError:
        return "unknown"


def _conventions(space) -> dict:
    """What a point is and which distance, metric and injectivity radius the space uses."""
    if isinstance(space, Sphere):
        return {
            "point_model": f"unit vectors in R^{space.dim + 1}",
            "distance": "angle atan2(|x^y|, <x,y>)",
            "metric": "<u,v> (Euclidean)",
        }
    kind = "rank-1" if isinstance(space, ProjectiveSpace) else f"rank-{space.k}"
    distance = ("principal angle arccos|<x,y>|" if isinstance(space, ProjectiveSpace)
                else "sqrt(sum theta_i^2), principal angles")
    assert isinstance(space, Grassmannian)
    return {
        "point_model": f"{kind} projectors {space.n}x{space.n}",
        "distance": distance,
        "metric": "1/2 tr(u^T v) (geomstats: tr, distances x sqrt 2)",
    }


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def _spaces(args, out, err) -> int:
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
        # Independent check: recompute the separation from the points and compare.
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
            **_conventions(space),
            "n_points": emb.n_points,
            "separation": emb.separation,
            "closest_pair": list(emb.closest_pair),
            "check_passed": bool(passed),
            "seconds": round(elapsed, 3),
            "points": emb.points.tolist(),
        })
    ok = all(r["check_passed"] for r in records)
    if args.json:
        json.dump({"command": "spaces", "version": library_version(), "seed": args.seed,
                   "passed": ok, "spaces": records}, out)
        out.write("\n")
    else:
        print(f"transformer-dynamics {library_version()}: spaces (seed {args.seed})\n", file=out)
        print(_table(
            ["space", "points are", "dim", "inj. radius", "distance", "metric"],
            [[r["space"], r["point_model"], str(r["dim"]), f"{r['injectivity_radius']:.6f}",
              r["distance"], r["metric"]] for r in records]), file=out)
        print(f"\nadmissible embeddings of {args.n_points} points (admissible for every "
              "r0 below the separation)\n", file=out)
        print(_table(
            ["space", "separation", "degrees", "closest pair", "check", "time"],
            [[r["space"], f"{r['separation']:.9f}", f"{np.degrees(r['separation']):.4f}",
              f"({r['closest_pair'][0]}, {r['closest_pair'][1]})",
              "passed" if r["check_passed"] else "FAILED", f"{r['seconds']:.2f} s"]
             for r in records]), file=out)
        print(f"\n{'all checks passed' if ok else 'SOME CHECKS FAILED'}", file=out)
    return 0 if ok else 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="transformer-dynamics",
        description="The geometry of 'On Transformer Dynamics', executable and verified.",
    )
    parser.add_argument("--version", action="version",
                        version=f"transformer-dynamics {library_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    spaces = sub.add_parser(
        "spaces", help="the homogeneous spaces, their conventions and admissible embeddings",
        description="Print each space's conventions and an admissible embedding of "
                    "--n-points points on it, independently checked.")
    spaces.add_argument("--space", action="append", metavar="SPACE",
                        help="sphere:D, projective:D or grassmannian:N,K (repeatable; default: "
                             + ", ".join(DEFAULT_SPACES) + ")")
    spaces.add_argument("--n-points", type=int, default=12, metavar="N",
                        help="points per embedding (default 12)")
    spaces.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    spaces.add_argument("--json", action="store_true",
                        help="print exactly one JSON object on standard output")
    spaces.add_argument("--progress", action="store_true",
                        help="with --json, still report progress on standard error")
    spaces.set_defaults(run=_spaces)
    return parser


def main(argv: list[str] | None = None, *, out=None, err=None) -> int:
    """Run the command line; returns the exit code (0 all checks passed, 1 a check failed,
    2 bad input)."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args, out, err)
    except (ManifoldError, TypeError) as exc:
        print(f"transformer-dynamics: error: {exc}", file=err)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
