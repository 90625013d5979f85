"""The isotropic family: equivariance, realizing directions, the zero set, and θ's choice."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws import IsotropicFamily, ZeroSetError, check_isotropy
from laws.fields import _act, _random_isometry
from manifolds import (
    Grassmannian,
    NonFiniteError,
    NotOnManifoldError,
    NotTangentError,
    ProjectiveSpace,
    ShapeError,
    Sphere,
)

from tests.spaces import LAW_SPACES as SPACES, random_tangent, space_id


@pytest.mark.parametrize("space", SPACES, ids=space_id)
def test_isotropy_error_below_1e_12(space):
    report = check_isotropy(IsotropicFamily(space), rng=11, n_samples=64)
    assert report.passed, str(report)
    assert report["g·v(θ)_y = v(gθ)_{gy}"].value <= 1e-12


def test_isotropy_check_catches_a_field_that_is_not_equivariant():
    class Tilted(IsotropicFamily):
        def field(self, theta, y):  # adds a fixed ambient direction: breaks equivariance
            return super().field(np.asarray(theta) + np.eye(3)[0], y)

        def unit_field(self, theta, y):
            v = self.field(theta, y)
            return v / np.linalg.norm(v, axis=-1, keepdims=True)

    report = check_isotropy(Tilted(Sphere(2)), rng=0)
    assert not report.passed
    assert report["g·v(θ)_y = v(gθ)_{gy}"].value > 1e-3


@pytest.mark.parametrize("space", SPACES, ids=space_id)
def test_field_is_tangent_and_realizes_v0(space, rng):
    family = IsotropicFamily(space)
    y = space.random_point(6, rng=rng)
    v0 = random_tangent(space, y[0], rng)
    assert np.allclose(family.field(v0, y[0]), v0, atol=1e-14)         # θ = v0 realizes v0
    v = family.field(v0, y)
    space.check_tangent(v, y)                                          # raises if not tangent
    expected = space.dim + 1 if isinstance(space, Sphere) else space.n * (space.n + 1) // 2
    assert family.n_parameters == expected
    with pytest.warns(DeprecationWarning, match="n_parameters"):
        assert family.dim == expected                                  # deprecated alias


@pytest.mark.parametrize("space", SPACES, ids=space_id)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_theta_for_reproduces_random_directions(space, seed):
    gen = np.random.default_rng(seed)
    family = IsotropicFamily(space)
    y0 = space.random_point(1, rng=gen)[0]
    v0 = random_tangent(space, y0, gen) * gen.uniform(0.01, 100)
    avoid = np.concatenate([y0[None], space.random_point(3, rng=gen)])
    theta = family.theta_for(v0, y0, avoid=avoid, radius=0.05, rng=gen)
    a = family.unit_field(theta, y0)
    expected = v0 / np.sqrt(space.inner(v0, v0, y0))
    assert np.abs(a - expected).max() <= 1e-12
    assert abs(np.sqrt(space.inner(a, a, y0)) - 1.0) <= 1e-14
    assert family.zero_set_distance(theta, avoid).min() > 0.05


@pytest.mark.parametrize("space", [Sphere(2), ProjectiveSpace(3), Grassmannian(4, 2)], ids=space_id)
def test_zero_set_is_where_the_field_vanishes(space, rng):
    family = IsotropicFamily(space)
    y0 = space.random_point(1, rng=rng)[0]
    theta = family.theta_for(random_tangent(space, y0, rng), y0, rng=rng)
    zeros = family.zero_set(theta)
    assert np.abs(family.field(theta, zeros)).max() < 1e-14
    # on RP^d the distance is atan2(√outside, √inside): an eps-sized `outside` gives √eps ~ 1.5e-8
    assert np.allclose(family.zero_set_distance(theta, zeros), 0.0, atol=1e-7)
    # brute force: the distance is the least over the zero set, and the field is non-zero
    # at random points (the zero set is finite)
    pts = space.random_point(50, rng=rng)
    brute = np.array([[space.dist(p, z) for z in zeros] for p in pts]).min(1)
    assert np.allclose(family.zero_set_distance(theta, pts), brute, atol=1e-13)
    assert (np.abs(family.field(theta, pts)).max(axis=tuple(range(1, pts.ndim))) > 1e-6).all()


@pytest.mark.parametrize("space", SPACES, ids=space_id)
def test_clearance_is_the_least_zero_set_distance(space, rng):
    # reference: zero_set_distance, one θ at a time
    family = IsotropicFamily(space)
    thetas = rng.standard_normal((6, *space.ambient_shape))
    if thetas.ndim == 3:
        thetas = thetas + np.swapaxes(thetas, 1, 2)
    points = space.random_point(5, rng=rng)
    got = family.clearance(thetas, points)
    want = np.array([family.zero_set_distance(t, points).min() for t in thetas])
    # the batch refuses (-inf) θ whose eigenvalues come within a relative 1e-3 of each other
    usable = np.isfinite(got)
    assert usable.sum() >= 3
    np.testing.assert_allclose(got[usable], want[usable], rtol=0, atol=1e-12)
    with pytest.raises(ShapeError):
        family.clearance(thetas[0], points)


def test_sphere_zero_set_closed_form():
    family = IsotropicFamily(Sphere(2))
    theta = np.array([0.0, 0.0, 2.0])
    pts = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0], [1.0, 0.0, 0.0], [np.sin(1e-9), 0, np.cos(1e-9)]])
    assert np.allclose(family.zero_set_distance(theta, pts), [0.0, 0.0, np.pi / 2, 1e-9], rtol=1e-12, atol=0)


@pytest.mark.parametrize("d", [2, 3, 5])
def test_projective_theta_for_reaches_the_equal_angle_bound(d, rng):
    # the eigenvectors of θ form an orthonormal basis, so one is within arccos(1/√(d+1))
    # of y0; theta_for reaches that bound (θ = v0 only gets π/4)
    space = ProjectiveSpace(d)
    family = IsotropicFamily(space)
    y0 = space.random_point(1, rng=rng)[0]
    v0 = random_tangent(space, y0, rng)
    bound = np.arccos(1 / np.sqrt(d + 1))
    assert family.zero_set_distance(v0, y0) == pytest.approx(np.pi / 4, abs=1e-12)
    reached = family.zero_set_distance(family.theta_for(v0, y0, rng=rng), y0)
    assert bound - 1e-3 < reached <= bound + 1e-12


def test_sphere_theta_for_avoids_points_it_can():
    sphere = Sphere(2)
    family = IsotropicFamily(sphere)
    y0, v0 = np.eye(3)[2], np.eye(3)[0]
    # θ = v0 has its zero set at ±e0; ask to keep it 0.5 away from e0 as well
    theta = family.theta_for(v0, y0, avoid=np.eye(3)[[0, 2]], radius=0.5)
    assert family.zero_set_distance(theta, np.eye(3)[[0, 2]]).min() > 0.5
    assert np.allclose(family.unit_field(theta, y0), v0)


def test_equivariance_of_theta_for_output(rng):
    # the field built for (v0, y0) moved by g realizes g·v0 at g·y0
    space = Grassmannian(4, 2)
    family = IsotropicFamily(space)
    y0 = space.random_point(1, rng=rng)[0]
    v0 = random_tangent(space, y0, rng)
    theta = family.theta_for(v0, y0, rng=rng)
    g = _random_isometry(space, rng)
    moved = family.unit_field(_act(space, g, theta), _act(space, g, y0))
    assert np.allclose(moved, _act(space, g, v0) / np.sqrt(space.inner(v0, v0, y0)), atol=1e-12)


# -- bad input -----------------------------------------------------------------------------
def test_impossible_radius_raises_with_the_best_margin(rng):
    sphere = Sphere(2)
    family = IsotropicFamily(sphere)
    y0 = np.eye(3)[2]
    with pytest.raises(ZeroSetError, match="best keeps it 1.571 away"):
        family.theta_for(np.eye(3)[0], y0, radius=1.6)
    dense = sphere.random_point(400, rng=rng)
    with pytest.raises(ZeroSetError, match="lower the radius"):
        family.theta_for(np.eye(3)[0], y0, avoid=dense, radius=0.3)


def test_bad_parameters_and_points_raise():
    sphere = Sphere(2)
    family = IsotropicFamily(sphere)
    y0 = np.eye(3)[2]
    with pytest.raises(NotTangentError):
        family.theta_for(np.array([0.0, 1.0, 1.0]), y0)
    with pytest.raises(ZeroSetError, match="non-zero direction"):
        family.theta_for(np.zeros(3), y0)
    with pytest.raises(NotOnManifoldError):
        family.field(np.eye(3)[0], np.array([0.0, 0.0, 2.0]))
    with pytest.raises(ZeroSetError, match="zero set"):
        family.unit_field(np.eye(3)[2], y0)
    with pytest.raises(ZeroSetError, match="theta = 0"):
        family.field(np.zeros(3), y0)
    with pytest.raises(NonFiniteError):
        family.field(np.array([np.nan, 0, 0]), y0)
    with pytest.raises(ShapeError):
        family.field(np.ones(4), y0)
    with pytest.raises(TypeError):
        family.field("theta", y0)
    gr = IsotropicFamily(Grassmannian(4, 2))
    with pytest.raises(ShapeError, match="symmetric"):
        gr.field(np.triu(np.ones((4, 4))), np.diag([1.0, 1, 0, 0]))
    with pytest.raises(ZeroSetError, match="repeated eigenvalue"):
        gr.zero_set_distance(np.diag([1.0, 1, 0, 2]), np.diag([1.0, 1, 0, 0]))
