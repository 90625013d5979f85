"""The study's summaries and the invariant profile, on digraphs made here (no model needed):
medians of bounds, the ratio χ'/χ_hub as an interval, and "χ' ≥ 2χ_hub" proved or refuted."""

import dataclasses

import numpy as np
import pytest

from theorem.digraphs import (
    AttentionRule,
    complete_bipartite,
    complete_digraph,
    directed_cycle,
    transitive_tournament,
)
from theorem.invariants import (
    biclique_cover_number,
    chromatic_index,
    hub_chromatic_index,
    invariant_profile,
    real_rank,
)
from theorem.models import AttentionStudy, HeadRecord, ratio_bounds

DIGRAPHS = [complete_bipartite(3, 4), transitive_tournament(5), directed_cycle(6),
            complete_digraph(5)]


@pytest.mark.parametrize("g", DIGRAPHS, ids=lambda g: repr(g))
def test_profile_is_the_four_invariants(g):
    p = invariant_profile(g, time_limit=30)
    assert p.optimal and (p.tokens, p.edges) == (g.n, g.n_edges)
    assert p.biclique_cover.value == biclique_cover_number(g).value
    assert p.hub_chromatic.value == hub_chromatic_index(g).value
    assert p.chromatic.value == chromatic_index(g).value == max(g.out_degrees.max(),
                                                                g.in_degrees.max())
    assert p.real_rank == real_rank(g) == np.linalg.matrix_rank(g.adjacency.astype(float))
    report = p.to_json()
    assert report["b"] == p.biclique_cover.summary() and report["optimal"] is True


def _bounded(profile, lower, upper):
    """``profile`` with χ_hub's bounds replaced (an unproved result, as a time limit gives)."""
    hub = dataclasses.replace(profile.hub_chromatic, lower_bound=lower, upper_bound=upper,
                              value=upper, optimal=lower == upper)
    return dataclasses.replace(profile, hub_chromatic=hub)


def test_ratio_bounds_and_the_twice_test():
    k34 = invariant_profile(complete_bipartite(3, 4))         # χ' = 4, χ_hub = 1
    assert ratio_bounds(k34) == (4.0, 4.0)
    open_ = _bounded(k34, 1, 3)                               # χ_hub in [1, 3]: ratio in [4/3, 4]
    assert ratio_bounds(open_) == (4 / 3, 4.0)
    empty = invariant_profile(complete_digraph(1))
    assert all(np.isnan(ratio_bounds(empty)))
    records = [HeadRecord(0, 0, 0, complete_bipartite(3, 4), k34, {"in_degree": ()}),
               HeadRecord(1, 0, 0, complete_bipartite(3, 4), open_, {"in_degree": ()}),
               HeadRecord(2, 0, 0, complete_bipartite(3, 4), _bounded(k34, 3, 3),
                          {"in_degree": ()})]
    study = AttentionStudy("made here", AttentionRule.parse("top-k:2"), True, 32, (0,), (0,),
                           ("a", "b", "c"), tuple(records), 1.0)
    summary = study.per_head()[0, 0]["real"]
    # χ' = 4 against χ_hub 1 (proved twice), [1, 3] (open), 3 (refuted: 4 < 2·3)
    assert summary["ratio_at_least_2"] == {"proved": 1 / 3, "refuted": 1 / 3}
    # medians of the lower ends (4, 4/3, 4/3) and of the upper ends (4, 4, 4/3)
    assert summary["ratio"] == [4 / 3, 4.0]
    assert summary["chi_hub"] == {"median": [1.0, 3.0], "proved": 2 / 3}
    assert summary["b"] == {"median": [1.0, 1.0], "proved": 1.0}
    assert summary["one_hub"] == 1.0 and summary["b_above_head_dim"] == {"proved": 0,
                                                                         "possible": 0}
    assert not study.optimal and set(study.overall()) == {"real"}
    report = study.to_json()
    assert report["per_head"][0]["layer"] == 0 and len(report["records"]) == 3
