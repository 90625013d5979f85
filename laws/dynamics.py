r"""Particle dynamics on a manifold: explicit Runge–Kutta with projection, and interaction laws.

DESIGN.md §5: particles ``x_1..x_N ∈ M`` move by a velocity field ``ẋ = V(x)`` (tangent
vectors at every particle). :func:`integrate` runs explicit Euler, Heun or the classical
RK4 on the ambient ODE ``ẋ = V(π(x))`` (``π`` the nearest-point projection onto ``M``, the
space's :meth:`projection`): every stage point is projected before ``V`` is evaluated and
every step ends with a projection. Since ``V`` is tangent, the exact flow of the ambient ODE
stays on ``M``; the projection moves an ``O(dt^{p+1})``-accurate step by ``O(dt^{p+1})``, so
the method keeps its order ``p`` (1, 2, 4) and the points stay on ``M`` to rounding.

:class:`LawDynamics` turns an :class:`InteractionLaw` into such a velocity:
``ẋ_i = (1/Z_i) Σ_j u(x_j, x_i)`` (all ``j``, ``i`` included).
"""

from __future__ import annotations

import numbers
import time
from dataclasses import dataclass, field

import numpy as np
from scipy.linalg.blas import daxpy as _daxpy

from manifolds import ParameterError, ShapeError

from .fields import IsotropicField
from .interaction import FiniteRankWeight, InteractionLaw

__all__ = ["Trajectory", "integrate", "LawDynamics", "METHODS"]

#: Butcher tableaux ``(A, b)`` of the explicit methods.
METHODS = {
    "euler": (np.zeros((1, 1)), np.array([1.0])),
    "heun": (np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([0.5, 0.5])),
    "rk4": (np.array([[0.0, 0, 0, 0], [0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 1.0, 0]]),
            np.array([1.0, 2.0, 2.0, 1.0]) / 6.0),
}


@dataclass(frozen=True)
class Trajectory:
    """Recorded states of ``B`` independent systems of ``N`` particles.

    Attributes
    ----------
    times : ndarray, shape ``(T,)``
        In the velocity's clock (``diagnostics["clock"]``).
    points : ndarray, shape ``(T, B, N, *point_shape)``
    space : the manifold
    diagnostics : dict
        ``method``, ``dt`` (the step used), ``steps``, ``clock``, ``max_deviation`` (largest
        distance of a recorded point from ``M`` in the space's membership measure),
        ``seconds`` (wall clock).
    """

    times: np.ndarray
    points: np.ndarray
    space: object
    diagnostics: dict = field(default_factory=dict)

    @property
    def final(self) -> np.ndarray:
        """The last recorded state, shape ``(B, N, *point_shape)``."""
        return self.points[-1]


