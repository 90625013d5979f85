"""Hub extensions: axiom 1, colorings, Lemma 2.1, JSON, the random hub model."""

import gc
import itertools
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorem.digraphs import AttentionDigraph
from theorem.errors import InvalidColoringError, InvalidHubExtensionError, TheoremError, VertexError
from theorem.digraphs import complete_bipartite, transitive_tournament
from theorem.digraphs import HubExtension, random_hub_extension


def test_paper_examples_have_valid_extensions():
    HubExtension([({0}, {1, 2}), ({1}, {2})]).validate(transitive_tournament(3))
    HubExtension([({0, 1, 2}, {3, 4, 5, 6})]).validate(complete_bipartite(3, 4))


@pytest.mark.parametrize("hubs,match", [
    ([({0}, {1, 2})], r"edge \(1, 2\) is covered by no hub"),
    ([({0, 1}, {1, 2})], r"covers \(1, 1\), which is not an edge \(a loop\)"),
    ([({0}, {1, 2}), ({1}, {2}), ({2}, {0})], r"hub 2 covers \(2, 0\), which is not an edge"),
    ([({0}, {1, 2}), ({1}, {2}), ({1}, set())], "hub 2 has an empty target side"),
])
def test_invalid_extensions_name_the_problem(hubs, match):
    with pytest.raises(InvalidHubExtensionError, match=match):
        HubExtension(hubs).validate(transitive_tournament(3))


def test_out_of_range_and_types():
    with pytest.raises(VertexError, match="hub 0 has target vertex 5"):
        HubExtension([({0}, {5})]).validate(transitive_tournament(3))
    with pytest.raises(TypeError):
        HubExtension([({0}, {"a"})])
    with pytest.raises(TypeError):
        HubExtension([{0}])
    with pytest.raises(TypeError):
        HubExtension([({0}, {1})]).validate("not a digraph")


def test_coloring_validation_names_hubs_and_vertex():
    ext = HubExtension([({0}, {1, 2}), ({1}, {2})])
    ext.validate_coloring([0, 1])
    with pytest.raises(InvalidColoringError, match="hubs 0 and 1 both have color 3 and share the target 2"):
        ext.validate_coloring([3, 3])
    with pytest.raises(InvalidColoringError, match="one color per hub"):
        ext.with_colors([0])
    with pytest.raises(InvalidColoringError, match="non-negative"):
        ext.with_colors([0, -1])
    with pytest.raises(InvalidColoringError):  # validate() checks the colors too
        HubExtension(ext.hubs, colors=[0, 0]).validate(transitive_tournament(3))


def test_conflict_graph_against_pairwise_definition():
    rng = np.random.default_rng(3)
    _, ext = random_hub_extension(12, 8, 0.35, rng=rng)
    m = ext.conflict_matrix()
    for p, q in itertools.combinations(range(ext.n_hubs), 2):
        share = bool(ext.sources[p] & ext.sources[q] or ext.targets[p] & ext.targets[q])
        assert m[p, q] == m[q, p] == share
    assert set(ext.conflict_graph().edges) == {(p, q) for p, q in zip(*np.nonzero(np.triu(m)))}


def test_lemma_2_1_round_trip_through_the_extended_digraph():
    g, ext = random_hub_extension(15, 6, 0.4, rng=2)
    extended = ext.extended_digraph(g.n)
    assert extended.n == g.n + ext.n_hubs
    # in the extended digraph, a → b is an edge of g iff there is a path a → hub → b
    m = extended.adjacency.astype(int)
    two_step = (m @ m)[: g.n, : g.n] > 0
    assert np.array_equal(two_step, g.adjacency.astype(bool))
    assert HubExtension.from_extended_digraph(extended, g.n) == ext
    assert HubExtension.from_biclique_cover(ext.bicliques()) == ext
    with pytest.raises(InvalidHubExtensionError, match="does not join"):
        HubExtension.from_extended_digraph(AttentionDigraph(3, [(0, 1)]), 2)


def test_json_round_trip():
    ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    assert HubExtension.from_json(ext.to_json()) == ext
    assert HubExtension.from_json('{"hubs": [[[0], [1]]], "colors": null}') == HubExtension([({0}, {1})])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 25), hubs=st.integers(0, 10),
       p=st.floats(0, 1))
def test_random_model_plants_a_valid_extension(seed, n, hubs, p):
    g, ext = random_hub_extension(n, hubs, p, rng=seed)
    ext.validate(g)
    assert ext.n_hubs <= hubs
    assert all(a and b for a, b in zip(ext.sources, ext.targets))


def test_random_model_density():
    # each pair is an edge with probability 1 − (1 − p²/4)^n exactly (p/2 into a hub, p/2 out
    # of it, hubs independent); one draw's density varies by 4.4% (the hubs' sizes vary: 1 seed
    # in 5 misses by more than 5%), so average 16 draws: sd 1.1%, and 5% is 4 sd
    expected = 1 - (1 - 0.3**2 / 4) ** 10
    density = np.mean([random_hub_extension(400, 10, 0.3, rng=seed)[0].n_edges / (400 * 399)
                       for seed in range(16)])
    assert density == pytest.approx(expected, rel=0.05)


