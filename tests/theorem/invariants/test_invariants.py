"""b and χ_hub: the paper's examples, brute force on every digraph with ≤ 4 vertices (up to
isomorphism), UNSAT claims re-checked by a second solver, properties on random inputs."""

import itertools
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from theorem.digraphs import AttentionDigraph
from theorem.invariants.edge_coloring import chromatic_index
from theorem.digraphs import (
    block_local,
    complete_bipartite,
    complete_digraph,
    transitive_tournament,
)
from theorem.digraphs import HubExtension, random_hub_extension
from theorem.invariants.fractional_cover import weighted_fooling_bound
from theorem.invariants.greedy import greedy_cover, star_cover
from theorem.invariants import (
    biclique_cover_number,
    hub_chromatic_index,
    is_fooling_set,
    is_transitive_sequence,
    real_rank,
    sperner_number,
    transitive_sequence,
)
from theorem.sat import biclique_cover_cnf
from theorem.sat import Claims
from theorem.invariants.results import Certificate, InvariantResult


# -- independent references ------------------------------------------------------------------
def _min_cover(universe, candidates):
    """Least number of candidate sets whose union is ``universe`` (exhaustive)."""
    if not universe:
        return 0
    for k in itertools.count(1):
        if any(frozenset().union(*combo) == universe
               for combo in itertools.combinations(candidates, k)):
            return k


def _maximal(sets):
    return [s for s in sets if not any(s < t for t in sets)]


def brute_b(g):
    m, n = g.adjacency.astype(bool), g.n
    subsets = [s for r in range(1, n + 1) for s in itertools.combinations(range(n), r)]
    bicliques = {frozenset((a, b) for a in A for b in B)
                 for A in subsets for B in subsets if m[np.ix_(A, B)].all()}
    return _min_cover(frozenset(map(tuple, g.edges.tolist())), _maximal(list(bicliques)))


def is_difunctional(relation):
    r = set(relation)
    return all((a, d) in r for (a, b) in r for (c, bb) in r if bb == b for (cc, d) in r if cc == c)


def brute_hub(g):
    edges = list(map(tuple, g.edges.tolist()))
    relations = [frozenset(s) for r in range(1, len(edges) + 1)
                 for s in itertools.combinations(edges, r) if is_difunctional(s)]
    return _min_cover(frozenset(edges), _maximal(relations))


def path_cover_cnf(g, h):
    """Reference encoding, from the definition ``R Rᵀ R ⊆ R``: every path ``(a, b), (a', b),
    (a', b')`` inside a class closes with ``(a, b')`` in that class (or the class cannot hold
    the path, when ``(a, b')`` is no edge)."""
    edges = [tuple(e) for e in g.edges.tolist()]
    var = {(e, c): 1 + i * h + c for i, e in enumerate(edges) for c in range(h)}
    sources, targets = {}, {}
    for a, b in edges:
        sources.setdefault(b, []).append(a)
        targets.setdefault(a, []).append(b)
    clauses = [[var[e, c] for c in range(h)] for e in edges]
    for a2, b in edges:
        for a in sources[b]:
            for b2 in targets[a2]:
                if a == a2 or b2 == b:
                    continue
                for c in range(h):
                    clause = [-var[(a, b), c], -var[(a2, b), c], -var[(a2, b2), c]]
                    if ((a, b2), c) in var:
                        clause.append(var[(a, b2), c])
                    clauses.append(clause)
    return clauses


@lru_cache(maxsize=None)
def digraphs_up_to_isomorphism(n):
    pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
    perms = list(itertools.permutations(range(n)))
    seen, out = set(), []
    for bits in itertools.product((0, 1), repeat=len(pairs)):
        edges = frozenset(p for p, bit in zip(pairs, bits) if bit)
        canon = min(tuple(sorted((s[a], s[b]) for a, b in edges)) for s in perms)
        if canon not in seen:
            seen.add(canon)
            out.append(AttentionDigraph(n, sorted(edges)))
    return out


