"""Attention digraphs: construction, direction, I/O, named families, bad input."""

import json

import networkx as nx
import numpy as np
import pytest

from theorem.digraphs import AttentionDigraph
from theorem.errors import DigraphFormatError, SelfLoopError, VertexError
from theorem.digraphs import (
    block_local,
    complete_bipartite,
    complete_digraph,
    directed_cycle,
    sliding_window,
    strided,
    transitive_tournament,
)


def test_direction_matches_attention_mask():
    # query 2 attends to key 0: the edge is (0, 2), and A[2, 0] = 1
    mask = np.zeros((3, 3), dtype=int)
    mask[2, 0] = 1
    g = AttentionDigraph.from_attention_mask(mask)
    assert g.edges.tolist() == [[0, 2]]
    assert g.adjacency[0, 2] == 1 and np.array_equal(g.attention_mask, mask)


def test_causal_mask_with_diagonal_is_the_transitive_tournament():
    causal = np.tril(np.ones((5, 5), dtype=int))
    with pytest.raises(SelfLoopError, match="drop_loops=True"):
        AttentionDigraph.from_attention_mask(causal)
    assert AttentionDigraph.from_attention_mask(causal, drop_loops=True) == transitive_tournament(5)


def test_duplicates_merge_and_edges_are_sorted():
    g = AttentionDigraph(4, [(3, 1), (0, 2), (3, 1)])
    assert g.edges.tolist() == [[0, 2], [3, 1]] and g.n_edges == 2
    assert not g.edges.flags.writeable


@pytest.mark.parametrize("edges,error,match", [
    ([(0, 0)], SelfLoopError, r"edge \(0, 0\) is a loop"),
    ([(0, 3)], VertexError, r"edge 0 is \(0, 3\), but vertices are 0..2"),
    ([(0, -1)], VertexError, "vertices are 0..2"),
    ([(0, 1, 2)], DigraphFormatError, "shape"),
])
def test_bad_edges(edges, error, match):
    with pytest.raises(error, match=match):
        AttentionDigraph(3, edges)


def test_bad_types_and_labels():
    with pytest.raises(TypeError):
        AttentionDigraph(3, [(0.5, 1)])
    with pytest.raises(TypeError):
        AttentionDigraph("3", [])
    with pytest.raises(VertexError, match="2 labels for 3 vertices"):
        AttentionDigraph(3, [], labels=["a", "b"])
    with pytest.raises(DigraphFormatError, match="only 0 and 1"):
        AttentionDigraph.from_adjacency([[0, 2], [0, 0]])


def test_networkx_round_trip():
    g = AttentionDigraph(4, [(0, 1), (2, 3), (3, 0)], labels=list("abcd"))
    h = g.to_networkx()
    assert set(h.edges) == {(0, 1), (2, 3), (3, 0)} and h.nodes[2]["label"] == "c"
    back = AttentionDigraph.from_networkx(nx.relabel_nodes(h, dict(enumerate("abcd"))))
    assert back == g
    with pytest.raises(TypeError):
        AttentionDigraph.from_networkx(nx.Graph())


def test_file_round_trips(tmp_path):
    g = AttentionDigraph(6, [(0, 5), (4, 1), (2, 3)])
    for name in ("g.txt", "g.json"):
        g.write(tmp_path / name)
        assert AttentionDigraph.read(tmp_path / name) == g
    # hand-written edge list: comments, blank lines, vertex count from '# n'
    (tmp_path / "h.txt").write_text("# my graph\n# n 7\n\n0 1  # first\n1 2\n")
    h = AttentionDigraph.read(tmp_path / "h.txt")
    assert h.n == 7 and h.edges.tolist() == [[0, 1], [1, 2]]
    (tmp_path / "bad.txt").write_text("0 1\n1 x\n")
    with pytest.raises(DigraphFormatError, match="bad.txt:2"):
        AttentionDigraph.read(tmp_path / "bad.txt")
    (tmp_path / "bad.json").write_text(json.dumps({"edges": []}))
    with pytest.raises(DigraphFormatError, match='"n"'):
        AttentionDigraph.read(tmp_path / "bad.json")


def _edge_set(g):
    return set(map(tuple, g.edges.tolist()))


def test_families_against_their_definitions():
    n = 9
    pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
    assert _edge_set(complete_digraph(n)) == set(pairs)
    assert _edge_set(transitive_tournament(n)) == {(a, b) for a, b in pairs if a < b}
    assert _edge_set(directed_cycle(n)) == {(i, (i + 1) % n) for i in range(n)}
    assert _edge_set(sliding_window(n, 3)) == {(a, b) for a, b in pairs if 0 < b - a < 3}
    assert _edge_set(strided(n, 3)) == {(a, b) for a, b in pairs if a < b and (b - a) % 3 == 0}
    assert _edge_set(block_local(n, 4)) == {(a, b) for a, b in pairs if a // 4 == b // 4}
    assert _edge_set(complete_bipartite(3, 4)) == {(a, b) for a in range(3) for b in range(3, 7)}
    assert sliding_window(n, n) == transitive_tournament(n)
    with pytest.raises(VertexError):
        directed_cycle(1)
    with pytest.raises(TypeError):
        strided(5, 1.5)
