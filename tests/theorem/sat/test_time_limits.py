"""Time limits that hold: every solve and command returns within its limit plus 10 % + 1 s,
on inputs built to be slow, with both bounds; upper bounds never worse than the trivial ones."""

import io
import json
import os
import time

import numpy as np
import pytest

from theorem import (
    AttentionDigraph,
    TooManyBicliquesError,
    biclique_cover_number,
    chromatic_index,
    complete_digraph,
    fractional_biclique_cover,
    hub_chromatic_index,
    hub_pareto_front,
    real_rank,
    transitive_tournament,
)
from theorem.sat.budget import Resumable, anytime, deadline_after
from theorem.cli import main

LIMIT = 1.0


def within(limit: float) -> float:
    """The promised wall time: the limit plus 10 % + 1 s."""
    return 1.1 * limit + 1.0


def _random(n: int, p: float, seed: int) -> AttentionDigraph:
    m = np.random.default_rng(seed).random((n, n)) < p
    np.fill_diagonal(m, False)
    return AttentionDigraph.from_adjacency(m)


SLOW = {
    # 30,000 vertices and two edges: every N × N structure would take gigabytes
    "large sparse": lambda: AttentionDigraph(30_000, [(0, 1), (2, 3)]),
    # 3,000 vertices with 4,000 scattered edges
    "large scattered": lambda: AttentionDigraph(
        3000, np.random.default_rng(0).integers(0, 3000, (4000, 2)), drop_loops=True),
    "large transitive": lambda: transitive_tournament(700),
    "large dense": lambda: _random(250, 0.6, 1),
}


@pytest.fixture(scope="module", params=sorted(SLOW))
def slow(request):
    return request.param, SLOW[request.param]()


def _trivial_bound(digraph: AttentionDigraph) -> int:
    return min(digraph.n, len(np.unique(digraph.edges[:, 0])), len(np.unique(digraph.edges[:, 1])))


@pytest.mark.parametrize("solve", [biclique_cover_number, hub_chromatic_index])
def test_np_hard_invariants_return_in_time_with_both_bounds(slow, solve):
    name, g = slow
    start = time.monotonic()
    r = solve(g, time_limit=LIMIT)
    assert time.monotonic() - start <= within(LIMIT), name
    assert 1 <= r.lower_bound <= r.upper_bound <= _trivial_bound(g)
    r.witness.validate(g)


def test_chromatic_index_and_real_rank_return_in_time(slow):
    name, g = slow
    start = time.monotonic()
    r = chromatic_index(g, time_limit=LIMIT)
    rank = real_rank(g, time_limit=LIMIT)
    assert time.monotonic() - start <= within(2 * LIMIT), name
    assert r.lower_bound == max(g.out_degrees.max(), g.in_degrees.max()) <= r.upper_bound
    assert rank is None or 1 <= rank <= g.n


def test_pareto_front_returns_in_time(slow):
    name, g = slow
    start = time.monotonic()
    front = hub_pareto_front(g, time_limit=LIMIT)
    assert time.monotonic() - start <= within(LIMIT), name
    assert all(p.colors < q.colors and p.hubs > q.hubs for p, q in zip(front.points, front.points[1:]))
    for point in front.points:
        point.witness.validate(g)


def test_fractional_cover_returns_in_time():
    g = _random(60, 0.5, 2)        # hundreds of thousands of maximal bicliques
    start = time.monotonic()
    try:
        frac = fractional_biclique_cover(g, time_limit=LIMIT)
    except TooManyBicliquesError:   # time ran out enumerating the maximal bicliques
        frac = None
    assert time.monotonic() - start <= within(LIMIT)
    if frac is not None:
        assert frac.bound <= biclique_cover_number(g, time_limit=LIMIT).upper_bound


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    start = time.monotonic()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), time.monotonic() - start


@pytest.mark.parametrize("family,n", [("cycle", 300), ("transitive-tournament", 600),
                                      ("complete", 150),
                                      # 1.1·10^6 edges: 4.3 s when the JSON was encoded
                                      # after the budget, 2.2–2.4 s now (promise 3.2 s)
                                      ("transitive-tournament", 1500)])
def test_invariants_command_returns_in_time(family, n):
    limit = 2.0
    code, out, wall = _run("invariants", "--family", family, "--n", str(n),
                           "--time-limit", str(limit), "--json")
    assert wall <= within(limit), (family, wall)
    report = json.loads(out)
    assert code == (0 if report["optimal"] else 3)
    for name in ("biclique_cover_number", "hub_chromatic_index", "chromatic_index"):
        r = report[name]
        assert r["lower_bound"] <= r["upper_bound"] == r["value"]


def test_invariants_command_on_a_large_sparse_file(tmp_path):
    path = tmp_path / "sparse.txt"
    path.write_text("# n 30000\n0 1\n2 3\n")
    code, out, wall = _run("invariants", "--digraph", str(path), "--time-limit", "2", "--json")
    assert wall <= within(2.0) and code == 0
    assert json.loads(out)["biclique_cover_number"]["value"] == 2


@pytest.mark.parametrize("limit", [0.01, 2.0])
def test_verify_command_returns_in_time_and_lists_what_is_left(limit):
    code, out, wall = _run("verify", "--time-limit", str(limit))
    assert wall <= within(limit)
    assert code == 3 and "NOT VERIFIED" in out and "TIME LIMIT" in out


