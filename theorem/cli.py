"""The ``transformer-dynamics`` command line.

Subcommands:

``spaces``
    The homogeneous spaces with their conventions, and an admissible embedding of
    ``--n-points`` points on each, checked independently (:func:`manifolds.check_admissible`).
``invariants``
    ``b``, ``χ_hub``, ``χ'``, the Pareto front and the real rank of a digraph
    (``--digraph FILE`` or ``--family NAME --n N [--m M]``), with witnesses and certificates.
``verify``
    The Main Theorem, constructed and verified: density covers of the paper's examples and
    a random hub digraph (or ``--digraph``/``--family``) on S^2, RP^2 and Gr(2,4) (or
    ``--space``), from a fewest-hubs and a fewest-colors extension, checked at the paper's
    strength, exactly, and for rank.
``figures``
    PNGs of the paper's two examples beside their colored hub extensions, and of the weights
    of a verified density cover over S^2 (plot extra).
``simulate``
    Self-attention dynamics (SA or USA) of ``--tokens`` tokens on ``sphere:D`` for
    ``--systems`` random starts: clusters over time, the energy, checks, a figure.

With ``--json`` standard output is exactly one JSON object (library version and seed
included); progress and tables go to standard error or are left out. Exit codes: 0 when
every check passed (every invariant proved optimal), 1 when a check failed, 2 on bad input,
3 when the time limit left an invariant unproved (both bounds are reported).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from importlib.metadata import PackageNotFoundError, version

import numpy as np

from theorem.budget import anytime
from theorem.digraph import AttentionDigraph
from theorem.edge_coloring import chromatic_index
from theorem.errors import TheoremError
from theorem.families import (
    block_local,
    complete_bipartite,
    complete_digraph,
    directed_cycle,
    sliding_window,
    strided,
    transitive_tournament,
)
from theorem.hubs import random_hub_extension
from theorem.density_cover import density_cover_for
from theorem.invariants import biclique_cover_number, hub_chromatic_index, real_rank
from theorem.pareto import hub_pareto_front
from theorem.verification import verify_density_cover

from laws import LawError, SelfAttention, collapse_time, count_clusters, integrate, usa_energy
from laws.attention import MAX_EXPONENT
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


def _strict(value):
    """``value`` with every NaN or infinite float replaced by ``None`` (strict JSON has neither)."""
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if np.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    return value


def _write_json(obj, out) -> None:
    """One strict JSON object (no NaN/Infinity tokens) on ``out``, newline-terminated."""
    try:  # the C encoder, in one piece (json.dump encodes in Python, chunk by chunk)
        text = json.dumps(obj, allow_nan=False)
    except (TypeError, ValueError):  # numpy scalars, NaN or infinities: make it strict first
        text = json.dumps(_strict(obj), allow_nan=False)
    out.write(text)


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
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
        _write_json({"command": "spaces", "version": library_version(), "seed": args.seed,
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


FAMILIES = {
    "transitive-tournament": lambda n, m: transitive_tournament(n),
    "complete-bipartite": lambda n, m: complete_bipartite(n, _need(m, "--m B")),
    "complete": lambda n, m: complete_digraph(n),
    "cycle": lambda n, m: directed_cycle(n),
    "sliding-window": lambda n, m: sliding_window(n, _need(m, "--m W")),
    "strided": lambda n, m: strided(n, _need(m, "--m S")),
    "block-local": lambda n, m: block_local(n, _need(m, "--m BLOCK")),
}


def _need(value, what: str):
    if value is None:
        raise TheoremError(f"this family needs {what}")
    return value


def _digraph(args):
    """The digraph named by ``--digraph FILE`` or ``--family NAME --n N [--m M]``."""
    if args.digraph:
        return AttentionDigraph.read(args.digraph, drop_loops=args.drop_loops), None
    if args.n is None:
        raise TheoremError(f"--family {args.family} needs --n N")
    if args.family == "random-hub":
        if args.hubs is None or args.p is None:
            raise TheoremError("--family random-hub needs --hubs H and --p P (and --seed)")
        return random_hub_extension(args.n, args.hubs, args.p, rng=args.seed)
    return FAMILIES[args.family](args.n, args.m), None


def _invariants(args, out, err) -> int:
    start = time.monotonic()
    if not args.time_limit > 0:
        raise TheoremError(f"--time-limit must be positive seconds, got {args.time_limit}")
    digraph, planted = _digraph(args)
    def share(fraction):
        """A fair part of the budget left: b gets a third, χ_hub half of the rest, the
        coloring of χ' a third of what is left, then the Pareto front nine tenths and the
        real rank the remainder."""
        return max(fraction * (args.time_limit - (time.monotonic() - start)), 1e-3)

    def progress(what):
        if not args.json or args.progress:
            print(f"computing {what} ...", file=err, flush=True)

    results = {}
    progress("biclique_cover_number")
    results["biclique_cover_number"] = biclique_cover_number(digraph, time_limit=share(1 / 3))
    progress("hub_chromatic_index")
    results["hub_chromatic_index"] = hub_chromatic_index(
        digraph, time_limit=share(1 / 2), biclique_cover=results["biclique_cover_number"])
    progress("chromatic_index")
    results["chromatic_index"] = chromatic_index(digraph, time_limit=share(1 / 3))
    progress("the Pareto front")
    front = hub_pareto_front(digraph, time_limit=share(0.9),
                             biclique_cover=results["biclique_cover_number"],
                             hub_chromatic=results["hub_chromatic_index"])
    progress("the real rank")
    rank = real_rank(digraph, time_limit=share(1.0))
    optimal = all(r.optimal for r in results.values()) and front.optimal

    def witness(r):
        return r.witness.tolist() if r.name == "chromatic_index" else r.witness.to_json()

    if args.json:
        report = {"command": "invariants", "version": library_version(), "seed": args.seed,
                  "digraph": digraph.to_json(), "real_rank": rank, "optimal": optimal,
                  "pareto_front": front.pairs(), "pareto_front_complete": front.complete}
        for name, r in results.items():
            report[name] = {"value": r.value, "lower_bound": r.lower_bound,
                            "upper_bound": r.upper_bound, "optimal": r.optimal,
                            "witness": witness(r), "certificate": r.certificate.kind,
                            "seconds": round(r.elapsed, 3)}
        if planted is not None:
            report["planted_hubs"] = planted.n_hubs
        _write_json(report, out)
        out.write("\n")
    else:
        print(f"transformer-dynamics {library_version()}: invariants of a digraph with "
              f"{digraph.n} vertices and {digraph.n_edges} edges\n", file=out)
        print(_table(
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


#: The table lists this many hubs of a witness, and this many vertices of a hub side.
SHOWN_HUBS = 40
SHOWN_VERTICES = 20


def _short(vertices: list[int]) -> str:
    """``vertices`` as a list, cut after :data:`SHOWN_VERTICES` with the count left."""
    if len(vertices) <= SHOWN_VERTICES:
        return str(vertices)
    return str(vertices[:SHOWN_VERTICES])[:-1] + f", ... {len(vertices) - SHOWN_VERTICES} more]"


SUITE_SPACES = ("sphere:2", "projective:2", "grassmannian:4,2")


def _suite(args):
    """The digraphs to verify: the given one, or the paper's examples and a random hub digraph."""
    if args.digraph or args.family:
        name = args.digraph or f"{args.family} {args.n}" + (f",{args.m}" if args.m else "")
        return [(name, _digraph(args)[0])]
    random_hub, _ = random_hub_extension(12, 4, 0.4, rng=args.seed)
    return [("transitive-tournament 3", transitive_tournament(3)),
            ("complete-bipartite 3,4", complete_bipartite(3, 4)),
            (f"random-hub 12,4,0.4 (seed {args.seed})", random_hub)]


