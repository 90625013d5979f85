"""The Space contract: every space subclasses it, the unchecked fast paths agree with the
checked methods, and the structure methods (frame, Euclidean picture, isometries,
conventions) mean the same on every space."""

import numpy as np
import pytest

from manifolds import Grassmannian, ProjectiveSpace, Space, Sphere
from tests.spaces import SPACES

from .helpers import random_orthogonal, random_tangents

ids = [s.name for s in SPACES]


def _pairs(space, rng, count=32, scale=1.0):
    """Base points and points at a random distance below ``scale`` times the injectivity radius."""
    x = space.random_point(count, rng=rng)
    norms = scale * space.injectivity_radius * rng.uniform(0.05, 0.9, count)
    v, _ = random_tangents(space, x, rng, norms)
    return x, space.exp(v, x), v


def test_every_space_meets_the_contract():
    for space in SPACES:
        assert isinstance(space, Space)
    with pytest.raises(TypeError):
        Space()

    class Incomplete(Space):
        pass

    with pytest.raises(TypeError):
        Incomplete()


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_unchecked_paths_agree_with_the_checked_methods(space, rng):
    x, y, v = _pairs(space, rng)
    assert np.array_equal(space.unchecked_dist(x, y), space.dist(x, y))
    assert np.array_equal(space.unchecked_exp(v, x), space.exp(v, x))
    log, angles = space.unchecked_log(y, x)
    assert np.array_equal(log, space.log(y, x))
    m = 1 if isinstance(space, Sphere) else space.k
    assert angles.shape == (len(x), m)
    assert np.allclose(np.linalg.norm(angles, axis=-1), space.dist(x, y), rtol=1e-12, atol=1e-14)
    assert np.array_equal(space.unchecked_inner(v, v), space.inner(v, v, x))
    ambient = rng.standard_normal(x.shape)
    assert np.allclose(space.unchecked_to_tangent(ambient, x), space.to_tangent(ambient, x),
                       rtol=0, atol=1e-14)
    near = x + 1e-3 * space.ambient_projection(rng.standard_normal(x.shape))
    assert np.allclose(space.unchecked_projection(near), space.projection(near), rtol=0, atol=1e-14)
    work = near.copy()
    assert space.unchecked_projection(work, out=work) is work                     # in place


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_deviations_are_the_measures_of_the_checks(space, rng):
    x = space.random_point(8, rng=rng)
    assert space.deviation(x).max() < 1e-13
    off = 2.0 * x
    assert np.array_equal(space.belongs(off, atol=0.5), space.deviation(off) <= 0.5)
    v, _ = random_tangents(space, x, rng, np.ones(8))
    assert space.tangent_deviation(v, x).max() < 1e-13
    assert space.tangent_deviation(x, x).min() > 0.1          # a point is never tangent at itself


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_euclidean_picture(space, rng):
    x, y, _ = _pairs(space, rng, count=64, scale=0.5)
    ex, ey = space.embed(x), space.embed(y)
    assert ex.shape == (64, space.embedding_dim)
    frobenius = np.sqrt(((x - y) ** 2).reshape(64, -1).sum(axis=1))
    assert np.allclose(np.linalg.norm(ex - ey, axis=1), frobenius, rtol=1e-12)
    d = space.dist(x, y)
    assert (np.linalg.norm(ex - ey, axis=1) <= np.array([space.embedding_radius(r) for r in d])).all()
    z = rng.standard_normal(x.shape)
    pz = space.ambient_projection(z)
    assert np.allclose(space.ambient_projection(pz), pz, rtol=0, atol=1e-15)      # a projection
    assert np.allclose(space.embed(pz).shape[-1], space.embedding_dim)


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_isometries_and_frames(space, rng):
    x, y, _ = _pairs(space, rng, count=8)
    g = random_orthogonal(rng, space.ambient_shape[0])
    gx, gy = space.act(g, x), space.act(g, y)
    assert space.deviation(gx).max() < 1e-13
    assert np.allclose(space.dist(gx, gy), space.dist(x, y), rtol=1e-10, atol=1e-13)
    frame = space.frame(x)
    if isinstance(space, Sphere):
        assert frame is None
    else:
        u, uperp = frame
        assert u.shape == (8, space.n, space.k) and uperp.shape == (8, space.n, space.n - space.k)
        assert np.allclose(u @ np.swapaxes(u, -1, -2), x, atol=1e-14)
        assert np.allclose(np.swapaxes(u, -1, -2) @ uperp, 0.0, atol=1e-14)


def test_conventions_are_the_command_line_strings():
    assert Sphere(2).conventions() == {
        "point_model": "unit vectors in R^3",
        "distance": "angle atan2(|x^y|, <x,y>)",
        "metric": "<u,v> (Euclidean)",
    }
    assert ProjectiveSpace(3).conventions() == {
        "point_model": "rank-1 projectors 4x4",
        "distance": "principal angle arccos|<x,y>|",
        "metric": "1/2 tr(u^T v) (geomstats: tr, distances x sqrt 2)",
    }
    assert Grassmannian(5, 2).conventions() == {
        "point_model": "rank-2 projectors 5x5",
        "distance": "sqrt(sum theta_i^2), principal angles",
        "metric": "1/2 tr(u^T v) (geomstats: tr, distances x sqrt 2)",
    }
