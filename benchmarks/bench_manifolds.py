"""Batched dist, exp and log against geomstats 2.8.0, side by side in one run.

Run: ``python benchmarks/bench_manifolds.py`` (``--pairs N`` to change the batch; default
10^5). Prints a markdown table of median times (of ``--repeat`` runs) and ratios
geomstats/ours, recorded in docs/benchmarks.md. Where geomstats would take minutes (its
Grassmannian dist and log loop in Python) it is timed on a subsample and scaled linearly to
the full batch; the table says so. Times include our input validation (membership and
tangency checks on every call); geomstats validates nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from manifolds import Grassmannian, ProjectiveSpace, Sphere  # noqa: E402


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cases(space, rng, n):
    x = space.random_point(n, rng=rng)
    basis = space.tangent_basis(x)
    coef = rng.standard_normal((n, space.dim))
    coef *= (rng.uniform(0.1, 0.8, n) * space.injectivity_radius
             / np.linalg.norm(coef, axis=1))[:, None]
    v = np.einsum("na,na...->n...", coef, basis)
    return x, v, space.exp(v, x)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--subsample", type=int, default=2_000,
                        help="pairs timed for geomstats where it loops in Python")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    n = args.pairs
    print(f"{n} pairs, median of {args.repeat} runs (geomstats subsampled where marked)\n")
    print("| space | op | ours (s) | geomstats (s) | geomstats / ours |")
    print("|---|---|---|---|---|")
    for space in (Sphere(2), Sphere(63), ProjectiveSpace(5), Grassmannian(6, 3)):
        x, v, y = cases(space, rng, n)
        gs = space.geomstats.metric
        loops = not isinstance(space, Sphere)
        ops = {
            "dist": (lambda: space.dist(x, y), lambda m: gs.dist(x[:m], y[:m]), loops),
            "exp": (lambda: space.exp(v, x), lambda m: gs.exp(v[:m], x[:m]), False),
            "log": (lambda: space.log(y, x), lambda m: gs.log(y[:m], x[:m]), loops),
        }
        for op, (ours, theirs, subsample) in ops.items():
            t_ours = median_time(ours, args.repeat)
            m = min(args.subsample, n) if subsample else n
            t_gs = median_time(lambda: theirs(m), 1 if subsample else args.repeat) * n / m
            note = f" (from {m} pairs)" if m < n else ""
            print(f"| {space.name} | {op} | {t_ours:.4f} | {t_gs:.4f}{note} | "
                  f"{t_gs / t_ours:.1f}× |")


if __name__ == "__main__":
    main()
