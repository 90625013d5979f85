"""Tests of theorem.workers: pools whose workers share the cores, one thread pool each."""

from unittest import mock

import pytest
from hypothesis import given, strategies as st
from threadpoolctl import threadpool_info

from theorem.errors import TheoremError
from theorem.workers import (available_cores, cgroup_cpu_quota, limit_threads, threads_per_worker,
                             worker_pool)


def _thread_pools():
    """The thread pools of the calling worker once it computes with numpy, as a task does."""
    import numpy as np

    np.ones((2, 2)) @ np.ones((2, 2))
    return threadpool_info()


def _worker_threads(workers: int, tasks: int = 4) -> set[int]:
    """The thread counts of every BLAS and OpenMP pool that ``tasks`` tasks of a
    ``worker_pool(workers)`` saw, once numpy's BLAS is checked to be among them."""
    with worker_pool(workers) as pool:
        seen = [info for future in [pool.submit(_thread_pools) for _ in range(tasks)]
                for info in future.result()]
    assert any(info["user_api"] == "blas" for info in seen)
    return {info["num_threads"] for info in seen}


@given(st.integers(1, 512), st.integers(1, 10_000))
def test_the_workers_threads_fill_the_cores_without_oversubscribing_them(cores, workers):
    with mock.patch("theorem.workers.available_cores", return_value=cores):
        threads = threads_per_worker(workers)
    assert threads >= 1
    assert workers * threads <= max(cores, workers)       # never more threads than cores
    if workers <= cores:
        assert workers * (threads + 1) > cores             # and no core left that fits one


@pytest.mark.parametrize("value, error, says", [
    (0, TheoremError, "must be a positive integer, got 0"),
    (-2, TheoremError, "must be a positive integer, got -2"),
    (2.0, TypeError, "must be an integer, not float"),
    ("2", TypeError, "must be an integer, not str"),
])
def test_a_count_below_one_or_not_an_integer_is_refused(value, error, says):
    for call, name in ((threads_per_worker, "workers"), (worker_pool, "workers"),
                       (limit_threads, "threads")):
        with pytest.raises(error, match=f"{name} {says}"):
            call(value)


@pytest.mark.skipif(available_cores() < 2, reason="one core: every worker has one thread "
                                                   "with or without the limit")
def test_each_worker_runs_its_blas_on_its_share_of_the_cores(monkeypatch):
    # the workers inherit this environment: without the pool's limit each would start a
    # thread per core (OpenBLAS caps the variable there), two workers twice the cores
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(variable, str(available_cores()))
    assert _worker_threads(2) == {threads_per_worker(2)}


def test_a_lower_limit_the_caller_set_is_kept(monkeypatch):
    # OPENBLAS_NUM_THREADS=1 by the caller: one worker's share (every core) must not raise it
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(variable, "1")
    assert _worker_threads(1, tasks=1) == {1}


def _cgroups(tmp_path, membership: str, files: dict[str, str]):
    """A fake cgroup mount under ``tmp_path``: ``files`` by path below the mount's root,
    and the process's membership lines; the arguments of :func:`cgroup_cpu_quota`."""
    for name, text in files.items():
        (tmp_path / "fs" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "fs" / name).write_text(text)
    (tmp_path / "cgroup").write_text(membership)
    return tmp_path / "fs", tmp_path / "cgroup"


