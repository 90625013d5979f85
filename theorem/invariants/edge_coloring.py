"""The chromatic index ``χ'`` of an attention digraph and its König coloring.

Edges sharing a source or a target must differ in color. Seen on the bipartite double cover
(sources on one side, targets on the other) this is proper edge coloring of a bipartite
graph, so by König's theorem ``χ' = Δ = max(Δ⁺, Δ⁻)``. The coloring is constructed by
rustworkx's bipartite edge coloring (Alon's algorithm) and checked by
:func:`validate_edge_coloring`; the lower bound is a vertex of degree ``Δ``, whose ``Δ``
edges pairwise share an endpoint.
"""

from __future__ import annotations

import time

import numpy as np

from ..digraphs.digraph import AttentionDigraph, check_digraph, target_order
from ..digraphs.trim import Trimmed
from ..errors import InvalidColoringError
from ..sat.budget import anytime, deadline_after, reserve
from .results import Certificate, InvariantResult

__all__ = ["chromatic_index", "validate_edge_coloring"]


def validate_edge_coloring(digraph: AttentionDigraph, colors) -> None:
    """Check that edges of one color share no source and no target.

    The coloring rule of ``χ'`` (docs/conventions.md#hub-extensions-and-colorings): each
    color class is a matching of the bipartite double cover. Linear time up to a sort;
    returns nothing when the coloring is valid.

    Parameters
    ----------
    digraph : AttentionDigraph
    colors : array_like of int, shape ``(n_edges,)``
        ``colors[i]`` is the color of ``digraph.edges[i]``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.
    InvalidColoringError
        ``colors`` is not one integer per edge, or two edges of one color share a source or
        a target (the message names the two edges and the shared vertex). Any integers are
        colors (negative or huge ones too: only equality matters).

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> tt3 = transitive_tournament(3)          # edges (0, 1), (0, 2), (1, 2)
    >>> validate_edge_coloring(tt3, [0, 1, 0])  # valid: no error
    >>> validate_edge_coloring(tt3, [0, 1, 1])
    Traceback (most recent call last):
        ...
    theorem.errors.InvalidColoringError: edges (0, 2) and (1, 2) both have color 1 and share the target 2
    """
    check_digraph(digraph)
    try:
        c = np.asarray(colors)
    except (ValueError, TypeError):         # ragged
        c = np.asarray(None)
    if c.size == 0 and c.ndim == 1:         # [] colors no edge: its float dtype is no matter
        c = c.astype(np.int64)
    if c.shape != (digraph.n_edges,) or not np.issubdtype(c.dtype, np.integer):
        raise InvalidColoringError(
            f"an edge coloring is one integer per edge: expected shape ({digraph.n_edges},), "
            f"got {c.shape} of {c.dtype}")
    # colors by rank: keys (vertex, color) without overflow, whatever the integers
    rank = _ranks(c)
    for side, name in ((0, "source"), (1, "target")):
        key = digraph.edges[:, side] * (int(rank.max(initial=0)) + 1) + rank
        order = np.argsort(key, kind="stable")
        dup = np.flatnonzero(key[order][1:] == key[order][:-1])
        if dup.size:
            i, j = sorted((int(order[dup[0]]), int(order[dup[0] + 1])))
            u = int(digraph.edges[i, side])
            raise InvalidColoringError(
                f"edges {tuple(digraph.edges[i].tolist())} and {tuple(digraph.edges[j].tolist())}"
                f" both have color {int(c[i])} and share the {name} {u}")


def chromatic_index(digraph: AttentionDigraph, *, time_limit: float | None = None
                    ) -> InvariantResult:
    """Chromatic index ``χ' = max(Δ⁺, Δ⁻)`` with a König coloring as witness.

    The value is read off the degrees; the witness coloring takes longer (rustworkx's
    bipartite edge coloring, minutes on digraphs with ``10^5`` edges and large degrees). When
    ``time_limit`` seconds pass first, the witness is a greedy coloring (each edge the least
    color free at both ends, at most ``2Δ − 1`` colors), or when even that did not finish,
    the coloring by the pair (rank of ``b`` among the targets of ``a``, rank of ``a`` among
    the sources of ``b``); the result then has ``optimal=False`` unless it happens to use
    ``Δ`` colors. A greedy coloring with ``Δ`` colors is already optimal and returned. The
    coloring is made on the digraph without its isolated vertices (:class:`Trimmed`; edges
    keep their order), so it costs no more for a large ``N``.

    Parameters
    ----------
    digraph : AttentionDigraph
    time_limit : float, optional
        Seconds for the coloring.

    Returns
    -------
    InvariantResult
        ``witness``: ``int64`` array, the color of each row of ``digraph.edges``, checked by
        :func:`validate_edge_coloring`; ``certificate``: a vertex of maximum degree.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.
    TheoremError
        ``time_limit`` is not a positive, finite number of seconds.

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite
    >>> r = chromatic_index(complete_bipartite(3, 4))
    >>> r.value, r.optimal, r.certificate.data
    (4, True, {'vertex': 0, 'side': 'out', 'degree': 4})
    """
    start = time.perf_counter()
    check_digraph(digraph)
    deadline = deadline_after(time_limit)
    colors = np.zeros(digraph.n_edges, dtype=np.int64)
    # without isolated vertices (edges keep their order): nothing here is linear in N
    trimmed = Trimmed.of(digraph) if digraph.n_edges else None
    if digraph.n_edges:
        small = trimmed.digraph
        if deadline is None:
            colors, _ = anytime(_colorings, None, small)
        else:  # a valid coloring at once, in O(E log E), in case the search reports none
            colors = _rank_pair_coloring(small)        # (validated below, as any witness)
            found, _ = anytime(_colorings, reserve(deadline, time.perf_counter() - start), small)
            colors = colors if found is None else found
    validate_edge_coloring(digraph, colors)
    out_deg, in_deg = digraph.out_degrees, digraph.in_degrees
    side = "out" if out_deg.max(initial=0) >= in_deg.max(initial=0) else "in"
    deg = out_deg if side == "out" else in_deg
    vertex = int(np.argmax(deg)) if digraph.n else -1
    delta = int(deg.max(initial=0))
    used = int(colors.max()) + 1 if len(colors) else 0
    certificate = Certificate(
        "max-degree", f"vertex {vertex} has {side}-degree {delta}: its edges pairwise share "
        f"it, so they need {delta} colors", {"vertex": vertex, "side": side, "degree": delta})
    return InvariantResult("chromatic_index", used, delta, used, used == delta, colors,
                           certificate, time.perf_counter() - start)


