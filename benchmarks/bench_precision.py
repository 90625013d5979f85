"""Precision of dist, principal angles and exp/log: worst cases of randomized searches.

Run: ``python benchmarks/bench_precision.py`` (4 to 7 minutes on 2 cores; ``--draws`` per space
and scale, default 10^4; ``--kernels`` the OpenBLAS kernels to run under, default
``native,Haswell,Sandybridge``). Prints markdown tables, recorded in docs/manifolds.md
("Precision"): for every space and every scale the worst error found under each kernel, in
units of ``eps = 2^-52``, and the largest fraction of the stated bound any draw used (the
margin is its inverse). Exits 1 if a draw exceeds a bound.

Every input is drawn once, in this process, and the very same float arrays are sent to one
worker process per kernel (``OPENBLAS_CORETYPE`` set before numpy loads; each worker reports
the kernel threadpoolctl sees), so the kernels are compared on identical inputs. References
are independent and computed once, here, in ``numpy.longdouble`` (64-bit mantissa; see
``tests/manifolds/reference.py``, itself checked against 60-digit mpmath in the tests):

* sphere ``dist``: ``atan2(|x ∧ (y ∓ x)|, ⟨x, y⟩)``, relative accuracy ~1e-19;
* projector ``dist`` and ``principal_angles``: Jacobi eigenvalues of the exactly corrected
  ``Π(P) − Π(Q)`` and ``Π(P) + Π(Q) − I`` — relative accuracy ~1e-18 even at 1e-10;
* exp/log round trips need none: the error is ``|log_x(exp_x(v)) − v|_g`` for the float ``v``
  (and ``|d(x, exp_x(v)) − |v||`` for the geodesic length).

The bounds are the functions of ``tests/manifolds/helpers.py`` that the tests assert.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from manifolds import Sphere, parse_space, space_spec  # noqa: E402
from tests.manifolds import helpers as H  # noqa: E402
from tests.manifolds import reference as R  # noqa: E402

EPS = np.finfo(float).eps
HALF_PI = np.pi / 2

# -- scales: (low, high) of the angle, the largest principal angle, or the tangent-vector norm
SPHERE_ANGLES = [(5e-11, 1e-10), (5e-9, 1e-8), (5e-7, 1e-6), (5e-5, 1e-4), (5e-3, 1e-2),
                 (0.05, 0.1), (0.1, 0.3), (0.3, 0.6), (0.6, 1.0), (1.0, 1.5), (1.5, 2.0),
                 (2.0, 2.5), (2.5, 3.0), (3.0, np.pi - 1e-2), (np.pi - 1e-4, np.pi - 5e-5),
                 (np.pi - 1e-6, np.pi - 5e-7)]
PROJECTOR_ANGLES = [(5e-11, 1e-10), (5e-9, 1e-8), (5e-7, 1e-6), (5e-5, 1e-4), (5e-3, 1e-2),
                    (0.05, 0.1), (0.1, 0.3), (0.3, 0.6), (0.6, 1.0), (1.0, 1.3), (1.3, 1.5),
                    (1.5, HALF_PI - 1e-3), (HALF_PI - 1e-6, HALF_PI - 5e-7),
                    (HALF_PI - 1e-9, HALF_PI)]
#: tangent-vector norms as fractions of the injectivity radius
NORM_FRACTIONS = [(5e-11, 1e-10), (5e-9, 1e-8), (5e-7, 1e-6), (5e-5, 1e-4), (5e-3, 1e-2),
                  (0.05, 0.1), (0.1, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 0.99),
                  (0.99, 0.999), (0.999, 0.9999), (1 - 1e-6, 1 - 5e-7)]
#: the sphere pairs come in two classes: unit vectors (to rounding), and norms anywhere in
#: 1 ± 1e-8 (all the checks accept at the default atol)
NORM_JITTER = 1e-8
#: principal-angle configurations of a projector pair (the largest angle is the scale)
ANGLE_FAMILIES = ("generic", "equal", "one", "graded")


def _fmt_range(lo, hi, top=None, name=""):
    """``[lo, hi]``, values close below ``top`` written as ``name − gap``."""
    def one(v):
        if top is not None and top / 2 < v and top - v < 0.05:
            return f"{name} − {top - v:.0e}" if top > v else name
        return f"{v:.3g}"
    return f"[{one(lo)}, {one(hi)}]"


# -- inputs (drawn once, in the parent) ------------------------------------------------------
def sphere_tasks(draws, rng, dims):
    for dim in dims:
        for jitter in (0.0, NORM_JITTER):
            for lo, hi in SPHERE_ANGLES:
                angles = rng.uniform(lo, hi, draws)
                x, y = H.sphere_pairs(rng, dim, angles, norm_jitter=jitter)
                yield {"kind": "sphere", "space": f"sphere:{dim}", "scale": (lo, hi),
                       "jitter": jitter, "x": x, "y": y}


def projector_angles(rng, space, lo, hi, draws):
    """Principal angles, ``(draws, k)``: the largest uniform in ``[lo, hi]``, the others by a
    family of :data:`ANGLE_FAMILIES` drawn per row (at most ``min(k, n − k)`` non-zero)."""
    k, m = space.k, min(space.k, space.n - space.k)
    top = rng.uniform(lo, hi, draws)
    family = rng.integers(len(ANGLE_FAMILIES), size=draws)
    angles = np.zeros((draws, k))
    angles[:, 0] = top
    if m > 1:
        rest = {0: top[:, None] * rng.uniform(0.05, 1.0, (draws, m - 1)),
                1: np.repeat(top[:, None], m - 1, axis=1),
                2: np.zeros((draws, m - 1)),
                3: top[:, None] * 10.0 ** rng.uniform(-8, 0, (draws, m - 1))}
        for f, values in rest.items():
            angles[family == f, 1:m] = values[family == f]
    return angles, family


def projector_tasks(draws, rng):
    for space in H.PROJECTOR_SPACES:
        for lo, hi in PROJECTOR_ANGLES:
            angles, family = projector_angles(rng, space, lo, hi, draws)
            p, q = H.projector_pairs(rng, space.n, angles)
            yield {"kind": "projector", "space": space_spec(space), "scale": (lo, hi),
                   "family": family, "x": p, "y": q}


def exp_log_tasks(draws, rng):
    for space in H.SPACES:
        r = space.injectivity_radius
        for lo, hi in NORM_FRACTIONS:
            x = space.random_point(draws, rng=rng)
            norms = r * rng.uniform(lo, hi, draws)
            v, family = H.random_tangents(space, x, rng, norms)
            yield {"kind": "exp_log", "space": space_spec(space), "scale": (lo, hi),
                   "family": family, "x": x, "v": v, "norms": norms}


# -- the library's answers, in a worker per kernel -------------------------------------------
def compute(task):
    space = parse_space(task["space"])
    if task["kind"] == "sphere":
        return {"dist": space.dist(task["x"], task["y"])}
    if task["kind"] == "projector":
        return {"dist": space.dist(task["x"], task["y"]),
                "angles": space.principal_angles(task["x"], task["y"])}
    y = space.exp(task["v"], task["x"])
    return {"y": y, "back": space.log(y, task["x"]), "dist": space.dist(task["x"], y)}


def worker(conn):
    from threadpoolctl import threadpool_info

    info = [f"{i.get('internal_api')} {i.get('architecture')}" for i in threadpool_info()]
    conn.send(", ".join(info) or "no BLAS found by threadpoolctl")
    while (task := conn.recv()) is not None:
        conn.send(compute(task))


def start_workers(kernels):
    ctx = multiprocessing.get_context("spawn")
    saved = os.environ.get("OPENBLAS_CORETYPE")
    workers = {}
    try:
        for kernel in kernels:
            if kernel == "native":
                os.environ.pop("OPENBLAS_CORETYPE", None)
            else:
                os.environ["OPENBLAS_CORETYPE"] = kernel
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=worker, args=(child,), daemon=True)
            proc.start()
            workers[kernel] = (proc, parent, parent.recv())
    finally:
        if saved is None:
            os.environ.pop("OPENBLAS_CORETYPE", None)
        else:
            os.environ["OPENBLAS_CORETYPE"] = saved
    return workers


# -- errors against the references, as fractions of the bounds -------------------------------
# Each returns {metric: (error in the table's unit, error / bound, raw absolute error,
# the bound's parameters)}; differences with the references are taken in longdouble.
def sphere_errors(task, out):
    ref = R.sphere_angle(task["x"], task["y"])
    gap = np.abs(np.linalg.norm(task["x"], axis=1) - np.linalg.norm(task["y"], axis=1))
    dim = task["x"].shape[1] - 1
    err = np.abs(out["dist"].astype(R.LD) - ref).astype(float)
    ref = ref.astype(float)
    return {"dist": (err / ref / EPS, err / H.sphere_dist_bound(dim, ref, gap), err,
                     {"angle": ref, "gap": gap})}


def projector_errors(task, out, space, ref, defect):
    dref = np.sqrt((ref ** 2).sum(axis=-1))
    derr = np.abs(out["dist"].astype(R.LD) - dref).astype(float)
    aerr = np.abs(out["angles"].astype(R.LD) - ref).max(axis=-1).astype(float)
    dref, top = dref.astype(float), ref.max(axis=-1).astype(float)
    return {"dist": (derr / dref / EPS, derr / H.projector_dist_bound(space, dref, defect),
                     derr, {"dist": dref, "defect": defect}),
            "angles": (aerr / EPS, aerr / H.principal_angle_bound(space, top), aerr,
                       {"top": top})}


def exp_log_errors(task, out, space):
    diff = out["back"] - task["v"]
    if isinstance(space, Sphere):
        err = np.sqrt(np.einsum("bi,bi->b", diff, diff))
    else:
        err = np.sqrt(0.5 * np.einsum("bij,bij->b", diff, diff))
    norms = task["norms"]
    lerr = np.abs(out["dist"] - norms)
    dev = space.deviation(out["y"])
    return {"round trip": (err / EPS, err / H.round_trip_bound(space, norms), err,
                           {"norm": norms}),
            "length": (lerr / EPS, lerr / H.geodesic_length_bound(space, norms), lerr,
                       {"norm": norms}),
            "deviation": (dev / EPS, dev / H.EXP_DEVIATION_BOUND, dev, {})}


# -- tables ---------------------------------------------------------------------------------
def print_table(title, unit, rows, kernels):
    print(f"\n#### {title}\n")
    print("| space | scale | draws | " + " | ".join(f"{k}: worst {unit}" for k in kernels)
          + " | worst / bound | margin |")
    print("|---|---|---|" + "---|" * len(kernels) + "---|---|")
    for row in rows:
        used = max(row["used"].values())
        print(f"| {row['space']} | {row['scale']} | {row['draws']} | "
              + " | ".join(f"{row['worst'][k]:.3g}" for k in kernels)
              + f" | {used:.3f} | {1 / used if used > 0 else float('inf'):.1f}× |")


def summarize(rows, kernels):
    by_space = {}
    for row in rows:
        s = by_space.setdefault(row["space"], {"worst": 0.0, "used": 0.0, "draws": 0})
        s["worst"] = max(s["worst"], *row["worst"].values())
        s["used"] = max(s["used"], *row["used"].values())
        s["draws"] += row["draws"]
    return by_space


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=10_000, help="per space and scale")
    parser.add_argument("--kernels", default="native,Haswell,Sandybridge")
    parser.add_argument("--sphere-dims", type=int, nargs="+", default=H.SPHERE_DIMS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dump", help="save every draw's worst error and bound parameters "
                        "(.npz), for calibrating bounds")
    args = parser.parse_args(argv)
    kernels = args.kernels.split(",")
    start = time.perf_counter()
    workers = start_workers(kernels)
    print(f"{args.draws} draws per space and scale, seed {args.seed}; errors in units of "
          f"eps = 2^-52; kernels (threadpoolctl):")
    for kernel, (_, _, info) in workers.items():
        print(f"* {kernel}: {info}")
    rng = np.random.default_rng(args.seed)

    tables = {}  # (title, unit) -> rows
    dumps = {}

    def run(task, errors):
        outs = {}
        for kernel, (_, conn, _) in workers.items():
            conn.send(task)
            outs[kernel] = conn.recv()
        per_kernel = {k: errors(o) for k, o in outs.items()}
        for metric in next(iter(per_kernel.values())):
            key = METRICS[(task["kind"], metric)]
            scale = task["scale"]
            if task["kind"] == "exp_log":
                radius = "π" if task["space"].startswith("sphere") else "π/2"
                scale = f"{_fmt_range(*scale, 1.0, '1')} × {radius}"
            elif task["kind"] == "sphere":
                scale = _fmt_range(*scale, np.pi, "π")
            else:
                scale = _fmt_range(*scale, HALF_PI, "π/2")
            name = parse_space(task["space"]).name
            if task["kind"] == "sphere":
                name += ", norms 1 ± 1e-8" if task["jitter"] else ", unit"
            tables.setdefault(key, []).append({
                "space": name, "scale": scale, "draws": len(task["x"]),
                "worst": {k: float(v[metric][0].max()) for k, v in per_kernel.items()},
                "used": {k: float(v[metric][1].max()) for k, v in per_kernel.items()}})
            if args.dump:
                raw = np.max([v[metric][2] for v in per_kernel.values()], axis=0)
                params = next(iter(per_kernel.values()))[metric][3]
                dumps.setdefault(f"{metric}|{name}", []).append(
                    np.column_stack([raw] + list(params.values())))

    for task in sphere_tasks(args.draws, rng, args.sphere_dims):
        run(task, lambda out, t=task: sphere_errors(t, out))
    for task in projector_tasks(args.draws, rng):
        space = parse_space(task["space"])
        ref = R.principal_angles(task["x"], task["y"], space.k)
        defect = R.defect_norm(task["x"]) + R.defect_norm(task["y"])
        run(task, lambda out, t=task, s=space, r=ref, d=defect: projector_errors(t, out, s, r, d))
    for task in exp_log_tasks(args.draws, rng):
        space = parse_space(task["space"])
        run(task, lambda out, t=task, s=space: exp_log_errors(t, out, s))
    for _, conn, _ in workers.values():
        conn.send(None)
    if args.dump:
        np.savez_compressed(args.dump, **{k: np.concatenate(v) for k, v in dumps.items()})

    worst_used = 0.0
    print("\n### Summary: worst over all scales and kernels\n")
    print("| quantity | space | draws | worst | bound | worst / bound | margin |")
    print("|---|---|---|---|---|---|---|")
    for key, rows in tables.items():
        title, unit, bound_text = key
        for space, s in summarize(rows, kernels).items():
            worst_used = max(worst_used, s["used"])
            margin = 1 / s["used"] if s["used"] > 0 else float("inf")
            print(f"| {title} | {space} | {s['draws']} | {s['worst']:.3g} {unit} "
                  f"| {bound_text(space)} | {s['used']:.3f} | {margin:.1f}× |")
    print("\n### Per scale")
    for (title, unit, _), rows in tables.items():
        print_table(title, unit, rows, kernels)
    print(f"\nTotal time {time.perf_counter() - start:.0f} s.")
    return 0 if worst_used <= 1.0 else 1


#: (task kind, metric) -> (table title, unit of the worst column, text of the bound per space)
METRICS = {
    ("sphere", "dist"): ("sphere dist, relative error", "eps", H.describe_bound("sphere dist")),
    ("projector", "dist"): ("projector dist, relative error", "eps",
                            H.describe_bound("projector dist")),
    ("projector", "angles"): ("principal angles, absolute error", "eps",
                              H.describe_bound("principal angles")),
    ("exp_log", "round trip"): ("exp/log round trip |log(exp v) − v|_g, absolute", "eps",
                                H.describe_bound("round trip")),
    ("exp_log", "length"): ("geodesic length |d(x, exp v) − |v||, absolute", "eps",
                            H.describe_bound("length")),
    ("exp_log", "deviation"): ("exp output off the manifold (the membership measure)", "eps",
                               H.describe_bound("deviation")),
}

if __name__ == "__main__":
    sys.exit(main())
