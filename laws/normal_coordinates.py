r"""Normal coordinates and finite-difference Hessians, shared by the kernel, law and cover checks.

Normal coordinates at ``p``: ``c ∈ R^dim ↦ exp_p(Σ_i c_i E_i)`` with ``E`` a ``g``-orthonormal
basis of ``T_p M`` (:meth:`~manifolds.Space.tangent_basis`). In them the metric at ``p`` is
the identity, so a Hessian computed in these coordinates is the Riemannian Hessian at ``p``
in an orthonormal frame.
"""

from __future__ import annotations

import numpy as np

from manifolds import Space
from manifolds.validation import as_space

__all__ = ["normal_chart", "unit_coordinates", "hessian"]

_STENCIL = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
_WEIGHTS = np.array([-1.0, 16.0, -30.0, 16.0, -1.0]) / 12.0


def normal_chart(space: Space, base: np.ndarray):
    r"""Normal coordinates at ``base``: the map ``c ↦ exp_base(Σ_i c_i E_i)`` and the basis ``E``.

    Parameters
    ----------
    space : Space
    base : array, shape ``(*ambient_shape)`` or ``(..., *ambient_shape)``
        Base point(s), checked to lie on ``space``.

    Returns
    -------
    chart : callable
        ``chart(c)`` for coordinates ``c (..., dim)`` returns points ``(..., *ambient_shape)``
        (unchecked exponential map: coordinates are trusted).
    basis : ndarray, shape ``(dim, *ambient_shape)`` (or ``(..., dim, *ambient_shape)``)
        The ``g``-orthonormal tangent basis ``E``.

    Raises
    ------
    TypeError
        When ``space`` is not a :class:`manifolds.Space`. Points off the space raise the
        errors of :mod:`manifolds`.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> sphere = Sphere(2)
    >>> chart, basis = normal_chart(sphere, np.array([0.0, 0.0, 1.0]))
    >>> basis.shape
    (2, 3)
    >>> round(float(sphere.dist(chart(np.array([0.3, 0.4])), [0.0, 0.0, 1.0])), 12)
    0.5
    """
    as_space(space)
    basis = space.tangent_basis(base)
    base = space.check_points(base, "base")
    nd = len(space.ambient_shape)

    def chart(coords: np.ndarray) -> np.ndarray:
        coords = np.asarray(coords, dtype=float)
        v = np.tensordot(coords, basis, axes=([-1], [0]))
        b = np.broadcast_to(base, v.shape[: v.ndim - nd] + base.shape)
        return space.unchecked_exp(v, b)

    return chart, basis


def unit_coordinates(dim: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` uniform unit vectors of ``R^dim``.

    Parameters
    ----------
    dim, count : int
    rng : numpy.random.Generator

    Returns
    -------
    ndarray, shape ``(count, dim)``

    Examples
    --------
    >>> import numpy as np
    >>> c = unit_coordinates(3, 5, np.random.default_rng(0))
    >>> c.shape, bool(np.allclose(np.linalg.norm(c, axis=1), 1.0))
    ((5, 3), True)
    """
    z = rng.standard_normal((count, dim))
    return z / np.linalg.norm(z, axis=1, keepdims=True)


def _second_derivatives(func, directions: np.ndarray, step: float) -> np.ndarray:
    points = _STENCIL[:, None, None] * step * directions[None]
    values = np.asarray(func(points), dtype=float)
    return np.einsum("s,s...->...", _WEIGHTS, values) / step**2


def hessian(func, dim: int, step: float):
    r"""Hessian at 0 of ``func: R^dim → R`` by 4th-order central differences.

    Second derivatives along ``e_i`` and ``e_i + e_j`` with the five-point stencil
    ``(−f(2h) + 16 f(h) − 30 f(0) + 16 f(−h) − f(−2h)) / 12h²`` (error ``O(h⁴)`` for smooth
    ``func``), then ``H_ij = (D²_{e_i+e_j} − H_ii − H_jj) / 2``. All
    ``5 · dim (dim + 1) / 2`` points go in one call.

    Parameters
    ----------
    func : callable
        Takes a batch of coordinates ``(..., dim)`` and returns ``(...)``, or
        ``(..., *batch)`` for a batch of functions sharing the coordinates (several base
        points at once).
    dim : int
    step : float
        The finite-difference step ``h``.

    Returns
    -------
    hess : ndarray, shape ``(*batch, dim, dim)``
        Symmetric.
    error : float or ndarray of shape ``batch``
        A conservative error estimate: the largest entry of ``|H(h) − H(2h)|`` (15 times the
        ``O(h⁴)`` term for smooth ``func``; still an estimate for functions that are only
        ``C²``) plus the rounding floor ``64 eps max|f| / h²``.

    Examples
    --------
    >>> import numpy as np
    >>> hess, err = hessian(lambda c: c[..., 0] ** 2 + 3 * c[..., 0] * c[..., 1], 2, 1e-2)
    >>> hess.round(8).tolist(), err < 1e-8
    ([[2.0, 3.0], [3.0, 0.0]], True)
    """
    eye = np.eye(dim)
    iu = np.triu_indices(dim, 1)
    diagonal = np.arange(dim)
    directions = np.concatenate([eye, eye[iu[0]] + eye[iu[1]]])
    estimates = []
    for h in (step, 2.0 * step):
        second = _second_derivatives(func, directions, h)          # (m, *batch)
        hess = np.zeros((dim, dim) + second.shape[1:])
        hess[diagonal, diagonal] = second[:dim]
        off = 0.5 * (second[dim:] - second[:dim][iu[0]] - second[:dim][iu[1]])
        hess[iu] = off
        hess[iu[1], iu[0]] = off
        estimates.append(np.moveaxis(hess, (0, 1), (-2, -1)))
    center = np.abs(np.asarray(func(np.zeros((1, dim))), dtype=float))[0]
    error = (np.abs(estimates[0] - estimates[1]).max(axis=(-2, -1))
             + 64 * np.finfo(float).eps * center / step**2)
    return estimates[0], (float(error) if np.ndim(error) == 0 else error)
