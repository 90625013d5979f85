"""Bilinear weights ⟨x, W y⟩ on S^{d−1} × S^{d−1}: their maxima against a planted spectrum,
the matching property on every input, the K = I cover against König and against the
matching bound, and the embeddings where χ' weights are not enough."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorem.digraphs import AttentionDigraph, complete_bipartite, complete_digraph
from theorem.errors import HeadError, InvalidColoringError
from theorem.invariants import chromatic_index, hub_chromatic_index
from theorem.transformer import (BilinearCover, bilinear_density_cover, bilinear_maxima,
                                 bilinear_weight, orthonormal_tokens, realized_pairs,
                                 verify_bilinear_cover)

from .helpers import ATTENTION, digraphs


def orthogonal(gen, d):
    q, r = np.linalg.qr(gen.standard_normal((d, d)))
    return q * np.sign(np.diag(r))


def is_matching(pairs):
    return len(set(pairs[:, 0])) == len(pairs) == len(set(pairs[:, 1]))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 16), st.integers(2, 6), st.integers(1, 3))
def test_maxima_are_the_planted_top_singular_pairs(seed, d, multiplicity):
    """W = U diag(s) Vᵀ with a planted top value of multiplicity m and gaps ≥ 0.1 below it:
    every maximum found has value s_1, lies in the planted top spaces, has m − 1 flat
    directions, and the maxima pair x and y isometrically."""
    gen = np.random.default_rng(seed)
    m = min(multiplicity, d)
    rest = np.sort(gen.uniform(0.0, 0.9, d - m))[::-1]
    s = np.concatenate([np.ones(m), rest]) * gen.uniform(0.5, 3.0)
    u, v = orthogonal(gen, d), orthogonal(gen, d)
    w = u @ np.diag(s) @ v.T
    maxima = bilinear_maxima(w, rng=seed, starts=16)
    assert maxima.converged == 16
    assert np.abs(maxima.value - s[0]).max() < 1e-9 * s[0]
    assert maxima.is_local_max.all()
    assert (maxima.flat_dims == m - 1).all()
    assert maxima.strict.all() == (m == 1)
    top_u, top_v = u[:, :m], v[:, :m]
    assert np.abs(np.linalg.norm(maxima.x @ top_u, axis=1) - 1).max() < 1e-9
    assert np.abs(np.linalg.norm(maxima.y @ top_v, axis=1) - 1).max() < 1e-9
    assert maxima.pairs_injectively
    if m == 1:
        assert len(maxima.x) == 2                          # ±(u_1, v_1)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2 ** 16), st.integers(2, 6), st.integers(2, 8),
       st.sampled_from(["matching", "matching plus edges", "shared source", "gaussian"]),
       st.booleans())
def test_realized_pairs_always_form_a_matching(seed, d, n, kind, orthonormal):
    """Every kind of W, on orthonormal or random unit points. "matching" plants a partial
    isometry through ≥ 1 pairs (all realized); the others add edges sharing sources or
    targets, where the pairs of largest value at the vertices tie but are not maxima."""
    gen = np.random.default_rng(seed)
    if orthonormal:
        n = min(n, d)
        points = orthonormal_tokens(n, d, rng=seed)
    else:
        points = gen.standard_normal((n, d))
        points /= np.linalg.norm(points, axis=1, keepdims=True)
    perm = gen.permutation(n)
    planted = np.stack([np.arange(n), perm], axis=1)
    planted = planted[planted[:, 0] != planted[:, 1]][: max(1, n // 2)]    # loopless
    if len(planted) == 0:
        planted = np.array([[0, 1]])
    if kind == "gaussian":
        w = gen.standard_normal((d, d))
    elif kind == "matching" and orthonormal:
        w = bilinear_weight(planted, points)
    else:
        count = gen.integers(1, 2 * n)
        sources = np.zeros(count, int) if kind == "shared source" else gen.integers(0, n, count)
        w = sum(np.outer(points[a], points[b]) for a, b in zip(sources, gen.integers(0, n, count)))
        if kind == "matching plus edges":
            w = w + sum(np.outer(points[a], points[b]) for a, b in planted)
    if np.linalg.norm(w) == 0:
        return
    pairs = realized_pairs(w, points)
    assert is_matching(pairs)
    norm = np.linalg.norm(w, 2)
    for a, b in pairs:                                  # each one a maximum: value ‖W‖₂
        assert points[a] @ w @ points[b] == pytest.approx(norm, rel=1e-9)
    if kind == "matching" and orthonormal:
        assert sorted(map(tuple, pairs.tolist())) == sorted(map(tuple, planted.tolist()))


def test_antipodal_points_give_one_weight_two_strict_maxima():
    """Off orthonormal tokens maxima can be strict and two: ±(u_1, v_1) (module docs)."""
    points = np.array([[1.0, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0]])
    w = np.outer(points[0], points[1])
    assert realized_pairs(w, points).tolist() == [[0, 1], [2, 3]]
    maxima = bilinear_maxima(w, rng=0, starts=8)
    assert len(maxima.x) == 2 and maxima.strict.all()


def test_a_partial_permutation_realizes_exactly_its_matching():
    points = orthonormal_tokens(5, 6, rng=2)
    w = bilinear_weight([(0, 3), (4, 1), (2, 0)], points)
    assert realized_pairs(w, points).tolist() == [[0, 3], [2, 0], [4, 1]]
    assert np.linalg.norm(w, 2) == pytest.approx(1.0, rel=1e-12)


def test_two_in_edges_of_one_target_are_rejected():
    g = AttentionDigraph(3, [(0, 2), (1, 2)])
    points = np.eye(3)
    with pytest.raises(InvalidColoringError, match="share the target 2"):
        bilinear_weight(g.edges, points)
    w = np.outer(points[0] + points[1], points[2])     # one weight claimed for both
    cover = BilinearCover(g, points, (w,), (g.edges,), "one weight for two in-edges")
    report = verify_bilinear_cover(cover, rng=0)
    assert not report.paper_passed and report.edges_verified == 0
    failed = {c.name for c in report.failures()}
    assert "edge (0, 2): maximum of β_0 (value = ‖W_0‖₂)" in failed
    assert "edge (0, 2): no sampled perturbation increases β_0" in failed
    assert realized_pairs(w, points).tolist() == []      # the maximum is between the tokens


@settings(max_examples=25, deadline=None)
@given(digraphs, st.booleans())
def test_the_k_equals_i_cover_has_chi_prime_weights_and_the_paper_strength(g, random_frame):
    cover = bilinear_density_cover(g, g.n + 1, rng=7 if random_frame else None)
    degrees = max(g.out_degrees.max(initial=0), g.in_degrees.max(initial=0))
    assert cover.n_weights == degrees                                   # König: χ' = Δ
    assert sum(cover.ranks) == g.n_edges
    report = verify_bilinear_cover(cover, rng=0)
    assert report.paper_passed and report.rank_passed, report
    assert report.edges_verified == g.n_edges
    # exact only where each weight has one edge: the others' maxima are flat
    flat = {f"maxima of β_{j} strict (simple top singular value)"
            for j, r in enumerate(cover.ranks) if r >= 2}
    assert {c.name for c in report.exact.failures()} == flat
    assert report.exact_passed == (not flat)
    for w, claims in zip(cover.matrices, cover.claims):
        assert sorted(map(tuple, realized_pairs(w, cover.points).tolist())) \
            == sorted(map(tuple, claims.tolist()))


def test_a_real_attention_digraph_is_covered_by_chi_prime_bilinear_weights():
    g = AttentionDigraph.read(ATTENTION / "s1_L1_H0.json")
    cover = bilinear_density_cover(g, g.n)
    assert cover.n_weights == max(g.out_degrees.max(), g.in_degrees.max())
    report = verify_bilinear_cover(cover, rng=1)
    assert report.paper_passed and report.rank_passed and not report.exact_passed


def test_complete_bipartite_needs_four_bilinear_weights_where_one_hub_function_suffices():
    g = complete_bipartite(3, 4)
    assert hub_chromatic_index(g).value == 1
    cover = bilinear_density_cover(g, 7)
    assert cover.n_weights == 4 and verify_bilinear_cover(cover, rng=0).paper_passed
    # no fewer: each weight realizes a matching, and K_{3,4} has none above 3 edges
    bip = nx.Graph([(("a", a), ("b", b)) for a, b in g.edges.tolist()])
    largest = len(nx.max_weight_matching(bip, maxcardinality=True))
    assert largest == 3 and -(-g.n_edges // largest) == 4


def test_tampered_covers_fail_their_checks():
    g = complete_digraph(4)
    cover = bilinear_density_cover(g, 4)
    doubled = BilinearCover(g, cover.points, (2 * cover.matrices[0], *cover.matrices[1:]),
                            cover.claims)
    failed = {c.name for c in verify_bilinear_cover(doubled, rng=0).exact.failures()}
    assert {"β_0 at vertex pairs = indicator of its edges",
            "|β_0| ≤ ‖W_0‖₂ ≤ 1 everywhere"} <= failed
    short = BilinearCover(g, cover.points, cover.matrices[:-1], cover.claims[:-1])
    report = verify_bilinear_cover(short, rng=0)
    assert [c.name for c in report.paper.failures()] == ["weights claim every edge"]
    with pytest.raises(HeadError, match="2 weights but 3 claims"):
        BilinearCover(g, cover.points, cover.matrices[:-1], cover.claims)
    one_edge = AttentionDigraph(3, [(0, 1)])
    claims = np.array([[0, 1], [1, 2]])                  # (1, 2) is not an edge
    foreign = BilinearCover(one_edge, np.eye(3), (bilinear_weight(claims, np.eye(3)),), (claims,))
    report = verify_bilinear_cover(foreign, rng=0)
    assert "weight 0 claims only edges" in {c.name for c in report.paper.failures()}
    assert report.edges_verified == 1


def test_on_a_generic_embedding_chi_prime_bilinear_weights_are_not_enough():
    """A matching of two edges has χ' = 1, but on points whose inner products differ no one
    bilinear weight realizes both: the maxima map the targets isometrically onto the
    sources, and ⟨α(0), α(2)⟩ = 0.6 ≠ 0 = ⟨α(1), α(3)⟩."""
    g = AttentionDigraph(4, [(0, 1), (2, 3)])
    assert chromatic_index(g).value == 1
    points = np.array([[1.0, 0, 0], [0, 1, 0], [0.6, 0.8, 0], [0, 0, 1]])
    with pytest.raises(HeadError, match="cannot share a bilinear weight"):
        bilinear_weight(g.edges, points)
    for edge in g.edges:
        w = bilinear_weight([edge], points)
        assert tuple(edge) in set(map(tuple, realized_pairs(w, points).tolist()))
    # on orthonormal points the same two edges share one weight
    assert realized_pairs(bilinear_weight(g.edges, np.eye(4)), np.eye(4)).tolist() == [[0, 1], [2, 3]]
    # a 2-cycle shares one weight on any points: ⟨α(0), α(1)⟩ = ⟨α(1), α(0)⟩
    w = bilinear_weight([(0, 1), (1, 0)], points)
    assert realized_pairs(w, points).tolist() == [[0, 1], [1, 0]]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 16))
def test_compatible_gram_matrices_give_a_weight_through_both_edges(seed):
    """The converse: points with equal inner products across the two edges (an isometry
    applied to the targets) share one weight, off an orthonormal embedding."""
    gen = np.random.default_rng(seed)
    a = gen.standard_normal((2, 5))
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b = a @ np.linalg.qr(gen.standard_normal((5, 5)))[0]      # same Gram matrix
    points = np.array([a[0], b[0], a[1], b[1]])
    w = bilinear_weight([(0, 1), (2, 3)], points)
    assert {(0, 1), (2, 3)} <= set(map(tuple, realized_pairs(w, points).tolist()))


def test_bad_input_is_refused_with_the_reason():
    with pytest.raises(HeadError, match="W is zero"):
        bilinear_maxima(np.zeros((3, 3)))
    with pytest.raises(HeadError, match="square"):
        bilinear_maxima(np.ones((2, 3)))
    with pytest.raises(HeadError, match="NaN"):
        bilinear_maxima(np.full((2, 2), np.nan))
    with pytest.raises(TypeError, match="real matrix"):
        bilinear_maxima([["a", "b"], ["c", "d"]])
    with pytest.raises(HeadError, match="unit vectors"):
        realized_pairs(np.eye(2), [[1.0, 1.0]])
    with pytest.raises(HeadError, match="loop"):
        bilinear_weight([(1, 1)], np.eye(3))
    with pytest.raises(HeadError, match="outside 0..2"):
        bilinear_weight([(0, 3)], np.eye(3))
    with pytest.raises(HeadError, match="no edges"):
        bilinear_weight(np.zeros((0, 2), int), np.eye(3))
    with pytest.raises(HeadError, match="d ≥ 4"):
        bilinear_density_cover(complete_digraph(4), 3)
    with pytest.raises(TypeError, match="BilinearCover"):
        verify_bilinear_cover("cover")