def _verify(args, out, err) -> int:
    start, start_mono = time.perf_counter(), time.monotonic()
    if not (np.isfinite(args.time_limit) and args.time_limit > 0):
        raise TheoremError(f"--time-limit must be a positive number of seconds, got {args.time_limit}")
    digraphs = _suite(args)
    spaces = [parse_space(s) for s in (args.space or SUITE_SPACES)]
    show = not args.json or args.progress
    rows, records, skipped = [], [], []
    embeddings = {}
    for index, (name, g) in enumerate(digraphs):
        left = args.time_limit - (time.perf_counter() - start)
        if left <= 0:
            skipped += [f"{n} (every space)" for n, _ in digraphs[index:]]
            break
        if show:
            print(f"verify: invariants of {name} ...", file=err, flush=True)
        # the solves get a third of this digraph's share; building and verifying the rest
        front = hub_pareto_front(g, time_limit=left / (3 * (len(digraphs) - index)))
        for space in spaces:
            if time.perf_counter() - start > args.time_limit:
                skipped.append(f"{name} on {space_spec(space)}")
                continue
            key = (g.n, space_spec(space))
            if show:
                print(f"verify: {name} on {space_spec(space)} ...", file=err, flush=True)
            # building and verifying run in a child process killed at the deadline
            done, finished = anytime(_verify_on, start_mono + args.time_limit, name, g, space,
                                     front, embeddings.get(key), args.seed)
            for embedding, record, row in done or []:
                embeddings[key] = embedding
                records.append(record)
                rows.append(row)
            if not finished:
                objectives = {r["objective"] for _, r, _ in done or []}
                skipped += [f"{name} on {space_spec(space)}, fewest {o}"
                            for o in ("hubs", "colors") if o not in objectives]
    passed = all(r["passed"] for r in records) and not skipped
    elapsed = time.perf_counter() - start
    if args.json:
        _write_json({"command": "verify", "version": library_version(), "seed": args.seed,
                   "passed": passed, "seconds": round(elapsed, 2), "time_limit": args.time_limit,
                   "skipped": skipped, "covers": records}, out)
        out.write("\n")
    else:
        print(f"transformer-dynamics {library_version()}: verify the Main Theorem (seed {args.seed})\n",
              file=out)
        print(_table(["digraph", "space", "fewest", "n", "h", "proved", "edges verified",
                      "worst margin", "ranks", "exact", "pass"], rows), file=out)
        print("\nn hubs, h colors; 'proved' says whether the extension is proved fewest; worst "
              "margin: least decrease of β_j around an edge image (radius r/100); ranks: n_j per "
              "color, each matched by the numerical rank", file=out)
        for r in records:
            for f in r["failures"][:3]:
                print(f"FAILED {r['digraph']} on {r['space']} ({r['objective']}): {f['name']}: "
                      f"{f['value']:.4g} {f['relation']} {f['bound']:.4g} {f['where']}", file=out)
        for item in skipped:
            print(f"NOT VERIFIED (time limit {args.time_limit:g} s): {item}", file=out)
        verdict = ("all checks passed" if passed else
                   "TIME LIMIT: not every cover verified" if all(r["passed"] for r in records)
                   else "SOME CHECKS FAILED")
        print(f"\n{verdict} ({elapsed:.1f} s)", file=out)
    if not all(r["passed"] for r in records):
        return 1
    return 3 if skipped else 0


