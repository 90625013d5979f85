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


# -- bad input: clear errors before anything is allocated --------------------------------------

def _refused_at_once(call, error, match):
    """``call()`` raises ``error`` (message matching ``match``) within a second, having
    allocated less than 16 MB on the way (numpy's allocations are traced too)."""
    import time
    import tracemalloc

    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(error, match=match):
            call()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert time.perf_counter() - start < 1.0
    assert peak < 16 * 2 ** 20


@pytest.mark.parametrize("call,match", [
    (lambda: AttentionDigraph(2 ** 70, [(0, 1)]), r"above the limit of 1048576 \(MAX_VERTICES\)"),
    (lambda: AttentionDigraph(10 ** 12, []), "MAX_VERTICES"),
    (lambda: AttentionDigraph.from_json({"n": 10 ** 12 + 1, "edges": [[0, 1]]}), "MAX_VERTICES"),
    (lambda: AttentionDigraph(100_000, [(0, 1)]).adjacency, r"MAX_DENSE_VERTICES.*9.31 GiB"),
    (lambda: AttentionDigraph(100_000, [(0, 1)]).attention_mask, "MAX_DENSE_VERTICES"),
    (lambda: AttentionDigraph.from_adjacency(np.broadcast_to(np.uint8(0), (10 ** 6, 10 ** 6))),
     "MAX_DENSE_VERTICES"),
    (lambda: transitive_tournament(10 ** 12), "MAX_DENSE_VERTICES"),
    (lambda: complete_digraph(2 ** 70), "MAX_DENSE_VERTICES"),
    (lambda: complete_bipartite(10 ** 6, 10 ** 6), r"a \+ b = 2000000 .*MAX_DENSE_VERTICES"),
    (lambda: sliding_window(8193, 2), "above the limit of 8192"),
    (lambda: directed_cycle(10 ** 12), "MAX_VERTICES"),
])
def test_huge_vertex_counts_are_refused_before_allocating(call, match):
    _refused_at_once(call, VertexError, match)


def test_the_limits_themselves_are_accepted():
    from theorem.digraphs import MAX_DENSE_VERTICES, MAX_VERTICES

    g = AttentionDigraph(MAX_VERTICES, [(0, MAX_VERTICES - 1)])
    assert g.n == MAX_VERTICES and g.out_degrees[0] == 1
    assert AttentionDigraph(MAX_DENSE_VERTICES, [(0, 1)]).adjacency.shape == (8192, 8192)


@pytest.mark.parametrize("text,match", [
    ("0 1\n5 1000000000000\n", r"big.txt:2: vertex 1000000000000 needs .*MAX_VERTICES"),
    ("# n 1000000000000\n0 1\n", r"big.txt:1: .*MAX_VERTICES"),
    ("0 " + "9" * 5000 + "\n", r"big.txt:1: vertex 9999.*MAX_VERTICES"),
    ("0 1\n-1 2\n", r"big.txt:2: vertex -1 is negative"),
    ("# n 3\n0 1\n1 7\n", r"big.txt:3: vertex 7 is not below n = 3"),
])
def test_read_names_the_line_of_a_vertex_out_of_range(tmp_path, text, match):
    (tmp_path / "big.txt").write_text(text)
    _refused_at_once(lambda: AttentionDigraph.read(tmp_path / "big.txt"), VertexError, match)


def test_read_refuses_a_json_vertex_count_above_the_limit(tmp_path):
    (tmp_path / "big.json").write_text('{"n": 1000000000001, "edges": []}')
    _refused_at_once(lambda: AttentionDigraph.read(tmp_path / "big.json"), VertexError,
                     r"big.json: n = 1000000000001 vertices .*MAX_VERTICES")


def test_read_accepts_utf8_with_a_bom_and_utf16_with_one(tmp_path):
    import codecs

    expected = AttentionDigraph(3, [(0, 1), (1, 2)])
    for name, data in [("bom.txt", codecs.BOM_UTF8 + b"0 1\n1 2\n"),
                       ("u16.txt", "0 1\n1 2\n".encode("utf-16")),
                       ("u16be.txt", codecs.BOM_UTF16_BE + "0 1\n1 2\n".encode("utf-16-be")),
                       ("u32.txt", "0 1\n1 2\n".encode("utf-32")),
                       ("bom.json", codecs.BOM_UTF8 + json.dumps(expected.to_json()).encode())]:
        (tmp_path / name).write_bytes(data)
        assert AttentionDigraph.read(tmp_path / name) == expected, name


