r"""Finite-rank weights and interaction laws ``u(x, y) = β(x, y) a(x, y) ∈ T_y M``.

docs/conventions.md#interaction-laws: a particle at ``x`` acts on a particle at ``y`` with the velocity ``u(x, y)``,
tangent at ``y``. The weight ``β`` has **finite rank** ``n`` when ``β(x, y) = ⟨φ(x), ψ(y)⟩``
for feature maps ``φ, ψ: M → R^n``; the law is **strong at** ``(x0, y0)`` when ``|a| = 1``
near it and ``|u|`` has a local maximum there and is not constant nearby.
"""

from __future__ import annotations

import numpy as np

from manifolds import ShapeError, as_generator, as_positive, as_positive_integer
from manifolds.validation import as_space

from .normal_coordinates import hessian, normal_chart, unit_coordinates
from .errors import FeatureError, ZeroSetError
from .report import Check, Report

__all__ = ["FiniteRankWeight", "InteractionLaw", "strength_report"]


def _features_dim(f):
    n = getattr(f, "n_features", None)
    return None if n is None else int(n)


def _kernel_radius(f):
    kernel = getattr(f, "kernel", None)
    return getattr(kernel, "radius", None)


class FiniteRankWeight:
    r"""A weight of finite rank: ``β(x, y) = ⟨φ(x), ψ(y)⟩ = Σ_{i<n} φ_i(x) ψ_i(y)``.

    Parameters
    ----------
    phi, psi : callable
        Feature maps taking points ``(..., *point_shape)`` to ``(..., n)``; a
        :class:`KernelSum` with ``(C, n)`` weights is one.
    n_features : int, optional
        ``n``, needed when ``phi`` and ``psi`` do not carry an ``n_features`` attribute.

    Raises
    ------
    TypeError
        When ``phi`` or ``psi`` is not callable.
    FeatureError
        When the feature dimension is unknown (neither map carries ``n_features`` and none
        is passed) or ambiguous (``phi``, ``psi`` and ``n_features`` disagree), or
        ``n_features`` is not a positive integer. Features of the wrong length raise it at
        evaluation.

    Attributes
    ----------
    rank : int
        The structural bound ``n`` on the rank of every sampled matrix ``β(x_i, y_j)``.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> from laws import BumpKernel, KernelSum
    >>> sphere = Sphere(2)
    >>> kernel = BumpKernel(sphere, 0.5)
    >>> c = sphere.random_point(3, rng=0)
    >>> beta = FiniteRankWeight(KernelSum(kernel, c, weights=np.eye(3)),
    ...                         KernelSum(kernel, c[::-1], weights=np.eye(3)))
    >>> beta.rank, round(float(beta(c[0], c[2])), 12)      # κ(c0, c0) κ(c2, c2)
    (3, 1.0)
    >>> samples = np.concatenate([sphere.exp(0.2 * sphere.to_tangent(
    ...     sphere.random_point(20, rng=i), p), p) for i, p in enumerate(c)])
    >>> beta.numerical_rank(samples, samples)
    3
    """

    def __init__(self, phi, psi, *, n_features: int | None = None):
        for name, f in (("phi", phi), ("psi", psi)):
            if not callable(f):
                raise TypeError(f"{name} must be callable (points → features), not {type(f).__name__}")
        dims = {_features_dim(phi), _features_dim(psi)} - {None}
        if n_features is not None:
            dims.add(as_positive_integer(n_features, "n_features", error=FeatureError))
        if len(dims) != 1:
            raise FeatureError(
                "the feature dimension is "
                + ("unknown: pass n_features=n" if not dims else f"ambiguous: {sorted(dims)} "
                   "(phi, psi and n_features must agree)")
            )
        self.phi, self.psi = phi, psi
        self.rank = dims.pop()
        radii = [r for r in (_kernel_radius(phi), _kernel_radius(psi)) if r is not None]
        #: A length on which ``β`` varies (the smaller kernel radius), when known.
        self.scale = min(radii) if radii else None

    def _features(self, f, points, name: str) -> np.ndarray:
        out = np.asarray(f(points), dtype=float)
        if out.ndim == 0 or out.shape[-1] != self.rank:
            raise FeatureError(
                f"{name} returned shape {out.shape}; features of this weight have "
                f"{self.rank} components in the last axis"
            )
        return out

    def __call__(self, x, y) -> np.ndarray:
        """``β(x, y)`` elementwise; batch shapes broadcast; shape ``(...)``."""
        return np.einsum("...i,...i->...", self._features(self.phi, x, "phi"),
                         self._features(self.psi, y, "psi"))

    def matrix(self, x, y) -> np.ndarray:
        """The weight matrix of two point lists: ``B[i, j] = β(x_i, y_j) = ⟨φ(x_i), ψ(y_j)⟩``.

        ``B = Φ Ψᵀ`` with ``Φ = φ(x)`` ``(P, n)`` and ``Ψ = ψ(y)`` ``(Q, n)``, so
        ``rank B ≤ n``.

        Parameters
        ----------
        x : array_like, shape (P, *point_shape)
            Points where ``φ`` is evaluated (the acting particles).
        y : array_like, shape (Q, *point_shape)
            Points where ``ψ`` is evaluated (the particles acted on).

        Returns
        -------
        ndarray, shape (P, Q)
            ``β(x_i, y_j)``.

        Raises
        ------
        ShapeError
            When ``x`` or ``y`` is not one flat list of points (the features are not
            two-dimensional).

        Examples
        --------
        >>> import numpy as np
        >>> first_two = lambda x: np.asarray(x)[..., :2]      # φ = ψ: the first two coordinates
        >>> beta = FiniteRankWeight(first_two, first_two, n_features=2)
        >>> beta.matrix(np.eye(3), np.eye(3)).tolist()
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
        """
        fx = self._features(self.phi, x, "phi")
        fy = self._features(self.psi, y, "psi")
        if fx.ndim != 2 or fy.ndim != 2:
            raise ShapeError("matrix() takes two lists of points (P, *point) and (Q, *point)")
        return fx @ fy.T

    def singular_values(self, x, y) -> np.ndarray:
        """Singular values of the weight matrix ``B[i, j] = β(x_i, y_j)``, descending.

        At most ``n`` (:attr:`rank`) of them are non-zero, up to rounding.

        Parameters
        ----------
        x : array_like, shape (P, *point_shape)
            Points where ``φ`` is evaluated.
        y : array_like, shape (Q, *point_shape)
            Points where ``ψ`` is evaluated.

        Returns
        -------
        ndarray, shape (min(P, Q),)
            The singular values of :meth:`matrix`, in descending order.

        Examples
        --------
        >>> import numpy as np
        >>> first_two = lambda x: np.asarray(x)[..., :2]
        >>> beta = FiniteRankWeight(first_two, first_two, n_features=2)
        >>> beta.singular_values(np.eye(3), np.eye(3)).tolist()
        [1.0, 1.0, 0.0]
        """
        return np.linalg.svd(self.matrix(x, y), compute_uv=False)

    def numerical_rank(self, x, y, tol: float | None = None) -> int:
        """The measured rank: number of singular values of ``β(x_i, y_j)`` above ``tol``.

        Default ``tol = σ_max · max(P, Q) · eps`` (as :func:`numpy.linalg.matrix_rank`).
        Never more than :attr:`rank`; equal to it on generic samples
        (docs/conventions.md#interaction-laws).

        Parameters
        ----------
        x : array_like, shape (P, *point_shape)
            Points where ``φ`` is evaluated.
        y : array_like, shape (Q, *point_shape)
            Points where ``ψ`` is evaluated.
        tol : float, optional
            Threshold on the singular values; default as above.

        Returns
        -------
        int
            The number of singular values of :meth:`matrix` above ``tol``.

        Examples
        --------
        >>> import numpy as np
        >>> first_two = lambda x: np.asarray(x)[..., :2]
        >>> beta = FiniteRankWeight(first_two, first_two, n_features=2)
        >>> x = np.eye(3)
        >>> beta.numerical_rank(x, x), beta.numerical_rank(x, x, tol=2.0)
        (2, 0)
        """
        s = self.singular_values(x, y)
        if tol is None:
            tol = (s[0] if s.size else 0.0) * max(len(np.asarray(x)), len(np.asarray(y))) * np.finfo(float).eps
        return int((s > tol).sum())


