"""Upper bounds on ``b`` by local search: ``k`` maximal bicliques moved until they cover ``E``."""

from __future__ import annotations

import numpy as np

from manifolds.validation import as_generator, as_positive_integer

from ..digraphs.digraph import AttentionDigraph, check_digraph
from ..errors import TheoremError
from ..sat.budget import past

__all__ = ["local_search_cover", "ITERATIONS"]

#: Moves :func:`local_search_cover` makes by default before it gives up on ``k`` bicliques.
ITERATIONS = 5000


def local_search_cover(digraph: AttentionDigraph, k: int, *, start=(), rng=None,
                       iterations: int = ITERATIONS, tries: int = 1,
                       deadline: float | None = None
                       ) -> list[tuple[list[int], list[int]]] | None:
    """A cover of ``E`` by ``k`` bicliques found by tabu search, or ``None``.

    The state is ``k`` maximal bicliques ``(A_j, B_j)`` of the digraph (``B_j`` the common
    out-neighbours of ``A_j``, ``A_j`` the common in-neighbours of ``B_j``; empty ones
    allowed), so every state is a set of bicliques and only coverage is sought. A move
    adds or removes one source of one biclique (its targets shrink or grow with it) or,
    dually, one target; the biclique is then closed again. Each step takes the move that
    most lowers the weight of the uncovered edges — computed for all ``2·k·N`` moves at
    once from the edges covered once and the uncovered ones, ``O(k·N²)`` — except moves
    undone within the last 5–9 steps (tabu). At a step with no
    improving move the uncovered edges' weights grow by one (breakout; Morris 1993), which
    steers the search out of local minima. The counts and weights are integers (held in
    float64, exact below ``2^53``), so a seed gives the same search on every machine.

    ``tries`` searches run side by side, each move of all of them computed by the same
    array operations (a batch axis), every one from ``start`` with its own random fill and
    tie-breaks; the first to cover ``E`` ends them all. On the shared set's 29-token heads a
    move of 8 searches costs about 1.7 times a move of one (``docs/benchmarks.md``), so
    where one search reaches a cover only now and then, side by side reaches it sooner.

    An upper bound on ``b`` with its witness, never a lower bound: ``None`` says only that
    the search gave up.

    Parameters
    ----------
    digraph : AttentionDigraph
    k : int
        Number of bicliques, at least 1.
    start : iterable of (list of int, list of int)
        Bicliques of ``digraph`` to start from: the first ``k`` are closed and kept, and
        the rest of the ``k`` are the maximal bicliques of the out-stars of random
        vertices. A cover by ``k + 1`` bicliques less one is a good start for ``k``.
    rng : Generator, int or None
        Seeds the start and the tie-breaking; ``None`` is seed 0 (the same search on every
        call).
    iterations : int
        Moves of each search before giving up, at least 1.
    tries : int
        Searches run side by side, at least 1.
    deadline : float, optional
        A ``time.monotonic()`` deadline (checked at every move); ``None`` for no limit.

    Returns
    -------
    list of (list of int, list of int) or None
        ``k`` or fewer bicliques (empty ones left out) whose union is ``E``, or ``None``
        when no search found one within ``iterations`` moves or by ``deadline``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``k``/``iterations``/``tries``
        not integers.
    TheoremError
        ``k``, ``iterations`` or ``tries`` is below 1.
    VertexError
        ``digraph`` has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        vertices.

    Examples
    --------
    >>> from theorem.digraphs import HubExtension, complete_digraph
    >>> g = complete_digraph(6)                       # b = σ(6) = 4
    >>> cover = local_search_cover(g, 4)
    >>> len(cover), HubExtension(cover).validate(g)
    (4, None)
    >>> local_search_cover(g, 3, iterations=200) is None     # no cover by 3 exists
    True
    >>> len(local_search_cover(g, 4, tries=4))               # 4 searches side by side
    4
    """
    check_digraph(digraph)
    k = as_positive_integer(k, "k", error=TheoremError)
    iterations = as_positive_integer(iterations, "iterations", error=TheoremError)
    tries = as_positive_integer(tries, "tries", error=TheoremError)
    gen = np.random.default_rng(0) if rng is None else as_generator(rng, error=TheoremError)
    if digraph.n_edges == 0:
        return []
    m = digraph.adjacency.astype(bool)
    n = digraph.n
    sources = np.zeros((tries, k, n), dtype=bool)
    targets = np.zeros((tries, k, n), dtype=bool)
    start = list(start)[:k]
    for j, (a, _) in enumerate(start):
        sources[:, j, a] = True
    seeds = gen.choice(np.flatnonzero(m.any(axis=1)), (tries, k - len(start)))
    r, j = np.indices(seeds.shape)
    sources[r, j + len(start), seeds] = True
    search = _Search(m, sources, targets, gen)
    r, j = np.indices((tries, k))
    search.close(r.ravel(), j.ravel(), np.zeros(tries * k, dtype=np.int64))
    for _ in range(iterations):
        done = search.covered()
        if done is not None:
            return [(np.flatnonzero(a).tolist(), np.flatnonzero(b).tolist())
                    for a, b in zip(sources[done], targets[done]) if a.any() and b.any()]
        if past(deadline):
            return None
        search.step()
    return None


