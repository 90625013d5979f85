"""The kernel: b and χ_hub unchanged (brute force on every digraph with 4 vertices), a
rectangle of E, nothing reducible left (checked row by row), covers extended back (validated
on the original, colors kept), UNSAT certificates on a kernel re-proved, and bad input."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorem.digraphs import AttentionDigraph, HubExtension, Kernel, rectangle
from theorem.digraphs import kernel as kernel_module
from theorem.errors import VertexError
from theorem.invariants import (
    Certificate,
    biclique_cover_number,
    check_unsat_certificate,
    hub_chromatic_index,
    star_cover,
)

from tests.theorem.invariants.test_dense import random_digraph
from tests.theorem.invariants.test_invariants import (
    brute_b,
    brute_hub,
    digraphs_up_to_isomorphism,
)


def kept_block(g, k):
    """``M[sources, targets]`` of the kernel, from the original's adjacency."""
    return g.adjacency.astype(bool)[np.ix_(k.sources, k.targets)]


def test_every_digraph_on_four_vertices_keeps_its_invariants_on_its_kernel():
    reduced = 0
    for g in digraphs_up_to_isomorphism(4):
        unions, twins = Kernel.of(g, unions=True), Kernel.of(g, unions=False)
        reduced += not unions.identity
        assert brute_b(unions.digraph) == brute_b(g)
        assert brute_hub(twins.digraph) == brute_hub(g)
    assert reduced > 100          # the reduction is not vacuous on this family


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 9), p=st.floats(0.1, 0.95),
       unions=st.booleans())
def test_the_kernel_is_a_rectangle_of_e_with_nothing_left_to_remove(seed, n, p, unions):
    g = random_digraph(seed, n, p)
    k = Kernel.of(g, unions=unions)
    m = g.adjacency.astype(bool)
    inside = np.zeros_like(m)
    inside[np.ix_(k.sources, k.targets)] = True
    assert (k.digraph.adjacency.astype(bool) == (m & inside)).all()
    for _, removed, generators in k.steps:       # each removed row made of rows kept then
        assert set(np.concatenate(list(generators) or [[]]).tolist()).isdisjoint(removed.tolist())
    for block in (kept_block(g, k), kept_block(g, k).T):      # rows, then columns
        for i, row in enumerate(block):
            assert row.any()
            others = np.delete(block, i, axis=0)
            assert not (others == row).all(axis=1).any()
            if unions:
                contained = others[(others <= row).all(axis=1)]
                assert not (contained.any(axis=0) == row).all()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 9), p=st.floats(0.1, 0.95),
       unions=st.booleans())
def test_covers_of_the_kernel_extend_to_covers_of_the_digraph(seed, n, p, unions):
    g = random_digraph(seed, n, p)
    k = Kernel.of(g, unions=unions)
    stars = star_cover(k.digraph)
    for ext in (HubExtension(stars, range(len(stars))),               # colored apart
                hub_chromatic_index(k.digraph).witness,
                biclique_cover_number(k.digraph).witness):                # uncolored
        back = k.extension(ext)
        assert back.n_hubs == ext.n_hubs and back.colors == ext.colors
        # a cover always; with duplicates only, a valid coloring too (twins join their
        # twin's hubs); a union joins hubs of its rows, which may share a color
        (HubExtension(back.hubs) if unions else back).validate(g)
    restricted = k.restrict(k.extension(HubExtension(stars)))
    restricted.validate(k.digraph)
    assert restricted.n_hubs <= len(stars)


def test_a_kernel_cut_short_by_its_deadline_is_a_valid_kernel_too():
    # vertex 4 has no edge; N⁺(1) = N⁺(0) ∪ N⁺(3), then columns 0 and 1 agree
    g = AttentionDigraph(5, [(0, 3), (1, 2), (1, 3), (2, 0), (2, 1), (3, 2)])
    whole, cut = Kernel.of(g, unions=True), Kernel.of(g, unions=True, deadline=0.0)
    assert [side for side, _, _ in whole.steps] == [0, 1, 0, 1]
    assert [side for side, _, _ in cut.steps] == [0, 1]       # the empty row and column
    for k in (whole, cut):
        assert brute_b(k.digraph) == brute_b(g)
        k.extension(biclique_cover_number(k.digraph).witness).validate(g)


