"""The Main Theorem built and verified: density covers, the negative controls, refusals."""

from dataclasses import replace

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws import BumpKernel, strength_report
from manifolds import (
    Embedding,
    NotAdmissibleError,
    ProjectiveSpace,
    ShapeError,
    Sphere,
    admissible_embedding,
)
from theorem.covers import density_cover, construct_density_cover, partition_cover, product_cover
from theorem.errors import InvalidColoringError, InvalidHubExtensionError, TheoremError
from theorem.digraphs import AttentionDigraph, complete_bipartite, transitive_tournament
from theorem.digraphs import HubExtension, random_hub_extension
from theorem.invariants import (biclique_cover_number, hub_chromatic_index, hub_pareto_front,
                                real_rank)
from theorem.covers import UniversalFamily, one_function_cover, universal_law
from theorem.covers import verify_density_cover
from tests.spaces import COVER_SPACES as SPACES

_EMBEDDINGS = {}


def embedding(space, n):
    """An admissible embedding of 9 points per space, computed once; its first n points."""
    key = space.name
    if key not in _EMBEDDINGS:
        _EMBEDDINGS[key] = admissible_embedding(space, 9, rng=0)
    emb = _EMBEDDINGS[key]
    return Embedding(emb.points[:n], emb.separation, emb.closest_pair, space)


def colored(ext):
    coloring = nx.greedy_color(ext.conflict_graph(), strategy="saturation_largest_first")
    return ext.with_colors([coloring[p] for p in range(ext.n_hubs)])


@pytest.mark.parametrize("space", SPACES, ids=lambda s: s.name)
@pytest.mark.parametrize("digraph", [transitive_tournament(3), complete_bipartite(3, 4)],
                         ids=["tournament3", "bipartite3x4"])
@pytest.mark.parametrize("objective", ["hubs", "colors"])
def test_paper_examples_pass_both_strengths(space, digraph, objective):
    cover = construct_density_cover(digraph, space, objective, rng=1, embedding=embedding(space, digraph.n))
    report = verify_density_cover(cover, rng=2)
    assert report.paper_passed and report.exact_passed and report.rank_passed, str(report)
    assert report.edges_verified == digraph.n_edges and cover.disjoint_balls
    assert cover.info["proved"]
    expected = {"tournament3": (2, 2), "bipartite3x4": (1, 1)}["tournament3" if digraph.n == 3 else "bipartite3x4"]
    assert (cover.n_hubs, cover.n_colors) == expected


@pytest.mark.parametrize("space", SPACES, ids=lambda s: s.name)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 9), hubs=st.integers(1, 4),
       p=st.floats(0.3, 0.8))
def test_random_hub_digraphs_pass_both_strengths(space, seed, n, hubs, p):
    g, ext = random_hub_extension(n, hubs, p, rng=seed)
    if ext.n_hubs == 0:
        return
    emb = embedding(space, n)
    cover = density_cover(g, colored(ext), emb, BumpKernel(space, emb.separation / 2), rng=seed)
    report = verify_density_cover(cover, rng=seed)
    assert report.passed, str(report)
    assert report.edges_verified == g.n_edges
    assert sum(cover.ranks) == ext.n_hubs


# -- negative controls ---------------------------------------------------------------------
def test_control_a_overlapping_hubs_in_one_color_fail_exactness_only():
    g = transitive_tournament(3)
    ext = HubExtension([({0}, {1, 2}), ({0, 1}, {2})], colors=[0, 0])       # both cover (0, 2)
    space = Sphere(2)
    emb = embedding(space, 3)
    kernel = BumpKernel(space, emb.separation / 2)
    with pytest.raises(InvalidColoringError, match="share the source 0"):
        density_cover(g, ext, emb, kernel)
    report = verify_density_cover(density_cover(g, ext, emb, kernel, rng=0, validate=False), rng=0)
    assert report.paper_passed and not report.exact_passed
    failed = {c.name: c for c in report.exact.failures()}
    assert "pair (0, 2): β = 2" in failed["β_0 at vertex pairs = indicator of its edges"].where
    assert failed["m_0 ≤ 1: no pair covered twice by weight 0"].where == "pair (0, 2) covered by 2 hubs"


