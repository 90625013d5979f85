r"""Section 3 on the continuum: bilinear weights ``⟨x, W y⟩`` on ``S^{d−1} × S^{d−1}`` (``K = I``).

docs/conventions.md#section-3-two-notions. A standard head with the key fixed to the identity
and a linear query gives the weight ``β_W(x, y) = ⟨x, W y⟩`` (signed; ``x`` the key side,
the source ``a`` of an edge ``(a, b)``; ``y`` the query side, its target ``b``). Its critical
points on ``S^{d−1} × S^{d−1}`` are the singular pairs ``W y = σ x``, ``Wᵀ x = σ y``; at any
point the Riemannian Hessian has the eigenvalues ``−f ± s_i`` (``f`` the value, ``s_i`` the
singular values of ``P_x W P_y``). Hence:

* every local maximum is a global one, of value ``‖W‖₂``: a singular pair of a smaller
  ``σ_k`` increases along ``(u_1, v_1)``, by ``(σ_1 − σ_k) sin² t``;
* so the vertex pairs a bilinear weight realizes (:func:`realized_pairs`) form a **matching**:
  if ``⟨α(a), W α(b)⟩ = ⟨α(a), W α(c)⟩ = ‖W‖₂`` for distinct unit ``α(b), α(c)``, then
  ``‖Wᵀ α(a)‖ ≥ ‖W‖₂ √(2/(1 + ⟨α(b), α(c)⟩)) > ‖W‖₂``; on the maxima ``x = W y/‖W y‖``, and
  ``y ↦ x`` is an isometry of the top right-singular sphere onto the left one
  (:func:`bilinear_maxima` checks both);
* the maxima are the great ``(m − 1)``-sphere of the top singular spaces (``m`` the
  multiplicity of ``σ_1``), so they are strict only when ``m = 1``, and then they are the two
  points ``±(u_1, v_1)``. On orthonormal tokens a weight realizing ``k`` edges has
  ``m ≥ k``: with two edges or more its maxima are never strict.

:func:`bilinear_density_cover` builds the ``K = I`` cover — one weight per color of a König
edge coloring, ``χ'`` of them, on orthonormal tokens — and :func:`verify_bilinear_cover`
checks it: at the paper's strength it passes; at the exact one (strict maxima) only where
each weight has one edge. :func:`bilinear_weight` builds the weight of one matching on any
embedding, or says why none exists: two edges ``(a, b), (c, e)`` share a weight only if
``⟨α(a), α(c)⟩ = ⟨α(b), α(e)⟩``, so on a non-orthonormal embedding ``χ'`` weights are only a
lower bound (on generic points only the two edges of a 2-cycle share a weight).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from laws import Check, Report
from manifolds.validation import as_generator, as_positive_integer

from ..covers.verification import VerificationReport, claim_checks
from ..digraphs.digraph import AttentionDigraph, check_digraph
from ..errors import HeadError, InvalidColoringError, TheoremError
from ..invariants.edge_coloring import chromatic_index
from .heads import _check_dimension, orthonormal_tokens

__all__ = ["BilinearCover", "BilinearMaxima", "bilinear_density_cover", "bilinear_maxima",
           "bilinear_weight", "realized_pairs", "verify_bilinear_cover"]

#: Relative tolerance of "this value is the maximum ``‖W‖₂``" and of the Gram comparison:
#: far above the rounding of an SVD (``~1e-15``), far below any gap the tests rely on.
RTOL = 1e-9


def _as_matrix(w, name: str = "W") -> np.ndarray:
    arr = np.asarray(w)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.floating)
                                   or np.issubdtype(arr.dtype, np.integer)):
        raise TypeError(f"{name} must be a real matrix, got dtype {arr.dtype}")
    arr = arr.astype(float)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.shape[0] < 2:
        raise HeadError(f"{name} has shape {arr.shape}; give a square d×d matrix, d ≥ 2")
    if not np.isfinite(arr).all():
        raise HeadError(f"{name} holds NaN or infinity")
    return arr


def _unit_rows(points, d: int, name: str = "points") -> np.ndarray:
    arr = np.asarray(points)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.floating)
                                   or np.issubdtype(arr.dtype, np.integer)):
        raise TypeError(f"{name} must be a real array, got dtype {arr.dtype}")
    arr = arr.astype(float)
    if arr.ndim != 2 or arr.shape[1] != d:
        raise HeadError(f"{name} has shape {arr.shape}; give one unit vector of R^{d} a row")
    norms = np.linalg.norm(arr, axis=1)
    if not np.isfinite(arr).all() or (np.abs(norms - 1) > 1e-12).any():
        v = int(np.argmax(np.abs(np.nan_to_num(norms, nan=np.inf) - 1)))
        raise HeadError(f"{name}[{v}] has norm {norms[v]:.6g}; points of S^{d - 1} are unit "
                        "vectors (normalize the rows)")
    return arr


def _tangent_spectrum(w: np.ndarray, x: np.ndarray, y: np.ndarray):
    """At points ``(x, y)`` (``(k, d)`` each): the value ``f = ⟨x, W y⟩``, the norm of the
    Riemannian gradient, and the singular values ``s`` (descending, ``(k, d)``) of
    ``P_x W P_y``; the Riemannian Hessian's eigenvalues there are ``−f ± s_i`` (one
    ``s_i = 0`` belongs to the normal directions and is not one of them)."""
    wy, wtx = y @ w.T, x @ w
    f = np.einsum("ki,ki->k", x, wy)
    grad = np.hypot(np.linalg.norm(wy - f[:, None] * x, axis=1),
                    np.linalg.norm(wtx - f[:, None] * y, axis=1))
    eye = np.eye(w.shape[0])
    px = eye - x[:, :, None] * x[:, None, :]
    py = eye - y[:, :, None] * y[:, None, :]
    s = np.linalg.svd(px @ w @ py, compute_uv=False)
    return f, grad, s


@dataclass(frozen=True)
class BilinearMaxima:
    """Local maxima of ``⟨x, W y⟩`` on ``S^{d−1} × S^{d−1}`` found by :func:`bilinear_maxima`.

    Parameters
    ----------
    x, y : ndarray ``(k, d)``
        The distinct maxima found (``(x_i, y_i)``; a point and its antipode ``(−x, −y)`` are
        both maxima).
    value : ndarray ``(k,)``
        ``⟨x_i, W y_i⟩``.
    gradient : ndarray ``(k,)``
        Norm of the Riemannian gradient there.
    hessian_top : ndarray ``(k,)``
        Largest eigenvalue of the Riemannian Hessian there, ``−f + s_1``.
    flat_dims : ndarray ``(k,)``
        Hessian eigenvalues within the tolerance of 0: the dimension ``m − 1`` of the set of
        maxima through the point (``m`` the multiplicity of the top singular value; 0 for a
        strict maximum).
    norm : float
        ``‖W‖₂``, the value of every local maximum.
    converged : int
        Starts whose ascent met the tolerance before the iteration limit.
    starts : int
        Starts tried.

    Examples
    --------
    >>> maxima = bilinear_maxima(np.diag([2.0, 1.0]), rng=0)
    >>> len(maxima.x), maxima.value.round(9).tolist(), maxima.strict.tolist()
    (2, [2.0, 2.0], [True, True])
    """

    x: np.ndarray
    y: np.ndarray
    value: np.ndarray
    gradient: np.ndarray
    hessian_top: np.ndarray
    flat_dims: np.ndarray
    norm: float
    converged: int
    starts: int

    @property
    def tolerance(self) -> float:
        """The tolerance of the tests below, ``RTOL · max(‖W‖₂, 1)``."""
        return RTOL * max(self.norm, 1.0)

    @property
    def is_local_max(self) -> np.ndarray:
        """Per maximum: gradient 0 and Hessian negative semi-definite, within :attr:`tolerance`."""
        return (self.gradient <= self.tolerance) & (self.hessian_top <= self.tolerance)

    @property
    def strict(self) -> np.ndarray:
        """Per maximum: no flat direction (``flat_dims == 0``), a strict local maximum."""
        return self.is_local_max & (self.flat_dims == 0)

    @property
    def pairing_gap(self) -> float:
        """``max_{i,k} |‖x_i − x_k‖ − ‖y_i − y_k‖|``: 0 when ``y ↦ x`` is an isometry on the
        maxima found, so that they pair ``x`` and ``y`` injectively."""
        dx = np.linalg.norm(self.x[:, None] - self.x[None], axis=-1)
        dy = np.linalg.norm(self.y[:, None] - self.y[None], axis=-1)
        return float(np.abs(dx - dy).max(initial=0.0))

    @property
    def pairs_injectively(self) -> bool:
        """Whether the maxima pair ``x`` and ``y`` one to one (:attr:`pairing_gap` ≤ 1e-6:
        two maxima with one ``x`` have one ``y``, and back)."""
        return self.pairing_gap <= 1e-6


def bilinear_maxima(w, rng=None, *, starts: int = 64, max_iter: int = 10_000) -> BilinearMaxima:
    r"""The local maxima of ``⟨x, W y⟩`` on ``S^{d−1} × S^{d−1}``: multi-start ascent, then a
    Hessian check.

    Each start ``(x, y)`` (uniform on the spheres) climbs by alternating exact maximization
    over one factor, ``y ← Wᵀx/‖Wᵀx‖``, ``x ← W y/‖W y‖`` — a Riemannian ascent whose every
    step is the best move on its sphere, so the value never decreases — until a step moves
    less than ``1e-13``. The end points are checked as maxima from their Riemannian gradient
    and Hessian (:class:`BilinearMaxima`), and duplicates (within ``1e-6``) merged. With a
    simple top singular value the ascent converges like ``(σ_2/σ_1)^{2t}`` to ``±(u_1, v_1)``;
    with ``σ_1`` of multiplicity ``m`` each start stops at a different point of the
    ``(m − 1)``-sphere of maxima.

    Parameters
    ----------
    w : array ``(d, d)``
        The bilinear weight's matrix, ``d ≥ 2``.
    rng : Generator or int, optional
        For the starts.
    starts : int
        Number of starts.
    max_iter : int
        Iteration limit per start.

    Returns
    -------
    BilinearMaxima

    Raises
    ------
    TypeError
        ``w`` is not a real matrix, ``rng`` not a seed or Generator, or ``starts``,
        ``max_iter`` not integers.
    HeadError
        ``w`` is not square of size at least 2, holds NaN or infinity, or is zero (constant:
        no point is a maximum that is not constant nearby).
    TheoremError
        ``starts`` or ``max_iter`` is below 1, or ``rng`` a negative seed.

    Examples
    --------
    Two edges in one weight, ``W = e_0 e_1ᵀ + e_2 e_3ᵀ``: every maximum has value 1 and one
    flat direction (the maxima form a circle through ``(e_0, e_1)`` and ``(e_2, e_3)``), and
    ``x`` and ``y`` pair one to one:

    >>> w = np.zeros((4, 4)); w[0, 1] = w[2, 3] = 1.0
    >>> maxima = bilinear_maxima(w, rng=0, starts=8)
    >>> sorted(set(maxima.value.round(9).tolist())), sorted(set(maxima.flat_dims.tolist()))
    ([1.0], [1])
    >>> maxima.pairs_injectively, bool(maxima.is_local_max.all())
    (True, True)
    """
    w = _as_matrix(w)
    gen = as_generator(rng, error=TheoremError)
    starts = as_positive_integer(starts, "starts", error=TheoremError)
    max_iter = as_positive_integer(max_iter, "max_iter", error=TheoremError)
    norm = float(np.linalg.norm(w, 2))
    if norm == 0.0:
        raise HeadError("W is zero: ⟨x, W y⟩ is constant and has no maximum that is not "
                        "constant nearby; give a non-zero matrix")
    d = w.shape[0]
    x = gen.standard_normal((starts, d))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    y = x @ w
    y /= np.linalg.norm(y, axis=1, keepdims=True)
    moving = np.ones(starts, dtype=bool)
    for _ in range(max_iter):
        x_new = y @ w.T
        x_new /= np.linalg.norm(x_new, axis=1, keepdims=True)
        y_new = x_new @ w
        y_new /= np.linalg.norm(y_new, axis=1, keepdims=True)
        step = np.linalg.norm(x_new - x, axis=1) + np.linalg.norm(y_new - y, axis=1)
        x, y = x_new, y_new
        moving = step > 1e-13
        if not moving.any():
            break
    keep = []
    for i in range(starts):      # merge duplicates: k ≤ starts points, O(k²) comparisons
        if all(np.linalg.norm(x[i] - x[k]) + np.linalg.norm(y[i] - y[k]) > 1e-6 for k in keep):
            keep.append(i)
    x, y = x[keep], y[keep]
    f, grad, s = _tangent_spectrum(w, x, y)
    tol = RTOL * max(norm, 1.0)
    return BilinearMaxima(x, y, f, grad, s[:, 0] - f, (s >= f[:, None] - tol).sum(axis=1),
                          norm, int((~moving).sum()), starts)


def realized_pairs(w, points) -> np.ndarray:
    r"""The vertex pairs ``(a, b)`` whose image ``(α(a), α(b))`` is a local maximum of
    ``⟨x, W y⟩`` on ``S^{d−1} × S^{d−1}``.

    Every local maximum of a bilinear weight is global (module docs), so these are the pairs
    with ``⟨α(a), W α(b)⟩ = ‖W‖₂`` (within :data:`RTOL` relative); loops ``a = b`` are
    included when the embedding makes them maxima. They form a matching — no two share a
    source, no two a target — for points more than ``√(2·RTOL)`` (about ``4.5e-5`` rad) apart:
    closer ones are within the tolerance of each other's value.

    Parameters
    ----------
    w : array ``(d, d)``
        Non-zero.
    points : array ``(N, d)``
        Unit vectors ``α(v)``.

    Returns
    -------
    numpy.ndarray
        ``(k, 2)`` int array of pairs, sorted.

    Raises
    ------
    TypeError
        ``w`` or ``points`` is not real.
    HeadError
        ``w`` is not square of size at least 2, is zero, or holds NaN or infinity;
        ``points`` are not unit vectors of ``R^d``.

    Examples
    --------
    >>> w = np.zeros((3, 3)); w[0, 1] = w[0, 2] = 1.0     # two edges with source 0
    >>> realized_pairs(w, np.eye(3)).tolist()             # the maximum is (e0, (e1 + e2)/√2)
    []
    >>> w[0, 2] = 0.0
    >>> realized_pairs(w, np.eye(3)).tolist()
    [[0, 1]]
    """
    w = _as_matrix(w)
    pts = _unit_rows(points, w.shape[0])
    norm = float(np.linalg.norm(w, 2))
    if norm == 0.0:
        raise HeadError("W is zero: ⟨x, W y⟩ is constant and realizes no pair; give a non-zero "
                        "matrix")
    values = pts @ w @ pts.T
    return np.argwhere(values >= norm * (1 - RTOL))


def bilinear_weight(edges, points) -> np.ndarray:
    r"""The bilinear weight ``W`` whose maxima pass through the images of ``edges``: one
    matching, on any embedding, or the reason there is none.

    For edges ``(a_i, b_i)`` with ``A = [α(a_i)]`` and ``B = [α(b_i)]`` (``d × m``), the maxima
    of ``⟨x, W y⟩`` contain every ``(α(a_i), α(b_i))`` exactly when ``W B = σ A`` and
    ``Wᵀ A = σ B`` with ``σ = ‖W‖₂`` (module docs), which needs ``Aᵀ A = Bᵀ B`` (``W/σ`` is an
    isometry from ``span B`` onto ``span A``). Then ``W = A G⁺ Bᵀ`` (``G`` the common Gram
    matrix) is a partial isometry, of norm 1, that does it. On orthonormal tokens
    ``W = Σ_i x_{a_i} x_{b_i}ᵀ``.

    Parameters
    ----------
    edges : array ``(m, 2)``
        Pairs ``(a, b)``, ``m ≥ 1``: a matching.
    points : array ``(N, d)``
        Unit vectors ``α(v)``, ``d ≥ 2``.

    Returns
    -------
    numpy.ndarray
        ``(d, d)``, ``‖W‖₂ = 1``, with ``⟨α(a_i), W α(b_i)⟩ = 1``.

    Raises
    ------
    TypeError
        ``edges`` or ``points`` is not an array of the right kind.
    InvalidColoringError
        Two edges share a source or a target (no bilinear weight realizes both).
    HeadError
        ``points`` are not unit vectors, an edge is a loop or has a vertex out of range,
        there are no edges, or the Gram matrices of the sources' and targets' images differ
        (the message names two edges whose inner products disagree).

    Examples
    --------
    >>> pts = np.eye(4)
    >>> w = bilinear_weight([(0, 1), (2, 3)], pts)
    >>> (pts @ w @ pts.T).astype(int).tolist()
    [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]]
    >>> tilted = np.array([[1.0, 0, 0], [0, 1, 0], [0.6, 0.8, 0], [0, 0, 1]])
    >>> bilinear_weight([(0, 1), (2, 3)], tilted)
    Traceback (most recent call last):
        ...
    theorem.errors.HeadError: edges (0, 1) and (2, 3) cannot share a bilinear weight on this embedding: ⟨α(0), α(2)⟩ = 0.6 but ⟨α(1), α(3)⟩ = 0 (on its maxima a bilinear weight maps the targets' images isometrically onto the sources'); give them different weights
    """
    arr = np.asarray(points)
    if arr.ndim != 2:
        raise HeadError(f"points has shape {arr.shape}; give one unit vector a row, (N, d)")
    pts = _unit_rows(arr, arr.shape[1])
    e = np.asarray(edges)
    if e.size == 0:
        raise HeadError("no edges: a bilinear weight is built for at least one edge")
    if not np.issubdtype(e.dtype, np.integer) or e.ndim != 2 or e.shape[1] != 2:
        raise TypeError(f"edges must be integer pairs (m, 2), got {e.dtype} of shape {e.shape}")
    n = len(pts)
    if e.min() < 0 or e.max() >= n:
        raise HeadError(f"an edge has a vertex outside 0..{n - 1}")
    if (e[:, 0] == e[:, 1]).any():
        raise HeadError("an edge is a loop; attention digraphs are loopless")
    for side, name in ((0, "source"), (1, "target")):
        values, counts = np.unique(e[:, side], return_counts=True)
        if (counts > 1).any():
            v = int(values[counts > 1][0])
            raise InvalidColoringError(
                f"two edges share the {name} {v}: the maxima of a bilinear weight form a "
                "matching, so no weight realizes both; give them different weights")
    a, b = pts[e[:, 0]], pts[e[:, 1]]                       # (m, d)
    ga, gb = a @ a.T, b @ b.T
    gap = np.abs(ga - gb)
    if gap.max() > RTOL:
        i, k = np.unravel_index(np.argmax(gap), gap.shape)
        raise HeadError(
            f"edges {tuple(e[i].tolist())} and {tuple(e[k].tolist())} cannot share a bilinear "
            f"weight on this embedding: ⟨α({e[i, 0]}), α({e[k, 0]})⟩ = {ga[i, k]:.6g} but "
            f"⟨α({e[i, 1]}), α({e[k, 1]})⟩ = {gb[i, k]:.6g} (on its maxima a bilinear weight "
            "maps the targets' images isometrically onto the sources'); give them different "
            "weights")
    return a.T @ np.linalg.pinv((ga + gb) / 2, hermitian=True) @ b


def _geodesic(base: np.ndarray, v: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """``exp_base(t v)`` on the sphere for tangent ``v (S, E, d)`` at ``base (E, d)`` and each
    ``t`` of ``radii``: ``(R, S, E, d)``."""
    speed = np.linalg.norm(v, axis=-1, keepdims=True)
    direction = v / np.where(speed > 0, speed, 1.0)
    angle = radii[:, None, None, None] * speed[None]
    return np.cos(angle) * base + np.sin(angle) * direction[None]


@dataclass(frozen=True, eq=False)
class BilinearCover:
    """Bilinear weights ``β_j(x, y) = ⟨x, W_j y⟩`` on ``S^{d−1}``, each claiming a matching.

    Built by :func:`bilinear_density_cover`, checked by :func:`verify_bilinear_cover`.

    Parameters
    ----------
    digraph : AttentionDigraph
    points : ndarray ``(N, d)``
        The embedding (orthonormal tokens for :func:`bilinear_density_cover`).
    matrices : tuple of ndarray ``(d, d)``
        ``W_j`` per weight: the query map of a head whose key is the identity.
    claims : tuple of ndarray ``(E_j, 2)``
        The edges each weight claims (a color class of an edge coloring).
    label : str
        What was built.

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite
    >>> cover = bilinear_density_cover(complete_bipartite(3, 4), 7)
    >>> cover.n_weights, cover.ranks, cover.n_parameters        # χ' = 4 weights of d² entries
    (4, (3, 3, 3, 3), 196)
    """

    digraph: AttentionDigraph
    points: np.ndarray
    matrices: tuple
    claims: tuple
    label: str = "K = I: one bilinear weight per color of a König edge coloring"

    def __post_init__(self):
        check_digraph(self.digraph)
        points = np.asarray(self.points)
        if points.ndim != 2 or len(points) != self.digraph.n:
            raise HeadError(f"points has shape {points.shape}; give one unit vector of R^d per "
                            f"vertex ({self.digraph.n})")
        points = _unit_rows(points, points.shape[1])
        matrices = tuple(_as_matrix(w, f"matrices[{j}]") for j, w in enumerate(self.matrices))
        if any(w.shape[0] != points.shape[1] for w in matrices):
            raise HeadError(f"every W_j must be {points.shape[1]}×{points.shape[1]}, the size of "
                            "the points")
        if len(self.claims) != len(matrices):
            raise HeadError(f"{len(matrices)} weights but {len(self.claims)} claims; give one "
                            "array of claimed edges per weight")
        claims = []
        for j, c in enumerate(self.claims):
            arr = np.asarray(c)
            if arr.size == 0:
                arr = np.zeros((0, 2), dtype=np.int64)
            if not np.issubdtype(arr.dtype, np.integer) or arr.ndim != 2 or arr.shape[1] != 2:
                raise TypeError(f"claims[{j}] must be integer pairs (E_j, 2), got {arr.dtype} "
                                f"of shape {arr.shape}")
            if len(arr) and (arr.min() < 0 or arr.max() >= self.digraph.n):
                raise HeadError(f"claims[{j}] has a vertex outside 0..{self.digraph.n - 1}")
            claims.append(arr.astype(np.int64))
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "matrices", matrices)
        object.__setattr__(self, "claims", tuple(claims))

    @property
    def d(self) -> int:
        """Token dimension ``d`` (the weights live on ``S^{d−1} × S^{d−1}``)."""
        return self.points.shape[1]

    @property
    def n_weights(self) -> int:
        """Number of weights (heads)."""
        return len(self.matrices)

    @property
    def ranks(self) -> tuple[int, ...]:
        """Number of edges each weight claims: the rank of ``W_j`` on orthonormal tokens."""
        return tuple(len(c) for c in self.claims)

    @property
    def n_parameters(self) -> int:
        """Entries of the query maps, ``d²`` per weight (the key is the identity)."""
        return self.n_weights * self.d ** 2


def bilinear_density_cover(digraph: AttentionDigraph, d: int, *, rng=None) -> BilinearCover:
    r"""The ``K = I`` density cover: one bilinear weight per color of a König edge coloring.

    The edges are colored with ``χ' = max(Δ⁺, Δ⁻)`` colors
    (:func:`~theorem.invariants.chromatic_index`, König's theorem); each color class is a
    matching, and on orthonormal tokens ``x_v`` its weight ``W_j = Σ_{(a,b) of color j}
    x_a x_bᵀ`` (:func:`bilinear_weight`) has ``⟨x_a, W_j x_b⟩`` equal to 1 on its edges, 0 at
    every other vertex pair, and ``‖W_j‖₂ = 1``, so each of its edges is a (global, hence
    local) maximum: the paper's strength. No cover by bilinear weights has fewer than ``χ'``
    weights, on any embedding: each realizes a matching (:func:`realized_pairs`). A weight
    with ``k ≥ 2`` edges has a ``(k − 1)``-sphere of maxima, none strict, so the cover is
    exact only where every color class has one edge.

    Parameters
    ----------
    digraph : AttentionDigraph
    d : int
        Token dimension, ``d ≥ N``.
    rng : Generator or int, optional
        Random orthonormal tokens; ``None``: the standard basis.

    Returns
    -------
    BilinearCover
        ``χ'`` weights.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``d`` not an integer.
    HeadError
        ``d < N``.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> cover = bilinear_density_cover(transitive_tournament(3), 3)
    >>> cover.n_weights, [c.tolist() for c in cover.claims]
    (2, [[[0, 1], [1, 2]], [[0, 2]]])
    """
    check_digraph(digraph)
    d = _check_dimension(digraph, d)
    points = orthonormal_tokens(digraph.n, d, rng=rng)
    colors = chromatic_index(digraph).witness
    claims = tuple(digraph.edges[colors == c] for c in range(int(colors.max(initial=-1)) + 1))
    return BilinearCover(digraph, points, tuple(bilinear_weight(c, points) for c in claims), claims)


def verify_bilinear_cover(cover: BilinearCover, rng=None, *, n_directions: int = 32
                          ) -> VerificationReport:
    r"""Verify a bilinear cover at the paper's strength, exactly, and for rank.

    The same three strengths as :func:`~theorem.covers.verify_density_cover`
    (docs/conventions.md#density-covers), with the proofs a bilinear weight allows; one SVD
    of each ``W_j`` gives its norm and its top multiplicity ``m_j``:

    * **paper's definition**: each weight claims only edges of the digraph, and together
      they claim every edge; each claimed edge ``(a, b)`` of weight ``j`` is a local maximum
      of ``β_j`` — certified by ``β_j(α(a), α(b)) = ‖W_j‖₂``, the global maximum — and
      ``β_j`` is not constant nearby (``W_j ≠ 0``); sampled geodesic perturbations of both
      points (radii ``0.01 … 0.3``) never increase it beyond rounding.
    * **exact**: ``β_j`` at every vertex pair is the indicator of its edges,
      ``|β_j| ≤ ‖W_j‖₂ ≤ 1`` everywhere (a bilinear weight is odd in each argument, so the
      kernel covers' ``0 ≤ β_j`` becomes ``−1 ≤ β_j``), and its maxima are strict: ``m_j = 1``.
      A weight whose maxima pass through ``m ≥ 2`` edges of orthonormal tokens has
      ``m_j ≥ 2``: its maxima form a great ``(m_j − 1)``-sphere, and this row fails.
    * **rank**: ``rank W_j`` equals the number of edges it claims.

    Parameters
    ----------
    cover : BilinearCover
    rng : Generator or int, optional
        For the sampled perturbations.
    n_directions : int
        Perturbation directions per radius.

    Returns
    -------
    VerificationReport

    Raises
    ------
    TypeError
        ``cover`` is not a :class:`BilinearCover`, ``rng`` not a seed or Generator, or
        ``n_directions`` not an integer.
    TheoremError
        ``n_directions`` is below 1, or ``rng`` a negative seed.

    Examples
    --------
    ``K3,4``'s ``K = I`` cover: four weights of three edges each pass the paper's strength,
    but none has strict maxima:

    >>> from theorem.digraphs import complete_bipartite
    >>> report = verify_bilinear_cover(bilinear_density_cover(complete_bipartite(3, 4), 7), rng=0)
    >>> report.paper_passed, report.exact_passed, report.rank_passed, report.edges_verified
    (True, False, True, 12)
    >>> sorted({c.name for c in report.failures()})[0]
    'maxima of β_0 strict (simple top singular value)'
    """
    if not isinstance(cover, BilinearCover):
        raise TypeError(f"cover must be a BilinearCover, not {type(cover).__name__}; build one "
                        "with bilinear_density_cover")
    gen = as_generator(rng, error=TheoremError)
    n_directions = as_positive_integer(n_directions, "n_directions", error=TheoremError)
    points, d = cover.points, cover.d
    adjacency = cover.digraph.adjacency.astype(bool)
    paper, exact, rank = [], [], []
    passed, margins = set(), []
    radii = np.array([0.01, 0.03, 0.1, 0.3])
    floor = 16 * np.finfo(float).eps
    for j, (w, edges) in enumerate(zip(cover.matrices, cover.claims)):
        sv = np.linalg.svd(w, compute_uv=False)
        norm = float(sv[0])
        tol = RTOL * max(norm, 1.0)
        paper.append(Check(f"β_{j} not constant (‖W_{j}‖₂ > 0)", norm, 0.0, ">"))
        if len(edges):
            x, y = points[edges[:, 0]], points[edges[:, 1]]
            f = np.einsum("ed,df,ef->e", x, w, y)
            # geodesic perturbations of both points, along random unit directions of the product
            u = gen.standard_normal((n_directions, 2, len(edges), d))
            u[:, 0] -= np.einsum("sed,ed->se", u[:, 0], x)[..., None] * x
            u[:, 1] -= np.einsum("sed,ed->se", u[:, 1], y)[..., None] * y
            u /= np.linalg.norm(u, axis=(1, 3), keepdims=True)
            sampled = np.einsum("rsed,df,rsef->rse", _geodesic(x, u[:, 0], radii), w,
                                _geodesic(y, u[:, 1], radii))
            rise = (sampled - f).reshape(-1, len(edges)).max(axis=0)
            for e, (a, b) in enumerate(edges.tolist()):
                top = Check(f"edge ({a}, {b}): maximum of β_{j} (value = ‖W_{j}‖₂)", norm - f[e],
                            tol, "<=", f"value {f[e]:.6g}, ‖W‖₂ {norm:.6g}")
                sampled_ok = Check(f"edge ({a}, {b}): no sampled perturbation increases β_{j}",
                                   rise[e], floor * max(norm, 1.0), "<=",
                                   f"{len(radii) * n_directions} perturbations")
                paper += [top, sampled_ok]
                margins.append(top.margin)
                if top.passed and sampled_ok.passed and norm > 0 and adjacency[a, b]:
                    passed.add((a, b))
        values = points @ w @ points.T
        target = np.zeros_like(values)
        if len(edges):
            target[edges[:, 0], edges[:, 1]] = 1.0
        gap = np.abs(values - target)
        a, b = np.unravel_index(np.argmax(gap), gap.shape)
        multiplicity = int((sv >= norm - tol).sum()) if norm > 0 else d
        exact += [
            Check(f"β_{j} at vertex pairs = indicator of its edges", gap[a, b], 1e-12, "<=",
                  f"pair ({a}, {b}): β = {values[a, b]:.6g}, expected {target[a, b]:g}"),
            Check(f"|β_{j}| ≤ ‖W_{j}‖₂ ≤ 1 everywhere", norm, 1 + 1e-12, "<="),
            Check(f"maxima of β_{j} strict (simple top singular value)", multiplicity - 1, 0, "<=",
                  f"the maxima form a great {multiplicity - 1}-sphere" if multiplicity > 1 else ""),
        ]
        measured = int((sv > sv[0] * d * np.finfo(float).eps).sum()) if norm > 0 else 0
        rank.append(Check(f"rank of W_{j} = its {len(edges)} edges", abs(measured - len(edges)), 0,
                          "<=", f"numerical rank {measured}"))
    paper += claim_checks(cover.digraph, cover.claims)
    title = f"{cover.label} on S^{d - 1}"
    return VerificationReport(Report(f"{title}: paper's definition", paper),
                              Report(f"{title}: exact", exact), Report(f"{title}: rank", rank),
                              len(passed), float(min(margins)) if margins else float("inf"))
