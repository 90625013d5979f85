r"""The isotropic vector-field family of Lemma 2.2: ``v(θ)_y = P_{T_y M} θ``.

Every space of :mod:`manifolds` sits in a Euclidean space ``R^D``: the sphere ``S^d`` in
``R^{d+1}``, projector spaces in the symmetric ``n×n`` matrices (``D = n(n+1)/2``). The
orthogonal projection onto the tangent space turns a fixed ``θ ∈ R^D`` into a vector field
``v(θ)``; the family ``{v(θ)}`` is equivariant under the isometries of ``R^D`` that preserve
``M`` (``g ∈ O(d+1)`` acting by ``x ↦ g x``, or ``P ↦ g P gᵀ``), realizes every tangent
vector (``v(v0)_{y0} = v0``), and its unit fields ``a_θ = v(θ)/|v(θ)|_g`` are defined off
the **zero set** ``Z(θ) = {y : v(θ)_y = 0}``:

* sphere: ``Z(θ) = {±θ/|θ|}``;
* projector spaces: the subspaces invariant under ``θ`` (``Pθ = θP``) — for ``θ`` with
  distinct eigenvalues, the ``C(n, k)`` spans of ``k`` eigenvectors; on ``RP^d``, the lines
  in an eigenspace.

The zero set is never empty, so a construction must choose ``θ`` to keep it away from the
support it uses: :meth:`IsotropicFamily.theta_for` adds to ``v0`` a normal vector at ``y0``
(which leaves ``v(θ)_{y0}`` unchanged) chosen to push ``Z(θ)`` away from given points.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from scipy.optimize import minimize, minimize_scalar

from manifolds import (
    NonFiniteError,
    ShapeError,
    Space,
    as_generator,
    as_nonnegative,
    as_positive_integer,
)
from manifolds.validation import as_space

from .errors import ZeroSetError
from .report import Check, Report

__all__ = ["IsotropicFamily", "IsotropicField", "check_isotropy", "ZERO_TOL"]

#: ``a_θ`` is refused where ``|v(θ)_y|_g ≤ ZERO_TOL · |θ|``: within about this distance of
#: the zero set the direction is not determined by float64 inputs.
ZERO_TOL = 1e-12

#: Relative gap below which two eigenvalues of ``θ`` count as one eigenspace.
_EIGEN_GAP = 1e-9

#: :meth:`IsotropicFamily.theta_for` keeps distinct eigenvalues at least this far apart
#: (relative to the largest): the field then stays well conditioned off its zero set.
_SEARCH_GAP = 1e-3


@dataclass(frozen=True)
class IsotropicFamily:
    r"""The family ``v(θ)_y = P_{T_y M} θ`` on ``space`` (Lemma 2.2), and its unit fields.

    Parameters ``θ`` are ambient vectors (sphere, shape ``(d+1,)``) or symmetric matrices
    (projector spaces, shape ``(n, n)``); :attr:`n_parameters` counts them (``dim`` is kept
    as a deprecated alias). Lengths use the space's metric ``g`` (``½ tr(UᵀV)`` on
    projectors), also for ``θ``. The formulas of the zero set depend on the space's point
    model (:attr:`manifolds.Space.model`: ``"sphere"`` or ``"projector"``). Conventions:
    docs/conventions.md#isotropic-family.

    Every method validates ``θ``: a ``TypeError`` for non-numeric input, ``ShapeError`` for
    a trailing shape other than the ambient one (or a non-symmetric matrix on projector
    spaces), ``NonFiniteError`` for NaN or infinity, ``ZeroSetError`` for ``θ = 0``.

    Parameters
    ----------
    space : Sphere, ProjectiveSpace or Grassmannian
        A space whose :attr:`~manifolds.Space.model` is ``"sphere"`` or ``"projector"``.

    Raises
    ------
    TypeError
        When ``space`` is not a :class:`manifolds.Space`, or has another model.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> family = IsotropicFamily(Sphere(2))
    >>> y0, v0 = np.array([0.0, 0, 1]), np.array([0.0, 2, 0])
    >>> theta = family.theta_for(v0, y0, radius=0.5)
    >>> family.unit_field(theta, y0).round(12).tolist()      # a_θ(y0) = v0 / |v0|
    [0.0, 1.0, 0.0]
    >>> bool(family.zero_set_distance(theta, y0) > 0.5)
    True
    """

    space: Space

    def __post_init__(self):
        as_space(self.space)
        if self.space.model not in ("sphere", "projector"):
            raise TypeError(
                f"IsotropicFamily needs a space of model 'sphere' or 'projector' (a Sphere, "
                f"ProjectiveSpace or Grassmannian), not {type(self.space).__name__}"
            )

    @property
    def n_parameters(self) -> int:
        """Number of parameters ``D``: ``d + 1`` on ``S^d``, ``n (n + 1) / 2`` on projector spaces.

        The dimension of the Euclidean space the manifold sits in
        (:attr:`manifolds.Space.embedding_dim`).

        Examples
        --------
        >>> from manifolds import ProjectiveSpace
        >>> IsotropicFamily(ProjectiveSpace(2)).n_parameters
        6
        """
        return self.space.embedding_dim

    @property
    def dim(self) -> int:
        """Deprecated alias of :attr:`n_parameters` (``dim`` names a manifold's dimension only)."""
        warnings.warn("IsotropicFamily.dim is deprecated; use IsotropicFamily.n_parameters",
                      DeprecationWarning, stacklevel=2)
        return self.n_parameters

    @property
    def _sphere(self) -> bool:
        return self.space.model == "sphere"

    def _theta(self, theta) -> np.ndarray:
        """Validated parameters: numeric, finite, the ambient shape, symmetric, non-zero."""
        space = self.space
        shape = space.ambient_shape
        arr = np.asarray(theta)
        if arr.dtype == object or not np.issubdtype(arr.dtype, np.number):
            raise TypeError(f"theta must be an array of real numbers, got dtype {arr.dtype}")
        arr = arr.astype(float)
        if arr.shape[arr.ndim - len(shape):] != shape:
            raise ShapeError(
                f"theta has shape {arr.shape}; parameters on {space.name} have shape {shape}"
            )
        if not np.isfinite(arr).all():
            raise NonFiniteError("theta holds NaN or infinity; every entry must be finite")
        # θ must lie in the span of the Euclidean picture (symmetric matrices on projectors)
        off = 2.0 * np.abs(arr - space.ambient_projection(arr)).max(initial=0.0)
        if off > 1e-12 * max(1.0, np.abs(arr).max(initial=0.0)):
            raise ShapeError(
                f"theta is off the parameter space of {space.name} by {off:.3g} (on projector "
                "spaces: it must be a symmetric matrix); pass space.ambient_projection(theta)"
            )
        if not (self._norm(arr) > 0).all():
            raise ZeroSetError("theta = 0 gives the zero field; pass a non-zero parameter")
        return arr

    def _norm(self, a: np.ndarray) -> np.ndarray:
        return np.sqrt(self.space.unchecked_inner(a, a))

    def field(self, theta, y) -> np.ndarray:
        """The field of the family at ``y``: ``v(θ)_y = P_{T_y M} θ``.

        The orthogonal projection of the ambient ``θ`` onto the tangent space at ``y``
        (``θ − ⟨θ, y⟩ y`` on spheres, ``θP + Pθ − 2PθP`` on projector spaces). Batch shapes
        of ``θ`` and ``y`` broadcast.

        Parameters
        ----------
        theta : array_like, shape (..., *point_shape)
            Non-zero parameters: ambient vectors ``(..., d+1)`` on spheres, symmetric
            matrices ``(..., n, n)`` on projector spaces.
        y : array_like, shape (..., *point_shape)
            Points of the space.

        Returns
        -------
        ndarray, shape (..., *point_shape)
            ``v(θ)_y``, tangent at ``y``; zero on the zero set ``Z(θ)``.

        Examples
        --------
        >>> from manifolds import Sphere
        >>> family = IsotropicFamily(Sphere(2))
        >>> y = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
        >>> family.field([1.0, 0.0, 0.0], y).tolist()     # y[1] = θ̂ is on the zero set
        [[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
        """
        return self.space.to_tangent(self._theta(theta), y)

    def unit_field(self, theta, y) -> np.ndarray:
        """The unit field of the family: ``a_θ(y) = v(θ)_y / |v(θ)_y|_g``.

        Defined off the zero set ``Z(θ)``; refused within about ``ZERO_TOL`` of it, where
        float64 inputs do not determine the direction. Batch shapes of ``θ`` and ``y``
        broadcast.

        Parameters
        ----------
        theta : array_like, shape (..., *point_shape)
            Non-zero parameters (ambient vectors, or symmetric matrices on projector spaces).
        y : array_like, shape (..., *point_shape)
            Points of the space, off the zero set of ``v(θ)``.

        Returns
        -------
        ndarray, shape (..., *point_shape)
            ``a_θ(y)``, tangent at ``y`` with ``|a_θ(y)|_g = 1``.

        Raises
        ------
        ZeroSetError
            Where ``|v(θ)_y|_g ≤ ZERO_TOL · |θ|_g`` (``y`` on or next to the zero set); the
            message names the first such point. Choose ``θ`` with :meth:`theta_for`.

        Examples
        --------
        >>> from manifolds import Sphere
        >>> family = IsotropicFamily(Sphere(2))
        >>> family.unit_field([2.0, 0.0, 1.0], np.array([0.0, 0.0, 1.0])).tolist()
        [1.0, 0.0, 0.0]
        >>> family.unit_field([0.0, 0.0, 1.0], np.array([0.0, 0.0, 1.0]))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        laws.errors.ZeroSetError: y is on the zero set of v(θ) (|v(θ)_y| = 0), where a_θ is ...
        """
        theta = self._theta(theta)
        v = self.space.to_tangent(theta, y)
        norm = self._norm(v)
        ok = norm > ZERO_TOL * self._norm(theta)
        if not ok.all():
            where = list(map(int, np.argwhere(~ok)[0])) if ok.ndim else ""
            raise ZeroSetError(
                f"y{where} is on the zero set of v(θ) (|v(θ)_y| = {float(norm[~ok].flat[0]):.3g}), "
                "where a_θ is undefined; choose θ with IsotropicFamily.theta_for(..., avoid=...)"
            )
        return v / norm.reshape(norm.shape + (1,) * len(self.space.ambient_shape))

    def at(self, theta) -> "IsotropicField":
        """The unit field ``a_θ`` of one ``θ`` as a field object ``a(x, y) = a_θ(y)``.

        The object an :class:`InteractionLaw` takes as its unit field
        (docs/conventions.md#interaction-laws); it ignores ``x``.

        Parameters
        ----------
        theta : array_like, shape point_shape
            A non-zero parameter (validated here, once).

        Returns
        -------
        IsotropicField
            ``a(x, y) = a_θ(y)``, with the family and ``θ`` as float array.

        Examples
        --------
        >>> from manifolds import Sphere
        >>> field = IsotropicFamily(Sphere(2)).at([1.0, 0.0, 0.0])
        >>> field(np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])).tolist()
        [1.0, 0.0, 0.0]
        """
        return IsotropicField(self, self._theta(theta))

    # -- the zero set ----------------------------------------------------------------------
    def zero_set(self, theta) -> np.ndarray:
        r"""The zero set ``Z(θ) = {y : v(θ)_y = 0}`` of one parameter, when it is finite.

        Sphere: ``±θ̂``. Projector spaces with distinct eigenvalues (relative gap above
        ``1e-9``): the ``C(n, k)`` projectors onto spans of ``k`` eigenvectors. When
        eigenvalues repeat the zero set is a continuum, and it is refused.

        Parameters
        ----------
        theta : array_like, shape point_shape
            One non-zero parameter (no batch).

        Returns
        -------
        ndarray, shape (|Z|, *point_shape)
            The points of ``Z(θ)``: ``|Z| = 2`` on spheres, ``C(n, k)`` on ``Gr(k, n)``.

        Raises
        ------
        ShapeError
            When ``theta`` is a batch of parameters.
        ZeroSetError
            On projector spaces, when ``θ`` has a repeated eigenvalue (a continuum of zeros).

        Examples
        --------
        >>> from manifolds import Sphere, Grassmannian
        >>> IsotropicFamily(Sphere(2)).zero_set([0.0, 0.0, 2.0]).tolist()
        [[0.0, 0.0, 1.0], [-0.0, -0.0, -1.0]]
        >>> IsotropicFamily(Grassmannian(4, 2)).zero_set(np.diag([1.0, 2.0, 3.0, 4.0])).shape
        (6, 4, 4)
        """
        theta = self._theta(theta)
        if theta.ndim != len(self.space.ambient_shape):
            raise ShapeError("zero_set() takes one parameter θ, not a batch")
        if self._sphere:
            unit = theta / np.linalg.norm(theta)
            return np.stack([unit, -unit])
        _, vecs = self._simple_spectrum(theta)
        subsets = np.array(list(combinations(range(self.space.n), self.space.k)))
        u = vecs[:, subsets].transpose(1, 0, 2)                        # (C, n, k)
        return u @ np.swapaxes(u, -1, -2)

    def _simple_spectrum(self, theta: np.ndarray):
        vals, vecs = np.linalg.eigh(theta)
        gap = np.diff(vals).min() if len(vals) > 1 else np.inf
        if not gap > _EIGEN_GAP * max(np.abs(vals).max(), 1e-300):
            raise ZeroSetError(
                f"θ has a repeated eigenvalue (gap {gap:.3g}), so its zero set on "
                f"{self.space.name} is a continuum; perturb θ or build it with theta_for()"
            )
        return vals, vecs

    def zero_set_distance(self, theta, points) -> np.ndarray:
        r"""Distance from each point to the zero set ``Z(θ)``, shape ``(...)`` of ``points``.

        Sphere: ``min(d(y, θ̂), d(y, −θ̂))``. ``RP^d``: the angle to the nearest eigenspace
        of ``θ`` (eigenvalues within a relative ``1e-9`` grouped), ``atan2(|x − P_E x|, |P_E x|)``.
        ``Gr(k, n)``, ``k ≥ 2``: the least distance to the ``C(n, k)`` eigen-subspaces; ``θ``
        must have distinct eigenvalues there (else :class:`ZeroSetError`). Distances use the
        precise geodesic distance of the space.

        Parameters
        ----------
        theta : array_like, shape point_shape
            One non-zero parameter (no batch).
        points : array_like, shape (..., *point_shape)
            Points of the space.

        Returns
        -------
        ndarray, shape (...)
            ``d(y, Z(θ))`` for each point ``y``.

        Raises
        ------
        ShapeError
            When ``theta`` is a batch of parameters.
        ZeroSetError
            On ``Gr(k, n)`` with ``k ≥ 2``, when ``θ`` has a repeated eigenvalue.

        Examples
        --------
        >>> from manifolds import Sphere, ProjectiveSpace
        >>> family = IsotropicFamily(Sphere(2))
        >>> y = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
        >>> bool(np.allclose(family.zero_set_distance([0.0, 0.0, 1.0], y), [0.0, np.pi / 2]))
        True
        >>> rp2 = ProjectiveSpace(2)                      # the line of (1, 1, 0): π/4 from e_0
        >>> line = rp2.from_vectors(np.array([1.0, 1.0, 0.0]) / np.sqrt(2))
        >>> round(float(IsotropicFamily(rp2).zero_set_distance(np.diag([1.0, 2.0, 3.0]), line)), 6)
        0.785398
        """
        theta = self._theta(theta)
        if theta.ndim != len(self.space.ambient_shape):
            raise ShapeError("zero_set_distance() takes one parameter θ, not a batch")
        space = self.space
        pts = space.check_points(points, "points")
        if self._sphere or space.k >= 2:
            zeros = self.zero_set(theta)
            nd = len(space.ambient_shape)
            expanded = pts[(Ellipsis, None) + (slice(None),) * nd]
            return space.unchecked_dist(expanded, zeros).min(axis=-1)
        return self._line_distance(theta, pts)

    def clearance(self, thetas, points) -> np.ndarray:
        r"""How far the zero set ``Z(θ)`` keeps from ``points``, for a batch of parameters.

        ``min_y d(y, Z(θ))`` over the points ``y``, one value per ``θ``. On spheres ``Z(θ)`` is
        ``±θ̂``. On projector spaces it is the ``C(n, k)`` eigen-subspaces of ``θ``, and the
        value is ``-inf`` unless the eigenvalues of ``θ`` are apart by at least a relative
        ``1e-3``. Nearly equal eigenvalues make ``|v(θ)|`` nearly vanish along a whole curve,
        so ``a_θ`` turns fast there: such a ``θ`` is no good choice. This is the measure
        :meth:`theta_for` maximizes; a caller that needs no particular field can pick the
        best of many random ``θ`` with it.

        Parameters
        ----------
        thetas : array_like, shape (C, *ambient_shape)
            Non-zero parameters (symmetric matrices on projector spaces).
        points : array_like, shape (m, *point_shape)
            Points of the space, ``m ≥ 1``.

        Returns
        -------
        ndarray, shape (C,)
            The clearance of each ``θ``.

        Raises
        ------
        ShapeError
            When ``thetas`` is not one batch of parameters or ``points`` holds no point.

        Examples
        --------
        >>> from manifolds import Sphere
        >>> family = IsotropicFamily(Sphere(2))
        >>> np.round(family.clearance(np.eye(3)[:2], np.eye(3)[[0]]), 6).tolist()
        [0.0, 1.570796]
        """
        thetas = self._theta(thetas)
        shape = self.space.ambient_shape
        if thetas.ndim != len(shape) + 1:
            raise ShapeError(f"thetas has shape {thetas.shape}; give a batch (C, *{shape})")
        pts = self.space.check_points(points, "points").reshape(-1, *shape)
        if not len(pts):
            raise ShapeError("points holds no point; the clearance of an empty set is not "
                             "defined")
        if not self._sphere:
            return self._margin(thetas, pts)
        unit = thetas / self._norm(thetas)[:, None]
        d = self.space.unchecked_dist(unit[:, None], pts[None])             # (C, m)
        return np.minimum(d, np.pi - d).min(axis=1)        # d(y, −θ̂) = π − d(y, θ̂)

    def _line_distance(self, theta: np.ndarray, pts: np.ndarray) -> np.ndarray:
        vals, vecs = np.linalg.eigh(theta)
        scale = max(np.abs(vals).max(), 1e-300)
        groups = np.concatenate([[0], np.cumsum(np.diff(vals) > _EIGEN_GAP * scale)])
        coef = np.einsum("ia,...ij,ja->...a", vecs, pts, vecs)        # x-components², (..., n)
        coef = np.clip(coef, 0.0, None)
        best = np.full(pts.shape[:-2], np.inf)
        for g in range(groups[-1] + 1):
            inside = coef[..., groups == g].sum(axis=-1)
            outside = coef[..., groups != g].sum(axis=-1)
            best = np.minimum(best, np.arctan2(np.sqrt(outside), np.sqrt(inside)))
        return best

    # -- constructing θ -------------------------------------------------------------------
    def theta_for(self, v0, y0, *, avoid=None, radius: float | None = None, rng=None) -> np.ndarray:
        r"""A parameter ``θ`` with ``a_θ(y0) = v0/|v0|`` whose zero set is farther than ``radius``
        from every point of ``avoid``.

        ``θ = v0/|v0|_g + ν`` with ``ν`` normal to ``M`` at ``y0`` (so ``v(θ)_{y0} = v0/|v0|_g``):
        on ``S^d``, ``ν = tan φ · y0`` with ``φ`` maximizing the least distance from ``±θ̂``
        to ``avoid`` (a 1-D search, then a bounded polish); on projector spaces ``ν`` is
        block-diagonal in the range and kernel of ``y0`` and is found by random search and a
        Nelder–Mead polish of the same objective, keeping eigenvalues of ``θ`` distinct.

        Parameters
        ----------
        v0 : array
            Non-zero tangent vector at ``y0``.
        y0 : array
            One point.
        avoid : array, shape ``(m, *point_shape)``, optional
            Default ``y0`` alone. A construction passes the points of its support.
        radius : float, optional
            Required distance from the zero set to each avoided point; default (``None``)
            ``0``: only off the points themselves.
        rng : Generator or int, optional
            For the random search on projector spaces.

        Returns
        -------
        ndarray
            ``θ`` (unit length in ``g``).

        Raises
        ------
        ShapeError
            When ``y0`` is a batch of points or ``v0`` a batch of vectors.
        ZeroSetError
            When ``v0`` is zero, when ``radius`` is negative or not finite, or when the best
            ``θ`` found keeps the zero set only ``m ≤ radius`` away; the message gives ``m``
            (lower the radius below it, or avoid fewer points).

        Notes
        -----
        With ``avoid = y0`` the largest reachable distance is ``π/2`` on ``S^d``
        (``θ = v0``), ``arccos(1/√(d+1))`` on ``RP^d`` (the eigenvectors equally inclined to
        ``y0``; ``θ = v0`` gives only ``π/4``), and on ``Gr(k, n)`` what the search finds
        (docs/laws.md lists it; docs/conventions.md#isotropic-family).

        Examples
        --------
        >>> from manifolds import Sphere
        >>> family = IsotropicFamily(Sphere(2))
        >>> y0, v0 = np.array([0.0, 0.0, 1.0]), np.array([0.0, 3.0, 0.0])
        >>> theta = family.theta_for(v0, y0, radius=1.0)
        >>> bool(np.allclose(family.unit_field(theta, y0), [0.0, 1.0, 0.0]))
        True
        >>> round(float(family.zero_set_distance(theta, y0)), 6)    # θ = v0: the best, π/2
        1.570796
        """
        space = self.space
        y0 = space.check_points(y0, "y0")
        if y0.ndim != len(space.ambient_shape):
            raise ShapeError("theta_for() takes one point y0, not a batch")
        v0 = space.check_tangent(v0, y0, "v0")
        if v0.shape != y0.shape:
            raise ShapeError("theta_for() takes one tangent vector v0, not a batch")
        norm = float(self._norm(v0))
        if not norm > 0:
            raise ZeroSetError("v0 is zero; a unit field needs a non-zero direction")
        avoid = y0[None] if avoid is None else space.check_points(avoid, "avoid")
        avoid = avoid.reshape((-1,) + space.ambient_shape)
        radius = 0.0 if radius is None else as_nonnegative(radius, "radius", error=ZeroSetError)
        direction = v0 / norm
        if self._sphere:
            theta, margin = self._sphere_search(direction, y0, avoid)
        else:
            theta, margin = self._projector_search(direction, y0, avoid, as_generator(rng))
        if not margin > radius:
            raise ZeroSetError(
                f"no θ found that keeps the zero set of v(θ) farther than {radius:g} from the "
                f"{len(avoid)} avoided point(s): the best keeps it {margin:.4g} away; lower the "
                "radius below that, or avoid fewer points"
            )
        return theta / self._norm(theta)

    def _margin(self, thetas: np.ndarray, avoid: np.ndarray) -> np.ndarray:
        """Least distance from ``avoid`` to ``Z(θ)`` for a batch of ``θ`` on a projector space.

        ``-inf`` unless the eigenvalues of ``θ`` are apart by at least a relative
        ``_SEARCH_GAP``: nearly equal eigenvalues make ``|v(θ)|`` nearly vanish along a whole
        curve, and ``a_θ`` turn fast there. With distinct eigenvalues the zero set is the
        ``C(n, k)`` eigen-subspaces; all candidates are evaluated in one batch.
        """
        space = self.space
        vals, vecs = np.linalg.eigh(thetas)                              # (C, n), (C, n, n)
        gaps = np.diff(vals, axis=-1) / np.abs(vals).max(axis=-1, keepdims=True)
        ok = (gaps >= _SEARCH_GAP).all(axis=-1)
        subsets = np.array(list(combinations(range(space.n), space.k)))   # (S, k)
        u = np.swapaxes(vecs[:, :, subsets], 1, 2)                       # (C, S, n, k)
        zeros = u @ np.swapaxes(u, -1, -2)                                # (C, S, n, n)
        d = space.unchecked_dist(zeros[:, :, None], avoid[None, None])              # (C, S, m)
        return np.where(ok, d.min(axis=(1, 2)), -np.inf)

    def _sphere_search(self, direction, y0, avoid):
        def thetas(phi):
            phi = np.atleast_1d(phi)
            return np.cos(phi)[:, None] * direction + np.sin(phi)[:, None] * y0

        def margin(phi):
            t = thetas(phi)
            t = t / np.linalg.norm(t, axis=-1, keepdims=True)
            d = self.space.unchecked_dist(avoid[None, :], t[:, None])               # (Φ, m)
            return np.minimum(d, np.pi - d).min(axis=-1)

        grid = np.linspace(-np.pi / 2, np.pi / 2, 1441)[1:-1]
        values = margin(grid)
        best = int(np.argmax(values))
        lo, hi = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
        polished = minimize_scalar(lambda p: -margin(p)[0], bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-10})
        phi = polished.x if -polished.fun > values[best] else grid[best]
        return thetas(phi)[0], float(margin(phi)[0])

    def _projector_search(self, direction, y0, avoid, gen):
        space = self.space
        n, k = space.n, space.k
        u, uperp = space.frame(y0)
        n_a, n_b = k * (k + 1) // 2, (n - k) * (n - k + 1) // 2
        ia, ib = np.triu_indices(k), np.triu_indices(n - k)

        def thetas(params):
            params = np.atleast_2d(params)
            a = np.zeros((len(params), k, k))
            b = np.zeros((len(params), n - k, n - k))
            a[:, ia[0], ia[1]] = params[:, :n_a]
            b[:, ib[0], ib[1]] = params[:, n_a:]
            a = a + np.swapaxes(a, -1, -2)
            b = b + np.swapaxes(b, -1, -2)
            return direction + u @ a @ u.T + uperp @ b @ uperp.T

        def params(theta):  # inverse of thetas() on symmetric θ with tangent part `direction`
            a = u.T @ theta @ u
            b = uperp.T @ theta @ uperp
            a[np.diag_indices(k)] /= 2
            b[np.diag_indices(n - k)] /= 2
            return np.concatenate([a[ia], b[ib]])[None]

        candidates = [np.zeros((1, n_a + n_b))]
        if k == 1:
            candidates.append(params(_equal_angle_theta(u[:, 0], direction @ u[:, 0])))
        candidates += [scale * gen.standard_normal((64, n_a + n_b)) for scale in (0.25, 0.5, 1.0, 2.0)]
        candidates = np.concatenate(candidates)
        values = self._margin(thetas(candidates), avoid)
        order = np.argsort(values)[::-1][:3]
        best_params, best = candidates[order[0]], values[order[0]]
        for start in order:
            res = minimize(lambda p: -self._margin(thetas(p), avoid)[0], candidates[start],
                           method="Nelder-Mead", options={"maxfev": 400, "xatol": 1e-6, "fatol": 1e-9})
            if -res.fun > best:
                best_params, best = res.x, -res.fun
        return thetas(best_params)[0], float(best)


