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
        """The attention digraph of a 0/1 adjacency matrix ``M``.

        ``M[a, b] = 1`` for the edge ``(a, b)``: ``a`` acts on ``b``
        (docs/conventions.md#edge-direction). Booleans count as 0 and 1.

        Parameters
        ----------
        matrix : array_like of shape ``(N, N)``
            Entries 0 and 1 only.
        labels : sequence of str, optional
            One label per vertex.
        drop_loops : bool
            Drop the diagonal instead of raising :class:`SelfLoopError`.

        Returns
        -------
        AttentionDigraph
            On ``N`` vertices, with the edges ``(a, b)`` where ``M[a, b] = 1``.

        Raises
        ------
        DigraphFormatError
            ``matrix`` is not square, or holds a value other than 0 and 1.
        SelfLoopError
            The diagonal holds a 1 and ``drop_loops`` is false.
        VertexError
            ``labels`` does not give one label per vertex.

        Examples
        --------
        >>> AttentionDigraph.from_adjacency([[0, 1, 1], [0, 0, 0], [0, 1, 0]]).edges.tolist()
        [[0, 1], [0, 2], [2, 1]]
        """
        m = np.asarray(matrix)
        if m.ndim != 2 or m.shape[0] != m.shape[1]:
            raise DigraphFormatError(f"an adjacency matrix is square; got shape {m.shape}")
        if not np.isin(m, (0, 1)).all():
            raise DigraphFormatError("an adjacency matrix holds only 0 and 1 (or booleans)")
        return cls(m.shape[0], np.argwhere(m != 0), labels=labels, drop_loops=drop_loops)

    @classmethod
    def from_attention_mask(cls, mask, *, labels=None, drop_loops: bool = False):
        """The attention digraph of an attention mask ``A``, indexed ``A[query, key]``.

        Query ``b`` attends to key ``a`` where ``A[b, a]`` is 1, which is the edge ``(a, b)``:
        ``M = Aᵀ`` (docs/conventions.md#edge-direction). A real mask holds its diagonal (each
        token attends to itself): pass ``drop_loops=True`` to drop it.

        Parameters
        ----------
        mask : array_like of shape ``(N, N)``
            Entries 0 and 1 only.
        labels : sequence of str, optional
            One label per vertex.
        drop_loops : bool
            Drop the diagonal instead of raising :class:`SelfLoopError`.

        Returns
        -------
        AttentionDigraph
            On ``N`` vertices, with the edges ``(a, b)`` where ``A[b, a] = 1``.

        Raises
        ------
        DigraphFormatError
            ``mask`` is not a square matrix, or holds a value other than 0 and 1.
        SelfLoopError
            The diagonal holds a 1 and ``drop_loops`` is false.
        VertexError
            ``labels`` does not give one label per vertex.

        Examples
        --------
        A causal mask: each query attends to itself and to the keys before it.

        >>> causal = np.tril(np.ones((3, 3), dtype=int))
        >>> AttentionDigraph.from_attention_mask(causal, drop_loops=True).edges.tolist()
        [[0, 1], [0, 2], [1, 2]]
        """
        a = np.asarray(mask)
        if a.ndim != 2:
            raise DigraphFormatError(f"an attention mask is a matrix; got shape {a.shape}")
        return cls.from_adjacency(a.T, labels=labels, drop_loops=drop_loops)

    @classmethod
    def from_networkx(cls, graph, *, drop_loops: bool = False):
        """The attention digraph of a ``networkx.DiGraph``.

        Its nodes, in iteration order, become the vertices ``0..N-1`` and their ``str`` the
        labels; an edge ``(u, v)`` keeps its direction (docs/conventions.md#edge-direction).

        Parameters
        ----------
        graph : networkx.DiGraph
        drop_loops : bool
            Drop self-loops instead of raising :class:`SelfLoopError`.

        Returns
        -------
        AttentionDigraph
            Labelled with the nodes' ``str``.

        Raises
        ------
        TypeError
            ``graph`` is not a ``networkx.DiGraph`` (an undirected graph has no direction).
        SelfLoopError
            ``graph`` has a self-loop and ``drop_loops`` is false.

        Examples
        --------
        >>> import networkx as nx
        >>> g = AttentionDigraph.from_networkx(nx.DiGraph([("x", "y"), ("y", "z")]))
        >>> g.edges.tolist(), g.labels
        ([[0, 1], [1, 2]], ('x', 'y', 'z'))
        """
        import networkx as nx

        if not isinstance(graph, nx.DiGraph):
            raise TypeError(f"expected a networkx.DiGraph, got {type(graph).__name__}")
        index = {node: i for i, node in enumerate(graph.nodes)}
        edges = [(index[u], index[v]) for u, v in graph.edges]
        return cls(len(index), edges, labels=[str(v) for v in graph.nodes],
                   drop_loops=drop_loops)

    def to_networkx(self):
        """This digraph as a ``networkx.DiGraph`` on the nodes ``0..N-1``.

        Edges keep their direction (docs/conventions.md#edge-direction); labels, when present,
        become the ``label`` node attribute.

        Returns
        -------
        networkx.DiGraph
            A new graph, independent of this digraph.

        Examples
        --------
        >>> g = AttentionDigraph(3, [(0, 1), (2, 1)], labels=["a", "b", "c"])
        >>> h = g.to_networkx()
        >>> sorted(h.edges), h.nodes[2]["label"]
        ([(0, 1), (2, 1)], 'c')
        """
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
        """The number of edges ``|E|``."""
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
        """Out-degrees (``N``, ``int64``): entry ``a`` counts the vertices ``a`` acts on (the
        row sums of ``M``); their maximum is ``Δ⁺``."""
        return np.bincount(self.edges[:, 0], minlength=self.n)

    @property
    def in_degrees(self) -> np.ndarray:
        """In-degrees (``N``, ``int64``): entry ``b`` counts the keys query ``b`` attends to
        (the column sums of ``M``); their maximum is ``Δ⁻``."""
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
        """This digraph as a JSON object: ``{"n": N, "edges": [[u, v], ...]}``.

        Edges are listed in lexicographic order; ``"labels"`` is added when labelled. The
        command line reads the same object from a ``.json`` file
        (docs/conventions.md#command-line).

        Returns
        -------
        dict
            Plain Python ints, lists and strs (``json.dumps`` takes it as is).

        Examples
        --------
        >>> AttentionDigraph(3, [(1, 2), (0, 1)]).to_json()
        {'n': 3, 'edges': [[0, 1], [1, 2]]}
        """
        out = {"n": self.n, "edges": self.edges.tolist()}
        if self.labels is not None:
            out["labels"] = list(self.labels)
        return out

    @classmethod
    def from_json(cls, obj: dict, *, drop_loops: bool = False):
        """The attention digraph of a JSON object, the inverse of :meth:`to_json`.

        Parameters
        ----------
        obj : dict
            With keys ``"n"`` and ``"edges"`` (pairs ``[u, v]``: ``u`` acts on ``v``), and
            optionally ``"labels"``.
        drop_loops : bool
            Drop loops instead of raising :class:`SelfLoopError`.

        Returns
        -------
        AttentionDigraph

        Raises
        ------
        DigraphFormatError
            ``obj`` is not a dict with the keys ``"n"`` and ``"edges"`` (or its edges are not
            pairs).
        VertexError
            An edge names a vertex outside ``0..n-1``.
        SelfLoopError
            An edge is a loop and ``drop_loops`` is false.

        Examples
        --------
        >>> g = AttentionDigraph(3, [(0, 1), (1, 2)], labels=["a", "b", "c"])
        >>> AttentionDigraph.from_json(g.to_json()) == g
        True
        """
        if not isinstance(obj, dict) or "n" not in obj or "edges" not in obj:
            raise DigraphFormatError('a digraph JSON object has keys "n" and "edges"')
        return cls(obj["n"], obj["edges"], labels=obj.get("labels"), drop_loops=drop_loops)

    def write(self, path) -> None:
        """Write this digraph to a file: ``.json`` as :meth:`to_json`, anything else as an
        edge list.

        The edge list has a ``u v`` line per edge (``u`` acts on ``v``), after two comment
        lines, the second ``# n N`` so that isolated vertices survive :meth:`read`.

        Parameters
        ----------
        path : str or path-like
            Overwritten if it exists.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> g = AttentionDigraph(3, [(0, 1), (1, 2)])
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = pathlib.Path(folder) / "g.txt"
        ...     g.write(path)
        ...     text = path.read_text()
        >>> print(text, end="")
        # attention digraph: 3 vertices, 2 edges (u acts on v)
        # n 3
        0 1
        1 2
        """
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
        """Read an attention digraph from a ``.json`` file or an edge list.

        A ``.json`` file holds the object of :meth:`to_json`. Any other file is an edge list:
        ``u v`` per line (``u`` acts on ``v``), ``#`` starting a comment; the vertex count is
        that of a ``# n N`` comment if present, else one more than the largest vertex
        (docs/conventions.md#command-line).

        Parameters
        ----------
        path : str or path-like
        drop_loops : bool
            Drop loops ``v v`` (an attention mask's diagonal) instead of raising
            :class:`SelfLoopError`.

        Returns
        -------
        AttentionDigraph
            Labelled only when a ``.json`` file has ``"labels"``.

        Raises
        ------
        DigraphFormatError
            A ``.json`` file is not valid JSON or not a digraph object, or a line of an edge
            list is not two vertex numbers (the message names the line).
        VertexError
            A vertex is negative or not below ``N``.
        SelfLoopError
            An edge is a loop and ``drop_loops`` is false.
        OSError
            The file cannot be read.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = pathlib.Path(folder) / "g.txt"
        ...     _ = path.write_text("# n 5\\n0 1\\n2 3  # a comment\\n")
        ...     g = AttentionDigraph.read(path)
        >>> g.n, g.edges.tolist()
        (5, [[0, 1], [2, 3]])
        """
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
    """Check that ``digraph`` is an :class:`AttentionDigraph`.

    The check every public entry point of :mod:`theorem` makes on its digraph argument, so
    that a matrix or an edge list passed by mistake fails with a clear message.

    Parameters
    ----------
    digraph : object

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`; build one with
        :class:`AttentionDigraph` or :meth:`AttentionDigraph.from_adjacency`.

    Examples
    --------
    >>> check_digraph(AttentionDigraph(2, [(0, 1)]))
    >>> check_digraph([(0, 1)])
    Traceback (most recent call last):
    ...
    TypeError: expected an AttentionDigraph, got list
    """
    if not isinstance(digraph, AttentionDigraph):
        raise TypeError(f"expected an AttentionDigraph, got {type(digraph).__name__}")