class _Search:
    """The tabu searches of :func:`local_search_cover`, ``R`` side by side, on ``sources``
    and ``targets`` of shape ``(R, k, N)`` in place. Counts and gains are integers held in
    float64 (exact below ``2^53``, so the products go through BLAS and give the same search
    on every machine)."""

    def __init__(self, m, sources, targets, gen):
        self.m, self.sources, self.targets, self.gen = m, sources, targets, gen
        self.mf = m.astype(float)
        self.nonedge = (~m).astype(float)
        self.weights = np.broadcast_to(self.mf, (len(sources),) + m.shape).copy()
        self.tabu = np.zeros((len(sources), 2) + sources.shape[1:], dtype=np.int64)
        self.step_count = 0

    def covered(self) -> int | None:
        """The first search whose bicliques cover ``E``, or ``None``."""
        count = self.sources.transpose(0, 2, 1).astype(float) @ self.targets.astype(float)
        self.uncovered = (count == 0) & self.m
        self.once = (count == 1) & self.m
        done = np.flatnonzero(~self.uncovered.any(axis=(1, 2)))
        return int(done[0]) if len(done) else None

    def step(self) -> None:
        self.step_count += 1
        unc = self.weights * self.uncovered
        once = self.weights * self.once
        flip = (0, 2, 1)
        gain = np.stack([_gains(self.sources, self.targets, self.mf, self.nonedge, unc, once),
                         _gains(self.targets, self.sources, self.mf.T, self.nonedge.T,
                                unc.transpose(flip), once.transpose(flip))], axis=1)
        score = gain + self.gen.random(gain.shape) * 0.5   # ties broken at random
        score[self.tabu > self.step_count] = -np.inf
        tries = len(gain)
        side, j, v = np.unravel_index(np.argmax(score.reshape(tries, -1), axis=1),
                                      gain.shape[1:])
        r = np.arange(tries)
        stuck = gain[r, side, j, v] <= 0
        self.weights[stuck] += self.uncovered[stuck]
        for s, moved in enumerate((self.sources, self.targets)):
            on = side == s
            moved[r[on], j[on], v[on]] ^= True
        self.close(r, j, side)
        self.tabu[r, side, j, v] = self.step_count + 5 + self.gen.integers(0, 5, tries)

    def close(self, r, j, side) -> None:
        """Biclique ``j`` of search ``r`` made maximal from the side just changed (0:
        sources, 1: targets), for the arrays ``r``, ``j``, ``side`` at once."""
        for s, (ours, theirs, mat) in enumerate(((self.sources, self.targets, self.mf),
                                                 (self.targets, self.sources, self.mf.T))):
            at = side == s
            rs, js = r[at], j[at]
            mine = ours[rs, js].astype(float)
            size = mine.sum(axis=1, keepdims=True)
            other = (mine @ mat == size) & (size > 0)
            theirs[rs, js] = other
            full = other.any(axis=1)
            if full.any():
                closed = other[full].astype(float)
                ours[rs[full], js[full]] = closed @ mat.T == closed.sum(axis=1, keepdims=True)


def _gains(sources, targets, m, nonedge, uncovered, once):
    """The weight of uncovered edges that flipping source ``v`` of biclique ``j`` covers, less
    the weight of the edges it uncovers (those covered by ``j`` alone), shape ``(R, k, N)``.

    Adding ``v`` keeps the targets ``B_j ∩ N⁺(v)``: it covers ``(v, b)`` there and loses the
    columns ``B_j ∖ N⁺(v)``. Removing ``v`` loses the row ``(v, B_j)`` and gains the columns
    whose only missing source in ``A_j`` was ``v``. An empty biclique gains ``v``'s out-star.
    ``sources``/``targets`` are boolean ``(R, k, N)``; ``m`` and ``nonedge`` the ``N × N``
    adjacency and its complement, ``uncovered`` and ``once`` ``(R, N, N)`` (the weights of
    uncovered edges and of edges covered once), all float64 holding integers."""
    size = sources.sum(axis=2)
    a = sources.astype(float)
    b = targets.astype(float)
    flip = (0, 2, 1)
    alone = (a @ once) * b                                    # per column, j's sole edges
    reach = m * uncovered
    add = b @ reach.transpose(flip) - (b * alone) @ nonedge.T
    add = np.where((size == 0)[..., None], reach.sum(axis=2)[:, None, :], add)
    lost = b @ once.transpose(flip)
    near = (a @ m == (size - 1)[..., None]) & ~targets          # one source short of B_j
    opened = (a @ uncovered) * near
    gained = sources * (opened @ nonedge.T)                   # v's non-edges it reopens
    gained[size == 1] = 0
    return np.where(sources, gained - lost, add)