def test_there_are_218_digraphs_on_four_vertices():
    assert len(digraphs_up_to_isomorphism(4)) == 218


def _second_solver_agrees_unsat(g, result):
    """Re-encode 'one less than the value' and refute it with Glucose 4 (for χ_hub on the
    reference encoding of :func:`path_cover_cnf`, not the library's)."""
    if result.value == 0 or result.certificate.kind not in ("unsat", "transitive-sequence",
                                                            "skew-sequence"):
        return
    if result.name == "biclique_cover_number":
        clauses, _ = biclique_cover_cnf(g, result.value - 1)
    else:
        clauses = path_cover_cnf(g, result.value - 1)
    with Solver(name="glucose4", bootstrap_with=clauses) as s:
        assert s.solve() is False


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_every_small_digraph_against_brute_force(n):
    for g in digraphs_up_to_isomorphism(n):
        b, h, c = biclique_cover_number(g), hub_chromatic_index(g), chromatic_index(g)
        assert b.optimal and h.optimal and c.optimal
        assert b.value == brute_b(g), g.edges.tolist()
        assert h.value == brute_hub(g), g.edges.tolist()
        b.witness.validate(g)
        h.witness.validate(g)
        assert h.witness.n_colors == h.value and b.witness.n_hubs == b.value
        assert h.value <= c.value
        _second_solver_agrees_unsat(g, b)
        _second_solver_agrees_unsat(g, h)


def test_paper_examples():
    t3 = transitive_tournament(3)
    assert (biclique_cover_number(t3).value, hub_chromatic_index(t3).value,
            chromatic_index(t3).value) == (2, 2, 2)
    k34 = complete_bipartite(3, 4)
    assert (biclique_cover_number(k34).value, hub_chromatic_index(k34).value,
            chromatic_index(k34).value) == (1, 1, 4)


def test_complete_digraphs_meet_the_sperner_number():
    assert [sperner_number(m) for m in (1, 2, 3, 4, 6, 7, 10, 11, 20, 21, 35)] == \
        [0, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7]
    for n in range(3, 10):
        r = biclique_cover_number(complete_digraph(n), time_limit=30)
        assert r.optimal and r.value == sperner_number(n)


def test_lower_bound_certificates_are_checkable():
    g, _ = random_hub_extension(25, 6, 0.35, rng=4)
    r = biclique_cover_number(g)
    if r.certificate.kind == "fooling-set":
        edges = r.certificate.data["edges"]
        assert len(edges) == r.lower_bound and is_fooling_set(g, edges)
    assert not is_fooling_set(transitive_tournament(3), [(0, 1), (0, 2)])


def test_real_rank_bounds_neither_way():
    # b < rank: the complete digraph on 6 vertices has b = σ(6) = 4, rank 6
    k6 = complete_digraph(6)
    assert biclique_cover_number(k6).value == 4 < real_rank(k6) == 6
    # b > rank: rows 1100, 1010, 0101, 0011 (sources 0..3 acting on targets 4..7) have real
    # rank 3 (r1 + r4 = r2 + r3) but no two edges of different stars share a biclique
    rows = np.array([[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 1]])
    m = np.zeros((8, 8), dtype=int)
    m[:4, 4:] = rows
    g = AttentionDigraph.from_adjacency(m)
    b = biclique_cover_number(g)
    assert real_rank(g) == 3 < b.value == brute_b(g) == 4


def test_time_limit_returns_bounds_not_a_guess():
    g, _ = random_hub_extension(40, 20, 0.5, rng=0)
    r = biclique_cover_number(g, time_limit=1.0)
    assert r.elapsed < 5.0
    assert r.lower_bound <= r.value == r.upper_bound
    assert r.optimal == (r.lower_bound == r.upper_bound)
    r.witness.validate(g)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 9), hubs=st.integers(1, 5),
       p=st.floats(0.2, 0.8))
