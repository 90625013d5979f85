"""Exceptions raised by :mod:`manifolds`.

Every exception subclasses :class:`ValueError` through :class:`ManifoldError` (or
:class:`TypeError` for arguments of the wrong type), and its message says what was wrong,
where, and how to fix it.
"""

from __future__ import annotations

__all__ = [
    "ManifoldError",
    "ParameterError",
    "ShapeError",
    "NonFiniteError",
    "NotOnManifoldError",
    "NotTangentError",
    "CutLocusError",
    "NotAdmissibleError",
]


class ManifoldError(ValueError):
    """Base class of the value errors raised by :mod:`manifolds`."""


class ParameterError(ManifoldError):
    """An argument's value is out of its range (a dimension, a count, a radius)."""


class ShapeError(ManifoldError):
    """An array has the wrong trailing shape, or batch shapes do not broadcast."""


class NonFiniteError(ManifoldError):
    """An array holds NaN or infinity."""


class NotOnManifoldError(ManifoldError):
    """A point lies farther from the manifold than the tolerance allows."""


class NotTangentError(ManifoldError):
    """A vector is not tangent to the manifold at its base point."""


class CutLocusError(ManifoldError):
    """The logarithm is asked for at (or numerically at) the cut locus, where it is not unique."""


class NotAdmissibleError(ManifoldError):
    """An embedding is not injective or not separated by more than ``r0``."""
