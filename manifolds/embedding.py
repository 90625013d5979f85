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
   grows. ``∇_{x_i} d(x_i, x_j) = −log_{x_i}(x_j) / d_ij``.
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


def pairwise_distances(space: Space, points) -> np.ndarray:
    """Matrix of geodesic distances ``d(x_i, x_j)`` between the points of an embedding.

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
    i, j = _pairs(len(x))
    out = np.zeros((len(x), len(x)))
    out[i, j] = out[j, i] = space._dist(x[i], x[j])
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
    if len(x) < 2:
        return Embedding(x, float("inf"), (-1, -1), space)
    i, j = _pairs(len(x))
    d = space._dist(x[i], x[j])
    at = int(np.argmin(d))
    return Embedding(x, float(d[at]), (int(i[at]), int(j[at])), space)


def check_admissible(points, space: Space, r0: float = 0.0) -> Embedding:
    """Validate a user embedding: on ``space``, injective, pairwise distances ``> r0``.

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


# -- stage 1: repulsion ----------------------------------------------------------------------
def _repel(space: Space, x: np.ndarray) -> np.ndarray:
    """Riesz-energy descent for a batch of configurations ``x`` of shape ``(R, N, *amb)``."""
    r, n = x.shape[:2]
    flat_shape = (r, n, -1)
    eye = np.eye(n, dtype=bool)
    for s, steps, eta in ((2.0, 60, 0.2), (8.0, 60, 0.1), (32.0, 80, 0.05), (128.0, 80, 0.02)):
        for step in range(steps):
            f = x.reshape(flat_shape)
            diff = f[:, :, None, :] - f[:, None, :, :]
            d2 = np.einsum("...k,...k->...", diff, diff)
            d2[:, eye] = np.inf
            dmin2 = d2.min(axis=(1, 2), keepdims=True)
            weight = (dmin2 / d2) ** (s / 2 + 1)
            force = np.einsum("rij,rijk->rik", weight, diff).reshape(x.shape)
            force = space.to_tangent(force, x)
            fflat = force.reshape(flat_shape)
            fnorm = np.sqrt(np.einsum("rnk,rnk->rn", fflat, fflat)).max(axis=1)
            scale = eta * (1 - step / steps) * np.sqrt(dmin2[:, 0, 0]) / np.maximum(fnorm, 1e-300)
            x = space.projection(x + scale.reshape((r,) + (1,) * (x.ndim - 1)) * force)
    return x


# -- stage 2: max-min polish by sequential linear programming ------------------------------
def _polish(space: Space, x: np.ndarray, *, max_iter: int = 200) -> np.ndarray:
    n, dim = len(x), space.dim
    i, j = _pairs(n)
    d = space._dist(x[i], x[j])
    radius = 0.01 * d.min()
    for _ in range(max_iter):
        dmin = d.min()
        reach = 2.0 * radius * np.sqrt(dim)
        act = np.flatnonzero(d <= dmin + reach)
        ai, aj, ad = i[act], j[act], d[act]
        basis = space.tangent_basis(x)
        # unchecked logs: at the cut locus (where d is not differentiable) they return some
        # finite vector; a step built on it is kept only if the true minimum distance grows
        log_ij, _ = space._log(x[aj], x[ai])
        log_ji, _ = space._log(x[ai], x[aj])
        gi = -space._inner(log_ij[:, None], basis[ai]) / ad[:, None]  # (P, dim)
        gj = -space._inner(log_ji[:, None], basis[aj]) / ad[:, None]
        m = len(act)
        rows = np.repeat(np.arange(m), 2 * dim + 1)
        cols = np.concatenate(
            [ai[:, None] * dim + np.arange(dim), aj[:, None] * dim + np.arange(dim),
             np.full((m, 1), n * dim)], axis=1).ravel()
        vals = np.concatenate([-gi, -gj, np.ones((m, 1))], axis=1).ravel()
        a_ub = scipy.sparse.csr_matrix((vals, (rows, cols)), shape=(m, n * dim + 1))
        c = np.zeros(n * dim + 1)
        c[-1] = -1.0
        bounds = [(-radius, radius)] * (n * dim) + [(None, None)]
        res = linprog(c, A_ub=a_ub, b_ub=ad, bounds=bounds, method="highs")
        if res.status != 0:
            break
        predicted = -res.fun - dmin
        if predicted <= 1e-15 * max(dmin, 1.0):
            break
        xi = res.x[:-1].reshape(n, dim)
        step = np.einsum("na,na...->n...", xi, basis)
        trial = space._exp(step, x)
        d_trial = space._dist(trial[i], trial[j])
        gain = d_trial.min() - dmin
        if gain > 0:
            x, d = trial, d_trial
            if gain > 0.5 * predicted:
                radius *= 2.0
        else:
            radius *= 0.25
        if radius < 1e-13:
            break
    return x


def admissible_embedding(space: Space, n_points: int, *, r0: float | None = None, rng=None) -> Embedding:
    r"""Spread ``n_points`` points on ``space`` as far apart as possible.

    A packing problem, solved heuristically by the two stages of this module (repulsion,
    then a max-min polish by linear programming): the separation found is a lower bound on
    the best one, and the result is admissible for every ``r0`` below it
    (docs/conventions.md#admissible-embeddings-and-radii).

    Parameters
    ----------
    space : Sphere, ProjectiveSpace or Grassmannian
    n_points : int
    r0 : float, optional
        Required separation scale: raises :class:`NotAdmissibleError` if the search cannot
        exceed it.
    rng : numpy.random.Generator or int, optional
        Seed of the random starts (results are deterministic for a fixed seed).

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
        # Small problems: polish from plain random starts (they reach more basins than
        # repelled ones) and from a few repelled starts, briefly; then fully polish the best.
        starts = np.concatenate([
            space.random_point(10 * n, rng=gen).reshape((10, n) + space.ambient_shape),
            _repel(space, space.random_point(2 * n, rng=gen).reshape(
                (2, n) + space.ambient_shape)),
        ])
        quick = sorted((_embedding(space, _polish(space, x, max_iter=15)) for x in starts),
                       key=lambda e: -e.separation)
        emb = max((_embedding(space, _polish(space, e.points)) for e in quick[:2]),
                  key=lambda e: e.separation)
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
