"""exp/log, tangent spaces and bases, random points, projections — on every space."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from manifolds import CutLocusError, Grassmannian, ProjectiveSpace, Sphere
from tests.manifolds.helpers import SPACES, random_tangent

EPS = np.finfo(float).eps

ids = [s.name for s in SPACES]


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_exp_log_round_trip_up_to_090_injectivity_radius(space, rng):
    x = space.random_point(1, rng=rng)[0]
    worst = 0.0
    for norm in np.concatenate([np.logspace(-9, 0, 10), np.linspace(0.1, 0.9, 9)
                                * space.injectivity_radius]):
        for trial in range(4):
            v = random_tangent(space, x, rng, norm)
            if isinstance(space, Grassmannian) and space.k > 1 and trial % 2 == 0:
                # concentrate the norm on one principal angle too: the hardest direction
                v = norm * space.tangent_basis(x)[rng.integers(space.dim)]
            y = space.exp(v, x)
            assert bool(space.belongs(y, atol=1e-13))
            back = space.log(y, x)
            # a float point fixes its position only to ~eps: relative 1e-12 above ~1e-3,
            # a few eps absolute below
            err = np.sqrt(space.inner(back - v, back - v, x))
            worst = max(worst, float(err / (1e-12 * norm + 8 * EPS)))
            assert abs(space.dist(x, y) - norm) <= 1e-12 * norm + 8 * EPS
    assert worst <= 1.0, worst


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_log_at_cut_locus_raises(space, rng):
    x = space.random_point(1, rng=rng)[0]
    if isinstance(space, Sphere):
        y = -x
    else:
        u, uperp = space._bases(x)
        # swap one basis direction of the range for a kernel direction: angle exactly π/2
        w = np.concatenate([u[:, 1:], uperp[:, :1]], axis=1)
        y = w @ w.T
    with pytest.raises(CutLocusError, match="not unique"):
        space.log(y, x)
    # along a geodesic toward the cut locus: refused within 1e-12 of it, answered at 1e-9
    e = space.tangent_basis(x)[0]
    with pytest.raises(CutLocusError):
        space.log(space.exp((space.injectivity_radius - 1e-14) * e, x), x)
    near = space.injectivity_radius - 1e-9
    back = space.log(space.exp(near * e, x), x)
    # precision degrades like eps / (distance to the cut locus) there, as documented
    assert np.sqrt(space.inner(back - near * e, back - near * e, x)) < 1e-5


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_tangent_basis_is_orthonormal_and_tangent(space, rng):
    x = space.random_point(5, rng=rng)
    basis = space.tangent_basis(x)
    assert basis.shape == (5, space.dim) + space.ambient_shape
    gram = space.inner(basis[:, :, None], basis[:, None, :], x[:, None, None])
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(space.dim), gram.shape), atol=1e-13)
    projected = space.to_tangent(basis, x[:, None])
    np.testing.assert_allclose(projected, basis, atol=1e-13)


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_to_tangent_is_an_orthogonal_projection(space, rng):
    x = space.random_point(3, rng=rng)
    z = rng.standard_normal((3,) + space.ambient_shape)
    t = space.to_tangent(z, x)
    np.testing.assert_allclose(space.to_tangent(t, x), t, atol=1e-13)  # idempotent
    # the residual is orthogonal to every tangent vector (Frobenius pairing of the ambient)
    basis = space.tangent_basis(x)
    sym = z if isinstance(space, Sphere) else 0.5 * (z + np.swapaxes(z, -1, -2))
    resid = (sym - t)[:, None]
    axes = tuple(range(2, 2 + len(space.ambient_shape)))
    assert np.abs((resid * basis).sum(axis=axes)).max() < 1e-13


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_random_point_shapes_membership_and_seed(space):
    assert space.random_point(1, rng=0).shape == (1,) + space.ambient_shape
    assert space.random_point(0, rng=0).shape == (0,) + space.ambient_shape
    a, b = space.random_point(4, rng=7), space.random_point(4, rng=7)
    assert np.array_equal(a, b)
    assert space.belongs(space.random_point(50, rng=1), atol=1e-13).all()


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_projection_is_nearest_point_and_fixes_points(space, rng):
    x = space.random_point(4, rng=rng)
    np.testing.assert_allclose(space.projection(x), x, atol=1e-14)
    noisy = x + 1e-3 * rng.standard_normal(x.shape)
    p = space.projection(noisy)
    assert space.belongs(p, atol=1e-13).all()
    # nearer to the noisy input than the original point is
    axes = tuple(range(1, x.ndim))
    to_p = np.sqrt(((noisy - p) ** 2).sum(axis=axes))
    to_x = np.sqrt(((noisy - x) ** 2).sum(axis=axes))
    assert (to_p <= to_x).all()


def test_uniformity_of_random_points_on_sphere():
    # mean of a uniform sample is near 0 and its second moment near I/(d+1)
    x = Sphere(3).random_point(20000, rng=3)
    assert np.abs(x.mean(axis=0)).max() < 0.03
    np.testing.assert_allclose(x.T @ x / len(x), np.eye(4) / 4, atol=0.01)


def test_uniformity_of_random_grassmannian_points():
    p = Grassmannian(5, 2).random_point(20000, rng=4)
    np.testing.assert_allclose(p.mean(axis=0), np.eye(5) * 2 / 5, atol=0.01)


def test_batches_broadcast():
    s = Sphere(2)
    x = s.random_point(3, rng=1)
    y = s.random_point(4, rng=2)
    d = s.dist(x[:, None], y[None, :])
    assert d.shape == (3, 4)
    assert d[1, 2] == s.dist(x[1], y[2])
    gr = Grassmannian(4, 2)
    p, q = gr.random_point(2, rng=1), gr.random_point(5, rng=2)
    assert gr.dist(p[:, None], q[None]).shape == (2, 5)
    assert gr.log(q[None], p[:, None]).shape == (2, 5, 4, 4)


def test_broadcast_batches_mixing_near_and_generic_pairs(rng):
    # the chord path runs on the near rows of a broadcast batch only: results must equal the
    # pair-by-pair values
    s = Sphere(4)
    x = s.random_point(3, rng=rng)
    y = np.concatenate([x[:2] + 1e-9 * rng.standard_normal((2, 5)), -x[2:] + 1e-7,
                        s.random_point(2, rng=rng)])
    y = s.projection(y)
    d = s.dist(x[:, None], y[None, :])
    logs = s.log(y[None, :], x[:, None])
    for i in range(3):
        for j in range(5):
            assert d[i, j] == s.dist(x[i], y[j])
            np.testing.assert_array_equal(logs[i, j], s.log(y[j], x[i]))


def test_projective_vector_conversion_round_trip(rng):
    rp = ProjectiveSpace(4)
    v = rng.standard_normal((6, 5))
    p = rp.from_vectors(3.0 * v)
    u = rp.to_vectors(p)
    np.testing.assert_allclose(np.abs(np.einsum("ni,ni->n", u, v / np.linalg.norm(v, axis=1)[:, None])),
                               1.0, atol=1e-14)
    np.testing.assert_allclose(rp.from_vectors(u), p, atol=1e-14)
    # the distance is the angle between the lines, |<x,y>| invariant under sign flips
    np.testing.assert_allclose(
        rp.dist(p[0], rp.from_vectors(-v[1])),
        np.arccos(abs(v[0] @ v[1]) / np.linalg.norm(v[0]) / np.linalg.norm(v[1])), rtol=1e-12)


# -- properties that must hold on every input -------------------------------------------------
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, which=st.sampled_from(range(len(SPACES))))
def test_metric_axioms_and_isometry_invariance(seed, which):
    space = SPACES[which]
    rng = np.random.default_rng(seed)
    x, y, z = space.random_point(3, rng=rng)
    dxy, dyx = space.dist(x, y), space.dist(y, x)
    assert dxy == pytest.approx(dyx, rel=1e-13, abs=1e-15)
    assert space.dist(x, x) <= 1e-7  # float projectors fix a subspace to ~1e-8 in angle
    assert dxy <= space.dist(x, z) + space.dist(z, y) + 1e-12
    # invariance under an orthogonal change of coordinates of the ambient space
    n = space.ambient_shape[0]
    g, _ = np.linalg.qr(rng.standard_normal((n, n)))
    act = (lambda a: a @ g.T) if isinstance(space, Sphere) else (lambda a: g @ a @ g.T)
    assert space.dist(act(x), act(y)) == pytest.approx(dxy, rel=1e-12, abs=1e-14)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, which=st.sampled_from(range(len(SPACES))),
       frac=st.floats(min_value=1e-6, max_value=0.95))
def test_geodesics_realize_their_length(seed, which, frac):
    space = SPACES[which]
    rng = np.random.default_rng(seed)
    x = space.random_point(1, rng=rng)[0]
    v = random_tangent(space, x, rng, frac * space.injectivity_radius)
    # d(x, exp(tv)) = t|v| along the whole segment below the injectivity radius
    ts = np.array([0.25, 0.5, 1.0])
    ys = space.exp(ts.reshape((3,) + (1,) * v.ndim) * v, x)
    np.testing.assert_allclose(space.dist(x, ys), ts * frac * space.injectivity_radius,
                               rtol=1e-11, atol=8 * EPS)
