r"""Diagnostics of particle trajectories: inner products, clusters, collapse time.

Clusters are the connected components of the graph joining two particles at distance below
``threshold`` (single linkage; on spheres, ``⟨x_i, x_j⟩ > cos(threshold)``). The default
``threshold = 0.1`` rad is far below the spacing of ``N ≤ 100`` well-spread points on
``S^2`` (about ``√(4π/N)``) and far above the spread of a collapsed cluster (which shrinks
exponentially), so the count is stable over long stretches of a simulation.

Every function checks its input: points on their space (tokens on the sphere), at least one
particle per system and no empty batch axis (``ShapeError``, as everywhere in
:mod:`laws.dynamics`). Over a recorded trajectory ``(T, B, N, d)`` the pairwise quantities
are computed a block of systems at a time, about ``2^20`` pairs per block (one system at a
time once ``N > 1024``): memory grows like one system's ``N × N`` matrices, not like
``T B N²``.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse.csgraph import connected_components

from manifolds import ParameterError, ShapeError, Sphere, as_positive
from manifolds.validation import as_real_array, as_space

__all__ = ["pairwise_inner", "count_clusters", "collapse_time"]

#: Pairs (``N²`` per system) handled at once: bounds the memory of the pairwise diagnostics.
_PAIR_BUDGET = 1 << 20


def _blocks(count: int, n: int):
    """Slices of ``count`` systems of ``n`` particles, ``≈ _PAIR_BUDGET`` pairs each (≥ 1 system)."""
    step = max(1, _PAIR_BUDGET // (n * n))
    for start in range(0, count, step):
        yield slice(start, min(start + step, count))


def _check_systems(x: np.ndarray, nd: int, name: str) -> None:
    """Raise :class:`ShapeError` unless the validated points ``x`` (``nd`` point axes) have a
    particle axis, at least one particle and no empty batch axis."""
    if x.ndim < nd + 1:
        raise ShapeError(
            f"{name} has shape {x.shape}: one point; give systems of N particles "
            f"(..., N, {', '.join(map(str, x.shape[x.ndim - nd:]))}) — {name}[None] for one system"
        )
    if x.size == 0:
        what = "no particle (N = 0)" if x.shape[-nd - 1] == 0 else "an empty batch axis"
        raise ShapeError(f"{name} has shape {x.shape}: {what}; give at least one system of at "
                         "least one particle")


def _tokens(points, name: str) -> np.ndarray:
    """Tokens ``(..., N, d)``, ``d ≥ 2``, checked: real, finite, on ``S^{d−1}``, not empty."""
    x = as_real_array(points, name)
    if x.ndim < 2 or x.shape[-1] < 2:
        raise ShapeError(f"{name} has shape {x.shape}; give tokens (..., N, d): N unit vectors "
                         "of R^d, d ≥ 2, any batch axes in front")
    x = Sphere(x.shape[-1] - 1).check_points(x, name)
    _check_systems(x, 1, name)
    return x


def pairwise_inner(points) -> np.ndarray:
    """The Gram matrix of the tokens: ``G[..., i, j] = ⟨x_i, x_j⟩``.

    On the sphere ``⟨x_i, x_j⟩ = cos d(x_i, x_j)``: ``1`` for tokens in one point, the
    quantity whose histogram shows clustering (docs/dynamics.md).

    Parameters
    ----------
    points : array_like, shape (..., N, d)
        Tokens: unit vectors in ``R^d``, ``d ≥ 2``, checked to lie on ``S^{d−1}``; at least
        one, any (non-empty) batch axes in front.

    Returns
    -------
    ndarray, shape (..., N, N)
        The pairwise inner products.

    Raises
    ------
    ShapeError
        When ``points`` is not ``(..., N, d)`` with ``d ≥ 2``, or is empty.
        Non-numeric input raises ``TypeError``, NaN or infinity
        :class:`~manifolds.NonFiniteError`, points off the sphere
        :class:`~manifolds.NotOnManifoldError`.

    Examples
    --------
    >>> import numpy as np
    >>> pairwise_inner(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])).tolist()
    [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]
    """
    x = _tokens(points, "points")
    return np.matmul(x, np.swapaxes(x, -1, -2))


def count_clusters(points, space=None, *, threshold: float = 0.1) -> np.ndarray:
    """Number of clusters of each system of particles.

    A cluster is a connected component of the graph joining two particles at distance below
    ``threshold`` (single linkage; see the module notes for the default).

    Computed a block of systems at a time (module notes): a recorded trajectory
    ``(T, B, N, *point_shape)`` needs the memory of about one system's distance matrix.

    Parameters
    ----------
    points : array_like, shape (..., N, *point_shape)
        Systems of ``N ≥ 1`` particles, any (non-empty) batch axes in front; checked to lie
        on ``space``.
    space : Space, optional
        The space of the points; default the sphere of the points' last axis,
        ``Sphere(points.shape[-1] - 1)``.
    threshold : float, optional
        Distance (radians) below which two particles are joined, finite and positive;
        default ``0.1``.

    Returns
    -------
    ndarray of int, shape (...)
        The number of clusters of each system.

    Raises
    ------
    TypeError
        When ``space`` is not a :class:`manifolds.Space`, or ``points`` not real numbers.
    ShapeError
        When ``points`` has no particle axis (one point: pass ``points[None]``), no particle
        or an empty batch axis, or (default space) fewer than two coordinates.
    ParameterError
        When ``threshold`` is not finite and positive. Points off the space raise the
        errors of :mod:`manifolds`.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0, 0, 0], [np.cos(0.05), np.sin(0.05), 0], [0, 0, 1.0]])
    >>> int(count_clusters(x))
    2
    """
    threshold = as_positive(threshold, "threshold")
    if space is None:
        x = as_real_array(points, "points")
        if x.ndim < 2 or x.shape[-1] < 2:
            raise ShapeError(f"points has shape {x.shape}; give systems of N unit vectors "
                             "(..., N, d), d ≥ 2 (or pass space=...)")
        space = Sphere(x.shape[-1] - 1)
    else:
        space, x = as_space(space), points
    nd = len(space.ambient_shape)
    x = space.check_points(x, "points")
    _check_systems(x, nd, "points")
    n = x.shape[-nd - 1]
    flat = x.reshape((-1, n) + space.ambient_shape)
    counts = np.empty(len(flat), dtype=int)
    for block in _blocks(len(flat), n):
        xb = flat[block]
        d = space.unchecked_dist(np.expand_dims(xb, -nd - 1), np.expand_dims(xb, -nd - 2))  # (b, N, N)
        counts[block] = [connected_components(adj, directed=False)[0] for adj in d < threshold]
    return counts.reshape(x.shape[:-nd - 1])


def collapse_time(times, points, *, eps: float = 1e-3) -> np.ndarray:
    """The collapse time: first recorded time at which all ``⟨x_i, x_j⟩ ≥ 1 − eps``.

    Per system; ``inf`` for a system that never collapses within the recorded times. The
    times are in the trajectory's clock (docs/conventions.md#dynamics-clock).

    Computed one block of systems at a time (module notes), never all ``T`` Gram matrices
    at once.

    Parameters
    ----------
    times : array_like, shape (T,)
        Recorded times, as :attr:`Trajectory.times`: finite, non-decreasing, one per
        recorded state.
    points : array_like, shape (T, B, N, d)
        Recorded tokens on a sphere, as :attr:`Trajectory.points` (checked on
        ``S^{d−1}``; ``T, B, N ≥ 1``; any number of batch axes after ``T``).
    eps : float, optional
        Tolerance on ``1 − ⟨x_i, x_j⟩``, finite and positive; default ``1e-3``.

    Returns
    -------
    ndarray, shape (B,)
        The first time of collapse of each system, or ``inf``.

    Raises
    ------
    ShapeError
        When ``points`` has no time axis in front of its tokens ``(N, d)``, is empty, or
        ``times`` is not one time per recorded state.
    ParameterError
        When ``eps`` is not finite and positive, or ``times`` decreases. Non-numeric input
        raises ``TypeError``, NaN or infinity :class:`~manifolds.NonFiniteError`, tokens
        off the sphere :class:`~manifolds.NotOnManifoldError`.

    Examples
    --------
    >>> import numpy as np
    >>> apart, together = np.eye(2), np.array([[1.0, 0.0], [1.0, 0.0]])
    >>> points = np.stack([np.stack([apart, apart]), np.stack([apart, together])])  # (2, 2, 2, 2)
    >>> collapse_time([0.0, 1.5], points).tolist()        # system 0 never, system 1 at t = 1.5
    [inf, 1.5]
    """
    eps = as_positive(eps, "eps")
    x = _tokens(points, "points")
    if x.ndim < 3:
        raise ShapeError(f"points has shape {x.shape}; give recorded tokens (T, B, N, d), as "
                         "Trajectory.points (a time axis first)")
    t = as_real_array(times, "times")
    if t.shape != x.shape[:1]:
        raise ShapeError(f"times has shape {t.shape}, but points records {x.shape[0]} states "
                         f"(shape {x.shape}); give one time per state, shape ({x.shape[0]},)")
    if (np.diff(t) < 0).any():
        k = int(np.argmax(np.diff(t) < 0))
        raise ParameterError(f"times[{k + 1}] = {t[k + 1]:g} comes before times[{k}] = {t[k]:g}; "
                             "give the recorded times in increasing order")
    n = x.shape[-2]
    flat = x.reshape((-1,) + x.shape[-2:])                          # (T·B, N, d)
    together = np.empty(len(flat), dtype=bool)
    for block in _blocks(len(flat), n):
        xb = flat[block]
        g = np.matmul(xb, np.swapaxes(xb, -1, -2))                  # (b, N, N)
        together[block] = (g >= 1.0 - eps).all(axis=(-2, -1))
    together = together.reshape(x.shape[:-2])                       # (T, B)
    first = np.argmax(together, axis=0)
    return np.where(together.any(axis=0), t[first], np.inf)
