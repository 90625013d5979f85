"""Sweeps: rows against the invariants solved directly, resuming after an interruption (and
after a kill), rows that hit the time limit, a dask LocalCluster against the local pool, bad
grids, and the two commands."""

import importlib.util
import json
import math
import multiprocessing
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from theorem.digraphs import random_hub_extension
from theorem.errors import SweepError
from theorem.invariants import biclique_cover_number, chromatic_index, hub_chromatic_index
from theorem.sweeps import (KEY, ResultsFile, random_hub_grid, read_rows, row_columns,
                            run_tasks, summarize_sweep, sweep)

GRID = {"N": [6, 9], "hubs": [2, 3], "p": [0.4]}
needs_dask = pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                                reason="the distributed extra (dask.distributed) is not installed")


def key(row):
    return tuple(row[c] for c in KEY)


def without_times(rows):
    return sorted(({k: v for k, v in r.items() if not k.endswith("seconds")} for r in rows),
                  key=key)


def test_rows_are_the_invariants_solved_directly(tmp_path):
    result = sweep(GRID, 3, time_limit=30, out=tmp_path / "r.csv", workers=2)
    assert result.complete and result.optimal and len(result.rows) == 12
    assert [key(r) for r in result.rows] == [key(p) for p in random_hub_grid(
        GRID["N"], GRID["hubs"], GRID["p"], 3)]
    for row in result.rows:
        g, planted = random_hub_extension(row["N"], row["hubs"], row["p"], rng=row["seed"])
        assert (row["planted_hubs"], row["edges"]) == (planted.n_hubs, g.n_edges)
        assert row["b"] == row["b_lower"] == row["b_upper"] == biclique_cover_number(g).value
        assert row["chi_hub"] == hub_chromatic_index(g).value
        assert row["chi_prime"] == chromatic_index(g).value
    assert without_times(read_rows(tmp_path / "r.csv")[1]) == without_times(result.rows)


def test_an_interrupted_file_is_resumed_without_duplicates(tmp_path):
    path = tmp_path / "r.csv"
    full = sweep(GRID, 2, invariants=["b"], time_limit=30, out=path, workers=1)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:3]) + lines[3][:7])           # 2 rows and a partial third
    again = sweep(GRID, 2, invariants=["b"], time_limit=30, out=path, workers=1)
    assert (again.resumed, again.computed, again.missing) == (2, 6, 0)
    text = path.read_text()
    assert text.startswith("".join(lines[:3]))                  # the kept rows untouched
    rows = read_rows(path)[1]
    assert len(rows) == len({key(r) for r in rows}) == 8
    assert without_times(rows) == without_times(full.rows)