def test_properties_on_random_hub_digraphs(seed, n, hubs, p):
    g, planted = random_hub_extension(n, hubs, p, rng=seed)
    b = biclique_cover_number(g, time_limit=20)
    h = hub_chromatic_index(g, time_limit=20)
    c = chromatic_index(g)
    for r in (b, h, c):
        assert r.lower_bound <= r.value <= r.upper_bound
    b.witness.validate(g)
    h.witness.validate(g)
    assert b.value <= g.n_edges and b.value <= planted.n_hubs
    assert h.value <= c.value


def test_bad_input():
    with pytest.raises(TypeError):
        biclique_cover_number("K3")
    with pytest.raises(ValueError):
        hub_chromatic_index(complete_digraph(3), time_limit=0)


@pytest.mark.parametrize("g", [transitive_tournament(3), complete_bipartite(2, 3),
                               complete_digraph(5), transitive_tournament(6), block_local(6, 3),
                               random_hub_extension(9, 5, 0.5, rng=3)[0]],
                         ids=["T3", "K23", "K5", "T6", "blocks", "random"])
def test_pareto_front(g):
    from theorem.invariants import hub_pareto_front
    from theorem.sat import colored_cover_cnf

    result = hub_pareto_front(g, time_limit=60)
    assert result.complete and result.optimal
    front = result.points
    b, h = biclique_cover_number(g).value, hub_chromatic_index(g).value
    assert front[0].colors == h and front[-1].hubs == b
    for p, q in zip(front, front[1:]):
        assert p.hubs > q.hubs and p.colors < q.colors
    for point in front:
        point.witness.validate(g)
        assert point.witness.n_hubs == point.hubs and point.witness.n_colors <= point.colors
        assert point.optimal
        if point.hubs > b:  # a second solver refutes one hub fewer with these colors
            clauses, _ = colored_cover_cnf(g, point.hubs - 1, point.colors)
            with Solver(name="glucose4", bootstrap_with=clauses) as s:
                assert s.solve() is False


def test_pareto_front_reports_an_incomplete_search():
    from theorem.invariants import hub_pareto_front

    g, _ = random_hub_extension(40, 20, 0.5, rng=0)
    front = hub_pareto_front(g, time_limit=1.0)
    assert not front.complete and not front.optimal
    for point in front.points:
        point.witness.validate(g)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(5, 8), p=st.floats(0.4, 0.95))
def test_transitive_sequence_bound_is_confirmed_by_sat(seed, n, p):
    """Alon's bound χ_hub ≥ ⌈log₂ m⌉, checked without the theorem: Glucose refutes a cover by
    ⌈log₂ m⌉ − 1 difunctional relations."""
    gen = np.random.default_rng(seed)
    adjacency = (gen.random((n, n)) < p).astype(np.uint8)
    np.fill_diagonal(adjacency, 0)
    g = AttentionDigraph.from_adjacency(adjacency)
    sequence = transitive_sequence(g, rng=seed)
    assert is_transitive_sequence(g, sequence)
    h = (len(sequence) - 1).bit_length() - 1
    if h >= 1:
        with Solver(name="glucose4", bootstrap_with=path_cover_cnf(g, h)) as s:
            assert s.solve() is False


@pytest.mark.parametrize("family", [complete_digraph, transitive_tournament])
@pytest.mark.parametrize("n", [17, 24, 32])
def test_hub_chromatic_index_proved_up_to_32(family, n):
    g = family(n)
    r = hub_chromatic_index(g, time_limit=30)
    assert r.optimal and r.value == (n - 1).bit_length() and r.elapsed < 5
    r.witness.validate(g)
    assert r.certificate.kind == "transitive-sequence"
    assert is_transitive_sequence(g, r.certificate.data["sequence"])
    assert (len(r.certificate.data["sequence"]) - 1).bit_length() == r.lower_bound
    assert not is_transitive_sequence(transitive_tournament(3), [2, 1])


