"""The Grassmannian ``Gr(k, n)`` of k-planes in ``R^n``, as rank-k orthogonal projectors."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ._checks import (
    MAX_TANGENT_NORM,
    as_points,
    as_shaped,
    as_tangent,
    batch_shape,
    check_finite,
    check_tangent_norm,
    first_false,
)
from .validation import as_count, as_dimension, as_generator, as_tolerance
from .errors import CutLocusError, ParameterError
from .space import Space

__all__ = ["Grassmannian", "CUT_LOCUS_TOL"]

#: ``log`` refuses points whose largest principal angle is within this of ``π/2``.
CUT_LOCUS_TOL = 1e-12


def _sym(a: np.ndarray) -> np.ndarray:
    return 0.5 * (a + np.swapaxes(a, -1, -2))


def _fro2(a: np.ndarray) -> np.ndarray:
    return np.einsum("...ij,...ij->...", a, a)


def _mT(a: np.ndarray) -> np.ndarray:
    return np.swapaxes(a, -1, -2)


@dataclass(frozen=True)
class Grassmannian(Space):
    r"""The Grassmannian ``Gr(k, n)``: rank-``k`` orthogonal projectors ``P`` on ``R^n``.

    Argument order ``Grassmannian(n, k)`` follows geomstats. Distance is
    ``d(P, Q) = sqrt(Σ_i θ_i²)`` over the ``k`` principal angles ``θ_i ∈ [0, π/2]``; the
    matching metric on tangent vectors (symmetric ``V`` with ``V = PV + VP``) is
    ``g(U, V) = ½ tr(UᵀV)`` — geomstats uses ``tr(UᵀV)``, so its distances are ``√2``
    times these. The injectivity radius is ``π/2``. Points have shape ``(..., n, n)``.

    Parameters
    ----------
    n : int
        Ambient dimension, ``n ≥ 2``.
    k : int
        Subspace dimension, ``1 ≤ k ≤ n − 1``.
    atol : float, optional
        Tolerance of the membership and tangency checks every method makes on its input.

    Examples
    --------
    >>> import numpy as np
    >>> gr = Grassmannian(4, 2)
    >>> P = np.diag([1.0, 1, 0, 0]); Q = np.diag([0.0, 0, 1, 1])
    >>> gr.principal_angles(P, Q).tolist() == [np.pi / 2, np.pi / 2]  # exact: atan2(1, 0)
    True
    >>> bool(abs(gr.dist(P, Q) - np.sqrt(2) * np.pi / 2) < 1e-15)
    True
    """

    n: int
    k: int
    atol: float = field(default=1e-8, kw_only=True)
    model = "projector"

    def __post_init__(self):
        object.__setattr__(self, "n", as_dimension(self.n, "n", 2))
        object.__setattr__(self, "k", as_dimension(self.k, "k", 1))
        if self.k >= self.n:
            raise ParameterError(
                f"Grassmannian(n={self.n}, k={self.k}) needs 1 ≤ k ≤ n − 1 "
                "(argument order is geomstats': ambient dimension first)"
            )
        object.__setattr__(self, "atol", as_tolerance(self.atol))

    @property
    def name(self) -> str:
        """For messages: ``"Grassmannian(n, k)"``."""
        return f"Grassmannian({self.n}, {self.k})"

    @property
    def dim(self) -> int:
        """Manifold dimension ``k (n − k)``."""
        return self.k * (self.n - self.k)

    @property
    def ambient_shape(self) -> tuple[int, int]:
        """Shape of a point: ``(n, n)``."""
        return (self.n, self.n)

    @property
    def injectivity_radius(self) -> float:
        """``π/2`` in this normalization (one principal angle reaching ``π/2``)."""
        return float(np.pi / 2)

    @cached_property
    def geomstats(self):
        """The underlying ``geomstats`` space (imported on first use)."""
        from geomstats.geometry.grassmannian import Grassmannian as GsGrassmannian

        return GsGrassmannian(self.n, self.k)

    # -- private measures used by the input checks ------------------------------------------
    def _deviation(self, p: np.ndarray) -> np.ndarray:
        asym = np.sqrt(_fro2(p - _mT(p)))
        idem = np.sqrt(_fro2(p @ p - p))
        trace = np.abs(np.trace(p, axis1=-2, axis2=-1) - self.k)
        return np.maximum(np.maximum(asym, idem), trace)

    @staticmethod
    def _project_tangent(v: np.ndarray, p: np.ndarray) -> np.ndarray:
        s = _sym(v)
        ps = p @ s
        return ps + _mT(ps) - 2.0 * ps @ p

    def _tangent_deviation(self, v: np.ndarray, p: np.ndarray) -> np.ndarray:
        normal = v - self._project_tangent(v, p)
        return np.sqrt(_fro2(normal)) / np.maximum(1.0, np.sqrt(_fro2(v)))

    def _bases(self, p: np.ndarray):
        """Orthonormal bases ``U`` (``n×k``) of the range and ``U⊥`` (``n×(n−k)``) of the kernel."""
        _, vecs = np.linalg.eigh(_sym(p))
        return vecs[..., -self.k:], vecs[..., : -self.k]

    def _project(self, x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        u, _ = self._bases(x)
        return np.matmul(u, _mT(u), out=out)

    # -- membership ------------------------------------------------------------------------
    # The methods of the contract without a docstring here inherit Space's (inspect.getdoc),
    # which states the projector formulas; the space-specific ones (principal_angles, dist,
    # exp, log, tangent_basis) document their formulas and precision bounds here.
    def check_points(self, x, name: str = "x") -> np.ndarray:
        return as_points(self, x, name)

    def check_tangent(self, vector, base_point, name: str = "tangent_vec") -> np.ndarray:
        return as_tangent(self, vector, as_points(self, base_point, "base_point"), name)

    def belongs(self, x, *, atol: float | None = None) -> np.ndarray:
        arr = as_shaped(self, x, "x")
        tol = self.atol if atol is None else as_tolerance(atol)
        finite = np.isfinite(arr).all(axis=(-2, -1))
        with np.errstate(invalid="ignore", over="ignore"):
            return finite & (self._deviation(np.where(finite[..., None, None], arr, 0.0)) <= tol)

    def projection(self, x) -> np.ndarray:
        arr = as_shaped(self, x, "x")
        check_finite(arr, "x")
        u, _ = self._bases(arr)
        return u @ _mT(u)

    def random_point(self, n_samples: int = 1, *, rng=None) -> np.ndarray:
        count = as_count(n_samples, "n_samples")
        gen = as_generator(rng)
        q, _ = np.linalg.qr(gen.standard_normal((count, self.n, self.k)))
        return _sym(q @ _mT(q))

    # -- geometry --------------------------------------------------------------------------
    def _principal_angles(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        # P − Q has eigenvalues ±sin θ_i (and zeros), P + Q − I has ±cos θ_i (and ±1). Sines
        # from the difference are precise for small angles, cosines for angles near π/2;
        # atan2 keeps the better of the two at every angle. Each is read as half the gap
        # between an eigenvalue and its mirror image −sin θ_i (−cos θ_i): an input off an
        # exact projector by ~eps shifts both alike, so the gap cancels that shift to first
        # order and leaves an error relative to the sine (cosine), not ~eps absolute.
        n, k = self.n, self.k
        m = min(k, n - k)  # how many principal angles can be non-zero
        j = np.arange(m)
        lam = np.linalg.eigvalsh(p - q)  # ascending: −s_1 … −s_m, zeros, s_m … s_1
        sines = 0.5 * (lam[..., n - m + j] - lam[..., m - 1 - j])  # ascending
        lam = np.linalg.eigvalsh(p + q - np.eye(n))
        if 2 * k <= n:  # ascending: −1 (n − 2k of them), then −c_1 … and c_k … c_1 at the top
            cosines = 0.5 * (lam[..., n - 1 - j] - lam[..., n - 2 * m + j])  # descending
        else:  # I − P − Q is the same for the complements, which are (n − k)-planes
            cosines = 0.5 * (lam[..., 2 * m - 1 - j] - lam[..., j])
        if m < k:  # k-planes in R^n with 2k > n share a (2k − n)-dimensional subspace
            pad = lam.shape[:-1] + (k - m,)
            sines = np.concatenate([np.zeros(pad), sines], axis=-1)
            cosines = np.concatenate([np.ones(pad), cosines], axis=-1)
        return np.arctan2(np.clip(sines, 0.0, 1.0), np.clip(cosines, 0.0, 1.0))

    def principal_angles(self, x, y) -> np.ndarray:
        r"""The ``k`` principal angles between the ranges of ``x`` and ``y``, ascending.

        Shape ``(..., k)``; each in ``[0, π/2]``. Computed as ``atan2(sin θ_i, cos θ_i)``
        from the eigenvalues ``±sin θ_i`` of ``P − Q`` and ``±cos θ_i`` of ``P + Q − I``, each
        read as half the gap between an eigenvalue and its mirror image. Each angle is within
        ``12 eps`` (absolute, ``eps = 2^-52``) of the angle between the exact spectral
        projectors of the inputs, for inputs as the library makes them
        (``|P² − P|_F ≲ 64 eps``); inputs farther off, by ``δ_P``, ``δ_Q`` in spectral norm
        (of the symmetric matrix that the lower triangle defines), add up to
        ``√2 (δ_P + δ_Q)`` (Weyl's inequality). See docs/manifolds.md, "Precision".

        Parameters
        ----------
        x, y : array_like, shape (..., n, n)
            Rank-``k`` projectors; batch shapes broadcast.

        Returns
        -------
        ndarray, shape (..., k)
            Ascending, in ``[0, π/2]``; for ``2k > n`` the first ``2k − n`` are ``0`` (the
            ranges share a subspace of that dimension).

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`check_points`, for either argument; ``ShapeError`` also when the
            batch shapes do not broadcast.

        Examples
        --------
        >>> import numpy as np
        >>> gr = Grassmannian(4, 2)
        >>> P = np.diag([1.0, 1.0, 0.0, 0.0])                 # span(e0, e1)
        >>> U = np.array([[1, 0], [0, np.cos(0.3)], [0, np.sin(0.3)], [0, 0]])
        >>> Q = U @ U.T                                       # span(e0, cos 0.3 e1 + sin 0.3 e2)
        >>> bool(np.allclose(gr.principal_angles(P, Q), [0.0, 0.3]))
        True
        >>> gr.principal_angles(P, np.diag([0.0, 0.0, 1.0, 1.0])).tolist() == [np.pi / 2] * 2
        True
        """
        p = as_points(self, x, "x")
        q = as_points(self, y, "y")
        batch_shape(self, p, q)
        return self._principal_angles(p, q)

    def dist(self, x, y) -> np.ndarray:
        r"""Geodesic distance ``sqrt(Σ θ_i²)`` over the principal angles, shape ``(...)``.

        Absolute error at most ``24 eps · d + δ²/(2d)`` (``eps = 2^-52``), where
        ``δ = |P² − P|_F + |Q² − Q|_F`` says how far the inputs are from projectors
        (``≲ 64 eps`` each for points the library makes): relative, ``≤ 24 eps``, down to
        ``d ~ 1e-7``, where the second term takes over (docs/manifolds.md, "Precision").
        Distances reach ``sqrt(min(k, n − k)) π/2``, beyond the injectivity radius ``π/2``.

        Parameters
        ----------
        x, y : array_like, shape (..., n, n)
            Rank-``k`` projectors; batch shapes broadcast.

        Returns
        -------
        ndarray, shape (...)

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`check_points`, for either argument; ``ShapeError`` also when the
            batch shapes do not broadcast.

        Examples
        --------
        >>> import numpy as np
        >>> gr = Grassmannian(4, 2)
        >>> P = np.diag([1.0, 1.0, 0.0, 0.0])                 # span(e0, e1)
        >>> U = np.array([[1, 0], [0, np.cos(0.3)], [0, np.sin(0.3)], [0, 0]])
        >>> Q = U @ U.T                                       # span(e0, cos 0.3 e1 + sin 0.3 e2)
        >>> round(float(gr.dist(P, Q)), 12)
        0.3
        """
        p = as_points(self, x, "x")
        q = as_points(self, y, "y")
        batch_shape(self, p, q)
        return self._dist(p, q)

    def _dist(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        return np.linalg.norm(self._principal_angles(p, q), axis=-1)

    def exp(self, tangent_vec, base_point) -> np.ndarray:
        r"""Exponential map, shape ``(..., n, n)``.

        With ``U`` a basis of ``P``, ``Δ = V U = Y Σ Wᵀ`` (thin SVD), the geodesic ends at the
        range of ``U W cos Σ + Y sin Σ``; ``|V|_g = |Σ|_F``. The result is a projector to
        ``1e-13`` (membership measure) and ``d(P, exp_P(V)) = |V|_g`` within
        ``(12 + 32 |V|_g) eps`` below the injectivity radius. Vectors with
        ``|V|_g > MAX_TANGENT_NORM = 1e12`` are refused, as on spheres (:meth:`Sphere.exp`;
        docs/manifolds.md, "Long tangent vectors"); norms are computed without overflow.

        Parameters
        ----------
        tangent_vec : array_like, shape (..., n, n)
            Tangent vectors at ``base_point``: symmetric ``V`` with ``V = PV + VP``.
        base_point : array_like, shape (..., n, n)
            Rank-``k`` projectors; batch shapes broadcast.

        Returns
        -------
        ndarray, shape (..., n, n)
            Rank-``k`` projectors.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError, NotTangentError
            As in :meth:`check_tangent`.
        ParameterError
            A vector has ``|V|_g > MAX_TANGENT_NORM`` (``1e12``); the message gives the first
            one and its length.

        Examples
        --------
        >>> import numpy as np
        >>> gr = Grassmannian(4, 2)
        >>> P = np.diag([1.0, 1.0, 0.0, 0.0])                 # span(e0, e1)
        >>> U = np.array([[1, 0], [0, np.cos(0.3)], [0, np.sin(0.3)], [0, 0]])
        >>> Q = U @ U.T                                       # span(e0, cos 0.3 e1 + sin 0.3 e2)
        >>> V = np.zeros((4, 4)); V[1, 2] = V[2, 1] = 1.0   # unit speed: e1 turns to e2
        >>> bool(np.allclose(gr.exp(0.3 * V, P), Q))
        True
        >>> gr.exp(1e155 * V, P)                              # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        manifolds.errors.ParameterError: tangent_vec has length 1e+155 > 1e+12 (MAX_TANGENT_NORM): ...
        """
        p = as_points(self, base_point, "base_point")
        v = as_tangent(self, tangent_vec, p)
        with np.errstate(over="ignore"):
            norm2 = self._inner(v, v)
        if not (norm2 <= MAX_TANGENT_NORM**2).all():
            check_tangent_norm(self, v, norm2)
        return self._exp(v, p)

    def _exp(self, v: np.ndarray, p: np.ndarray) -> np.ndarray:
        u, _ = self._bases(p)
        y, sigma, wt = np.linalg.svd(v @ u, full_matrices=False)
        m = min(self.k, self.n - self.k)
        if m < self.k:
            # Δ = V U maps into the (n − k)-dimensional kernel: its last k − m singular values
            # are 0, computed as ~|V| eps with arbitrary Y columns, which would tilt the result
            # off the projectors by that much
            sigma = sigma.copy()
            sigma[..., m:] = 0.0
        moved = (u @ _mT(wt)) * np.cos(sigma)[..., None, :] + y * np.sin(sigma)[..., None, :]
        return _sym(moved @ _mT(moved))

    def log(self, point, base_point) -> np.ndarray:
        r"""Logarithm: the tangent vector at ``base_point`` whose geodesic reaches ``point``.

        With bases ``U`` of ``P`` and ``Y`` of ``Q``: align ``Y* = Y B Aᵀ`` from the SVD
        ``UᵀY = A C Bᵀ``, take the thin SVD ``(I − UUᵀ) Y* = Q̂ Ŝ R̂ᵀ``, the angles
        ``θ = atan2(Ŝ, diag(R̂ᵀ UᵀY* R̂))`` and ``Δ = Q̂ θ R̂ᵀ``; the result is
        ``Δ Uᵀ + U Δᵀ``. Raises :class:`CutLocusError` when a principal angle is within
        ``CUT_LOCUS_TOL`` of ``π/2`` (the logarithm is not unique there). Inside the
        injectivity ball a round trip ``log_P(exp_P(V))`` returns ``V`` within
        ``(48 + 96 |V|_g) eps`` right up to its boundary; beyond it, where two principal angles
        ``θ_i, θ_j`` approach ``π/2``, precision degrades like ``eps / (π − θ_i − θ_j)``
        (docs/manifolds.md, "Precision").

        Parameters
        ----------
        point : array_like, shape (..., n, n)
            Rank-``k`` projectors ``Q``.
        base_point : array_like, shape (..., n, n)
            Rank-``k`` projectors ``P``; batch shapes broadcast.

        Returns
        -------
        ndarray, shape (..., n, n)
            Tangent vectors at ``base_point``, of norm ``|V|_g = d(P, Q)``.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`dist`.
        CutLocusError
            A principal angle between a point and its base point is within ``CUT_LOCUS_TOL``
            (``1e-12``) of ``π/2``.

        Examples
        --------
        >>> import numpy as np
        >>> gr = Grassmannian(4, 2)
        >>> P = np.diag([1.0, 1.0, 0.0, 0.0])                 # span(e0, e1)
        >>> U = np.array([[1, 0], [0, np.cos(0.3)], [0, np.sin(0.3)], [0, 0]])
        >>> Q = U @ U.T                                       # span(e0, cos 0.3 e1 + sin 0.3 e2)
        >>> V = np.zeros((4, 4)); V[1, 2] = V[2, 1] = 1.0
        >>> bool(np.allclose(gr.log(Q, P), 0.3 * V))
        True
        >>> gr.log(np.diag([0.0, 1.0, 1.0, 0.0]), P)   # principal angles 0 and π/2
        Traceback (most recent call last):
        ...
        manifolds.errors.CutLocusError: point has a principal angle π/2 (within 1e-12) with its base point: it is on the cut locus, where the logarithm is not unique — perturb the point
        """
        p = as_points(self, base_point, "base_point")
        q = as_points(self, point, "point")
        batch_shape(self, p, q)
        log, theta = self._log(q, p)
        away = np.pi / 2 - theta.max(axis=-1) > CUT_LOCUS_TOL
        if not away.all():
            raise CutLocusError(
                f"point{first_false(away)} has a principal angle π/2 (within {CUT_LOCUS_TOL:g}) "
                "with its base point: it is on the cut locus, where the logarithm is not "
                "unique — perturb the point"
            )
        return log

    def _log(self, q: np.ndarray, p: np.ndarray):
        """Unchecked logarithm and principal angles (finite, arbitrary at the cut locus)."""
        u, _ = self._bases(p)
        y, _ = self._bases(q)
        a, _, bt = np.linalg.svd(_mT(u) @ y)
        y = y @ _mT(bt) @ _mT(a)
        uty = _mT(u) @ y
        qhat, shat, rt = np.linalg.svd(y - u @ uty, full_matrices=False)
        cosines = np.einsum("...ij,...jk,...ik->...i", rt, uty, rt)
        theta = np.arctan2(shat, cosines)
        delta = (qhat * theta[..., None, :]) @ rt
        return _sym(2.0 * delta @ _mT(u)), theta

    def to_tangent(self, vector, base_point) -> np.ndarray:
        p = as_points(self, base_point, "base_point")
        v = as_shaped(self, vector, "vector")
        check_finite(v, "vector")
        batch_shape(self, v, p)
        return self._project_tangent(v, p)

    def inner(self, tangent_vec_a, tangent_vec_b, base_point) -> np.ndarray:
        p = as_points(self, base_point, "base_point")
        a = as_tangent(self, tangent_vec_a, p, "tangent_vec_a")
        b = as_tangent(self, tangent_vec_b, p, "tangent_vec_b")
        batch_shape(self, a, b)
        return self._inner(a, b)

    @staticmethod
    def _inner(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return 0.5 * np.einsum("...ij,...ij->...", a, b)

    def tangent_basis(self, base_point) -> np.ndarray:
        r"""A ``g``-orthonormal basis of ``T_P``, shape ``(..., k (n − k), n, n)``.

        ``E_ij = u⊥_i u_jᵀ + u_j u⊥_iᵀ`` for ``U⊥`` an orthonormal basis of the kernel and
        ``U`` of the range (from ``eigh(P)``), ordered with ``i`` slow.

        Parameters
        ----------
        base_point : array_like, shape (..., n, n)
            Rank-``k`` projectors.

        Returns
        -------
        ndarray, shape (..., k (n − k), n, n)
            Basis vector ``E_ij`` at ``[..., i k + j, :, :]``.

        Raises
        ------
        TypeError, ShapeError, NonFiniteError, NotOnManifoldError
            As in :meth:`check_points`.

        Examples
        --------
        >>> import numpy as np
        >>> gr = Grassmannian(4, 2)
        >>> P = np.diag([1.0, 1.0, 0.0, 0.0])
        >>> basis = gr.tangent_basis(P)
        >>> basis.shape
        (4, 4, 4)
        >>> bool(np.allclose(gr.unchecked_to_tangent(basis, P), basis))   # each is tangent
        True
        """
        p = as_points(self, base_point, "base_point")
        u, uperp = self._bases(p)
        outer = np.einsum("...ai,...bj->...ijab", uperp, u)
        basis = outer + _mT(outer)
        return basis.reshape(basis.shape[:-4] + (self.dim, self.n, self.n))

    # -- structure of the contract (manifolds.Space) ---------------------------------------
    def frame(self, x: np.ndarray):
        return self._bases(np.asarray(x, dtype=float))

    @property
    def embedding_dim(self) -> int:
        """``n (n + 1) / 2``: projectors lie in the symmetric ``n×n`` matrices
        (:attr:`Space.embedding_dim`).

        Examples
        --------
        >>> Grassmannian(3, 1).embedding_dim
        6
        """
        return self.n * (self.n + 1) // 2

    def embed(self, x: np.ndarray) -> np.ndarray:
        iu = np.triu_indices(self.n)
        scale = np.where(iu[0] == iu[1], 1.0, np.sqrt(2.0))
        return np.asarray(x, dtype=float)[..., iu[0], iu[1]] * scale

    def embedding_radius(self, r: float) -> float:
        return float(np.sqrt(2.0) * r + (4.0 * self.atol + 1e-12) * self.n)

    def ambient_projection(self, z: np.ndarray) -> np.ndarray:
        z = np.asarray(z, dtype=float)
        return 0.5 * (z + _mT(z))

    def act(self, g: np.ndarray, z: np.ndarray) -> np.ndarray:
        g = np.asarray(g)
        return g @ np.asarray(z) @ g.T

    def conventions(self) -> dict:
        return {
            "point_model": f"rank-{self.k} projectors {self.n}x{self.n}",
            "distance": "sqrt(sum theta_i^2), principal angles",
            "metric": "1/2 tr(u^T v) (geomstats: tr, distances x sqrt 2)",
        }
