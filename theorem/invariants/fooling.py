"""Fooling sets: edges pairwise in no common biclique, the first lower bound on ``b``.

Two edges ``(a, b)`` and ``(c, d)`` are *compatible* when some biclique holds both, that is
when ``(a, d)`` and ``(c, b)`` are edges too. A fooling set is an independent set of this
compatibility graph, so every biclique cover spends a biclique on each of its edges:
``b ≥ |F|``. The largest one is itself NP-hard to find; greedy orders followed by an
iterated local search with (1, 2)-swaps (Andrade, Resende & Werneck, *J. Heuristics* 18,
2012) find much larger ones than greedy alone on dense digraphs.
"""

from __future__ import annotations

import numbers
import time

import numpy as np

from manifolds.validation import as_generator

from ..digraphs.digraph import AttentionDigraph, check_digraph
from ..errors import TheoremError

__all__ = ["is_fooling_set", "fooling_set"]

#: The local search holds the ``|E| × |E|`` compatibility matrix; above this many edges only
#: the greedy orders run.
LOCAL_SEARCH_EDGES = 4000


def is_fooling_set(digraph: AttentionDigraph, edges) -> bool:
    """Whether edges are pairwise *fooling*: for ``(a, b) ≠ (c, d)`` in the set, ``(a, d)`` or
    ``(c, b)`` is not an edge — then no biclique holds two of them, so ``b ≥`` the set's size.

    Every listed pair must itself be an edge; a pair that is not (a vertex out of range
    included) makes the answer ``False``. Builds an ``f × f`` matrix for ``f`` edges, and
    nothing of size ``N × N``.

    Parameters
    ----------
    digraph : AttentionDigraph
    edges : array_like of int, shape ``(f, 2)``
        The candidate fooling set, one ``(a, b)`` per row.

    Returns
    -------
    bool
        Whether every row is an edge and no two rows lie in a common biclique.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``edges`` is not integer pairs.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> g = transitive_tournament(3)
    >>> is_fooling_set(g, [(0, 1), (1, 2)]), is_fooling_set(g, [(0, 1), (0, 2)])
    (True, False)
    """
    check_digraph(digraph)
    e = _pairs(edges)
    n = digraph.n
    if ((e < 0) | (e >= n)).any():
        return False
    e = e.astype(np.int64)
    codes = digraph.edges[:, 0] * n + digraph.edges[:, 1]       # sorted: edges are

    def is_edge(a, b):
        code = a * n + b
        at = np.minimum(np.searchsorted(codes, code), max(len(codes) - 1, 0))
        return (codes[at] == code) if len(codes) else np.zeros(code.shape, bool)

    if not is_edge(e[:, 0], e[:, 1]).all():
        return False
    both = is_edge(e[:, 0][:, None], e[:, 1][None, :]) & is_edge(e[:, 0][None, :],
                                                                 e[:, 1][:, None])
    np.fill_diagonal(both, False)
    return not both.any()


def _pairs(edges) -> np.ndarray:
    """``edges`` as an ``(f, 2)`` array of integers (any integer dtype, or ``object`` for
    Python integers beyond ``int64``), or ``TypeError`` saying what it is not."""
    try:
        e = np.asarray(edges)
    except (ValueError, TypeError):
        raise TypeError("edges must be pairs (a, b) of vertices; got rows of different "
                        "lengths") from None
    if e.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if e.dtype == object and all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                                 for v in e.ravel().tolist()):
        e = np.asarray([v if -2 ** 62 < v < 2 ** 62 else -1 for v in e.ravel().tolist()],
                       dtype=np.int64).reshape(e.shape)         # out of range: not an edge
    if not np.issubdtype(e.dtype, np.integer) or e.size % 2:
        raise TypeError(f"edges must be pairs (a, b) of integer vertices, got an array of "
                        f"shape {e.shape} and dtype {e.dtype}")
    return e.reshape(-1, 2)


