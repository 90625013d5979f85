"""Upper bounds on ``χ_hub`` by local search: ``h`` difunctional relations moved until they
cover ``E``."""

from __future__ import annotations

import numpy as np

from manifolds.validation import as_generator, as_positive_integer

from ..digraphs.digraph import AttentionDigraph, check_digraph
from ..digraphs.hubs import HubExtension
from ..errors import TheoremError
from ..sat.budget import past

__all__ = ["local_search_difunctional_cover", "DIFUNCTIONAL_ITERATIONS"]

#: Moves :func:`local_search_difunctional_cover` makes by default before it gives up.
DIFUNCTIONAL_ITERATIONS = 3000


def local_search_difunctional_cover(digraph: AttentionDigraph, h: int, *, start=None,
                                    rng=None, iterations: int = DIFUNCTIONAL_ITERATIONS,
                                    tries: int = 1, deadline: float | None = None
                                    ) -> HubExtension | None:
    r"""A cover of ``E`` by ``h`` difunctional relations found by tabu search, or ``None``.

    A difunctional relation is a set of bicliques with pairwise disjoint sources and
    pairwise disjoint targets, so ``h`` of them are ``h`` pairs of partial labelings
    ``s_j, t_j : V → {blocks}``: ``(u, w)`` lies in relation ``j`` iff
    ``s_j(u) = t_j(w)`` (docs/conventions.md#hub-extensions-and-colorings). The search
    keeps every relation inside ``E`` and seeks coverage only. A move puts one target
    ``w`` of relation ``j`` into another block of ``j`` — the block's sources that are no
    in-neighbours of ``w`` leave it — or, dually, one source; or it opens a new block
    ``{u} × {w}`` on an uncovered edge. Each step takes the move that most lowers the weight
    of the uncovered edges, computed for all ``O(h·N²)`` moves at once from the edges
    covered once and the uncovered ones (``O(h·N³)`` a step), except moves of a vertex moved
    within the last 4–9 steps (tabu). At a step with no improving move the uncovered edges'
    weights grow by one (breakout; Morris 1993). The gains are integers below ``2^53`` in
    float64 products, so they are exact and a seed gives the same search on every machine.

    ``tries`` independent searches run side by side, each move of all of them computed by
    the same array operations (a batch axis): on the shared set's heads (18–29 tokens) a
    move of 8 searches costs 1.6–2.7 times a move of one, and where a cover at ``χ_hub``
    exists about one search in three reaches it.

    An upper bound on ``χ_hub`` with its witness, never a lower bound: ``None`` says only
    that the search gave up.

    Parameters
    ----------
    digraph : AttentionDigraph
    h : int
        Number of relations (colors), at least 1.
    start : HubExtension, optional
        A colored hub extension of ``digraph`` that the first search starts from (a valid
        coloring): its ``h`` color classes covering the most edges become the relations,
        the others are dropped. An extension with ``h + 1`` colors is a good start for
        ``h``. The other searches, and the first without it, start from ``h`` empty
        relations.
    rng : Generator, int or None
        Seeds the tie-breaking; ``None`` is seed 0 (the same search on every call).
    iterations : int
        Moves of each search before giving up, at least 1.
    tries : int
        Searches run side by side, at least 1; the first to cover ``E`` ends them all.
    deadline : float, optional
        A ``time.monotonic()`` deadline (checked at every move); ``None`` for no limit.

    Returns
    -------
    HubExtension or None
        A colored hub extension of ``digraph`` with at most ``h`` colors, a hub per block
        colored with its relation (validated), or ``None`` when no search found one within
        ``iterations`` moves or by ``deadline``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, ``h``/``iterations``/``tries`` not
        integers, or ``start`` not a :class:`HubExtension`.
    TheoremError
        ``h``, ``iterations`` or ``tries`` is below 1, or ``start`` is uncolored.
    VertexError
        ``digraph`` has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        vertices.

    Examples
    --------
    The transitive tournament on 8 vertices has ``χ_hub = ⌈log₂ 8⌉ = 3``:

    >>> from theorem.digraphs import transitive_tournament
    >>> g = transitive_tournament(8)
    >>> cover = local_search_difunctional_cover(g, 3, tries=4)
    >>> cover.n_colors, cover.validate(g)
    (3, None)
    >>> local_search_difunctional_cover(g, 2, iterations=300) is None   # none exists
    True
    """
    check_digraph(digraph)
    h = as_positive_integer(h, "h", error=TheoremError)
    iterations = as_positive_integer(iterations, "iterations", error=TheoremError)
    tries = as_positive_integer(tries, "tries", error=TheoremError)
    if start is not None and not isinstance(start, HubExtension):
        raise TypeError(f"start must be a HubExtension, not {type(start).__name__}")
    if start is not None and start.colors is None:
        raise TheoremError("start must be a colored hub extension; color it first "
                           "(dsatur_colored)")
    gen = np.random.default_rng(0) if rng is None else as_generator(rng, error=TheoremError)
    if digraph.n_edges == 0:
        return HubExtension([], [])
    search = _Search(digraph.adjacency.astype(bool), int(h), int(tries), gen)
    if start is not None:
        search.load(start)
    for _ in range(iterations):
        done = search.covered()
        if done is not None:
            extension = search.extension(done)
            extension.validate(digraph)
            return extension
        if past(deadline):
            return None
        search.step()
    return None