def test_control_b_radius_above_half_r0_makes_a_spurious_maximum():
    # K_{2,1}: one hub with sources 0, 1 at distance s = r0 and target 2; r = 0.8 s
    space = Sphere(2)
    s = 0.5
    points = np.array([[1.0, 0, 0], [np.cos(s), np.sin(s), 0], [0, 0, 1.0]])
    g = complete_bipartite(2, 1)
    ext = HubExtension([({0, 1}, {2})], colors=[0])
    cover = density_cover(g, ext, points, BumpKernel(space, 0.8 * s), rng=0)
    assert not cover.disjoint_balls and cover.r0 == pytest.approx(s)
    report = verify_density_cover(cover, rng=0)
    assert report.paper_passed and not report.exact_passed
    failed = {c.name: c for c in report.exact.failures()}
    assert set(failed) == {"disjoint balls: 2r ≤ r0", "β_0 ≤ 1 (sampled near and between vertices)"}
    spurious = failed["β_0 ≤ 1 (sampled near and between vertices)"]
    assert spurious.where.startswith("x between 0 and 1") and spurious.value > 1.04
    # the same digraph with r < r0/2 is exact
    assert verify_density_cover(density_cover(g, ext, points, BumpKernel(space, 0.49 * s), rng=0), rng=0).passed


@pytest.mark.parametrize("space", SPACES, ids=lambda s: s.name)
def test_control_c_product_of_bump_sums_passes_paper_fails_exact(space):
    g, _ = random_hub_extension(7, 3, 0.6, rng=3)
    emb = embedding(space, 7)
    report = verify_density_cover(product_cover(g, emb, BumpKernel(space, emb.separation / 2), rng=0), rng=0)
    assert report.paper_passed and not report.exact_passed
    values = report.exact["β_0 at vertex pairs = indicator of its edges"]
    a, b = map(int, values.where.split("(")[1].split(")")[0].split(", "))
    assert not g.adjacency[a, b] and "expected 0" in values.where      # a non-edge with value 1


# -- refusals ------------------------------------------------------------------------------
def test_refusals_name_what_is_wrong():
    space = Sphere(2)
    g = transitive_tournament(3)
    ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    emb = embedding(space, 3)
    with pytest.raises(NotAdmissibleError, match="lower the radius"):
        density_cover(g, ext, emb, BumpKernel(space, emb.separation * 1.01))
    close = np.array([[1.0, 0, 0], [np.cos(0.01), np.sin(0.01), 0], [0, 0, 1.0]])
    with pytest.raises(NotAdmissibleError):
        density_cover(g, ext, close, BumpKernel(space, 0.3))
    with pytest.raises(InvalidColoringError, match="no colors"):
        density_cover(g, HubExtension(ext.hubs), emb, BumpKernel(space, 0.3))
    with pytest.raises(InvalidColoringError):
        density_cover(g, ext.with_colors([0, 0]), emb, BumpKernel(space, 0.3))
    with pytest.raises(InvalidHubExtensionError, match="covered by no hub"):
        density_cover(g, HubExtension([({0}, {1, 2})], colors=[0]), emb, BumpKernel(space, 0.3))
    with pytest.raises(ShapeError):
        density_cover(g, ext, emb.points[:2], BumpKernel(space, 0.3))
    with pytest.raises(TypeError):
        density_cover(g, ext.hubs, emb, BumpKernel(space, 0.3))


