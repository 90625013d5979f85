"""The sweep engine: one task per grid point, run on a local process pool or on a
``dask.distributed`` cluster, each finished row appended to the results file at once.

docs/sweeps.md. The engine is generic: a *task* is a picklable function
``task(point, time_limit=seconds) -> row`` of one grid point (a dict);
:func:`run_tasks` runs any such task over any points. :func:`sweep` is the random hub sweep
built on it (:func:`.grid.random_hub_task`).

Tasks are handed out a few at a time (twice the workers); each gets
``min(solve_limit, time left)`` seconds, read when it starts, so the whole run keeps its
time limit: when it runs out no task starts, the ones running end by their own limit and
their rows are written.
"""

from __future__ import annotations

import functools
import multiprocessing
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from manifolds.validation import as_positive, as_positive_integer

from ..errors import SweepError, TheoremError
from ..sat.budget import POLL_SLICE
from ..workers import available_cores, worker_pool
from .grid import INVARIANTS, KEY, random_hub_grid, random_hub_task, row_columns
from .table import ResultsFile, cell_text, parse_cell

__all__ = ["SweepResult", "run_tasks", "sweep", "MIN_TASK_SECONDS"]

#: A task is not started with less time than this left in the run's budget.
MIN_TASK_SECONDS = 0.05


@dataclass(frozen=True)
class SweepResult:
    """The rows of a sweep, the ones found on disk and the ones computed now.

    Parameters
    ----------
    columns : list of str
    rows : tuple of dict
        Every finished row of the grid, in grid order (rows read back from the file have
        their cells parsed: ``bool``, ``int``, ``float`` or ``str``).
    path : pathlib.Path or None
        The results file (``None``: rows kept in memory only).
    resumed : int
        Rows of this grid already in the file (not recomputed).
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
        return all(row[c] is True for row in self.rows for c in flags)


class _Budget:
    """The time limits of a run: ``solve_limit`` per task, and the run's deadline as a
    wall-clock time (``time.time()``: workers on other processes or machines read it)."""

    def __init__(self, solve_limit, time_limit):
        self.solve_limit = solve_limit
        self.deadline = None if time_limit is None else time.time() + as_positive(
            time_limit, "time_limit (seconds)", error=TheoremError)

    def open(self) -> bool:
        """Whether a task may still start."""
        return self.deadline is None or self.deadline - time.time() >= MIN_TASK_SECONDS


def _run_one(task, point, solve_limit, deadline):
    """Run ``task(point)`` with ``min(solve_limit, time left)`` seconds, the time left read
    when the task starts; ``None`` when too little is left (the point stays undone)."""
    limit = solve_limit
    if deadline is not None:
        left = deadline - time.time()
        if left < MIN_TASK_SECONDS:
            return None
        limit = min(solve_limit, left)
    return task(point, time_limit=limit)


class _Failure(RuntimeError):
    """A task raised: the message names its grid point; the rows finished are kept."""


def _failed(point, exc) -> _Failure:
    failure = _Failure(f"the task at {point} failed with {type(exc).__name__}: {exc}; the rows "
                       "finished are kept, and the sweep resumes after the fix")
    failure.__cause__ = exc
    return failure


def _in_process(task, todo, budget, on_row):
    """Run the tasks one after the other here. Returns the points left."""
    for k, point in enumerate(todo):
        try:
            row = _run_one(task, point, budget.solve_limit, budget.deadline)
        except Exception as exc:
            raise _failed(point, exc) from exc
        if row is None:
            return todo[k:]
        on_row(row)
    return []


def _kill(pool: ProcessPoolExecutor, others: set) -> None:
    """Stop a pool now: cancel what is queued and kill its worker processes (Python 3.14's
    ``terminate_workers`` where it exists; the process table before), and every live child
    of this process started since the pool was made, that is not among ``others`` (the
    children there before): a Ctrl-C while the pool spawns its workers leaves one started
    after the signal and not yet in the pool's table, which the interpreter would wait for
    at exit. Children the caller started before are not the pool's to kill."""
    if hasattr(pool, "terminate_workers"):
        pool.terminate_workers()
    else:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()
    for process in set(multiprocessing.active_children()) - others:
        process.kill()