def fooling_set(digraph: AttentionDigraph, *, tries: int = 16, iterations: int = 3000,
                patience: int = 200, rng=0, target: int | None = None,
                deadline: float | None = None) -> np.ndarray:
    """A large fooling set: the best of greedy orders, improved by iterated local search.

    Greedy takes edges of low degree first, then ``tries`` random orders. When the digraph has
    at most :data:`LOCAL_SEARCH_EDGES` edges, ``iterations`` rounds of local search follow:
    fill with free edges, apply (1, 2)-swaps (one edge out, two in) while any exists, then
    force in a random edge (preferring ones with few conflicts) and drop its neighbours.
    It stops early after ``patience`` rounds without a larger set, or once ``target`` edges
    are found (e.g. the size of a known cover, which no
    fooling set exceeds). Deterministic for a given ``rng``; ``deadline``
    (``time.monotonic()`` seconds) cuts the greedy orders and the search short (the largest
    set found by then is returned).

    Parameters
    ----------
    digraph : AttentionDigraph
    tries : int
        Random greedy orders tried after the low-degree-first one.
    iterations : int
        Rounds of local search (0: greedy only).
    patience : int
        Rounds without a larger set after which the local search stops.
    rng : int or numpy.random.Generator
        Seed or generator of the random orders and moves.
    target : int, optional
        Stop once a fooling set this large is found (capped by the number of distinct
        sources and of distinct targets, which no fooling set exceeds).
    deadline : float, optional
        A ``time.monotonic()`` deadline; ``None`` for no limit.

    Returns
    -------
    ndarray, shape (f, 2)
        The edges, each row ``(a, b)``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``rng`` not a seed or Generator.
    TheoremError
        ``rng`` is a negative seed.
    VertexError
        ``digraph`` has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        vertices (raised by :attr:`~AttentionDigraph.adjacency`).

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite
    >>> len(fooling_set(complete_bipartite(3, 4)))  # one biclique holds every edge
    1
    """
    check_digraph(digraph)
    gen = as_generator(rng, error=TheoremError)
    m = digraph.adjacency.astype(bool)
    e = digraph.edges
    if not len(e):
        return e.copy()
    weight = digraph.out_degrees[e[:, 0]] + digraph.in_degrees[e[:, 1]]
    orders = [np.argsort(weight, kind="stable")] + [gen.permutation(len(e)) for _ in range(tries)]
    best: list[int] = []
    for order in orders:
        alive = np.asarray(order)           # the edges still compatible with none chosen, in order
        chosen = []
        while len(alive) and not (chosen and deadline is not None
                                  and time.monotonic() >= deadline):
            a, b = e[alive[0]]
            chosen.append(int(alive[0]))
            rest = alive[1:]
            alive = rest[~(m[a, e[rest, 1]] & m[e[rest, 0], b])]  # drop those sharing a biclique
        if len(chosen) > len(best):
            best = chosen
        if deadline is not None and time.monotonic() >= deadline:
            break           # what is chosen so far is a fooling set too
    most = min(len(np.unique(e[:, 0])), len(np.unique(e[:, 1])))
    target = most if target is None else min(target, most)
    if len(e) <= LOCAL_SEARCH_EDGES and iterations > 0 and len(best) < target:
        compatible = m[e[:, 0][:, None], e[:, 1][None, :]] & m[e[:, 0][None, :], e[:, 1][:, None]]
        np.fill_diagonal(compatible, False)
        best = _local_search(compatible, best, iterations, gen, target, deadline, patience)
    return e[np.sort(best)]


def _local_search(conflict: np.ndarray, start: list[int], iterations: int, gen,
                  target: int, deadline: float | None, patience: int) -> list[int]:
    """A large independent set of the graph ``conflict`` (``n × n`` bool, symmetric, no
    loops), from the independent set ``start``: iterated local search with (1, 2)-swaps."""
    n = len(conflict)
    inside = np.zeros(n, dtype=bool)
    inside[start] = True
    tight = conflict[:, inside].sum(axis=1)   # neighbours in the set
    best = inside.copy()

    def add(v):
        inside[v] = True
        tight[conflict[v]] += 1

    def remove(v):
        inside[v] = False
        tight[conflict[v]] -= 1

    stale = 0
    for _ in range(iterations):
        stale += 1
        if stale > patience or max(inside.sum(), best.sum()) >= target or (
                deadline is not None and time.monotonic() >= deadline):
            break
        free = np.flatnonzero((tight == 0) & ~inside)
        while len(free):
            v = int(gen.choice(free))
            add(v)
            free = free[~conflict[v, free] & (free != v)]
        swapped = False
        for x in gen.permutation(np.flatnonzero(inside)):
            candidates = np.flatnonzero((tight == 1) & ~inside & conflict[x])
            if len(candidates) < 2:
                continue
            i, j = np.nonzero(np.triu(~conflict[np.ix_(candidates, candidates)], 1))
            if len(i):
                pick = gen.integers(len(i))
                remove(x)
                add(int(candidates[i[pick]]))
                add(int(candidates[j[pick]]))
                swapped = True
                break
        if swapped:
            continue
        if inside.sum() > best.sum():
            best, stale = inside.copy(), 0
        elif inside.sum() < best.sum() - 1:            # drifted too far: back to the best
            inside[:] = best
            tight[:] = conflict[:, inside].sum(axis=1)
        outside = np.flatnonzero(~inside)
        if not len(outside):
            break
        p = 1.0 / (1.0 + tight[outside]) ** 2
        v = int(gen.choice(outside, p=p / p.sum()))
        for u in np.flatnonzero(inside & conflict[v]):
            remove(u)
        add(v)
    if inside.sum() > best.sum():
        best = inside
    return np.flatnonzero(best).tolist()
