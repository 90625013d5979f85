"""Worker processes that share this machine's cores.

A pool of ``w`` processes on ``c`` cores runs ``w`` computations at once; each process's
BLAS and OpenMP libraries start as many threads as there are cores, so without a limit
``w · c`` threads contend for ``c`` cores. Two workers on two cores ran the tabu search of
``χ_hub`` on 64-vertex digraphs 3.7 times slower with two OpenBLAS threads each than
with one (up to 40 vertices OpenBLAS stays on one thread and nothing changes;
docs/benchmarks.md, "Worker processes and BLAS threads"). So each worker of
:func:`worker_pool` lowers its thread pools to its share, ``⌊c / w⌋`` (at least one), and
never raises them: a limit the caller set (``OPENBLAS_NUM_THREADS=1``) stays. Dask's
nannies start each worker with one thread by default.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path, PurePosixPath

from threadpoolctl import threadpool_info, threadpool_limits

from manifolds.validation import as_positive_integer

from .errors import TheoremError

__all__ = ["available_cores", "cgroup_cpu_quota", "threads_per_worker", "limit_threads",
           "worker_pool"]


def available_cores() -> int:
    """The cores this process may run on: its CPU affinity where the system reports one
    (a job scheduler's cpuset or ``taskset``'s), else every core, and no more than its
    cgroup's CPU quota rounded up (:func:`cgroup_cpu_quota`: ``docker --cpus``, a
    Kubernetes CPU limit, a systemd ``CPUQuota``).

    Returns
    -------
    int
        At least 1.

    Examples
    --------
    >>> available_cores() >= 1
    True
    """
    if hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0))
    else:
        cores = os.cpu_count() or 1
    quota = cgroup_cpu_quota()
    if quota is not None:
        cores = min(cores, math.ceil(quota))
    return max(cores, 1)


def cgroup_cpu_quota(root: str | os.PathLike = "/sys/fs/cgroup",
                     membership: str | os.PathLike = "/proc/self/cgroup") -> float | None:
    """The CPU time a process may use, in cores, under Linux control groups: the smallest
    ``quota / period`` of its cgroup and the cgroups above it, or ``None`` without a limit.

    A quota of ``q`` µs of CPU time each period of ``p`` µs lets the group's threads run
    ``q / p`` cores' worth at once; more threads than that are throttled, not sped up.
    Version 2 keeps ``"q p"`` (or ``"max p"``, no limit) in ``cpu.max``; version 1 keeps
    ``q`` (``-1``, no limit) and ``p`` in ``cpu.cfs_quota_us`` and ``cpu.cfs_period_us``
    of the ``cpu`` controller. The process's cgroups are the lines
    ``id:controllers:path`` of ``membership``; each path's directories are looked up
    from the deepest to the mount's root, which is where a container sees its own
    cgroup (loky's ``cpu_count`` reads that root alone). Files that are missing,
    unreadable or malformed are skipped, as are paths that leave the mount's root (``..``:
    a process outside its cgroup namespace) and every system without ``membership`` (not
    Linux).

    Parameters
    ----------
    root : str or os.PathLike
        Where the cgroup file systems are mounted.
    membership : str or os.PathLike
        The process's cgroups, ``/proc/self/cgroup`` by default.

    Returns
    -------
    float or None
        Positive.

    Examples
    --------
    >>> quota = cgroup_cpu_quota()
    >>> quota is None or quota > 0
    True
    """
    try:                   # undecodable bytes of a path stay as they are (surrogates)
        lines = Path(membership).read_text(errors="surrogateescape").splitlines()
    except OSError:
        return None
    root, quotas = Path(root), []
    for line in lines:
        fields = line.split(":", 2)
        if len(fields) != 3:
            continue
        _, controllers, path = fields
        parts = PurePosixPath(path).parts
        if not parts or parts[0] != "/" or ".." in parts:
            continue
        if controllers == "":                                  # version 2
            mounts, version = [root, root / "unified"], 2
        elif "cpu" in controllers.split(","):                  # version 1
            mounts, version = [root / controllers, root / "cpu", root / "cpu,cpuacct"], 1
        else:
            continue
        relative = PurePosixPath(*parts[1:])
        for mount in dict.fromkeys(mounts):
            for directory in (relative, *relative.parents):
                quota = _cores(mount / directory, version)
                if quota is not None:
                    quotas.append(quota)
    return min(quotas, default=None)


def _cores(directory: Path, version: int) -> float | None:
    """The quota in cores of a cgroup of that version: ``cpu.max`` (``"q p"``) or the
    ``cpu.cfs_quota_us`` and ``cpu.cfs_period_us`` files; ``None`` where unlimited (``max``,
    ``-1``), missing or malformed."""
    try:
        if version == 2:
            quota, period = (directory / "cpu.max").read_text().split()
        else:
            quota, period = ((directory / f"cpu.cfs_{name}_us").read_text()
                             for name in ("quota", "period"))
        cores = int(quota) / int(period)
    except (OSError, ValueError, ZeroDivisionError):
        return None
    return cores if cores > 0 else None


def threads_per_worker(workers: int) -> int:
    """The BLAS and OpenMP threads of each of ``workers`` processes sharing the available
    cores ``c``: ``max(1, ⌊c / workers⌋)``.

    Parameters
    ----------
    workers : int
        Processes computing at once, at least 1.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        ``workers`` is not an integer.
    TheoremError
        ``workers`` is below 1.

    Examples
    --------
    >>> threads_per_worker(available_cores()), threads_per_worker(10 ** 6)
    (1, 1)
    """
    workers = as_positive_integer(workers, "workers", error=TheoremError)
    return max(1, available_cores() // workers)


def limit_threads(threads: int) -> threadpool_limits:
    """Lower this process's BLAS and OpenMP thread pools to at most ``threads`` threads each
    until the limit is restored (threadpoolctl; the initializer of :func:`worker_pool`'s
    processes, which keep it for life). A pool already below ``threads`` keeps its count.

    Processes it forks later (the SAT calls under a time limit) keep the limit.

    Parameters
    ----------
    threads : int
        At least 1.

    Returns
    -------
    threadpoolctl.threadpool_limits
        Its ``restore_original_limits()`` undoes the limit.

    Raises
    ------
    TypeError
        ``threads`` is not an integer.
    TheoremError
        ``threads`` is below 1.

    Examples
    --------
    >>> from threadpoolctl import threadpool_info
    >>> limit = limit_threads(1)
    >>> all(pool["num_threads"] == 1 for pool in threadpool_info())
    True
    >>> limit.restore_original_limits()
    """
    threads = as_positive_integer(threads, "threads", error=TheoremError)
    lowered: dict[str, int] = {}
    for pool in threadpool_info():
        prefix = pool["prefix"]
        lowered[prefix] = min(lowered.get(prefix, threads), pool["num_threads"])
    return threadpool_limits(lowered)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes, each with at most
    :func:`threads_per_worker` threads in every BLAS and OpenMP pool (:func:`limit_threads`:
    lowered, never raised).

    Spawned, not forked: a fresh interpreter never holds the caller's threads or its torch
    (forking a process that holds torch costs tens of milliseconds a fork, and the solves
    fork a child per SAT call). A script that starts one must do so under
    ``if __name__ == "__main__":``, since the workers import it.

    Parameters
    ----------
    workers : int
        At least 1.

    Returns
    -------
    concurrent.futures.ProcessPoolExecutor

    Raises
    ------
    TypeError
        ``workers`` is not an integer.
    TheoremError
        ``workers`` is below 1.

    Examples
    --------
    >>> import math
    >>> with worker_pool(2) as pool:
    ...     pool.submit(math.factorial, 5).result()
    120
    """
    threads = threads_per_worker(workers)
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=limit_threads, initargs=(threads,))
