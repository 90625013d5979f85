"""Constructions shared by the manifold tests and ``benchmarks/bench_precision.py``: pairs at
prescribed angles and tangent vectors of prescribed norms, batched (one draw per row)."""

import numpy as np

from manifolds import Grassmannian, Sphere
from tests.spaces import SPACES

#: The projector spaces of SPACES with their ``k``; the spheres of the distance tests.
PROJECTOR_SPACES = [s for s in SPACES if isinstance(s, Grassmannian)]
SPHERE_DIMS = [2, 7, 63]


def random_orthogonal(rng, n, size=None):
    """Haar-random orthogonal ``n×n`` matrices, shape ``(n, n)`` or ``(size, n, n)``."""
    shape = (n, n) if size is None else (size, n, n)
    q, r = np.linalg.qr(rng.standard_normal(shape))
    return q * np.sign(np.diagonal(r, axis1=-2, axis2=-1))[..., None, :]


def sphere_pairs(rng, dim, angles, *, norm_jitter=0.0):
    """Pairs of vectors of ``R^{dim+1}`` at the given angles (shape ``(B,)``), generic
    directions; with ``norm_jitter`` each vector's norm is ``1 + U(−j, j)`` (the spaces accept
    norms within ``atol`` of 1 and never normalize)."""
    b = len(angles)
    x = rng.standard_normal((b, dim + 1))
    x /= np.linalg.norm(x, axis=1)[:, None]
    t = rng.standard_normal((b, dim + 1))
    t -= np.einsum("bi,bi->b", t, x)[:, None] * x
    t /= np.linalg.norm(t, axis=1)[:, None]
    y = np.cos(angles)[:, None] * x + np.sin(angles)[:, None] * t
    if norm_jitter:
        x = x * (1 + rng.uniform(-norm_jitter, norm_jitter, (b, 1)))
        y = y * (1 + rng.uniform(-norm_jitter, norm_jitter, (b, 1)))
    return x, y


def projector_pairs(rng, n, angles):
    """Projectors ``U Uᵀ`` and ``W Wᵀ`` whose ranges have the given principal angles, rotated
    generically (no axis alignment): ``angles`` of shape ``(B, k)``; entries past the first
    ``min(k, n − k)`` must be 0 (at most ``n − k`` principal angles of ``k``-planes in ``R^n``
    are non-zero). Bases are generic (random ``k×k`` mixes), ``P = fl(U Uᵀ)`` (symmetrized)."""
    angles = np.asarray(angles, dtype=float)
    b, k = angles.shape
    m = min(k, n - k)
    assert not angles[:, m:].any(), "at most n − k non-zero principal angles"
    q = random_orthogonal(rng, n, b)
    u = q[:, :, :k]
    w = u.copy()
    w[:, :, :m] = (np.cos(angles[:, None, :m]) * q[:, :, :m]
                   + np.sin(angles[:, None, :m]) * q[:, :, k:k + m])
    u = u @ random_orthogonal(rng, k, b)  # generic bases of the same subspaces
    w = w @ random_orthogonal(rng, k, b)
    p, q = u @ np.swapaxes(u, 1, 2), w @ np.swapaxes(w, 1, 2)
    # exactly symmetric, whatever the BLAS kernel's summation order (a no-op where it is)
    return 0.5 * (p + np.swapaxes(p, 1, 2)), 0.5 * (q + np.swapaxes(q, 1, 2))


#: Directions of :func:`random_tangents`: Gaussian in a g-orthonormal basis; on ``Gr(k, n)``
#: with ``k > 1`` also all the norm on one principal angle (the hardest direction near the cut
#: locus) and the norm spread evenly over ``min(k, n − k)`` equal principal angles
#: (degenerate singular values).
FAMILIES = ("gaussian", "one angle", "equal angles")


def random_tangents(space, points, rng, norms):
    """Tangent vectors at ``points`` (shape ``(B, *ambient)``) with g-norms ``norms`` (``(B,)``),
    each row's direction from a family of :data:`FAMILIES` drawn at random (spaces without
    several principal angles use the Gaussian one). Returns the vectors and the family index."""
    b = len(points)
    basis = space.tangent_basis(points)  # (B, dim, *ambient)
    coef = rng.standard_normal((b, space.dim))
    family = np.zeros(b, dtype=int)
    if isinstance(space, Grassmannian) and space.k > 1 and space.n - space.k > 1:
        family = rng.integers(len(FAMILIES), size=b)
        # basis order: E_ij with i over the kernel (slow), j over the range
        one = np.zeros(space.dim)
        one[0] = 1.0
        m = min(space.k, space.n - space.k)
        equal = np.zeros((space.n - space.k, space.k))
        equal[np.arange(m), np.arange(m)] = 1.0
        coef[family == 1] = one
        coef[family == 2] = equal.ravel()
        # a random basis of the range and kernel: rotate within them so "one angle" and
        # "equal angles" are not tied to the eigenvector order of eigh
        rot = np.einsum("bij,bkl->bikjl", random_orthogonal(rng, space.n - space.k, b),
                        random_orthogonal(rng, space.k, b)).reshape(b, space.dim, space.dim)
        coef[family > 0] = np.einsum("bij,bj->bi", rot, coef)[family > 0]
    coef *= (norms / np.linalg.norm(coef, axis=1))[:, None]
    return np.einsum("ba,ba...->b...", coef, basis), family


