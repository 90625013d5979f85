"""The unit sphere ``S^d ⊂ R^{d+1}`` with the angle as distance."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ._checks import (
    MAX_TANGENT_NORM,
    as_shaped,
    batch_shape,
    check_finite,
    check_membership,
    check_tangency,
    check_tangent_norm,
    first_false,
    rescaled_deviation,
)
from .validation import as_count, as_dimension, as_generator, as_tolerance
from .errors import CutLocusError, NotOnManifoldError
from .space import Space

__all__ = ["Sphere"]

#: ``log`` refuses points closer than this (radians) to the cut locus of the base point.
CUT_LOCUS_TOL = 1e-12


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.einsum("...i,...i->...", a, b)


@dataclass(frozen=True)
class Sphere(Space):
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
    >>> float(sphere.dist(x, y)) == np.pi / 2   # exact: atan2(1, 0) for orthogonal unit vectors
    True
    >>> bool(np.allclose(sphere.exp(sphere.log(y, x), x), y))
    True
    """

    dim: int
    atol: float = field(default=1e-8, kw_only=True)
    model = "sphere"

    def __post_init__(self):
        object.__setattr__(self, "dim", as_dimension(self.dim, "dim", 1))
        object.__setattr__(self, "atol", as_tolerance(self.atol))

    @property
    def name(self) -> str:
        """For messages: ``"Sphere(d)"``."""
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

    # -- validation that keeps the inner products it computes ------------------------------
    def _deviation(self, x: np.ndarray) -> np.ndarray:
        return np.abs(np.sqrt(_dot(x, x)) - 1.0)

    @staticmethod
    def _project_tangent(v: np.ndarray, x: np.ndarray) -> np.ndarray:
        return v - (_dot(v, x) / _dot(x, x))[..., None] * x

    @staticmethod
    def _tangent_deviation(v: np.ndarray, x: np.ndarray) -> np.ndarray:
        return np.abs(_dot(v, x)) / np.maximum(1.0, np.sqrt(_dot(v, v)))

    @staticmethod
    def _project(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        return np.multiply(x, (1.0 / np.sqrt(_dot(x, x)))[..., None], out=out)

    def _points(self, x, name: str):
        """Validated points and their squared norms (reused by the geometry)."""
        arr = as_shaped(self, x, name)
        xx = _dot(arr, arr)
        with np.errstate(invalid="ignore", over="ignore"):
            check_membership(self, arr, np.abs(np.sqrt(xx) - 1.0), name)
        return arr, xx

    def _tangent(self, v, x: np.ndarray, name: str = "tangent_vec"):
        """Validated tangent vectors at ``x``, with ``⟨v, x⟩`` and ``|v|²``."""
        arr = as_shaped(self, v, name)
        batch_shape(self, arr, x)
        with np.errstate(invalid="ignore", over="ignore"):
            vx, vv = _dot(arr, x), _dot(arr, arr)
            deviation = np.abs(vx) / np.maximum(1.0, np.sqrt(vv))
        overflow = ~np.isfinite(vv)
        if overflow.any():  # |v|² overflowed (|v| beyond ~1.3e154): measure v / max|v_i|
            deviation = rescaled_deviation(self, arr, x, deviation, overflow)
        check_tangency(self, arr, deviation, name)
        return arr, vx, vv

    # -- membership ------------------------------------------------------------------------
    # The methods of the contract without a docstring here inherit Space's (inspect.getdoc),
    # which states the sphere's formulas; the space-specific ones (dist, exp, log,
    # tangent_basis) document their formulas and precision bounds here.
    def check_points(self, x, name: str = "x") -> np.ndarray:
        return self._points(x, name)[0]

    def check_tangent(self, vector, base_point, name: str = "tangent_vec") -> np.ndarray:
        x, _ = self._points(base_point, "base_point")
        return self._tangent(vector, x, name)[0]

    def belongs(self, x, *, atol: float | None = None) -> np.ndarray:
        arr = as_shaped(self, x, "x")
        tol = self.atol if atol is None else as_tolerance(atol)
        with np.errstate(invalid="ignore", over="ignore"):
            return np.isfinite(arr).all(axis=-1) & (self._deviation(arr) <= tol)

    def projection(self, x) -> np.ndarray:
        arr = as_shaped(self, x, "x")
        check_finite(arr, "x")
        norm = np.sqrt(_dot(arr, arr))
        if not (norm > 0).all():
            raise NotOnManifoldError(
                f"x{first_false(norm > 0)} is the zero vector, which has no nearest point "
                f"on {self.name}"
            )
        return arr / norm[..., None]

    def random_point(self, n_samples: int = 1, *, rng=None) -> np.ndarray:
        n = as_count(n_samples, "n_samples")
        gen = as_generator(rng)
        while True:
            z = gen.standard_normal((n, self.dim + 1))
            norm = np.sqrt(_dot(z, z))
            if (norm > 0).all():  # a zero Gaussian vector has probability 0
                return z / norm[:, None]

    # -- geometry --------------------------------------------------------------------------
    @staticmethod
    def _angle(x, y, xx, yy, *, normal: bool):
        """Angle ``θ = atan2(|x| |w|, ⟨x, y⟩)``, ``w`` the component of ``y`` normal to ``x``.

        Where ``|cos θ| ≤ 0.9``, ``|w|² = |y|² − ⟨x,y⟩²/|x|²`` and ``w = y − (⟨x,y⟩/|x|²) x``;
        the first cancels at most a factor ``1/(1 − 0.81) ≈ 5`` of the dot products' rounding
        (the worst case, just inside the threshold). Near ``y ≈ ±x`` (the rows selected by
        ``near``) ``w`` is computed from the short chord ``c = x ∓ y`` — exact subtraction
        for nearby points — as ``∓(c − (⟨c,x⟩/|x|²) x)``, whose error is relative to ``|c|``:
        relative to ``θ`` when ``|x| = |y|``, larger by ``||x| − |y||/θ`` otherwise. Bounds:
        :meth:`Sphere.dist`. Returns ``θ``, ``w`` (``None`` unless ``normal``) and ``|w|``.
        """
        dot = _dot(x, y)
        wnorm2 = np.asarray(yy - dot * dot / xx)
        near = dot * dot > 0.81 * xx * yy
        w = None
        if near.all():  # no gather: the chord path on the whole (broadcast) arrays
            sign = np.where(dot >= 0, 1.0, -1.0)[..., None]
            chord = x - sign * y
            w = -sign * (chord - (_dot(chord, x) / xx)[..., None] * x)
            wnorm = np.sqrt(_dot(w, w))
            return np.arctan2(np.sqrt(xx) * wnorm, dot), (w if normal else None), wnorm
        if normal:  # w = y − (⟨x,y⟩/|x|²) x in one allocation (its shape is the broadcast one)
            w = np.multiply(x, (-dot / xx)[..., None])
            w += y
        if near.any():
            shape = np.broadcast_shapes(x.shape, y.shape)
            xn = np.broadcast_to(x, shape)[near]
            sign = np.where(dot[near] >= 0, 1.0, -1.0)[:, None]
            chord = xn - sign * np.broadcast_to(y, shape)[near]
            wn = -sign * (chord - (_dot(chord, xn) / _dot(xn, xn))[:, None] * xn)
            wnorm2 = wnorm2.copy()
            wnorm2[near] = _dot(wn, wn)
            if normal:
                w[near] = wn
        wnorm = np.sqrt(np.maximum(wnorm2, 0.0))
        return np.arctan2(np.sqrt(xx) * wnorm, dot), w, wnorm

    def dist(self, x, y) -> np.ndarray:
        r"""Geodesic distance on ``S^d``: the angle between ``x`` and ``y``.

        ``θ = atan2(|x| |w|, ⟨x, y⟩)`` with ``w`` the component of ``y`` orthogonal to ``x``,
        taken from the chord ``x ∓ y`` where ``y ≈ ±x`` — precise near ``0`` and near ``π``,
        unlike ``arccos⟨x, y⟩``. Relative error at most ``(24 + ||x| − |y||/θ) eps`` at every
        angle for ``d ≤ 63`` (``eps = 2^-52``; twice the worst case of a randomized search,
        docs/manifolds.md, "Precision").

        Parameters
        ----------
        x, y : array_like, shape (..., d + 1)
            Unit vectors; batch shapes broadcast.

        Returns
        -------
        ndarray, shape (...)
            Angles in ``[0, π]``.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`check_points`, for either argument; ``ShapeError`` also when the
            batch shapes do not broadcast.

        Examples
        --------
        >>> import numpy as np
        >>> sphere = Sphere(2)
        >>> x = np.array([1.0, 0.0, 0.0])
        >>> y = np.array([np.cos(1e-9), np.sin(1e-9), 0.0])   # arccos⟨x, y⟩ gives 0.0
        >>> round(float(sphere.dist(x, y)) * 1e9, 9)
        1.0
        >>> float(sphere.dist(x, -x)) == np.pi
        True
        """
        x, xx = self._points(x, "x")
        y, yy = self._points(y, "y")
        batch_shape(self, x, y)
        return self._angle(x, y, xx, yy, normal=False)[0]

    def _dist(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return self._angle(x, y, _dot(x, x), _dot(y, y), normal=False)[0]

    def exp(self, tangent_vec, base_point) -> np.ndarray:
        r"""Exponential map on ``S^d``: ``exp_x(v) = cos|v| x + sin|v| v/|v|``.

        The result is scaled to unit norm; the geodesic's length ``d(x, exp_x(v))`` is ``|v|``
        within ``(4 + 8|v|) eps`` (``eps = 2^-52``). Vectors longer than
        ``MAX_TANGENT_NORM = 1e12`` are refused: there that bound is already ``2e-3``, the
        rounding of ``v`` alone moves the end point by ``|v| eps / 2``, and past
        ``π / eps ≈ 1.4e16`` nothing of ``|v|`` modulo ``2π`` is left (docs/manifolds.md,
        "Long tangent vectors"). Norms are computed without overflow.

        Parameters
        ----------
        tangent_vec : array_like, shape (..., d + 1)
            Tangent vectors at ``base_point``: ``⟨v, x⟩ = 0`` within ``atol``.
        base_point : array_like, shape (..., d + 1)
            Unit vectors; batch shapes broadcast.

        Returns
        -------
        ndarray, shape (..., d + 1)
            Unit vectors.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError, NotTangentError
            As in :meth:`check_tangent`.
        ParameterError
            A vector is longer than ``MAX_TANGENT_NORM`` (``1e12``); the message gives the
            first one and its length.

        Examples
        --------
        >>> import numpy as np
        >>> sphere = Sphere(2)
        >>> x = np.eye(3)[0]
        >>> y = sphere.exp([0.0, 0.5, 0.0], x)
        >>> bool(np.allclose(y, [np.cos(0.5), np.sin(0.5), 0.0]))
        True
        >>> round(float(sphere.dist(x, y)), 12)
        0.5
        >>> sphere.exp([0.0, 1e155, 0.0], x)              # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        manifolds.errors.ParameterError: tangent_vec has length 1e+155 > 1e+12 (MAX_TANGENT_NORM): ...
        """
        x, xx = self._points(base_point, "base_point")
        v, vx, vv = self._tangent(tangent_vec, x)
        if not (vv <= MAX_TANGENT_NORM**2).all():
            check_tangent_norm(self, v, vv)
        return self._exp_from(x, v, xx, vx, vv)

    def _exp(self, v: np.ndarray, x: np.ndarray) -> np.ndarray:
        return self._exp_from(x, v, _dot(x, x), _dot(v, x), _dot(v, v))

    @staticmethod
    def _exp_from(x, v, xx, vx, vv) -> np.ndarray:
        # out = a x + b v with a = cos|v| / |x|, b = sin|v| / |v|, then scaled to unit norm
        # using |a x + b v|² = a²|x|² + 2ab⟨v,x⟩ + b²|v|² (no pass over the arrays).
        t = np.sqrt(vv)
        a = np.cos(t) / np.sqrt(xx)
        b = np.ones_like(t)
        np.divide(np.sin(t), t, out=b, where=t > 0)
        scale = 1.0 / np.sqrt(a * a * xx + 2.0 * a * b * vx + b * b * vv)
        a, b = a * scale, b * scale
        shape = np.broadcast_shapes(x.shape, v.shape)
        if x.shape == shape and (b != 0).all():
            # in place, without temporaries: (x · a/b + v) · b; the v term's rounding is
            # relative to |a x|, so the result keeps absolute error ~eps even for tiny b
            out = np.multiply(x, (a / b)[..., None])
            out += v
            out *= b[..., None]
            return out
        return a[..., None] * x + b[..., None] * v

    def log(self, point, base_point) -> np.ndarray:
        r"""Logarithm on ``S^d``: ``log_x(y) = θ w/|w|``, the tangent vector at ``x`` of norm
        ``θ = d(x, y)`` pointing to ``y``.

        ``w`` is the component of ``y`` orthogonal to ``x``, computed as in :meth:`dist`. A
        round trip ``log_x(exp_x(v))`` returns ``v`` within ``(4 + 8|v| + 16/(π − |v|)) eps``:
        the direction of ``w`` is ill-conditioned near the antipode (docs/manifolds.md,
        "Precision"). The antipode ``−x`` is the cut locus, where the logarithm is not unique.

        Parameters
        ----------
        point : array_like, shape (..., d + 1)
            Unit vectors ``y``.
        base_point : array_like, shape (..., d + 1)
            Unit vectors ``x``; batch shapes broadcast.

        Returns
        -------
        ndarray, shape (..., d + 1)
            Tangent vectors at ``base_point``.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`dist`.
        CutLocusError
            A point is within ``CUT_LOCUS_TOL`` (``1e-12`` rad) of the antipode of its base
            point.

        Examples
        --------
        >>> import numpy as np
        >>> sphere = Sphere(2)
        >>> x = np.eye(3)[0]
        >>> bool(np.allclose(sphere.log([0.0, 1.0, 0.0], x), [0.0, np.pi / 2, 0.0]))
        True
        >>> sphere.log(-x, x)
        Traceback (most recent call last):
        ...
        manifolds.errors.CutLocusError: point is antipodal to its base point (within 1e-12 rad); the logarithm is not unique there — perturb the point
        """
        x, xx = self._points(base_point, "base_point")
        y, yy = self._points(point, "point")
        batch_shape(self, x, y)
        log, theta = self._log_from(x, y, xx, yy)
        away = np.pi - theta > CUT_LOCUS_TOL
        if not away.all():
            raise CutLocusError(
                f"point{first_false(away)} is antipodal to its base point (within "
                f"{CUT_LOCUS_TOL:g} rad); the logarithm is not unique there — perturb the point"
            )
        return log

    def _log(self, y: np.ndarray, x: np.ndarray):
        """Unchecked logarithm and angle; ``0`` at the antipode."""
        return self._log_from(x, y, _dot(x, x), _dot(y, y))

    def _log_from(self, x, y, xx, yy):
        theta, w, wnorm = self._angle(x, y, xx, yy, normal=True)
        scale = np.divide(theta, wnorm, out=np.zeros_like(theta), where=wnorm > 0)
        return np.multiply(w, scale[..., None], out=w), theta

    def to_tangent(self, vector, base_point) -> np.ndarray:
        x, xx = self._points(base_point, "base_point")
        v = as_shaped(self, vector, "vector")
        check_finite(v, "vector")
        batch_shape(self, v, x)
        return v - (_dot(v, x) / xx)[..., None] * x

    def inner(self, tangent_vec_a, tangent_vec_b, base_point) -> np.ndarray:
        x, _ = self._points(base_point, "base_point")
        u = self._tangent(tangent_vec_a, x, "tangent_vec_a")[0]
        v = self._tangent(tangent_vec_b, x, "tangent_vec_b")[0]
        batch_shape(self, u, v)
        return self._inner(u, v)

    @staticmethod
    def _inner(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return _dot(u, v)

    def tangent_basis(self, base_point) -> np.ndarray:
        r"""An orthonormal basis of ``T_x S^d``: rows of a Householder reflection.

        Rows ``1..d`` of the Householder reflection ``I − 2 w wᵀ / |w|²``,
        ``w = x + sign(x_0) e_0``, which maps ``e_0`` to ``∓x``: smooth in ``x`` away from
        ``x_0 = 0`` and free of cancellation.

        Parameters
        ----------
        base_point : array_like, shape (..., d + 1)
            Unit vectors.

        Returns
        -------
        ndarray, shape (..., d, d + 1)
            Basis vector ``i`` at ``[..., i, :]``.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`check_points`.

        Examples
        --------
        >>> import numpy as np
        >>> x = np.array([0.6, 0.8, 0.0])
        >>> basis = Sphere(2).tangent_basis(x)
        >>> basis.shape
        (2, 3)
        >>> bool(np.allclose(basis @ basis.T, np.eye(2)) and np.allclose(basis @ x, 0.0))
        True
        """
        x, xx = self._points(base_point, "base_point")
        x = x / np.sqrt(xx)[..., None]
        w = x.copy()
        w[..., 0] += np.where(x[..., 0] >= 0, 1.0, -1.0)
        eye = np.eye(self.dim + 1)
        house = eye - 2.0 * w[..., :, None] * w[..., None, :] / _dot(w, w)[..., None, None]
        return house[..., 1:, :]

    # -- structure of the contract (manifolds.Space) ---------------------------------------
    def frame(self, x: np.ndarray) -> None:
        return None

    @property
    def embedding_dim(self) -> int:
        """``d + 1``: ``S^d ⊂ R^{d+1}`` (:attr:`Space.embedding_dim`).

        Examples
        --------
        >>> Sphere(2).embedding_dim
        3
        """
        return self.dim + 1

    def embed(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x, dtype=float)

    def embedding_radius(self, r: float) -> float:
        return float(2.0 * np.sin(r / 2.0) + 4.0 * self.atol + 1e-12)

    def ambient_projection(self, z: np.ndarray) -> np.ndarray:
        return np.asarray(z, dtype=float)

    def act(self, g: np.ndarray, z: np.ndarray) -> np.ndarray:
        return np.asarray(z) @ np.asarray(g).T

    def conventions(self) -> dict:
        return {
            "point_model": f"unit vectors in R^{self.dim + 1}",
            "distance": "angle atan2(|x^y|, <x,y>)",
            "metric": "<u,v> (Euclidean)",
        }
