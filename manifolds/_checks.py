"""Input validation shared by the spaces: dtype, finiteness, shapes, membership, tangency.

A space hands itself to these functions; it provides ``ambient_shape``, ``atol`` and
``name``. :func:`as_points` and :func:`as_tangent` also call two measures of the
:class:`~manifolds.Space` contract,
``_deviation(x)`` (how far each point is from the manifold) and ``_tangent_deviation(v, x)``
(the normal part of each vector relative to ``max(1, |v|)``); a space that computes these
measures alongside other quantities (``Sphere`` reuses its inner products) calls
:func:`check_membership` and :func:`check_tangency` directly instead.
"""

from __future__ import annotations

import numpy as np

from .errors import (
    NonFiniteError,
    NotOnManifoldError,
    NotTangentError,
    ParameterError,
    ShapeError,
)


def as_float_array(x, name: str) -> np.ndarray:
    """Return ``x`` as a float64 array; ``TypeError`` for non-numeric input."""
    try:
        arr = np.asarray(x)
    except Exception as exc:  # ragged lists and the like
        raise TypeError(f"{name} must be an array of real numbers: {exc}") from None
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.floating)
        or np.issubdtype(arr.dtype, np.integer)
        or np.issubdtype(arr.dtype, np.bool_)
    ):
        raise TypeError(
            f"{name} must be an array of real numbers, got dtype {arr.dtype}; "
            "pass a numpy array of floats"
        )
    return arr.astype(np.float64, copy=False)


def check_finite(arr: np.ndarray, name: str) -> None:
    """Raise :class:`NonFiniteError` naming the first NaN or infinite entry."""
    bad = ~np.isfinite(arr)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        raise NonFiniteError(
            f"{name}{list(index)} is {arr[index]}; every entry must be finite "
            "(remove or repair NaN/inf before calling)"
        )


def check_trailing_shape(space, arr: np.ndarray, name: str) -> None:
    """Raise :class:`ShapeError` unless ``arr`` ends with ``space.ambient_shape``."""
    shape = space.ambient_shape
    if arr.ndim < len(shape) or arr.shape[arr.ndim - len(shape):] != shape:
        raise ShapeError(
            f"{name} has shape {arr.shape}, but points of {space.name} have shape "
            f"{shape} (batches: (..., {', '.join(map(str, shape))}))"
        )


def batch_shape(space, *arrays: np.ndarray) -> tuple[int, ...]:
    """Broadcast the leading (batch) shapes of ``arrays``; :class:`ShapeError` if they clash."""
    nd = len(space.ambient_shape)
    shapes = [a.shape[: a.ndim - nd] for a in arrays]
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ShapeError(
            f"batch shapes {', '.join(map(str, shapes))} do not broadcast; give arrays of "
            "equal leading shape, or shape 1 where one side is shared"
        ) from None


def as_shaped(space, x, name: str) -> np.ndarray:
    """``x`` as a float array ending with ``space.ambient_shape`` (not yet checked for finiteness)."""
    arr = as_float_array(x, name)
    check_trailing_shape(space, arr, name)
    return arr


def check_membership(space, arr: np.ndarray, deviation: np.ndarray, name: str) -> None:
    """Raise unless every point's ``deviation`` from the manifold is within ``space.atol``.

    A non-finite deviation means a NaN or infinite input entry, which is then located.
    """
    if not np.isfinite(deviation).all():
        check_finite(arr, name)
    _raise_worst(
        deviation, space.atol, name, NotOnManifoldError,
        f"is {{value:.3g}} off {space.name} (atol = {space.atol:g}); "
        "map it with projection() or loosen the space's atol",
    )


def check_tangency(space, arr: np.ndarray, deviation: np.ndarray, name: str) -> None:
    """Raise unless every vector's normal part (``deviation``) is within ``space.atol``."""
    if not np.isfinite(deviation).all():
        check_finite(arr, name)
    _raise_worst(
        deviation, space.atol, name, NotTangentError,
        f"has a normal component {{value:.3g}} (relative to max(1, |v|); atol = "
        f"{space.atol:g}) at its base point on {space.name}; project it with to_tangent()",
    )


def as_points(space, x, name: str = "point") -> np.ndarray:
    """Validate points of ``space``: numeric, trailing shape, finite, within ``space.atol``."""
    arr = as_shaped(space, x, name)
    with np.errstate(invalid="ignore", over="ignore"):  # NaN/inf are located below
        deviation = space._deviation(arr)
    check_membership(space, arr, deviation, name)
    return arr


