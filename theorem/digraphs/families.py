"""Named attention digraphs: the paper's examples and real sparse-attention patterns.

All follow the direction of docs/conventions.md#edge-direction: ``(a, b)`` means query ``b`` attends to key ``a``.
Causal patterns have edges from earlier to later positions; diagonals are dropped.
"""

from __future__ import annotations

import numpy as np

from manifolds.validation import as_integer

from ..errors import TheoremError, VertexError
from .digraph import AttentionDigraph

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
    return as_integer(value, name, minimum=minimum, error=VertexError)


def _from_rule(n: int, keep) -> AttentionDigraph:
    """Edges ``(a, b)`` with ``keep(a, b)`` true, ``a ≠ b`` (rule evaluated on index grids)."""
    a, b = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    return AttentionDigraph.from_adjacency((keep(a, b) & (a != b)).astype(np.uint8))


def transitive_tournament(n: int) -> AttentionDigraph:
    """Edges ``(a, b)`` for ``a < b``: a causal mask without its diagonal.

    >>> transitive_tournament(3).edges.tolist()
    [[0, 1], [0, 2], [1, 2]]
    """
    return _from_rule(_size(n, "n", 0), lambda a, b: a < b)


def complete_bipartite(a: int, b: int) -> AttentionDigraph:
    """``A × B`` with ``A = {0..a-1}`` acting on ``B = {a..a+b-1}``.

    >>> complete_bipartite(1, 2).edges.tolist()
    [[0, 1], [0, 2]]
    """
    a, b = _size(a, "a", 0), _size(b, "b", 0)
    return _from_rule(a + b, lambda u, v: (u < a) & (v >= a))


def complete_digraph(n: int) -> AttentionDigraph:
    """All ordered pairs of distinct vertices (full attention without the diagonal)."""
    return _from_rule(_size(n, "n", 0), lambda a, b: a == a)


def directed_cycle(n: int) -> AttentionDigraph:
    """Edges ``(i, i + 1 mod n)``; needs ``n ≥ 2``."""
    n = _size(n, "n", 2)
    return AttentionDigraph(n, np.stack([np.arange(n), (np.arange(n) + 1) % n], axis=1))


def sliding_window(n: int, w: int) -> AttentionDigraph:
    """Causal band: position ``b`` attends to the ``w`` positions ``b-w+1..b`` (itself
    dropped), i.e. edges ``(a, b)`` with ``0 < b − a < w``."""
    n, w = _size(n, "n", 0), _size(w, "w", 1)
    return _from_rule(n, lambda a, b: (b - a > 0) & (b - a < w))


def strided(n: int, s: int) -> AttentionDigraph:
    """Strided head of the Sparse Transformer (Child et al., 2019), causal: edges ``(a, b)``
    with ``a < b`` and ``b − a ≡ 0 (mod s)``."""
    n, s = _size(n, "n", 0), _size(s, "s", 1)
    return _from_rule(n, lambda a, b: (a < b) & ((b - a) % s == 0))


def block_local(n: int, block: int) -> AttentionDigraph:
    """Bidirectional local blocks: ``a`` and ``b`` attend to each other iff they lie in the
    same block of ``block`` consecutive positions (``a // block == b // block``)."""
    n, block = _size(n, "n", 0), _size(block, "block", 1)
    return _from_rule(n, lambda a, b: a // block == b // block)


def _need(value, what: str):
    if value is None:
        raise TheoremError(f"this family needs {what}")
    return value


#: The named families, as the command line's ``--family NAME --n N [--m M]`` spells them:
#: ``FAMILIES[name](n, m)`` (``m`` is the second parameter where a family has one).
FAMILIES = {
    "transitive-tournament": lambda n, m: transitive_tournament(n),
    "complete-bipartite": lambda n, m: complete_bipartite(n, _need(m, "--m B")),
    "complete": lambda n, m: complete_digraph(n),
    "cycle": lambda n, m: directed_cycle(n),
    "sliding-window": lambda n, m: sliding_window(n, _need(m, "--m W")),
    "strided": lambda n, m: strided(n, _need(m, "--m S")),
    "block-local": lambda n, m: block_local(n, _need(m, "--m BLOCK")),
}


def named_family(name: str, n: int, m: int | None = None) -> AttentionDigraph:
    """The digraph of the family ``name`` (a key of :data:`FAMILIES`) with parameters ``n``
    and ``m``.

    Raises :class:`TheoremError` for an unknown name or a missing ``m``.

    Examples
    --------
    >>> named_family("complete-bipartite", 3, 4).n_edges
    12
    """
    if name not in FAMILIES:
        raise TheoremError(f"unknown family {name!r}; choose one of {', '.join(sorted(FAMILIES))}")
    return FAMILIES[name](n, m)
