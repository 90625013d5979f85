"""Attention digraphs: loopless digraphs on ``V = {0..N-1}``.

Direction (docs/conventions.md#edge-direction): ``(a, b) ∈ E`` means ``a`` acts on ``b`` — in attention terms
``b`` attends to ``a`` (``a`` supplies the key, ``b`` the query). The adjacency matrix is
``M[a, b] = 1``; an attention pattern is ``A[b, a]``, i.e. ``A = Mᵀ``.
"""

from __future__ import annotations

import codecs
import json
import numbers
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from manifolds.validation import as_count

from ..errors import DigraphFormatError, SelfLoopError, TheoremError, VertexError

__all__ = ["AttentionDigraph", "check_digraph", "check_vertex_count", "MAX_VERTICES",
           "MAX_DENSE_VERTICES"]

#: The most vertices an :class:`AttentionDigraph` may have, ``2^20`` (1,048,576 — more
#: tokens than attention contexts in use). A digraph stores its edges (``O(E)``), but some
#: structures are linear in ``N``: degree arrays (8 bytes a vertex each), trimming masks,
#: labels, and ``to_networkx`` (about 0.6 KB a node). At this limit they stay under about
#: 1 GiB (0.6 GiB for ``to_networkx``, measured), and the pair codes ``a·N + b`` the library
#: sorts stay far inside ``int64``.
#: Isolated vertices cost only these: the solvers drop them (:class:`Trimmed`).
MAX_VERTICES = 2 ** 20

#: The most vertices of anything built as an ``N × N`` matrix, ``2^13`` (8,192): the
#: :attr:`AttentionDigraph.adjacency` (1 byte a pair, 64 MiB here) and what is built from it
#: (the solvers' float64 copies, 512 MiB here), :meth:`AttentionDigraph.from_adjacency`, the
#: named families (built on an index grid) and the random hub model. The solvers apply it to
#: the digraph without its isolated vertices.
MAX_DENSE_VERTICES = 2 ** 13

#: :func:`unique_pair_codes` marks pairs in an ``N × N`` bitmap (no sort) up to this many
#: cells, when there are at least one code for every :data:`_CELLS_PER_CODE` cells.
_BITMAP_CELLS = 64_000_000
_CELLS_PER_CODE = 64


def unique_pair_codes(codes: np.ndarray, n: int) -> np.ndarray:
    """The distinct codes ``a·N + b`` (``0 ≤ a, b < n``) of ``codes``, ascending: marked in
    a bitmap when ``N²`` is small against their number (linear time), else sorted."""
    cells = n * n
    if cells <= _BITMAP_CELLS and cells <= _CELLS_PER_CODE * len(codes):
        marked = np.zeros(cells, dtype=bool)
        marked[codes] = True
        return np.flatnonzero(marked)
    return np.unique(codes)


def target_order(edges: np.ndarray, n: int) -> np.ndarray:
    """The indices that sort ``edges`` (rows ``(a, b)`` sorted by source, then target, as
    :attr:`AttentionDigraph.edges`) by target, then source: a stable sort of the targets,
    which numpy makes a radix sort (linear time) on 16-bit integers, so for ``N ≤ 65,536``."""
    targets = edges[:, 1].astype(np.uint16) if n <= 1 << 16 else edges[:, 1]
    return np.argsort(targets, kind="stable")


#: An ASCII vertex number of an edge list (``str.isdigit`` also accepts digits ``int``
#: rejects, such as ``"²"``).
_NUMBER = re.compile(r"-?[0-9]+")


