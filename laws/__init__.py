"""Interaction laws on homogeneous spaces: kernels, isotropic fields, laws, dynamics.

docs/conventions.md#interaction-laws. Bump kernels ``κ(x, y) = f(d(x, y)/r)`` (:class:`BumpKernel`) and their sums
over many centers (:class:`KernelSum`); the isotropic vector-field family of Lemma 2.2
(:class:`IsotropicFamily`); finite-rank weights ``β = ⟨φ, ψ⟩`` and interaction laws
``u = β a`` (:class:`FiniteRankWeight`, :class:`InteractionLaw`); and the checks that report
margins (:func:`check_kernel`, :func:`check_isotropy`, :func:`strength_report`); particle
dynamics (:func:`integrate`, :class:`LawDynamics`, :class:`SelfAttention`) and their
diagnostics (docs/conventions.md#dynamics-clock), in the sub-package :mod:`laws.dynamics`; normal coordinates and
finite-difference Hessians (:func:`normal_chart`, :func:`hessian`). Imports :mod:`manifolds`
(through the :class:`manifolds.Space` contract), never :mod:`theorem`.
"""

from .dynamics import (
    MAX_EXPONENT,
    LawDynamics,
    SelfAttention,
    Trajectory,
    collapse_time,
    count_clusters,
    integrate,
    pairwise_inner,
    usa_energy,
)
from .errors import FeatureError, LawError, RadiusError, ZeroSetError
from .fields import IsotropicFamily, IsotropicField, check_isotropy
from .interaction import FiniteRankWeight, InteractionLaw, strength_report
from .kernel_sum import KernelSum
from .kernels import PROFILES, BumpKernel, Profile, check_kernel
from .normal_coordinates import hessian, normal_chart, unit_coordinates
from .report import Check, Report

__all__ = [
    "BumpKernel",
    "Profile",
    "PROFILES",
    "check_kernel",
    "KernelSum",
    "IsotropicFamily",
    "IsotropicField",
    "check_isotropy",
    "FiniteRankWeight",
    "InteractionLaw",
    "strength_report",
    "integrate",
    "Trajectory",
    "LawDynamics",
    "SelfAttention",
    "usa_energy",
    "MAX_EXPONENT",
    "pairwise_inner",
    "count_clusters",
    "collapse_time",
    "normal_chart",
    "unit_coordinates",
    "hessian",
    "Check",
    "Report",
    "LawError",
    "RadiusError",
    "ZeroSetError",
    "FeatureError",
]