def _verify_on(report, name: str, g, space, front, embedding, seed) -> None:
    """Density covers of ``g`` on ``space`` from the fewest-hubs and the fewest-colors points
    of ``front``, each verified; reports ``[(embedding, record, row), ...]`` after each."""
    if embedding is None:
        embedding = admissible_embedding(space, g.n, rng=seed)
    theta = radius = None
    done = []
    for objective in ("hubs", "colors"):
        cover = density_cover_for(g, space, objective, rng=seed, front=front,
                                  embedding=embedding, theta=theta, radius=radius)
        theta, radius = cover.theta, cover.radius
        report_ = verify_density_cover(cover, rng=seed)
        ranks = "/".join(str(r) for r in cover.ranks)
        record = {
            "digraph": name, "space": space_spec(space), "objective": objective,
            "hubs": cover.n_hubs, "colors": cover.n_colors, "proved": cover.info["proved"],
            "edges": g.n_edges, "edges_verified": report_.edges_verified,
            "worst_margin": report_.worst_margin, "ranks": list(cover.ranks),
            "radius": cover.radius, "r0": cover.r0, "disjoint_balls": cover.disjoint_balls,
            "paper_passed": report_.paper_passed, "exact_passed": report_.exact_passed,
            "rank_passed": report_.rank_passed, "passed": report_.passed,
            "failures": [c.to_dict() for c in report_.failures()[:20]],
        }
        row = [name, space_spec(space), objective, str(cover.n_hubs), str(cover.n_colors),
               "yes" if cover.info["proved"] else "not proved",
               f"{report_.edges_verified}/{g.n_edges}", f"{report_.worst_margin:.2e}", ranks,
               "yes" if report_.exact_passed else "NO", "yes" if report_.passed else "NO"]
        done.append((embedding, record, row))
        report(list(done))