def _colorings(report, digraph: AttentionDigraph) -> None:
    """Report the greedy coloring, then the König coloring (runs under :func:`.anytime`)."""
    import rustworkx as rx

    greedy = _greedy_coloring(digraph)
    report(greedy)
    if greedy.max() + 1 == max(digraph.out_degrees.max(), digraph.in_degrees.max()):
        return                                                 # already optimal
    n, edges = digraph.n, digraph.edges
    cover = rx.PyGraph(multigraph=False)
    cover.add_nodes_from(range(2 * n))
    cover.add_edges_from_no_data(list(zip(edges[:, 0].tolist(), (edges[:, 1] + n).tolist())))
    found = cover.edge_list()  # edge indices follow insertion order; check that
    if not np.array_equal(np.asarray(found) - [0, n], edges):
        raise InvalidColoringError("rustworkx reordered edges; cannot map colors back")
    coloring = rx.graph_bipartite_edge_color(cover)
    report(np.fromiter((coloring[i] for i in range(len(edges))), np.int64, len(edges)))


def _greedy_coloring(digraph: AttentionDigraph) -> np.ndarray:
    """Each edge in turn gets the least color used at neither end (``≤ 2Δ − 1`` colors);
    the colors used at each vertex are the bits of a Python integer."""
    used_out = [0] * digraph.n
    used_in = [0] * digraph.n
    colors = []
    for a, b in digraph.edges.tolist():
        used = used_out[a] | used_in[b]
        bit = ~used & (used + 1)
        colors.append(bit.bit_length() - 1)
        used_out[a] |= bit
        used_in[b] |= bit
    return np.asarray(colors, dtype=np.int64)


def _rank_pair_coloring(digraph: AttentionDigraph) -> np.ndarray:
    """A valid coloring in ``O(E)`` for ``N ≤ 65,536`` (else ``O(E log E)``): edge
    ``(a, b)`` gets the pair (rank of ``b`` in ``N⁺(a)``, rank of ``a`` in ``N⁻(b)``) as one
    number (``≤ Δ⁺ Δ⁻`` colors)."""
    e = digraph.edges                                   # sorted by source, then target
    out_rank = _rank_in_run(e[:, 0])
    order = target_order(e, digraph.n)
    in_rank = np.empty(len(e), dtype=np.int64)
    in_rank[order] = _rank_in_run(e[order, 1])
    pair = out_rank * (int(in_rank.max(initial=0)) + 1) + in_rank
    return _ranks(pair)


def _rank_in_run(keys: np.ndarray) -> np.ndarray:
    """The position of each entry of the sorted ``keys`` among the equal ones before it."""
    index = np.arange(len(keys))
    first = np.r_[True, keys[1:] != keys[:-1]] if len(keys) else np.zeros(0, bool)
    return index - np.maximum.accumulate(np.where(first, index, 0))


#: :func:`_ranks` counts values in a table over their range (no sort) when the range is at
#: most this many times their number.
_RANGE_PER_VALUE = 64


def _ranks(values: np.ndarray) -> np.ndarray:
    """The rank of each integer among the distinct ``values`` (0 for the smallest), int64:
    by a table over their range when it is small (linear time), else by a sort."""
    values = values.reshape(-1)
    if len(values) and values.min() >= 0 and values.max() < _RANGE_PER_VALUE * len(values):
        present = np.zeros(int(values.max()) + 1, dtype=np.int64)
        present[values] = 1
        return (np.cumsum(present) - 1)[values]
    return np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.int64)
