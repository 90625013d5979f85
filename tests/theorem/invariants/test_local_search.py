"""The local search for biclique covers: every answer a cover of ``E`` by at most ``k``
bicliques (validated independently), none below ``b`` (proved by the exact solver), the
gains of its moves against the coverage each move really changes (brute force), searches
side by side, the same search on every call, the restarts of ``biclique_cover_number``'s
descent (their schedule, and a real head they prove), and the errors."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorem.digraphs import (
    AttentionDigraph,
    HubExtension,
    Kernel,
    Trimmed,
    complete_digraph,
    random_hub_extension,
    transitive_tournament,
)
from theorem.errors import TheoremError
from theorem.invariants import biclique_cover_number, local_search_cover, star_cover
from theorem.invariants import biclique_cover, local_search

from .recording import recorded

COPIES = Path(__file__).resolve().parent / "attention"


def random_digraph(seed, n, p):
    gen = np.random.default_rng(seed)
    adjacency = (gen.random((n, n)) < p).astype(np.uint8)
    np.fill_diagonal(adjacency, 0)
    return AttentionDigraph.from_adjacency(adjacency)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 9), st.floats(0.1, 0.9), st.integers(1, 9),
       st.integers(1, 5))
def test_an_answer_is_a_cover_by_at_most_k_bicliques_and_none_below_b(seed, n, p, k, tries):
    g = random_digraph(seed, n, p)
    cover = local_search_cover(g, k, rng=seed, iterations=300, tries=tries)
    exact = biclique_cover_number(g)
    assert exact.optimal
    if cover is None:
        return
    assert len(cover) <= k
    HubExtension(cover).validate(g)          # raises unless the union is exactly E
    assert len(cover) >= exact.value


@pytest.mark.parametrize("g, b", [(complete_digraph(6), 4), (complete_digraph(8), 5),
                                  (transitive_tournament(8), 7)])
def test_it_reaches_b_on_families_and_gives_up_below(g, b):
    cover = local_search_cover(g, b)
    assert cover is not None and len(cover) == b
    HubExtension(cover).validate(g)
    assert local_search_cover(g, b - 1, iterations=500) is None


def test_it_finds_the_planted_cover_size_where_greedy_does_not():
    # random hub model, 30 vertices and 10 hubs: the out-stars need 30, the search 10 or fewer
    g, planted = random_hub_extension(30, 10, 0.5, rng=3)
    assert len(star_cover(g)) > planted.n_hubs
    cover = local_search_cover(g, planted.n_hubs)
    assert cover is not None and len(cover) <= planted.n_hubs
    HubExtension(cover).validate(g)


def test_a_cover_given_as_start_is_returned_at_once():
    g = random_digraph(5, 12, 0.5)
    stars = star_cover(g)
    cover = local_search_cover(g, len(stars), start=stars, iterations=1)
    assert cover is not None and len(cover) <= len(stars)
    HubExtension(cover).validate(g)


def _covered_weight(m, weights, sources, targets):
    """The weight of the edges ``k`` bicliques cover, counted from scratch."""
    return (weights * (m & (sources.T.astype(int) @ targets.astype(int) > 0))).sum()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(3, 10), st.floats(0.3, 0.9), st.integers(1, 4),
       st.integers(1, 4))
def test_each_gain_is_at_most_the_coverage_the_move_adds_and_exact_when_closing_adds_nothing(
        seed, n, p, k, tries):
    """The gains of all ``2·k·N`` moves of ``tries`` searches side by side against each move
    made on a copy (flip, close again) and the covered weight counted from scratch: closing
    may add sources or targets the gain does not count, never fewer."""
    g = random_digraph(seed, n, p)
    if g.n_edges == 0:
        return
    gen = np.random.default_rng(seed)
    m = g.adjacency.astype(bool)
    sources = gen.random((tries, k, n)) < 0.3
    targets = np.zeros_like(sources)
    search = local_search._Search(m, sources, targets, gen)
    r, j = np.indices((tries, k))
    search.close(r.ravel(), j.ravel(), np.zeros(tries * k, dtype=np.int64))
    search.weights = gen.integers(1, 5, (tries, n, n)).astype(float) * m
    search.covered()
    unc, once = search.weights * search.uncovered, search.weights * search.once
    flip = (0, 2, 1)
    gains = [local_search._gains(sources, targets, search.mf, search.nonedge, unc, once),
             local_search._gains(targets, sources, search.mf.T, search.nonedge.T,
                                 unc.transpose(flip), once.transpose(flip))]
    for r, side, j, v in np.ndindex(tries, 2, k, n):
        before = _covered_weight(m, search.weights[r], sources[r], targets[r])
        moved = local_search._Search(m, sources[r:r + 1].copy(), targets[r:r + 1].copy(), gen)
        raw = (moved.sources, moved.targets)[side][0, j].copy()
        raw[v] = not raw[v]
        (moved.sources, moved.targets)[side][0, j, v] = raw[v]
        moved.close(np.array([0]), np.array([j]), np.array([side]))
        after = _covered_weight(m, search.weights[r], moved.sources[0], moved.targets[0])
        assert gains[side][r, j, v] <= after - before
        if np.array_equal((moved.sources, moved.targets)[side][0, j], raw):
            assert gains[side][r, j, v] == after - before


def test_the_same_search_on_every_call():
    g, _ = random_hub_extension(25, 8, 0.5, rng=1)
    first = local_search_cover(g, 8, rng=4)
    assert first is not None and first == local_search_cover(g, 8, rng=4)
    side_by_side = local_search_cover(g, 8, rng=4, tries=4)
    assert side_by_side is not None and side_by_side == local_search_cover(g, 8, rng=4, tries=4)


@pytest.mark.parametrize("g, b", [(complete_digraph(8), 5), (transitive_tournament(8), 7)])
def test_searches_side_by_side_reach_b_and_give_up_below(g, b):
    cover = local_search_cover(g, b, tries=4)
    assert cover is not None and len(cover) == b
    HubExtension(cover).validate(g)
    assert local_search_cover(g, b - 1, iterations=300, tries=4) is None


def _recorded_descent(monkeypatch, time_limit, lower, found_at=None):
    """``biclique_cover._local_descent`` on ``transitive_tournament(8)`` (``b = 7``) from a
    cover by 8, its searches recorded (:func:`.recording.recorded`), call ``found_at``
    returning a cover by 7; the result is ``(cover, size exhausted)``."""
    g = transitive_tournament(8)
    seven = [([v], list(range(v + 1, 8))) for v in range(7)]
    eight = seven + [([0], [1])]
    return recorded(monkeypatch, biclique_cover, "local_search_cover",
                    lambda deadline, report: biclique_cover._local_descent(
                        g, eight, lower, deadline, report),
                    time_limit, seven, found_at)


def test_with_a_deadline_the_descent_restarts_above_the_lower_bound_until_it(monkeypatch):
    calls, (cover, exhausted), reported, elapsed = _recorded_descent(monkeypatch, 0.3, lower=6)
    assert len(cover) == 8 and exhausted == 7 and reported == [] and 0.3 <= elapsed < 1.0
    first, restarts = calls[0], calls[1:]
    assert first.get("start") and first["iterations"] == biclique_cover.DESCENT_ITERATIONS
    assert len(restarts) >= 3 and all(c["size"] == 7 and not c.get("start") for c in calls[1:])
    assert [c["iterations"] for c in restarts] == [
        biclique_cover.DESCENT_ITERATIONS * 2 ** (i + 1) for i in range(len(restarts))]
    assert [c["rng"] for c in restarts] == [7 + 1000 * (i + 1) for i in range(len(restarts))]
    assert all(c["tries"] == biclique_cover.DESCENT_TRIES for c in calls)


def test_a_restart_that_finds_a_cover_goes_on_below_it(monkeypatch):
    calls, (cover, exhausted), reported, elapsed = _recorded_descent(monkeypatch, 5.0, lower=6,
                                                                     found_at=3)
    assert len(cover) == 7 and exhausted is None and reported == [cover] and elapsed < 1.0
    # the cover by 7 found by the second restart; then 6, the lower bound: no restarts
    assert [c["size"] for c in calls] == [7, 7, 7, 6] and calls[3].get("start")


def test_no_restarts_at_the_lower_bound_nor_without_a_deadline(monkeypatch):
    calls, (cover, exhausted), _, _ = _recorded_descent(monkeypatch, 0.3, lower=7)
    assert len(calls) == 1 and len(cover) == 8 and exhausted is None  # SAT's claim decides
    calls, (cover, exhausted), _, _ = _recorded_descent(monkeypatch, None, lower=6)
    assert len(calls) == 1 and len(cover) == 8 and exhausted is None


def test_a_size_the_deadline_cut_off_before_any_search_is_not_called_exhausted(monkeypatch):
    # the first search (2 ms) finds the cover by 7 past the 1 ms deadline: 6 is never tried,
    # so the quick SAT calls must still try it
    calls, (cover, exhausted), reported, _ = _recorded_descent(monkeypatch, 0.001, lower=5,
                                                               found_at=1)
    assert [c["size"] for c in calls] == [7] and len(cover) == 7 and exhausted is None
    assert reported == [cover]


def test_the_first_restarts_cover_a_real_head_by_b_bicliques():
    """s5_L4_H1 (29 tokens, 559 edges, ``b = 18``) stayed at [18, 19] within 10 s: the
    descent gave up at 18 (8 × 1,000 moves from the cover by 19 less one biclique) while
    the lower bound was 17, and CaDiCaL's claim at 18 takes some 8 s more after the
    refutation of 17. The first batch of restarts (8 × 2,000 moves, seed 18 + 1000) covers
    its kernel by 18. Seeded integer search: the same on every machine."""
    g = AttentionDigraph.read(COPIES / "s5_L4_H1.json")
    kernel = Kernel.of(Trimmed.of(g).digraph, unions=True).digraph   # where the search runs
    cover = local_search_cover(kernel, 18, rng=18 + 1000, tries=biclique_cover.DESCENT_TRIES,
                               iterations=2 * biclique_cover.DESCENT_ITERATIONS)
    assert cover is not None and len(cover) == 18
    HubExtension(cover).validate(kernel)


def test_no_edges_need_no_bicliques():
    assert local_search_cover(AttentionDigraph(4, []), 1) == []


def test_a_past_deadline_gives_up():
    g, _ = random_hub_extension(30, 10, 0.5, rng=3)
    assert local_search_cover(g, 10, deadline=0.0) is None


@pytest.mark.parametrize("k, iterations, tries, error", [
    (0, 10, 1, TheoremError), (3, 0, 1, TheoremError), (1.5, 10, 1, TypeError),
    (True, 10, 1, TypeError), (3, "10", 1, TypeError), (3, 10, 0, TheoremError),
    (3, 10, 2.0, TypeError)])
def test_bad_arguments_are_refused(k, iterations, tries, error):
    with pytest.raises(error, match="k|iterations|tries"):
        local_search_cover(complete_digraph(4), k, iterations=iterations, tries=tries)


def test_a_non_digraph_is_refused():
    with pytest.raises(TypeError, match="AttentionDigraph"):
        local_search_cover(np.ones((3, 3)), 2)


@pytest.mark.parametrize("gap, order", [
    (biclique_cover.EARLY_LP_GAP + 1, ["ascend", "descent", "lp", "bisect", "ascend", "descend"]),
    (biclique_cover.EARLY_LP_GAP, ["ascend", "descent", "bisect", "lp", "ascend", "descend"]),
])
def test_the_lp_bound_comes_before_the_bisecting_calls_where_the_gap_is_wide(
        monkeypatch, gap, order):
    """``b``'s search with its steps recorded: where the local descent leaves its cover more
    than ``EARLY_LP_GAP`` above the lower bound, the LP bound runs before the quick SAT
    calls that bisect from above; otherwise after them, and once either way."""
    g = transitive_tournament(8)                       # lower bound 7 from a fooling set
    events = []

    def step(name, result):
        def run(*args, **kwargs):
            events.append("bisect" if kwargs.get("bisect") else name)
            return result(*args)
        return run

    wide = HubExtension([([0], [7])] * 20)
    monkeypatch.setattr(biclique_cover, "ascend", step(
        "ascend", lambda w, size, lower, cert, claims: (
            wide if events == ["ascend"] else w, lower, cert)))
    monkeypatch.setattr(biclique_cover, "_local_descent", step(
        "descent", lambda digraph, cover, lower, *rest: ([([0], [7])] * (lower + gap), None)))
    monkeypatch.setattr(biclique_cover, "descend", step(
        "descend", lambda w, size, lower, cert, claims: (w, lower, cert)))
    monkeypatch.setattr(biclique_cover, "_fractional_bound", step(
        "lp", lambda digraph, cover, lower, cert, deadline: (lower, cert)))
    biclique_cover._search_biclique_cover(lambda state: None, g, HubExtension(star_cover(g)),
                                          None, "cadical195")
    assert events == order
