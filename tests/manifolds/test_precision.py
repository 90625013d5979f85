"""Distances and principal angles against references computed from the very same float inputs.

The bounds are those docs/manifolds.md ("Precision") states, as the functions of
``tests/manifolds/helpers.py``; ``benchmarks/bench_precision.py`` reports their worst cases
over 10^4 draws per space and scale under several BLAS kernels. Here every test draws its
inputs from many seeds (hypothesis, derandomized), a batch per seed covering every scale,
and compares them with the fast longdouble references of ``tests/manifolds/reference.py``;
a few pairs per space are also checked against 60-digit mpmath, which checks those
references in turn.
"""

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from manifolds import Grassmannian, ProjectiveSpace, Sphere
from tests.manifolds import reference as R
from tests.manifolds.helpers import (
    PROJECTOR_SPACES,
    SPHERE_DIMS,
    principal_angle_bound,
    projector_dist_bound,
    projector_pairs,
    sphere_dist_bound,
    sphere_pairs,
)

mp.mp.dps = 60
seeds = st.integers(min_value=0, max_value=2**32 - 1)
names = [s.name for s in PROJECTOR_SPACES]


def mp_sphere_angle(x, y):
    """Angle between the float vectors x, y (not normalized) in 60-digit arithmetic."""
    X = [mp.mpf(float(v)) for v in x]
    Y = [mp.mpf(float(v)) for v in y]
    xy = mp.fsum(a * b for a, b in zip(X, Y))
    wedge = mp.sqrt(mp.fsum((X[i] * Y[j] - X[j] * Y[i]) ** 2
                            for i in range(len(X)) for j in range(i + 1, len(X))))
    return mp.atan2(wedge, xy)


def mp_top_eigenspace(p, k):
    """The top-k eigenspace of the given float matrix, as an mpmath orthonormal basis."""
    a = mp.matrix(p.tolist())
    a = (a + a.T) / 2
    vals, vecs = mp.eigsy(a)
    order = sorted(range(a.rows), key=lambda i: vals[i], reverse=True)[:k]
    return mp.matrix([[vecs[r, c] for c in order] for r in range(a.rows)])


def mp_principal_angles(p, q, k):
    """Ascending principal angles: arccos of the singular values of UᵀW (60 digits)."""
    m = mp_top_eigenspace(p, k).T * mp_top_eigenspace(q, k)
    s = mp.svd_r(m, compute_uv=False)
    return sorted(mp.acos(min(mp.mpf(1), c)) for c in s)


def _ld(value):
    return mp.mpf(str(value))  # repr of a longdouble keeps all its digits


# -- the references themselves ----------------------------------------------------------------
@pytest.mark.parametrize("dim", SPHERE_DIMS)
def test_sphere_reference_and_dist_against_mpmath(dim):
    rng = np.random.default_rng(dim)
    angles = np.concatenate([np.logspace(-10, 0, 6), [2.0, 3.0, np.pi - 1e-6]])
    x, y = sphere_pairs(rng, dim, angles, norm_jitter=1e-9)
    ld = R.sphere_angle(x, y)
    got = Sphere(dim).dist(x, y)
    gap = np.abs(np.linalg.norm(x, axis=1) - np.linalg.norm(y, axis=1))
    for i in range(len(angles)):
        ref = mp_sphere_angle(x[i], y[i])
        assert abs(_ld(ld[i]) - ref) / ref <= 1e-17  # the longdouble reference: ~1e-19
        bound = sphere_dist_bound(dim, float(ref), gap[i])
        assert abs(mp.mpf(float(got[i])) - ref) <= bound, (angles[i], float(got[i]), ref)


@pytest.mark.parametrize("space", PROJECTOR_SPACES, ids=names)
def test_projector_reference_and_angles_against_mpmath(space):
    rng = np.random.default_rng(space.n * 10 + space.k)
    m = min(space.k, space.n - space.k)
    angles = np.zeros((4, space.k))
    angles[:, 0] = [1e-10, 1e-3, 0.9, np.pi / 2 - 1e-7]
    angles[:, 1:m] = angles[:, :1] * rng.uniform(0.05, 1.0, (4, m - 1))
    p, q = projector_pairs(rng, space.n, angles)
    ld = R.principal_angles(p, q, space.k)
    got = space.principal_angles(p, q)
    dist = space.dist(p, q)
    defect = R.defect_norm(p) + R.defect_norm(q)
    for i in range(len(p)):
        ref = mp_principal_angles(p[i], q[i], space.k)
        dref = mp.sqrt(mp.fsum(t * t for t in ref))
        top = float(ref[-1])
        for j, t in enumerate(ref):
            # the longdouble reference: relative to the largest angle (~1e-18)
            assert abs(_ld(ld[i, j]) - t) <= 1e-17 * top
            assert abs(mp.mpf(float(got[i, j])) - t) <= principal_angle_bound(space, top)
        bound = projector_dist_bound(space, float(dref), defect[i])
        assert abs(mp.mpf(float(dist[i])) - dref) <= bound


# -- the library against the references, many seeds -------------------------------------------
def _log_uniform(rng, lo, hi, size):
    return np.exp(rng.uniform(np.log(lo), np.log(hi), size))