@pytest.mark.parametrize("name,data,match", [
    ("bin.txt", bytes(range(256)), r"bin.txt: not a text file \(byte 0x80 at offset 128"),
    ("latin.txt", "0 1 # café\n".encode("latin-1"), "latin.txt: not a text file"),
    ("u16.txt", "0 1\n".encode("utf-16-le"), "NUL bytes"),
    ("bin.json", b"\xff\xff\x00\x01", "bin.json: not a text file"),
])
def test_read_refuses_undecodable_bytes(tmp_path, name, data, match):
    (tmp_path / name).write_bytes(data)
    _refused_at_once(lambda: AttentionDigraph.read(tmp_path / name), DigraphFormatError,
                     match + r".*give an edge list 'u v' per line or .json")


@pytest.mark.parametrize("text,match", [
    ("0 \u00b2\n", r"g.txt:1: expected two vertex numbers"),     # isdigit() but not int()
    ("--3 1\n", r"g.txt:1: expected two vertex numbers"),
])
def test_read_takes_ascii_numbers_only(tmp_path, text, match):
    (tmp_path / "g.txt").write_text(text)
    with pytest.raises(DigraphFormatError, match=match):
        AttentionDigraph.read(tmp_path / "g.txt")


@pytest.mark.parametrize("text", ["[" * 100_000, '{"n": ' + "9" * 5000 + ', "edges": []}'])
def test_read_refuses_json_python_cannot_decode(tmp_path, text):
    (tmp_path / "g.json").write_text(text)
    with pytest.raises(DigraphFormatError, match="g.json: not valid JSON"):
        AttentionDigraph.read(tmp_path / "g.json")


@pytest.mark.parametrize("obj,match", [
    ({"n": "3", "edges": []}, "n must be an integer"),
    ({"n": 3.0, "edges": []}, "n must be an integer"),
    ({"n": 3, "edges": [[0, "1"]]}, "edge endpoints must be integers"),
    ({"n": 3, "edges": [], "labels": 5}, "labels must be a sequence"),
])
def test_from_json_reports_wrong_kinds_as_format_errors(obj, match):
    # a JSON file is input: a value of the wrong kind is bad input (exit 2), not a TypeError
    with pytest.raises(DigraphFormatError, match=match):
        AttentionDigraph.from_json(obj)


def test_duplicate_edges_are_dropped_and_counted(tmp_path):
    g = AttentionDigraph(3, [(0, 1), (1, 2), (0, 1), (0, 1)])
    assert g.n_edges == 2 and g.n_duplicate_edges == 2
    assert g == AttentionDigraph(3, [(0, 1), (1, 2)])         # a record, not part of g
    assert AttentionDigraph(3, [(0, 1), (1, 2)]).n_duplicate_edges == 0
    # loops dropped on request are not duplicates; repeated loops neither
    assert AttentionDigraph(3, [(1, 1), (1, 1), (0, 1)], drop_loops=True).n_duplicate_edges == 0
    (tmp_path / "d.txt").write_text("0 1\n0 1\n1 2\n0 1\n")
    assert AttentionDigraph.read(tmp_path / "d.txt").n_duplicate_edges == 2
    (tmp_path / "d.json").write_text('{"n": 3, "edges": [[0, 1], [0, 1]]}')
    assert AttentionDigraph.read(tmp_path / "d.json").n_duplicate_edges == 1
    multi = nx.MultiDiGraph([(0, 1), (0, 1), (1, 2)])
    assert AttentionDigraph.from_networkx(multi).n_duplicate_edges == 1
    with pytest.raises(AttributeError):
        g.n_duplicate_edges = 0                                # read-only


@pytest.mark.parametrize("edges,error,match", [
    ([(0, 1), (2,)], DigraphFormatError, "rows of different lengths"),
    ([(0.0, np.inf)], TypeError, "must be integers"),
    ([(0, 10 ** 20)], VertexError, r"edge 0 is \(0, 100000000000000000000\)"),
    ([(0.0, 1e30)], VertexError, r"edge 0 is \(0, 1000000000000000019884624838656\)"),
    (np.array([[0, 2 ** 64 - 1]], dtype=np.uint64), VertexError, r"\(0, 18446744073709551615\)"),
    ([(0, None)], TypeError, "must be integers, got None"),
    ([(True, False)], TypeError, "must be integers, got dtype bool"),
])
def test_extreme_endpoints_raise_clear_errors(edges, error, match):
    with pytest.raises(error, match=match):
        AttentionDigraph(3, edges)


def test_other_bad_arguments_of_the_digraph_module():
    with pytest.raises(TypeError, match="labels must be a sequence of str"):
        AttentionDigraph(3, [], labels="abc")
    with pytest.raises(DigraphFormatError, match="rows of different lengths"):
        AttentionDigraph.from_adjacency([[0, 1], [0]])
    with pytest.raises(TypeError, match="name must be a family's name"):
        from theorem.digraphs import named_family
        named_family(["cycle"], 3)


@pytest.mark.parametrize("family", [strided, block_local, sliding_window])
def test_families_take_huge_second_parameters(family):
    # a stride, block or window past n changes nothing (and overflows nothing)
    assert family(6, 2 ** 70) == family(6, 6)