# -- part (i) ------------------------------------------------------------------------------
@pytest.mark.parametrize("space", SPACES, ids=lambda s: s.name)
def test_universal_law_and_family(space, rng=np.random.default_rng(5)):
    x0, y0 = space.random_point(2, rng=rng)
    v0 = np.tensordot(rng.standard_normal(space.dim), space.tangent_basis(y0), axes=1)
    kernel = BumpKernel(space, 0.3)
    law = universal_law(space, kernel, x0, y0, v0, rng=0)
    assert strength_report(law, x0, y0, rng=0).passed
    assert np.allclose(law(x0, y0), v0 / np.sqrt(space.inner(v0, v0, y0)), atol=1e-13)
    family = UniversalFamily(space, kernel, 2)
    xs, ys = space.random_point(2, rng=rng), space.random_point(2, rng=rng)
    member = family.law(xs, ys, law.field.theta)
    assert member.weight.rank == 2
    n = space.ambient_shape[0]
    assert family.n_parameters == 4 * space.dim + (n if isinstance(space, Sphere) else n * (n + 1) // 2)


@pytest.mark.parametrize("digraph", [transitive_tournament(3), complete_bipartite(3, 4), random_hub_extension(9, 3, 0.5, rng=1)[0]])
def test_one_function_cover_values_and_rank(digraph):
    space = Sphere(2)
    emb = embedding(space, digraph.n)
    beta = one_function_cover(digraph, emb.points, BumpKernel(space, emb.separation / 2))
    assert beta.rank == real_rank(digraph)
    assert np.allclose(beta.matrix(emb.points, emb.points), digraph.adjacency, atol=1e-12)


# -- the command line ----------------------------------------------------------------------


def test_verify_json_for_one_family_and_space(run):
    import json

    code, out, err = run("verify", "--family", "cycle", "--n", "4", "--space", "projective:2",
                          "--seed", "3", "--json")
    report = json.loads(out)
    assert code == 0 and err == "" and report["passed"] is True and report["seed"] == 3
    assert [(c["objective"], c["space"]) for c in report["covers"]] == [("hubs", "projective:2"),
                                                                       ("colors", "projective:2")]
    for cover in report["covers"]:
        assert cover["edges_verified"] == cover["edges"] == 4
        assert cover["exact_passed"] and cover["rank_passed"] and cover["disjoint_balls"]
        assert cover["hubs"] == 4 and cover["colors"] == 1      # a directed cycle is difunctional


def test_verify_exit_code_follows_the_checks(run, monkeypatch):
    import theorem.cli.verify as verify_command
    from theorem.covers import verify_density_cover as real

    def broken(cover, rng=None):
        report = real(cover, rng=rng)
        from laws import Check, Report
        return type(report)(report.paper, Report("forced", (Check("forced failure", 1.0, 0.0, "<="),)),
                            report.rank, report.edges_verified, report.worst_margin)

    monkeypatch.setattr(verify_command, "verify_density_cover", broken)
    code, out, _ = run("verify", "--family", "transitive-tournament", "--n", "3", "--space", "sphere:2")
    assert code == 1 and "SOME CHECKS FAILED" in out and "forced failure" in out


def test_verify_bad_input_exits_2(run):
    code, out, err = run("verify", "--family", "transitive-tournament", "--n", "3", "--space", "torus:2")
    assert code == 2 and out == "" and "torus" in err


def test_partition_cover_is_exact_with_the_rank_of_m():
    g = complete_bipartite(3, 4)
    space = Sphere(2)
    emb = embedding(space, 7)
    kernel = BumpKernel(space, emb.separation / 2)
    stars = HubExtension([({a}, {3, 4, 5, 6}) for a in range(3)])        # edge-disjoint out-stars
    report = verify_density_cover(partition_cover(g, stars, emb, kernel, rng=0), rng=0)
    assert report.passed
    assert report.rank.checks[0].name.startswith("rank of β_0 = rank(A_0 B_0ᵀ) = 1 (n_0 = 3 hubs)")
    overlapping = HubExtension([({0, 1, 2}, {3, 4, 5, 6}), ({0}, {3})])
    with pytest.raises(InvalidHubExtensionError, match=r"edge \(0, 3\) is covered by two hubs"):
        partition_cover(g, overlapping, emb, kernel)


@pytest.mark.parametrize("digraph,one,stars,fewest_hubs,fewest_colors", [
    (transitive_tournament(3), 2, [2], [1, 1], [1, 1]),
    (complete_bipartite(3, 4), 1, [1], [1], [1]),
    (__import__("theorem").complete_digraph(8), 8, [8], [1] * 5, [2, 2, 2]),
], ids=["tournament3", "bipartite3x4", "complete8"])
def test_ranks_table(digraph, one, stars, fewest_hubs, fewest_colors):
    """The table of docs/theorem.md: functions and verified ranks per construction."""
    from theorem.invariants import hub_pareto_front

    space = Sphere(2)
    emb = admissible_embedding(space, digraph.n, rng=0)
    kernel = BumpKernel(space, emb.separation / 2)
    assert one_function_cover(digraph, emb.points, kernel).rank == one
    out_stars = HubExtension([({a}, set(np.flatnonzero(digraph.adjacency[a]).tolist()))
                              for a in range(digraph.n) if digraph.adjacency[a].any()])
    front = hub_pareto_front(digraph, time_limit=60)
    covers = [partition_cover(digraph, out_stars, emb, kernel, rng=0),
              density_cover(digraph, front.points[-1].witness, emb, kernel, rng=0),
              density_cover(digraph, front.points[0].witness, emb, kernel, rng=0)]
    for cover, expected in zip(covers, (stars, fewest_hubs, fewest_colors)):
        report = verify_density_cover(cover, rng=0)
        assert report.passed
        measured = [int(c.where.split()[2]) for c in report.rank.checks]   # "numerical rank r on …"
        assert sorted(measured) == sorted(expected)
    assert front.complete and all(p.optimal for p in front.points)


def test_readme_main_job_is_verify_and_its_suite_passes(run):
    import json
    from pathlib import Path

    readme = Path(__file__).resolve().parents[3] / "README.md"
    first = readme.read_text().split("```bash\n")[1].split("\n")[0]
    assert first.endswith(".venv/bin/transformer-dynamics verify")
    code, out, _ = run("verify", "--json")
    report = json.loads(out)
    assert code == 0 and report["passed"] is True
    covers = {(c["digraph"].split()[0], c["space"], c["objective"]) for c in report["covers"]}
    assert covers == {(d, s, o) for d in ("transitive-tournament", "complete-bipartite", "random-hub")
                      for s in ("sphere:2", "projective:2", "grassmannian:4,2") for o in ("hubs", "colors")}
    assert all(c["edges_verified"] == c["edges"] and c["exact_passed"] and c["rank_passed"]
               for c in report["covers"])


def test_universal_law_refuses_a_radius_without_a_field():
    from laws import ZeroSetError

    rp2 = ProjectiveSpace(2)
    y0, x0 = rp2.random_point(2, rng=0)
    v0 = rp2.tangent_basis(y0)[0]
    # no θ keeps the zero set farther than arccos(1/√3) ≈ 0.955 from y0 on RP^2
    with pytest.raises(ZeroSetError, match="best keeps it 0.955"):
        universal_law(rp2, BumpKernel(rp2, 1.2), x0, y0, v0, rng=0)
    assert strength_report(universal_law(rp2, BumpKernel(rp2, 0.9), x0, y0, v0, rng=0), x0, y0, rng=0).passed


def test_verify_time_limit_reports_what_is_left_and_exits_3(run):
    import json

    code, out, _ = run("verify", "--time-limit", "0.5", "--space", "sphere:2", "--json")
    report = json.loads(out)
    assert code == 3 and report["passed"] is False and report["skipped"]
    assert all(c["passed"] for c in report["covers"])          # what was verified passed
    code, _, err = run("verify", "--time-limit", "0")
    assert code == 2 and "--time-limit" in err


def test_a_digraph_without_edges_has_an_empty_cover():
    from theorem import AttentionDigraph

    g = AttentionDigraph(3)
    cover = construct_density_cover(g, Sphere(2), "hubs", rng=0, embedding=embedding(Sphere(2), 3))
    report = verify_density_cover(cover, rng=0)
    assert cover.n_colors == 0 and cover.n_hubs == 0 and report.passed and report.edges_verified == 0


def test_verify_json_is_strict_even_with_infinite_values(run):
    import json

    code, out, _ = run("verify", "--family", "transitive-tournament", "--n", "1", "--space", "sphere:2", "--json")

    def refuse(token):
        raise AssertionError(f"non-standard JSON token {token}")

    report = json.loads(out, parse_constant=refuse)
    assert code == 0 and report["covers"][0]["worst_margin"] is None and report["covers"][0]["r0"] is None


def test_density_cover_for_is_a_deprecated_alias():
    from theorem import density_cover_for

    with pytest.warns(DeprecationWarning, match="construct_density_cover"):
        cover = density_cover_for(transitive_tournament(3), Sphere(2), "colors", rng=0)
    assert cover.n_hubs == 2 and cover.n_colors == 2


# -- validate once, where input enters (docs/conventions.md#validation) ----------------------
def test_construct_density_cover_validates_each_witness_once(monkeypatch):
    validated = []
    original = HubExtension.validate

    def counting(self, digraph):
        validated.append(self)          # keeps each object alive: ids stay distinct
        return original(self, digraph)

    monkeypatch.setattr(HubExtension, "validate", counting)
    g, _ = random_hub_extension(9, 4, 0.5, rng=3)
    covers = construct_density_cover(g, Sphere(3), "pareto", rng=0)
    assert validated, "the solvers' witnesses must be validated"
    assert len({id(w) for w in validated}) == len(validated), "a witness was validated twice"
    # every cover is built on a witness that was validated
    assert all(any(c.extension is w for w in validated) for c in covers)


def test_construct_density_cover_checks_what_it_is_given():
    space, g = Sphere(2), transitive_tournament(3)
    cover = construct_density_cover(g, space, "colors", rng=0)
    emb = cover.points
    with pytest.raises(TypeError, match="Space"):
        construct_density_cover(g, "sphere:2")
    with pytest.raises(TypeError, match="AttentionDigraph"):
        construct_density_cover(g.adjacency, space)
    with pytest.raises(TheoremError, match="without radius"):
        construct_density_cover(g, space, embedding=emb, theta=cover.theta)
    with pytest.raises(NotAdmissibleError, match="lower the radius"):
        construct_density_cover(g, space, embedding=emb, theta=cover.theta, radius=4.0)
    with pytest.raises(ShapeError):
        construct_density_cover(g, space, embedding=emb[:2])
    with pytest.raises(TypeError, match="ParetoFront"):
        construct_density_cover(g, space, front=[])
    other = hub_pareto_front(transitive_tournament(4))
    with pytest.raises(TheoremError, match="not a Pareto front of this digraph"):
        construct_density_cover(g, space, front=other)
    # what it was given is reused: same embedding, radius and θ give the same cover
    again = construct_density_cover(g, space, "colors", rng=1, embedding=emb, theta=cover.theta,
                                    radius=cover.radius)
    assert again.radius == cover.radius and np.array_equal(again.theta, cover.theta)
    assert np.array_equal(again.points, cover.points)


def test_results_passed_on_are_checked_against_the_digraph():
    g, h = transitive_tournament(4), transitive_tournament(5)
    b_h = biclique_cover_number(h)
    with pytest.raises(TheoremError, match="not a result for this digraph"):
        hub_chromatic_index(g, biclique_cover=b_h)
    with pytest.raises(TheoremError, match="not a result for this digraph"):
        hub_pareto_front(g, biclique_cover=b_h)
    chi = hub_chromatic_index(g)
    with pytest.raises(TheoremError, match="must be a result of biclique_cover_number"):
        hub_pareto_front(g, biclique_cover=chi)
    with pytest.raises(TypeError, match="InvariantResult"):
        hub_pareto_front(g, hub_chromatic=3)
    b = biclique_cover_number(g)
    tampered = replace(b, value=b.value - 1)
    with pytest.raises(TheoremError, match="its witness has"):
        hub_pareto_front(g, biclique_cover=tampered)
    front = hub_pareto_front(g, biclique_cover=b, hub_chromatic=chi)
    assert front.pairs() == hub_pareto_front(g).pairs()


@pytest.mark.parametrize("space", SPACES, ids=lambda s: s.name)
@pytest.mark.parametrize("objective", ["hubs", "colors", "pareto"])
def test_a_digraph_without_vertices_has_an_empty_cover_that_verifies(space, objective):
    from theorem import AttentionDigraph

    covers = construct_density_cover(AttentionDigraph(0), space, objective, rng=0)
    for cover in covers if objective == "pareto" else [covers]:
        report = verify_density_cover(cover, rng=0)
        assert cover.points.shape[0] == 0 and cover.n_colors == 0 and report.passed


def test_covers_refuse_wrong_types_and_huge_digraphs_at_once():
    import time

    from theorem import AttentionDigraph
    from theorem.covers import MAX_COVER_VERTICES, check_cover_size
    from theorem.errors import VertexError

    s2 = Sphere(2)
    kernel = BumpKernel(s2, 0.3)
    with pytest.raises(TypeError, match="cover must be a DensityCover, not AttentionDigraph"):
        verify_density_cover(transitive_tournament(3))
    with pytest.raises(TypeError, match="cover must be a DensityCover, not NoneType"):
        verify_density_cover(None)
    for call in (lambda g: construct_density_cover(g, s2), lambda g: product_cover(g, None, kernel),
                 lambda g: density_cover(g, HubExtension([]), None, kernel),
                 lambda g: partition_cover(g, HubExtension([]), None, kernel),
                 lambda g: one_function_cover(g, None, kernel), check_cover_size):
        with pytest.raises(TypeError, match="expected an AttentionDigraph, got list"):
            call([(0, 1)])
        big = AttentionDigraph(100_000, [(0, 1), (5, 99_999)])      # the file with id 99999
        start = time.perf_counter()
        with pytest.raises(VertexError, match=r"100000 vertices, above the limit of 1024 "
                                              r"\(MAX_COVER_VERTICES\).*has 4\)"):
            call(big)
        assert time.perf_counter() - start < 1.0
    assert MAX_COVER_VERTICES == 1024
    with pytest.raises(TypeError, match="kernel must be a laws.BumpKernel"):
        product_cover(transitive_tournament(3), embedding(s2, 3), 0.3)
    with pytest.raises(TypeError, match="space must be a manifolds.Space"):
        universal_law(None, kernel, np.eye(3)[0], np.eye(3)[2], np.eye(3)[1])


def test_covers_refuse_negative_seeds_and_bad_sample_counts():
    s2 = Sphere(2)
    g = transitive_tournament(3)
    cover = construct_density_cover(g, s2, rng=0)
    for call in (lambda: construct_density_cover(g, s2, rng=-1),
                 lambda: verify_density_cover(cover, rng=-1),
                 lambda: product_cover(g, embedding(s2, 3), cover.kernel, rng=-1),
                 lambda: universal_law(s2, cover.kernel, np.eye(3)[0], np.eye(3)[2],
                                       np.eye(3)[1], rng=-1)):
        with pytest.raises(TheoremError, match="rng = -1 is a negative seed"):
            call()
    with pytest.raises(TheoremError, match="per_ball must be a positive integer"):
        verify_density_cover(cover, per_ball=0)


def test_a_claimed_non_edge_fails_the_papers_strength():
    """A cover built by hand that claims a pair outside E is refused, though the pair is a
    strict local maximum of its weight."""
    g = transitive_tournament(3)
    space = Sphere(2)
    emb = admissible_embedding(space, 3, rng=0)
    ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    cover = density_cover(g, ext, emb, BumpKernel(space, emb.separation / 2), rng=0)
    fewer = replace(cover, digraph=AttentionDigraph(3, [(0, 1), (0, 2)]))
    report = verify_density_cover(fewer, rng=0)
    assert [c.name for c in report.paper.failures()] == ["weight 1 claims only edges"]
