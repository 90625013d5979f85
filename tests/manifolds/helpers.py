"""Constructions shared by the manifold tests: pairs at prescribed principal angles."""

import numpy as np

from manifolds import Grassmannian, ProjectiveSpace, Sphere

SPACES = [Sphere(2), Sphere(7), ProjectiveSpace(2), ProjectiveSpace(5),
          Grassmannian(4, 2), Grassmannian(6, 3), Grassmannian(5, 3)]


def random_orthogonal(rng, n):
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.sign(np.diag(r))


def sphere_pair(rng, dim, angle):
    """A generic pair of unit vectors (in float) at the given angle."""
    q = random_orthogonal(rng, dim + 1)
    x, t = q[:, 0], q[:, 1]
    return x, np.cos(angle) * x + np.sin(angle) * t


def projector_pair(rng, n, angles):
    """Projectors ``U Uᵀ`` and ``W Wᵀ`` whose ranges have the given principal angles,
    rotated generically (no axis alignment)."""
    k = len(angles)
    assert 2 * k <= n
    q = random_orthogonal(rng, n)
    u = q[:, :k]
    w = np.cos(angles) * q[:, :k] + np.sin(angles) * q[:, k:2 * k]
    mix = random_orthogonal(rng, k)  # a generic basis of the same subspaces
    u, w = u @ mix, w @ random_orthogonal(rng, k)
    return u @ u.T, w @ w.T


def random_tangent(space, point, rng, norm):
    """A tangent vector of the given g-norm at ``point`` in a random direction."""
    basis = space.tangent_basis(point)
    coef = rng.standard_normal(space.dim)
    coef *= norm / np.linalg.norm(coef)
    return np.tensordot(coef, basis, axes=1)
