"""``transformer-dynamics simulate``: self-attention dynamics on a sphere, clusters over time."""

from __future__ import annotations

import numpy as np

from laws import (
    MAX_EXPONENT,
    LawError,
    SelfAttention,
    collapse_time,
    count_clusters,
    integrate,
    usa_energy,
)
from manifolds import parse_space, space_spec

from .output import library_version, progress_bar, table, write_json

#: The most attention weights (``systems × tokens²``) one step may hold: 2^27, 1 GiB in
#: float64 per array; a step needs several, and a run beyond it takes minutes per unit time.
MAX_ATTENTION_ENTRIES = 2**27

__all__ = ["run"]


def run(args, out, err) -> int:
    """Run ``transformer-dynamics simulate``: self-attention dynamics on a sphere, clusters
    over time.

    Integrates SA or USA with ``Q = K = V = I`` (docs/conventions.md#dynamics-clock; the
    ``--beta`` here is the inverse temperature) from ``--systems`` random starts of
    ``--tokens`` tokens, and reports the clusters over time, the collapse times, the energy
    ``E_β`` and the checks (points stay on the sphere, values finite, USA's energy
    non-decreasing). Prints a table, or with ``--json`` one JSON object, on ``out``; a
    progress bar goes to ``err``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the ``simulate`` command: ``space``, ``tokens``, ``beta``,
        ``normalization``, ``clock``, ``t_final``, ``dt``, ``method``, ``record_every``,
        ``systems``, ``threshold``, ``eps``, ``seed``, ``plot`` and the output options.
    out : file-like
        Text stream for the results.
    err : file-like
        Text stream for the progress bar.

    Returns
    -------
    int
        0 when every check passed, 1 when one failed.

    Raises
    ------
    LawError
        ``--space`` is not a sphere, or ``--systems × --tokens²`` (the attention weights of
        one step) is above :data:`MAX_ATTENTION_ENTRIES` (``main`` reports it, exit code 2;
        argparse refuses counts below 1 and non-finite numbers).

    Examples
    --------
    >>> import io, json
    >>> from theorem.cli import main
    >>> out = io.StringIO()
    >>> main(["simulate", "--tokens", "3", "--systems", "2", "--t-final", "0.5", "--json"],
    ...      out=out, err=io.StringIO())
    0
    >>> report = json.loads(out.getvalue())
    >>> report["passed"], report["clock"], len(report["times"])
    (True, 'physical', 3)
    >>> err = io.StringIO()
    >>> main(["simulate", "--space", "projective:2"], out=io.StringIO(), err=err)
    2
    >>> print(err.getvalue(), end="")
    transformer-dynamics: error: simulate runs self-attention on spheres; got projective:2 (use sphere:D)
    """
    space = parse_space(args.space)
    if space.model != "sphere":
        raise LawError(f"simulate runs self-attention on spheres; got {args.space} (use sphere:D)")
    if args.plot:      # before the run: a figure it cannot write would waste it
        from laws.drawing import check_figure_path

        check_figure_path(args.plot)
    entries = args.systems * args.tokens ** 2
    if entries > MAX_ATTENTION_ENTRIES:
        raise LawError(
            f"--systems {args.systems} × --tokens {args.tokens}² = {entries:.3g} attention "
            f"weights per step, above {MAX_ATTENTION_ENTRIES:.3g} (each array of them takes "
            f"{8 * entries / 2**30:.3g} GiB and a step needs several); lower --tokens or "
            "--systems")
    sa = SelfAttention(args.beta, normalization=args.normalization, clock=args.clock)
    x0 = space.random_point(args.systems * args.tokens, rng=args.seed).reshape(
        args.systems, args.tokens, space.dim + 1)
    show = not args.json or args.progress
    dt = min(0.05, args.t_final) if args.dt is None else args.dt
    traj = integrate(sa, x0, t_final=args.t_final, dt=dt, method=args.method,
                     record_every=args.record_every,
                     progress=progress_bar(err, "simulate") if show else None)
    clusters = count_clusters(traj.points, threshold=args.threshold)          # (T, B)
    collapse = collapse_time(traj.times, traj.points, eps=args.eps)
    scaled = args.beta * 1.0 > MAX_EXPONENT
    energy = usa_energy(traj.points, args.beta, scaled=scaled) if args.beta > 0 else None
    checks = [{"name": "points on the sphere", "value": traj.diagnostics["max_deviation"],
               "bound": 1e-12, "passed": traj.diagnostics["max_deviation"] <= 1e-12},
              {"name": "finite", "value": float(np.isfinite(traj.points).all()), "bound": 1.0,
               "passed": bool(np.isfinite(traj.points).all())}]
    if args.normalization == "mean" and energy is not None:
        drop = float(np.max(energy[:-1] - energy[1:], initial=0.0) / np.max(energy))
        checks.append({"name": "USA energy non-decreasing", "value": drop, "bound": 1e-12,
                       "passed": drop <= 1e-12})
    passed = all(c["passed"] for c in checks)
    energy_name = "e^-beta E_beta" if scaled else "E_beta"
    if args.plot:
        from laws.drawing import draw_clustering

        draw_clustering(traj, path=args.plot)
    if args.json:
        write_json({
            "command": "simulate", "version": library_version(), "seed": args.seed,
            "passed": passed, "space": space_spec(space), "tokens": args.tokens,
            "systems": args.systems, "beta": args.beta, "normalization": args.normalization,
            "clock": traj.diagnostics["clock"], "method": args.method, "dt": traj.diagnostics["dt"],
            "t_final": args.t_final, "threshold": args.threshold, "eps": args.eps,
            "times": traj.times.tolist(), "clusters": clusters.tolist(),
            "collapse_time": [None if not np.isfinite(c) else float(c) for c in collapse],
            "energy_name": energy_name,
            "final_energy": None if energy is None else energy[-1].tolist(),
            "checks": checks, "plot": args.plot,
        }, out)
        out.write("\n")
        return 0 if passed else 1
    model = "SA (softmax)" if args.normalization == "softmax" else "USA (mean)"
    print(f"transformer-dynamics {library_version()}: simulate {model}, beta = {args.beta:g}, "
          f"{args.tokens} tokens on {space_spec(space)}, {args.systems} systems (seed {args.seed}), "
          f"{args.method}, dt = {traj.diagnostics['dt']:g}, {traj.diagnostics['clock']} clock\n",
          file=out)
    rows = []
    picks = np.unique(np.linspace(0, len(traj.times) - 1, min(11, len(traj.times))).astype(int))
    for t in picks:
        c = clusters[t]
        row = [f"{traj.times[t]:g}", f"{c.min()}", f"{np.median(c):g}", f"{c.max()}",
               f"{np.mean(c == 1):.0%}"]
        if energy is not None:
            row.append(f"{energy[t].mean():.6g}")
        rows.append(row)
    headers = ["time", "clusters min", "median", "max", "collapsed"]
    if energy is not None:
        headers.append(f"mean {energy_name}")
    print(table(headers, rows), file=out)
    done = np.isfinite(collapse)
    print(f"\nclusters: single linkage at {args.threshold:g} rad; collapsed: every inner product "
          f">= 1 - {args.eps:g}", file=out)
    print(f"collapse time: {done.sum()}/{len(done)} systems"
          + (f", median {np.median(collapse[done]):g}" if done.any() else ""), file=out)
    for c in checks:
        print(f"check {c['name']}: {c['value']:.3g} (bound {c['bound']:g}) "
              f"{'passed' if c['passed'] else 'FAILED'}", file=out)
    if args.plot:
        print(f"figure: {args.plot}", file=out)
    print(f"\n{'all checks passed' if passed else 'SOME CHECKS FAILED'}", file=out)
    return 0 if passed else 1
