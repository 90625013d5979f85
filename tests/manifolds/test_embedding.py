"""Admissible embeddings: validation, and packing quality against the literature."""

import numpy as np
import pytest

from manifolds import (
    Grassmannian,
    NotAdmissibleError,
    ProjectiveSpace,
    ShapeError,
    Sphere,
    admissible_embedding,
    check_admissible,
    pairwise_distances,
)

# Tammes problem on S^2: best known (mostly proved optimal) minimum angles in degrees,
# N. J. A. Sloane, tables of spherical codes (packings in 3 dimensions).
TAMMES = {4: 109.4712, 5: 90.0, 6: 90.0, 7: 77.8695, 8: 74.8585, 9: 70.5288, 10: 66.1468,
          11: 63.4349, 12: 63.4349, 13: 57.1367, 14: 55.6706, 15: 53.6579, 16: 52.2444,
          17: 51.0903, 18: 49.5567, 19: 47.6919, 20: 47.4310, 21: 45.6132, 22: 44.7402,
          23: 43.7100, 24: 43.6908}


@pytest.mark.parametrize("n", sorted(TAMMES))
def test_sphere_packing_within_one_percent_of_tammes(n):
    emb = admissible_embedding(Sphere(2), n, rng=0)
    achieved = np.degrees(emb.separation)
    assert achieved >= 0.99 * TAMMES[n], (achieved, TAMMES[n])
    assert achieved <= TAMMES[n] + 1e-3  # nobody beats a proved optimum: a sanity check


# Lines in R^3 (RP^2), proved optimal: 3 lines at 90°, 4 at arccos(1/3), 6 at arccos(1/√5)
# (the icosahedron's diagonals), 5 at the same angle as 6.
LINES = {3: 90.0, 4: np.degrees(np.arccos(1 / 3)), 5: np.degrees(np.arccos(1 / np.sqrt(5))),
         6: np.degrees(np.arccos(1 / np.sqrt(5))), 7: np.degrees(np.arccos(1 / np.sqrt(3)))}


@pytest.mark.parametrize("n", sorted(LINES))
def test_line_packing_in_rp2(n):
    emb = admissible_embedding(ProjectiveSpace(2), n, rng=0)
    assert np.degrees(emb.separation) >= 0.99 * LINES[n]


def simplex_bound_chordal2(n, k, count):
    """Rankin simplex bound on the squared chordal distance Σ sin²θ_i of ``count`` k-planes
    in R^n (Conway–Hardin–Sloane 1996): k(n − k)/n · count/(count − 1)."""
    return k * (n - k) / n * count / (count - 1)


@pytest.mark.parametrize("count", [3, 4, 5, 6, 8])
def test_plane_packing_in_gr24(count):
    gr = Grassmannian(4, 2)
    emb = admissible_embedding(gr, count, rng=0)
    pts = emb.points
    i, j = np.triu_indices(count, 1)
    chordal2 = (np.sin(gr.principal_angles(pts[i], pts[j])) ** 2).sum(axis=-1)
    # a bound theorem on every packing: must hold for ours (checks dist and angles agree)
    assert chordal2.min() <= simplex_bound_chordal2(4, 2, count) + 1e-9
    # the six coordinate planes span(e_a, e_b) are pairwise ≥ π/2 apart (geodesic): any
    # count ≤ 6 must do at least as well
    if count <= 6:
        assert emb.separation > np.pi / 2


def test_two_planes_in_r4_are_placed_orthogonally():
    gr = Grassmannian(4, 2)
    assert admissible_embedding(gr, 2, rng=1).separation == pytest.approx(
        np.sqrt(2) * np.pi / 2, rel=1e-9)


@pytest.mark.parametrize("space", [Sphere(3), ProjectiveSpace(4), Grassmannian(5, 2)],
                         ids=lambda s: s.name)
def test_embedding_is_valid_and_reproducible(space):
    a = admissible_embedding(space, 9, rng=5)
    b = admissible_embedding(space, 9, rng=5)
    assert np.array_equal(a.points, b.points)
    assert a.points.shape == (9,) + space.ambient_shape
    assert space.belongs(a.points, atol=1e-12).all()
    # exact equalities by construction: pairwise_distances, the embedding's separation and
    # check_admissible all evaluate space._dist on the same pairs (triu_indices order) of the
    # same points, and the same computation on the same inputs gives the same bits
    d = pairwise_distances(space, a.points)
    off = d[~np.eye(9, dtype=bool)]
    assert off.min() == a.separation
    assert d[a.closest_pair] == a.separation
    assert check_admissible(a.points, space, r0=0.99 * a.separation).separation == a.separation


def test_small_counts():
    s = Sphere(2)
    assert admissible_embedding(s, 0).points.shape == (0, 3)
    one = admissible_embedding(s, 1, rng=0)
    assert one.separation == np.inf and one.closest_pair == (-1, -1)
    assert admissible_embedding(s, 2, rng=0).separation == pytest.approx(np.pi, rel=1e-12)


def test_r0_that_cannot_be_met_raises():
    with pytest.raises(NotAdmissibleError, match="r0 = 1.6"):
        admissible_embedding(Sphere(2), 6, r0=1.6, rng=0)  # 6 points: at most π/2 apart
    assert admissible_embedding(Sphere(2), 6, r0=1.5, rng=0).is_admissible(1.5)


def test_check_admissible_names_the_closest_pair():
    # one closest pair, 0.2 apart against ≥ 1.37 for the others: no tie for rounding to break
    s = Sphere(2)
    pts = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0], [np.cos(0.2), np.sin(0.2), 0]])
    with pytest.raises(NotAdmissibleError, match="vertices 0 and 3 are 0.2 apart, not above r0 = 0.3"):
        check_admissible(pts, s, r0=0.3)
    with pytest.raises(NotAdmissibleError, match="vertices 0 and 1 coincide"):
        check_admissible(np.stack([pts[0], pts[0]]), s)
    with pytest.raises(ShapeError, match="one point per vertex"):
        check_admissible(pts[None], s)
    with pytest.raises(TypeError):
        check_admissible(pts, s, r0="0.1")