def test_a_killed_sweep_completes_when_run_again(tmp_path):
    out = tmp_path / "r.csv"
    argv = [sys.executable, "-m", "theorem.cli", "sweep", "--N", "10,14", "--hubs", "3,5",
            "--p", "0.3,0.5", "--seeds", "4", "--invariants", "b,chi_hub", "--solve-limit", "2",
            "--workers", "1", "--out", str(out)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        # the progress bar redraws after every row: read it (blocking) until 3 rows are done
        while proc.poll() is None and proc.stderr.read(1):
            if out.exists() and out.read_text().count("\n") >= 4:     # header and 3 rows
                break
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stderr.close()
    done_before = len(read_rows(out)[1])
    assert 3 <= done_before < 32, "the sweep finished before it could be killed"
    code = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    rows = read_rows(out)[1]
    assert code in (0, 3)
    assert len(rows) == len({key(r) for r in rows}) == 32      # 2 × 2 × 2 × 4 seeds


def test_a_task_that_hits_its_time_limit_is_recorded_with_bounds():
    result = sweep({"N": [40], "hubs": [20], "p": [0.5]}, [0], invariants=["b"],
                   time_limit=0.5, workers=1)
    (row,) = result.rows
    assert row["b_optimal"] is False and row["b_lower"] < row["b_upper"] == row["b"]
    assert row["solve_limit"] == 0.5 and not result.optimal


def test_the_whole_sweeps_time_limit_leaves_points_for_the_next_run(tmp_path):
    path = tmp_path / "r.csv"
    first = sweep(GRID, 4, invariants=["chi_prime"], out=path, workers=1,
                  total_time_limit=1e-3)
    assert not first.complete and first.missing == 16 - first.computed
    second = sweep(GRID, 4, invariants=["chi_prime"], out=path, workers=1)
    assert second.complete and second.resumed == first.computed and len(second.rows) == 16


@needs_dask
def test_a_local_cluster_gives_the_rows_of_the_local_pool(tmp_path):
    from distributed import Client, LocalCluster

    local = sweep(GRID, 2, time_limit=30, workers=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        remote = sweep(GRID, 2, time_limit=30, client=client, out=tmp_path / "r.csv")
    assert remote.complete and without_times(remote.rows) == without_times(local.rows)


@pytest.mark.parametrize("grid, seeds, message", [
    ({"N": [10], "hubs": [2], "p": [1.5]}, 2, "p must be a probability in"),
    ({"N": [10], "hubs": [2], "p": [-0.1]}, 2, "p must be a probability in"),
    ({"N": [10], "hubs": [2], "p": [math.nan]}, 2, "p must be a probability in"),
    ({"N": [10], "hubs": [0], "p": [0.5]}, 2, "hubs must be at least 1"),
    ({"N": [1], "hubs": [2], "p": [0.5]}, 2, "N must be at least 2"),
    ({"N": [10], "hubs": [2], "p": [0.5]}, 0, "seeds must be at least 1"),
    ({"N": [10], "hubs": [2], "p": [0.5]}, [-1], "a seed must be at least 0"),
    ({"N": [], "hubs": [2], "p": [0.5]}, 2, "N is empty"),
    ({"N": [10, 10], "hubs": [2], "p": [0.5]}, 2, "N repeats a value"),
    ({"N": [10], "hubs": [2]}, 2, "grid must be a dict with the keys N, hubs and p"),
])
def test_bad_grids_are_refused(grid, seeds, message):
    with pytest.raises(SweepError, match=message):
        sweep(grid, seeds, workers=1)


def test_bad_invariants_and_files_are_refused(tmp_path):
    with pytest.raises(SweepError, match="invariants must be distinct names"):
        sweep(GRID, 1, invariants=["b", "rank"], workers=1)
    with pytest.raises(SweepError, match="a path ending with .csv"):
        sweep(GRID, 1, out=tmp_path / "r.parquet", workers=1)
    path = tmp_path / "r.csv"
    sweep(GRID, 1, invariants=["b"], time_limit=30, out=path, workers=1)
    with pytest.raises(SweepError, match="another sweep's results"):
        sweep(GRID, 1, invariants=["chi_prime"], out=path, workers=1)
    columns = row_columns(["b"]) + ["solve_limit"]
    with pytest.raises(SweepError, match="already in"):
        with ResultsFile(path, columns, KEY) as results:
            results.append(read_rows(path)[1][0])
    with ResultsFile(path, columns, KEY):                        # locked while open
        with pytest.raises(SweepError, match="being written by another sweep"):
            ResultsFile(path, columns, KEY)
    with pytest.raises(SweepError, match="made with other settings"):
        sweep(GRID, 1, invariants=["b"], time_limit=20, out=path, workers=1)
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    with pytest.raises(SweepError, match="is a folder"):
        sweep(GRID, 1, out=folder, workers=1)


def test_the_summary_is_the_statistics_of_each_cell():
    rng = np.random.default_rng(0)
    rows = [{"N": n, "hubs": 2, "p": 0.5, "seed": s, "planted_hubs": 2, "b": int(v),
             "b_optimal": bool(s % 3)} for n in (10, 20) for s, v in enumerate(rng.integers(1, 9, 10))]
    for cell in summarize_sweep(rows):
        values = [r["b"] for r in rows if r["N"] == cell["N"]]
        assert cell["rows"] == 10 and cell["b"]["median"] == np.median(values)
        assert cell["b"]["q10"] == np.quantile(values, 0.1) and cell["b"]["optimal"] == 0.6


def test_the_commands_write_report_and_plot(run, tmp_path):
    out = tmp_path / "r.csv"
    code, stdout, err = run("sweep", "--N", "6,8", "--hubs", "2", "--p", "0.5", "--seeds", "2",
                            "--out", str(out), "--workers", "1", "--json")
    report = json.loads(stdout)
    assert code == 0 and err == ""
    assert (report["rows"], report["computed"], report["missing"]) == (4, 4, 0)
    assert [c["N"] for c in report["summary"]] == [6, 8]
    code, stdout, _ = run("sweep", "--N", "6,8", "--hubs", "2", "--p", "0.5", "--seeds", "2",
                          "--out", str(out), "--workers", "1")
    assert code == 0 and "(4 found there, 0 computed now, 0 left)" in stdout
    pytest.importorskip("matplotlib")
    code, stdout, _ = run("sweep-report", str(out), "--plot", str(tmp_path / "figs"))
    assert code == 0 and "chi_hub median [q10, q90]" in stdout
    assert (tmp_path / "figs" / "sweep_n2_p0.5.png").stat().st_size > 0


@pytest.mark.parametrize("argv, message", [
    (["--N", "10", "--hubs", "2", "--p", "1.5", "--seeds", "2", "--out", "r.csv"],
     "p must be a probability"),
    (["--N", "10", "--hubs", "0", "--p", "0.5", "--seeds", "2", "--out", "r.csv"],
     "hubs must be at least 1"),
    (["--N", "ten", "--hubs", "2", "--p", "0.5", "--seeds", "2", "--out", "r.csv"],
     "comma-separated list of ints"),
    (["--N", "10", "--hubs", "2", "--p", "0.5", "--seeds", "2", "--out", "r.txt"],
     "ending with .csv"),
])
def test_bad_input_is_one_line_with_exit_code_2(run, argv, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run("sweep", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err
    assert not Path("r.csv").exists()


def test_one_worker_runs_in_this_process_and_a_bad_count_is_refused(monkeypatch):
    import theorem.sweeps.engine as engine

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started for workers=1")

    monkeypatch.setattr(engine, "worker_pool", no_pool)
    assert sweep(GRID, 1, invariants=["chi_prime"], workers=1).complete
    with pytest.raises(SweepError, match="workers must be a positive integer"):
        sweep(GRID, 1, invariants=["chi_prime"], workers=0)



def test_the_pool_keeps_the_whole_time_limit_and_writes_what_finished(tmp_path):
    """Tasks that would take 15 s each get what is left of a 5 s budget, read when they
    start: the sweep returns at about 5 s, with the rows of the tasks that ran (the workers'
    start-up counts), and leaves the rest."""
    path = tmp_path / "r.csv"
    start = time.monotonic()
    result = sweep({"N": [60], "hubs": [30], "p": [0.5]}, 6, invariants=["b"], time_limit=15,
                   out=path, workers=2, total_time_limit=5)
    assert time.monotonic() - start < 5 + 3
    assert result.computed >= 1 and result.missing == 6 - result.computed
    assert len(read_rows(path)[1]) == result.computed


@needs_dask
def test_the_dask_path_keeps_the_whole_time_limit(tmp_path):
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        start = time.monotonic()
        result = sweep({"N": [60], "hubs": [30], "p": [0.5]}, 6, invariants=["b"],
                       time_limit=15, out=tmp_path / "r.csv", client=client,
                       total_time_limit=3)
        assert time.monotonic() - start < 3 + 3
    assert result.computed >= 1 and result.missing == 6 - result.computed


def _fails_on_seed_2(point, time_limit):
    if point["seed"] == 2:
        raise ValueError("seed 2 is cursed")
    return {"seed": point["seed"], "v": point["seed"] * 10}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_task_names_its_point_and_keeps_the_other_rows(tmp_path, workers):
    path = tmp_path / "r.csv"
    points = [{"seed": s} for s in range(5)]
    with pytest.raises(RuntimeError, match=r"the task at \{'seed': 2\} failed with ValueError"):
        run_tasks(_fails_on_seed_2, points, ["seed", "v"], ["seed"], out=path, workers=workers)
    kept = {r["seed"] for r in read_rows(path)[1]}
    assert 2 not in kept and ({0, 1} <= kept if workers == 1 else len(kept) >= 1)


def test_an_interrupted_pool_kills_its_workers_and_no_other_child():
    """A Ctrl-C (KeyboardInterrupt) in the middle of a pooled run kills the pool's workers
    at once; a process the caller started before the run is not the pool's and lives on."""
    mine = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(60,))
    mine.start()

    def interrupt(done, total):
        if done:
            raise KeyboardInterrupt

    try:
        with pytest.raises(KeyboardInterrupt):
            run_tasks(_echo, [{"name": "x" * k} for k in range(1, 9)], ["name", "v"],
                      ["name"], workers=2, progress=interrupt)
        end = time.monotonic() + 5
        while set(multiprocessing.active_children()) != {mine} and time.monotonic() < end:
            time.sleep(0.05)
        assert set(multiprocessing.active_children()) == {mine}
    finally:
        mine.kill()
        mine.join()


def _echo(point, time_limit):
    return {"name": point["name"], "v": len(point["name"])}


def test_keys_read_back_as_their_text_whatever_they_look_like(tmp_path):
    path = tmp_path / "r.csv"
    points = [{"name": "007"}, {"name": "7"}, {"name": "x"}]
    first = run_tasks(_echo, points, ["name", "v"], ["name"], out=path, workers=1)
    again = run_tasks(_echo, points, ["name", "v"], ["name"], out=path, workers=1)
    assert (first.computed, again.resumed, again.computed) == (3, 3, 0)
    assert len(read_rows(path)[1]) == 3


def test_resumed_counts_only_the_rows_of_this_grid(tmp_path):
    path = tmp_path / "r.csv"
    sweep({"N": [6], "hubs": [2], "p": [0.5]}, 3, invariants=["chi_prime"], out=path, workers=1)
    other = sweep({"N": [8], "hubs": [2], "p": [0.5]}, 3, invariants=["chi_prime"], out=path,
                  workers=1)
    assert (other.resumed, other.computed, len(other.rows)) == (0, 3, 3)


def test_string_invariants_and_integer_like_seed_counts_are_understood():
    result = sweep({"N": [6], "hubs": [2], "p": [0.5]}, np.int64(3), invariants="chi_prime",
                   workers=1)
    assert [r["seed"] for r in result.rows] == [0, 1, 2] and "b" not in result.columns


def test_sweep_report_refuses_what_is_not_a_sweep(run, tmp_path):
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    code, out, err = run("sweep-report", str(other))
    assert code == 2 and "not a random hub sweep's" in err and err.count("\n") == 1
    empty = tmp_path / "empty.csv"
    empty.write_text(",".join(row_columns()) + "\n")
    code, _, err = run("sweep-report", str(empty))
    assert code == 2 and "no rows yet" in err
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _, err = run("sweep-report", str(binary))
    assert code == 2 and "not UTF-8" in err


@needs_dask
@pytest.mark.parametrize("address", ["foo", "tcp://[bad", "tcp://host"])
def test_a_bad_scheduler_address_is_one_line_and_starts_no_thread(run, tmp_path, address):
    """Refused before a dask Client starts its event loop: a failed Client leaves that thread
    running, and the forks of every later solve in the process would hang."""
    import threading

    code, out, err = run("sweep", "--N", "6", "--hubs", "2", "--p", "0.5", "--seeds", "1",
                         "--out", str(tmp_path / "r.csv"), "--scheduler", address)
    assert code == 2 and f"cannot reach the dask scheduler {address!r}" in err
    assert err.count("\n") == 1
    assert "IO loop" not in {t.name for t in threading.enumerate()}


def _tracebacks(proc) -> str:
    """What a ``python -X faulthandler`` child writes on SIGABRT (every thread's stack), read
    for at most 2 s: its grandchildren may hold the pipe open."""
    proc.send_signal(signal.SIGABRT)
    proc.wait()
    chunks, end = [], time.monotonic() + 2
    while time.monotonic() < end and select.select([proc.stderr], [], [], 0.1)[0]:
        chunk = os.read(proc.stderr.fileno(), 65536)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")


def test_ctrl_c_stops_the_pool_at_once(tmp_path, terminal_sigint):
    """SIGINT to the command's process group (what Ctrl-C sends) ends a pool sweep of 20 s
    tasks within a few seconds, exit code 130; if it does not, the failure shows where the
    command's threads were. The command starts with SIGINT at its default even when the
    suite runs in the background (``terminal_sigint``)."""
    argv = [sys.executable, "-X", "faulthandler", "-m", "theorem.cli", "sweep", "--N", "60",
            "--hubs", "30", "--p", "0.5", "--seeds", "6", "--invariants", "b",
            "--solve-limit", "20", "--workers", "2", "--out", str(tmp_path / "r.csv")]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        proc.stderr.read(len("sweep ["))          # the progress bar: the pool is starting
        os.killpg(proc.pid, signal.SIGINT)
        start = time.monotonic()
        try:
            code = proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running 15 s after SIGINT; its threads:\n{_tracebacks(proc)}")
        assert code == 130
        assert time.monotonic() - start < 10
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        proc.stderr.close()


def test_more_workers_start_through_the_pool_that_limits_their_threads(monkeypatch):
    import theorem.sweeps.engine as engine

    class Started(Exception):
        pass

    def spy(workers):
        raise Started(workers)

    monkeypatch.setattr(engine, "worker_pool", spy)
    points = len(random_hub_grid(GRID["N"], GRID["hubs"], GRID["p"], 1))       # 4
    for workers, size in ((2, 2), (points + 5, points)):     # never more workers than tasks
        with pytest.raises(Started) as started:
            sweep(GRID, 1, invariants=["chi_prime"], workers=workers)
        assert started.value.args == (size,)
