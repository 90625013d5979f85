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
    """``G[..., i, j] = ⟨x_i, x_j⟩`` for tokens ``(..., N, d)`` on a sphere; shape ``(..., N, N)``."""
    x = np.asarray(points, dtype=float)
    return np.matmul(x, np.swapaxes(x, -1, -2))


def count_clusters(points, space=None, *, threshold: float = 0.1) -> np.ndarray:
    """Number of clusters of each system ``(..., N, *point_shape)``; shape ``(...)``.

    ``space`` defaults to the sphere of the points' last axis.

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
    """First recorded time at which all ``⟨x_i, x_j⟩ ≥ 1 − eps``, per system; ``inf`` if never.

    ``times (T,)`` and ``points (T, B, N, d)`` as in a :class:`Trajectory`; shape ``(B,)``.
    """
    g = pairwise_inner(points)                                      # (T, B, N, N)
    together = (g >= 1.0 - eps).all(axis=(-2, -1))                  # (T, B)
    first = np.argmax(together, axis=0)
    return np.where(together.any(axis=0), np.asarray(times)[first], np.inf)