def _figures(args, out, err) -> int:
    from pathlib import Path

    from theorem.drawing import draw_density_cover, draw_hub_extension

    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, g in (("tournament3", transitive_tournament(3)), ("bipartite3x4", complete_bipartite(3, 4))):
        path = folder / f"{name}_hubs.png"
        draw_hub_extension(g, hub_chromatic_index(g).witness, path=path)
        written.append(path)
    g, _ = random_hub_extension(12, 4, 0.4, rng=args.seed)
    cover = density_cover_for(g, Sphere(2), "colors", rng=args.seed)
    report = verify_density_cover(cover, rng=args.seed)
    path = folder / "density_cover_s2.png"
    draw_density_cover(cover, path=path)
    written.append(path)
    for path in written:
        print(f"wrote {path}", file=out)
    print(f"density cover of random-hub 12,4,0.4 (seed {args.seed}) on sphere:2: "
          f"{'verified' if report.passed else 'VERIFICATION FAILED'}", file=out)
    return 0 if report.passed else 1


def _progress_bar(err, label: str):
    """A callback ``(done, total)`` drawing a bar on ``err`` (ends the line when done)."""
    shown = [-1]

    def report(done, total):
        width = 30
        filled = int(width * done / total)
        percent = int(100 * done / total)
        if percent == shown[0] and done != total:
            return
        shown[0] = percent
        err.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {percent:3d}%")
        if done == total:
            err.write("\n")
        err.flush()
    return report


