"""Interaction laws on homogeneous spaces: kernels, isotropic fields, laws, dynamics.

DESIGN.md §3. Bump kernels ``κ(x, y) = f(d(x, y)/r)`` (:class:`BumpKernel`) and their sums
over many centers (:class:`KernelSum`); the isotropic vector-field family of Lemma 2.2
(:class:`IsotropicFamily`); finite-rank weights ``β = ⟨φ, ψ⟩`` and interaction laws
``u = β a`` (:class:`FiniteRankWeight`, :class:`InteractionLaw`); and the checks that report
margins (:func:`check_kernel`, :func:`check_isotropy`, :func:`strength_report`); particle
dynamics (:func:`integrate`, :class:`LawDynamics`, :class:`SelfAttention`) and their
diagnostics (DESIGN.md §5). Imports
:mod:`manifolds`, never :mod:`theorem`.
"""

from .attention import SelfAttention, usa_energy
from .diagnostics import collapse_time, count_clusters, pairwise_inner
from .dynamics import LawDynamics, Trajectory, integrate
from .errors import FeatureError, LawError, RadiusError, ZeroSetError
from .fields import IsotropicFamily, IsotropicField, check_isotropy
from .interaction import FiniteRankWeight, InteractionLaw, strength_report
from .kernel_sum import KernelSum
from .kernels import PROFILES, BumpKernel, Profile, check_kernel
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
    "pairwise_inner",
    "count_clusters",
    "collapse_time",
    "Check",
    "Report",
    "LawError",
    "RadiusError",
    "ZeroSetError",
    "FeatureError",
]