@pytest.mark.parametrize("dim", SPHERE_DIMS)
@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_sphere_dist_within_bound_at_every_angle(dim, seed):
    # 1000 pairs per seed: angles log-uniform in [1e-10, 3], and up to 1e-6 below π; half of
    # them with norms off 1 by up to 1e-8 (all the checks accept)
    rng = np.random.default_rng(seed)
    angles = np.concatenate([_log_uniform(rng, 1e-10, 3.0, 750),
                             np.pi - _log_uniform(rng, 1e-6, 0.14, 250)])
    jitter = np.where(rng.random(1000) < 0.5, 0.0, 1e-8)
    x, y = sphere_pairs(rng, dim, angles)
    x = x * (1 + jitter * rng.uniform(-1, 1, 1000))[:, None]
    y = y * (1 + jitter * rng.uniform(-1, 1, 1000))[:, None]
    ref = R.sphere_angle(x, y)
    gap = np.abs(np.linalg.norm(x, axis=1) - np.linalg.norm(y, axis=1))
    err = np.abs(Sphere(dim).dist(x, y).astype(R.LD) - ref).astype(float)  # in longdouble
    ref = ref.astype(float)
    assert (err <= sphere_dist_bound(dim, ref, gap)).all(), angles[np.argmax(err / ref)]


@pytest.mark.parametrize("space", PROJECTOR_SPACES, ids=names)
@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_projector_dist_and_angles_within_bound_at_every_angle(space, seed):
    # 600 pairs per seed: the largest angle log-uniform in [1e-10, π/2] (a third of them
    # within 1e-3 of π/2), the others generic, equal to it, zero or smaller by up to 1e-8
    rng = np.random.default_rng(seed)
    k, m, b = space.k, min(space.k, space.n - space.k), 600
    top = np.concatenate([_log_uniform(rng, 1e-10, np.pi / 2, 400),
                          np.pi / 2 - _log_uniform(rng, 1e-12, 1e-3, 200)])
    angles = np.zeros((b, k))
    angles[:, 0] = top
    if m > 1:
        family = rng.integers(4, size=b)[:, None]
        rest = top[:, None] * np.select(
            [family == 0, family == 1, family == 2],
            [rng.uniform(0.05, 1, (b, m - 1)), np.ones((b, m - 1)), np.zeros((b, m - 1))],
            10.0 ** rng.uniform(-8, 0, (b, m - 1)))
        angles[:, 1:m] = rest
    p, q = projector_pairs(rng, space.n, angles)
    ref = R.principal_angles(p, q, k)  # longdouble: the errors are taken in longdouble
    err = np.abs(space.principal_angles(p, q).astype(R.LD) - ref).astype(float)
    assert (err <= principal_angle_bound(space, ref[:, -1:].astype(float))).all()
    dref = np.sqrt((ref ** 2).sum(axis=1))
    err = np.abs(space.dist(p, q).astype(R.LD) - dref).astype(float)
    defect = R.defect_norm(p) + R.defect_norm(q)
    assert (err <= projector_dist_bound(space, dref.astype(float), defect)).all()


# -- exact by construction --------------------------------------------------------------------
def test_orthogonal_and_equal_lines_are_exact():
    # from_vectors of coordinate vectors gives diagonal 0/1 matrices exactly. For diagonal
    # input LAPACK's eigvalsh returns the diagonal (the tridiagonal reduction is the identity
    # and no QL step runs), so P − Q = diag(1, −1, 0, 0) gives the sine (1 − (−1))/2 = 1 and
    # P + Q − I = diag(0, 0, −1, −1) the cosine 0: atan2(1, 0) is π/2 to the last bit (C99
    # Annex F); P − P = 0 gives the sine 0 and the angle 0.
    rp = ProjectiveSpace(3)
    lines = rp.from_vectors(np.eye(4))
    d = rp.dist(lines[:, None], lines[None, :])
    assert np.all(d[~np.eye(4, dtype=bool)] == np.pi / 2)
    assert np.all(np.diag(d) == 0)


def test_orthogonal_planes_in_r4_exactly():
    gr = Grassmannian(4, 2)
    p, q = np.diag([1.0, 1, 0, 0]), np.diag([0.0, 0, 1, 1])
    # diagonal inputs, as above: each angle is atan2(1, 0) = π/2 exactly ...
    assert np.array_equal(gr.principal_angles(p, q), [np.pi / 2, np.pi / 2])
    # ... and the distance sqrt(2 fl(π²/4)) is within an ulp of √2 π/2 (mpmath)
    exact = mp.sqrt(2) * mp.pi / 2
    assert abs(mp.mpf(float(gr.dist(p, q))) - exact) <= np.spacing(float(exact))
    # one angle π/2, one angle 0: span(e1,e2) vs span(e1,e3), again from diagonal matrices
    r = np.diag([1.0, 0, 1, 0])
    assert np.array_equal(gr.principal_angles(p, r), [0.0, np.pi / 2])


def test_subspaces_sharing_a_plane_have_exact_zero_angles():
    # 3-planes in R^5 share at least a line: that angle is exactly 0 whatever the rounding
    # (the padding of the k − (n − k) forced zeros), the others match the reference
    gr = Grassmannian(5, 3)
    rng = np.random.default_rng(5)
    p, q = projector_pairs(rng, 5, np.array([[0.3, 1e-9, 0.0]] * 20))
    angles = gr.principal_angles(p, q)
    assert np.all(angles[:, 0] == 0.0)
    ref = R.principal_angles(p, q, 3).astype(float)
    assert (np.abs(angles - ref) <= principal_angle_bound(gr, ref[:, -1:])).all()
