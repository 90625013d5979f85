r"""Diagnostics of particle trajectories: inner products, clusters, collapse time.

Clusters are the connected components of the graph joining two particles at distance below
``threshold`` (single linkage; on spheres, ``⟨x_i, x_j⟩ > cos(threshold)``). The default
``threshold = 0.1`` rad is far below the spacing of ``N ≤ 100`` well-spread points on
``S^2`` (about ``√(4π/N)``) and far above the spread of a collapsed cluster (which shrinks
exponentially), so the count is stable over long stretches of a simulation.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse.csgraph import connected_components

from manifolds import Sphere

__all__ = ["pairwise_inner", "count_clusters", "collapse_time"]


def pairwise_inner(points) -> np.ndarray:
    """The Gram matrix of the tokens: ``G[..., i, j] = ⟨x_i, x_j⟩``.

    On the sphere ``⟨x_i, x_j⟩ = cos d(x_i, x_j)``: ``1`` for tokens in one point, the
    quantity whose histogram shows clustering (docs/dynamics.md).

    Parameters
    ----------
    points : array_like, shape (..., N, d)
        Tokens (unit vectors in ``R^d``; not checked), any batch axes in front.

    Returns
    -------
    ndarray, shape (..., N, N)
        The pairwise inner products.

    Examples
    --------
    >>> import numpy as np
    >>> pairwise_inner(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])).tolist()
    [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]
    """
    x = np.asarray(points, dtype=float)
    return np.matmul(x, np.swapaxes(x, -1, -2))


def count_clusters(points, space=None, *, threshold: float = 0.1) -> np.ndarray:
    """Number of clusters of each system of particles.

    A cluster is a connected component of the graph joining two particles at distance below
    ``threshold`` (single linkage; see the module notes for the default).

    Parameters
    ----------
    points : array_like, shape (..., N, *point_shape)
        Systems of ``N`` particles, any batch axes in front; checked to lie on ``space``.
    space : Space, optional
        The space of the points; default the sphere of the points' last axis,
        ``Sphere(points.shape[-1] - 1)``.
    threshold : float, optional
        Distance (radians) below which two particles are joined; default ``0.1``.

    Returns
    -------
    ndarray of int, shape (...)
        The number of clusters of each system.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0, 0, 0], [np.cos(0.05), np.sin(0.05), 0], [0, 0, 1.0]])
    >>> int(count_clusters(x))
    2
    """
    x = np.asarray(points, dtype=float)
    space = Sphere(x.shape[-1] - 1) if space is None else space
    nd = len(space.ambient_shape)
    x = space.check_points(x, "points")
    d = space.unchecked_dist(np.expand_dims(x, -nd - 1), np.expand_dims(x, -nd - 2))   # (..., N, N)
    flat = (d < threshold).reshape((-1,) + d.shape[-2:])
    counts = np.array([connected_components(adj, directed=False)[0] for adj in flat])
    return counts.reshape(d.shape[:-2])


def collapse_time(times, points, *, eps: float = 1e-3) -> np.ndarray:
    """The collapse time: first recorded time at which all ``⟨x_i, x_j⟩ ≥ 1 − eps``.

    Per system; ``inf`` for a system that never collapses within the recorded times. The
    times are in the trajectory's clock (docs/conventions.md#dynamics-clock).

    Parameters
    ----------
    times : array_like, shape (T,)
        Recorded times, as :attr:`Trajectory.times`.
    points : array_like, shape (T, B, N, d)
        Recorded tokens on a sphere, as :attr:`Trajectory.points`.
    eps : float, optional
        Tolerance on ``1 − ⟨x_i, x_j⟩``; default ``1e-3``.

    Returns
    -------
    ndarray, shape (B,)
        The first time of collapse of each system, or ``inf``.

    Examples
    --------
    >>> import numpy as np
    >>> apart, together = np.eye(2), np.array([[1.0, 0.0], [1.0, 0.0]])
    >>> points = np.stack([np.stack([apart, apart]), np.stack([apart, together])])  # (2, 2, 2, 2)
    >>> collapse_time([0.0, 1.5], points).tolist()        # system 0 never, system 1 at t = 1.5
    [inf, 1.5]
    """
    g = pairwise_inner(points)                                      # (T, B, N, N)
    together = (g >= 1.0 - eps).all(axis=(-2, -1))                  # (T, B)
    first = np.argmax(together, axis=0)
    return np.where(together.any(axis=0), np.asarray(times)[first], np.inf)
