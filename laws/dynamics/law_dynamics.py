r"""The velocity of an interaction law: ``ẋ_i = (1/Z_i) Σ_j u(x_j, x_i)`` (docs/conventions.md#dynamics-clock).

All ``j`` are summed, ``i`` included; ``Z_i = N`` or ``Z_i = Σ_j β(x_j, x_i)`` (guarded
against ``0``). Integrate it with :func:`~laws.integrate`.
"""

from __future__ import annotations

import numpy as np

from manifolds import as_choice

from ..fields import IsotropicField
from .diagnostics import _check_systems
from ..interaction import FiniteRankWeight, InteractionLaw

__all__ = ["LawDynamics"]


class LawDynamics:
    r"""The velocity ``ẋ_i = (1/Z_i) Σ_j u(x_j, x_i)`` of an interaction law (sum over all ``j``).

    Parameters
    ----------
    law : InteractionLaw
    normalization : {"mean", "weight"}
        ``Z_i = N`` (``"mean"``), or ``Z_i = Σ_j β(x_j, x_i)`` (``"weight"``). Where that sum
        is ``0`` — no particle, itself included, in the support of ``β(·, x_i)`` when
        ``β ≥ 0`` — the particle does not move (velocity ``0``, never NaN).

    Raises
    ------
    TypeError
        When ``law`` is not an :class:`InteractionLaw`.
    ParameterError
        When ``normalization`` is neither ``"mean"`` nor ``"weight"``.

    Notes
    -----
    A :class:`FiniteRankWeight` is evaluated once per particle (``β = φ(x) ψ(x)ᵀ``), and an
    :class:`IsotropicField` (which does not depend on the acting particle) once per
    particle that some weight reaches: the cost is ``O(N² n)`` plus ``O(N)`` field
    evaluations, not ``O(N²)`` law evaluations.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import ProjectiveSpace
    >>> from laws import BumpKernel, KernelSum, FiniteRankWeight, IsotropicFamily, InteractionLaw, integrate
    >>> rp2 = ProjectiveSpace(2)
    >>> kernel = BumpKernel(rp2, 0.6)
    >>> c = rp2.random_point(2, rng=0)
    >>> beta = FiniteRankWeight(KernelSum(kernel, c[:1], weights=[[1.0]]), KernelSum(kernel, c[1:], weights=[[1.0]]))
    >>> family = IsotropicFamily(rp2)
    >>> v0 = rp2.to_tangent(np.diag([1.0, -1.0, 0.5]), c[1])
    >>> law = InteractionLaw(beta, family.at(family.theta_for(v0, c[1], radius=0.6, rng=0)))
    >>> x0 = np.stack([c[0], rp2.exp(0.1 * v0 / np.sqrt(rp2.inner(v0, v0, c[1])), c[1])])[None]
    >>> traj = integrate(LawDynamics(law), x0, t_final=1.0, dt=0.05)
    >>> traj.diagnostics["max_deviation"] < 1e-12
    True
    """

    def __init__(self, law: InteractionLaw, normalization: str = "mean"):
        if not isinstance(law, InteractionLaw):
            raise TypeError(f"law must be an InteractionLaw, not {type(law).__name__}")
        as_choice(normalization, "normalization", ("mean", "weight"))
        self.law = law
        self.normalization = normalization
        self.space = law.space
        self.clock = "physical"

    def __call__(self, x) -> np.ndarray:
        """Velocities at ``x (..., N, *point_shape)``, checked (at least one particle and one
        system: ``ShapeError`` for empty input); same shape."""
        x = self.space.check_points(x, "x")
        _check_systems(x, len(self.space.ambient_shape), "x")
        return self._velocity(x)

    def _weights(self, x: np.ndarray) -> np.ndarray:
        """``W[..., j, i] = β(x_j, x_i)``, shape ``(..., N, N)``."""
        weight = self.law.weight
        if isinstance(weight, FiniteRankWeight):
            phi = weight._features(weight.phi, x, "phi")
            psi = weight._features(weight.psi, x, "psi")
            return phi @ np.swapaxes(psi, -1, -2)
        nd = len(self.space.ambient_shape)
        xj = np.expand_dims(x, -nd - 1)        # (..., N, 1, *pt): the acting particle j
        xi = np.expand_dims(x, -nd - 2)        # (..., 1, N, *pt): the particle i acted on
        n = x.shape[-nd - 1]
        return np.broadcast_to(np.asarray(weight(xj, xi), dtype=float), x.shape[:-nd - 1] + (n, n))

    def _velocity(self, x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Unchecked velocities at ``x``, written to ``out`` when given."""
        result = self._velocities(x)
        if out is None:
            return result
        out[...] = result
        return out

    def _velocities(self, x: np.ndarray) -> np.ndarray:
        nd = len(self.space.ambient_shape)
        w = self._weights(x)                                   # (..., N_j, N_i)
        n = x.shape[-nd - 1]
        z = np.full(w.shape[:-2] + (n,), float(n)) if self.normalization == "mean" else w.sum(axis=-2)
        scale = np.divide(1.0, z, out=np.zeros_like(z), where=z != 0)
        field = self.law.field
        out = np.zeros_like(x)
        if isinstance(field, IsotropicField):
            total = w.sum(axis=-2) * scale                     # (..., N_i)
            reached = np.any(w != 0, axis=-2)
            if reached.any():
                a = field(x[reached], x[reached])
                out[reached] = total[reached].reshape((-1,) + (1,) * nd) * a
            return out
        xj = np.expand_dims(x, -nd - 1)
        xi = np.expand_dims(x, -nd - 2)
        support = w != 0
        if support.any():
            pairs_j = np.broadcast_to(xj, w.shape + self.space.ambient_shape)[support]
            pairs_i = np.broadcast_to(xi, w.shape + self.space.ambient_shape)[support]
            a = field(pairs_j, pairs_i)
            u = np.zeros(w.shape + self.space.ambient_shape)
            u[support] = w[support].reshape((-1,) + (1,) * nd) * a
            out = u.sum(axis=-nd - 2) * scale.reshape(scale.shape + (1,) * nd)
        return out
