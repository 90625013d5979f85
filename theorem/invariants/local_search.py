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
                       iterations: int = ITERATIONS, deadline: float | None = None
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
    steers the search out of local minima. Integer arithmetic throughout, so a seed gives
    the same search on every machine.

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
        Moves before giving up, at least 1.
    deadline : float, optional
        A ``time.monotonic()`` deadline (checked at every move); ``None`` for no limit.

    Returns
    -------
    list of (list of int, list of int) or None
        ``k`` or fewer bicliques (empty ones left out) whose union is ``E``, or ``None``
        when none was found within ``iterations`` moves or by ``deadline``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``k``/``iterations`` not
        integers.
    TheoremError
        ``k`` or ``iterations`` is below 1.
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
    """
    check_digraph(digraph)
    k = as_positive_integer(k, "k", error=TheoremError)
    iterations = as_positive_integer(iterations, "iterations", error=TheoremError)
    gen = np.random.default_rng(0) if rng is None else as_generator(rng, error=TheoremError)
    if digraph.n_edges == 0:
        return []
    m = digraph.adjacency.astype(bool)
    n = digraph.n
    sources = np.zeros((k, n), dtype=bool)
    targets = np.zeros((k, n), dtype=bool)
    start = list(start)[:k]
    for j, (a, _) in enumerate(start):
        sources[j, a] = True
    seeds = gen.choice(np.flatnonzero(m.any(axis=1)), k - len(start))
    sources[np.arange(len(start), k), seeds] = True
    for j in range(k):
        _close(m, sources, targets, j, 0)
    search = _Search(m, sources, targets, gen)
    for _ in range(iterations):
        if search.covered():
            return [(np.flatnonzero(a).tolist(), np.flatnonzero(b).tolist())
                    for a, b in zip(sources, targets) if a.any() and b.any()]
        if past(deadline):
            return None
        search.step()
    return None


class _Search:
    """The tabu search of :func:`local_search_cover` on ``(sources, targets)`` in place."""

    def __init__(self, m, sources, targets, gen):
        self.m, self.sources, self.targets, self.gen = m, sources, targets, gen
        self.mi = m.astype(np.int64)
        self.weights = self.mi.copy()
        self.tabu = np.zeros((2,) + sources.shape, dtype=np.int64)
        self.step_count = 0

    def covered(self) -> bool:
        count = self.sources.T.astype(np.int64) @ self.targets
        self.uncovered = (count == 0) & self.m
        self.once = (count == 1) & self.m
        return not self.uncovered.any()

    def step(self) -> None:
        self.step_count += 1
        unc = self.weights * self.uncovered
        once = self.weights * self.once
        gain = np.stack([_gains(self.sources, self.targets, self.mi, unc, once),
                         _gains(self.targets, self.sources, self.mi.T, unc.T, once.T)])
        score = gain + self.gen.random(gain.shape) * 0.5   # ties broken at random
        score[self.tabu > self.step_count] = -np.inf
        side, j, v = np.unravel_index(np.argmax(score), score.shape)
        if gain[side, j, v] <= 0:
            self.weights += self.uncovered
        moved = (self.sources, self.targets)[side]
        moved[j, v] = not moved[j, v]
        _close(self.m, self.sources, self.targets, j, side)
        self.tabu[side, j, v] = self.step_count + 5 + self.gen.integers(0, 5)


def _gains(sources, targets, m, uncovered, once):
    """The weight of uncovered edges that flipping source ``v`` of biclique ``j`` covers, less
    the weight of the edges it uncovers (those covered by ``j`` alone), shape ``(k, N)``.

    Adding ``v`` keeps the targets ``B_j ∩ N⁺(v)``: it covers ``(v, b)`` there and loses the
    columns ``B_j ∖ N⁺(v)``. Removing ``v`` loses the row ``(v, B_j)`` and gains the columns
    whose only missing source in ``A_j`` was ``v``. An empty biclique gains ``v``'s out-star.
    ``sources``/``targets`` are boolean ``(k, N)``; ``m``, ``uncovered``, ``once`` are
    integer ``N × N`` (the adjacency, the weights of uncovered edges and of edges covered
    once)."""
    size = sources.sum(axis=1)
    a = sources.astype(np.int64)
    b = targets.astype(np.int64)
    alone = (a @ once) * b                                    # per column, j's sole edges
    add = b @ (m * uncovered).T - (b * alone) @ (1 - m).T
    add[size == 0] = (m * uncovered).sum(axis=1)
    lost = b @ once.T
    near = (a @ m == (size - 1)[:, None]) & ~targets            # one source short of B_j
    opened = (a @ uncovered) * near
    gained = np.einsum("jab,jb->ja", sources[:, :, None] & (m == 0)[None], opened)
    gained[size == 1] = 0
    return np.where(sources, gained - lost, add)


def _close(m, sources, targets, j, side):
    """Biclique ``j`` made maximal from the side just changed (0: sources, 1: targets)."""
    ours, theirs, mat = ((sources, targets, m), (targets, sources, m.T))[side]
    if not ours[j].any():
        theirs[j] = False
        return
    theirs[j] = mat[ours[j]].all(axis=0)
    if theirs[j].any():
        ours[j] = mat[:, theirs[j]].all(axis=1)
