"""Attention digraphs: loopless digraphs on ``V = {0..N-1}``.

Direction (docs/conventions.md#edge-direction): ``(a, b) ∈ E`` means ``a`` acts on ``b`` — in attention terms
``b`` attends to ``a`` (``a`` supplies the key, ``b`` the query). The adjacency matrix is
``M[a, b] = 1``; an attention pattern is ``A[b, a]``, i.e. ``A = Mᵀ``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from manifolds.validation import as_count

from ..errors import DigraphFormatError, SelfLoopError, VertexError

__all__ = ["AttentionDigraph", "check_digraph"]


@dataclass(frozen=True, eq=False)
class AttentionDigraph:
    r"""A loopless digraph ``(V, E)`` with ``V = {0..N-1}`` and optional vertex labels.

    Parameters
    ----------
    n : int
        Number of vertices ``N``.
    edges : array_like of shape ``(E, 2)``
        Pairs ``(a, b)``: ``a`` acts on ``b`` (``b`` attends to ``a``). Duplicates merge.
    labels : sequence of str, optional
        One label per vertex.
    drop_loops : bool
        Drop loops ``(v, v)`` instead of raising :class:`SelfLoopError` (real attention masks
        contain the diagonal).

    Attributes
    ----------
    edges : ndarray of int64, shape ``(E, 2)``
        Sorted lexicographically, without duplicates.

    Examples
    --------
    >>> g = AttentionDigraph(3, [(0, 1), (0, 2), (1, 2), (0, 1)])
    >>> g.n_edges, g.adjacency.tolist()
    (3, [[0, 1, 1], [0, 0, 1], [0, 0, 0]])
    >>> AttentionDigraph.from_attention_mask(np.tril(np.ones((3, 3))), drop_loops=True).n_edges
    3
    """

    n: int
    edges: np.ndarray
    labels: tuple[str, ...] | None = None

    def __init__(self, n: int, edges=(), *, labels=None, drop_loops: bool = False):
        n = as_count(n, "n", error=VertexError)
        arr = np.asarray(edges)
        if arr.size == 0:
            arr = np.zeros((0, 2), dtype=np.int64)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise DigraphFormatError(
                f"edges must be pairs (a, b), an array of shape (E, 2); got shape {arr.shape}")
        if not np.issubdtype(arr.dtype, np.integer):
            if not (np.issubdtype(arr.dtype, np.floating) and np.all(arr == np.round(arr))):
                raise TypeError(f"edge endpoints must be integers, got dtype {arr.dtype}")
        arr = arr.astype(np.int64)
        bad = (arr < 0) | (arr >= n)
        if bad.any():
            row = int(np.argwhere(bad)[0, 0])
            raise VertexError(
                f"edge {row} is {tuple(arr[row].tolist())}, but vertices are 0..{n - 1}; "
                "raise n or renumber the vertices")
        loops = arr[:, 0] == arr[:, 1]
        if loops.any():
            if not drop_loops:
                v = int(arr[loops][0, 0])
                raise SelfLoopError(
                    f"edge ({v}, {v}) is a loop; attention digraphs are loopless — pass "
                    "drop_loops=True to drop the diagonal of an attention mask")
            arr = arr[~loops]
        if len(arr):  # sorted, without duplicates: one 1-D sort of the codes a·N + b
            codes = np.unique(arr[:, 0] * n + arr[:, 1])
            arr = np.column_stack([codes // n, codes % n])
        if labels is not None:
            labels = tuple(str(s) for s in labels)
            if len(labels) != n:
                raise VertexError(f"{len(labels)} labels for {n} vertices; give one per vertex")
        object.__setattr__(self, "n", int(n))
        object.__setattr__(self, "edges", arr)
        object.__setattr__(self, "labels", labels)
        arr.setflags(write=False)

    # -- constructors ------------------------------------------------------------------------
    @classmethod
    def from_adjacency(cls, matrix, *, labels=None, drop_loops: bool = False):
        """From a 0/1 adjacency matrix ``M`` (``M[a, b] = 1`` for the edge ``(a, b)``)."""
        m = np.asarray(matrix)
        if m.ndim != 2 or m.shape[0] != m.shape[1]:
            raise DigraphFormatError(f"an adjacency matrix is square; got shape {m.shape}")
        if not np.isin(m, (0, 1)).all():
            raise DigraphFormatError("an adjacency matrix holds only 0 and 1 (or booleans)")
        return cls(m.shape[0], np.argwhere(m != 0), labels=labels, drop_loops=drop_loops)

    @classmethod
    def from_attention_mask(cls, mask, *, labels=None, drop_loops: bool = False):
        """From an attention mask ``A[b, a]`` (query ``b`` attends to key ``a``): ``M = Aᵀ``."""
        a = np.asarray(mask)
        if a.ndim != 2:
            raise DigraphFormatError(f"an attention mask is a matrix; got shape {a.shape}")
        return cls.from_adjacency(a.T, labels=labels, drop_loops=drop_loops)

    @classmethod
    def from_networkx(cls, graph, *, drop_loops: bool = False):
        """From a ``networkx.DiGraph``; its nodes, in iteration order, become ``0..N-1`` and
        their ``str`` the labels."""
        import networkx as nx

        if not isinstance(graph, nx.DiGraph):
            raise TypeError(f"expected a networkx.DiGraph, got {type(graph).__name__}")
        index = {node: i for i, node in enumerate(graph.nodes)}
        edges = [(index[u], index[v]) for u, v in graph.edges]
        return cls(len(index), edges, labels=[str(v) for v in graph.nodes],
                   drop_loops=drop_loops)

    def to_networkx(self):
        """A ``networkx.DiGraph`` on ``0..N-1`` (with ``label`` node attributes if labelled)."""
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(range(self.n))
        if self.labels is not None:
            nx.set_node_attributes(g, dict(enumerate(self.labels)), "label")
        g.add_edges_from(map(tuple, self.edges.tolist()))
        return g

    # -- views -------------------------------------------------------------------------------
    @property
    def n_edges(self) -> int:
        return int(len(self.edges))

    @property
    def adjacency(self) -> np.ndarray:
        """``M`` (``N×N``, ``uint8``): ``M[a, b] = 1`` iff ``(a, b) ∈ E``."""
        m = np.zeros((self.n, self.n), dtype=np.uint8)
        m[self.edges[:, 0], self.edges[:, 1]] = 1
        return m

    @property
    def attention_mask(self) -> np.ndarray:
        """``A = Mᵀ``: ``A[b, a] = 1`` iff ``b`` attends to ``a``."""
        return self.adjacency.T.copy()

    @property
    def out_degrees(self) -> np.ndarray:
        return np.bincount(self.edges[:, 0], minlength=self.n)

    @property
    def in_degrees(self) -> np.ndarray:
        return np.bincount(self.edges[:, 1], minlength=self.n)

    def __eq__(self, other) -> bool:
        return (isinstance(other, AttentionDigraph) and self.n == other.n
                and np.array_equal(self.edges, other.edges) and self.labels == other.labels)

    def __hash__(self) -> int:
        return hash((self.n, self.edges.tobytes(), self.labels))

    def __repr__(self) -> str:
        return f"AttentionDigraph(n={self.n}, n_edges={self.n_edges})"

    # -- files -------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """``{"n": N, "edges": [[u, v], ...]}`` (plus ``"labels"`` when labelled)."""
        out = {"n": self.n, "edges": self.edges.tolist()}
        if self.labels is not None:
            out["labels"] = list(self.labels)
        return out

    @classmethod
    def from_json(cls, obj: dict, *, drop_loops: bool = False):
        """Inverse of :meth:`to_json`."""
        if not isinstance(obj, dict) or "n" not in obj or "edges" not in obj:
            raise DigraphFormatError('a digraph JSON object has keys "n" and "edges"')
        return cls(obj["n"], obj["edges"], labels=obj.get("labels"), drop_loops=drop_loops)

    def write(self, path) -> None:
        """Write ``.json`` as :meth:`to_json`, anything else as an edge list (``u v`` lines)."""
        path = Path(path)
        if path.suffix == ".json":
            path.write_text(json.dumps(self.to_json()) + "\n")
        else:
            lines = [f"# attention digraph: {self.n} vertices, {self.n_edges} edges (u acts on v)",
                     f"# n {self.n}"]
            lines += [f"{u} {v}" for u, v in self.edges.tolist()]
            path.write_text("\n".join(lines) + "\n")

    @classmethod
    def read(cls, path, *, drop_loops: bool = False):
        """Read a ``.json`` digraph or an edge list: ``u v`` per line, ``#`` comments; the
        vertex count is ``# n N`` if present, else one more than the largest vertex."""
        path = Path(path)
        text = path.read_text()
        if path.suffix == ".json":
            try:
                return cls.from_json(json.loads(text), drop_loops=drop_loops)
            except json.JSONDecodeError as exc:
                raise DigraphFormatError(f"{path}: not valid JSON ({exc})") from None
        n, edges = None, []
        for number, line in enumerate(text.splitlines(), 1):
            body, _, comment = line.partition("#")
            words = comment.split()
            if len(words) == 2 and words[0] == "n" and words[1].isdigit():
                n = int(words[1])
            if not body.strip():
                continue
            parts = body.split()
            if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
                raise DigraphFormatError(
                    f"{path}:{number}: expected two vertex numbers 'u v', got {body.strip()!r}")
            edges.append((int(parts[0]), int(parts[1])))
        if n is None:
            n = 1 + max((max(e) for e in edges), default=-1)
        return cls(n, edges, drop_loops=drop_loops)


def check_digraph(digraph) -> None:
    """Raise ``TypeError`` unless ``digraph`` is an :class:`AttentionDigraph` (the check every
    public entry point of :mod:`theorem` makes on its digraph argument)."""
    if not isinstance(digraph, AttentionDigraph):
        raise TypeError(f"expected an AttentionDigraph, got {type(digraph).__name__}")
