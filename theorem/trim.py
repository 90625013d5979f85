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
from .results import Certificate

__all__ = ["Trimmed"]

#: Certificate data that hold vertices, by the shape they are stored in.
_VERTEX_LISTS = ("vertices", "sequence")
_EDGE_LISTS = ("edges", "fooling_set")


@dataclass(frozen=True, eq=False)
class Trimmed:
    """``digraph`` restricted to its non-isolated ``vertices`` (ascending), relabelled
    ``0..len(vertices)-1``; maps witnesses and certificates found on it back."""

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
        relabelled = np.searchsorted(vertices, digraph.edges)
        return cls(digraph, AttentionDigraph(len(vertices), relabelled), vertices)

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

    def certificate(self, certificate: Certificate | None) -> Certificate | None:
        """A certificate found on the trimmed digraph, in the original's vertex numbers."""
        if self.identity or certificate is None:
            return certificate
        v = self.vertices
        data = dict(certificate.data)
        for key in _VERTEX_LISTS:
            if key in data:
                data[key] = v[np.asarray(data[key], dtype=np.int64)].tolist()
        for key in _EDGE_LISTS:
            if key in data:
                data[key] = v[np.asarray(data[key], dtype=np.int64).reshape(-1, 2)].tolist()
        if "weights" in data:
            w = np.asarray(data["weights"], dtype=np.int64).reshape(-1, 3)
            data["weights"] = np.column_stack([v[w[:, :2]], w[:, 2]]).tolist()
        if certificate.kind == "complete-subdigraph":  # its statement names the vertices
            from .invariants import complete_subdigraph_certificate

            return complete_subdigraph_certificate(data["vertices"])
        return Certificate(certificate.kind, certificate.statement, data)

    def restrict(self, ext: HubExtension) -> HubExtension:
        """A hub extension of the original digraph as one of the trimmed digraph."""
        if self.identity:
            return ext
        v = self.vertices
        hubs = [(np.searchsorted(v, sorted(a)).tolist(), np.searchsorted(v, sorted(b)).tolist())
                for a, b in zip(ext.sources, ext.targets)]
        return HubExtension(hubs, ext.colors)
