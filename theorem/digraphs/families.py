"""Named attention digraphs: the paper's examples and real sparse-attention patterns.

All follow the direction of docs/conventions.md#edge-direction: ``(a, b)`` means query ``b`` attends to key ``a``.
Causal patterns have edges from earlier to later positions; diagonals are dropped.
"""

from __future__ import annotations

import numpy as np

from manifolds.validation import as_integer

from ..errors import TheoremError, VertexError
from .digraph import AttentionDigraph, check_vertex_count

__all__ = [
    "transitive_tournament",
    "complete_bipartite",
    "complete_digraph",
    "directed_cycle",
    "sliding_window",
    "strided",
    "block_local",
    "FAMILIES",
    "named_family",
]


def _size(value, name: str, minimum: int) -> int:
    """A family's size parameter: an integer ``≥ minimum`` (``VertexError`` below)."""
    return as_integer(value, name, minimum=minimum, error=VertexError)


def _from_rule(n: int, keep) -> AttentionDigraph:
    """Edges ``(a, b)`` with ``keep(a, b)`` true, ``a ≠ b``: the rule is evaluated on the
    ``n × n`` index grid (broadcast), so ``n`` is checked against
    :data:`MAX_DENSE_VERTICES` first."""
    n = check_vertex_count(n, dense=True, what="a named family (built on an n × n grid)")
    a, b = np.arange(n)[:, None], np.arange(n)[None, :]
    return AttentionDigraph.from_adjacency((keep(a, b) & (a != b)).astype(np.uint8))


def transitive_tournament(n: int) -> AttentionDigraph:
    """The transitive tournament on ``n`` vertices: a causal mask without its diagonal.

    Edges ``(a, b)`` for every ``a < b``: each position attends to every earlier one. The
    paper's first example is ``n = 3``, with ``b = 2``, ``χ_hub = 2`` and ``χ' = 2``
    (docs/conventions.md#hub-extensions-and-colorings).

    Parameters
    ----------
    n : int
        Number of vertices, at least 0.

    Returns
    -------
    AttentionDigraph
        With ``n(n − 1)/2`` edges.

    Raises
    ------
    VertexError
        ``n`` is negative or above :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        (the family is built on an ``n × n`` grid).

    Examples
    --------
    >>> transitive_tournament(3).edges.tolist()
    [[0, 1], [0, 2], [1, 2]]
    """
    return _from_rule(_size(n, "n", 0), lambda a, b: a < b)


def complete_bipartite(a: int, b: int) -> AttentionDigraph:
    """The complete bipartite digraph ``A × B``: every vertex of ``A`` acts on every vertex
    of ``B``.

    ``A = {0..a-1}`` and ``B = {a..a+b-1}``. The paper's second example is ``a = 3``,
    ``b = 4``, with ``b = 1`` biclique, ``χ_hub = 1`` and ``χ' = 4``
    (docs/conventions.md#hub-extensions-and-colorings).

    Parameters
    ----------
    a : int
        ``|A|``, at least 0.
    b : int
        ``|B|``, at least 0.

    Returns
    -------
    AttentionDigraph
        On ``a + b`` vertices, with ``a · b`` edges.

    Raises
    ------
    VertexError
        ``a`` or ``b`` is negative, or ``a + b`` is above
        :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`.

    Examples
    --------
    >>> complete_bipartite(1, 2).edges.tolist()
    [[0, 1], [0, 2]]
    >>> complete_bipartite(3, 4).in_degrees.tolist()
    [0, 0, 0, 3, 3, 3, 3]
    """
    a, b = _size(a, "a", 0), _size(b, "b", 0)
    check_vertex_count(a + b, "a + b", dense=True, what="complete_bipartite (an n × n grid)")
    return _from_rule(a + b, lambda u, v: (u < a) & (v >= a))


def complete_digraph(n: int) -> AttentionDigraph:
    """The complete digraph on ``n`` vertices: full attention without the diagonal.

    Every ordered pair ``(a, b)`` of distinct vertices is an edge.

    Parameters
    ----------
    n : int
        Number of vertices, at least 0.

    Returns
    -------
    AttentionDigraph
        With ``n(n − 1)`` edges.

    Raises
    ------
    VertexError
        ``n`` is negative or above :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        (the family is built on an ``n × n`` grid).

    Examples
    --------
    >>> complete_digraph(3).edges.tolist()
    [[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1]]
    """
    return _from_rule(_size(n, "n", 0), lambda a, b: a == a)


def directed_cycle(n: int) -> AttentionDigraph:
    """The directed cycle on ``n`` vertices: edges ``(i, i + 1 mod n)``.

    Parameters
    ----------
    n : int
        Number of vertices, at least 2 (``n = 1`` would be a loop).

    Returns
    -------
    AttentionDigraph
        With ``n`` edges.

    Raises
    ------
    VertexError
        ``n`` is below 2 or above :data:`~theorem.digraphs.digraph.MAX_VERTICES`.

    Examples
    --------
    >>> directed_cycle(3).edges.tolist()
    [[0, 1], [1, 2], [2, 0]]
    """
    n = check_vertex_count(_size(n, "n", 2))       # before np.arange allocates
    return AttentionDigraph(n, np.stack([np.arange(n), (np.arange(n) + 1) % n], axis=1))


