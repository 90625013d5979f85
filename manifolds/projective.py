"""The real projective space ``RP^d``: lines in ``R^{d+1}`` as rank-1 projectors."""

from __future__ import annotations

import numpy as np

from ._checks import as_float_array, as_points, check_finite, first_false
from .validation import as_dimension
from .errors import NotOnManifoldError, ShapeError
from .grassmannian import Grassmannian

__all__ = ["ProjectiveSpace"]

#: Vectors with an entry beyond this (or all below its inverse) are rescaled by
#: :meth:`ProjectiveSpace.from_vectors` before squaring.
_HUGE = 1e150


class ProjectiveSpace(Grassmannian):
    r"""Real projective space ``RP^d = Gr(1, d + 1)``: points are projectors ``x xᵀ``.

    The distance is the principal angle ``arccos |⟨x, y⟩|`` between lines (computed without
    ``arccos``, see :meth:`Grassmannian.dist`), the metric ``g(U, V) = ½ tr(UᵀV)`` and the
    injectivity radius ``π/2``. ``geomstats`` counterpart: ``Grassmannian(d + 1, 1)``.
    :meth:`from_vectors` and :meth:`to_vectors` convert from and to unit vectors.

    Parameters
    ----------
    dim : int
        ``d ≥ 1``.
    atol : float, optional
        Tolerance of the input checks.

    Examples
    --------
    >>> import numpy as np
    >>> rp2 = ProjectiveSpace(2)
    >>> lines = rp2.from_vectors([[1.0, 0, 0], [1.0, 1.0, 0]])
    >>> bool(abs(rp2.dist(lines[0], lines[1]) - np.pi / 4) < 1e-15)
    True
    """

    def __init__(self, dim: int, *, atol: float = 1e-8):
        super().__init__(as_dimension(dim, "dim", 1) + 1, 1, atol=atol)

    def __repr__(self) -> str:
        return f"ProjectiveSpace(dim={self.n - 1}, atol={self.atol!r})"

    @property
    def name(self) -> str:
        """For messages: ``"ProjectiveSpace(d)"``."""
        return f"ProjectiveSpace({self.n - 1})"

    def conventions(self) -> dict:
        # docstring: Space.conventions (inherited)
        return {
            "point_model": f"rank-1 projectors {self.n}x{self.n}",
            "distance": "principal angle arccos|<x,y>|",
            "metric": "1/2 tr(u^T v) (geomstats: tr, distances x sqrt 2)",
        }

    def from_vectors(self, vectors) -> np.ndarray:
        """The points of ``RP^d`` that non-zero vectors span: projectors ``x xᵀ / |x|²``.

        Parameters
        ----------
        vectors : array_like, shape (..., d + 1)
            Non-zero vectors, of any norm (from ``5e-324`` to ``1.8e308``: very long or very
            short vectors are scaled before squaring).

        Returns
        -------
        ndarray, shape (..., d + 1, d + 1)
            Rank-1 projectors; ``x`` and ``−x`` give the same one.

        Raises
        ------
        TypeError
            ``vectors`` is not an array of real numbers.
        ShapeError
            Its trailing shape is not ``(d + 1,)``.
        NonFiniteError
            It holds NaN or infinity.
        NotOnManifoldError
            A vector is zero (it spans no line).

        Examples
        --------
        >>> ProjectiveSpace(1).from_vectors([0.0, 2.0]).tolist()
        [[0.0, 0.0], [0.0, 1.0]]
        """
        v = as_float_array(vectors, "vectors")
        if v.ndim < 1 or v.shape[-1] != self.n:
            raise ShapeError(
                f"vectors has shape {v.shape}; lines of {self.name} are given by vectors of "
                f"shape (..., {self.n})"
            )
        check_finite(v, "vectors")
        largest = np.abs(v).max(axis=-1, initial=0.0)
        if not (largest > 0).all():
            raise NotOnManifoldError(f"vectors{first_false(largest > 0)} is zero and spans no line")
        # a vector whose square would overflow or underflow is divided by its largest entry
        # first (the line is the same); the others are used as given
        extreme = (largest > _HUGE) | (largest < 1.0 / _HUGE)
        if extreme.any():
            v = v / np.where(extreme, largest, 1.0)[..., None]
        norm2 = np.einsum("...i,...i->...", v, v)
        return v[..., :, None] * v[..., None, :] / norm2[..., None, None]

    def to_vectors(self, points) -> np.ndarray:
        """Unit vectors spanning the lines: the inverse of :meth:`from_vectors` up to sign.

        The sign is fixed so that the entry of largest magnitude is positive.

        Parameters
        ----------
        points : array_like, shape (..., d + 1, d + 1)
            Rank-1 projectors.

        Returns
        -------
        ndarray, shape (..., d + 1)
            Unit vectors ``x`` with ``x xᵀ = P``.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`check_points`.

        Examples
        --------
        >>> import numpy as np
        >>> rp2 = ProjectiveSpace(2)
        >>> bool(np.allclose(rp2.to_vectors(rp2.from_vectors([0.0, 3.0, -4.0])), [0, -0.6, 0.8]))
        True
        """
        p = as_points(self, points, "points")
        u, _ = self._bases(p)
        u = u[..., 0]
        pivot = np.take_along_axis(u, np.abs(u).argmax(axis=-1)[..., None], axis=-1)
        return u * np.where(pivot < 0, -1.0, 1.0)
