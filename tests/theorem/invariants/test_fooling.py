"""Fooling sets: validity on every input, the local search against greedy and brute force."""

import itertools

import networkx as nx
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from theorem.digraphs import complete_bipartite, directed_cycle, transitive_tournament
from theorem.invariants import fooling_set, is_fooling_set
from theorem.digraphs import random_hub_extension

from .test_invariants import brute_b, digraphs_up_to_isomorphism


def largest_fooling(g):
    """The largest fooling set: a maximum clique (networkx, exact) of the graph joining
    pairwise fooling edges."""
    edges = [tuple(e) for e in g.edges.tolist()]
    graph = nx.Graph()
    graph.add_nodes_from(edges)
    graph.add_edges_from((e, f) for e, f in itertools.combinations(edges, 2)
                         if is_fooling_set(g, [e, f]))
    return len(nx.max_weight_clique(graph, weight=None)[0])


def test_is_fooling_set_rejects_compatible_edges_and_non_edges():
    t3 = transitive_tournament(3)
    assert is_fooling_set(t3, [(0, 1), (1, 2)])
    assert not is_fooling_set(t3, [(0, 1), (0, 2)])      # both in ({0}, {1, 2})
    assert not is_fooling_set(t3, [(1, 0)])              # not an edge
    assert len(fooling_set(complete_bipartite(3, 4))) == 1
    assert len(fooling_set(directed_cycle(7))) == 7


def test_small_digraphs_reach_the_largest_fooling_set():
    for g in digraphs_up_to_isomorphism(4):
        f = fooling_set(g)
        assert is_fooling_set(g, f)
        assert len(f) == largest_fooling(g) <= brute_b(g)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 14), hubs=st.integers(1, 8),
       p=st.floats(0.2, 0.9))
def test_local_search_keeps_a_fooling_set_and_never_loses_to_greedy(seed, n, hubs, p):
    g, planted = random_hub_extension(n, hubs, p, rng=seed)
    greedy = fooling_set(g, iterations=0)
    searched = fooling_set(g, iterations=200)
    assert is_fooling_set(g, greedy) and is_fooling_set(g, searched)
    assert len(greedy) <= len(searched) <= planted.n_hubs
    assert np.array_equal(searched, fooling_set(g, iterations=200))      # deterministic


def test_local_search_beats_greedy_in_the_hard_regime():
    g, _ = random_hub_extension(40, 20, 0.5, rng=0)
    greedy = fooling_set(g, iterations=0)
    searched = fooling_set(g, patience=3000)
    assert is_fooling_set(g, searched)
    assert len(greedy) == 12 and len(searched) >= 16


def test_checks_of_fooling_sets_and_sequences_take_any_pairs():
    import pytest

    from theorem.digraphs import AttentionDigraph
    from theorem.errors import TheoremError
    from theorem.invariants import is_transitive_sequence, transitive_sequence

    g = AttentionDigraph(10 ** 6, [(0, 1), (5, 10 ** 6 - 1)])    # built without N × N
    assert is_fooling_set(g, [(0, 1), (5, 10 ** 6 - 1)])
    assert not is_fooling_set(g, [(0, 10 ** 30)])                # out of range: not an edge
    assert not is_fooling_set(g, [(0, -1)])                      # not wrapped around
    with pytest.raises(TypeError, match="integer vertices"):
        is_fooling_set(g, [(0.5, 1)])
    assert is_transitive_sequence(g, [0, 1]) and not is_transitive_sequence(g, [1, 0])
    with pytest.raises(TypeError, match="integer vertices, got 'a'"):
        is_transitive_sequence(g, ["a"])
    for function in (fooling_set, transitive_sequence):
        with pytest.raises(TheoremError, match="rng = -1 is a negative seed"):
            function(transitive_tournament(4), rng=-1)