def test_colors_survive_on_twins_and_not_unions():
    # sources 0 and 1 are twins (both → {3}); 2's row {3, 4} is no union of them
    g = AttentionDigraph(5, [(0, 3), (1, 3), (2, 3), (2, 4)])
    k = Kernel.of(g, unions=False)
    assert k.sources.tolist() == [0, 2]
    back = k.extension(HubExtension([([0, 2], [3]), ([2], [4])], [0, 1]))
    assert back.hubs == [([0, 1, 2], [3]), ([2], [4])] and back.colors == (0, 1)
    back.validate(g)
    back.validate_coloring()


def test_unions_are_left_alone_on_large_digraphs(monkeypatch):
    # row 2 = row 0 ∪ row 1 (no duplicates anywhere)
    g = AttentionDigraph(6, [(0, 3), (1, 4), (2, 3), (2, 4), (3, 5), (4, 0), (5, 1)])
    assert Kernel.of(g, unions=True).sources.tolist() == [0, 1, 3, 4, 5]
    monkeypatch.setattr(kernel_module, "MAX_UNION_VERTICES", 5)
    kept = Kernel.of(g, unions=True)
    assert kept.sources.tolist() == [0, 1, 2, 3, 4, 5]
    assert kept.targets.tolist() == [0, 1, 3, 4, 5]          # column 2 is empty


def test_an_unsat_certificate_found_on_a_kernel_is_proved_again_on_its_rectangle():
    # a random digraph whose kernel drops rows and whose b no fooling set reaches (one in
    # fifty of this size and density; the search is deterministic without a time limit)
    g = random_digraph(98, 7, 0.5)
    r = biclique_cover_number(g)
    assert r.certificate.kind == "unsat"
    data = r.certificate.data
    assert not Kernel.of(g, unions=True).identity
    assert data["sources"] == Kernel.of(g, unions=True).sources.tolist()
    assert "kernel" in r.certificate.statement and r.optimal
    assert check_unsat_certificate(g, r).valid
    # the claim is about the rectangle: on the whole digraph it is the same claim
    assert brute_b(rectangle(g, data["sources"], data["targets"])) == data["k"] + 1
    # a smaller rectangle than the one refuted: the claim is false there, and caught
    fewer = replace(r, certificate=Certificate(
        "unsat", r.certificate.statement, {**data, "targets": data["targets"][:1],
                                           "fooling_set": []}))
    assert not check_unsat_certificate(g, fewer).valid
    outside = replace(r, certificate=Certificate(
        "unsat", r.certificate.statement, {**data, "sources": [0, g.n]}))
    with pytest.raises(VertexError, match="sources hold a vertex outside"):
        check_unsat_certificate(g, outside)


def test_rectangle_refuses_vertices_outside_the_digraph():
    g = AttentionDigraph(3, [(0, 1), (1, 2)])
    assert rectangle(g, [0, 1], [2]).edges.tolist() == [[1, 2]]
    assert rectangle(g, [], []).n_edges == 0
    with pytest.raises(VertexError, match="sources hold a vertex outside 0..2"):
        rectangle(g, [0, 3], [1])
    with pytest.raises(VertexError, match="targets"):
        rectangle(g, [0], [-1])
    with pytest.raises(TypeError, match="sources must be vertex numbers"):
        rectangle(g, [0.5], [1])
    with pytest.raises(TypeError):
        Kernel.of("not a digraph", unions=True)


def test_a_repeat_of_a_union_is_made_of_rows_that_stay():
    # rows 2 and 3 are both N⁺ = {4, 5} = N⁺(0) ∪ N⁺(1): both go, both made of rows 0 and 1
    g = AttentionDigraph(6, [(0, 4), (1, 5), (2, 4), (2, 5), (3, 4), (3, 5)])
    k = Kernel.of(g, unions=True)
    side, removed, generators = k.steps[2]      # after the empty row and column rounds
    assert side == 0 and removed.tolist() == [2, 3]
    assert [gen.tolist() for gen in generators] == [[0, 1], [0, 1]]
    k.extension(HubExtension([([0], [4]), ([1], [5])])).validate(g)
