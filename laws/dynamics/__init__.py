"""Particle dynamics on the spaces of :mod:`manifolds` (docs/conventions.md#dynamics-clock).

:mod:`.integrators` (explicit Runge–Kutta with projection, :class:`Trajectory`),
:mod:`.law_dynamics` (the velocity of an interaction law), :mod:`.self_attention` (the SA and
USA models on the sphere) and :mod:`.diagnostics` (inner products, clusters, collapse time).
"""

from .diagnostics import collapse_time, count_clusters, pairwise_inner
from .integrators import METHODS, Trajectory, integrate
from .law_dynamics import LawDynamics
from .self_attention import MAX_EXPONENT, SelfAttention, usa_energy

__all__ = [
    "integrate",
    "Trajectory",
    "METHODS",
    "LawDynamics",
    "SelfAttention",
    "usa_energy",
    "MAX_EXPONENT",
    "pairwise_inner",
    "count_clusters",
    "collapse_time",
]