class InteractionLaw:
    r"""``u(x, y) = β(x, y) · a(x, y) ∈ T_y M``.

    Parameters
    ----------
    weight : callable
        ``β(x, y)`` with broadcasting, shape ``(...)``: a :class:`FiniteRankWeight`, or any
        callable (a constant, for a control).
    field : callable with a ``space``
        ``a(x, y)``, unit tangent vectors at ``y`` (an :class:`IsotropicField`, from
        :meth:`IsotropicFamily.at`).

    Notes
    -----
    ``a`` is only evaluated where ``β ≠ 0``: the law is ``0`` off the weight's support, so a
    field needs to be defined on that support only (a construction keeps its zero set
    away from it). A point of the support on the zero set raises :class:`ZeroSetError`.
    Conventions: docs/conventions.md#interaction-laws (``x`` acts on ``y``).

    Raises
    ------
    TypeError
        When ``weight`` or ``field`` is not callable, or ``field`` has no ``space`` that is
        a :class:`manifolds.Space`.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> from laws import BumpKernel, KernelSum, IsotropicFamily
    >>> sphere = Sphere(2)
    >>> kernel = BumpKernel(sphere, 0.3)
    >>> x0, y0 = np.eye(3)[0], np.eye(3)[2]
    >>> beta = FiniteRankWeight(KernelSum(kernel, x0[None], weights=[[1.0]]),
    ...                         KernelSum(kernel, y0[None], weights=[[1.0]]))
    >>> family = IsotropicFamily(sphere)
    >>> law = InteractionLaw(beta, family.at(family.theta_for(np.eye(3)[1], y0, radius=0.3)))
    >>> law(x0, y0).round(12).tolist()
    [0.0, 1.0, 0.0]
    """

    def __init__(self, weight, field):
        if not callable(weight) or not callable(field):
            raise TypeError("weight and field must be callables β(x, y) and a(x, y)")
        if not hasattr(field, "space"):
            raise TypeError("field must carry its space (use IsotropicFamily.at(theta))")
        as_space(field.space, "field.space")
        self.weight = weight
        self.field = field
        self.space = field.space
        #: A length on which the law varies, when the weight knows one.
        self.scale = getattr(weight, "scale", None)

    def __call__(self, x, y) -> np.ndarray:
        """``u(x, y)``, shape ``(..., *point_shape)`` (tangent at ``y``)."""
        space = self.space
        nd = len(space.ambient_shape)
        x = space.check_points(x, "x")
        y = space.check_points(y, "y")
        beta = np.asarray(self.weight(x, y), dtype=float)
        batch = np.broadcast_shapes(x.shape[: x.ndim - nd], y.shape[: y.ndim - nd], beta.shape)
        beta = np.broadcast_to(beta, batch)
        out = np.zeros(batch + space.ambient_shape)
        support = beta != 0
        if support.any():
            xs = np.broadcast_to(x, batch + space.ambient_shape)[support]
            ys = np.broadcast_to(y, batch + space.ambient_shape)[support]
            a = self.field(xs, ys)
            out[support] = beta[support].reshape((-1,) + (1,) * nd) * a
        return out

    def norm(self, x, y) -> np.ndarray:
        """The size of the law: ``|u(x, y)|_g = |β(x, y)| |a(x, y)|_g``.

        Equal to ``|β(x, y)|`` where ``a`` is a unit field; the law is strong at
        ``(x0, y0)`` when this has a local maximum there and is not constant nearby.

        Parameters
        ----------
        x : array_like, shape (..., *point_shape)
            Positions of the acting particles.
        y : array_like, shape (..., *point_shape)
            Positions of the particles acted on; batch shapes broadcast with ``x``.

        Returns
        -------
        ndarray, shape (...)
            ``|u(x, y)|_g`` in the metric ``g`` of the space.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> from laws import BumpKernel, KernelSum, IsotropicFamily
        >>> sphere = Sphere(2)
        >>> kernel = BumpKernel(sphere, 0.3)
        >>> x0, y0 = np.eye(3)[0], np.eye(3)[2]
        >>> beta = FiniteRankWeight(KernelSum(kernel, x0[None], weights=[[1.0]]),
        ...                         KernelSum(kernel, y0[None], weights=[[1.0]]))
        >>> family = IsotropicFamily(sphere)
        >>> law = InteractionLaw(beta, family.at(family.theta_for(np.eye(3)[1], y0, radius=0.3)))
        >>> y = np.stack([y0, sphere.exp(np.array([0.15, 0.0, 0.0]), y0), np.eye(3)[1]])
        >>> bool(np.allclose(law.norm(x0, y), [1.0, np.exp(-1 / 3), 0.0]))  # f(0), f(1/2), 0
        True
        """
        u = self(x, y)
        return np.sqrt(np.maximum(self.space.unchecked_inner(u, u), 0.0))


