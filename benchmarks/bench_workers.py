"""Worker processes side by side: BLAS threads left to themselves against one share each.

Run: ``python benchmarks/bench_workers.py [--heads K] [--rounds R]`` (no extra needed; run it
without ``OPENBLAS_NUM_THREADS`` or ``OMP_NUM_THREADS`` set, so that the first pool's
workers start the thread pools a user's do). Two workers run the same fixed work at once:
the tabu search of ``χ_hub`` (:func:`~theorem.invariants.local_search_difunctional_cover`,
8 searches of 1,500 moves for a cover by 4 relations, seeded: the same work in both pools) on
the K largest digraphs of the shared attention set (29 tokens) and on K random hub
extensions ``random_hub_extension(N, 20, 0.5)`` of ``N = 40`` (the issue's hard regime) and
of ``N = 64`` (the longest real heads), each set timed apart, on

* a pool of spawned processes with their default thread pools (as the study and the sweep
  started theirs before :mod:`theorem.workers`), and
* :func:`theorem.workers.worker_pool`, each worker limited to its share of the cores,

alternating the two pools ``R`` times (each first in turn). It prints the median seconds a
task and the wall time of each pool, and their ratios; recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from theorem import AttentionDigraph  # noqa: E402
from theorem.digraphs import Trimmed, random_hub_extension  # noqa: E402
from theorem.invariants import local_search_difunctional_cover  # noqa: E402
from theorem.workers import available_cores, threads_per_worker, worker_pool  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "attention-digraphs"


def _digraph(spec) -> AttentionDigraph:
    """A shared head (its path) or a random hub extension ``(N, seed)``."""
    if isinstance(spec, str):
        return Trimmed.of(AttentionDigraph.read(spec)).digraph
    n, seed = spec
    return Trimmed.of(random_hub_extension(n, 20, 0.5, rng=seed)[0]).digraph


def _search(spec) -> tuple[float, int]:
    """Seconds of 8 tabu searches of 1,500 moves for a cover by 4 relations, and the
    worker's BLAS threads."""
    from threadpoolctl import threadpool_info

    g = _digraph(spec)
    start = time.perf_counter()
    local_search_difunctional_cover(g, 4, tries=8, rng=1, iterations=1500)
    seconds = time.perf_counter() - start
    return seconds, max((p["num_threads"] for p in threadpool_info()
                         if p["user_api"] == "blas"), default=0)


def _run(pool: ProcessPoolExecutor, specs: list) -> tuple[float, list[float], set[int]]:
    """The wall time of ``specs``' searches on ``pool``, each search's seconds, and the BLAS
    thread counts its workers reported."""
    start = time.perf_counter()
    results = list(pool.map(_search, specs))
    return time.perf_counter() - start, [s for s, _ in results], {t for _, t in results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heads", type=int, default=2, help="digraphs of each set")
    parser.add_argument("--rounds", type=int, default=2, help="alternations of the two pools")
    args = parser.parse_args()
    if args.heads < 1 or args.rounds < 1:
        parser.error("--heads and --rounds must be at least 1")
    index = json.loads((DATA / "index.json").read_text())["digraphs"]
    largest = sorted(index, key=lambda d: (-d["tokens"], -d["edges"], d["file"]))[:args.heads]
    sets = {f"shared heads, {largest[0]['tokens']} tokens":
            [str(DATA / d["file"]) for d in largest],
            **{f"random hub, N = {n}": [(n, seed) for seed in range(args.heads)]
               for n in (40, 64)}}
    context = multiprocessing.get_context("spawn")
    pools = {"default threads": lambda: ProcessPoolExecutor(2, mp_context=context),
             "worker_pool": lambda: worker_pool(2)}
    print(f"{available_cores()} cores, 2 workers ({threads_per_worker(2)} thread each with "
          f"worker_pool); each digraph twice a round, {args.rounds} rounds\n")
    print("| digraphs | pool | BLAS threads a worker | median task (s) | median wall (s) "
          "| task ratio |")
    print("|---|---|---|---|---|---|")
    for label, specs in sets.items():
        walls = {name: [] for name in pools}
        tasks = {name: [] for name in pools}
        threads = {name: set() for name in pools}
        for r in range(args.rounds):
            for name in (list(pools) if r % 2 == 0 else list(pools)[::-1]):
                make = pools[name]
                with make() as pool:
                    # both workers started (each busy a second) before the clock
                    list(pool.map(time.sleep, [1, 1]))
                    wall, seconds, seen = _run(pool, [s for s in specs for _ in range(2)])
                walls[name].append(wall)
                tasks[name] += seconds
                threads[name] |= seen
        base = statistics.median(tasks["worker_pool"])
        for name in pools:
            median = statistics.median(tasks[name])
            print(f"| {label} | {name} | {', '.join(map(str, sorted(threads[name])))} | "
                  f"{median:.2f} | {statistics.median(walls[name]):.2f} | "
                  f"{median / base:.2f}× |", flush=True)


if __name__ == "__main__":
    main()