def sliding_window(n: int, w: int) -> AttentionDigraph:
    """The causal sliding-window pattern: position ``b`` attends to the ``w`` positions
    ``b-w+1..b``, itself dropped.

    Edges ``(a, b)`` with ``0 < b − a < w`` (docs/conventions.md#edge-direction); ``w = 1``
    leaves only the dropped diagonal, hence no edge.

    Parameters
    ----------
    n : int
        Number of positions, at least 0.
    w : int
        Window width, the diagonal included, at least 1.

    Returns
    -------
    AttentionDigraph

    Raises
    ------
    VertexError
        ``n`` is negative or above :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`,
        or ``w`` is below 1.

    Examples
    --------
    >>> sliding_window(4, 2).edges.tolist()
    [[0, 1], [1, 2], [2, 3]]
    """
    n, w = _size(n, "n", 0), _size(w, "w", 1)
    w = min(w, max(n, 1))           # a window past the first position changes nothing
    return _from_rule(n, lambda a, b: (b - a > 0) & (b - a < w))


def strided(n: int, s: int) -> AttentionDigraph:
    """The strided head of the Sparse Transformer (Child et al., 2019), causal.

    Edges ``(a, b)`` with ``a < b`` and ``b − a ≡ 0 (mod s)``: position ``b`` attends to the
    earlier positions a multiple of ``s`` away.

    Parameters
    ----------
    n : int
        Number of positions, at least 0.
    s : int
        Stride, at least 1 (``s = 1`` gives the transitive tournament).

    Returns
    -------
    AttentionDigraph

    Raises
    ------
    VertexError
        ``n`` is negative or above :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`,
        or ``s`` is below 1.

    Examples
    --------
    >>> strided(5, 2).edges.tolist()
    [[0, 2], [0, 4], [1, 3], [2, 4]]
    """
    n, s = _size(n, "n", 0), _size(s, "s", 1)
    s = min(s, max(n, 1))           # a stride ≥ n joins no pair: s = n gives the same
    return _from_rule(n, lambda a, b: (a < b) & ((b - a) % s == 0))


def block_local(n: int, block: int) -> AttentionDigraph:
    """The bidirectional block-local pattern: positions attend to each other within blocks.

    ``a`` and ``b ≠ a`` attend to each other iff they lie in the same block of ``block``
    consecutive positions (``a // block == b // block``); the last block may be shorter.

    Parameters
    ----------
    n : int
        Number of positions, at least 0.
    block : int
        Block length, at least 1.

    Returns
    -------
    AttentionDigraph
        A disjoint union of complete digraphs.

    Raises
    ------
    VertexError
        ``n`` is negative or above :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`,
        or ``block`` is below 1.

    Examples
    --------
    >>> block_local(4, 2).edges.tolist()
    [[0, 1], [1, 0], [2, 3], [3, 2]]
    """
    n, block = _size(n, "n", 0), _size(block, "block", 1)
    block = min(block, max(n, 1))   # one block holds everything either way
    return _from_rule(n, lambda a, b: a // block == b // block)


def _need(value, what: str):
    if value is None:
        raise TheoremError(f"this family needs {what}")
    return value


def _none(value, name: str) -> None:
    if value is not None:
        raise TheoremError(f"{name} has one parameter, n; leave out m (--m), got m = {value}")


#: The named families, as the command line's ``--family NAME --n N [--m M]`` spells them:
#: ``FAMILIES[name](n, m)`` (``m`` is the second parameter where a family has one).
FAMILIES = {
    "transitive-tournament": lambda n, m: _none(m, "transitive-tournament") or transitive_tournament(n),
    "complete-bipartite": lambda n, m: complete_bipartite(n, _need(m, "--m B")),
    "complete": lambda n, m: _none(m, "complete") or complete_digraph(n),
    "cycle": lambda n, m: _none(m, "cycle") or directed_cycle(n),
    "sliding-window": lambda n, m: sliding_window(n, _need(m, "--m W")),
    "strided": lambda n, m: strided(n, _need(m, "--m S")),
    "block-local": lambda n, m: block_local(n, _need(m, "--m BLOCK")),
}


def named_family(name: str, n: int, m: int | None = None) -> AttentionDigraph:
    """The digraph of a named family, as the command line's ``--family NAME --n N [--m M]``
    spells it (docs/conventions.md#command-line).

    Parameters
    ----------
    name : str
        A key of :data:`FAMILIES`: ``"transitive-tournament"``, ``"complete-bipartite"``,
        ``"complete"``, ``"cycle"``, ``"sliding-window"``, ``"strided"`` or
        ``"block-local"``.
    n : int
        The first parameter: the number of vertices (``|A|`` for ``"complete-bipartite"``).
    m : int, optional
        The second parameter, for the families that have one: ``|B|``, the window ``w``, the
        stride ``s`` or the block length.

    Returns
    -------
    AttentionDigraph

    Raises
    ------
    TypeError
        ``name`` is not a str (or ``n``, ``m`` not integers).
    TheoremError
        ``name`` is not a key of :data:`FAMILIES`, or the family needs ``m`` and it is
        ``None``, or it has no second parameter and ``m`` is given.
    VertexError
        ``n`` or ``m`` is out of the family's range.

    Examples
    --------
    >>> named_family("complete-bipartite", 3, 4).n_edges
    12
    >>> named_family("strided", 8)
    Traceback (most recent call last):
    ...
    theorem.errors.TheoremError: this family needs --m S
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a family's name (a str), not {type(name).__name__}")
    if name not in FAMILIES:
        raise TheoremError(f"unknown family {name!r}; choose one of {', '.join(sorted(FAMILIES))}")
    return FAMILIES[name](n, m)