def strength_report(law: InteractionLaw, x0, y0, *, scale: float | None = None, rng=None,
                    n_directions: int = 64) -> Report:
    r"""Is ``law`` strong at ``(x0, y0)``? Sampled perturbations and a Hessian, with margins.

    In product normal coordinates ``c = (s, t) ↦ (exp_{x0}(Σ s_i E_i), exp_{y0}(Σ t_j F_j))``
    (orthonormal frames, so the metric is the identity at the center):

    * **unit field**: ``max ||a|_g − 1| ≤ 1e-12`` over all samples, and — when the field
      knows its zero set — the zero set farther from ``y0`` than the largest sampled radius;
    * **local maximum at radius ρ**, for ``ρ = scale · (0.01, 0.03, 0.1, 0.3)``:
      ``n_directions`` uniform unit directions ``c``; the least decrease
      ``|u(0)| − |u(ρ c)|`` must exceed the rounding floor ``16 eps |u(0)|``;
    * **Hessian negative definite**: the largest eigenvalue of the Hessian of ``|u|`` at the
      center (4th-order finite differences, step ``scale/100``) must be below ``−e``, ``e``
      the finite-difference error estimate — a strict local maximum;
    * **not constant nearby**: the largest ``||u(ρ c)| − |u(0)||`` over the samples must
      exceed the rounding floor.

    ``scale`` defaults to ``law.scale`` (the kernel radius of a bump-kernel weight), else a
    tenth of the injectivity radius. ``report.passed`` says whether the law is strong
    (docs/conventions.md#interaction-laws).

    Parameters
    ----------
    law : InteractionLaw
        The law ``u = β a`` to test.
    x0 : array_like, shape point_shape
        One point: the acting particle's position.
    y0 : array_like, shape point_shape
        One point: the position of the particle acted on.
    scale : float, optional
        The length on which the law varies; sets the sampled radii and the Hessian step.
    rng : int, numpy.random.Generator or None, optional
        Seed or generator for the sampled directions.
    n_directions : int, optional
        Number of unit directions per radius (default 64).

    Returns
    -------
    Report
        Rows ``"|a| = 1 near (x0, y0)"``, ``"zero set of a beyond the samples"`` (when the
        field knows its zero set), ``"local maximum at radius ρ"`` (one per radius),
        ``"Hessian negative definite"``, ``"not constant nearby"``; notes give
        ``|u(x0, y0)|``, the scale, the radii and the Hessian's eigenvalues.

    Raises
    ------
    TypeError
        When ``law`` is not an :class:`InteractionLaw`, ``n_directions`` not an integer or
        ``scale`` not a real number.
    ParameterError
        When ``n_directions`` is below 1, or ``scale`` is not finite and positive.
    ShapeError
        When ``x0`` or ``y0`` is a batch of points rather than one point.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> from laws import FiniteRankWeight, IsotropicFamily
    >>> sphere = Sphere(2)
    >>> family = IsotropicFamily(sphere)
    >>> y0 = np.eye(3)[2]
    >>> constant = FiniteRankWeight(lambda x: np.ones(np.shape(x)[:-1] + (1,)),
    ...                             lambda y: np.ones(np.shape(y)[:-1] + (1,)), n_features=1)
    >>> law = InteractionLaw(constant, family.at(family.theta_for(np.eye(3)[0], y0)))
    >>> report = strength_report(law, np.eye(3)[0], y0, rng=0)
    >>> report.passed, [c.name for c in report.failures()][:1]
    (False, ['local maximum at radius 0.00314'])
    """
    if not isinstance(law, InteractionLaw):
        raise TypeError(f"law must be an InteractionLaw, not {type(law).__name__}")
    n_directions = as_positive_integer(n_directions, "n_directions")
    space = law.space
    nd = len(space.ambient_shape)
    x0 = space.check_points(x0, "x0")
    y0 = space.check_points(y0, "y0")
    if x0.ndim != nd or y0.ndim != nd:
        raise ShapeError("strength_report() takes one point x0 and one point y0, not batches")
    gen = as_generator(rng)
    if scale is None:
        scale = law.scale if law.scale is not None else 0.1 * space.injectivity_radius
    scale = as_positive(scale, "scale")
    dim = space.dim
    chart_x, _ = normal_chart(space, x0)
    chart_y, _ = normal_chart(space, y0)

    def points(c):
        c = np.asarray(c, dtype=float)
        return chart_x(c[..., :dim]), chart_y(c[..., dim:])

    def size(c):
        return law.norm(*points(c))

    center = float(size(np.zeros(2 * dim)))
    floor = 16 * np.finfo(float).eps * max(center, np.finfo(float).tiny)
    radii = scale * np.array([0.01, 0.03, 0.1, 0.3])
    directions = unit_coordinates(2 * dim, n_directions, gen)
    coords = radii[:, None, None] * directions[None]                  # (radii, n, 2 dim)
    xs, ys = points(coords)
    sizes = law.norm(xs, ys)

    checks = []
    try:
        a = law.field(xs, ys)
        unit_err = float(np.abs(np.sqrt(space.unchecked_inner(a, a)) - 1.0).max())
        where = ""
    except ZeroSetError as exc:
        unit_err, where = np.inf, str(exc)
    checks.append(Check("|a| = 1 near (x0, y0)", unit_err, 1e-12, "<=", where))
    if hasattr(law.field, "zero_set_distance"):
        zd = float(law.field.zero_set_distance(y0))
        checks.append(Check("zero set of a beyond the samples", zd, float(radii[-1]), ">",
                            "distance from y0"))
    for rho, row in zip(radii, sizes):
        decrease = center - row
        i = int(np.argmin(decrease))
        checks.append(Check(f"local maximum at radius {rho:.3g}", decrease[i], floor, ">",
                            f"direction {i}"))
    hess, fd_error = hessian(size, 2 * dim, scale / 100)
    eig = np.linalg.eigvalsh(hess)
    checks.append(Check("Hessian negative definite", eig[-1], -fd_error, "<",
                        f"{2 * dim}×{2 * dim}, fd error {fd_error:.1e}"))
    spread = np.abs(sizes - center)
    j = np.unravel_index(np.argmax(spread), spread.shape)
    checks.append(Check("not constant nearby", spread[j], floor, ">",
                        f"radius {radii[j[0]]:.3g}, direction {j[1]}"))
    notes = {
        "|u(x0, y0)|": center, "scale": scale, "radii": radii.round(12).tolist(),
        "directions per radius": n_directions, "Hessian eigenvalues": eig.round(10).tolist(),
    }
    return Report(f"strength at (x0, y0) on {space.name}", checks, notes)