#: Steps a moved vertex stays tabu: the first number, plus a random one below the second.
_TENURE = (4, 6)


class _Search:
    """The tabu searches of :func:`local_search_difunctional_cover`, ``R`` side by side:
    source labels ``s`` and target labels ``t`` of shape ``(R, h, N)``, ``-1`` outside
    every block, and breakout weights ``(R, N, N)``. The labels of relation ``j`` in search
    ``r`` are ``0..K - 1`` (``K = blocks[r, j]``) after each move (:meth:`_drop_one_sided`
    renumbers them), so the products over blocks run over the ``max K`` blocks in use
    rather than over all ``N + 1`` labels."""

    def __init__(self, m: np.ndarray, h: int, tries: int, gen):
        n = len(m)
        self.m, self.h, self.n, self.r, self.labels, self.gen = m, h, n, tries, n + 1, gen
        self.nonedge = (~m).astype(float)                       # loops included
        self.nonedge_t = np.ascontiguousarray(self.nonedge.T)
        self.noise = np.zeros(0)
        self.weights = np.broadcast_to(m.astype(float), (tries, n, n)).copy()
        self.s = -np.ones((tries, h, n), dtype=np.int64)
        self.t = -np.ones((tries, h, n), dtype=np.int64)
        self.tabu = np.zeros((tries, 2, h, n), dtype=np.int64)
        self.blocks = np.zeros((tries, h), dtype=np.int64)
        self.step_count = 0

    def load(self, extension: HubExtension) -> None:
        """The ``h`` color classes of ``extension`` covering the most edges, as the labels
        of the first search."""
        classes: dict[int, list[int]] = {}
        for p, c in enumerate(extension.colors):
            classes.setdefault(c, []).append(p)
        size = {c: sum(len(extension.sources[p]) * len(extension.targets[p]) for p in hubs)
                for c, hubs in classes.items()}
        kept = sorted(classes, key=lambda c: (-size[c], c))[:self.h]
        for j, c in enumerate(kept):
            for label, p in enumerate(classes[c]):
                self.s[0, j, sorted(extension.sources[p])] = label
                self.t[0, j, sorted(extension.targets[p])] = label
        self._drop_one_sided()

    @staticmethod
    def _onehot(labels: np.ndarray, width: int) -> np.ndarray:
        return (labels[..., None] == np.arange(width)).astype(float)

    def covered(self) -> int | None:
        """The first search whose relations cover ``E``, or ``None``."""
        width = int(self.blocks.max(initial=0))
        self.S, self.T = self._onehot(self.s, width), self._onehot(self.t, width)
        # (R, h, N, N): j covers (u, w)
        self.by = ((self.s[..., :, None] == self.t[..., None, :])
                   & (self.s[..., :, None] >= 0)).astype(float)
        count = self.by.sum(axis=1)
        self.uncovered = self.m & (count == 0)
        self.once = self.m & (count == 1)
        done = np.flatnonzero(~self.uncovered.any(axis=(1, 2)))
        return int(done[0]) if len(done) else None

    def step(self) -> None:
        self.step_count += 1
        S, T, h, n, tries = self.S, self.T, self.h, self.n, self.r
        unc = self.weights * self.uncovered                           # (R, N, N)
        alone = self.by * (self.weights * self.once)[:, None]         # j's sole coverage
        lose_src, lose_tgt = alone.sum(axis=3), alone.sum(axis=2)     # leaving one's block
        St, Tt = S.transpose(0, 1, 3, 2), T.transpose(0, 1, 3, 2)     # (R, h, K, N)
        shape, flat = St.shape, (tries, -1, n)       # one product a search, one for all
        # a tabu vertex's moves are barred: +inf subtracted or -inf added, never inf - inf
        tabu = np.where(self.tabu > self.step_count, np.inf, 0.0)    # (R, 2, h, N)
        barred_t, barred_s = lose_tgt + tabu[:, 0], lose_src + tabu[:, 1]
        empty = np.where(np.arange(shape[2]) >= self.blocks[:, :, None], -np.inf, 0.0)
        # w into block l of j: gains (A_l ∩ N⁻(w)) × {w}, loses the sources that leave and w's
        # old coverage in j; dually for a source u. Blocks of no label are no moves.
        into_t = ((St.reshape(flat) @ unc).reshape(shape)
                  - ((St * lose_src[:, :, None, :]).reshape(-1, n) @ self.nonedge)
                  .reshape(shape)
                  - barred_t[:, :, None, :] + empty[..., None])
        into_s = ((Tt.reshape(flat) @ np.ascontiguousarray(unc.transpose(0, 2, 1)))
                  .reshape(shape)
                  - ((Tt * lose_tgt[:, :, None, :]).reshape(-1, n) @ self.nonedge_t)
                  .reshape(shape)
                  - barred_s[:, :, None, :] + empty[..., None])
        for into, labels in ((into_t, self.t), (into_s, self.s)):   # staying is no move
            r, j, v = np.nonzero(labels >= 0)
            into[r, j, labels[r, j, v], v] = -np.inf
        # a new block {u} × {w} in relation j on an uncovered edge: slot k of search r holds
        # its k-th uncovered edge (slots past the last are no moves)
        r, u, w = np.nonzero(self.uncovered)
        count = np.bincount(r, minlength=tries)
        slot = np.arange(len(r)) - np.repeat(np.cumsum(count) - count, count)
        edges = np.zeros((2, tries, count.max(initial=0)), dtype=np.int64)
        edges[:, r, slot] = u, w
        opened = np.full((tries, edges.shape[2], h), -np.inf)
        opened[r, slot] = unc[r, u, w][:, None] - barred_s[r, :, u] - barred_t[r, :, w]
        gains = np.concatenate([into_t.reshape(tries, -1), into_s.reshape(tries, -1),
                                opened.reshape(tries, -1)], axis=1)
        best = np.argmax(gains + self._tie_breaks(gains.shape[1]), axis=1)
        top = gains[np.arange(tries), best]
        self.weights[~(top > 0)] += self.uncovered[~(top > 0)]
        hold = self.step_count + _TENURE[0] + self.gen.integers(0, _TENURE[1], tries)
        moving = top > -np.inf               # every move tabu: wait for one to be freed
        kinds = np.searchsorted(np.cumsum([into_t[0].size, into_s[0].size]), best,
                                side="right")
        r = np.flatnonzero(moving & (kinds == 0))
        if len(r):
            j, label, w = np.unravel_index(best[r], into_t.shape[1:])
            leave = (self.s[r, j] == label[:, None]) & ~self.m[:, w].T  # w's non-in-neighbours
            self.s[r, j] = np.where(leave, -1, self.s[r, j])
            self.t[r, j, w] = label
            self.tabu[r, 0, j, w] = hold[r]
        r = np.flatnonzero(moving & (kinds == 1))
        if len(r):
            j, label, u = np.unravel_index(best[r] - into_t[0].size, into_s.shape[1:])
            leave = (self.t[r, j] == label[:, None]) & ~self.m[u]      # u's non-out-neighbours
            self.t[r, j] = np.where(leave, -1, self.t[r, j])
            self.s[r, j, u] = label
            self.tabu[r, 1, j, u] = hold[r]
        r = np.flatnonzero(moving & (kinds == 2))
        if len(r):
            k, j = np.unravel_index(best[r] - into_t[0].size - into_s[0].size,
                                    opened.shape[1:])
            u, w = edges[:, r, k]
            self.s[r, j, u] = self.t[r, j, w] = self.blocks[r, j]     # the next free label
            self.tabu[r, 1, j, u] = self.tabu[r, 0, j, w] = hold[r]
        self._drop_one_sided()

    def _tie_breaks(self, moves: int) -> np.ndarray:
        """Numbers in ``[0, 0.5)`` for ``moves`` moves of each search, added to the (integer)
        gains to break ties at random: windows at random offsets into one array of random
        numbers at least twice as long, drawn again (``4·moves`` of them) when it is not."""
        if len(self.noise) < 2 * moves:
            self.noise = 0.5 * self.gen.random(4 * moves)
        windows = np.lib.stride_tricks.sliding_window_view(self.noise, moves)
        return windows[self.gen.integers(0, len(windows), self.r)]

    def _drop_one_sided(self) -> None:
        """Vertices in blocks with no source or no target leave them (they cover nothing);
        the blocks left are renumbered ``0..K - 1`` in the order of their labels, and
        ``blocks`` holds each ``K``."""
        rows, labels = self.r * self.h, self.labels
        outside = rows * labels                                   # the key of "no block"
        offsets = np.arange(0, outside, labels).reshape(self.r, self.h, 1)
        keys = [np.where(x >= 0, x + offsets, outside) for x in (self.s, self.t)]
        counts = [np.bincount(k.ravel(), minlength=outside + 1) for k in keys]
        kept = (counts[0] > 0) & (counts[1] > 0)
        kept[outside] = False
        number = (np.cumsum(kept[:outside].reshape(rows, labels), axis=1) - 1).ravel()
        self.s, self.t = (np.where(kept[k], number[np.minimum(k, outside - 1)], -1)
                          for k in keys)
        self.blocks = kept[:outside].reshape(self.r, self.h, labels).sum(axis=2)

    def extension(self, r: int) -> HubExtension:
        """The relations of search ``r``, a hub per block colored with its relation."""
        hubs, colors = [], []
        for j in range(self.h):
            for label in np.unique(self.s[r, j][self.s[r, j] >= 0]):
                hubs.append((np.flatnonzero(self.s[r, j] == label).tolist(),
                             np.flatnonzero(self.t[r, j] == label).tolist()))
                colors.append(j)
        used = sorted(set(colors))
        return HubExtension(hubs, [used.index(c) for c in colors])
