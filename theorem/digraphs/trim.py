"""A digraph without its isolated vertices, and the way back.

Isolated vertices (no edge in or out) change neither ``b`` nor ``χ_hub`` nor any witness or
certificate, but every dense structure of the solvers is ``N × N``: a digraph of 30,000
vertices and two edges is solved on its four non-isolated ones. Relabelling keeps the order
of the vertices, so edges keep their lexicographic order (and their indices) too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import VertexError
from .digraph import AttentionDigraph, check_digraph
from .hubs import HubExtension

__all__ = ["Trimmed"]

@dataclass(frozen=True, eq=False)
class Trimmed:
    """A digraph without its isolated vertices, and the maps of hub extensions both ways.

    ``digraph`` is ``original`` restricted to its non-isolated ``vertices`` (ascending),
    vertex ``vertices[i]`` relabelled ``i``. Relabelling keeps the order of the vertices, so
    edges keep their lexicographic order and their indices. :meth:`extension` maps a hub
    extension found on ``digraph`` back to ``original``, :meth:`restrict` the other way
    (certificates: :func:`theorem.invariants.results.relabelled`). Build one with
    :meth:`of`.

    Parameters
    ----------
    original : AttentionDigraph
        The digraph as given.
    digraph : AttentionDigraph
        The trimmed digraph on ``len(vertices)`` vertices; ``original`` itself when no vertex
        is isolated.
    vertices : ndarray of int64, shape ``(n,)``
        The non-isolated vertices of ``original``, ascending.

    Examples
    --------
    >>> t = Trimmed.of(AttentionDigraph(6, [(1, 4), (4, 5)]))
    >>> t.vertices.tolist(), t.digraph.edges.tolist()
    ([1, 4, 5], [[0, 1], [1, 2]])
    """

    original: AttentionDigraph
    digraph: AttentionDigraph
    vertices: np.ndarray

    @classmethod
    def of(cls, digraph: AttentionDigraph) -> "Trimmed":
        """Trim ``digraph``: drop its isolated vertices (no edge in or out).

        Takes ``O(N + E log E)`` time and builds no ``N × N`` structure, so that a digraph of
        many vertices and few edges is cheap to solve.

        Parameters
        ----------
        digraph : AttentionDigraph

        Returns
        -------
        Trimmed
            With ``digraph`` itself as the trimmed digraph (:attr:`identity`) when no vertex
            is isolated.

        Raises
        ------
        TypeError
            ``digraph`` is not an :class:`AttentionDigraph`.

        Examples
        --------
        >>> Trimmed.of(AttentionDigraph(30_000, [(7, 9), (9, 20_000)])).digraph
        AttentionDigraph(n=3, n_edges=2)
        >>> Trimmed.of(AttentionDigraph(2, [(0, 1)])).identity
        True
        """
        check_digraph(digraph)
        touched = np.zeros(digraph.n, dtype=bool)
        touched[digraph.edges.ravel()] = True
        vertices = np.flatnonzero(touched)
        if len(vertices) == digraph.n:
            return cls(digraph, digraph, vertices)
        renumbered = np.searchsorted(vertices, digraph.edges)
        return cls(digraph, AttentionDigraph(len(vertices), renumbered), vertices)

    @property
    def identity(self) -> bool:
        """Whether nothing was trimmed (``digraph`` is ``original``, and both maps are the
        identity)."""
        return self.digraph is self.original

    def extension(self, ext: HubExtension) -> HubExtension:
        """A hub extension of the trimmed digraph as one of the original.

        Each hub's sources and targets are relabelled ``i ↦ vertices[i]``; colors are kept, so
        the number of hubs and the chromatic index are too.

        Parameters
        ----------
        ext : HubExtension
            A hub extension of :attr:`digraph`.

        Returns
        -------
        HubExtension
            The same hubs on the vertices of :attr:`original` (``ext`` itself when
            :attr:`identity`).

        Raises
        ------
        TypeError
            ``ext`` is not a :class:`HubExtension`.
        VertexError
            A hub has a vertex outside ``0..n-1``, ``n`` the vertices of :attr:`digraph`.

        Examples
        --------
        >>> t = Trimmed.of(AttentionDigraph(6, [(1, 4), (1, 5)]))
        >>> t.extension(HubExtension([([0], [1, 2])])).hubs
        [([1], [4, 5])]
        """
        _check_hubs(ext, range(self.digraph.n), "the trimmed digraph")
        if self.identity:
            return ext
        v = self.vertices
        hubs = [(v[sorted(a)].tolist(), v[sorted(b)].tolist())
                for a, b in zip(ext.sources, ext.targets)]
        return HubExtension(hubs, ext.colors)

    def restrict(self, ext: HubExtension) -> HubExtension:
        """A hub extension of the original digraph as one of the trimmed digraph.

        The inverse of :meth:`extension`: each hub's sources and targets are relabelled
        ``vertices[i] ↦ i``; colors are kept. A hub extension of ``original`` touches only
        non-isolated vertices (axiom 1), so every vertex has a new label.

        Parameters
        ----------
        ext : HubExtension
            A hub extension of :attr:`original`.

        Returns
        -------
        HubExtension
            The same hubs on the vertices of :attr:`digraph` (``ext`` itself when
            :attr:`identity`).

        Raises
        ------
        TypeError
            ``ext`` is not a :class:`HubExtension`.
        VertexError
            A hub has a vertex that is not a non-isolated vertex of :attr:`original` (then
            it is no hub extension of it).

        Examples
        --------
        >>> t = Trimmed.of(AttentionDigraph(6, [(1, 4), (1, 5)]))
        >>> t.restrict(HubExtension([([1], [4, 5])])).hubs
        [([0], [1, 2])]
        """
        _check_hubs(ext, set(self.vertices.tolist()), "the non-isolated vertices of the original")
        if self.identity:
            return ext
        v = self.vertices
        hubs = [(np.searchsorted(v, sorted(a)).tolist(), np.searchsorted(v, sorted(b)).tolist())
                for a, b in zip(ext.sources, ext.targets)]
        return HubExtension(hubs, ext.colors)


def _check_hubs(ext, allowed, where: str) -> None:
    """``TypeError`` unless ``ext`` is a :class:`HubExtension`; ``VertexError`` naming the
    first hub with a vertex not in ``allowed`` (a ``range`` or a set), and its smallest such
    vertex."""
    if not isinstance(ext, HubExtension):
        raise TypeError(f"ext must be a HubExtension, not {type(ext).__name__}")
    allowed = frozenset(allowed)   # subset tests at C speed: hubs can hold millions of pairs
    for p, (a, b) in enumerate(zip(ext.sources, ext.targets)):
        if not (a <= allowed and b <= allowed):
            raise VertexError(f"hub {p} has vertex {min((a | b) - allowed)}, which is not "
                              f"among {where}; map a hub extension of that digraph")