def test_pareto_front_keeps_a_fewest_hubs_point_when_time_runs_out(monkeypatch):
    import theorem.invariants.pareto as pareto

    g = complete_digraph(6)
    monkeypatch.setattr(pareto, "past", lambda deadline: True)      # every descent out of time
    front = pareto.hub_pareto_front(g)
    b = biclique_cover_number(g)
    last = front.points[-1]
    assert last.hubs == b.value == 4 and not last.optimal and not front.complete
    last.witness.validate(g)
    assert front.points[0].colors == 3 and front.points[0].hubs > 4
    assert all(p.colors < q.colors and p.hubs > q.hubs for p, q in zip(front.points, front.points[1:]))


def test_hard_regime_is_proved_by_a_refutation_a_second_solver_confirms():
    g, planted = random_hub_extension(40, 20, 0.5, rng=6)
    r = biclique_cover_number(g, time_limit=60)
    assert r.optimal and r.value == planted.n_hubs == 20
    data = r.certificate.data
    assert r.certificate.kind == "unsat" and data["k"] == 19 and data["maximal"]
    assert len(data["fooling_set"]) >= 17 and is_fooling_set(g, data["fooling_set"])
    # Glucose refutes the same claim (fooling edges pinned, maximal bicliques, sorted free
    # ones: sound, see biclique_cover_cnf)
    clauses, _ = biclique_cover_cnf(g, 19, data["fooling_set"], maximal=True)
    with Solver(name="glucose4", bootstrap_with=clauses) as s:
        assert s.solve() is False
    r.witness.validate(g)


def test_weighted_fooling_set_proves_the_planted_hubs_optimal(monkeypatch):
    """Seed 4 of the hard regime: the local search finds no fooling set above 16, but the
    fractional cover's duals prove b ≥ 20 = planted hubs. Every SAT call is made to run out
    of time, so the bound is the LP's alone and the run deterministic; the cover by 20 is the
    local search's (the greedy one has more), so b is proved without SAT."""
    monkeypatch.setattr(Claims, "decide", lambda *args, **kwargs: (None, None))
    g, planted = random_hub_extension(40, 20, 0.5, rng=4)
    r = biclique_cover_number(g)
    assert r.lower_bound == planted.n_hubs == 20 == r.upper_bound and r.optimal
    assert len(greedy_cover(g)) > 20
    r.witness.validate(g)
    assert r.certificate.kind == "weighted-fooling-set"
    weights = r.certificate.data["weights"]
    assert weighted_fooling_bound(g, weights) == (20, r.certificate.data["max_biclique_weight"])
    assert 19 < r.certificate.data["fractional_cover"] <= 20
    assert r.certificate.data["converged"] and "b* = " in r.certificate.statement
    r.witness.validate(g)


def test_weighted_fooling_set_of_a_cut_lp_calls_its_value_an_upper_bound(monkeypatch):
    """A column generation stopped by the deadline has priced only some bicliques: its value
    bounds b* from above, and the certificate says so rather than 'b* ='."""
    from dataclasses import replace

    from theorem.invariants import biclique_cover as module

    g = complete_digraph(5)              # b* = 10/3, so the duals prove b ≥ 4 > 1
    none = Certificate("non-empty", "one edge needs one biclique")
    solve = module.fractional_biclique_cover
    for converged, relation in [(True, "="), (False, "≤")]:
        monkeypatch.setattr(module, "fractional_biclique_cover",
                            lambda *args, _c=converged, **kwargs:
                            replace(solve(*args, **kwargs), converged=_c))
        bound, certificate = module._fractional_bound(g, star_cover(g), 1, none, None)
        assert bound == 4 and certificate.data["converged"] is converged
        assert f"b* {relation} {certificate.data['fractional_cover']:.4f}" in certificate.statement