def _equal_angle_theta(x0: np.ndarray, w: np.ndarray) -> np.ndarray:
    """On ``RP^{n−1}`` at the line of the unit vector ``x0``, with ``w ⊥ x0`` non-zero: the
    ``θ`` whose eigenvectors all make the angle ``arccos(1/√n)`` with ``x0`` and whose field at
    ``x0`` is ``x0 wᵀ + w x0ᵀ`` (the tangent vector of ``w``).

    ``θ = R diag(z) Rᵀ`` for an orthogonal ``R`` taking ``1/√n`` to ``x0`` and ``ẑ`` to ``ŵ``,
    ``z`` evenly spaced with mean ``0``: then ``θ x0 = R z / √n``, whose part normal to ``x0``
    is along ``w``; the result is scaled so that it equals ``w`` exactly.
    """
    n = len(x0)
    ones = np.ones(n) / np.sqrt(n)
    z = np.arange(n) - (n - 1) / 2.0
    z /= np.linalg.norm(z)
    rot = _frame(x0, w) @ _frame(ones, z).T
    theta = rot @ np.diag(z) @ rot.T
    return theta * (np.sqrt(n) * np.linalg.norm(w))


def _frame(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """An orthonormal basis (columns) starting with ``first`` and ``second/|second|``
    (orthogonal unit directions)."""
    n = len(first)
    q = np.linalg.qr(np.column_stack([first, second, np.eye(n)]))[0][:, :n]
    signs = np.ones(n)
    signs[:2] = np.sign([q[:, 0] @ first, q[:, 1] @ second])
    return q * signs


@dataclass(frozen=True)
class IsotropicField:
    """The unit field ``a_θ`` of a fixed ``θ``, as a field ``a(x, y) ∈ T_y M`` (independent of ``x``).

    Made by :meth:`IsotropicFamily.at`; :class:`InteractionLaw` calls it. ``field(x, y)`` is
    ``a_θ(y)`` broadcast to the batch shape of ``(x, y)``; it raises :class:`ZeroSetError`
    where ``y`` is on the zero set (docs/conventions.md#isotropic-family).

    Parameters
    ----------
    family : IsotropicFamily
        The family, and with it the space.
    theta : ndarray, shape point_shape
        The parameter ``θ`` (validated by :meth:`IsotropicFamily.at`, not here).

    Examples
    --------
    >>> from manifolds import Sphere
    >>> field = IsotropicFamily(Sphere(2)).at([1.0, 0.0, 0.0])
    >>> x = np.array([0.0, 0.0, 1.0])
    >>> y = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    >>> field(x, y).tolist()
    [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
    """

    family: IsotropicFamily
    theta: np.ndarray

    @property
    def space(self) -> Space:
        """The family's space."""
        return self.family.space

    def __call__(self, x, y) -> np.ndarray:
        """``a_θ(y)`` broadcast to the batch shape of ``(x, y)``."""
        nd = len(self.space.ambient_shape)
        a = self.family.unit_field(self.theta, y)
        x = np.asarray(x)
        batch = np.broadcast_shapes(x.shape[: x.ndim - nd], a.shape[: a.ndim - nd])
        return np.broadcast_to(a, batch + self.space.ambient_shape)

    def zero_set_distance(self, points) -> np.ndarray:
        """Distance from each point to the zero set ``Z(θ)`` of this field's ``θ``.

        :meth:`IsotropicFamily.zero_set_distance` with the stored ``θ``.

        Parameters
        ----------
        points : array_like, shape (..., *point_shape)
            Points of the space.

        Returns
        -------
        ndarray, shape (...)
            ``d(y, Z(θ))`` for each point ``y``.

        Examples
        --------
        >>> from manifolds import Sphere
        >>> field = IsotropicFamily(Sphere(2)).at([1.0, 0.0, 0.0])
        >>> bool(np.allclose(field.zero_set_distance(np.eye(3)), [0.0, np.pi / 2, np.pi / 2]))
        True
        """
        return self.family.zero_set_distance(self.theta, points)


def _random_isometry(space: Space, gen: np.random.Generator) -> np.ndarray:
    """A Haar-random ``g ∈ O(m)`` acting on the ambient ``R^m`` (reflections included)."""
    m = space.ambient_shape[0]
    q, r = np.linalg.qr(gen.standard_normal((m, m)))
    return q * np.sign(np.diag(r))


def _act(space: Space, g: np.ndarray, z: np.ndarray) -> np.ndarray:
    """The isometry ``g`` on points, tangent vectors or parameters: ``g z`` or ``g Z gᵀ``."""
    return space.act(g, z)


def check_isotropy(family: IsotropicFamily, rng=None, *, n_samples: int = 32) -> Report:
    r"""Equivariance ``g · v(θ)_y = v(g·θ)_{g·y}`` under random isometries, with the error.

    For ``n_samples`` triples (Haar-random ``g ∈ O(m)`` of the ambient ``R^m``, random ``θ``,
    random ``y``) measures ``max |g·v(θ)_y − v(g·θ)_{g·y}|_g / |θ|_g`` for the field and the
    same for the unit field; both must be ``≤ 1e-12``.

    Parameters
    ----------
    family : IsotropicFamily
        The family to check.
    rng : int, numpy.random.Generator or None, optional
        Seed or generator for the isometries, parameters and points.
    n_samples : int, optional
        Number of random triples ``(g, θ, y)`` (default 32).

    Returns
    -------
    Report
        Rows ``"g·v(θ)_y = v(gθ)_{gy}"`` and ``"g·a_θ(y) = a_{gθ}(gy)"`` (the worst relative
        error and the sample attaining it); notes give the sample count and the group.

    Raises
    ------
    TypeError
        When ``family`` is not an :class:`IsotropicFamily`, or ``n_samples`` not an integer.
    ParameterError
        When ``n_samples`` is below 1.

    Examples
    --------
    >>> from manifolds import ProjectiveSpace
    >>> check_isotropy(IsotropicFamily(ProjectiveSpace(3)), rng=0).passed
    True
    """
    if not isinstance(family, IsotropicFamily):
        raise TypeError(f"family must be an IsotropicFamily, not {type(family).__name__}")
    n_samples = as_positive_integer(n_samples, "n_samples")
    space = family.space
    gen = as_generator(rng)
    shape = space.ambient_shape
    errors, unit_errors = [], []
    for _ in range(n_samples):
        g = _random_isometry(space, gen)
        theta = gen.standard_normal(shape)
        theta = space.ambient_projection(theta)
        y = space.random_point(1, rng=gen)[0]
        gy = space.projection(_act(space, g, y))
        scale = float(family._norm(theta))
        lhs = _act(space, g, family.field(theta, y))
        rhs = family.field(_act(space, g, theta), gy)
        errors.append(float(family._norm(lhs - rhs)) / scale)
        lhs = _act(space, g, family.unit_field(theta, y))
        rhs = family.unit_field(_act(space, g, theta), gy)
        unit_errors.append(float(family._norm(lhs - rhs)))
    worst, worst_unit = int(np.argmax(errors)), int(np.argmax(unit_errors))
    checks = [
        Check("g·v(θ)_y = v(gθ)_{gy}", errors[worst], 1e-12, "<=", f"sample {worst}"),
        Check("g·a_θ(y) = a_{gθ}(gy)", unit_errors[worst_unit], 1e-12, "<=", f"sample {worst_unit}"),
    ]
    return Report(f"isotropy on {space.name}", checks, {"samples": n_samples, "group": f"O({shape[0]})"})
