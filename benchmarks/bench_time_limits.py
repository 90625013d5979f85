"""Time limits that hold: the commands and solvers of the time-limit issue, re-run.

Run: ``python benchmarks/bench_time_limits.py [--quick]``. Prints a markdown table, recorded in
docs/benchmarks.md: each call with its limit, the promised wall time (limit + 10 % + 1 s),
the measured wall time and the ratio of the two, the exit code or bounds. Commands run as
``python -m theorem.cli`` in a subprocess (their wall time includes starting Python and the
imports, about 0.7 s here); library calls run in process.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from theorem import (  # noqa: E402
    AttentionDigraph,
    biclique_cover_number,
    chromatic_index,
    hub_chromatic_index,
    hub_pareto_front,
    transitive_tournament,
)


def promised(limit: float) -> float:
    return 1.1 * limit + 1.0


def command(argv: list[str]) -> tuple[float, str]:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "theorem.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True)
    return time.monotonic() - start, f"exit {done.returncode}"


def library(call) -> tuple[float, str]:
    start = time.monotonic()
    r = call()
    wall = time.monotonic() - start
    if hasattr(r, "points"):                                      # a Pareto front
        return wall, f"{len(r.points)} points"
    return wall, f"[{r.lower_bound}, {r.upper_bound}]"


def sparse_file(folder: Path, n: int) -> str:
    path = folder / f"sparse{n}.txt"
    path.write_text(f"# n {n}\n0 1\n2 3\n")
    return str(path)


def random_file(folder: Path, n: int, p: float, seed: int) -> str:
    m = np.random.default_rng(seed).random((n, n)) < p
    np.fill_diagonal(m, False)
    path = folder / f"random{n}_{p}.json"
    AttentionDigraph.from_adjacency(m).write(path)
    return str(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the inputs with 10^6 edges")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    rows: list[tuple[str, float, tuple[float, str]]] = []
    inv = ["invariants", "--time-limit", "10"]
    cases = [
        ("`invariants --family cycle --n 300`", 10, inv + ["--family", "cycle", "--n", "300"]),
        ("`invariants --family transitive-tournament --n 300`", 10,
         inv + ["--family", "transitive-tournament", "--n", "300"]),
        ("`invariants --family transitive-tournament --n 1000`", 10,
         inv + ["--family", "transitive-tournament", "--n", "1000"]),
        ("`invariants --family transitive-tournament --n 3000` (4.5·10^6 edges)", 10,
         inv + ["--family", "transitive-tournament", "--n", "3000"]),
        ("`invariants --family transitive-tournament --n 3000 --json`", 10,
         inv + ["--family", "transitive-tournament", "--n", "3000", "--json"]),
        ("`invariants --family transitive-tournament --n 1500 --time-limit 2 --json` "
         "(1.1·10^6 edges)", 2,
         ["invariants", "--time-limit", "2", "--family", "transitive-tournament", "--n", "1500",
          "--json"]),
        ("`invariants --digraph F`, 1000 vertices, 2 edges", 10,
         inv + ["--digraph", sparse_file(folder, 1000)]),
        ("`invariants --digraph F`, 2000 vertices, 2 edges", 10,
         inv + ["--digraph", sparse_file(folder, 2000)]),
        ("`invariants --digraph F`, 30,000 vertices, 2 edges", 10,
         inv + ["--digraph", sparse_file(folder, 30_000)]),
        ("`invariants --family complete --n 200`", 10, inv + ["--family", "complete", "--n", "200"]),
        ("`verify --family random-hub --n 40 --hubs 20 --p 0.5 --time-limit 10`", 10,
         ["verify", "--family", "random-hub", "--n", "40", "--hubs", "20", "--p", "0.5",
          "--time-limit", "10"]),
        ("`verify --time-limit 5`", 5, ["verify", "--time-limit", "5"]),
        ("`verify --time-limit 0.01`", 0.01, ["verify", "--time-limit", "0.01"]),
    ]
    for label, limit, argv in cases:
        if args.quick and "3000" in argv:
            continue
        rows.append((label, limit, command(argv)))
        print(f"done: {label}", file=sys.stderr, flush=True)
    tt = transitive_tournament(300)
    rows.append(("`biclique_cover_number(transitive_tournament(300), time_limit=3)`", 3,
                 library(lambda: biclique_cover_number(tt, time_limit=3))))
    rows.append(("`hub_chromatic_index(transitive_tournament(300), time_limit=3)`", 3,
                 library(lambda: hub_chromatic_index(tt, time_limit=3))))

    for n in ((1415,) if args.quick else (1415, 3000)):    # the linear-time floor
        big = transitive_tournament(n)
        for name, solve in (("biclique_cover_number", biclique_cover_number),
                            ("hub_chromatic_index", hub_chromatic_index),
                            ("chromatic_index", chromatic_index),
                            ("hub_pareto_front", hub_pareto_front)):
            rows.append((f"`{name}(transitive_tournament({n}), time_limit=0.001)` "
                         f"({big.n_edges / 1e6:.1f}·10^6 edges)", 0.001,
                         library(lambda: solve(big, time_limit=0.001))))

    print("| call | limit (s) | promised (s) | wall (s) | wall / promised | result |")
    print("|---|---|---|---|---|---|")
    for label, limit, (wall, result) in rows:
        print(f"| {label} | {limit:g} | {promised(limit):.2f} | {wall:.2f} | "
              f"{wall / promised(limit):.2f} | {result} |")

    print("\nUpper bounds against the trivial ones (`invariants --digraph F --time-limit 10`, "
          "random digraphs of 60 vertices):\n")
    print("| p | edges | b bounds | min(N, sources, targets) | χ_hub bounds | χ' |")
    print("|---|---|---|---|---|---|")
    import json

    for p in (0.3, 0.5):
        path = random_file(folder, 60, p, seed=0)
        done = subprocess.run([sys.executable, "-m", "theorem.cli", "invariants", "--digraph",
                               path, "--time-limit", "10", "--json"], cwd=ROOT,
                              capture_output=True, text=True)
        report = json.loads(done.stdout)
        g = AttentionDigraph.read(path)
        trivial = min(g.n, len(np.unique(g.edges[:, 0])), len(np.unique(g.edges[:, 1])))
        b, chi = report["biclique_cover_number"], report["hub_chromatic_index"]
        print(f"| {p} | {g.n_edges} | [{b['lower_bound']}, {b['upper_bound']}] | {trivial} | "
              f"[{chi['lower_bound']}, {chi['upper_bound']}] | {report['chromatic_index']['value']} |")


if __name__ == "__main__":
    main()