def _positive(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, not {type(value).__name__}")
    if not (np.isfinite(value) and value > 0):
        raise ParameterError(f"{name} must be finite and positive, got {value}")
    return float(value)


def _projector(space):
    """The nearest-point projection, without input checks (the integrator's own points).

    On spheres it normalizes in place (its argument is a work array of the integrator).
    """
    if hasattr(space, "_bases"):
        def project(x):
            u, _ = space._bases(x)
            return u @ np.swapaxes(u, -1, -2)
        return project

    def normalize(x):
        x *= (1.0 / np.sqrt(np.einsum("...i,...i->...", x, x)))[..., None]
        return x
    return normalize


def _combine(out: np.ndarray, x: np.ndarray, coefficients: np.ndarray, ks: list) -> np.ndarray:
    """``out = x + Σ_j c_j k_j`` (zero coefficients skipped); returns ``out``.

    One pass per term: BLAS ``daxpy`` (``y ← a x + y``) on the flat contiguous arrays.
    """
    out[...] = x
    flat = out.reshape(-1)
    for c, k in zip(coefficients, ks):
        if c:
            _daxpy(k.reshape(-1), flat, a=float(c))
    return out


def integrate(velocity, x0, *, t_final: float, dt: float, method: str = "rk4",
              record_every: int = 1, space=None, progress=None) -> Trajectory:
    r"""Integrate ``ẋ = velocity(x)`` on a manifold from ``x0`` to ``t_final``.

    Parameters
    ----------
    velocity : callable
        ``velocity(x)`` for ``x`` of shape ``(B, N, *point_shape)`` returns tangent vectors
        of the same shape (:class:`SelfAttention` and :class:`LawDynamics` are velocities).
    x0 : array, shape ``(B, N, *point_shape)``
        ``B`` independent systems of ``N`` particles, checked to lie on the space.
    t_final, dt : float
        Horizon and step; the step used is ``t_final / ceil(t_final / dt)`` (uniform).
    method : {"euler", "heun", "rk4"}
    record_every : int
        Record every this many steps (and always the first and last state).
    space : optional
        Default ``velocity.space_for(x0)`` when the velocity has it (:class:`SelfAttention`,
        whose sphere follows the tokens), else ``velocity.space``.
    progress : callable, optional
        Called as ``progress(step, steps)`` after every recorded step.

    Returns
    -------
    Trajectory

    Examples
    --------
    >>> import numpy as np
    >>> from laws import SelfAttention
    >>> x0 = np.eye(3)[None, :2] + 0.0           # one system: e0 and e1 on S^2
    >>> traj = integrate(SelfAttention(1.0), x0, t_final=5.0, dt=0.1, record_every=10)
    >>> traj.times.shape, traj.points.shape
    ((6,), (6, 1, 2, 3))
    >>> float(traj.points[-1, 0, 0] @ traj.points[-1, 0, 1]) > 0.99     # the two merge
    True
    """
    if method not in METHODS:
        raise ParameterError(f"method must be one of {sorted(METHODS)}, got {method!r}")
    if space is None:
        space = velocity.space_for(x0) if hasattr(velocity, "space_for") else getattr(velocity, "space", None)
    if space is None:
        raise TypeError("give space=... for a velocity without a .space attribute")
    t_final = _positive(t_final, "t_final")
    dt = _positive(dt, "dt")
    if isinstance(record_every, bool) or not isinstance(record_every, numbers.Integral) or record_every < 1:
        raise ParameterError(f"record_every must be a positive integer, got {record_every!r}")
    nd = len(space.ambient_shape)
    x = space.check_points(x0, "x0")
    if x.ndim != nd + 2:
        raise ShapeError(
            f"x0 has shape {x.shape}; give (B, N, {', '.join(map(str, space.ambient_shape))}) "
            "— B systems of N particles (x0[None] for one system)"
        )
    steps = int(np.ceil(t_final / dt - 1e-12))
    h = t_final / steps
    a, b = METHODS[method]
    project = _projector(space)
    # the library's velocities have an unchecked ``_velocity(x, out=...)`` that writes into the
    # integrator's stage arrays; any other callable is called and its result stored
    unchecked = getattr(velocity, "_velocity", None)
    start = time.perf_counter()
    x = project(x.copy())
    times, states = [0.0], [x.copy()]
    # work arrays reused by every step (fresh large arrays cost page faults each time)
    ks = [np.empty_like(x) for _ in b]
    stage, nxt = np.empty_like(x), np.empty_like(x)
    for n in range(1, steps + 1):
        for i in range(len(b)):
            y = x if i == 0 else project(_combine(stage, x, h * a[i, :i], ks))
            if unchecked is not None:
                unchecked(y, out=ks[i])
            else:
                ks[i] = np.asarray(velocity(y), dtype=float)
        x, nxt = project(_combine(nxt, x, h * b, ks)), x
        if n % record_every == 0 or n == steps:
            times.append(n * h)
            states.append(x.copy())
            if progress is not None:
                progress(n, steps)
    points = np.stack(states)
    deviation = float(np.max(space._deviation(points))) if points.size else 0.0
    diagnostics = {
        "method": method, "dt": h, "steps": steps,
        "clock": getattr(velocity, "clock", "physical"),
        "max_deviation": deviation, "seconds": time.perf_counter() - start,
    }
    return Trajectory(np.array(times), points, space, diagnostics)


class LawDynamics:
    r"""The velocity ``ẋ_i = (1/Z_i) Σ_j u(x_j, x_i)`` of an interaction law (sum over all ``j``).

    Parameters
    ----------
    law : InteractionLaw
    normalization : {"mean", "weight"}
        ``Z_i = N`` (``"mean"``), or ``Z_i = Σ_j β(x_j, x_i)`` (``"weight"``). Where that sum
        is ``0`` — no particle, itself included, in the support of ``β(·, x_i)`` when
        ``β ≥ 0`` — the particle does not move (velocity ``0``, never NaN).

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
    >>> from laws import BumpKernel, KernelSum, FiniteRankWeight, IsotropicFamily, InteractionLaw
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
        if normalization not in ("mean", "weight"):
            raise ParameterError(f"normalization must be 'mean' or 'weight', got {normalization!r}")
        self.law = law
        self.normalization = normalization
        self.space = law.space
        self.clock = "physical"

    def __call__(self, x) -> np.ndarray:
        """Velocities at ``x (B, N, *point_shape)``, checked; same shape."""
        x = self.space.check_points(x, "x")
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
