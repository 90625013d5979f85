"""Admissible embeddings ``α: V → M``: injective, with pairwise distances ``> r0``.

Building one that is as spread out as possible is a packing problem (spherical codes,
line and subspace packings). :func:`admissible_embedding` solves it in two stages:

1. *Repulsion*: projected gradient descent of the Riesz energy ``Σ |x_i − x_j|^{−s}`` in the
   ambient space (chord, or Frobenius distance of projectors) for growing ``s``, from
   several random starts at once (batched).
2. *Max-min polish*: sequential linear programming on the geodesic distance itself. At the
   current points, maximize ``t`` subject to ``d_ij + ⟨∇d_ij, ξ⟩ ≥ t`` for the pairs that can
   become closest, over tangent steps ``ξ`` (coordinates in :meth:`tangent_basis`) in a
   trust region; the step is mapped by ``exp`` and kept only if the true minimum distance
   grows. ``∇_{x_i} d(x_i, x_j) = −log_{x_i}(x_j) / d_ij``. On projector spaces a pair with a
   principal angle ``π/2`` (the cut locus) is joined by several shortest geodesics, and
   ``d`` is the minimum of their lengths, not differentiable there: each of these branches
   is a constraint of its own (:func:`_branches`). All starts are polished together, their
   independent linear programs solved as blocks of one.

Pairwise computations (distances, the separation, repulsion forces) go by blocks of rows:
peak memory is the result plus a few MiB, never ``N × N`` arrays of points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse
from scipy.optimize import linprog

from ._checks import as_points
from .validation import as_count, as_generator, as_nonnegative
from .errors import NotAdmissibleError, ShapeError
from .space import Space

__all__ = ["Embedding", "admissible_embedding", "check_admissible", "pairwise_distances"]


@dataclass(frozen=True, eq=False)
class Embedding:
    """An embedding ``α: V → M``: points of a space indexed by vertices ``0..N−1``, with
    their separation.

    Made by :func:`admissible_embedding` and :func:`check_admissible` (which validate the
    points and compute ``separation`` and ``closest_pair``); the fields are not checked
    here. Admissibility: docs/conventions.md#admissible-embeddings-and-radii.

    Parameters
    ----------
    points : ndarray, shape (N, *space.ambient_shape)
        ``points[a]`` is ``α(a)``.
    separation : float
        Least pairwise distance (``inf`` for fewer than two points): the embedding is
        admissible for every ``r0 < separation``.
    closest_pair : tuple of int
        A pair of vertices at distance ``separation`` (``(-1, -1)`` for fewer than two points);
        where several pairs tie (symmetric configurations), which one is named depends on the
        last bits of their computed distances.
    space : Sphere, ProjectiveSpace or Grassmannian

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> emb = check_admissible(np.eye(3), Sphere(2))   # three exactly orthogonal points
    >>> emb.n_points, emb.closest_pair, emb.separation == np.pi / 2
    (3, (0, 1), True)
    """

    points: np.ndarray
    separation: float
    closest_pair: tuple[int, int]
    space: Space

    @property
    def n_points(self) -> int:
        """The number of vertices ``N``."""
        return int(self.points.shape[0])

    def is_admissible(self, r0: float) -> bool:
        """Whether the embedding is admissible for ``r0``: all pairwise distances exceed it.

        Parameters
        ----------
        r0 : float
            ``≥ 0``.

        Returns
        -------
        bool
            ``separation > r0``.

        Raises
        ------
        TypeError
            ``r0`` is not a real number.
        ParameterError
            ``r0`` is negative or not finite.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> emb = check_admissible(np.eye(3), Sphere(2))   # separation π/2
        >>> emb.is_admissible(1.0), emb.is_admissible(2.0)
        (True, False)
        """
        return self.separation > _as_r0(r0)


def _as_r0(r0) -> float:
    return as_nonnegative(r0, "r0")


def _pairs(n: int):
    return np.triu_indices(n, 1)


#: How many ``pair × point-coordinate`` entries one block of a pairwise computation holds:
#: its temporaries are a few arrays of at most this many floats (8 MiB each), so peak memory
#: is the result (if any) plus a constant, whatever the number of points.
_BLOCK_ENTRIES = 1 << 20


def _row_block(space: Space, n: int) -> int:
    """Rows per block for pairwise computations over ``n`` points."""
    return max(1, _BLOCK_ENTRIES // max(1, n * int(np.prod(space.ambient_shape))))


def _distance_blocks(space: Space, x: np.ndarray):
    """Yield ``(a, d)`` for consecutive blocks of rows: ``d[r, c] = d(x[a + r], x[a + c])``.

    Only the entries with ``c > r`` (the upper triangle) are used by the callers. Every
    caller walks the same blocks, so one pair gets the same bits in :func:`pairwise_distances`
    and in an :class:`Embedding`'s ``separation``.
    """
    n = len(x)
    rows = _row_block(space, n)
    for a in range(0, n - 1, rows):
        yield a, space._dist(x[a:a + rows, None], x[None, a:])


def _closest_pair(space: Space, x: np.ndarray) -> tuple[float, tuple[int, int]]:
    """Least pairwise distance and the first pair (row-major over ``i < j``) that has it,
    block by block: no ``N × N`` array."""
    best, pair = np.inf, (-1, -1)
    for a, d in _distance_blocks(space, x):
        d[np.tri(*d.shape, dtype=bool)] = np.inf  # c ≤ r: the diagonal and lower triangle
        at = int(np.argmin(d))
        if d.flat[at] < best:
            r, c = divmod(at, d.shape[1])
            best, pair = float(d.flat[at]), (a + r, a + c)
    return best, pair


def pairwise_distances(space: Space, points) -> np.ndarray:
    """Matrix of geodesic distances ``d(x_i, x_j)`` between the points of an embedding.

    Computed by blocks of rows, each pair once (the matrix is exactly symmetric): peak memory
    is the ``N × N`` result plus a few MiB.

    Parameters
    ----------
    space : Sphere, ProjectiveSpace or Grassmannian
    points : array_like, shape (N, *space.ambient_shape)
        One point per vertex (a single batch axis).

    Returns
    -------
    ndarray, shape (N, N)
        Symmetric, with zero diagonal.

    Raises
    ------
    TypeError, ShapeError, NonFiniteError, NotOnManifoldError
        As in :meth:`Space.check_points`; ``ShapeError`` also when ``points`` has other than
        one batch axis.

    Examples
    --------
    >>> from manifolds import Sphere
    >>> import numpy as np
    >>> D = pairwise_distances(Sphere(2), np.eye(3))
    >>> bool(np.allclose(D, (np.pi / 2) * (1 - np.eye(3))))
    True
    """
    x = _as_vertex_points(space, points)
    n = len(x)
    out = np.zeros((n, n))
    for a, d in _distance_blocks(space, x):
        b = a + len(d)
        square = np.triu(d[:, : b - a], 1)
        out[a:b, a:b] = square + square.T
        out[a:b, b:] = d[:, b - a:]
        out[b:, a:b] = d[:, b - a:].T
    return out


def _as_vertex_points(space: Space, points) -> np.ndarray:
    x = as_points(space, points, "points")
    if x.ndim != len(space.ambient_shape) + 1:
        raise ShapeError(
            f"points has shape {x.shape}; an embedding is one point per vertex, shape "
            f"(N, {', '.join(map(str, space.ambient_shape))})"
        )
    return x


def _embedding(space: Space, x: np.ndarray) -> Embedding:
    separation, pair = _closest_pair(space, x)
    return Embedding(x, separation, pair, space)


def check_admissible(points, space: Space, r0: float = 0.0) -> Embedding:
    """Validate a user embedding: on ``space``, injective, pairwise distances ``> r0``.

    The separation is a minimum taken block by block, with no ``N × N`` array: memory stays
    a few MiB for any number of points.

    Parameters
    ----------
    points : array_like, shape (N, *space.ambient_shape)
        One point per vertex (a single batch axis).
    space : Sphere, ProjectiveSpace or Grassmannian
    r0 : float, optional
        ``≥ 0``; the default ``0`` checks injectivity only.

    Returns
    -------
    Embedding
        With its ``separation`` and ``closest_pair``.

    Raises
    ------
    NotAdmissibleError
        Two vertices coincide or are not more than ``r0`` apart (the closest pair is named).
    TypeError, ShapeError, NonFiniteError, NotOnManifoldError
        As in :meth:`Space.check_points`; ``ShapeError`` also when ``points`` has other than
        one batch axis.
    ParameterError
        ``r0`` is negative or not finite.

    Examples
    --------
    >>> from manifolds import Sphere
    >>> import numpy as np
    >>> check_admissible(np.eye(3), Sphere(2), r0=1.0).separation == np.pi / 2  # exact
    True
    >>> points = np.array([[1.0, 0, 0], [0, 1.0, 0], [0.6, 0.8, 0]])  # one closest pair
    >>> check_admissible(points, Sphere(2), r0=1.0)
    Traceback (most recent call last):
    ...
    manifolds.errors.NotAdmissibleError: vertices 1 and 2 are 0.6435 apart, not above r0 = 1; lower r0 or spread the embedding
    """
    r0 = _as_r0(r0)
    emb = _embedding(space, _as_vertex_points(space, points))
    if emb.separation <= r0:
        a, b = emb.closest_pair
        what = "coincide" if emb.separation == 0 else f"are {emb.separation:.4g} apart"
        raise NotAdmissibleError(
            f"vertices {a} and {b} {what}, not above r0 = {r0:g}; lower r0 or spread the "
            "embedding"
        )
    return emb


#: Problems with ``N · dim`` up to this are polished by linear programming (stage 2); larger
#: ones, where each LP takes seconds, keep the repulsion result.
_POLISH_SIZE = 600
#: Up to this ``N · dim`` the starts include plain random ones (``admissible_embedding``).
_RANDOM_SIZE = 48
#: Iterations of the brief polish that ranks the starts.
_QUICK_ITER = 15
#: Independent configurations share a linear program of up to about this many variables;
#: HiGHS' dual simplex solves them, its interior-point method (faster there) configurations
#: of more than ``_IPM_ABOVE`` variables.
_LP_VARIABLES = 1000
_IPM_ABOVE = 300


# -- stage 1: repulsion ----------------------------------------------------------------------
def _squared_chords(f: np.ndarray, sq: np.ndarray, rows: int):
    """Yield ``(a, b, d2)``: squared ambient distances ``d2[:, r, c] = |f_{a+r} − f_c|²`` of a
    batch ``f`` of shape ``(R, N, D)`` (``sq`` its squared norms), the diagonal set to ``inf``,
    by blocks of ``rows`` rows (Gram matrices: no ``N × N × D`` differences)."""
    n = f.shape[1]
    for a in range(0, n, rows):
        b = min(a + rows, n)
        d2 = sq[:, a:b, None] + sq[:, None, :] - 2.0 * (f[:, a:b] @ np.swapaxes(f, 1, 2))
        np.maximum(d2, 1e-300, out=d2)
        k = np.arange(b - a)
        d2[:, k, a + k] = np.inf
        yield a, b, d2


def _repel(space: Space, x: np.ndarray) -> np.ndarray:
    """Riesz-energy descent for a batch of configurations ``x`` of shape ``(R, N, *amb)``.

    The force on ``x_i`` is ``Σ_j (c/|x_i − x_j|²)^{s/2+1} (x_i − x_j)``, projected on the
    tangent space; the step moves the point with the largest force by ``η`` times the least
    distance. ``c`` (the previous step's least squared distance) keeps the weights in range and
    cancels in the step. Computed by blocks of rows from Gram matrices.
    """
    r, n = x.shape[:2]
    rows = max(1, _BLOCK_ENTRIES // max(1, r * n))
    norm2 = None
    for s, steps, eta in ((2.0, 60, 0.2), (8.0, 60, 0.1), (32.0, 80, 0.05), (128.0, 80, 0.02)):
        for step in range(steps):
            f = x.reshape(r, n, -1)
            sq = np.einsum("rnk,rnk->rn", f, f)
            if norm2 is None:
                norm2 = np.full(r, np.inf)
                for _, _, d2 in _squared_chords(f, sq, rows):
                    norm2 = np.minimum(norm2, d2.min(axis=(1, 2)))
            dmin2 = np.full(r, np.inf)
            force = np.empty_like(f)
            for a, b, d2 in _squared_chords(f, sq, rows):
                dmin2 = np.minimum(dmin2, d2.min(axis=(1, 2)))
                weight = (norm2[:, None, None] / d2) ** (s / 2 + 1)
                force[:, a:b] = weight.sum(axis=2)[..., None] * f[:, a:b] - weight @ f
            norm2 = dmin2
            force = space.to_tangent(force.reshape(x.shape), x)
            fflat = force.reshape(r, n, -1)
            fnorm = np.sqrt(np.einsum("rnk,rnk->rn", fflat, fflat)).max(axis=1)
            scale = eta * (1 - step / steps) * np.sqrt(dmin2) / np.maximum(fnorm, 1e-300)
            x = space.projection(x + scale.reshape((r,) + (1,) * (x.ndim - 1)) * force)
    return x


# -- stage 2: max-min polish by sequential linear programming ------------------------------
def _branches(space: Space, x: np.ndarray, frames, r, i, j, d, limit):
    """Linearizations of the distance between ``x[r, i]`` and ``x[r, j]`` (``d`` apart).

    Returns ``(rows, values, vi, vj)``: for each branch, the index of its pair, its length,
    and the initial velocities at ``x[r, i]`` and ``x[r, j]`` of a geodesic of that length
    between the two points (so ``∇_{x_i} length = −vi / length``).

    On spheres one branch per pair, from the logarithms. On projector spaces the distance is
    not differentiable on the cut locus (a principal angle ``π/2``): there it is the minimum
    of the lengths of several geodesics, each smooth, one per choice of the sign of each
    principal vector of ``Q`` (rotating ``u_i`` by ``θ_i`` or by ``θ_i − π``). A single
    linearization, from whichever logarithm rounding picks there, is a wrong model of that
    minimum: the polish stalls at a point that depends on the last bits of the eigenvectors
    (docs/manifolds.md, "Admissible embeddings"). So every branch flipping some of the (at
    most three) largest angles whose length is at most ``limit`` is a constraint too.
    """
    if frames is None:
        vi, _ = space._log(x[r, j], x[r, i])
        vj, _ = space._log(x[r, i], x[r, j])
        return np.arange(len(d)), d, vi, vj
    u, y = frames[r, i], frames[r, j]
    a, c, bt = np.linalg.svd(np.swapaxes(u, -1, -2) @ y)  # cosines c, descending
    ut = u @ a                              # principal vectors of P …
    vt = y @ np.swapaxes(bt, -1, -2)        # … and of Q: vt_i = c_i ut_i + s_i w_i
    resid = vt - ut * c[:, None, :]
    s = np.sqrt(np.einsum("mak,mak->mk", resid, resid))
    theta = np.arctan2(s, c)
    w = np.divide(resid, s[:, None, :], out=np.zeros_like(resid), where=s[:, None, :] > 0)
    z = w * c[:, None, :] - ut * s[:, None, :]  # velocity direction at Q, normal to Q
    k = theta.shape[1]
    top = list(range(k - min(k, 3), k))
    flips = [[t for b, t in enumerate(top) if mask >> b & 1] for mask in range(2 ** len(top))]
    rows, values, vis, vjs = [], [], [], []
    for flip in flips:
        phi = theta.copy()
        if flip:
            length2 = d * d + (np.pi * (np.pi - 2.0 * theta[:, flip])).sum(axis=1)
            length = np.sqrt(np.maximum(length2, 0.0))
            keep = np.flatnonzero(length <= limit)
            phi[:, flip] -= np.pi
        else:
            length, keep = d, np.arange(len(d))
        if not len(keep):
            continue
        p, wk, uk, zk, vk = phi[keep, None, :], w[keep], ut[keep], z[keep], vt[keep]
        vi = (wk * p) @ np.swapaxes(uk, 1, 2)
        vj = (zk * p) @ np.swapaxes(vk, 1, 2)
        rows.append(keep)
        values.append(length[keep])
        vis.append(vi + np.swapaxes(vi, 1, 2))
        vjs.append(-(vj + np.swapaxes(vj, 1, 2)))
    return (np.concatenate(rows), np.concatenate(values), np.concatenate(vis),
            np.concatenate(vjs))


def _lp_steps(n_conf: int, width: int, q, cols_i, cols_j, gi, gj, rhs):
    """Solve the trust-region linear programs of ``n_conf`` configurations.

    Row ``r`` is ``τ_q − gi·η[cols_i] − gj·η[cols_j] ≤ rhs`` for ``q = q[r]``; maximize each
    ``τ`` over ``|η| ≤ 1``. Configurations are independent blocks, solved together in
    programs of at most about ``_LP_VARIABLES`` variables (HiGHS' time grows faster than
    linearly with the size). Returns ``(τ, η)`` of shapes ``(n_conf,)`` and
    ``(n_conf, width − 1)``, or ``None`` where a program fails.
    """
    dim = gi.shape[1]
    out = np.zeros((n_conf, width))
    per_lp = max(1, _LP_VARIABLES // width)
    order = np.argsort(q, kind="stable")
    starts = np.searchsorted(q[order], np.arange(0, n_conf + per_lp, per_lp))
    for c, (lo, hi) in enumerate(zip(starts[:-1], starts[1:])):
        if c * per_lp >= n_conf:
            break
        rows = order[lo:hi]
        blocks = min(per_lp, n_conf - c * per_lp)
        local = (q[rows] - c * per_lp) * width
        m = len(rows)
        cols = np.concatenate([(local + cols_i[rows])[:, None] + np.arange(dim),
                               (local + cols_j[rows])[:, None] + np.arange(dim),
                               (local + width - 1)[:, None]], axis=1).ravel()
        vals = np.concatenate([gi[rows], gj[rows], np.ones((m, 1))], axis=1).ravel()
        a_ub = scipy.sparse.csr_matrix((vals, (np.repeat(np.arange(m), 2 * dim + 1), cols)),
                                       shape=(m, blocks * width))
        cost = np.zeros(blocks * width)
        cost[width - 1::width] = -1.0
        bound = np.tile(np.r_[np.ones(width - 1), np.inf], blocks)
        res = linprog(cost, A_ub=a_ub, b_ub=rhs[rows], bounds=np.stack([-bound, bound], 1),
                      method="highs-ipm" if width > _IPM_ABOVE else "highs-ds")
        if res.status != 0:
            return None
        out[c * per_lp:c * per_lp + blocks] = res.x.reshape(blocks, width)
    return out[:, -1], out[:, :-1]


def _polish(space: Space, x: np.ndarray, *, max_iter: int = 200) -> np.ndarray:
    """Max-min polish of a batch of configurations ``x`` of shape ``(R, N, *amb)``.

    Each iteration solves, for every configuration still improving, the linear program of the
    module docstring in scaled variables ``ξ = ρ η``, ``t = d_min + ρ τ`` with ``|η| ≤ 1``
    (``ρ`` the trust radius), and keeps the step if the true least distance grows.
    """
    x = x.copy()
    n_conf, n = x.shape[:2]
    dim = space.dim
    i, j = _pairs(n)
    d = space._dist(x[:, i], x[:, j])
    dmin = d.min(axis=1)
    radius = 0.01 * dmin
    live = np.ones(n_conf, dtype=bool)
    for _ in range(max_iter):
        conf = np.flatnonzero(live)
        if not len(conf):
            break
        xs, rad, low = x[conf], radius[conf], dmin[conf]
        basis = space.tangent_basis(xs)  # (L, N, dim, *amb)
        frames = space.frame(xs)
        frames = None if frames is None else frames[0]  # bases of the k-planes, (L, N, n, k)
        limit = low + 2.0 * rad * np.sqrt(dim)  # pairs that can become closest in one step
        q, p = np.nonzero(d[conf] <= limit[:, None])
        rows, values, vi, vj = _branches(space, xs, frames, q, i[p], j[p], d[conf][q, p],
                                         limit[q])
        q, ai, aj = q[rows], i[p][rows], j[p][rows]
        gi = space._inner(vi[:, None], basis[q, ai]) / values[:, None]   # −∇_{x_i}, coordinates
        gj = space._inner(vj[:, None], basis[q, aj]) / values[:, None]
        sol = _lp_steps(len(conf), n * dim + 1, q, ai * dim, aj * dim, gi, gj,
                        (values - low[q]) / rad[q])
        if sol is None:
            break
        tau, eta = sol
        predicted = rad * tau
        step = np.einsum("lna,lna...->ln...", (eta * rad[:, None]).reshape(-1, n, dim), basis)
        trial = space._exp(step, xs)
        d_trial = space._dist(trial[:, i], trial[:, j])
        gain = d_trial.min(axis=1) - low
        better = gain > 0
        done = predicted <= 1e-15 * np.maximum(low, 1.0)
        x[conf[better]], d[conf[better]] = trial[better], d_trial[better]
        dmin[conf[better]] = d_trial[better].min(axis=1)
        radius[conf] *= np.where(better, np.where(gain > 0.5 * predicted, 2.0, 1.0), 0.25)
        live[conf[done | (radius[conf] < 1e-13)]] = False
    return x


def admissible_embedding(space: Space, n_points: int, *, r0: float | None = None, rng=None) -> Embedding:
    r"""Spread ``n_points`` points on ``space`` as far apart as possible.

    A packing problem, solved heuristically by the two stages of this module (repulsion,
    then a max-min polish by linear programming): the separation found is a lower bound on
    the best one, and the result is admissible for every ``r0`` below it
    (docs/conventions.md#admissible-embeddings-and-radii). Up to ``N · dim = 600`` the
    best few of many starts are polished to convergence (a local optimum of the max-min
    problem); larger problems keep the best of several repelled starts.

    Parameters
    ----------
    space : Sphere, ProjectiveSpace or Grassmannian
    n_points : int
    r0 : float, optional
        Required separation scale: raises :class:`NotAdmissibleError` if the search cannot
        exceed it.
    rng : numpy.random.Generator or int, optional
        Seed of the random starts. Results are deterministic for a fixed seed on one
        machine; on another (other BLAS kernels, other SIMD) rounding differs in the last
        bits, each start still converges to a local optimum, but which start wins can change
        where several reach different optima (docs/manifolds.md, "Admissible embeddings").

    Returns
    -------
    Embedding
        ``n_points`` points with their ``separation`` (least pairwise geodesic distance) and
        ``closest_pair``.

    Raises
    ------
    NotAdmissibleError
        ``r0`` is given and the search finds no separation above it.
    TypeError, ParameterError
        ``n_points`` is not a non-negative integer, ``r0`` not a finite real ``≥ 0``, or
        ``rng`` of the wrong type (``TypeError``).

    Examples
    --------
    >>> from manifolds import Sphere
    >>> emb = admissible_embedding(Sphere(2), 6, rng=0)   # the octahedron
    >>> abs(emb.separation - 3.141592653589793 / 2) < 1e-9
    True
    """
    n = as_count(n_points, "n_points")
    if r0 is not None:
        r0 = _as_r0(r0)
    gen = as_generator(rng)
    if n < 2:
        emb = _embedding(space, space.random_point(n, rng=gen))
    elif n * space.dim <= _POLISH_SIZE:
        # Small problems: polish 48 plain random starts and 4 repelled ones briefly, then the
        # best 4 to convergence; plain random starts reach more local optima than repelled
        # ones there. Larger ones: rank 16 repelled starts by their separation, polish the
        # best 2; fifteen iterations take a random start nowhere near a local optimum there
        # (docs/manifolds.md, "Admissible embeddings").
        shape = (n,) + space.ambient_shape
        if n * space.dim <= _RANDOM_SIZE:
            starts = np.concatenate([
                space.random_point(48 * n, rng=gen).reshape((48,) + shape),
                _repel(space, space.random_point(4 * n, rng=gen).reshape((4,) + shape)),
            ])
            starts, finalists = _polish(space, starts, max_iter=_QUICK_ITER), 4
        else:
            starts = _repel(space, space.random_point(16 * n, rng=gen).reshape((16,) + shape))
            finalists = 2
        order = np.argsort([-_closest_pair(space, c)[0] for c in starts], kind="stable")
        best = _polish(space, starts[order[:finalists]])
        emb = max((_embedding(space, c) for c in best), key=lambda e: e.separation)
    else:
        restarts = int(np.clip(2000 // n, 2, 8))
        spread = _repel(space, space.random_point(restarts * n, rng=gen).reshape(
            (restarts, n) + space.ambient_shape))
        emb = max((_embedding(space, x) for x in spread), key=lambda e: e.separation)
    if r0 is not None and not emb.separation > r0:
        raise NotAdmissibleError(
            f"found no embedding of {n} points on {space.name} with separation above "
            f"r0 = {r0:g} (best: {emb.separation:.4g}); lower r0, use fewer points or a "
            "larger space"
        )
    return emb
