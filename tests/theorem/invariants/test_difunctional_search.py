"""The local search for covers by difunctional relations: every answer a colored hub extension
of the digraph with at most ``h`` colors (validated independently, edge by edge and against
the difunctional definition ``R Rᵀ R ⊆ R``), none below ``χ_hub`` (proved by the exact
solver), planted covers found, the same search on every call, and the errors."""

import time
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorem.digraphs import (
    AttentionDigraph,
    HubExtension,
    complete_bipartite,
    complete_digraph,
    directed_cycle,
    transitive_tournament,
)
from theorem.errors import TheoremError
from theorem.invariants import (
    dsatur_colored,
    hub_chromatic,
    hub_chromatic_index,
    local_search_difunctional_cover,
    star_cover,
)

from .test_dense import random_digraph


def planted(seed, n, h):
    """A loopless digraph with a cover by ``h`` planted difunctional relations: relation ``j``
    gives each vertex a random source block and target block (or none) among a few."""
    gen = np.random.default_rng(seed)
    m = np.zeros((n, n), dtype=bool)
    for _ in range(h):
        blocks = gen.integers(2, 6)
        s, t = gen.integers(-1, blocks, n), gen.integers(-1, blocks, n)
        t[t == s] = -1                                     # no loops
        m |= (s[:, None] == t[None, :]) & (s[:, None] >= 0)
    return AttentionDigraph.from_adjacency(m.astype(np.uint8))


def relations(extension, n):
    """The color classes of ``extension`` as boolean ``N × N`` relations."""
    out = {}
    for (a, b), c in zip(extension.hubs, extension.colors):
        r = out.setdefault(c, np.zeros((n, n), dtype=bool))
        r[np.ix_(a, b)] = True
    return list(out.values())


def assert_difunctional_cover(extension, g, h):
    """Independent of the search's own validation: the classes are difunctional
    (``R Rᵀ R ⊆ R``, Boolean products), inside ``E``, their union is ``E``, and there are at
    most ``h``."""
    m = g.adjacency.astype(bool)
    classes = relations(extension, g.n)
    assert len(classes) <= h
    union = np.zeros_like(m)
    for r in classes:
        ri = r.astype(np.int64)
        assert not ((ri @ ri.T @ ri > 0) & ~r).any()
        assert not (r & ~m).any()
        union |= r
    assert (union == m).all()
    extension.validate(g)
    extension.validate_coloring()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 8), st.floats(0.1, 0.9), st.integers(1, 5),
       st.integers(1, 4))
def test_an_answer_is_a_cover_by_at_most_h_relations_and_none_below_chi_hub(seed, n, p, h,
                                                                            tries):
    g = random_digraph(seed, n, p)
    cover = local_search_difunctional_cover(g, h, rng=seed, iterations=200, tries=tries)
    exact = hub_chromatic_index(g)
    assert exact.optimal
    if cover is None:
        return
    assert_difunctional_cover(cover, g, h)
    assert cover.n_colors >= exact.value


@pytest.mark.parametrize("seed", range(4))
def test_it_finds_planted_covers_of_four_relations(seed):
    g = planted(seed, 18, 4)
    cover = local_search_difunctional_cover(g, 4, rng=seed)
    assert cover is not None
    assert_difunctional_cover(cover, g, 4)


@pytest.mark.parametrize("g, chi", [(transitive_tournament(16), 4), (complete_digraph(8), 3),
                                    (complete_bipartite(3, 4), 1), (directed_cycle(5), 1)])
def test_it_reaches_chi_hub_on_families_and_gives_up_below(g, chi):
    cover = local_search_difunctional_cover(g, chi)
    assert cover is not None
    assert_difunctional_cover(cover, g, chi)
    if chi > 1:
        assert local_search_difunctional_cover(g, chi - 1, iterations=300) is None


@pytest.mark.parametrize("tries", [1, 3])
def test_a_cover_given_as_start_is_returned_at_once(tries):
    # only the first search starts from it: the others, from empty relations, cover
    # nothing after one move
    g = random_digraph(5, 12, 0.5)
    start = dsatur_colored(HubExtension(star_cover(g)))
    cover = local_search_difunctional_cover(g, start.n_colors, start=start, iterations=1,
                                            tries=tries)
    assert cover is not None
    assert_difunctional_cover(cover, g, start.n_colors)
    assert sorted(map(sorted, cover.sources)) == sorted(map(sorted, start.sources))


def test_searches_side_by_side_find_what_one_search_does_not():
    # within 200 moves one search from empty relations reaches a planted cover on some seeds
    # only (5 of 8); of 8 searches side by side a first one reaches it on every seed (the
    # search is exact integer arithmetic: the same on every machine)
    found = [[local_search_difunctional_cover(planted(seed, 18, 4), 4, rng=seed,
                                              iterations=200, tries=tries) is not None
              for seed in range(8)] for tries in (1, 8)]
    assert sum(found[0]) < 8
    assert all(found[1])


@pytest.mark.parametrize("tries", [1, 4])
def test_the_same_search_on_every_call(tries):
    g = planted(1, 16, 3)
    first = local_search_difunctional_cover(g, 3, rng=4, tries=tries)
    assert first is not None
    assert first == local_search_difunctional_cover(g, 3, rng=4, tries=tries)


def test_the_jump_below_the_trivial_witness_climbs_by_half_and_keeps_time(monkeypatch):
    """hub_chromatic_index's jump far below a witness of 45 colors with lower bound 4: from
    8 relations up by half again while the search gives up (not half-way to the witness,
    where a dense head's covers are not), each try but the last below the witness with half
    the time left, so that one giving up leaves time to the next."""
    tries = []

    def search(digraph, h, *, rng, deadline):
        tries.append((h, deadline - time.monotonic()))
        return SimpleNamespace(n_colors=h) if h >= found_at else None

    monkeypatch.setattr(hub_chromatic, "local_search_difunctional_cover", search)
    witness = SimpleNamespace(n_colors=45)
    for found_at, sizes in ((11, [8, 12]), (99, [8, 12, 18, 27, 41])):
        tries.clear()
        reported = []
        jumped = hub_chromatic._local_jump(None, witness, 4, time.monotonic() + 100,
                                           reported.append)
        assert [h for h, _ in tries] == sizes
        if found_at < 45:
            assert all(left <= 50 for _, left in tries)
            assert reported == [jumped] and jumped.n_colors == 12
        else:   # the last size below the witness: 41 (the next, 62, is not)
            assert all(left <= 50 for _, left in tries[:-1]) and tries[-1][1] > 90
            assert reported == [] and jumped is witness


def test_no_edges_need_no_relations():
    cover = local_search_difunctional_cover(AttentionDigraph(4, []), 1)
    assert cover.n_hubs == 0


def test_a_past_deadline_gives_up():
    assert local_search_difunctional_cover(planted(2, 18, 4), 4, deadline=0.0) is None


@pytest.mark.parametrize("kwargs, error", [
    (dict(h=0), TheoremError), (dict(h=2.0), TypeError), (dict(h=True), TypeError),
    (dict(h=2, iterations=0), TheoremError),
    (dict(h=2, tries=0), TheoremError),
    (dict(h=2, tries=2.0), TypeError),
    (dict(h=2, start=[([0], [1])]), TypeError),
    (dict(h=2, start=HubExtension([([0], [1])])), TheoremError),
])
def test_bad_arguments_are_refused(kwargs, error):
    with pytest.raises(error):
        local_search_difunctional_cover(transitive_tournament(3), **kwargs)
