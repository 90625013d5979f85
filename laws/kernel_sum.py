r"""Sums of bump kernels over many centers, evaluated through the kernel's compact support.

``S(x) = Σ_k w_k κ(x, c_k)`` only involves the centers within distance ``r`` of ``x``. The
centers sit in a k-d tree (:class:`scipy.spatial.cKDTree`) in a Euclidean picture of the
space where a geodesic ball of radius ``r`` lies inside a Euclidean ball of known radius —
the space's :meth:`~manifolds.Space.embed` and :meth:`~manifolds.Space.embedding_radius`:

* sphere: the point itself; ``|x − y| = 2 sin(d/2) ≤ 2 sin(r/2)``;
* projector spaces: the upper triangle of ``P`` with off-diagonal entries times ``√2`` (so
  that Euclidean distance is ``|P − Q|_F``); ``|P − Q|_F² = 2 Σ sin² θ_i ≤ 2 d²``, so
  ``|P − Q|_F ≤ √2 r``.

Candidate pairs from the tree get their exact geodesic distance and profile value; the cost
grows with the number of neighbours of each point, not with the number of centers.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse
from scipy.spatial import cKDTree

from manifolds import NonFiniteError, ShapeError, Space

from .errors import FeatureError
from .kernels import BumpKernel

__all__ = ["KernelSum"]

#: Points are queried in blocks of this many, which bounds the memory of one query.
_BLOCK = 1 << 16


class KernelSum:
    r"""``S(x) = Σ_k w_k κ(x, c_k)``: a weighted sum of bump kernels at ``centers``.

    Parameters
    ----------
    kernel : BumpKernel
    centers : array, shape ``(C, *point_shape)``
    weights : array, shape ``(C,)`` or ``(C, m)``, optional
        Default all ones. With ``(C, m)`` weights the sum is vector-valued,
        ``S(x) = Σ_k κ(x, c_k) w_k ∈ R^m`` — a feature map ``φ: M → R^m``
        (:attr:`n_features` is ``m``), as the finite-rank weights of the theorem use.

    Raises
    ------
    TypeError
        When ``kernel`` is not a :class:`BumpKernel`.
    ShapeError
        When ``centers`` is not one flat list of points ``(C, *point_shape)``.
    FeatureError
        When ``weights`` is not of shape ``(C,)`` or ``(C, m)``.
    NonFiniteError
        When ``weights`` holds NaN or infinity.

    Notes
    -----
    Only centers within ``r`` of a point contribute, so an evaluation at ``P`` points costs
    ``O(P log C)`` for the tree plus ``O(#neighbour pairs)`` for the kernel values — not
    ``O(P C)``. Use :meth:`sparse_matrix` for the kernel values themselves.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> sphere = Sphere(2)
    >>> kernel = BumpKernel(sphere, 0.1)
    >>> centers = sphere.random_point(1000, rng=0)
    >>> total = KernelSum(kernel, centers)
    >>> x = sphere.random_point(5, rng=1)
    >>> bool(np.allclose(total(x), kernel.matrix(x, centers).sum(axis=1)))
    True
    >>> features = KernelSum(kernel, centers[:2], weights=np.eye(2))   # φ(x) = (κ(x, c_0), κ(x, c_1))
    >>> features.n_features, features(centers[:2]).round(12).tolist()
    (2, [[1.0, 0.0], [0.0, 1.0]])
    """

    def __init__(self, kernel: BumpKernel, centers, *, weights=None):
        if not isinstance(kernel, BumpKernel):
            raise TypeError(f"kernel must be a BumpKernel, not {type(kernel).__name__}")
        space = kernel.space
        nd = len(space.ambient_shape)
        centers = space.check_points(centers, "centers")
        if centers.ndim != nd + 1:
            raise ShapeError(
                f"centers has shape {centers.shape}; give a list of points of shape "
                f"(C, {', '.join(map(str, space.ambient_shape))})"
            )
        count = centers.shape[0]
        if weights is None:
            weights = np.ones(count)
        else:
            weights = np.asarray(weights, dtype=float)
            if weights.ndim not in (1, 2) or weights.shape[0] != count:
                raise FeatureError(
                    f"weights has shape {weights.shape}, but there are {count} centers; give "
                    f"shape ({count},) or ({count}, m)"
                )
            if not np.isfinite(weights).all():
                raise NonFiniteError("weights hold NaN or infinity; every weight must be finite")
        self.kernel = kernel
        self.centers = centers
        self.weights = weights
        self._tree = cKDTree(space.embed(centers)) if count else None
        self._reach = space.embedding_radius(kernel.radius)

    @property
    def space(self) -> Space:
        """The kernel's space."""
        return self.kernel.space

    @property
    def n_features(self) -> int | None:
        """``m`` for vector weights ``(C, m)``; ``None`` for a scalar sum."""
        return self.weights.shape[1] if self.weights.ndim == 2 else None

    def _pairs(self, x: np.ndarray):
        """Rows, center indices and kernel values of all pairs within the support."""
        rows, cols = [], []
        for start in range(0, x.shape[0], _BLOCK):
            q = self.space.embed(x[start:start + _BLOCK])
            r, c = self._candidates(q)
            rows.append(r + start)
            cols.append(c)
        rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.intp)
        cols = np.concatenate(cols) if cols else np.zeros(0, dtype=np.intp)
        values = self.kernel.of_distance(self.space.unchecked_dist(x[rows], self.centers[cols]))
        keep = values > 0
        return rows[keep], cols[keep], values[keep]

    def _candidates(self, q: np.ndarray):
        """Pairs (row, center) within the Euclidean reach, for query rows ``q``.

        Queries the ``k`` nearest centers under the reach and doubles ``k`` for the rows whose
        ``k``-th neighbour is still inside, so ``k`` follows the densest neighbourhood.
        """
        count = self.centers.shape[0]
        rows_out, cols_out = [], []
        todo = np.arange(q.shape[0])
        k = min(16, count)
        while todo.size:
            d, idx = self._tree.query(q[todo], k=k, distance_upper_bound=self._reach, workers=-1)
            d, idx = d.reshape(todo.size, k), idx.reshape(todo.size, k)
            full = np.isfinite(d[:, -1]) if k < count else np.zeros(todo.size, dtype=bool)
            done = ~full
            r, j = np.nonzero(np.isfinite(d[done]))
            rows_out.append(todo[done][r])
            cols_out.append(idx[done][r, j])
            todo = todo[full]
            k = min(4 * k, count)
        return np.concatenate(rows_out), np.concatenate(cols_out)

    def _flat_points(self, x):
        nd = len(self.space.ambient_shape)
        x = self.space.check_points(x, "x")
        batch = x.shape[: x.ndim - nd]
        return x.reshape((-1,) + self.space.ambient_shape), batch

    def sparse_matrix(self, x) -> scipy.sparse.csr_matrix:
        """The kernel values at the centers, ``K[i, k] = κ(x_i, c_k)``, as a sparse matrix.

        Only the pairs within the support radius ``r`` are stored (``κ > 0``); the weights are
        not applied (``S(x) = K @ weights``).

        Parameters
        ----------
        x : array_like, shape (P, *point_shape)
            One flat list of points of the kernel's space.

        Returns
        -------
        scipy.sparse.csr_matrix, shape (P, C)
            ``κ(x_i, c_k)`` at the stored entries, zero elsewhere.

        Raises
        ------
        ShapeError
            When ``x`` is not one flat list of points (a single point, or several batch
            axes): reshape to ``(P, *point_shape)``.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> kernel = BumpKernel(Sphere(2), 0.5)
        >>> total = KernelSum(kernel, np.eye(3))
        >>> K = total.sparse_matrix(np.eye(3)[:2])
        >>> K.shape, K.nnz, K.toarray().tolist()    # the centers are π/2 > r apart
        ((2, 3), 2, [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
        """
        flat, batch = self._flat_points(x)
        if len(batch) != 1:
            raise ShapeError(f"sparse_matrix() takes a list of points (P, *point), got shape {np.shape(x)}")
        return self._matrix(flat)

    def _matrix(self, flat: np.ndarray) -> scipy.sparse.csr_matrix:
        shape = (flat.shape[0], self.centers.shape[0])
        if self._tree is None or flat.shape[0] == 0:
            return scipy.sparse.csr_matrix(shape)
        rows, cols, values = self._pairs(flat)
        return scipy.sparse.csr_matrix((values, (rows, cols)), shape=shape)

    def __call__(self, x) -> np.ndarray:
        """``S(x)``, shape ``(...)`` (scalar weights) or ``(..., m)`` (vector weights)."""
        flat, batch = self._flat_points(x)
        out = self._matrix(flat) @ self.weights
        return np.asarray(out).reshape(batch + self.weights.shape[1:])