def test_biclique_encoding_options_keep_small_answers():
    """Maximal bicliques and ordered free bicliques change no answer: brute force agrees on
    every digraph with 4 vertices, at b (satisfiable) and b - 1 (not)."""
    for g in digraphs_up_to_isomorphism(4):
        b = brute_b(g)
        for k, expected in ((b, True), (b - 1, False)):
            if k < 0:
                continue
            clauses, decode = biclique_cover_cnf(g, k, maximal=True)
            with Solver(name="cadical195", bootstrap_with=clauses) as s:
                assert s.solve() is expected, (g.edges.tolist(), k)
                if expected and k:
                    HubExtension(decode(s.get_model())).validate(g)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 8), hubs=st.integers(2, 5),
       p=st.floats(0.3, 0.8), extra=st.integers(0, 2))
def test_free_bicliques_are_maximal_with_target_sets_in_lexicographic_order(
        seed, n, hubs, p, extra):
    """Every model of the maximal encoding is a cover by maximal bicliques whose target sets,
    as 0/1 rows over the vertices, do not increase (the order sorts targets, not sources;
    empty bicliques, all-zero rows, can only come last)."""
    g, planted = random_hub_extension(n, hubs, p, rng=seed)
    clauses, decode = biclique_cover_cnf(g, planted.n_hubs + extra, maximal=True)
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        assert s.solve()
        cover = decode(s.get_model())
    HubExtension(cover).validate(g)
    m = g.adjacency.astype(bool)
    rows = [tuple(np.isin(np.arange(g.n), targets)) for _, targets in cover]
    assert rows == sorted(rows, reverse=True)
    for sources, targets in cover:      # closed: no vertex or target can be added
        assert set(sources) == set(np.flatnonzero(m[:, targets].all(axis=1)).tolist())
        assert set(targets) == set(np.flatnonzero(m[sources].all(axis=0)).tolist())


# -- bad input and extreme sizes ----------------------------------------------------------------

def _public_functions_taking_a_digraph():
    import theorem.invariants as inv
    from theorem.invariants.transitive import binary_cover

    extra = {"is_fooling_set": ([],), "is_transitive_sequence": ([],),
             "validate_edge_coloring": ([],), "weighted_fooling_bound": ([(0, 1, 1)],),
             "check_unsat_certificate": (None,), "binary_cover": ([0, 1],),
             "local_search_cover": (1,)}
    names = ["biclique_cover_number", "hub_chromatic_index", "chromatic_index",
             "hub_pareto_front", "real_rank", "star_cover", "fooling_set", "is_fooling_set",
             "transitive_sequence", "is_transitive_sequence", "fractional_biclique_cover",
             "maximal_bicliques", "weighted_fooling_bound", "validate_edge_coloring",
             "check_unsat_certificate", "local_search_cover"]
    found = [(name, getattr(inv, name), extra.get(name, ())) for name in names]
    return found + [("greedy_cover", greedy_cover, ()), ("binary_cover", binary_cover, ([0, 1],))]


@pytest.mark.parametrize("name,function,extra", _public_functions_taking_a_digraph(),
                         ids=lambda v: v if isinstance(v, str) else "")
@pytest.mark.parametrize("wrong", [None, [(0, 1)], np.eye(2)], ids=["None", "list", "matrix"])
def test_a_wrong_digraph_is_a_type_error(name, function, extra, wrong):
    with pytest.raises(TypeError, match="expected an AttentionDigraph"):
        function(wrong, *extra)


def test_dsatur_colored_takes_a_hub_extension():
    from theorem.invariants import dsatur_colored

    with pytest.raises(TypeError, match="extension must be a HubExtension"):
        dsatur_colored(transitive_tournament(3))


@pytest.mark.parametrize("n", [0, 1])
def test_digraphs_without_edges_pass_trivially(n):
    from theorem.invariants import hub_pareto_front, real_rank

    g = AttentionDigraph(n)
    for result in (biclique_cover_number(g), hub_chromatic_index(g), chromatic_index(g)):
        assert (result.value, result.optimal) == (0, True)
    assert hub_pareto_front(g).pairs() == [[0, 0]] and real_rank(g) == 0


