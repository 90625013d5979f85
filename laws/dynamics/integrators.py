r"""Integrators of particle dynamics on a manifold: explicit Runge–Kutta with projection.

docs/conventions.md#dynamics-clock: particles ``x_1..x_N ∈ M`` move by a velocity field ``ẋ = V(x)`` (tangent
vectors at every particle). :func:`integrate` runs explicit Euler, Heun or the classical
RK4 on the ambient ODE ``ẋ = V(π(x))`` (``π`` the nearest-point projection onto ``M``, the
space's :meth:`projection`): every stage point is projected before ``V`` is evaluated and
every step ends with a projection. Since ``V`` is tangent, the exact flow of the ambient ODE
stays on ``M``; the projection moves an ``O(dt^{p+1})``-accurate step by ``O(dt^{p+1})``, so
the method keeps its order ``p`` (1, 2, 4) and the points stay on ``M`` to rounding.

Velocities: :class:`~laws.LawDynamics` (interaction laws, :mod:`.law_dynamics`),
:class:`~laws.SelfAttention` (:mod:`.self_attention`) or any callable.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from scipy.linalg.blas import daxpy as _daxpy

from manifolds import (
    NonFiniteError,
    ParameterError,
    ShapeError,
    Space,
    as_choice,
    as_positive,
    as_positive_integer,
)
from manifolds.validation import as_real_array, as_space

__all__ = ["Trajectory", "integrate", "METHODS"]

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

    What :func:`integrate` returns: ``points[k]`` is the state at ``times[k]``, in the clock
    of the velocity (docs/conventions.md#dynamics-clock); :attr:`final` is the last state.

    Parameters
    ----------
    times : ndarray, shape ``(T,)``
        Recorded times, increasing from ``0``, in the velocity's clock
        (``diagnostics["clock"]``).
    points : ndarray, shape ``(T, B, N, *point_shape)``
        The recorded states: ``B`` systems of ``N`` particles at each time.
    space : Space
        The manifold the particles move on.
    diagnostics : dict, optional
        ``method``, ``dt`` (the step used), ``steps``, ``clock``, ``max_deviation`` (largest
        distance of a recorded point from ``M`` in the space's membership measure),
        ``seconds`` (wall clock). Default empty.

    Raises
    ------
    TypeError
        When ``space`` is not a :class:`manifolds.Space`.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> x = np.eye(3)[None, None, :2]                       # one time, one system, e0 and e1
    >>> traj = Trajectory(np.array([0.0]), x, Sphere(2), {"clock": "physical"})
    >>> traj.final.shape, traj.diagnostics["clock"]
    ((1, 2, 3), 'physical')
    """

    times: np.ndarray
    points: np.ndarray
    space: Space
    diagnostics: dict = field(default_factory=dict)

    def __post_init__(self):
        as_space(self.space)

    @property
    def final(self) -> np.ndarray:
        """The last recorded state, shape ``(B, N, *point_shape)``."""
        return self.points[-1]


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


def _checked(k, y: np.ndarray, t: float, n: int, steps: int, stage: int, stages: int,
             work: tuple) -> np.ndarray:
    """A velocity's return value ``k`` at the stage point ``y``, checked: a real array of the
    shape of ``y``, finite. Copied when it shares memory with the integrator's work arrays
    (a velocity that returns a view of its input). The messages give the time, step and stage.
    """
    name = f"velocity(x) at t = {t:.6g} (step {n} of {steps}, stage {stage + 1} of {stages})"
    arr = as_real_array(k, name, finite=False)
    if arr.shape != y.shape:
        raise ShapeError(
            f"{name} has shape {arr.shape}; expected {y.shape}, the shape of x: a velocity "
            "returns one tangent vector per particle (no broadcasting)"
        )
    if not np.isfinite(arr).all():
        index = list(map(int, np.argwhere(~np.isfinite(arr))[0]))
        raise NonFiniteError(
            f"{name} is {arr[tuple(index)]} at index {index}; a velocity must return finite "
            "tangent vectors (for LawDynamics: check the law's weight and field)"
        )
    if any(np.may_share_memory(arr, w) for w in work):
        arr = arr.copy()
    return arr


