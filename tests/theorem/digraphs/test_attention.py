"""Attention matrices to digraphs: the rules, the direction, dropped tokens and self-attention,
bad input; the null models."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from theorem.digraphs import (
    AttentionDigraph,
    AttentionRule,
    attention_digraph,
    complete_digraph,
    drop_tokens,
    hub_probability,
    kept_keys,
    matched_random_hub,
    random_in_degree_digraph,
)
from theorem.errors import AttentionMatrixError, TheoremError, VertexError

# rows = queries; no two weights of a row equal, no cumulative sum near 0.5 or 0.9
A = np.array([[0.05, 0.60, 0.25, 0.10],
              [0.30, 0.02, 0.08, 0.60],
              [0.15, 0.20, 0.55, 0.10],
              [0.40, 0.35, 0.01, 0.24]])


@pytest.mark.parametrize("rule, kept", [
    # query 0: 0.60 (key 1), then 0.25 (key 2) makes 0.85, then 0.10 (key 3) makes 0.95
    ("top-mass:0.9", {0: {1, 2, 3}, 1: {3, 0, 2}, 2: {2, 1, 0}, 3: {0, 1, 3}}),
    ("top-mass:0.5", {0: {1}, 1: {3}, 2: {2}, 3: {0, 1}}),
    ("top-mass:1", {0: {0, 1, 2, 3}, 1: {0, 1, 2, 3}, 2: {0, 1, 2, 3}, 3: {0, 1, 2, 3}}),
    ("top-k:1", {0: {1}, 1: {3}, 2: {2}, 3: {0}}),
    ("top-k:2", {0: {1, 2}, 1: {3, 0}, 2: {2, 1}, 3: {0, 1}}),
    ("top-k:9", {0: {0, 1, 2, 3}, 1: {0, 1, 2, 3}, 2: {0, 1, 2, 3}, 3: {0, 1, 2, 3}}),
    ("threshold:0.3", {0: {1}, 1: {0, 3}, 2: {2}, 3: {0, 1}}),
    ("threshold:0.7", {0: set(), 1: set(), 2: set(), 3: set()}),
])
def test_rules_on_a_hand_made_matrix(rule, kept):
    mask = kept_keys(A, rule)
    assert {b: set(np.flatnonzero(mask[b]).tolist()) for b in range(4)} == kept
    g = attention_digraph(A, rule=rule)
    # edge (a, b): query b kept key a; b's own key is the dropped, counted loop
    assert set(map(tuple, g.edges.tolist())) == {(a, b) for b in kept for a in kept[b] if a != b}
    assert g.n_dropped_loops == sum(b in kept[b] for b in kept)
    assert np.array_equal(g.attention_mask, mask & ~np.eye(4, dtype=bool))


def test_ties_go_to_the_smaller_key():
    w = np.full((3, 3), 1 / 3)
    assert kept_keys(w, "top-k:1")[:, 0].all()
    assert kept_keys(w, "top-mass:0.5").sum(axis=1).tolist() == [2, 2, 2]
    assert kept_keys(w, "top-mass:0.5")[:, :2].all()


def test_dropped_tokens_leave_and_the_rows_are_renormalized():
    # drop token 1, the heaviest key of query 0: the rest of its row renormalizes to
    # (0.05, 0.25, 0.10) / 0.4 = (0.125, 0.625, 0.25) over tokens (0, 2, 3)
    g = attention_digraph(A, rule="top-mass:0.8", drop=[1], labels=["w", "x", "y", "z"])
    assert g.n == 3 and g.labels == ("w", "y", "z")
    w, kept = drop_tokens(A, [1])
    assert kept.tolist() == [0, 2, 3]
    assert np.allclose(w[0], [0.125, 0.625, 0.25]) and np.allclose(w.sum(axis=1), 1)
    # vertex 0 = token w keeps keys y, z (0.875); vertex 1 = y keeps y, w (0.95/... )
    mask = kept_keys(A, "top-mass:0.8", drop=[1])
    assert np.array_equal(g.attention_mask, mask & ~np.eye(3, dtype=bool))
    assert set(np.flatnonzero(mask[0]).tolist()) == {1, 2}
    # the same drop counted from the end
    assert attention_digraph(A, drop=[-3]) == attention_digraph(A, drop=[1])


def test_a_row_whose_mass_was_all_dropped_keeps_nothing():
    w = np.array([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5], [0.2, 0.3, 0.5]])
    g = attention_digraph(w, drop=[1])   # query 0 only attended to token 1
    assert g.in_degrees[0] == 0
    assert attention_digraph(w, drop=[0, 1, 2]).n == 0


@given(st.integers(1, 9).flatmap(lambda t: arrays(
           np.float64, st.tuples(st.integers(1, 3), st.just(t), st.just(t)),
           elements=st.floats(0.0, 1.0) | st.sampled_from([0.0, 0.1, 0.25, 1.0]))),
       st.floats(0.05, 1.0) | st.sampled_from([0.5, 0.8, 0.9, 1.0]))
def test_top_mass_is_the_shortest_heaviest_prefix_in_exact_arithmetic(raw, tau):
    """Against exact rational sums of the float64 weights: query b keeps the k heaviest keys
    (ties to the smaller index), k the least with a prefix sum ≥ τ, never a key of weight 0.
    Rows within 1e-12 of τ at some prefix are left out (one ulp is the rule's resolution).
    Batched = one matrix at a time."""
    assume((raw.sum(axis=-1) > 0).all())
    w = raw / raw.sum(axis=-1, keepdims=True)
    mask = kept_keys(w, AttentionRule("top-mass", tau))
    for i in range(len(w)):
        assert np.array_equal(mask[i], kept_keys(w[i], AttentionRule("top-mass", tau)))
        for b in range(w.shape[-1]):
            row = w[i, b]
            order = sorted(range(len(row)), key=lambda a: (-row[a], a))
            sums = np.cumsum([Fraction(row[a]) for a in order])
            assume(all(abs(s - Fraction(tau)) > Fraction(1, 10 ** 12) for s in sums))
            reached = [c + 1 for c, s in enumerate(sums) if s >= Fraction(tau)]
            count = min(reached[0] if reached else len(row), int((row > 0).sum()))
            assert sorted(np.flatnonzero(mask[i, b]).tolist()) == sorted(order[:count])


def test_top_mass_is_not_fooled_by_rounding_nor_keeps_zero_weights():
    tenth = np.full((10, 10), 0.1)     # np.cumsum: nine 0.1 make 0.8999999999999999 < 0.9
    assert kept_keys(tenth, "top-mass:0.9").sum(axis=1).tolist() == [9] * 10
    causal = np.tril(np.ones((12, 12)))
    causal /= causal.sum(axis=1, keepdims=True)
    g = attention_digraph(causal, rule="top-mass:1")
    assert (g.edges[:, 0] < g.edges[:, 1]).all() and g.n_edges == 66   # no future key
    # top-k keeps no key of weight 0 either: query 0's mass was all on the dropped token
    g = attention_digraph([[0, 0, 1], [0.5, 0.5, 0], [0.5, 0.5, 0]], rule="top-k:2", drop=[2])
    assert g.edges.tolist() == [[0, 1]] and g.in_degrees[0] == 0
    assert attention_digraph(np.eye(3), rule="top-k:2").n_edges == 0


@pytest.mark.parametrize("weights, message", [
    (np.ones((3, 2)) / 2, "square"),
    (np.ones(3) / 3, "square"),
    (np.array([[0.5, np.nan], [0.5, 0.5]]), "NaN"),
    (np.array([[1.5, -0.5], [0.5, 0.5]]), "negative"),
    (np.array([[0.6, 0.6], [0.5, 0.5]]), r"row \(0,\) sums to 1.2"),
])
def test_bad_matrices_are_refused(weights, message):
    with pytest.raises(AttentionMatrixError, match=message):
        attention_digraph(weights)


@pytest.mark.parametrize("rule, message", [
    ("top-mass:0", r"τ in \(0, 1\]"), ("top-mass:1.5", r"τ in \(0, 1\]"),
    ("top-k:0", "k ≥ 1"), ("top-k:2.5", "k ≥ 1"), ("threshold:0", r"t in \(0, 1\]"),
    ("top-p:0.9", "unknown attention rule 'top-p'"), ("top-mass", "NAME:VALUE"),
    ("top-mass:x", "NAME:VALUE"), ("top-mass:nan", r"τ in \(0, 1\]"),
])
def test_bad_rules_are_refused(rule, message):
    with pytest.raises(AttentionMatrixError, match=message):
        attention_digraph(A, rule=rule)


def test_bad_arguments_have_clear_errors():
    with pytest.raises(AttentionMatrixError, match="drop names token 4"):
        attention_digraph(A, drop=[4])
    with pytest.raises(TypeError, match="drop holds token positions"):
        attention_digraph(A, drop=[1.0])
    with pytest.raises(TypeError, match="drop must be a sequence"):
        attention_digraph(A, drop=1)
    with pytest.raises(AttentionMatrixError, match="3 labels for 4 tokens"):
        attention_digraph(A, labels=["a", "b", "c"])
    with pytest.raises(TypeError, match="rule must be"):
        attention_digraph(A, rule=0.9)
    with pytest.raises(TypeError, match="rectangular array of real numbers"):
        attention_digraph([["a", "b"], ["c", "d"]])
    with pytest.raises(TypeError, match="rectangular array of real numbers"):
        attention_digraph([[1.0], [0.5, 0.5]])
    with pytest.raises(TypeError, match="rectangular array of real numbers"):
        attention_digraph(np.eye(2) + 0j)
    with pytest.raises(AttentionMatrixError, match="atol must be a finite number"):
        attention_digraph(A, atol=float("nan"))
    with pytest.raises(TypeError, match="atol must be a real number"):
        attention_digraph(A, atol="x")
    assert attention_digraph(np.zeros((0, 3, 3)) + 1 / 3).shape == (0,)


def test_batched_over_layers_and_heads():
    rng = np.random.default_rng(0)
    w = rng.random((2, 3, 5, 5))
    w /= w.sum(axis=-1, keepdims=True)
    graphs = attention_digraph(w, rule="top-k:2", drop=[0])
    assert graphs.shape == (2, 3)
    for layer in range(2):
        for head in range(3):
            assert graphs[layer, head] == attention_digraph(w[layer, head], rule="top-k:2",
                                                            drop=[0])


def test_in_degree_null_model_keeps_in_degrees_and_randomizes_sources():
    g = attention_digraph(A, rule="top-mass:0.9")
    samples = [random_in_degree_digraph(g, rng=seed) for seed in range(40)]
    for null in samples:
        assert np.array_equal(null.in_degrees, g.in_degrees) and null.n == g.n
    assert len({s.edges.tobytes() for s in samples}) > 1
    # every source is equally likely: over many samples of a vertex of in-degree 1 in
    # K_1 + isolated vertices, each other vertex is drawn (a loop never)
    star = AttentionDigraph(5, [(1, 0)])
    drawn = {random_in_degree_digraph(star, rng=s).edges[0, 0] for s in range(200)}
    assert drawn == {1, 2, 3, 4}


def test_matched_random_hub_has_the_density_in_expectation():
    p = hub_probability(0.6, 32)
    assert abs(1 - (1 - p * p / 4) ** 32 - 0.6) < 1e-12
    assert hub_probability(1.0, 3) == 1.0 and hub_probability(0.0, 3) == 0.0
    assert hub_probability(0.999, 2) == 1.0      # above 1 − (3/4)^2: capped
    densities = [matched_random_hub(complete_digraph(30), 32, rng=s)[0].n_edges / 870
                 for s in range(5)]
    assert min(densities) > 0.95
    with pytest.raises(VertexError, match="at least one hub"):
        hub_probability(0.5, 0)
    with pytest.raises(TheoremError, match="density"):
        hub_probability(1.5, 3)
    with pytest.raises(TheoremError, match="at least 2 vertices"):
        matched_random_hub(AttentionDigraph(1), 3)
