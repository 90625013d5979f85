"""exp/log, tangent spaces and bases, random points, projections — on every space."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from manifolds import CutLocusError, Grassmannian, ProjectiveSpace, Sphere
from tests.manifolds.helpers import (
    EXP_DEVIATION_BOUND,
    dist_bound,
    geodesic_length_bound,
    random_tangents,
    round_trip_bound,
)
from tests.spaces import SPACES, random_tangent

ids = [s.name for s in SPACES]
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _log_uniform(rng, lo, hi, size):
    return np.exp(rng.uniform(np.log(lo), np.log(hi), size))


def _g_norm(space, v):
    axes = tuple(range(-len(space.ambient_shape), 0))
    scale = 1.0 if isinstance(space, Sphere) else 0.5
    return np.sqrt(scale * (v * v).sum(axis=axes))


@pytest.mark.parametrize("space", SPACES, ids=ids)
@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_exp_log_round_trip_within_bound_up_to_the_injectivity_radius(space, seed):
    # 1000 draws per seed: base points uniform, norms log-uniform from 1e-10 to the injectivity
    # radius (a fifth of them within 1e-3 of it), directions Gaussian and, on Gr(k, n), also
    # all on one principal angle or spread over equal ones (helpers.FAMILIES)
    rng = np.random.default_rng(seed)
    r = space.injectivity_radius
    norms = r * np.concatenate([_log_uniform(rng, 1e-10, 1.0, 800),
                                1 - _log_uniform(rng, 1e-7, 1e-3, 200)])
    x = space.random_point(len(norms), rng=rng)
    v, _ = random_tangents(space, x, rng, norms)
    y = space.exp(v, x)
    assert space.belongs(y, atol=EXP_DEVIATION_BOUND).all()
    back = space.log(y, x)
    assert (_g_norm(space, back - v) <= round_trip_bound(space, norms)).all()
    assert (np.abs(space.dist(x, y) - norms) <= geodesic_length_bound(space, norms)).all()


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
    # along geodesics toward the cut locus, from 50 base points: refused within 1e-12 of it,
    # answered at 1e-9 within the documented bound (on spheres it grows like eps / (π − |v|))
    x = space.random_point(50, rng=rng)
    e = space.tangent_basis(x)[:, 0]
    with pytest.raises(CutLocusError):
        space.log(space.exp((space.injectivity_radius - 1e-14) * e, x), x)
    near = space.injectivity_radius - 1e-9
    back = space.log(space.exp(near * e, x), x)
    err = _g_norm(space, back - near * e)
    assert (err <= round_trip_bound(space, np.full(50, near))).all()


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
    assert abs(d[1, 2] - s.dist(x[1], y[2])) <= 2 * dist_bound(s, d[1, 2])
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
    # not bitwise: the dot products (einsum) may sum in another order for another memory
    # layout; a row mixed up by the gather would be off by far more than the stated bounds
    for i in range(3):
        for j in range(5):
            single = s.dist(x[i], y[j])
            assert abs(d[i, j] - single) <= 2 * dist_bound(s, single)
            tol = 2 * round_trip_bound(s, single)
            assert np.sqrt(((logs[i, j] - s.log(y[j], x[i])) ** 2).sum()) <= tol


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


@settings(max_examples=40, deadline=None)
@given(seed=seeds, which=st.sampled_from(range(len(SPACES))))
def test_metric_axioms_and_isometry_invariance(seed, which):
    space = SPACES[which]
    rng = np.random.default_rng(seed)
    x, y, z = space.random_point(3, rng=rng)
    dxy, dyx = space.dist(x, y), space.dist(y, x)
    # both are within the stated bound of the same distance
    assert abs(dxy - dyx) <= 2 * dist_bound(space, dxy)
    # exactly 0: the chord x − x (sphere) or P − P (projectors) is exactly the zero vector or
    # matrix, whose norm or eigenvalues are exactly 0, and atan2(0, c > 0) = 0
    assert space.dist(x, x) == 0.0
    dxz, dzy = space.dist(x, z), space.dist(z, y)
    slack = dist_bound(space, dxy) + dist_bound(space, dxz) + dist_bound(space, dzy)
    assert dxy <= dxz + dzy + slack
    # invariance under an orthogonal change of coordinates of the ambient space; the rotated
    # points are new float inputs (g is orthogonal and its products exact only to ~n eps), so
    # the tolerance is loose: 1e-12 relative is over 4000 eps, against a few eps expected
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
    # d(x, exp(tv)) = t|v| along the whole segment below the injectivity radius (t a power of
    # two: tv is exact), within the stated bound on the geodesic length
    ts = np.array([0.25, 0.5, 1.0])
    ys = space.exp(ts.reshape((3,) + (1,) * v.ndim) * v, x)
    lengths = ts * frac * space.injectivity_radius
    assert (np.abs(space.dist(x, ys) - lengths) <= geodesic_length_bound(space, lengths)).all()