def integrate(velocity, x0, *, t_final: float, dt: float, method: str = "rk4",
              record_every: int = 1, space=None, progress=None) -> Trajectory:
    r"""Integrate ``ẋ = velocity(x)`` on a manifold from ``x0`` to ``t_final``.

    The step used is ``h = t_final / ceil(t_final / dt) ≤ dt``: ``dt`` rounded down so that
    a whole number of equal steps ends at ``t_final`` (``diagnostics["dt"]`` reports ``h``).
    A ``dt`` longer than ``t_final`` is refused rather than shortened to ``t_final``.
    ``x0`` holds at least one system of at least one particle (``B, N ≥ 1``): empty input is
    refused, as everywhere in :mod:`laws.dynamics`.

    The velocity is checked at every stage: it must return a real array of exactly the
    shape of its input (for the library's own velocities, :class:`SelfAttention` and
    :class:`LawDynamics`, type and shape hold by construction), finite; the state is checked
    to stay finite after every step. Errors name the time, the step and the stage.

    Parameters
    ----------
    velocity : callable
        ``velocity(x)`` for ``x`` of shape ``(B, N, *point_shape)`` returns tangent vectors
        of the same shape (:class:`SelfAttention` and :class:`LawDynamics` are velocities).
    x0 : array, shape ``(B, N, *point_shape)``
        ``B ≥ 1`` independent systems of ``N ≥ 1`` particles, checked to lie on the space.
    t_final, dt : float
        Horizon and step, ``0 < dt ≤ t_final``; the step used is
        ``t_final / ceil(t_final / dt)`` (uniform, at most ``dt``).
    method : {"euler", "heun", "rk4"}
    record_every : int
        Record every this many steps (and always the first and last state).
    space : Space, optional
        Default ``velocity.space_for(x0)`` when the velocity has it (:class:`SelfAttention`,
        whose sphere follows the tokens), else ``velocity.space``.
    progress : callable, optional
        Called as ``progress(step, steps)`` after every recorded step.

    Returns
    -------
    Trajectory
        The recorded times (``0``, every ``record_every`` steps, and ``t_final``) and states
        ``(T, B, N, *point_shape)``, with the diagnostics (method, step, clock, largest
        deviation from the space, wall-clock seconds).

    Raises
    ------
    TypeError
        When ``velocity`` or ``progress`` is not callable, ``space`` is not a
        :class:`manifolds.Space`, no ``space`` is given and the velocity has neither
        ``space_for`` nor ``space``, or the velocity returns ``None`` or a non-real array
        (the message gives the time, step and stage).
    ShapeError
        When ``x0`` is not ``(B, N, *point_shape)`` (pass ``x0[None]`` for one system) or
        is empty (``B = 0`` or ``N = 0``), or the velocity returns another shape than its
        input's (expected and got are named, with the time, step and stage).
    NonFiniteError
        When the velocity returns NaN or infinity (a law's weight or field, for
        :class:`LawDynamics`), or the state stops being finite (the message gives the time,
        step and stage).
    ParameterError
        When ``dt > t_final``. Other bad arguments raise it too (``method`` unknown,
        ``t_final``, ``dt`` not finite and positive, ``record_every`` not a positive
        integer), and points off the space the errors of :mod:`manifolds`.

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
    if not callable(velocity):
        raise TypeError(
            f"velocity must be callable (x ↦ tangent vectors), not {type(velocity).__name__}")
    if progress is not None and not callable(progress):
        raise TypeError(
            f"progress must be callable as progress(step, steps), not {type(progress).__name__}")
    as_choice(method, "method", sorted(METHODS))
    if space is None:
        space = velocity.space_for(x0) if hasattr(velocity, "space_for") else getattr(velocity, "space", None)
        if space is None:
            raise TypeError("give space=... for a velocity without a .space attribute")
    as_space(space)
    t_final = as_positive(t_final, "t_final")
    dt = as_positive(dt, "dt")
    if dt > t_final * (1.0 + 1e-12):
        raise ParameterError(
            f"dt = {dt:g} is longer than the horizon t_final = {t_final:g}; give dt ≤ t_final "
            "(the step used is t_final / ceil(t_final / dt), never longer than dt)"
        )
    record_every = as_positive_integer(record_every, "record_every")
    nd = len(space.ambient_shape)
    x = space.check_points(x0, "x0")
    if x.ndim != nd + 2:
        raise ShapeError(
            f"x0 has shape {x.shape}; give (B, N, {', '.join(map(str, space.ambient_shape))}) "
            "— B systems of N particles (x0[None] for one system)"
        )
    if x.shape[0] == 0 or x.shape[1] == 0:
        what = "no system (B = 0)" if x.shape[0] == 0 else "no particle (N = 0)"
        raise ShapeError(
            f"x0 has shape {x.shape}: {what}; give at least one system of at least one particle"
        )
    steps = max(1, int(np.ceil(t_final / dt - 1e-12)))
    h = t_final / steps
    a, b = METHODS[method]

    def project(y):  # the integrator's own work arrays: unchecked, in place
        return space.unchecked_projection(y, out=y)

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
                if not np.isfinite(ks[i]).all():
                    _checked(ks[i], y, ((n - 1) + a[i].sum()) * h, n, steps, i, len(b), ())
            else:
                ks[i] = _checked(velocity(y), y, ((n - 1) + a[i].sum()) * h, n, steps, i, len(b),
                                 (x, stage, nxt))
        x, nxt = project(_combine(nxt, x, h * b, ks)), x
        if not np.isfinite(x).all():
            raise NonFiniteError(
                f"the state became NaN or infinite in step {n} of {steps} (t = {(n - 1) * h:.6g} "
                f"→ {n * h:.6g}) although the velocity was finite: it is too large for float64 "
                "(shorten dt, or check the velocity's scale)"
            )
        if n % record_every == 0 or n == steps:
            times.append(n * h)
            states.append(x.copy())
            if progress is not None:
                progress(n, steps)
    points = np.stack(states)
    deviation = float(np.max(space.deviation(points))) if points.size else 0.0
    diagnostics = {
        "method": method, "dt": h, "steps": steps,
        "clock": getattr(velocity, "clock", "physical"),
        "max_deviation": deviation, "seconds": time.perf_counter() - start,
    }
    return Trajectory(np.array(times), points, space, diagnostics)