def test_verify_command_on_the_hard_regime_returns_in_time():
    code, out, wall = _run("verify", "--family", "random-hub", "--n", "40", "--hubs", "20",
                           "--p", "0.5", "--space", "sphere:2", "--time-limit", "3", "--json")
    assert wall <= within(3.0)
    report = json.loads(out)
    assert code in (0, 3) and all(c["passed"] for c in report["covers"])
    assert (code == 3) == bool(report["skipped"])


@pytest.mark.parametrize("n", [5, 20, 60, 150])
@pytest.mark.parametrize("p", [0.05, 0.3, 0.6, 0.95])
def test_upper_bounds_are_never_worse_than_the_trivial_ones(n, p):
    """χ_hub ≤ b ≤ min(N, non-isolated sources, non-isolated targets) under a tight limit."""
    g = _random(n, p, seed=n)
    if g.n_edges == 0:              # sparse and small: one edge, so that every case checks
        g = AttentionDigraph(n, [(0, 1)])
    b = biclique_cover_number(g, time_limit=0.2)
    chi = hub_chromatic_index(g, time_limit=0.2, biclique_cover=b)
    alone = hub_chromatic_index(g, time_limit=0.2)
    assert chi.upper_bound <= b.upper_bound <= _trivial_bound(g)
    assert alone.upper_bound <= _trivial_bound(g)
    assert b.lower_bound <= b.upper_bound and chi.lower_bound <= chi.upper_bound
    for r in (b, chi, alone):
        r.witness.validate(g)


def _stuck(report):
    report(os.getpid())
    while True:             # stands for an uninterruptible step (a BLAS call, a SAT solve)
        pass


def test_anytime_returns_the_last_report_at_the_deadline():
    start = time.monotonic()
    state, finished = anytime(_stuck, deadline_after(0.5))
    assert state not in (None, os.getpid()) and not finished
    assert time.monotonic() - start < 1.5


def _fails(report):
    raise KeyError("inside the child")


def test_anytime_raises_what_the_child_raised():
    with pytest.raises(KeyError, match="inside the child"):
        anytime(_fails, deadline_after(5))


def test_a_complete_digraph_is_still_proved_under_a_limit():
    r = biclique_cover_number(complete_digraph(8), time_limit=10)
    assert r.optimal and r.value == 5


def _group(pgid: int) -> set[int]:
    """Pids of the live processes (zombies excluded) in the process group ``pgid``."""
    alive = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] not in "ZX" and int(fields[2]) == pgid:
                alive.add(int(entry))
    return alive


def _nested(report):
    report(os.getpid())
    anytime(_stuck, deadline_after(600))     # a grandchild spinning for ten minutes


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to list processes")
@pytest.mark.parametrize("work", [_stuck, _nested])
def test_the_deadline_kills_the_child_and_everything_it_started(work):
    child, finished = anytime(work, deadline_after(0.5))
    assert not finished
    give_up = time.monotonic() + 0.5                    # SIGKILL is delivered, not instant
    while (left := _group(child)) and time.monotonic() < give_up:
        pass
    assert not left


def _count(report, upto):
    total = 0
    for i in range(upto):
        for _ in range(20_000):         # busy work, about a millisecond a step
            total += 1
        report((os.getpid(), i, total))


def _state(pid: int) -> str:
    """The state letter of process ``pid`` (``T`` stopped, ``R``/``S`` running), or ``""``
    when it has exited."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to see process states")
def test_a_resumable_child_is_paused_at_the_deadline_and_goes_on_from_there():
    with Resumable(_count, 100_000) as child:
        (pid, first, _), finished = child.run(deadline_after(0.2))
        assert not finished and _state(pid) == "T"          # stopped, not killed
        (_, second, total), _ = child.run(deadline_after(0.2))
        assert second > first and total == 20_000 * (second + 1)   # no step done twice
    assert _state(pid) in ("", "Z", "X")                     # killed on leaving


def test_a_resumable_child_ends_and_keeps_its_answer():
    with Resumable(_count, 3) as child:
        state, finished = child.run(None)
        assert finished and state[1:] == (2, 60_000)
        assert child.run(deadline_after(1)) == (state, True)
    with Resumable(_fails) as child, pytest.raises(KeyError, match="inside the child"):
        child.run(deadline_after(5))


def _resumable_then_stuck(report):
    child = Resumable(_count, 100_000)
    report(child.run(deadline_after(0.1))[0][0])
    _stuck(lambda state: None)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to list processes")
def test_a_paused_child_dies_with_the_search_that_started_it():
    paused, finished = anytime(_resumable_then_stuck, deadline_after(1.0))
    assert paused is not None and not finished
    give_up = time.monotonic() + 0.5
    while _state(paused) not in ("", "Z", "X") and time.monotonic() < give_up:
        time.sleep(0.01)
    assert _state(paused) in ("", "Z", "X")


def _solve_in_pool(n: int) -> int:
    return biclique_cover_number(transitive_tournament(n), time_limit=5).value


def test_time_limits_work_inside_daemonic_pool_workers():
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_solve_in_pool, (6,)) == 5


def test_a_failed_fork_leaves_sigint_unblocked(monkeypatch):
    """A fork that fails (EAGAIN under a process limit) raises, and SIGINT is not left
    blocked in this thread: processes started from it later inherit the mask and would
    never see a Ctrl-C."""
    import signal

    def refuse():
        raise BlockingIOError("fork: resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    with pytest.raises(BlockingIOError):
        anytime(lambda report: report(1), deadline_after(5))
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
