"""The unit sphere ``S^d ⊂ R^{d+1}`` with the angle as distance."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ._checks import (
    as_count,
    as_dimension,
    as_float_array,
    as_generator,
    as_points,
    as_tangent,
    as_tolerance,
    batch_shape,
    check_finite,
    check_trailing_shape,
    first_false,
)
from .errors import CutLocusError, NotOnManifoldError

__all__ = ["Sphere"]

#: ``log`` refuses points closer than this (radians) to the cut locus of the base point.
CUT_LOCUS_TOL = 1e-12


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.einsum("...i,...i->...", a, b)


@dataclass(frozen=True)
class Sphere:
    r"""The sphere ``S^d = {x ∈ R^{d+1} : |x| = 1}`` with the round metric.

    Distance is the angle ``d(x, y) = atan2(|x ∧ y|, ⟨x, y⟩)``; the injectivity radius is
    ``π``. Points are arrays of shape ``(..., d + 1)``; every method broadcasts over leading
    batch axes. Built on ``geomstats.geometry.hypersphere.Hypersphere(d)`` (``.geomstats``),
    whose metric agrees with this one.

    Parameters
    ----------
    dim : int
        ``d ≥ 1``.
    atol : float, optional
        Tolerance of the membership and tangency checks every method makes on its input.

    Examples
    --------
    >>> import numpy as np
    >>> sphere = Sphere(2)
    >>> x, y = np.eye(3)[0], np.eye(3)[1]
    >>> float(sphere.dist(x, y)) == np.pi / 2
    True
    >>> bool(np.allclose(sphere.exp(sphere.log(y, x), x), y))
    True
    """

    dim: int
    atol: float = field(default=1e-8, kw_only=True)

    def __post_init__(self):
        object.__setattr__(self, "dim", as_dimension(self.dim, "dim", 1))
        object.__setattr__(self, "atol", as_tolerance(self.atol))

    @property
    def name(self) -> str:
        return f"Sphere({self.dim})"

    @property
    def ambient_shape(self) -> tuple[int]:
        """Shape of a point: ``(d + 1,)``."""
        return (self.dim + 1,)

    @property
    def injectivity_radius(self) -> float:
        """``π``: the exponential map is injective on the open ball of this radius."""
        return float(np.pi)

    @cached_property
    def geomstats(self):
        """The underlying ``geomstats`` space (imported on first use)."""
        from geomstats.geometry.hypersphere import Hypersphere

        return Hypersphere(self.dim)

    # -- private measures used by the input checks ------------------------------------------
    def _deviation(self, x: np.ndarray) -> np.ndarray:
        return np.abs(np.sqrt(_dot(x, x)) - 1.0)

    def _tangent_deviation(self, v: np.ndarray, x: np.ndarray) -> np.ndarray:
        return np.abs(_dot(v, x)) / np.maximum(1.0, np.sqrt(_dot(v, v)))

    # -- membership ------------------------------------------------------------------------
    def belongs(self, x, *, atol: float | None = None) -> np.ndarray:
        """Whether each point has norm 1 within ``atol`` (default: the space's); shape ``(...)``.

        NaN or infinite points do not belong; a wrong trailing shape raises ``ShapeError``.
        """
        arr = as_float_array(x, "x")
        check_trailing_shape(self, arr, "x")
        tol = self.atol if atol is None else as_tolerance(atol)
        with np.errstate(invalid="ignore"):
            return np.isfinite(arr).all(axis=-1) & (self._deviation(arr) <= tol)

    def projection(self, x) -> np.ndarray:
        """The nearest point on the sphere, ``x / |x|``; the zero vector raises."""
        arr = as_float_array(x, "x")
        check_trailing_shape(self, arr, "x")
        check_finite(arr, "x")
        norm = np.sqrt(_dot(arr, arr))
        if not (norm > 0).all():
            raise NotOnManifoldError(
                f"x{first_false(norm > 0)} is the zero vector, which has no nearest point "
                f"on {self.name}"
            )
        return arr / norm[..., None]

    def random_point(self, n_samples: int = 1, *, rng=None) -> np.ndarray:
        """``n_samples`` independent uniform points, shape ``(n_samples, d + 1)``."""
        n = as_count(n_samples, "n_samples")
        gen = as_generator(rng)
        while True:
            z = gen.standard_normal((n, self.dim + 1))
            norm = np.sqrt(_dot(z, z))
            if (norm > 0).all():  # a zero Gaussian vector has probability 0
                return z / norm[:, None]

    # -- geometry --------------------------------------------------------------------------
    def _angle_and_normal(self, x: np.ndarray, y: np.ndarray):
        """Angle ``θ`` between ``x`` and ``y`` and the component ``w`` of ``y`` normal to ``x``.

        ``|x ∧ y| = |x| |w|`` is computed from the short chord: ``x − y`` when ``⟨x,y⟩ ≥ 0``
        (exact subtraction for nearby points), ``x + y`` otherwise; so ``θ`` has a few ulps of
        relative error at every angle, for inputs of any norm.
        """
        dot = _dot(x, y)
        close = (dot >= 0)[..., None]
        chord = np.where(close, x - y, x + y)
        xx = _dot(x, x)
        w = chord - (_dot(chord, x) / xx)[..., None] * x
        w = np.where(close, -w, w)  # the normal component of y itself
        wnorm = np.sqrt(_dot(w, w))
        return np.arctan2(np.sqrt(xx) * wnorm, dot), w, wnorm

    def dist(self, x, y) -> np.ndarray:
        r"""Geodesic distance (the angle), shape ``(...)``.

        ``θ = atan2(|x| |w|, ⟨x, y⟩)`` with ``w`` the component of ``y`` orthogonal to ``x``,
        taken from the chord ``x ∓ y`` — precise near ``0`` and near ``π``, unlike
        ``arccos⟨x, y⟩``.
        """
        x = as_points(self, x, "x")
        y = as_points(self, y, "y")
        batch_shape(self, x, y)
        return self._dist(x, y)

    def _dist(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return self._angle_and_normal(x, y)[0]

    def exp(self, tangent_vec, base_point) -> np.ndarray:
        r"""Exponential map ``cos|v| x + sin|v| v/|v|``, shape ``(..., d + 1)``."""
        x = as_points(self, base_point, "base_point")
        v = as_tangent(self, tangent_vec, x)
        return self._exp(v, x)

    def _exp(self, v: np.ndarray, x: np.ndarray) -> np.ndarray:
        x = x / np.sqrt(_dot(x, x))[..., None]
        t = np.sqrt(_dot(v, v))[..., None]
        out = np.cos(t) * x + np.sinc(t / np.pi) * v
        return out / np.sqrt(_dot(out, out))[..., None]

    def log(self, point, base_point) -> np.ndarray:
        r"""Logarithm: the tangent vector at ``base_point`` of norm ``d(x, y)`` pointing to ``point``.

        Precise to a few ulps away from the cut locus; its error grows like
        ``eps / (π − d(x, y))`` near it. Raises :class:`CutLocusError` within
        ``CUT_LOCUS_TOL`` of the antipode, where the logarithm is not unique.
        """
        x = as_points(self, base_point, "base_point")
        y = as_points(self, point, "point")
        batch_shape(self, x, y)
        log, theta = self._log(y, x)
        near_cut = np.pi - theta > CUT_LOCUS_TOL
        if not near_cut.all():
            raise CutLocusError(
                f"point{first_false(near_cut)} is antipodal to its base point (within "
                f"{CUT_LOCUS_TOL:g} rad); the logarithm is not unique there — perturb the point"
            )
        return log

    def _log(self, y: np.ndarray, x: np.ndarray):
        """Unchecked logarithm and angle; ``0`` at the antipode."""
        theta, w, wnorm = self._angle_and_normal(x, y)
        scale = np.divide(theta, wnorm, out=np.zeros_like(theta), where=wnorm > 0)
        return scale[..., None] * w, theta

    def to_tangent(self, vector, base_point) -> np.ndarray:
        """Orthogonal projection of ambient vectors onto ``T_x S^d``: ``v − ⟨v, x⟩ x``."""
        x = as_points(self, base_point, "base_point")
        v = as_float_array(vector, "vector")
        check_trailing_shape(self, v, "vector")
        check_finite(v, "vector")
        batch_shape(self, v, x)
        return v - (_dot(v, x) / _dot(x, x))[..., None] * x

    def inner(self, tangent_vec_a, tangent_vec_b, base_point) -> np.ndarray:
        """Riemannian inner product (the Euclidean one of ``R^{d+1}``), shape ``(...)``."""
        x = as_points(self, base_point, "base_point")
        u = as_tangent(self, tangent_vec_a, x, "tangent_vec_a")
        v = as_tangent(self, tangent_vec_b, x, "tangent_vec_b")
        batch_shape(self, u, v)
        return self._inner(u, v)

    @staticmethod
    def _inner(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return _dot(u, v)

    def tangent_basis(self, base_point) -> np.ndarray:
        r"""An orthonormal basis of ``T_x S^d``, shape ``(..., d, d + 1)``.

        Rows ``1..d`` of the Householder reflection ``I − 2 w wᵀ / |w|²``,
        ``w = x + sign(x_0) e_0``, which maps ``e_0`` to ``∓x``: smooth in ``x`` away from
        ``x_0 = 0`` and free of cancellation.
        """
        x = as_points(self, base_point, "base_point")
        x = x / np.sqrt(_dot(x, x))[..., None]
        w = x.copy()
        w[..., 0] += np.where(x[..., 0] >= 0, 1.0, -1.0)
        eye = np.eye(self.dim + 1)
        house = eye - 2.0 * w[..., :, None] * w[..., None, :] / _dot(w, w)[..., None, None]
        return house[..., 1:, :]