def check_vertex_count(value, name: str = "n", *, dense: bool = False, what: str = "") -> int:
    """``value`` as a vertex count, checked against the library's limits before anything
    is allocated.

    A count is a non-negative integer up to :data:`MAX_VERTICES`, or up to
    :data:`MAX_DENSE_VERTICES` when ``dense`` (what is built as an ``N × N`` matrix). Every
    constructor of :class:`AttentionDigraph`, the named families and the random hub model
    check their sizes with it.

    Parameters
    ----------
    value : int
        The count (numpy integers included, ``bool`` excluded).
    name : str
        The argument's name, for the message.
    dense : bool
        Apply :data:`MAX_DENSE_VERTICES` instead of :data:`MAX_VERTICES`.
    what : str
        What needs the count, for the message (``"an adjacency matrix"``, …).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        ``value`` is not an integer.
    VertexError
        ``value`` is negative or above the limit (the message gives the limit and why).

    Examples
    --------
    >>> check_vertex_count(5)
    5
    >>> check_vertex_count(10 ** 12)
    Traceback (most recent call last):
    ...
    theorem.errors.VertexError: n = 1000000000000 vertices is above the limit of 1048576 (MAX_VERTICES); a digraph holds per-vertex arrays, so give at most 1048576 vertices (renumber the vertices to 0..N-1 without gaps)
    """
    value = as_count(value, name, error=VertexError)
    if dense and value > MAX_DENSE_VERTICES:
        need = value * value / 2 ** 30
        raise VertexError(
            f"{name} = {value} vertices is above the limit of {MAX_DENSE_VERTICES} "
            f"(MAX_DENSE_VERTICES) for {what or 'what is built as an N × N matrix'}: its "
            f"{value} × {value} pairs take {need:.3g} GiB at one byte a pair; give at most "
            f"{MAX_DENSE_VERTICES} vertices (the solvers count only vertices with an edge)")
    if value > MAX_VERTICES:
        raise VertexError(
            f"{name} = {value} vertices is above the limit of {MAX_VERTICES} (MAX_VERTICES); "
            f"a digraph holds per-vertex arrays, so give at most {MAX_VERTICES} vertices "
            "(renumber the vertices to 0..N-1 without gaps)")
    return value


def _edge_array(edges, n: int) -> np.ndarray:
    """``edges`` as an ``(E, 2)`` ``int64`` array with endpoints in ``0..n-1``, checked
    before any cast (a float ``inf`` or an integer beyond ``int64`` would wrap around)."""
    try:
        arr = np.asarray(edges)
    except (ValueError, TypeError):          # ragged rows: numpy's "inhomogeneous shape"
        raise DigraphFormatError("edges must be pairs (a, b), an array of shape (E, 2); got "
                                 "rows of different lengths") from None
    if arr.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise DigraphFormatError(
            f"edges must be pairs (a, b), an array of shape (E, 2); got shape {arr.shape}")
    if arr.dtype == object:      # Python ints beyond int64, or mixed types: checked one by one
        flat = arr.ravel().tolist()
        for i, v in enumerate(flat):
            if isinstance(v, bool) or not isinstance(v, numbers.Real) or not (
                    isinstance(v, numbers.Integral) or (np.isfinite(v) and v == round(v))):
                raise TypeError(f"edge endpoints must be integers, got {v!r}")
            if not 0 <= v < n:
                pair = tuple(flat[i - i % 2:i - i % 2 + 2])
                raise VertexError(f"edge {i // 2} is {pair}, but vertices are 0..{n - 1}; "
                                  "raise n or renumber the vertices")
        return np.asarray(flat, dtype=np.int64).reshape(-1, 2)
    if np.issubdtype(arr.dtype, np.floating):
        if not np.all(np.isfinite(arr) & (arr == np.round(arr))):
            raise TypeError(f"edge endpoints must be integers, got dtype {arr.dtype} with "
                            "non-integral values")
    elif not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"edge endpoints must be integers, got dtype {arr.dtype}")
    bad = (arr < 0) | (arr >= n)              # compared in the input's own dtype
    if bad.any():
        row = int(np.argwhere(bad)[0, 0])
        pair = tuple(int(v) for v in arr[row].tolist())
        raise VertexError(
            f"edge {row} is {pair}, but vertices are 0..{n - 1}; raise n or renumber the "
            "vertices")
    return arr.astype(np.int64)


