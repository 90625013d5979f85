"""Attention heads on the token set: logits against the hubs counted by hand, ε(β) against
its closed form, the factored head against the real rank, and bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorem.digraphs import (AttentionDigraph, HubExtension, complete_bipartite,
                              transitive_tournament)
from theorem.errors import HeadError, InvalidColoringError, InvalidHubExtensionError
from theorem.invariants import biclique_cover_number, dsatur_colored, real_rank
from theorem.transformer import (AttentionHeads, attention_heads, factored_head,
                                 orthonormal_tokens, verify_attention_heads)

from .helpers import ATTENTION, digraphs, edge_hubs, star_hubs

TT3_HUBS = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])


def counted_logits(extension, n):
    """``[j, b, a]``: hubs of the j-th color with ``a`` a source and ``b`` a target, counted."""
    colors = sorted(set(extension.colors))
    out = np.zeros((len(colors), n, n))
    for (a_side, b_side), c in zip(extension.hubs, extension.colors):
        for a in a_side:
            for b in b_side:
                out[colors.index(c), b, a] += 1
    return out


def closed_form_epsilon(extension, n, beta):
    """The worst ``(N − k)/(k e^β + N − k)`` over heads and targeted queries (``k``: the
    sources of the one hub of that color targeting the query)."""
    worst = 0.0
    for a_side, b_side in extension.hubs:
        k = len(a_side)
        worst = max(worst, (n - k) / (k * np.exp(beta) + n - k))
    return worst


@settings(max_examples=40, deadline=None)
@given(digraphs, st.sampled_from(["edges", "stars", "fewest hubs"]), st.booleans())
def test_logits_are_the_counted_hubs_and_the_heads_attend_along_exactly_e(g, kind, random_frame):
    ext = {"edges": edge_hubs, "stars": star_hubs,
           "fewest hubs": lambda g: dsatur_colored(biclique_cover_number(g).witness)}[kind](g)
    heads = attention_heads(g, ext, g.n + 1, rng=3 if random_frame else None)
    counted = counted_logits(ext, g.n)
    assert heads.n_heads == ext.n_colors and heads.d == g.n + 1
    assert np.abs(heads.logits() - counted).max(initial=0.0) < 1e-12
    assert counted.max(initial=0) <= 1                     # a valid coloring: m_j ≤ 1
    union = counted.sum(axis=0).T > 0
    assert (union == g.adjacency.astype(bool)).all()
    result = verify_attention_heads(heads, betas=(0.0, 3.0, 30.0))
    assert result.passed, result.report
    for beta, eps in zip(result.betas, result.epsilon):
        assert eps == pytest.approx(closed_form_epsilon(ext, g.n, beta), rel=1e-9, abs=1e-300)


def test_tokens_are_orthonormal_and_the_key_dimensions_are_the_hubs_per_color():
    x = orthonormal_tokens(5, 9, rng=1)
    assert np.abs(x @ x.T - np.eye(5)).max() < 1e-14
    g = transitive_tournament(5)
    ext = dsatur_colored(biclique_cover_number(g).witness)
    heads = attention_heads(g, ext, 7)
    per_color = [sum(1 for c in ext.colors if c == color) for color in sorted(set(ext.colors))]
    assert heads.key_dims == tuple(per_color)
    assert heads.n_parameters == 2 * 7 * ext.n_hubs


@settings(max_examples=30, deadline=None)
@given(digraphs)
def test_the_factored_head_has_key_dimension_rank_r_and_logits_m(g):
    heads = factored_head(g, g.n, rng=0)
    assert heads.key_dims == (real_rank(g),)
    assert heads.key_dims[0] == np.linalg.matrix_rank(g.adjacency.astype(float))
    assert np.abs(heads.logits()[0] - g.adjacency.T).max(initial=0.0) < 1e-9
    assert verify_attention_heads(heads).passed


def test_one_head_realizes_a_biclique_that_needs_four_bilinear_weights():
    heads = factored_head(complete_bipartite(3, 4), 7)
    assert heads.key_dims == (1,) and verify_attention_heads(heads).passed


def test_idle_queries_attend_to_themselves_and_feel_no_force():
    g = transitive_tournament(3)
    heads = attention_heads(g, TT3_HUBS, 3, idle_to_self=True)
    assert heads.key_dims == (2, 3)                         # 1 hub + 1 idle, 1 hub + 2 idle
    logits = np.rint(heads.logits()).astype(int)
    assert logits[0].tolist() == [[1, 0, 0], [1, 0, 0], [1, 0, 0]]
    assert logits[1].tolist() == [[1, 0, 0], [0, 1, 0], [0, 1, 0]]
    assert verify_attention_heads(heads).passed
    beta = 10.0
    pull = heads.self_attention(beta)(heads.tokens[None])[0] @ heads.tokens.T
    leak = (g.n - 1) / (np.exp(beta) + g.n - 1)
    assert pull[0, 1] <= 2 * leak and pull[0, 2] <= 2 * leak      # 0 attends to nothing
    plain = attention_heads(g, TT3_HUBS, 3)
    pull = plain.self_attention(beta)(plain.tokens[None])[0] @ plain.tokens.T
    assert pull[0, 1] == pytest.approx(2 / 3)               # two uniform rows: 1/3 each


def test_self_attention_velocity_at_the_tokens_is_the_summed_attention():
    g = AttentionDigraph.read(ATTENTION / "s0_L3_H0.json")
    heads = attention_heads(g, edge_hubs(g), g.n + 2, rng=5)
    beta = 3.0
    velocity = heads.self_attention(beta)(heads.tokens[None])[0]
    pull = velocity @ heads.tokens.T
    expected = heads.attention(beta).sum(axis=0)
    off = ~np.eye(g.n, dtype=bool)
    assert np.abs(pull - expected)[off].max() < 1e-12
    assert np.abs(np.einsum("bd,bd->b", velocity, heads.tokens)).max() < 1e-12   # tangent


def test_tampered_heads_fail_verification():
    heads = attention_heads(transitive_tournament(3), TT3_HUBS, 3)
    halved = AttentionHeads(heads.digraph, heads.tokens, (0.5 * heads.keys[0], heads.keys[1]),
                            heads.queries, heads.values, heads.claims, "halved")
    failed = [c.name for c in verify_attention_heads(halved).report.failures()]
    assert "head 0: logits = indicator of its 2 edges" in failed
    assert "the heads' supports together are E" in failed
    dropped = AttentionHeads(heads.digraph, heads.tokens, heads.keys[:1], heads.queries[:1],
                             heads.values[:1], heads.claims[:1], "one head short")
    failed = [c.name for c in verify_attention_heads(dropped).report.failures()]
    assert failed == ["heads claim every edge", "the heads' supports together are E"]


def test_bad_input_is_refused_with_the_reason():
    g = transitive_tournament(3)
    with pytest.raises(HeadError, match="d = 2 is below the number of vertices N = 3"):
        attention_heads(g, TT3_HUBS, 2)
    with pytest.raises(HeadError, match="give d ≥ 3"):
        factored_head(g, 2)
    with pytest.raises(InvalidColoringError, match="needs a colored hub extension"):
        attention_heads(g, TT3_HUBS.with_colors(None), 3)
    with pytest.raises(InvalidColoringError, match="share the target 2"):
        attention_heads(g, TT3_HUBS.with_colors([0, 0]), 3)
    with pytest.raises(InvalidHubExtensionError, match="covered by no hub"):
        attention_heads(g, HubExtension([({0}, {1, 2})], colors=[0]), 3)
    with pytest.raises(InvalidHubExtensionError, match="not an edge"):
        attention_heads(transitive_tournament(3).__class__(3, [(0, 1), (0, 2)]), TT3_HUBS, 3)
    with pytest.raises(TypeError, match="extension must be a HubExtension"):
        attention_heads(g, [({0}, {1})], 3)
    with pytest.raises(TypeError):
        attention_heads(g, TT3_HUBS, 3.5)
    with pytest.raises(TypeError, match="heads must be AttentionHeads"):
        verify_attention_heads("heads")
    with pytest.raises(ValueError, match="beta"):
        verify_attention_heads(factored_head(g, 3), betas=(-1.0,))


def test_heads_that_claim_a_non_edge_or_miss_a_claim_are_refused():
    heads = attention_heads(transitive_tournament(3), TT3_HUBS, 3)
    with pytest.raises(HeadError, match="2 keys, 2 queries, 2 values and 3 claims"):
        AttentionHeads(heads.digraph, heads.tokens, heads.keys, heads.queries, heads.values,
                       (*heads.claims, np.array([[0, 1]])), "one claim too many")
    g = AttentionDigraph(3, [(0, 1), (0, 2)])
    wrong = AttentionHeads(g, heads.tokens, heads.keys[:1], heads.queries[:1], heads.values[:1],
                           (np.array([[0, 1], [1, 2]]),), "claims (1, 2)")
    failed = [c.name for c in verify_attention_heads(wrong).report.failures()]
    assert failed[0] == "head 0 claims only edges"


def test_epsilon_is_checked_without_overflow_at_large_beta():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = verify_attention_heads(factored_head(transitive_tournament(3), 3),
                                        betas=(700.0, 720.0, 745.0, 800.0))
    assert result.passed, result.report