def _pooled(task, todo, workers, budget, on_row):
    """Run the tasks on ``workers`` spawned processes, at most ``2 · workers`` handed out at
    a time. Returns the points left."""
    if not todo:
        return []
    queue = deque(todo)
    left = []
    others = set(multiprocessing.active_children())
    # no more workers than tasks: each gets its share of the cores' threads
    pool = worker_pool(min(workers, len(queue)))
    running, failure = {}, None

    def hand_out():
        while queue and failure is None and len(running) < 2 * workers and budget.open():
            point = queue.popleft()
            running[pool.submit(_run_one, task, point, budget.solve_limit,
                                budget.deadline)] = point

    try:
        hand_out()
        while running:
            # in slices: a Ctrl-C is raised in the main thread only when it runs bytecode
            finished, _ = wait(running, timeout=POLL_SLICE, return_when=FIRST_COMPLETED)
            for future in finished:
                point = running.pop(future)
                try:
                    row = future.result()
                except BrokenProcessPool:
                    raise SweepError(
                        "a worker process died (out of memory, killed, or a script that calls "
                        "sweep without `if __name__ == \"__main__\":`: the workers are spawned "
                        "and import it); the rows finished are kept") from None
                except Exception as exc:
                    failure = failure or _failed(point, exc)
                    continue
                if row is None:
                    left.append(point)
                else:
                    on_row(row)
            hand_out()
    except BaseException:
        _kill(pool, others)
        raise
    pool.shutdown(wait=True)
    if failure is not None:
        raise failure
    return left + list(queue)


def _dask(task, todo, client, budget, on_row):
    """Run the tasks on a ``dask.distributed`` client, at most twice its threads handed out
    at a time. Returns the points left."""
    from distributed import wait as dask_wait

    slots = 2 * max(sum(client.nthreads().values()), 1)
    queue = deque(todo)
    left = []
    running, failure = {}, None

    def hand_out():
        while queue and failure is None and len(running) < slots and budget.open():
            point = queue.popleft()
            running[client.submit(_run_one, task, point, budget.solve_limit, budget.deadline,
                                  pure=False)] = point

    try:
        hand_out()
        while running:
            finished = dask_wait(list(running), return_when="FIRST_COMPLETED").done
            for future in finished:
                point = running.pop(future)
                if future.status == "error":
                    failure = failure or _failed(point, future.exception())
                    continue
                row = future.result()
                if row is None:
                    left.append(point)
                else:
                    on_row(row)
            hand_out()
    except BaseException:
        client.cancel(list(running))
        raise
    if failure is not None:
        raise failure
    return left + list(queue)


