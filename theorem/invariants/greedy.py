"""Upper bounds on ``b`` in polynomial time: the trivial star cover and the greedy cover."""

from __future__ import annotations

import numpy as np

from ..digraphs.digraph import AttentionDigraph, check_digraph, target_order
from ..sat.budget import past

__all__ = ["star_cover", "greedy_cover"]


def star_cover(digraph: AttentionDigraph) -> list[tuple[list[int], list[int]]]:
    """The trivial biclique cover: the fewer of out-stars and in-stars (out-stars on a tie),
    stars with equal leaves merged.

    Sources with the same out-neighbourhood ``N⁺`` form one biclique ``(sources, N⁺)``, so
    ``b ≤`` the number of distinct non-empty rows of ``M``, and likewise of columns: never
    more than ``N``, the non-isolated sources or the non-isolated targets. ``O(E log E)``
    (no ``N × N`` structure).

    Parameters
    ----------
    digraph : AttentionDigraph

    Returns
    -------
    list of (list of int, list of int)
        The bicliques ``(A, B)``, a biclique cover of ``E`` (``[]`` without edges); pass it
        to :class:`HubExtension` for a hub extension.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> star_cover(transitive_tournament(3))        # the out-stars of 0 and 1
    [([0], [1, 2]), ([1], [2])]
    """
    check_digraph(digraph)
    sides = []
    for side in (0, 1):            # edges sorted by center: by source, then by target
        e = digraph.edges if side == 0 else digraph.edges[
            target_order(digraph.edges, digraph.n)][:, ::-1]
        starts = np.flatnonzero(np.r_[True, e[1:, 0] != e[:-1, 0]]) if len(e) else []
        groups: dict[bytes, tuple[np.ndarray, list[int]]] = {}
        for center, leaves in zip(e[starts, 0].tolist(), np.split(e[:, 1], starts[1:])):
            groups.setdefault(leaves.tobytes(), (leaves, []))[1].append(center)
        sides.append(groups)
    out = len(sides[0]) <= len(sides[1])    # lists are made for the chosen side only
    return [(centers, leaves.tolist()) if out else (leaves.tolist(), centers)
            for leaves, centers in sides[0 if out else 1].values()]


def greedy_cover(digraph: AttentionDigraph, start=(), deadline: float | None = None
                  ) -> list[tuple[list[int], list[int]]]:
    """Greedy biclique cover completing the bicliques ``start``: repeatedly take the
    star-closure biclique (``B = N⁺(a)``, ``A = {a' : N⁺(a') ⊇ B}``, or the same on in-stars)
    covering most uncovered edges. Products in floating point (BLAS; counts ``≤ N`` are exact).
    When ``deadline`` passes, the uncovered edges are completed by :func:`star_cover`.

    An upper bound on ``b`` with its witness. Builds ``N × N`` matrices.

    Parameters
    ----------
    digraph : AttentionDigraph
    start : iterable of (list of int, list of int)
        Bicliques of ``digraph`` to start from (kept, first in the cover); none by default.
    deadline : float, optional
        A ``time.monotonic()`` deadline; ``None`` for no limit.

    Returns
    -------
    list of (list of int, list of int)
        The bicliques ``(A, B)``, ``start`` first; their union is ``E`` when ``start`` holds
        bicliques of ``digraph``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.
    VertexError
        ``digraph`` has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        vertices (raised by :attr:`~AttentionDigraph.adjacency`).

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite, transitive_tournament
    >>> greedy_cover(complete_bipartite(2, 2))
    [([0, 1], [2, 3])]
    >>> len(greedy_cover(transitive_tournament(4)))
    3
    """
    check_digraph(digraph)
    m = digraph.adjacency.astype(np.float64)
    uncovered = m.astype(bool)
    cover = list(start)
    for sources, targets in cover:
        uncovered[np.ix_(sources, targets)] = False
    closures = []
    for mat in (m, m.T):
        deg = mat.sum(axis=1)
        contains = ((mat @ mat.T) == deg[None, :]) & (deg > 0)[None, :]   # N(a') ⊇ N(a)
        closures.append((mat, contains.astype(np.float64)))
    while uncovered.any():
        if past(deadline):
            rest = AttentionDigraph(digraph.n, np.argwhere(uncovered))
            return cover + star_cover(rest)
        best = None
        for flip, (mat, contains) in enumerate(closures):
            u = (uncovered.T if flip else uncovered).astype(np.float64)
            gain = (contains * (u @ mat.T)).sum(axis=0)        # uncovered edges in A_a × N(a)
            a = int(np.argmax(gain))
            if best is None or gain[a] > best[0]:
                rows = np.flatnonzero(contains[:, a]).tolist()
                cols = np.flatnonzero(mat[a]).tolist()
                best = (gain[a], (cols, rows) if flip else (rows, cols))
        sources, targets = best[1]
        cover.append((sources, targets))
        uncovered[np.ix_(sources, targets)] = False
    return cover
