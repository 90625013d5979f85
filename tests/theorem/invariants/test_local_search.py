"""The local search for biclique covers: every answer a cover of ``E`` by at most ``k``
bicliques (validated independently), none below ``b`` (proved by the exact solver), the same
search on every call, and the errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorem.digraphs import (
    AttentionDigraph,
    HubExtension,
    complete_digraph,
    random_hub_extension,
    transitive_tournament,
)
from theorem.errors import TheoremError
from theorem.invariants import biclique_cover_number, local_search_cover, star_cover


def random_digraph(seed, n, p):
    gen = np.random.default_rng(seed)
    adjacency = (gen.random((n, n)) < p).astype(np.uint8)
    np.fill_diagonal(adjacency, 0)
    return AttentionDigraph.from_adjacency(adjacency)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 9), st.floats(0.1, 0.9), st.integers(1, 9))
def test_an_answer_is_a_cover_by_at_most_k_bicliques_and_none_below_b(seed, n, p, k):
    g = random_digraph(seed, n, p)
    cover = local_search_cover(g, k, rng=seed, iterations=300)
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


def test_the_same_search_on_every_call():
    g, _ = random_hub_extension(25, 8, 0.5, rng=1)
    first = local_search_cover(g, 8, rng=4)
    assert first is not None and first == local_search_cover(g, 8, rng=4)


def test_no_edges_need_no_bicliques():
    assert local_search_cover(AttentionDigraph(4, []), 1) == []


def test_a_past_deadline_gives_up():
    g, _ = random_hub_extension(30, 10, 0.5, rng=3)
    assert local_search_cover(g, 10, deadline=0.0) is None


@pytest.mark.parametrize("k, iterations, error", [
    (0, 10, TheoremError), (3, 0, TheoremError), (1.5, 10, TypeError), (True, 10, TypeError),
    (3, "10", TypeError)])
def test_bad_arguments_are_refused(k, iterations, error):
    with pytest.raises(error, match="k|iterations"):
        local_search_cover(complete_digraph(4), k, iterations=iterations)


def test_a_non_digraph_is_refused():
    with pytest.raises(TypeError, match="AttentionDigraph"):
        local_search_cover(np.ones((3, 3)), 2)