def run_tasks(task, points, columns, key, *, out=None, client=None, workers=None,
              solve_limit: float = 10.0, time_limit=None, settings=None,
              progress=None) -> SweepResult:
    """Run ``task`` on every point not yet in ``out`` and append each row as it finishes.

    Parameters
    ----------
    task : callable
        ``task(point, time_limit=seconds) -> row``, picklable (a module-level function, or a
        :func:`functools.partial` of one). It must keep to ``time_limit``.
    points : list of dict
        The grid points, each holding the ``key`` columns.
    columns : list of str
        The row's columns, in order (``settings`` are added after them).
    key : sequence of str
        The columns naming a point. Keys are compared as the text the file holds.
    out : str or path-like, optional
        A ``.csv`` results file, created or resumed (:class:`.table.ResultsFile`); locked
        while the run writes it.
    client : distributed.Client, optional
        Run the tasks on this dask cluster; default a local pool.
    workers : int, optional
        Local pool size (default: the cores this process may run on,
        :func:`~theorem.workers.available_cores`); 1 runs in this process.
    solve_limit : float
        Seconds a task may take.
    time_limit : float, optional
        Seconds for the whole run: no task starts when they are nearly out, and each gets at
        most what is left; the points not started are counted in ``missing``.
    settings : dict, optional
        Values every row records as extra columns (the solve limit, a model, a rule); rows
        of this grid already in ``out`` made with other settings are refused, not mixed.
    progress : callable, optional
        ``progress(done, total)`` after each row.

    Returns
    -------
    SweepResult

    Raises
    ------
    SweepError
        ``out`` is not a ``.csv`` path, holds another sweep's results or rows made with other
        settings, or is being written by another run; ``workers`` given with ``client``; a
        worker process died.
    RuntimeError
        A task raised: the message names its point; the other rows finished are kept.
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
    workers = available_cores() if workers is None else as_positive_integer(
        workers, "workers", error=SweepError)
    solve_limit = as_positive(solve_limit, "solve_limit (seconds)", error=SweepError)
    budget = _Budget(solve_limit, time_limit)
    settings = dict(settings or {})
    columns = [*columns, *settings]
    text = {name: cell_text(value) for name, value in settings.items()}
    order = {tuple(cell_text(p[c]) for c in key): i for i, p in enumerate(points)}
    results = None if out is None else ResultsFile(out, columns, key)
    try:
        mine = {} if results is None else {k: line for k, line in results.lines.items()
                                           if k in order}
        other = [k for k, line in mine.items()
                 if any(line[name] != value for name, value in text.items())]
        if other:
            line = mine[other[0]]
            raise SweepError(
                f"{out} has rows of this grid made with other settings "
                f"({ {n: line[n] for n in text} } against {text}); run with the same settings, "
                "or give another --out")
        todo = [p for p in points if tuple(cell_text(p[c]) for c in key) not in mine]
        total, done = len(points), len(points) - len(todo)
        rows_now = []

        def on_row(row):
            nonlocal done
            row = {**row, **settings}
            if results is not None:
                results.append(row)
            rows_now.append(row)
            done += 1
            if progress is not None:
                progress(done, total)

        if progress is not None:
            progress(done, total)
        if client is not None:
            left = _dask(task, todo, client, budget, on_row)
        elif workers == 1:
            left = _in_process(task, todo, budget, on_row)
        else:
            left = _pooled(task, todo, workers, budget, on_row)
    finally:
        if results is not None:
            results.close()
    rows = {tuple(cell_text(r[c]) for c in key): r for r in rows_now}
    rows.update({k: {c: parse_cell(v) for c, v in line.items()} for k, line in mine.items()})
    ordered = tuple(rows[k] for k in sorted(rows, key=order.__getitem__))
    return SweepResult(columns, ordered, None if out is None else Path(out), len(mine),
                       len(rows_now), len(left))


def sweep(grid: dict, seeds, *, invariants=INVARIANTS, time_limit: float = 10.0, out=None,
          client=None, workers=None, total_time_limit=None, progress=None) -> SweepResult:
    r"""Random hub extensions over a grid: ``b``, ``χ_hub``, ``χ'`` of every
    ``random_hub_extension(N, n, p, rng=seed)``, each row on disk as soon as it is solved.

    One task per ``(N, n, p, seed)`` (:func:`.grid.random_hub_task`), run on a local process
    pool, or on a ``dask.distributed`` cluster when ``client`` is given (a
    ``LocalCluster``'s, or a scheduler's address, ``Client("tcp://…")``). With ``out`` the
    rows are appended to a CSV file as they finish, and a sweep run again with the same
    ``out`` does only the points missing there (docs/sweeps.md#resuming). Every row records
    ``solve_limit``; a file whose rows were made with another is refused. The local pool
    spawns its processes, which import the calling script: call it under
    ``if __name__ == "__main__":``.

    Parameters
    ----------
    grid : dict
        ``{"N": [...], "hubs": [...], "p": [...]}`` (:func:`.grid.random_hub_grid`).
    seeds : int or sequence of int
        A count ``K`` (seeds ``0..K-1``) or the seeds.
    invariants : str or sequence of str
        Among ``"b"``, ``"chi_hub"``, ``"chi_prime"`` (default all).
    time_limit : float
        Seconds per task (its invariants share them; unproved ones keep their bounds).
    out : str or path-like, optional
        A ``.csv`` results file.
    client : distributed.Client, optional
    workers : int, optional
        Local pool size (default: the cores this process may run on).
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
        key or invariant), a bad ``time_limit``, or ``out`` holding another sweep's results.
    RuntimeError
        A task raised (the message names its point).
    TheoremError
        ``total_time_limit`` is not a positive, finite number of seconds.

    Examples
    --------
    >>> result = sweep({"N": [8], "hubs": [2], "p": [0.5]}, 3, time_limit=10, workers=1)
    >>> result.optimal, [row["b"] <= row["planted_hubs"] for row in result.rows]
    (True, [True, True, True])
    """
    if not isinstance(grid, dict) or set(grid) != {"N", "hubs", "p"}:
        raise SweepError(f"grid must be a dict with the keys N, hubs and p, got {grid!r}")
    points = random_hub_grid(grid["N"], grid["hubs"], grid["p"], seeds)
    invariants = (invariants,) if isinstance(invariants, str) else tuple(invariants)
    columns = row_columns(invariants)
    time_limit = as_positive(time_limit, "time_limit (seconds)", error=SweepError)
    task = functools.partial(random_hub_task, invariants=invariants)
    return run_tasks(task, points, columns, KEY, out=out, client=client, workers=workers,
                     solve_limit=time_limit, time_limit=total_time_limit,
                     settings={"solve_limit": time_limit}, progress=progress)