def _simulate(args, out, err) -> int:
    space = parse_space(args.space)
    if not isinstance(space, Sphere):
        raise LawError(f"simulate runs self-attention on spheres; got {args.space} (use sphere:D)")
    for name in ("tokens", "systems", "record_every"):
        if getattr(args, name) < 1:
            raise LawError(f"--{name.replace('_', '-')} must be at least 1")
    sa = SelfAttention(args.beta, normalization=args.normalization, clock=args.clock)
    x0 = space.random_point(args.systems * args.tokens, rng=args.seed).reshape(
        args.systems, args.tokens, space.dim + 1)
    show = not args.json or args.progress
    traj = integrate(sa, x0, t_final=args.t_final, dt=args.dt, method=args.method,
                     record_every=args.record_every,
                     progress=_progress_bar(err, "simulate") if show else None)
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
        _write_json({
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
    print(_table(headers, rows), file=out)
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


def _digraph_arguments(parser, *, required: bool) -> None:
    """The digraph options every command shares: ``--digraph FILE`` or ``--family NAME --n N
    [--m M]`` (``random-hub`` with ``--hubs``, ``--p``), and ``--drop-loops``."""
    source = parser.add_mutually_exclusive_group(required=required)
    source.add_argument("--digraph", metavar="FILE",
                        help="edge list ('u v' lines, '#' comments) or .json")
    source.add_argument("--family", choices=sorted(FAMILIES) + ["random-hub"])
    parser.add_argument("--n", type=int, help="vertices (complete-bipartite: |A|)")
    parser.add_argument("--m", type=int, help="second parameter: B, W, S or BLOCK")
    parser.add_argument("--hubs", type=int, help="random-hub: number of hubs")
    parser.add_argument("--p", type=float, help="random-hub: join probability")
    parser.add_argument("--drop-loops", action="store_true", help="drop loops read from --digraph")


def _output_arguments(parser) -> None:
    """``--json`` (exactly one object on standard output) and ``--progress``."""
    parser.add_argument("--json", action="store_true",
                        help="print exactly one JSON object on standard output")
    parser.add_argument("--progress", action="store_true",
                        help="with --json, still report progress on standard error")


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
    _output_arguments(spaces)
    spaces.set_defaults(run=_spaces)

    inv = sub.add_parser(
        "invariants", help="b, hub-chromatic index, chromatic index, Pareto front of a digraph",
        description="Exact invariants of an attention digraph with witnesses and certificates.")
    _digraph_arguments(inv, required=True)
    inv.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    inv.add_argument("--time-limit", type=float, metavar="S", default=120.0,
                     help="wall-clock budget of the whole command, seconds (default 120: "
                          "the command never hangs; unproved bounds exit with code 3)")
    _output_arguments(inv)
    inv.set_defaults(run=_invariants)

    ver = sub.add_parser(
        "verify", help="the Main Theorem: density covers built and verified (the main job)",
        description="Build density covers from fewest-hubs and fewest-colors extensions and "
                    "verify them at the paper's strength, exactly, and for rank. Without "
                    "arguments: the paper's two examples and a random hub digraph on S^2, RP^2 "
                    "and Gr(2,4).")
    _digraph_arguments(ver, required=False)
    ver.add_argument("--space", action="append", metavar="SPACE",
                     help="sphere:D, projective:D or grassmannian:N,K (repeatable; default: "
                          + ", ".join(SUITE_SPACES) + ")")
    ver.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ver.add_argument("--time-limit", type=float, metavar="S", default=120.0,
                     help="wall-clock budget of the whole command, seconds (default 120); the "
                          "invariant solves get a third of each digraph's share, and an extension "
                          "not proved fewest is still verified; covers left when it runs out are "
                          "reported and the exit code is 3")
    _output_arguments(ver)
    ver.set_defaults(run=_verify)

    fig = sub.add_parser(
        "figures", help="PNGs of the paper's examples and of a density cover (plot extra)",
        description="Write the paper's two examples beside their colored hub extensions and "
                    "heat maps of a verified density cover's weights over S^2.")
    fig.add_argument("--out", required=True, metavar="DIR", help="folder for the PNGs")
    fig.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    fig.set_defaults(run=_figures)

    sim = sub.add_parser(
        "simulate", help="self-attention dynamics on a sphere: clusters over time",
        description="Integrate SA or USA (Q = K = V = I) from random starts and report the "
                    "clusters over time, the energy E_beta and the checks.")
    sim.add_argument("--space", default="sphere:2", help="sphere:D (default sphere:2)")
    sim.add_argument("--tokens", type=int, default=32, metavar="N", help="tokens (default 32)")
    sim.add_argument("--beta", type=float, default=1.0, help="inverse temperature (default 1)")
    sim.add_argument("--normalization", choices=["softmax", "mean"], default="softmax",
                     help="SA (softmax, default) or USA (mean)")
    sim.add_argument("--clock", choices=["physical", "rescaled"], default="physical",
                     help="USA only: rescaled time s = e^beta t (needed past beta = 700)")
    sim.add_argument("--t-final", type=float, default=20.0, metavar="T", help="horizon (default 20)")
    sim.add_argument("--dt", type=float, default=0.05, help="step (default 0.05)")
    sim.add_argument("--method", choices=["euler", "heun", "rk4"], default="rk4")
    sim.add_argument("--record-every", type=int, default=5, metavar="K",
                     help="record every K steps (default 5)")
    sim.add_argument("--systems", type=int, default=8, metavar="B",
                     help="independent random starts (default 8)")
    sim.add_argument("--threshold", type=float, default=0.1,
                     help="cluster linkage distance, radians (default 0.1)")
    sim.add_argument("--eps", type=float, default=1e-3,
                     help="collapse: every inner product >= 1 - eps (default 1e-3)")
    sim.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    sim.add_argument("--plot", metavar="FILE", help="write the clustering figure (plot extra)")
    _output_arguments(sim)
    sim.set_defaults(run=_simulate)
    return parser


def main(argv: list[str] | None = None, *, out=None, err=None) -> int:
    """Run the command line; returns the exit code (0 all checks passed, 1 a check failed,
    2 bad input, 3 time limit reached with an invariant unproved)."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args, out, err)
    except (ManifoldError, TheoremError, LawError, TypeError, OSError, ImportError) as exc:
        print(f"transformer-dynamics: error: {exc}", file=err)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
