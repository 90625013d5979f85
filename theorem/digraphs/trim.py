"""A digraph without its isolated vertices, and the way back.

Isolated vertices (no edge in or out) change neither ``b`` nor ``χ_hub`` nor any witness or
certificate, but every dense structure of the solvers is ``N × N``: a digraph of 30,000
vertices and two edges is solved on its four non-isolated ones. Relabelling keeps the order
of the vertices, so edges keep their lexicographic order (and their indices) too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .digraph import AttentionDigraph
from .hubs import HubExtension

__all__ = ["Trimmed"]

@dataclass(frozen=True, eq=False)
class Trimmed:
    """``digraph`` restricted to its non-isolated ``vertices`` (ascending), relabelled
    ``0..len(vertices)-1``; maps hub extensions found on it back (certificates:
    :func:`theorem.invariants.results.relabelled`)."""

    original: AttentionDigraph
    digraph: AttentionDigraph
    vertices: np.ndarray

    @classmethod
    def of(cls, digraph: AttentionDigraph) -> "Trimmed":
        """Trim ``digraph`` in ``O(E log E)`` (no ``N × N`` structure)."""
        touched = np.zeros(digraph.n, dtype=bool)
        touched[digraph.edges.ravel()] = True
        vertices = np.flatnonzero(touched)
        if len(vertices) == digraph.n:
            return cls(digraph, digraph, vertices)
        renumbered = np.searchsorted(vertices, digraph.edges)
        return cls(digraph, AttentionDigraph(len(vertices), renumbered), vertices)

    @property
    def identity(self) -> bool:
        return self.digraph is self.original

    def extension(self, ext: HubExtension) -> HubExtension:
        """A hub extension of the trimmed digraph as one of the original."""
        if self.identity:
            return ext
        v = self.vertices
        hubs = [(v[sorted(a)].tolist(), v[sorted(b)].tolist())
                for a, b in zip(ext.sources, ext.targets)]
        return HubExtension(hubs, ext.colors)

    def restrict(self, ext: HubExtension) -> HubExtension:
        """A hub extension of the original digraph as one of the trimmed digraph."""
        if self.identity:
            return ext
        v = self.vertices
        hubs = [(np.searchsorted(v, sorted(a)).tolist(), np.searchsorted(v, sorted(b)).tolist())
                for a, b in zip(ext.sources, ext.targets)]
        return HubExtension(hubs, ext.colors)
