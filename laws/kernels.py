r"""Bump kernels ``κ(x, y) = f(d(x, y) / r)`` on the spaces of :mod:`manifolds`.

The default profile is the ``C^∞`` bump of docs/conventions.md#bump-kernel,
``f(t) = exp(1 − 1/(1 − t²)) = exp(−t² / ((1 − t)(1 + t)))`` on ``[0, 1)`` and ``0`` after:
``κ(x, x) = 1``, strictly decreasing in the distance, support the closed ball of radius
``r``, Hessian ``f''(0)/r² · g = −(2/r²) · g`` at the diagonal. Two compactly supported
Wendland profiles are offered for comparison; they are only ``C²`` and ``C⁴``, outside the
theorem's smoothness hypothesis, and say so (:attr:`Profile.in_theorem`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from manifolds import ShapeError, Space, as_generator, as_positive_integer, as_real
from manifolds.validation import as_space

from .normal_coordinates import hessian, normal_chart, unit_coordinates
from .errors import LawError, RadiusError
from .report import Check, Report

__all__ = ["Profile", "PROFILES", "BumpKernel", "check_kernel"]


def _smooth(t: np.ndarray) -> np.ndarray:
    out = np.zeros_like(t)
    inside = t < 1.0
    s = t[inside]
    out[inside] = np.exp(-(s * s) / ((1.0 - s) * (1.0 + s)))
    return out


def _wendland_c2(t: np.ndarray) -> np.ndarray:
    s = np.clip(1.0 - t, 0.0, None)
    return s**4 * (4.0 * t + 1.0)


def _wendland_c4(t: np.ndarray) -> np.ndarray:
    s = np.clip(1.0 - t, 0.0, None)
    return s**6 * (35.0 * t * t + 18.0 * t + 3.0) / 3.0


@dataclass(frozen=True)
class Profile:
    """A radial profile ``f: [0, ∞) → [0, 1]`` with ``f(0) = 1``, decreasing on ``[0, 1)``,
    zero on ``[1, ∞)``.

    A kernel with this profile is ``κ(x, y) = f(d(x, y)/r)``
    (docs/conventions.md#bump-kernel). Calling the profile evaluates ``f`` elementwise on
    any array of ``t ≥ 0`` (same shape). The library's profiles are in :data:`PROFILES`.

    Parameters
    ----------
    name : str
        The profile's name (``"smooth"``, ``"wendland-c2"``, ``"wendland-c4"``, or your own).
    function : callable
        ``f`` on an array of ``t ≥ 0``, returning an array of the same shape.
    second_derivative : float
        ``f''(0)``: the kernel's Hessian at the diagonal is ``f''(0)/r² · g``.
    smoothness : float
        ``inf`` for ``C^∞``, else the order ``k`` of ``C^k``; only ``C^∞`` profiles are
        :attr:`in_theorem`.

    Examples
    --------
    >>> profile = PROFILES["wendland-c2"]          # (1 − t)⁴ (4t + 1)
    >>> profile([0.0, 0.5, 1.0, 2.0]).tolist()
    [1.0, 0.1875, 0.0, 0.0]
    >>> profile.second_derivative, profile.in_theorem
    (-20.0, False)
    >>> PROFILES["smooth"].in_theorem
    True
    """

    name: str
    function: Callable[[np.ndarray], np.ndarray]
    second_derivative: float
    smoothness: float

    @property
    def in_theorem(self) -> bool:
        """Whether the profile meets the theorem's ``C^∞`` hypothesis."""
        return self.smoothness == np.inf

    def __call__(self, t) -> np.ndarray:
        return self.function(np.asarray(t, dtype=float))


#: The profiles by name: ``"smooth"`` (``C^∞``, the default), ``"wendland-c2"``
#: (``(1−t)⁴(4t+1)``) and ``"wendland-c4"`` (``(1−t)⁶(35t²+18t+3)/3``).
PROFILES = {
    "smooth": Profile("smooth", _smooth, -2.0, np.inf),
    "wendland-c2": Profile("wendland-c2", _wendland_c2, -20.0, 2),
    "wendland-c4": Profile("wendland-c4", _wendland_c4, -56.0 / 3.0, 4),
}


def _as_profile(profile) -> Profile:
    if isinstance(profile, Profile):
        return profile
    if not isinstance(profile, str):
        raise TypeError(f"profile must be a name or a Profile, not {type(profile).__name__}")
    try:
        return PROFILES[profile]
    except KeyError:
        raise LawError(f"unknown profile {profile!r}; choose one of {sorted(PROFILES)}") from None


@dataclass(frozen=True)
class BumpKernel:
    r"""The bump kernel ``κ(x, y) = f(d(x, y) / r)`` on ``space``.

    Parameters
    ----------
    space : Sphere, ProjectiveSpace or Grassmannian
    radius : float
        Support radius ``r``, with ``0 < r < space.injectivity_radius`` (else
        :class:`RadiusError`): inside the injectivity radius ``κ(x, ·)`` is a smooth function
        of the normal coordinates at ``x``.
    profile : {"smooth", "wendland-c2", "wendland-c4"} or Profile
        ``"smooth"`` (default) is the ``C^∞`` bump the theorem uses.

    Raises
    ------
    RadiusError
        When ``radius`` is not a finite number in ``(0, space.injectivity_radius)``.
    LawError
        When ``profile`` names no profile of :data:`PROFILES`.
    TypeError
        When ``space`` is not a :class:`manifolds.Space`, ``profile`` is neither a name nor
        a :class:`Profile`, or ``radius`` is not a real number.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> kernel = BumpKernel(Sphere(2), 0.5)
    >>> x = np.array([0.0, 0.0, 1.0])
    >>> y = np.array([[0.0, 0.0, 1.0], [np.sin(0.25), 0.0, np.cos(0.25)], [1.0, 0.0, 0.0]])
    >>> np.round(kernel(x, y), 6)      # distances 0, r/2, π/2: f(0), f(1/2) = e^{-1/3}, 0
    array([1.      , 0.716531, 0.      ])
    >>> kernel.matrix(y, y).shape
    (3, 3)
    """

    space: Space
    radius: float
    profile: Profile | str = "smooth"

    def __post_init__(self):
        as_space(self.space)
        r = self.radius
        as_real(r, "radius", finite=False)
        limit = self.space.injectivity_radius
        if not (np.isfinite(r) and 0 < r < limit):
            raise RadiusError(
                f"radius {r} is not in (0, {limit:.6g}), the injectivity radius of "
                f"{self.space.name}; choose a smaller positive radius"
            )
        object.__setattr__(self, "radius", float(r))
        object.__setattr__(self, "profile", _as_profile(self.profile))

    def of_distance(self, d) -> np.ndarray:
        """The kernel as a function of the distance: ``f(d / r)`` for distances ``d ≥ 0``.

        ``κ(x, y) = of_distance(d(x, y))``; no point is involved, so any shape goes.

        Parameters
        ----------
        d : array_like, any shape
            Distances ``d ≥ 0``.

        Returns
        -------
        ndarray, shape of ``d``
            ``f(d / r)``: ``1`` at ``0``, ``0`` from ``r`` on.

        Examples
        --------
        >>> from manifolds import Sphere
        >>> kernel = BumpKernel(Sphere(2), 0.5)
        >>> kernel.of_distance([0.0, 0.5, 1.0]).tolist()
        [1.0, 0.0, 0.0]
        >>> bool(np.isclose(kernel.of_distance(0.25), np.exp(-1 / 3)))   # f(1/2)
        True
        """
        return self.profile(np.asarray(d, dtype=float) / self.radius)

    def __call__(self, x, y) -> np.ndarray:
        """``κ(x, y)`` elementwise, batch shapes broadcast; shape ``(...)``."""
        return self.of_distance(self.space.dist(x, y))

    def matrix(self, x, y) -> np.ndarray:
        """The kernel matrix of two point lists: ``K[i, j] = κ(x_i, y_j)``.

        Parameters
        ----------
        x : array_like, shape (N, *point_shape)
            Points of ``space`` (``(N, d+1)`` on spheres, ``(N, n, n)`` on projector spaces).
        y : array_like, shape (M, *point_shape)
            Points of ``space``.

        Returns
        -------
        ndarray, shape (N, M)
            ``κ(x_i, y_j)`` for every pair.

        Raises
        ------
        ShapeError
            When ``x`` or ``y`` is not one flat list of points (a single point, or extra batch
            axes): stack single points with ``x[None]``. Points off the space raise the
            errors of :mod:`manifolds`.

        Examples
        --------
        >>> from manifolds import Sphere
        >>> kernel = BumpKernel(Sphere(2), 0.5)
        >>> x = np.eye(3)
        >>> kernel.matrix(x, x).tolist()                # the points are π/2 > r apart
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
        """
        nd = len(self.space.ambient_shape)
        x = self.space.check_points(x, "x")
        y = self.space.check_points(y, "y")
        if x.ndim != nd + 1 or y.ndim != nd + 1:
            raise _shape_error(self.space, x, y)
        return self.of_distance(self.space.unchecked_dist(x[:, None], y[None, :]))


def _shape_error(space, x, y):
    shape = space.ambient_shape
    return ShapeError(
        f"matrix() takes two lists of points of shape (N, {', '.join(map(str, shape))}); got "
        f"{x.shape} and {y.shape} — stack single points with x[None]"
    )


def check_kernel(kernel: BumpKernel, rng=None, *, n_points: int = 16) -> Report:
    r"""Check the paper's three kernel properties and the Hessian at the diagonal, with margins.

    At ``n_points`` random points ``x`` and a random unit direction ``v`` at each:

    * **diagonal**: ``κ(x, x) = 1`` (error ``≤ 1e-15``) and ``κ < 1`` at every sampled
      point at distance ``s ∈ (0, r)`` along ``exp_x(s v)``;
    * **decreasing**: ``κ(x, exp_x(s v))`` strictly decreasing on ``s = t r``,
      ``t ∈ {0, 0.01, …, 0.99}`` — the smallest relative step decrease is the margin
      (values stay above ``1e-21`` on that grid, so the decrease is resolved);
    * **support**: ``κ = 0`` exactly at ``s ∈ [r, injectivity radius)`` along the same
      geodesics and at uniform random points farther than ``r``;
    * **Hessian**: the Hessian of ``c ↦ κ(x, exp_x(Σ c_i E_i))`` at ``0`` (4th-order finite
      differences in normal coordinates) against ``f''(0)/r² · I``, relative error within
      ``1e-6`` for the ``C^∞`` profile (step ``r/100``); within ``1e-4`` for the Wendland
      profiles, whose radial terms ``|c|³`` (``C²``) or ``|c|⁵`` (``C⁴``) slow the finite
      differences to ``O(h)`` or ``O(h³)`` (steps ``r·1e-5`` and ``r·1e-3``);
    * **zero outside**: checked from ``s = r (1 + 1e-9)`` on, so that rounding of the
      geodesic's length cannot put a point back inside.

    Parameters
    ----------
    kernel : BumpKernel
        The kernel to check (any profile; the Hessian bound depends on it).
    rng : int, numpy.random.Generator or None, optional
        Seed or generator for the sample points and directions.
    n_points : int, optional
        Number of random points ``x`` (default 16); ``4 n_points`` uniform points are drawn
        for the support check.

    Returns
    -------
    Report
        Rows ``"κ(x, x) = 1"``, ``"κ < 1 off the diagonal"``, ``"strictly decreasing"``,
        ``"zero outside the ball"``, ``"Hessian = f''(0)/r² g"``; notes give the profile, its
        smoothness and whether it meets the theorem's hypothesis.

    Raises
    ------
    TypeError
        When ``kernel`` is not a :class:`BumpKernel`, or ``n_points`` not an integer.
    ParameterError
        When ``n_points`` is below 1.

    Examples
    --------
    >>> from manifolds import Grassmannian
    >>> check_kernel(BumpKernel(Grassmannian(4, 2), 0.4), rng=0).passed
    True
    """
    if not isinstance(kernel, BumpKernel):
        raise TypeError(f"kernel must be a BumpKernel, not {type(kernel).__name__}")
    n_points = as_positive_integer(n_points, "n_points")
    space, r = kernel.space, kernel.radius
    gen = as_generator(rng)
    x = space.random_point(n_points, rng=gen)
    dim = space.dim
    basis = space.tangent_basis(x)                                  # (n, dim, *pt)
    coords = unit_coordinates(dim, n_points, gen)
    v = np.einsum("nd,nd...->n...", coords, basis)
    nd = len(space.ambient_shape)
    expand = (slice(None), None)

    def along(s):  # points exp_x(s v), shape (n, len(s), *pt)
        sv = s[None, :, *([None] * nd)] * v[expand]
        return space.unchecked_exp(sv, x[expand])

    t = np.linspace(0.0, 0.99, 100)
    values = kernel.of_distance(space.unchecked_dist(x[expand], along(t * r)))
    diag = np.abs(kernel.of_distance(space.unchecked_dist(x, x)) - 1.0).max()
    worst_inside = values[:, 1:].max()
    steps = (values[:, :-1] - values[:, 1:]) / values[:, :-1]
    i, j = np.unravel_index(np.argmin(steps), steps.shape)

    limit = space.injectivity_radius
    s_out = r * (1 + 1e-9) + (limit - r) * np.linspace(0.0, 0.999, 50)
    outside = kernel.of_distance(space.unchecked_dist(x[expand], along(s_out)))
    y = space.random_point(4 * n_points, rng=gen)
    d = space.unchecked_dist(x[:, None], y[None, :])
    uniform_out = kernel.of_distance(d)[d >= r]

    chart, _ = normal_chart(space, x[0])
    smoothness = kernel.profile.smoothness
    step = r * (1e-2 if smoothness > 4 else 1e-3 if smoothness > 2 else 1e-5)
    hess, fd_error = hessian(lambda c: kernel.of_distance(space.unchecked_dist(x[0], chart(c))), dim, step)
    expected = kernel.profile.second_derivative / r**2
    rel = np.abs(hess - expected * np.eye(dim)).max() / abs(expected)
    tol = 1e-6 if kernel.profile.in_theorem else 1e-4

    checks = [
        Check("κ(x, x) = 1", diag, 1e-15, "<="),
        Check("κ < 1 off the diagonal", worst_inside, 1.0, "<"),
        Check("strictly decreasing", steps[i, j], 0.0, ">",
              f"point {i}, t = {t[j]:.2f} → {t[j + 1]:.2f}"),
        Check("zero outside the ball", max(np.abs(outside).max(), np.abs(uniform_out).max(initial=0.0)),
              0.0, "<="),
        Check("Hessian = f''(0)/r² g", rel, tol, "<=", f"point 0, {dim}×{dim}, fd error ~{fd_error / abs(expected):.1e}"),
    ]
    notes = {
        "space": space.name, "radius": r, "profile": kernel.profile.name,
        "smoothness": "C^∞" if kernel.profile.in_theorem else f"C^{kernel.profile.smoothness}",
        "in_theorem": kernel.profile.in_theorem,
        "expected Hessian": f"{expected:.6g} g",
        "samples": f"{n_points} points, {len(uniform_out)} uniform points outside",
    }
    return Report(f"kernel {kernel.profile.name}, r = {r:g} on {space.name}", checks, notes)
