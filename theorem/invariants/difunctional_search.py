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
                                    deadline: float | None = None) -> HubExtension | None:
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

    An upper bound on ``χ_hub`` with its witness, never a lower bound: ``None`` says only
    that the search gave up.

    Parameters
    ----------
    digraph : AttentionDigraph
    h : int
        Number of relations (colors), at least 1.
    start : HubExtension, optional
        A colored hub extension of ``digraph`` to start from (a valid coloring): its ``h``
        color classes covering the most edges become the relations, the others are dropped.
        An extension with ``h + 1`` colors is a good start for ``h``. Default: ``h`` empty
        relations.
    rng : Generator, int or None
        Seeds the tie-breaking; ``None`` is seed 0 (the same search on every call).
    iterations : int
        Moves before giving up, at least 1.
    deadline : float, optional
        A ``time.monotonic()`` deadline (checked at every move); ``None`` for no limit.

    Returns
    -------
    HubExtension or None
        A colored hub extension of ``digraph`` with at most ``h`` colors, a hub per block
        colored with its relation (validated), or ``None`` when none was found within
        ``iterations`` moves or by ``deadline``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, ``h``/``iterations`` not integers,
        or ``start`` not a :class:`HubExtension`.
    TheoremError
        ``h`` or ``iterations`` is below 1, or ``start`` is uncolored.
    VertexError
        ``digraph`` has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        vertices.

    Examples
    --------
    The transitive tournament on 8 vertices has ``χ_hub = ⌈log₂ 8⌉ = 3``:

    >>> from theorem.digraphs import transitive_tournament
    >>> g = transitive_tournament(8)
    >>> cover = local_search_difunctional_cover(g, 3)
    >>> cover.n_colors, cover.validate(g)
    (3, None)
    >>> local_search_difunctional_cover(g, 2, iterations=300) is None   # none exists
    True
    """
    check_digraph(digraph)
    h = as_positive_integer(h, "h", error=TheoremError)
    iterations = as_positive_integer(iterations, "iterations", error=TheoremError)
    if start is not None and not isinstance(start, HubExtension):
        raise TypeError(f"start must be a HubExtension, not {type(start).__name__}")
    if start is not None and start.colors is None:
        raise TheoremError("start must be a colored hub extension; color it first "
                           "(dsatur_colored)")
    gen = np.random.default_rng(0) if rng is None else as_generator(rng, error=TheoremError)
    if digraph.n_edges == 0:
        return HubExtension([], [])
    search = _Search(digraph.adjacency.astype(bool), int(h), gen)
    if start is not None:
        search.load(start)
    for _ in range(iterations):
        if search.covered():
            extension = search.extension()
            extension.validate(digraph)
            return extension
        if past(deadline):
            return None
        search.step()
    return None


#: Steps a moved vertex stays tabu: the first number, plus a random one below the second.
_TENURE = (4, 6)


class _Search:
    """The tabu search of :func:`local_search_difunctional_cover`: source labels ``s`` and
    target labels ``t`` of shape ``(h, N)``, ``-1`` outside every block, labels
    ``0..N`` (a block needs a source, so one label of ``N + 1`` is always free)."""

    def __init__(self, m: np.ndarray, h: int, gen):
        n = len(m)
        self.m, self.h, self.n, self.labels, self.gen = m, h, n, n + 1, gen
        self.nonedge = (~m).astype(float)                       # loops included
        self.weights = m.astype(float)
        self.s = -np.ones((h, n), dtype=np.int64)
        self.t = -np.ones((h, n), dtype=np.int64)
        self.tabu = np.zeros((2, h, n), dtype=np.int64)
        self.step_count = 0

    def load(self, extension: HubExtension) -> None:
        """The ``h`` color classes of ``extension`` covering the most edges, as labels."""
        classes: dict[int, list[int]] = {}
        for p, c in enumerate(extension.colors):
            classes.setdefault(c, []).append(p)
        size = {c: sum(len(extension.sources[p]) * len(extension.targets[p]) for p in hubs)
                for c, hubs in classes.items()}
        kept = sorted(classes, key=lambda c: (-size[c], c))[:self.h]
        for j, c in enumerate(kept):
            for label, p in enumerate(classes[c]):
                self.s[j, sorted(extension.sources[p])] = label
                self.t[j, sorted(extension.targets[p])] = label
        self._drop_one_sided()

    def _onehot(self, labels: np.ndarray) -> np.ndarray:
        out = np.zeros((self.h, self.n, self.labels))
        j, v = np.nonzero(labels >= 0)
        out[j, v, labels[j, v]] = 1.0
        return out

    def covered(self) -> bool:
        self.S, self.T = self._onehot(self.s), self._onehot(self.t)
        self.by = self.S @ self.T.transpose(0, 2, 1)              # (h, N, N): j covers (u, w)
        count = self.by.sum(axis=0)
        self.uncovered = self.m & (count == 0)
        self.once = self.m & (count == 1)
        return not self.uncovered.any()

    def step(self) -> None:
        self.step_count += 1
        S, T, h, n = self.S, self.T, self.h, self.n
        unc = self.weights * self.uncovered
        alone = self.by * (self.weights * self.once)               # j's sole coverage
        lose_src, lose_tgt = alone.sum(axis=2), alone.sum(axis=1)  # leaving one's block
        St, Tt = S.transpose(0, 2, 1), T.transpose(0, 2, 1)
        # w into block l of j: gains (A_l ∩ N⁻(w)) × {w}, loses the sources that leave and w's
        # old coverage in j; dually for a source u
        into_t = St @ unc - (St * lose_src[:, None, :]) @ self.nonedge - lose_tgt[:, None, :]
        into_s = Tt @ unc.T - (Tt * lose_tgt[:, None, :]) @ self.nonedge.T - lose_src[:, None, :]
        into_t[St.sum(axis=2) == 0] = -np.inf                     # blocks without sources
        into_s[Tt.sum(axis=2) == 0] = -np.inf
        for into, labels in ((into_t, self.t), (into_s, self.s)):   # staying is no move
            j, v = np.nonzero(labels >= 0)
            into[j, labels[j, v], v] = -np.inf
        eu, ew = np.nonzero(self.uncovered)                       # a new block {u} × {w}
        opened = unc[eu, ew] - lose_src[:, eu] - lose_tgt[:, ew]
        tabu = self.tabu > self.step_count
        into_t[np.broadcast_to(tabu[0][:, None, :], into_t.shape)] = -np.inf
        into_s[np.broadcast_to(tabu[1][:, None, :], into_s.shape)] = -np.inf
        opened[tabu[1][:, eu] | tabu[0][:, ew]] = -np.inf
        gains = np.concatenate([into_t.ravel(), into_s.ravel(), opened.ravel()])
        best = int(np.argmax(gains + 0.5 * self.gen.random(len(gains))))
        if not gains[best] > 0:
            self.weights += self.uncovered
        if gains[best] == -np.inf:           # every move tabu: wait for one to be freed
            return
        hold = self.step_count + _TENURE[0] + int(self.gen.integers(0, _TENURE[1]))
        if best < into_t.size:
            j, label, w = np.unravel_index(best, into_t.shape)
            self.s[j, (self.s[j] == label) & ~self.m[:, w]] = -1
            self.t[j, w] = label
            self.tabu[0, j, w] = hold
        elif best < into_t.size + into_s.size:
            j, label, u = np.unravel_index(best - into_t.size, into_s.shape)
            self.t[j, (self.t[j] == label) & ~self.m[u]] = -1
            self.s[j, u] = label
            self.tabu[1, j, u] = hold
        else:
            j, e = np.unravel_index(best - into_t.size - into_s.size, opened.shape)
            used = (S[j].sum(axis=0) + T[j].sum(axis=0)) > 0
            label = int(np.argmin(used))                          # a free label
            self.s[j, eu[e]] = self.t[j, ew[e]] = label
            self.tabu[1, j, eu[e]] = self.tabu[0, j, ew[e]] = hold
        self._drop_one_sided()

    def _drop_one_sided(self) -> None:
        """Vertices in blocks with no source or no target leave them (they cover nothing)."""
        count = np.zeros((2, self.h, self.labels), dtype=np.int64)
        for side, labels in enumerate((self.s, self.t)):
            j, v = np.nonzero(labels >= 0)
            np.add.at(count[side], (j, labels[j, v]), 1)
        for side, labels in enumerate((self.s, self.t)):
            j, v = np.nonzero(labels >= 0)
            lonely = count[1 - side][j, labels[j, v]] == 0
            labels[j[lonely], v[lonely]] = -1

    def extension(self) -> HubExtension:
        hubs, colors = [], []
        for j in range(self.h):
            for label in np.unique(self.s[j][self.s[j] >= 0]):
                hubs.append((np.flatnonzero(self.s[j] == label).tolist(),
                             np.flatnonzero(self.t[j] == label).tolist()))
                colors.append(j)
        used = sorted(set(colors))
        return HubExtension(hubs, [used.index(c) for c in colors])
