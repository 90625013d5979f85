"""The chromatic index: König colorings checked independently and against brute force."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorem.digraphs import AttentionDigraph
from theorem.invariants.edge_coloring import chromatic_index, validate_edge_coloring
from theorem.errors import InvalidColoringError
from theorem.digraphs import complete_bipartite, complete_digraph, transitive_tournament


def brute_force_chromatic_index(g):
    """Least k with a proper edge coloring, by exhaustive backtracking (small digraphs)."""
    edges = [tuple(e) for e in g.edges.tolist()]
    if not edges:
        return 0

    def colorable(k):
        colors = []

        def place(i):
            if i == len(edges):
                return True
            a, b = edges[i]
            for c in range(k):
                if all(not (colors[j] == c and (edges[j][0] == a or edges[j][1] == b))
                       for j in range(i)):
                    colors.append(c)
                    if place(i + 1):
                        return True
                    colors.pop()
            return False

        return place(0)

    return next(k for k in itertools.count(1) if colorable(k))


def test_paper_examples():
    assert chromatic_index(transitive_tournament(3)).value == 2
    r = chromatic_index(complete_bipartite(3, 4))
    assert (r.value, r.lower_bound, r.upper_bound, r.optimal) == (4, 4, 4, True)


def test_every_digraph_on_three_vertices_and_a_sample_on_four():
    pairs = [(a, b) for a in range(4) for b in range(4) if a != b]
    pairs3 = [(a, b) for a, b in pairs if a < 3 and b < 3]
    cases = [AttentionDigraph(3, [e for e, bit in zip(pairs3, bits) if bit])
             for bits in itertools.product((0, 1), repeat=len(pairs3))]
    rng = np.random.default_rng(0)
    cases += [AttentionDigraph(4, [e for e, bit in zip(pairs, rng.random(12) < 0.5) if bit])
              for _ in range(150)]
    for g in cases:
        r = chromatic_index(g)
        assert r.value == brute_force_chromatic_index(g) and r.optimal
        validate_edge_coloring(g, r.witness)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40), density=st.floats(0, 1))
def test_koenig_coloring_is_valid_and_optimal(seed, n, density):
    rng = np.random.default_rng(seed)
    m = (rng.random((n, n)) < density).astype(np.uint8)
    np.fill_diagonal(m, 0)
    g = AttentionDigraph.from_adjacency(m)
    r = chromatic_index(g)
    validate_edge_coloring(g, r.witness)
    assert r.value == max(g.out_degrees.max(initial=0), g.in_degrees.max(initial=0))
    assert r.lower_bound <= r.value <= r.upper_bound
    v, side, deg = (r.certificate.data[k] for k in ("vertex", "side", "degree"))
    if n and g.n_edges:  # the certificate is checkable from the input
        assert (g.out_degrees if side == "out" else g.in_degrees)[v] == deg == r.lower_bound


def test_validator_rejects_bad_colorings():
    g = complete_digraph(3)
    with pytest.raises(InvalidColoringError, match=r"share the source 0"):
        validate_edge_coloring(g, np.zeros(g.n_edges, dtype=int))
    with pytest.raises(InvalidColoringError, match="one integer per edge"):
        validate_edge_coloring(g, [0, 1])
    with pytest.raises(InvalidColoringError, match="share the target"):
        # (0,1) and (2,1) share the target 1; every source is distinct
        validate_edge_coloring(AttentionDigraph(3, [(0, 1), (2, 1)]), [5, 5])


def test_validate_edge_coloring_takes_any_integers():
    g = transitive_tournament(3)                     # edges (0, 1), (0, 2), (1, 2)
    validate_edge_coloring(g, [-1, 0, -1])           # negative colors: no false conflict
    validate_edge_coloring(g, np.array([2 ** 62, 0, 2 ** 62]))    # no overflow
    with pytest.raises(InvalidColoringError, match="share the source 0"):
        validate_edge_coloring(g, np.array([2 ** 62, 2 ** 62, 0]))
    validate_edge_coloring(AttentionDigraph(3), [])  # the empty coloring of no edge
    with pytest.raises(InvalidColoringError, match="one integer per edge"):
        validate_edge_coloring(g, [[0, 1], [2]])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 7), palette=st.integers(1, 6),
       spread=st.sampled_from([1, 10 ** 6, -1]))
def test_validate_edge_coloring_raises_exactly_on_a_conflict(seed, n, palette, spread):
    # spread 1: small colors (ranked by a table), 10**6 or negative: ranked by a sort
    rng = np.random.default_rng(seed)
    g = AttentionDigraph.from_adjacency(np.triu(rng.random((n, n)) < 0.6, 1))
    colors = rng.integers(0, palette, g.n_edges) * spread
    edges = g.edges.tolist()
    clash = any(colors[i] == colors[j] and (edges[i][0] == edges[j][0] or edges[i][1] == edges[j][1])
                for i, j in itertools.combinations(range(len(edges)), 2))
    if clash:
        with pytest.raises(InvalidColoringError, match="both have color"):
            validate_edge_coloring(g, colors)
    else:
        validate_edge_coloring(g, colors)