def as_tangent(space, v, base: np.ndarray, name: str = "tangent_vec") -> np.ndarray:
    """Validate tangent vectors at already-validated base points ``base``."""
    arr = as_shaped(space, v, name)
    batch_shape(space, arr, base)
    with np.errstate(invalid="ignore", over="ignore"):
        deviation = space._tangent_deviation(arr, base)
    deviation = rescaled_deviation(space, arr, base, deviation)
    check_tangency(space, arr, deviation, name)
    return arr


def rescaled_deviation(space, arr: np.ndarray, base: np.ndarray, deviation: np.ndarray,
                       redo: np.ndarray | None = None) -> np.ndarray:
    """``deviation`` (the tangency measure of vectors ``arr`` at ``base``) recomputed on
    ``v / m``, ``m`` the largest entry of ``v``, where ``|v|²`` may have overflowed.

    ``redo`` marks those vectors; by default the ones whose measure is not finite or whose
    largest entry exceeds ``1e150`` (their squares near the float64 limit). The measure is
    relative to ``max(1, |v|)`` and ``m ≥ 1`` there, so ``v / m`` has the same measure. The
    other entries, and all of them for ordinary input, are returned unchanged.
    """
    deviation = np.asarray(deviation)
    if not np.isfinite(arr).all():
        return deviation  # check_tangency locates the NaN / inf entry
    axes = tuple(range(-len(space.ambient_shape), 0))
    if redo is None:
        if np.isfinite(deviation).all() and not np.abs(arr).max(initial=0.0) > _HUGE:
            return deviation
        largest = np.abs(arr).max(axis=axes) if arr.size else np.zeros(arr.shape[:arr.ndim - len(axes)])
        redo = ~np.isfinite(deviation) | (largest > _HUGE)
    if not np.any(redo):
        return deviation
    largest = np.abs(arr).max(axis=axes, keepdims=True)
    scaled = arr / np.where(largest > 0, largest, 1.0)
    with np.errstate(invalid="ignore", over="ignore"):
        again = space._tangent_deviation(scaled, base)
    return np.where(redo, again, deviation)


#: Entries above this may overflow when squared and summed (``1e300`` per square).
_HUGE = 1e150


#: ``exp`` refuses tangent vectors longer than this (``|v|_g``): the end point of the geodesic
#: is then known only to about ``8 |v| eps ≈ 2e-3`` (the rounding of ``v`` alone moves it by
#: ``|v| eps / 2``); past ``π / eps ≈ 1.4e16`` nothing of ``|v|`` modulo the period is left,
#: and ``|v|²`` overflows float64 past ``1.3e154``.
MAX_TANGENT_NORM = 1e12


def norm(space, v: np.ndarray) -> np.ndarray:
    """``|v|_g`` without overflow: computed on ``v / m`` (``m`` the largest entry), times ``m``."""
    axes = tuple(range(-len(space.ambient_shape), 0))
    largest = np.abs(v).max(axis=axes)
    safe = np.where(largest > 0, largest, 1.0)
    scaled = v / safe.reshape(safe.shape + (1,) * len(axes))
    return safe * np.sqrt(space._inner(scaled, scaled))


def check_tangent_norm(space, v: np.ndarray, norm2: np.ndarray, name: str = "tangent_vec") -> None:
    """Raise :class:`ParameterError` where ``norm2 = |v|_g²`` exceeds ``MAX_TANGENT_NORM²``
    (``inf`` included: ``|v|²`` overflowed), naming the first such vector and its length."""
    ok = np.asarray(norm2) <= MAX_TANGENT_NORM**2
    if not ok.all():
        where = first_false(ok)
        length = float(norm(space, v[tuple(where) if where != "" else ()]))
        raise ParameterError(
            f"{name}{where} has length {length:.3g} > {MAX_TANGENT_NORM:g} (MAX_TANGENT_NORM): "
            "exp is refused there, since rounding leaves the end of its geodesic undetermined "
            f"(error bound 8|v| eps = {8 * length * np.finfo(float).eps:.2g} rad); scale the "
            "vector down (on spheres exp_x(v) depends on |v| only modulo 2π)"
        )


def _raise_worst(deviation, atol, name, error, message) -> None:
    deviation = np.asarray(deviation)
    if deviation.size and not (deviation <= atol).all():
        # NaN (a measure that overflowed, inf − inf) counts as the worst
        deviation = np.where(np.isnan(deviation), np.inf, deviation)
        index = np.unravel_index(np.argmax(deviation), deviation.shape)
        where = list(map(int, index)) if deviation.ndim else ""
        raise error(f"{name}{where} " + message.format(value=float(deviation[index])))


def first_false(ok: np.ndarray) -> list[int] | str:
    """Index (as a list, for messages) of the first ``False`` in a boolean batch array."""
    ok = np.asarray(ok)
    return list(map(int, np.argwhere(~ok)[0])) if ok.ndim else ""
