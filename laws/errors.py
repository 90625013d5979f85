"""Exceptions raised by :mod:`laws`.

All subclass :class:`LawError` (a :class:`ValueError`); arguments of the wrong type raise
``TypeError``. Points off a manifold, non-finite arrays and wrong shapes raise the errors of
:mod:`manifolds`, which are :class:`ValueError` subclasses too. Messages say what was wrong,
where, and how to fix it.
"""

from __future__ import annotations

__all__ = ["LawError", "RadiusError", "ZeroSetError", "FeatureError"]


class LawError(ValueError):
    """Base class of the value errors raised by :mod:`laws`."""


class RadiusError(LawError):
    """A kernel radius is not in ``(0, injectivity radius)``, or not a finite number."""


class ZeroSetError(LawError):
    """A unit field ``a_θ = v(θ)/|v(θ)|`` is asked for where ``v(θ)`` vanishes, or no ``θ``
    keeps the zero set of ``v(θ)`` far enough from the points a construction uses."""


class FeatureError(LawError):
    """Feature maps ``φ, ψ`` of a finite-rank weight disagree in dimension, or weights do
    not match their centers."""
