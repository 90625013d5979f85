"""Agreement with geomstats 2.8.0 where it is right, and the cases where it is not."""

import numpy as np
import pytest

from manifolds import Grassmannian, ProjectiveSpace, Sphere
from tests.manifolds import reference as R
from tests.manifolds.helpers import (
    principal_angle_bound,
    projector_pairs,
    sphere_pairs,
)
from tests.spaces import random_tangent

SPACES = [Sphere(2), Sphere(9), ProjectiveSpace(3), Grassmannian(4, 2), Grassmannian(6, 3)]
ids = [s.name for s in SPACES]


def _scale(space):
    """geomstats' Grassmannian metric is tr(UᵀV): its distances are √2 times ours."""
    return 1.0 if isinstance(space, Sphere) else np.sqrt(2.0)


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_dist_exp_log_agree_with_geomstats(space, rng):
    gs = space.geomstats
    assert gs.dim == space.dim
    x = space.random_point(20, rng=rng)
    v = np.stack([random_tangent(space, xi, rng, t) for xi, t in
                  zip(x, rng.uniform(0.05, 0.8, 20) * space.injectivity_radius)])
    y = space.exp(v, x)
    np.testing.assert_allclose(gs.metric.exp(v, x), y, atol=1e-10)
    np.testing.assert_allclose(gs.metric.log(y, x), space.log(y, x), atol=1e-9)
    np.testing.assert_allclose(np.asarray(gs.metric.dist(x, y)) / _scale(space),
                               space.dist(x, y), rtol=1e-9)
    # same points: geomstats accepts ours and we accept its random points
    assert np.all(gs.belongs(y))
    assert np.all(space.belongs(gs.random_point(5)))


def test_geomstats_sphere_arccos_loses_small_angles(rng):
    sphere = Sphere(5)
    x, y = sphere_pairs(rng, 5, np.full(200, 1e-9))  # 200 generic pairs at angle 1e-9
    ours = sphere.dist(x, y)
    theirs = np.asarray(sphere.geomstats.metric.dist(x, y))
    # the float pairs are 1e-9 apart only to ~eps (the rounding of y = cos·x + sin·t moves y
    # by at most ~eps); our error is relative (a few eps of 1e-9)
    assert np.all(np.abs(ours - 1e-9) < 4 * np.finfo(float).eps)
    # arccos near 1 has no digits left at this angle: it returns 0, 1.5e-8, 2.1e-8, ...
    assert np.all(np.abs(theirs - 1e-9) > 1e-10)


def test_geomstats_returns_zero_at_principal_angle_pi_over_2():
    gr = Grassmannian(4, 2)
    p, q = np.diag([1.0, 1, 0, 0]), np.diag([0.0, 0, 1, 1])  # span(e1,e2) vs span(e3,e4)
    assert float(np.asarray(gr.geomstats.metric.dist(p, q))) == 0.0
    # exact: eigvalsh of diagonal matrices returns their diagonals, so each angle is
    # atan2(1, 0) = π/2 (see test_precision); the distance is within an ulp of √2 π/2
    assert np.array_equal(gr.principal_angles(p, q), [np.pi / 2, np.pi / 2])
    assert abs(gr.dist(p, q) - np.sqrt(2) * np.pi / 2) <= np.spacing(np.sqrt(2) * np.pi / 2)


def test_geomstats_returns_zero_for_orthogonal_lines():
    rp = ProjectiveSpace(2)
    p, q = rp.from_vectors(np.eye(3)[:2])
    assert float(np.asarray(rp.geomstats.metric.dist(p, q))) == 0.0
    # exact: one angle atan2(1, 0) = π/2 from diagonal matrices, and sqrt(fl(a²)) = a
    assert rp.dist(p, q) == np.pi / 2


def test_injectivity_radius_matches_geomstats_in_our_normalization():
    # geomstats' Grassmannian injectivity radius is π/2; in its own √2-scaled metric the true
    # radius would be π/√2, in ours it is π/2 (one principal angle reaching π/2).
    gr = Grassmannian(5, 2)
    assert gr.geomstats.metric.injectivity_radius(gr.random_point(1, rng=0)[0]) == gr.injectivity_radius
    # and it is sharp: a geodesic of length just past π/2 along one angle comes back closer
    x = gr.random_point(1, rng=0)[0]
    e = gr.tangent_basis(x)[0]
    assert gr.dist(x, gr.exp(1.6 * e, x)) == pytest.approx(np.pi - 1.6, rel=1e-12)


def test_near_pi_over_2_grassmann_against_projector_pairs(rng):
    # 100 generic pairs with one angle 1e-9 below π/2, against the longdouble reference of the
    # very same float matrices (which are at the nominal angles only to ~eps)
    gr = Grassmannian(6, 3)
    nominal = np.array([0.2, 1.0, np.pi / 2 - 1e-9])
    p, q = projector_pairs(rng, 6, np.tile(nominal, (100, 1)))
    angles = gr.principal_angles(p, q)
    ref = R.principal_angles(p, q, 3).astype(float)
    assert (np.abs(angles - ref) <= principal_angle_bound(gr, ref[:, -1:])).all()
    np.testing.assert_allclose(angles, np.broadcast_to(nominal, angles.shape), rtol=0, atol=1e-14)
