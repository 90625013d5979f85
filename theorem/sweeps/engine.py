"""The sweep engine: one task per grid point, run on a local process pool or on a
``dask.distributed`` cluster, each finished row appended to the results file at once.

docs/sweeps.md. The engine is generic: a *task* is a picklable function of one grid point
(a dict) returning one row (a dict); :func:`run_tasks` runs any such task over any points.
:func:`sweep` is the random hub sweep built on it (:func:`.grid.random_hub_task`).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from manifolds.validation import as_positive, as_positive_integer

from ..errors import SweepError
from ..sat.budget import deadline_after
from .grid import INVARIANTS, KEY, random_hub_grid, random_hub_task, row_columns
from .table import ResultsFile

__all__ = ["SweepResult", "run_tasks", "sweep"]


@dataclass(frozen=True)
class SweepResult:
    """The rows of a sweep, the ones found on disk and the ones computed now.

    Parameters
    ----------
    columns : list of str
    rows : tuple of dict
        Every finished row, in grid order.
    path : pathlib.Path or None
        The results file (``None``: rows kept in memory only).
    resumed : int
        Rows already in the file (not recomputed).
    computed : int
        Rows computed by this run.
    missing : int
        Grid points left undone when the time limit ran out (run again to finish them).

    Examples
    --------
    >>> result = sweep({"N": [6], "hubs": [2], "p": [0.5]}, 2, invariants=["b"], time_limit=10,
    ...                workers=1)
    >>> result.complete, result.computed, [row["seed"] for row in result.rows]
    (True, 2, [0, 1])
    """

    columns: list
    rows: tuple
    path: Path | None
    resumed: int
    computed: int
    missing: int

    @property
    def complete(self) -> bool:
        """Whether every grid point has its row."""
        return self.missing == 0

    @property
    def optimal(self) -> bool:
        """Whether every invariant of every row is proved (``*_optimal`` all true)."""
        flags = [c for c in self.columns if c.endswith("_optimal")]
        return all(row[c] for row in self.rows for c in flags)


class _Memory:
    """The results "file" of a sweep without ``out``: rows kept in memory."""

    def __init__(self, key):
        self.key, self.done, self.rows = tuple(key), set(), []

    def append(self, row):
        self.done.add(tuple(row[c] for c in self.key))
        self.rows.append(row)

    def close(self):
        pass


def _local(task, todo, workers, deadline, on_row):
    """Run ``task`` over ``todo`` in a pool of ``workers`` spawned processes (in this process
    when ``workers == 1``); stop collecting at ``deadline``. Returns the points left."""
    if workers == 1:
        for k, point in enumerate(todo):
            if deadline is not None and time.monotonic() >= deadline:
                return todo[k:]
            on_row(task(point))
        return []
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        pending = {pool.submit(task, point): point for point in todo}
        while pending:
            left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            finished, _ = wait(pending, timeout=left, return_when=FIRST_COMPLETED)
            if not finished:
                return list(pending.values())
            for future in finished:
                pending.pop(future)
                on_row(future.result())
        return []
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _dask(task, todo, client, deadline, on_row):
    """Run ``task`` over ``todo`` on a ``dask.distributed`` client; stop at ``deadline``."""
    from distributed import as_completed

    futures = {client.submit(task, point, pure=False): k for k, point in enumerate(todo)}
    done = set()
    try:
        for future in as_completed(list(futures)):
            if deadline is not None and time.monotonic() >= deadline:
                break
            on_row(future.result())
            done.add(futures[future])
    finally:
        client.cancel([f for f, k in futures.items() if k not in done])
    return [point for k, point in enumerate(todo) if k not in done]


def run_tasks(task, points, columns, key, *, out=None, client=None, workers=None,
              time_limit=None, progress=None) -> SweepResult:
    """Run ``task`` on every point not yet in ``out`` and append each row as it finishes.

    Parameters
    ----------
    task : callable
        ``task(point) -> row``, picklable (a module-level function, or a
        :func:`functools.partial` of one).
    points : list of dict
        The grid points, each holding the ``key`` columns.
    columns : list of str
        The row's columns, in order.
    key : sequence of str
        The columns naming a point.
    out : str or path-like, optional
        A ``.csv`` results file, created or resumed (:class:`.table.ResultsFile`).
    client : distributed.Client, optional
        Run the tasks on this dask cluster; default a local pool.
    workers : int, optional
        Local pool size (default: the CPU count); 1 runs in this process.
    time_limit : float, optional
        Seconds for the whole run: when they pass, no new row is collected and the points
        left are counted in ``missing`` (a task already running still keeps its own limit).
    progress : callable, optional
        ``progress(done, total)`` after each row.

    Returns
    -------
    SweepResult

    Raises
    ------
    SweepError
        ``out`` is not a ``.csv`` path or holds another sweep's results; ``workers`` given
        with ``client``.
    TypeError
        ``workers`` is not an integer.
    TheoremError
        ``time_limit`` is not a positive, finite number of seconds.

    Examples
    --------
    >>> points = [{"N": 6, "hubs": 2, "p": 0.5, "seed": s} for s in range(3)]
    >>> task = functools.partial(random_hub_task, invariants=["chi_prime"])
    >>> result = run_tasks(task, points, row_columns(["chi_prime"]), KEY, workers=1)
    >>> result.computed, result.missing
    (3, 0)
    """
    if client is not None and workers is not None:
        raise SweepError("workers is for the local pool; a dask client has its own workers")
    workers = (os.cpu_count() or 1) if workers is None else as_positive_integer(
        workers, "workers", error=SweepError)
    deadline = deadline_after(time_limit)
    results = _Memory(key) if out is None else ResultsFile(out, columns, key)
    try:
        before = set(results.done)
        resumed = len(before)
        todo = [p for p in points if tuple(p[c] for c in key) not in before]
        total, done = len(points), len(points) - len(todo)
        rows_now = []

        def on_row(row):
            nonlocal done
            results.append(row)
            rows_now.append(row)
            done += 1
            if progress is not None:
                progress(done, total)

        if progress is not None:
            progress(done, total)
        if client is None:
            left = _local(task, todo, workers, deadline, on_row)
        else:
            left = _dask(task, todo, client, deadline, on_row)
    finally:
        results.close()
    if out is None:
        rows = rows_now
    else:
        from .table import read_rows
        rows = read_rows(out)[1]
    order = {tuple(p[c] for c in key): i for i, p in enumerate(points)}
    rows = sorted((r for r in rows if tuple(r[c] for c in key) in order),
                  key=lambda r: order[tuple(r[c] for c in key)])
    return SweepResult(list(columns), tuple(rows), None if out is None else Path(out),
                       resumed, len(rows_now), len(left))


def sweep(grid: dict, seeds, *, invariants=INVARIANTS, time_limit: float = 10.0, out=None,
          client=None, workers=None, total_time_limit=None, progress=None) -> SweepResult:
    r"""Random hub extensions over a grid: ``b``, ``χ_hub``, ``χ'`` of every
    ``random_hub_extension(N, n, p, rng=seed)``, each row on disk as soon as it is solved.

    One task per ``(N, n, p, seed)`` (:func:`.grid.random_hub_task`), run on a local process
    pool, or on a ``dask.distributed`` cluster when ``client`` is given (a
    ``LocalCluster``'s, or a scheduler's address, ``Client("tcp://…")``). With ``out`` the
    rows are appended to a CSV file as they finish, and a sweep run again with the same
    ``out`` does only the points missing there (docs/sweeps.md#resuming).

    Parameters
    ----------
    grid : dict
        ``{"N": [...], "hubs": [...], "p": [...]}`` (:func:`.grid.random_hub_grid`).
    seeds : int or sequence of int
        A count ``K`` (seeds ``0..K-1``) or the seeds.
    invariants : sequence of str
        Among ``"b"``, ``"chi_hub"``, ``"chi_prime"`` (default all).
    time_limit : float
        Seconds per task (its invariants share them; unproved ones keep their bounds).
    out : str or path-like, optional
        A ``.csv`` results file.
    client : distributed.Client, optional
    workers : int, optional
        Local pool size (default: the CPU count).
    total_time_limit : float, optional
        Seconds for the whole sweep (points left are reported in ``missing``).
    progress : callable, optional
        ``progress(done, total)``.

    Returns
    -------
    SweepResult

    Raises
    ------
    SweepError
        A malformed grid (``p`` outside ``[0, 1]``, ``n < 1``, ``N < 2``, no seed, an unknown
        key or invariant), or ``out`` holding another sweep's results.
    TheoremError
        ``total_time_limit`` is not a positive, finite number of seconds (``SweepError`` for
        ``time_limit``).

    Examples
    --------
    >>> result = sweep({"N": [8], "hubs": [2], "p": [0.5]}, 3, time_limit=10, workers=1)
    >>> result.optimal, [row["b"] <= row["planted_hubs"] for row in result.rows]
    (True, [True, True, True])
    """
    if not isinstance(grid, dict) or set(grid) != {"N", "hubs", "p"}:
        raise SweepError(f"grid must be a dict with the keys N, hubs and p, got {grid!r}")
    points = random_hub_grid(grid["N"], grid["hubs"], grid["p"], seeds)
    columns = row_columns(invariants)
    time_limit = as_positive(time_limit, "time_limit (seconds)", error=SweepError)
    task = functools.partial(random_hub_task, invariants=tuple(invariants),
                             time_limit=time_limit)
    return run_tasks(task, points, columns, KEY, out=out, client=client, workers=workers,
                     time_limit=total_time_limit, progress=progress)
