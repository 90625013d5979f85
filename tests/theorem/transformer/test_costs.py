"""The cost table: each construction's size against the invariants it should have, its
verification, the time limit, and the dynamics of the constructed heads."""

import time

import numpy as np
import pytest
from hypothesis import given, settings

from theorem.digraphs import (AttentionDigraph, complete_bipartite, complete_digraph,
                              transitive_tournament)
from theorem.errors import TheoremError
from theorem.transformer import attention_heads, factored_head, head_costs, head_dynamics

from .helpers import ATTENTION, digraphs, edge_hubs, star_hubs


@pytest.mark.parametrize("g, hub, bilinear, rank", [
    (transitive_tournament(3), 2, 2, 2),            # the paper's first example
    (complete_bipartite(3, 4), 1, 4, 1),            # the second: 1 hub function, 4 bilinear
])
def test_the_paper_examples_cost_what_the_paper_says(g, hub, bilinear, rank):
    costs = head_costs(g, time_limit=60)
    assert (costs.hub_heads.n_heads, len(costs.bilinear_ranks), costs.one_head.key_dims) \
        == (hub, bilinear, (rank,))
    assert costs.verified and costs.optimal
    data = costs.to_json()
    assert {"hub_heads", "bilinear_heads", "universal_rank", "token_heads"} <= set(data)
    assert data["hub_heads"]["verified"] == {"token_set": True, "continuum": True}
    assert data["bilinear_heads"]["parameters"] == bilinear * g.n ** 2
    assert data["universal_rank"]["rank"] == data["universal_rank"]["real_rank"] == rank


def test_a_real_attention_digraph_has_its_invariants_as_head_counts():
    g = AttentionDigraph.read(ATTENTION / "s0_L3_H0.json")
    costs = head_costs(g, time_limit=120)
    # against references computed here, not by head_costs
    ext = costs.hub_heads.extension
    ext.validate(g)                                        # a valid colored hub extension
    assert costs.hub_heads.n_heads == len(set(ext.colors))
    assert sum(costs.hub_heads.key_dims) == ext.n_hubs
    assert costs.hub_heads.n_heads <= len(costs.bilinear_ranks)          # χ_hub ≤ χ'
    assert len(costs.bilinear_ranks) == max(g.out_degrees.max(), g.in_degrees.max())
    assert sum(costs.bilinear_ranks) == g.n_edges
    assert costs.one_head.key_dims == (np.linalg.matrix_rank(g.adjacency.astype(float)),)
    assert costs.verified


def test_the_time_limit_holds_when_the_continuum_check_would_take_longer():
    g = AttentionDigraph.read(ATTENTION / "s5_L2_H0.json")     # 29 tokens: about 15 s to verify
    start = time.monotonic()
    costs = head_costs(g, time_limit=3)
    assert time.monotonic() - start < 3 + 1.5
    assert costs.hub_functions_report is None and not costs.verified
    assert costs.hub_heads_report.passed and costs.bilinear_report.paper_passed


def test_the_time_limit_holds_on_a_large_easy_digraph():
    g = transitive_tournament(96)              # 95 bilinear weights of 96 × 96
    start = time.monotonic()
    costs = head_costs(g, time_limit=4)
    assert time.monotonic() - start < 4 + 1.5
    assert not costs.verified and len(costs.bilinear_ranks) == 95


@pytest.mark.parametrize("d", [None, 2])
def test_two_tokens_are_covered_on_the_circle_too(d):
    costs = head_costs(complete_digraph(2), d=d, time_limit=30)
    assert costs.verified and costs.d == (3 if d is None else 2)


def test_bad_time_limits_are_refused():
    with pytest.raises(TheoremError, match="time_limit"):
        head_costs(transitive_tournament(3), time_limit=0)
    with pytest.raises(TheoremError, match="needs a time_limit"):
        head_costs(transitive_tournament(3), time_limit=None)


@settings(max_examples=15, deadline=None)
@given(digraphs)
def test_each_token_first_moves_toward_the_tokens_it_attends_to(g):
    for heads in (attention_heads(g, star_hubs(g), g.n, idle_to_self=True),
                  attention_heads(g, edge_hubs(g), g.n),
                  factored_head(g, g.n + 1, rng=1)):
        result = head_dynamics(heads, 12.0, t_final=0.05, dt=0.01, noise=1e-4, rng=0)
        assert result.report().passed, result.report()


def test_idle_to_self_leaves_only_the_leak_toward_tokens_not_attended():
    g = AttentionDigraph.read(ATTENTION / "s3_L4_H0.json")
    beta = 12.0
    heads = attention_heads(g, edge_hubs(g), g.n, idle_to_self=True)
    result = head_dynamics(heads, beta, t_final=0.02, dt=0.01, noise=0.0)
    leak = heads.n_heads * (g.n - 1) / (np.exp(beta) + g.n - 1)
    assert result.pull[result.others].max() <= leak
    assert result.pull[result.attended].min() > 100 * leak
    plain_heads = attention_heads(g, edge_hubs(g), g.n)
    plain = head_dynamics(plain_heads, beta, t_final=0.02, dt=0.01, noise=0.0)
    # a query idle in a head spreads it uniformly: 1/N toward every token, attended or not
    idle = np.array([[not (c[:, 1] == b).any() for c in plain_heads.claims] for b in range(g.n)])
    uniform = np.broadcast_to(idle.sum(axis=1)[:, None] / g.n, plain.pull.shape)
    others = plain.others
    assert (plain.pull[others] >= uniform[others] - 1e-12).all()
    assert (plain.pull[others] <= uniform[others] + leak).all()
    assert plain.report().passed
