"""Sweeps: throughput of the local pool and of dask.distributed, and a first result table.

Run: ``python benchmarks/bench_sweep.py [--seeds K] [--table]`` (the ``distributed`` extra for
the dask rows). A grid of 8 cells × 25 seeds = 200 random hub tasks (``N`` 10 and 16, ``n``
3 and 6, ``p`` 0.2 and 0.4; ``b``, ``χ_hub``, ``χ'`` with 10 s each) is swept

* in this process (1 worker), on a local pool of 2 spawned processes, and on a dask
  ``LocalCluster`` of 2 worker processes (its start-up timed apart),

and the tasks per second are printed side by side, with the ratios. ``--table`` then sweeps
``N`` = 10, 20, 40, 80 at ``n = 8``, ``p = 0.3`` (``--seeds``, default 10) and prints how
``b`` and ``χ_hub`` grow against the planted ``n``. Recorded in docs/benchmarks.md and
docs/sweeps.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from theorem.sweeps import summarize_sweep, sweep  # noqa: E402

GRID = {"N": [10, 16], "hubs": [3, 6], "p": [0.2, 0.4]}


def _timed(**kwargs):
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        result = sweep(GRID, 25, time_limit=10, out=Path(folder) / "r.csv", **kwargs)
        seconds = time.perf_counter() - start
    assert result.complete and len(result.rows) == 200
    return seconds, result


def throughput() -> None:
    rows = [("local, 1 worker (in process)", *_timed(workers=1)),
            ("local pool, 2 processes", *_timed(workers=2))]
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("(no distributed extra: the dask row is left out)")
    else:
        start = time.perf_counter()
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            startup = time.perf_counter() - start
            rows.append((f"dask LocalCluster, 2 workers (start-up {startup:.1f} s apart)",
                         *_timed(client=client)))
    base = rows[0][1]
    pool = rows[1][1]
    proved = sum(r["b_optimal"] and r["chi_hub_optimal"] for r in rows[0][2].rows)
    print(f"200 tasks ({proved} with b and χ_hub proved), solve time in the tasks "
          f"{sum(r['seconds'] for r in rows[0][2].rows):.1f} s\n")
    print("| run | seconds | tasks/s | speed-up vs 1 worker | time vs local pool |")
    print("|---|---|---|---|---|")
    for name, seconds, _ in rows:
        print(f"| {name} | {seconds:.1f} | {200 / seconds:.1f} | {base / seconds:.2f}× | "
              f"{seconds / pool:.2f}× |")


def growth(seeds: int) -> None:
    result = sweep({"N": [10, 20, 40, 80], "hubs": [8], "p": [0.3]}, seeds, time_limit=10,
                   workers=2)
    print(f"\nn = 8, p = 0.3, {seeds} seeds, 10 s a task (b half, χ_hub the rest)\n")
    print("| N | planted hubs (mean) | edges (mean) | b median [q10, q90] | b proved | "
          "χ_hub median [q10, q90] | χ_hub proved | χ' median |")
    print("|---|---|---|---|---|---|---|---|")
    for cell in summarize_sweep(result.rows):
        edges = [r["edges"] for r in result.rows if r["N"] == cell["N"]]
        b, h, c = cell["b"], cell["chi_hub"], cell["chi_prime"]
        print(f"| {cell['N']} | {cell['planted_hubs']:.1f} | {sum(edges) / len(edges):.0f} | "
              f"{b['median']:g} [{b['q10']:g}, {b['q90']:g}] | {b['optimal']:.0%} | "
              f"{h['median']:g} [{h['q10']:g}, {h['q90']:g}] | {h['optimal']:.0%} | "
              f"{c['median']:g} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeds of the growth table")
    parser.add_argument("--table", action="store_true", help="also the growth table")
    args = parser.parse_args()
    throughput()
    if args.table:
        growth(args.seeds)


if __name__ == "__main__":
    main()
