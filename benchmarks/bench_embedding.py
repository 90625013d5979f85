"""Admissible embeddings: packing quality against the literature, its reproducibility, and cost.

Run: ``python benchmarks/bench_embedding.py`` (add ``--quick`` for a subset). Prints
markdown tables, recorded in docs/manifolds.md and docs/benchmarks.md.

``--seeds S`` adds, per row, whether seeds ``0..S−1`` reach the same value at the printed
precision (a new seed perturbs every start, as other rounding does); ``--kernels`` reruns the
quality tables (seed 0) in one worker process per numerical variant, each set up before numpy
loads: ``native`` (OpenBLAS's kernel for this CPU), an ``OPENBLAS_CORETYPE`` such as
``Haswell`` or ``Sandybridge``, and any of them with ``:no-avx512`` (numpy's AVX-512 loops,
among them its transcendental functions, disabled with ``NPY_DISABLE_CPU_FEATURES``). The
table then says whether every variant prints the same digits, and the spread of the full
values. ``--memory`` measures the peak memory of ``pairwise_distances`` and
``check_admissible`` (tracemalloc) on 8000 points of ``S^2``.

References (best known minimum distances, in degrees; chordal values converted where the
conversion is exact):
* S^2 (Tammes problem): N. J. A. Sloane, tables of spherical codes in 3 dimensions.
* RP^2 (lines in R^3): N = 3..7 are proved optimal (90°, arccos 1/3, arccos 1/√5 twice,
  arccos 1/√3); N = 8..12 from Conway, Hardin & Sloane, "Packing lines, planes, etc." (1996),
  Table 1, whose chordal distance sin θ converts exactly to the angle.
* Gr(2, 4): CHS tabulate the chordal distance sqrt(Σ sin² θ_i), which does not determine the
  geodesic sqrt(Σ θ_i²); the table compares our packing's chordal value with the simplex
  (Rankin) bound N/(N − 1) on its square, which every packing obeys. N = 3: π √(5/18), the
  equilateral configuration on the cut locus (tests/manifolds/test_embedding.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from manifolds import (  # noqa: E402
    Grassmannian,
    ProjectiveSpace,
    Sphere,
    admissible_embedding,
    check_admissible,
    pairwise_distances,
)

TAMMES = {4: 109.4712, 5: 90.0, 6: 90.0, 7: 77.8695, 8: 74.8585, 9: 70.5288, 10: 66.1468,
          11: 63.4349, 12: 63.4349, 13: 57.1367, 14: 55.6706, 15: 53.6579, 16: 52.2444,
          17: 51.0903, 18: 49.5567, 19: 47.6919, 20: 47.4310, 21: 45.6132, 22: 44.7402,
          23: 43.7100, 24: 43.6908}
LINES = {3: 90.0, 4: 70.5288, 5: 63.4349, 6: 63.4349, 7: 54.7356, 8: 49.6399, 9: 47.9821,
         10: 46.6746, 11: 44.4031, 12: 41.8820}
#: Printed digits: degrees to 4 decimals, Gr(2, 4) radians to 5 (its N = 7 optimum is not a
#: vertex of the active constraints, where the polish converges slowly: the variants agree to
#: ~1e-6 there, to ~1e-12 elsewhere).
DEGREES, RADIANS = 4, 5
AVX512 = ("AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR").split()


def tables(quick):
    """``(key, space, sizes, best known in degrees or None)`` of the quality tables."""
    return [
        ("S^2 (Tammes)", Sphere(2), (4, 13, 24) if quick else tuple(TAMMES), TAMMES),
        ("RP^2 (lines in R^3)", ProjectiveSpace(2), (4, 12) if quick else tuple(LINES), LINES),
        ("Gr(2, 4) (planes in R^4)", Grassmannian(4, 2), (3, 6) if quick else tuple(range(2, 11)),
         None),
    ]


def shown(value, degrees):
    """The printed digits of a separation (radians in, string out)."""
    return f"{np.degrees(value):.{DEGREES}f}" if degrees else f"{value:.{RADIANS}f}"


def timed(space, n, seed=0):
    start = time.perf_counter()
    emb = admissible_embedding(space, n, rng=seed)
    return emb, time.perf_counter() - start


def separations(quick, seed=0):
    """``{key: {N: separation}}`` for one seed, as a worker reports it."""
    return {key: {n: admissible_embedding(space, n, rng=seed).separation for n in sizes}
            for key, space, sizes, _ in tables(quick)}


def gap(best, achieved):
    """Relative gap to the best known value in percent; ``0.000%`` where it rounds to zero
    (its sign would follow the last bits)."""
    g = 100 * (best - achieved) / best
    return "0.000%" if abs(g) < 5e-4 else f"{g:+.3f}%"


def agreement(values, degrees):
    """``all`` when every value prints the same digits, else the printed range."""
    printed = sorted({shown(v, degrees) for v in values})
    return "all" if len(printed) == 1 else f"{printed[0]} – {printed[-1]}"


# -- numerical variants, each in a worker process -------------------------------------------
def variant_env(variant):
    kernel, _, numpy_flag = variant.partition(":")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("NPY_DISABLE_CPU_FEATURES", None)
    if kernel != "native":
        env["OPENBLAS_CORETYPE"] = kernel
    if numpy_flag == "no-avx512":
        from numpy._core._multiarray_umath import __cpu_features__  # what this CPU has

        env["NPY_DISABLE_CPU_FEATURES"] = " ".join(f for f in AVX512 if __cpu_features__.get(f))
    elif numpy_flag:
        raise SystemExit(f"unknown variant {variant!r}: use KERNEL or KERNEL:no-avx512")
    return env


def run_variants(variants, quick):
    out = {}
    for variant in variants:
        argv = [sys.executable, __file__, "--worker"] + (["--quick"] if quick else [])
        proc = subprocess.run(argv, env=variant_env(variant), capture_output=True, text=True,
                              check=True)
        out[variant] = json.loads(proc.stdout)
    return out


def worker(quick):
    from threadpoolctl import threadpool_info

    blas = ", ".join(sorted({f"{i.get('internal_api')} {i.get('architecture')}"
                             for i in threadpool_info()}))
    seps = separations(quick)
    disabled = os.environ.get("NPY_DISABLE_CPU_FEATURES", "")
    print(json.dumps({"blas": blas, "numpy_disabled": disabled, "separations": seps}))


# -- tables ---------------------------------------------------------------------------------
def quality_tables(quick, seeds, variants):
    by_variant = run_variants(variants, quick) if variants else {}
    if by_variant:
        print("\nVariants (seed 0, one worker process each):\n")
        for variant, got in by_variant.items():
            off = got["numpy_disabled"] or "none"
            print(f"* `{variant}`: {got['blas']}; numpy features disabled: {off}")
    for key, space, sizes, best_known in tables(quick):
        degrees = best_known is not None
        extra = (["seeds 0–%d" % (seeds - 1)] if seeds > 1 else []) + (
            [f"{len(variants)} variants", "spread"] if variants else [])
        if degrees:
            head = ["N", "achieved (deg)", "best known (deg)", "gap"]
        else:
            head = ["N", "geodesic separation", "chordal² (ours)", "simplex bound on chordal²"]
        head += extra + ["time (s)"]
        print(f"\n### {key}, seed 0\n")
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for n in sizes:
            emb, dt = timed(space, n)
            if degrees:
                cells = [str(n), shown(emb.separation, True), f"{best_known[n]:.4f}",
                         gap(best_known[n], np.degrees(emb.separation))]
            else:
                i, j = np.triu_indices(n, 1)
                chordal2 = (np.sin(space.principal_angles(emb.points[i], emb.points[j])) ** 2
                            ).sum(-1)
                cells = [str(n), shown(emb.separation, False), f"{chordal2.min():.4f}",
                         f"{n / (n - 1):.4f}"]
            if seeds > 1:
                values = [emb.separation] + [admissible_embedding(space, n, rng=s).separation
                                             for s in range(1, seeds)]
                cells.append(agreement(values, degrees))
            if variants:
                values = [got["separations"][key][str(n)] for got in by_variant.values()]
                cells += [agreement(values, degrees), f"{max(values) - min(values):.0e}"]
            print("| " + " | ".join(cells + [f"{dt:.2f}"]) + " |")


def cost_table(quick):
    print("\n### Cost\n")
    print("| case | separation | time (s) | target (s) |")
    print("|---|---|---|---|")
    cases = [(Sphere(2), 6, None), (Sphere(2), 24, 2), (Sphere(8), 40, None), (Sphere(10), 200, 10)]
    for space, n, target in cases[:2] if quick else cases:
        emb, dt = timed(space, n)
        print(f"| {n} points on {space.name} | {emb.separation:.6f} | {dt:.2f} | "
              f"{'—' if target is None else target} |")


def memory_table(count=8000):
    import tracemalloc

    space = Sphere(2)
    x = space.random_point(count, rng=0)
    print(f"\n### Memory ({count} points on {space.name}, tracemalloc peak)\n")
    print("| call | result (MiB) | peak (MiB) | time (s) |")
    print("|---|---|---|---|")
    for name, call in (("pairwise_distances", lambda: pairwise_distances(space, x)),
                       ("check_admissible", lambda: check_admissible(x, space))):
        tracemalloc.start()
        start = time.perf_counter()
        out = call()
        dt = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        size = out.nbytes if isinstance(out, np.ndarray) else 0
        print(f"| {name} | {size / 2**20:.0f} | {peak / 2**20:.0f} | {dt:.2f} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few sizes only")
    parser.add_argument("--seeds", type=int, default=1, help="also check seeds 1..S-1")
    parser.add_argument("--kernels", nargs="?", const="native,Haswell,Sandybridge,native:no-avx512",
                        default="", help="numerical variants to rerun the quality tables under "
                        "(default with the flag: native,Haswell,Sandybridge,native:no-avx512)")
    parser.add_argument("--memory", action="store_true", help="peak memory, 8000 points")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.quick)
    variants = [v for v in args.kernels.split(",") if v]
    quality_tables(args.quick, args.seeds, variants)
    cost_table(args.quick)
    if args.memory:
        memory_table()


if __name__ == "__main__":
    main()
