"""KernelSum through the compact support against the direct all-pairs sum, in one run.

Run: ``python benchmarks/bench_laws.py`` (S^2, radius 0.05, 10^6 evaluation points, 100 to
10,000 centers). For each number of centers: the median time of ``KernelSum(x)`` over
``--repeat`` runs at all points, and the all-pairs sum ``κ(x_i, c_k)`` summed over ``k``
(``BumpKernel.matrix`` in blocks) timed on ``--reference-points`` of them and scaled linearly
to the full count (its cost is exactly proportional to the points), with the largest
difference between the two on those points. Prints a markdown table, recorded in
docs/benchmarks.md, and checks the issue's targets (exit 1 if one is missed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from laws import BumpKernel, KernelSum  # noqa: E402
from manifolds import Sphere  # noqa: E402


def median_time(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def all_pairs(kernel, x, centers, block=2000):
    return np.concatenate([kernel.matrix(x[i:i + block], centers).sum(axis=1)
                           for i in range(0, len(x), block)])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--centers", type=int, nargs="+", default=[100, 500, 2000, 10_000])
    parser.add_argument("--radius", type=float, default=0.05)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reference-points", type=int, default=20_000)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    sphere = Sphere(2)
    kernel = BumpKernel(sphere, args.radius)
    x = sphere.random_point(args.points, rng=rng)
    sub = x[: args.reference_points]
    print(f"S^2, r = {args.radius}, {args.points} points; KernelSum median of {args.repeat} runs; "
          f"all-pairs timed on {len(sub)} points and scaled\n")
    print("| centers | mean neighbours | build (s) | KernelSum (s) | points / s | time per point vs "
          f"{args.centers[0]} centers | all-pairs (s, scaled) | all-pairs / KernelSum | max diff |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for count in args.centers:
        centers = sphere.random_point(count, rng=rng)
        start = time.perf_counter()
        total = KernelSum(kernel, centers)
        build = time.perf_counter() - start
        ours, values = median_time(lambda: total(x), args.repeat)
        ref_time, ref = median_time(lambda: all_pairs(kernel, sub, centers), 1)
        ref_scaled = ref_time * len(x) / len(sub)
        diff = float(np.abs(values[: len(sub)] - ref).max())
        neighbours = total.sparse_matrix(sub).nnz / len(sub)
        rows.append((count, ours, ref_scaled, diff))
        print(f"| {count} | {neighbours:.2f} | {build:.3f} | {ours:.3f} | {len(x) / ours:.3g} | "
              f"{ours / rows[0][1]:.2f}× | {ref_scaled:.1f} | {ref_scaled / ours:.0f}× | {diff:.1e} |")
    by_count = {c: (t, r, d) for c, t, r, d in rows}
    failures = []
    if 2000 in by_count and args.points / by_count[2000][0] < 5e5:
        failures.append("fewer than 5e5 points per second with 2,000 centers")
    if 100 in by_count and 2000 in by_count and by_count[2000][0] / by_count[100][0] >= 3:
        failures.append("time per point grew 3× or more from 100 to 2,000 centers")
    ratios = [r / t for _, t, r, _ in rows]
    if any(b <= a for a, b in zip(ratios, ratios[1:])):
        failures.append("the ratio to all-pairs does not grow with the centers")
    if max(d for *_, d in rows) > 1e-12:
        failures.append("KernelSum and all-pairs differ by more than 1e-12")
    print("\ntargets: " + ("all met" if not failures else "MISSED: " + "; ".join(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
