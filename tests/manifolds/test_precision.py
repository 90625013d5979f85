"""Distances against mpmath references computed from the very same float inputs."""

import mpmath as mp
import numpy as np
import pytest

from manifolds import Grassmannian, ProjectiveSpace, Sphere

from tests.manifolds.helpers import projector_pair, sphere_pair

EPS = np.finfo(float).eps
mp.mp.dps = 60


def mp_sphere_angle(x, y):
    """Angle between the float vectors x, y (not normalized) in 60-digit arithmetic."""
    X = [mp.mpf(float(v)) for v in x]
    Y = [mp.mpf(float(v)) for v in y]
    xx = mp.fsum(a * a for a in X)
    yy = mp.fsum(b * b for b in Y)
    xy = mp.fsum(a * b for a, b in zip(X, Y))
    wedge = mp.sqrt(mp.fsum((X[i] * Y[j] - X[j] * Y[i]) ** 2
                            for i in range(len(X)) for j in range(i + 1, len(X))))
    del xx, yy
    return mp.atan2(wedge, xy)


def mp_top_eigenspace(p, k):
    """The top-k eigenspace of the given float matrix, as an mpmath orthonormal basis."""
    a = mp.matrix(p.tolist())
    a = (a + a.T) / 2
    vals, vecs = mp.eigsy(a)
    order = sorted(range(a.rows), key=lambda i: vals[i], reverse=True)[:k]
    return mp.matrix([[vecs[r, c] for c in order] for r in range(a.rows)])


def mp_grassmann_dist(p, q, k):
    u = mp_top_eigenspace(p, k)
    w = mp_top_eigenspace(q, k)
    m = u.T * w
    s = mp.svd_r(m, compute_uv=False)
    angles = [mp.acos(min(mp.mpf(1), c)) for c in s]
    return mp.sqrt(mp.fsum(t * t for t in angles))


ANGLES = np.concatenate([np.logspace(-10, 0, 21), np.linspace(1.1, np.pi - 1e-2, 8),
                         np.pi - np.logspace(-2, -6, 5)])


@pytest.mark.parametrize("dim", [2, 7, 63])
def test_sphere_dist_relative_error_at_every_angle(dim, rng):
    worst = 0.0
    for angle in ANGLES:
        for _ in range(3):
            x, y = sphere_pair(rng, dim, angle)
            ref = mp_sphere_angle(x, y)
            got = Sphere(dim).dist(x, y)
            worst = max(worst, float(abs(mp.mpf(float(got)) - ref) / ref))
    assert worst <= 1e-11, worst


def _ulp(x):
    return np.spacing(abs(x))


GRASS_CASES = [
    (ProjectiveSpace(2), 1), (ProjectiveSpace(5), 1), (Grassmannian(4, 2), 2),
    (Grassmannian(6, 3), 3),
]


@pytest.mark.parametrize("space,k", GRASS_CASES, ids=lambda v: getattr(v, "name", str(v)))
def test_projector_dist_error_at_every_angle(space, k, rng):
    largest = np.concatenate([np.logspace(-10, 0, 11), [1.3, 1.5, np.pi / 2 - 1e-3,
                                                        np.pi / 2 - 1e-7]])
    for top in largest:
        angles = np.sort(top * np.concatenate([[1.0], rng.uniform(0.05, 1.0, k - 1)]))
        p, q = projector_pair(rng, space.n, angles)
        ref = mp_grassmann_dist(p, q, k)
        got = float(space.dist(p, q))
        err = float(abs(mp.mpf(got) - ref))
        assert err <= 2 * _ulp(float(ref)) + 2 * EPS, (top, err)
        if top >= 1e-3:
            assert err / float(ref) <= 1e-12, (top, err)


def test_orthogonal_lines_are_exactly_pi_over_2():
    rp = ProjectiveSpace(3)
    lines = rp.from_vectors(np.eye(4))
    d = rp.dist(lines[:, None], lines[None, :])
    assert np.all(d[~np.eye(4, dtype=bool)] == np.pi / 2)
    assert np.all(np.diag(d) == 0)


def test_orthogonal_planes_in_r4_exactly():
    gr = Grassmannian(4, 2)
    p, q = np.diag([1.0, 1, 0, 0]), np.diag([0.0, 0, 1, 1])
    assert gr.dist(p, q) == np.hypot(np.pi / 2, np.pi / 2)
    assert np.array_equal(gr.principal_angles(p, q), [np.pi / 2, np.pi / 2])
    # one angle pi/2, one angle 0: span(e1,e2) vs span(e1,e3)
    r = np.diag([1.0, 0, 1, 0])
    assert np.array_equal(gr.principal_angles(p, r), [0.0, np.pi / 2])