def test_many_isolated_vertices_cost_nothing():
    # 2^20 vertices, two edges: every solver works on the four vertices with an edge
    import time

    from theorem.digraphs import MAX_VERTICES
    from theorem.invariants import hub_pareto_front, real_rank

    g = AttentionDigraph(MAX_VERTICES, [(0, 1), (5, MAX_VERTICES - 1)])
    start = time.perf_counter()
    assert chromatic_index(g).certificate.data == {"vertex": 0, "side": "out", "degree": 1}
    assert biclique_cover_number(g).value == 2 and hub_chromatic_index(g).value == 1
    assert hub_pareto_front(g).pairs() == [[2, 1]] and real_rank(g) == 2
    assert time.perf_counter() - start < 10


def test_dense_solvers_refuse_too_many_vertices_with_edges():
    import time

    from theorem.digraphs import directed_cycle
    from theorem.errors import VertexError
    from theorem.invariants import (fooling_set, fractional_biclique_cover, hub_pareto_front,
                                    maximal_bicliques, real_rank, transitive_sequence)

    g = directed_cycle(10_000)                 # no isolated vertex: nothing to trim
    for function in (biclique_cover_number, hub_chromatic_index, hub_pareto_front, real_rank,
                     fractional_biclique_cover):
        start = time.perf_counter()
        with pytest.raises(VertexError, match=r"N = 10000 .*MAX_DENSE_VERTICES.*vertices with an"):
            function(g)
        assert time.perf_counter() - start < 1.0, function.__name__
    for function in (fooling_set, transitive_sequence, maximal_bicliques):
        with pytest.raises(VertexError, match="above the limit of 8192"):
            function(g)
    assert chromatic_index(g).value == 1       # linear: no limit but MAX_VERTICES


@settings(max_examples=150, deadline=None)
@given(n=st.integers(0, 7), bits=st.integers(0, 2**49 - 1))
def test_the_star_cover_has_the_fewer_distinct_rows_or_columns(n, bits):
    # reference: the distinct non-empty rows and columns of M, counted from the matrix
    m = np.array([(bits >> k) & 1 for k in range(n * n)], dtype=bool).reshape(n, n)
    np.fill_diagonal(m, False)
    g = AttentionDigraph.from_adjacency(m)
    rows = {tuple(r) for r in m if r.any()}
    cols = {tuple(c) for c in m.T if c.any()}
    stars = star_cover(g)
    HubExtension(stars).validate(g)
    assert len(stars) == min(len(rows), len(cols))
    if len(rows) <= len(cols):                     # out-stars on a tie: one source row each
        assert sorted(tuple(m[a[0]]) for a, _ in stars) == sorted(rows)
    else:
        assert sorted(tuple(m[:, b[0]]) for _, b in stars) == sorted(cols)


def test_chi_hub_starts_from_b_cover_only_when_it_beats_the_trivial_bound(monkeypatch):
    # with a search that reports nothing (as when the limit ends it at once), the result is
    # the start witness: b's cover when it has at most min(sources, targets) hubs, else the
    # stars colored apart
    import theorem.invariants.results as results

    g = complete_digraph(5)
    own = biclique_cover_number(g, time_limit=5)          # 4 bicliques (Sperner), proved
    assert own.value < len(star_cover(g)) == 5
    # a valid hand-made "b" result with one hub per edge: 20 hubs, more than the 5 sources
    wasteful = HubExtension([([a], [b]) for a, b in g.edges.tolist()])
    b = InvariantResult("biclique_cover_number", wasteful.n_hubs, 1, wasteful.n_hubs, False,
                        wasteful, Certificate("non-empty", "an edge"), 0.0)
    monkeypatch.setattr(results, "anytime", lambda *args, **kwargs: (None, None))
    r = hub_chromatic_index(g, time_limit=5, biclique_cover=b)
    r.witness.validate(g)
    assert r.upper_bound == 5
    assert hub_chromatic_index(g, time_limit=5, biclique_cover=own).upper_bound == own.value