# -- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("call,error,match", [
    (lambda: HubExtension(None), TypeError, "hubs must be a list of"),
    (lambda: HubExtension([(0, {1})]), TypeError, "hub 0: its sources must be a collection"),
    (lambda: HubExtension([({0}, {1})]).incidence(-1), VertexError, "non-negative"),
    (lambda: HubExtension([({0}, {1})]).incidence(10 ** 12), VertexError, "MAX_VERTICES"),
    (lambda: HubExtension([({0}, {1})]).extended_digraph(None), TypeError, "n must be an integer"),
    # vertex 5 would be read back as a hub: refused, not a silently different digraph
    (lambda: HubExtension([({0}, {5})]).extended_digraph(3), VertexError, "hub 0 has vertex 5"),
    (lambda: HubExtension.from_extended_digraph([(0, 3)], 3), TypeError, "AttentionDigraph"),
    (lambda: HubExtension.from_extended_digraph(AttentionDigraph(3, [(0, 2)]), 10),
     VertexError, "has only 3"),
])
def test_hub_extension_bad_arguments(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_coloring_checks_take_any_integers():
    # keys (color, vertex) are built from ranks: huge colors neither overflow nor collide
    ext = HubExtension([({0}, {1}), ({0}, {2})])
    ext.validate_coloring([2 ** 62, 2 ** 62 + 1])
    with pytest.raises(InvalidColoringError, match=f"color {10 ** 30} and share the source 0"):
        ext.validate_coloring([10 ** 30, 10 ** 30])
    HubExtension([({-1}, {1}), ({2}, {3})]).validate_coloring([1, 0])   # no false conflict


def test_trimmed_maps_refuse_hubs_of_another_digraph():
    from theorem.digraphs import Trimmed

    t = Trimmed.of(AttentionDigraph(6, [(1, 4)]))
    with pytest.raises(TypeError, match="AttentionDigraph"):
        Trimmed.of(None)
    with pytest.raises(TypeError, match="HubExtension"):
        t.extension([([0], [1])])
    with pytest.raises(VertexError, match="hub 0 has vertex 7"):          # was an IndexError
        t.extension(HubExtension([([0], [7])]))
    with pytest.raises(VertexError, match="hub 0 has vertex 0"):          # was a wrong map
        t.restrict(HubExtension([([0], [4])]))


@pytest.mark.parametrize("args,error,match", [
    ((10 ** 12, 3, 0.5), VertexError, "MAX_DENSE_VERTICES"),
    ((10, 10 ** 12, 0.5), VertexError, r"n_hubs · n = 1000000000000 · 10"),
    ((0, 10 ** 12, 0.5), VertexError, "n_hubs · n"),
    ((10, 3, 0.5, -1), TheoremError, "rng = -1 is a negative seed"),
    ((10, 3, 0.5, True), TypeError, "not bool"),
])
def test_random_model_refuses_huge_sizes_and_negative_seeds(args, error, match):
    import time

    start = time.perf_counter()
    with pytest.raises(error, match=match):
        random_hub_extension(*args)
    assert time.perf_counter() - start < 1.0


@settings(max_examples=60, deadline=None)
@given(hubs=st.lists(st.tuples(st.frozensets(st.integers(0, 6), min_size=1, max_size=3),
                               st.frozensets(st.integers(0, 6), min_size=1, max_size=3),
                               st.integers(0, 2)), min_size=1, max_size=6))
def test_validate_coloring_raises_exactly_when_two_hubs_of_one_color_share_a_vertex(hubs):
    ext = HubExtension([(a, b) for a, b, _ in hubs], [c for *_, c in hubs])
    clash = [(p, q) for p, q in itertools.combinations(range(len(hubs)), 2)
             if hubs[p][2] == hubs[q][2] and (hubs[p][0] & hubs[q][0] or hubs[p][1] & hubs[q][1])]
    if not clash:
        ext.validate_coloring()
        return
    with pytest.raises(InvalidColoringError) as caught:
        ext.validate_coloring()
    p, q = map(int, caught.value.args[0].split(" both")[0].removeprefix("hubs ").split(" and "))
    assert (p, q) in clash


def test_a_passed_validation_is_remembered_for_that_digraph_object_only():
    g = transitive_tournament(3)
    ext = HubExtension([({0}, {1, 2}), ({1}, {2})])
    ext.validate(g)
    ext.validate(g)                                       # remembered: passes again
    lacking = AttentionDigraph(3, [(0, 1), (0, 2)])       # no edge (1, 2): hub 1 is extra
    with pytest.raises(InvalidHubExtensionError, match=r"hub 1 covers \(1, 2\)"):
        ext.validate(lacking)
    with pytest.raises(InvalidHubExtensionError):         # a failed check is not remembered
        ext.validate(lacking)
    ext.validate(transitive_tournament(3))                # an equal digraph: checked anew
    # the memory holds digraphs weakly: it keeps none alive
    ref = weakref.ref(g)
    del g
    gc.collect()
    assert ref() is None