@pytest.mark.parametrize("membership, files, quota", [
    # version 2: "quota period", or "max" for none
    ("0::/\n", {"cpu.max": "200000 100000\n"}, 2.0),
    ("0::/\n", {"cpu.max": "150000 100000\n"}, 1.5),
    ("0::/\n", {"cpu.max": "max 100000\n"}, None),
    # the smallest quota along the path, whichever level sets it
    ("0::/a/b\n", {"a/cpu.max": "50000 100000", "a/b/cpu.max": "max 100000",
                   "cpu.max": "400000 100000"}, 0.5),
    ("0::/a/b\n", {"a/b/cpu.max": "300000 100000", "a/cpu.max": "max 100000"}, 3.0),
    # version 1: the cpu controller's quota and period; -1 for none
    ("4:memory:/x\n2:cpu,cpuacct:/\n", {"cpu,cpuacct/cpu.cfs_quota_us": "250000\n",
                                         "cpu,cpuacct/cpu.cfs_period_us": "100000\n"}, 2.5),
    ("1:cpu:/\n", {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"},
     None),
    # a container without its own namespace: its path is absent, the mount's root is its own
    ("2:cpu,cpuacct:/docker/abc\n", {"cpu/cpu.cfs_quota_us": "100000",
                                     "cpu/cpu.cfs_period_us": "100000"}, 1.0),
    # the controllers' mount named in either order, and a nested version-1 path
    ("3:cpuacct,cpu:/a/b\n", {"cpuacct,cpu/a/cpu.cfs_quota_us": "400000",
                              "cpuacct,cpu/a/cpu.cfs_period_us": "100000"}, 4.0),
    # hybrid: version 2 in unified/ (without the cpu controller there), version 1 quota
    ("0::/s\n2:cpu,cpuacct:/s\n", {"unified/s/cgroup.procs": "",
                                   "cpu,cpuacct/s/cpu.cfs_quota_us": "300000",
                                   "cpu,cpuacct/s/cpu.cfs_period_us": "100000"}, 3.0),
    # both versions limit: the smaller quota binds
    ("0::/\n2:cpu:/\n", {"cpu.max": "150000 100000", "cpu/cpu.cfs_quota_us": "250000",
                          "cpu/cpu.cfs_period_us": "100000"}, 1.5),
    # paths outside the mount's root (a process outside its namespace) and lines that are
    # no membership are skipped
    ("0::/../..\n", {"cpu.max": "100000 100000"}, None),
    ("garbage\n\n0:/\n", {"cpu.max": "100000 100000"}, None),
    # other controllers' limits, and malformed or missing files, say nothing
    ("4:memory:/\n", {"memory/cpu.cfs_quota_us": "100000",
                      "memory/cpu.cfs_period_us": "100000"}, None),
    ("0::/\n", {"cpu.max": "lots\n"}, None),
    ("0::/\n", {"cpu.max": "100000 0\n"}, None),
    ("1:cpu:/\n", {"cpu/cpu.cfs_quota_us": "100000"}, None),
    ("0::/\n", {}, None),
])
def test_the_cgroup_quota_is_the_smallest_on_the_process_path(tmp_path, membership, files,
                                                               quota):
    assert cgroup_cpu_quota(*_cgroups(tmp_path, membership, files)) == quota


def test_without_cgroups_there_is_no_quota(tmp_path):
    assert cgroup_cpu_quota(tmp_path, tmp_path / "no such file") is None


def test_an_undecodable_cgroup_path_is_read_as_it_is(tmp_path):
    name = b"caf\xe9".decode("utf-8", "surrogateescape")
    (tmp_path / "fs" / name).mkdir(parents=True)
    (tmp_path / "fs" / name / "cpu.max").write_text("200000 100000")
    (tmp_path / "cgroup").write_bytes(b"0::/caf\xe9\n")
    assert cgroup_cpu_quota(tmp_path / "fs", tmp_path / "cgroup") == 2.0


@pytest.mark.parametrize("quota, cores", [(0.5, 1), (1.0, 1), (2.3, 3), (7.9, 8), (8.0, 8),
                                          (64.0, 8), (None, 8)])
def test_the_available_cores_are_the_affinity_within_the_quota_rounded_up(quota, cores):
    with mock.patch("theorem.workers.os.sched_getaffinity", create=True,
                    return_value=set(range(8))), \
            mock.patch("theorem.workers.cgroup_cpu_quota", return_value=quota):
        assert available_cores() == cores