@dataclass(frozen=True, eq=False)
class AttentionDigraph:
    r"""A loopless digraph ``(V, E)`` with ``V = {0..N-1}`` and optional vertex labels.

    Parameters
    ----------
    n : int
        Number of vertices ``N``, at most :data:`MAX_VERTICES`.
    edges : array_like of shape ``(E, 2)``
        Pairs ``(a, b)``: ``a`` acts on ``b`` (``b`` attends to ``a``). Duplicates merge;
        :attr:`n_duplicate_edges` counts the rows dropped.
    labels : sequence of str, optional
        One label per vertex.
    drop_loops : bool
        Drop loops ``(v, v)`` instead of raising :class:`SelfLoopError` (real attention masks
        contain the diagonal).

    Attributes
    ----------
    edges : ndarray of int64, shape ``(E, 2)``
        Sorted lexicographically, without duplicates.
    n_duplicate_edges : int
        How many rows of ``edges`` repeated an earlier one and were dropped (loops dropped
        by ``drop_loops`` not counted). Read-only; a record of the input, not part of the
        digraph: equality and hashing ignore it, and digraphs derived from this one have 0.
    n_dropped_loops : int
        How many loops ``drop_loops`` dropped (for an attention pattern: the queries that
        kept their own key). Read-only, a record of the input like :attr:`n_duplicate_edges`.

    Raises
    ------
    TypeError
        ``n`` or an edge endpoint is not an integer (integral floats are accepted).
    VertexError
        ``n`` is negative or above :data:`MAX_VERTICES`, an endpoint is not in ``0..n-1``, or
        ``labels`` does not give one label per vertex.
    DigraphFormatError
        ``edges`` is not a list of pairs (shape ``(E, 2)``).
    SelfLoopError
        An edge is a loop and ``drop_loops`` is false.

    Examples
    --------
    >>> g = AttentionDigraph(3, [(0, 1), (0, 2), (1, 2), (0, 1)])
    >>> g.n_edges, g.n_duplicate_edges, g.adjacency.tolist()
    (3, 1, [[0, 1, 1], [0, 0, 1], [0, 0, 0]])
    >>> g = AttentionDigraph.from_attention_mask(np.tril(np.ones((3, 3))), drop_loops=True)
    >>> g.n_edges, g.n_dropped_loops
    (3, 3)
    """

    n: int
    edges: np.ndarray
    labels: tuple[str, ...] | None = None
    n_duplicate_edges: int = 0
    n_dropped_loops: int = 0

    def __init__(self, n: int, edges=(), *, labels=None, drop_loops: bool = False):
        n = check_vertex_count(n)           # before anything is allocated
        arr = _edge_array(edges, n)
        loops = arr[:, 0] == arr[:, 1]
        if loops.any():
            if not drop_loops:
                v = int(arr[loops][0, 0])
                raise SelfLoopError(
                    f"edge ({v}, {v}) is a loop; attention digraphs are loopless — pass "
                    "drop_loops=True to drop the diagonal of an attention mask")
            arr = arr[~loops]
        n_loops = int(loops.sum())
        given = len(arr)
        if len(arr):  # sorted, without duplicates: one 1-D sort of the codes a·N + b
            codes = unique_pair_codes(arr[:, 0] * n + arr[:, 1], n)
            arr = np.column_stack([codes // n, codes % n])
        if labels is not None:
            if isinstance(labels, str) or not isinstance(labels, Iterable):
                raise TypeError(f"labels must be a sequence of str, one per vertex, not "
                                f"{type(labels).__name__}")
            labels = tuple(str(s) for s in labels)
            if len(labels) != n:
                raise VertexError(f"{len(labels)} labels for {n} vertices; give one per vertex")
        object.__setattr__(self, "n", int(n))
        object.__setattr__(self, "edges", arr)
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "n_duplicate_edges", given - len(arr))
        object.__setattr__(self, "n_dropped_loops", n_loops)
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
            Entries 0 and 1 only; ``N`` at most :data:`MAX_DENSE_VERTICES`.
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
            ``labels`` does not give one label per vertex, or ``N`` is above
            :data:`MAX_DENSE_VERTICES`.

        Examples
        --------
        >>> AttentionDigraph.from_adjacency([[0, 1, 1], [0, 0, 0], [0, 1, 0]]).edges.tolist()
        [[0, 1], [0, 2], [2, 1]]
        """
        try:
            m = np.asarray(matrix)
        except (ValueError, TypeError):     # ragged rows
            raise DigraphFormatError("an adjacency matrix is square; got rows of different "
                                     "lengths") from None
        if m.ndim != 2 or m.shape[0] != m.shape[1]:
            raise DigraphFormatError(f"an adjacency matrix is square; got shape {m.shape}")
        check_vertex_count(m.shape[0], "N", dense=True, what="an adjacency matrix")
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
            ``labels`` does not give one label per vertex, or ``N`` is above
            :data:`MAX_DENSE_VERTICES`.

        Examples
        --------
        A causal mask: each query attends to itself and to the keys before it.

        >>> causal = np.tril(np.ones((3, 3), dtype=int))
        >>> AttentionDigraph.from_attention_mask(causal, drop_loops=True).edges.tolist()
        [[0, 1], [0, 2], [1, 2]]
        """
        try:
            a = np.asarray(mask)
        except (ValueError, TypeError):     # ragged rows
            raise DigraphFormatError("an attention mask is a square matrix; got rows of "
                                     "different lengths") from None
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
        VertexError
            ``graph`` has more than :data:`MAX_VERTICES` nodes.
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
        check_vertex_count(graph.number_of_nodes(), "the graph's number of nodes")
        index = {node: i for i, node in enumerate(graph.nodes)}
        edges = [(index[u], index[v]) for u, v, *_ in graph.edges]   # multigraphs: (u, v, key)
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
        """``M`` (``N×N``, ``uint8``): ``M[a, b] = 1`` iff ``(a, b) ∈ E``; built on each
        access, for at most :data:`MAX_DENSE_VERTICES` vertices (else :class:`VertexError`)."""
        check_vertex_count(self.n, dense=True, what="the adjacency matrix")
        m = np.zeros((self.n, self.n), dtype=np.uint8)
        m[self.edges[:, 0], self.edges[:, 1]] = 1
        return m

    @property
    def attention_mask(self) -> np.ndarray:
        """``A = Mᵀ``: ``A[b, a] = 1`` iff ``b`` attends to ``a`` (at most
        :data:`MAX_DENSE_VERTICES` vertices, as :attr:`adjacency`)."""
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
            ``obj`` is not a dict with the keys ``"n"`` and ``"edges"``, ``"n"`` is not a
            whole number, its edges are not pairs of whole numbers, or ``"labels"`` is not a
            list (what the JSON got wrong is bad input, not a wrong type).
        VertexError
            ``"n"`` is negative or above :data:`MAX_VERTICES`, an edge names a vertex outside
            ``0..n-1``, or ``"labels"`` does not give one label per vertex.
        SelfLoopError
            An edge is a loop and ``drop_loops`` is false.

        Examples
        --------
        >>> g = AttentionDigraph(3, [(0, 1), (1, 2)], labels=["a", "b", "c"])
        >>> AttentionDigraph.from_json(g.to_json()) == g
        True
        >>> AttentionDigraph.from_json({"n": 10 ** 12 + 1, "edges": []})
        Traceback (most recent call last):
        ...
        theorem.errors.VertexError: n = 1000000000001 vertices is above the limit of 1048576 (MAX_VERTICES); a digraph holds per-vertex arrays, so give at most 1048576 vertices (renumber the vertices to 0..N-1 without gaps)
        """
        if not isinstance(obj, dict) or "n" not in obj or "edges" not in obj:
            raise DigraphFormatError('a digraph JSON object has keys "n" and "edges"')
        try:
            return cls(obj["n"], obj["edges"], labels=obj.get("labels"), drop_loops=drop_loops)
        except TypeError as exc:            # a JSON value of the wrong kind is bad input
            raise DigraphFormatError(f"a digraph JSON object: {exc}") from None

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
            The file is not text (UTF-8 with or without a byte-order mark, or UTF-16/32 with
            one), a ``.json`` file is not valid JSON or not a digraph object, or a line of an
            edge list is not two vertex numbers (the message names the line).
        VertexError
            A vertex is negative or not below ``N``, or ``N`` is above :data:`MAX_VERTICES`
            (the message names the line).
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
        text = _text(path.read_bytes(), path)
        if path.suffix == ".json":
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError) as exc:   # JSONDecodeError is a ValueError
                raise DigraphFormatError(f"{path}: not valid JSON ({exc})") from None
            try:
                return cls.from_json(obj, drop_loops=drop_loops)
            except TheoremError as exc:
                raise type(exc)(f"{path}: {exc}") from None
        n, edges = None, []
        largest, where = -1, 0              # the largest vertex and its line
        for number, line in enumerate(text.splitlines(), 1):
            body, _, comment = line.partition("#")
            words = comment.split()
            if len(words) == 2 and words[0] == "n" and _NUMBER.fullmatch(words[1]):
                n = _vertex_number(words[1], f"{path}:{number}: the vertex count")
                try:
                    check_vertex_count(n)
                except VertexError as exc:
                    raise VertexError(f"{path}:{number}: {exc}") from None
            if not body.strip():
                continue
            parts = body.split()
            if len(parts) != 2 or not all(_NUMBER.fullmatch(p) for p in parts):
                raise DigraphFormatError(
                    f"{path}:{number}: expected two vertex numbers 'u v', got {body.strip()!r}")
            u, v = (_vertex_number(p, f"{path}:{number}: vertex") for p in parts)
            if u < 0 or v < 0:
                raise VertexError(f"{path}:{number}: vertex {min(u, v)} is negative; "
                                  "vertices are numbered 0..N-1")
            if max(u, v) > largest:
                largest, where = max(u, v), number
            edges.append((u, v))
        if n is None:
            if largest >= MAX_VERTICES:
                raise VertexError(
                    f"{path}:{where}: vertex {largest} needs {largest + 1} vertices, above the "
                    f"limit of {MAX_VERTICES} (MAX_VERTICES; a digraph holds per-vertex "
                    "arrays); renumber the vertices to 0..N-1 without gaps")
            n = largest + 1
        elif largest >= n:
            raise VertexError(f"{path}:{where}: vertex {largest} is not below n = {n} (the "
                              "'# n N' line); raise N or renumber the vertices")
        try:
            return cls(n, edges, drop_loops=drop_loops)
        except TheoremError as exc:
            raise type(exc)(f"{path}: {exc}") from None


def _text(data: bytes, path) -> str:
    """The text of a digraph file: UTF-32 or UTF-16 after their byte-order marks, else
    UTF-8 with or without one; anything else (or NUL bytes) is not a digraph file."""
    codec = next((name for bom, name in ((codecs.BOM_UTF32_LE, "utf-32"),   # before UTF-16:
                                         (codecs.BOM_UTF32_BE, "utf-32"),   # FF FE 00 00
                                         (codecs.BOM_UTF16_LE, "utf-16"),
                                         (codecs.BOM_UTF16_BE, "utf-16"))
                  if data.startswith(bom)), "utf-8-sig")
    hint = "give an edge list 'u v' per line or .json"
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise DigraphFormatError(
            f"{path}: not a text file (byte {data[exc.start]:#04x} at offset {exc.start} is not "
            f"{'UTF-8' if codec == 'utf-8-sig' else codec.upper()}); {hint}") from None
    if "\x00" in text:
        raise DigraphFormatError(f"{path}: not a text file (it holds NUL bytes: binary, or "
                                 f"UTF-16 without a byte-order mark); {hint}")
    return text


def _vertex_number(word: str, what: str) -> int:
    """An ASCII number of an edge list as an ``int``; one too long to be a vertex (``int``
    refuses over 4300 digits) is refused here, with ``what`` naming the line."""
    if len(word.lstrip("-")) > 18:
        raise VertexError(f"{what} {word[:24]}{'…' if len(word) > 24 else ''} is above the "
                          f"limit of {MAX_VERTICES} vertices (MAX_VERTICES); renumber the "
                          "vertices to 0..N-1 without gaps")
    return int(word)


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