# -- the precision bounds the library states (docs/manifolds.md, "Precision") -----------------
# Functions of the draw, in units of EPS = 2^-52, asserted by the tests and reported (with the
# worst case found under three BLAS kernels and its margin) by benchmarks/bench_precision.py.
# The constants are at least twice the worst case of that search (10^4 draws per space and
# scale); the forms are derived in docs/manifolds.md.
EPS = np.finfo(float).eps

#: sphere dist, S^d with d ≤ 63: relative error ≤ (A + gap/θ) eps, gap = ||x| − |y||
SPHERE_DIST_A, SPHERE_DIST_MAX_DIM = 24.0, 63
#: projector dist: absolute error ≤ R d eps + S δ² / d, δ = |P² − P|_F + |Q² − Q|_F (how far
#: the inputs are from projectors: a second-order effect, visible below d ~ 1e-7)
PROJECTOR_DIST_R, PROJECTOR_DIST_S = 24.0, 0.5
#: points the library makes (random_point, exp, projection) and fl(UUᵀ) of float orthonormal U
#: are within this of a projector (worst found, in the membership measure: 40 eps for exp
#: on Gr(3, 5) under Haswell, 32 eps for projection, 10 eps for random_point)
POINT_DEFECT = 64 * np.finfo(float).eps
#: principal angles: absolute error ≤ A eps, each angle
ANGLE_A = 12.0
#: exp/log round trip: |log_x(exp_x v) − v|_g ≤ (A + R |v| + C / (π − |v|)) eps (C = 0 on
#: projector spaces: their log stays well conditioned up to the cut locus)
ROUND_TRIP = {"sphere": (4.0, 8.0, 16.0), "projector": (48.0, 96.0, 0.0)}
#: geodesic length: |d(x, exp_x v) − |v|| ≤ (A + R |v|) eps
LENGTH = {"sphere": (4.0, 8.0), "projector": (12.0, 32.0)}
#: exp returns points whose membership measure (``space._deviation``) is at most this
EXP_DEVIATION_BOUND = 1e-13


def _kind(space):
    return "sphere" if isinstance(space, Sphere) else "projector"


def sphere_dist_bound(dim, angle, norm_gap=0.0):
    """Absolute bound on the error of ``Sphere(dim).dist`` at ``angle``."""
    assert dim <= SPHERE_DIST_MAX_DIM, "measured up to S^63 only"
    return (SPHERE_DIST_A * angle + norm_gap) * EPS


def projector_dist_bound(space, dist, defect=None):
    """Absolute bound on the error of ``space.dist`` at ``dist`` for inputs whose distances
    from projectors add up to ``defect`` (default: twice :data:`POINT_DEFECT`)."""
    defect = 2 * POINT_DEFECT if defect is None else defect
    with np.errstate(divide="ignore"):
        return PROJECTOR_DIST_R * EPS * dist + PROJECTOR_DIST_S * defect ** 2 / dist


def principal_angle_bound(space, largest_angle):
    return np.full_like(np.asarray(largest_angle, dtype=float), ANGLE_A * EPS)


def dist_bound(space, dist):
    """The dist bound for points the library makes (unit vectors, projectors to rounding)."""
    if isinstance(space, Sphere):
        return sphere_dist_bound(space.dim, dist)
    return projector_dist_bound(space, dist)


def round_trip_bound(space, norm):
    a, r, c = ROUND_TRIP[_kind(space)]
    with np.errstate(divide="ignore"):
        near_cut = c / (space.injectivity_radius - norm) if c else 0.0
    return (a + r * norm + near_cut) * EPS


def geodesic_length_bound(space, norm):
    a, r = LENGTH[_kind(space)]
    return (a + r * norm) * EPS


def describe_bound(quantity):
    """The bound as text, per space name (for the benchmark's summary table)."""
    def text(name):
        kind = "sphere" if name.startswith("Sphere") else "projector"
        if quantity == "sphere dist":
            return f"({SPHERE_DIST_A:g} + gap/θ) eps" if "±" in name else f"{SPHERE_DIST_A:g} eps"
        if quantity == "projector dist":
            return f"{PROJECTOR_DIST_R:g} eps + {PROJECTOR_DIST_S:g} δ²/d²"
        if quantity == "principal angles":
            return f"{ANGLE_A:g} eps"
        if quantity == "round trip":
            a, r, c = ROUND_TRIP[kind]
            near = f" + {c:g}/(π − |v|)" if c else ""
            return f"({a:g} + {r:g} |v|{near}) eps"
        if quantity == "length":
            return "({:g} + {:g} |v|) eps".format(*LENGTH[kind])
        return f"{EXP_DEVIATION_BOUND:g}"
    return text
