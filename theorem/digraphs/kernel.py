"""The kernel of a digraph for ``b`` and ``χ_hub``: a sub-matrix of ``M`` with the same
invariant, and the way back.

A source whose row of ``M`` (its out-neighbourhood ``N⁺``) is empty, repeats another row, or
is the union of the rows it strictly contains changes neither ``b`` nor any cover: given a
cover of the rest, put the source into every biclique that holds one of those rows' sources
(each such biclique's targets lie in its row, and together they cover it). Duplicates (a
union of one row) keep ``χ_hub`` too: the source joins the hubs of its twin, whose colors
are pairwise distinct. The same holds for targets and columns. Removing such rows and
columns until none is left gives the kernel, a sub-matrix ``M[R, C]``: every lower bound of
it is one of ``M`` (a cover of ``M`` restricts to one of ``M[R, C]``), and every cover of it
extends to ``M`` (:meth:`Kernel.extension`). Iterated, this is the classical reduction of
Boolean rank to its row- and column-irreducible part.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..errors import VertexError
from .digraph import AttentionDigraph, check_digraph
from .hubs import HubExtension

__all__ = ["Kernel", "rectangle", "MAX_UNION_VERTICES"]

#: Rows and columns that are unions of others are looked for (a product ``M Mᵀ``, ``N³``
#: operations) only on digraphs with at most this many vertices; duplicates always.
MAX_UNION_VERTICES = 1024


def rectangle(digraph: AttentionDigraph, sources, targets) -> AttentionDigraph:
    """The edges of ``digraph`` from ``sources`` to ``targets``: the sub-matrix
    ``M[sources, targets]`` on the same vertices.

    Any lower bound on ``b`` or ``χ_hub`` of it is one of ``digraph``: a cover of ``E``
    restricted to ``sources × targets`` is a cover of the sub-matrix, with as many bicliques
    (and difunctional relations stay difunctional).

    Parameters
    ----------
    digraph : AttentionDigraph
    sources, targets : array_like of int
        Vertices of ``digraph``.

    Returns
    -------
    AttentionDigraph
        On ``digraph.n`` vertices, with the edges ``(a, b) ∈ E``, ``a ∈ sources``,
        ``b ∈ targets``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or the vertices are not integers.
    VertexError
        A vertex is not one of ``digraph``'s.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> rectangle(transitive_tournament(4), [0, 1], [2, 3]).edges.tolist()
    [[0, 2], [0, 3], [1, 2], [1, 3]]
    """
    check_digraph(digraph)
    keep = [np.zeros(digraph.n, dtype=bool), np.zeros(digraph.n, dtype=bool)]
    for side, (vertices, name) in enumerate(((sources, "sources"), (targets, "targets"))):
        vertices = np.asarray(vertices).reshape(-1)
        if len(vertices) and not np.issubdtype(vertices.dtype, np.integer):
            raise TypeError(f"{name} must be vertex numbers (integers), got dtype "
                            f"{vertices.dtype}")
        if len(vertices) and not (0 <= vertices.min() and vertices.max() < digraph.n):
            raise VertexError(f"{name} hold a vertex outside 0..{digraph.n - 1}; give "
                              "vertices of this digraph")
        keep[side][vertices.astype(np.int64)] = True
    e = digraph.edges
    return AttentionDigraph(digraph.n, e[keep[0][e[:, 0]] & keep[1][e[:, 1]]])


@dataclass(frozen=True, eq=False)
class Kernel:
    """A sub-matrix ``M[sources, targets]`` with the same ``b`` (or ``χ_hub``), and the map of
    hub extensions both ways.

    ``digraph`` is :func:`rectangle` of ``original`` on the kept ``sources`` and ``targets``;
    ``steps`` records the rows (side 0) and columns (side 1) removed, in order, each with the
    kept rows or columns whose union it was. :meth:`extension` maps a hub extension of
    ``digraph`` back to ``original`` (colors kept), :meth:`restrict` the other way. Build one
    with :meth:`of`.

    Parameters
    ----------
    original : AttentionDigraph
        The digraph as given.
    digraph : AttentionDigraph
        The kernel, on the same vertices (``original`` itself when nothing was removed).
    sources, targets : ndarray of int64
        The kept sources and targets, ascending.
    steps : tuple of (int, ndarray, tuple of ndarray)
        ``(side, removed, generators)`` per round: ``removed[i]`` was the union of the rows
        (side 0) or columns (side 1) ``generators[i]``, all kept in that round (empty for an
        empty row).

    Examples
    --------
    Row 1 (``N⁺ = {2, 3}``) is the union of rows 0 and 3; without it, columns 0 and 1 are
    both ``{2}``:

    >>> from theorem.digraphs import AttentionDigraph
    >>> g = AttentionDigraph(4, [(0, 3), (1, 2), (1, 3), (2, 0), (2, 1), (3, 2)])
    >>> k = Kernel.of(g, unions=True)
    >>> k.sources.tolist(), k.targets.tolist(), k.digraph.edges.tolist()
    ([0, 2, 3], [0, 2, 3], [[0, 3], [2, 0], [3, 2]])
    >>> k.extension(HubExtension([([0], [3]), ([2], [0]), ([3], [2])])).hubs
    [([0, 1], [3]), ([2], [0, 1]), ([1, 3], [2])]
    """

    original: AttentionDigraph
    digraph: AttentionDigraph
    sources: np.ndarray
    targets: np.ndarray
    steps: tuple

    @classmethod
    def of(cls, digraph: AttentionDigraph, *, unions: bool,
           deadline: float | None = None) -> "Kernel":
        """The kernel of ``digraph``: rows and columns removed while one is empty, repeats a
        kept one or, with ``unions``, is the union of the kept ones it strictly contains.

        Each round removes, on one side, every such row at once: a row that is a union of
        rows it contains is a union of such rows that are themselves no unions, which stay.
        Rounds alternate between rows and columns until neither changes. Duplicates are
        found by sorting the rows (``O(N²)``); unions by one product ``M Mᵀ`` a round, on
        at most :data:`MAX_UNION_VERTICES` vertices (above that, duplicates only).

        Parameters
        ----------
        digraph : AttentionDigraph
        unions : bool
            Remove unions too (they keep ``b``, not ``χ_hub``); else empty and repeated rows
            and columns only (they keep both).
        deadline : float, optional
            A ``time.monotonic()`` deadline, checked between rounds: the rounds done by then
            give a sub-matrix with the same invariant too (a kernel cut short).

        Returns
        -------
        Kernel

        Raises
        ------
        TypeError
            ``digraph`` is not an :class:`AttentionDigraph`.
        VertexError
            ``digraph`` has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
            vertices (raised by :attr:`~AttentionDigraph.adjacency`).

        Examples
        --------
        >>> from theorem.digraphs import AttentionDigraph, complete_digraph
        >>> Kernel.of(complete_digraph(4), unions=True).identity
        True
        >>> k = Kernel.of(AttentionDigraph(4, [(0, 2), (1, 2), (0, 3), (1, 3)]), unions=False)
        >>> k.sources.tolist(), k.targets.tolist()
        ([0], [2])
        """
        check_digraph(digraph)
        m = digraph.adjacency.astype(bool)
        keep = [m.any(axis=1), m.any(axis=0)]
        unions = unions and digraph.n <= MAX_UNION_VERTICES
        steps = []
        for side in (0, 1):                   # the empty rows and columns, each a round
            empty = np.flatnonzero(~keep[side])
            if len(empty):
                steps.append((side, empty, tuple(np.zeros(0, np.int64) for _ in empty)))
        stable = 0
        side = 0
        while stable < 2 and (deadline is None or time.monotonic() < deadline):
            block = (m if side == 0 else m.T)[np.ix_(keep[side], keep[1 - side])]
            kept = np.flatnonzero(keep[side])
            removed, generators = _removable(block, unions)
            if len(removed):
                keep[side][kept[removed]] = False
                steps.append((side, kept[removed], tuple(kept[g] for g in generators)))
                stable = 0
            else:
                stable += 1
            side = 1 - side
        sources, targets = np.flatnonzero(keep[0]), np.flatnonzero(keep[1])
        reduced = digraph if len(steps) == 0 else rectangle(digraph, sources, targets)
        return cls(digraph, reduced, sources, targets, tuple(steps))

    @property
    def identity(self) -> bool:
        """Whether nothing was removed (``digraph`` is ``original``)."""
        return not self.steps

    def extension(self, extension: HubExtension) -> HubExtension:
        """A hub extension of :attr:`digraph` as one of :attr:`original`, colors kept.

        The removed rows and columns come back in the reverse order: each joins the hubs
        holding one of the rows (columns) it was the union of. Each hub stays a biclique of
        the sub-matrix of that round, and the row is covered; a duplicate joins the hubs of
        its twin, which have pairwise distinct colors, so a valid coloring stays valid.

        Parameters
        ----------
        extension : HubExtension
            A hub extension of :attr:`digraph` (not checked here; the solvers validate the
            result on the original).

        Returns
        -------
        HubExtension
            On :attr:`original`, with the same hubs (enlarged) and colors.

        Examples
        --------
        >>> from theorem.digraphs import AttentionDigraph
        >>> g = AttentionDigraph(3, [(0, 2), (1, 2)])           # sources 0 and 1 are twins
        >>> k = Kernel.of(g, unions=False)
        >>> k.extension(HubExtension([([0], [2])], [0])).hubs
        [([0, 1], [2])]
        """
        if self.identity or extension.n_hubs == 0:
            return extension
        n = self.original.n
        sides = np.zeros((2, extension.n_hubs, n), dtype=bool)
        for p, (a, b) in enumerate(extension.hubs):
            sides[0, p, list(a)] = True
            sides[1, p, list(b)] = True
        for side, removed, generators in reversed(self.steps):
            for v, g in zip(removed.tolist(), generators):
                sides[side, :, v] = sides[side][:, g].any(axis=1)
        hubs = [(np.flatnonzero(a).tolist(), np.flatnonzero(b).tolist())
                for a, b in zip(sides[0], sides[1])]
        return HubExtension(hubs, extension.colors)

    def restrict(self, extension: HubExtension) -> HubExtension:
        """A hub extension of :attr:`original` cut down to :attr:`digraph`: each hub's sources
        and targets within the kept ones, hubs left with an empty side dropped, colors kept.

        Parameters
        ----------
        extension : HubExtension
            A hub extension of :attr:`original`.

        Returns
        -------
        HubExtension
            A hub extension of :attr:`digraph` with at most as many hubs and colors.

        Examples
        --------
        >>> from theorem.digraphs import AttentionDigraph
        >>> k = Kernel.of(AttentionDigraph(3, [(0, 2), (1, 2)]), unions=False)
        >>> k.restrict(HubExtension([([0, 1], [2])], [0])).hubs
        [([0], [2])]
        """
        if self.identity:
            return extension
        src, tgt = set(self.sources.tolist()), set(self.targets.tolist())
        hubs, colors = [], []
        for p, (a, b) in enumerate(extension.hubs):
            a, b = sorted(src.intersection(a)), sorted(tgt.intersection(b))
            if a and b:
                hubs.append((a, b))
                colors.append(None if extension.colors is None else extension.colors[p])
        return HubExtension(hubs, None if extension.colors is None else colors)


def _removable(block: np.ndarray, unions: bool) -> tuple[np.ndarray, list[np.ndarray]]:
    """Rows of the 0/1 matrix ``block`` (no empty row) that repeat an earlier row or, with
    ``unions``, are the union of the distinct rows they strictly contain; with, for each, the
    rows (indices into ``block``) it is the union of, none of them removed."""
    _, first, inverse = np.unique(block, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    # each distinct row (its first occurrence) is generated by itself, a composite one by
    # the non-composite rows inside it; its repeats by the same rows
    generated_by = [first[c:c + 1] for c in range(len(first))]
    composite = np.zeros(len(first), dtype=bool)
    if unions and len(first) > 2:
        rows = block[first].astype(np.float64)         # distinct rows; counts ≤ N are exact
        degree = rows.sum(axis=1)
        inside = (rows @ rows.T == degree[:, None])     # inside[i, j]: row i ⊆ row j
        np.fill_diagonal(inside, False)
        union = (inside.T.astype(np.float64) @ rows > 0) == (rows > 0)
        composite = union.all(axis=1) & inside.any(axis=0)
        for j in np.flatnonzero(composite):
            generated_by[j] = np.sort(first[np.flatnonzero(inside[:, j] & ~composite)])
    removed = np.flatnonzero((first[inverse] != np.arange(len(block))) | composite[inverse])
    return removed.astype(np.int64), [generated_by[c] for c in inverse[removed]]
