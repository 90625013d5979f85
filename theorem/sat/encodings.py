"""CNF encodings of the invariants' claims: covers by ``k`` bicliques (plain, or maximal and
ordered), by ``h`` difunctional relations, and by ``n`` hubs with ``h`` colors.

Each returns ``(clauses, decode)``: the clauses for python-sat, and a function turning a
model into the witness (bicliques, or a colored :class:`~theorem.digraphs.HubExtension`).
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from ..digraphs.digraph import AttentionDigraph
from ..digraphs.hubs import HubExtension

__all__ = ["MAX_CLAUSES", "biclique_cover_cnf", "difunctional_cover_cnf", "colored_cover_cnf",
           "difunctional_cover_size"]


#: Encodings larger than this many clauses are not built (they would take minutes in Python
#: and gigabytes); the bound they would have tested stays unproved (``optimal=False``).
MAX_CLAUSES = 5_000_000


def biclique_cover_cnf(digraph: AttentionDigraph, k: int, fooling=(), *, maximal: bool = False):
    """A CNF formula satisfiable iff ``E`` is covered by ``k`` bicliques (``b ≤ k``).

    Variables: ``x(v, j) = v ∈ A_j`` is ``1 + v·k + j``; ``y(v, j) = v ∈ B_j`` is
    ``1 + N·k + v·k + j``; ``z(e, j)`` (edge ``e`` in biclique ``j``) follows. Non-edges
    ``(a, b)`` (loops included) forbid ``a ∈ A_j ∧ b ∈ B_j``; each edge lies in some biclique.
    The ``i``-th edge of a fooling set is put in biclique ``i`` (symmetry breaking, sound
    because fooling edges need distinct bicliques).

    With ``maximal``, every biclique is closed — ``v ∉ A_j`` only if some target of ``B_j``
    is not an out-neighbour of ``v``, and dually — and the bicliques after the fooling ones
    have non-increasing target sets ``B_j`` in lexicographic order (auxiliary variables
    after the ``z``). Both keep the formula satisfiable iff a ``k``-cover exists: enlarging
    each biclique of a cover to a maximal one containing it, then sorting the bicliques no
    fooling edge pins, gives a cover satisfying them. The order is on targets rather than
    sources because CaDiCaL refutes four of the five hardest claims measured on the dense
    attention digraphs two to three times faster with it (the fifth twice slower; more of
    them proved within 10 s: ``docs/benchmarks.md``, *Invariants on real attention
    digraphs*).

    Parameters
    ----------
    digraph : AttentionDigraph
    k : int
        Number of bicliques, at least 0.
    fooling : array_like of shape ``(F, 2)``
        Edges of a fooling set (pairwise in no common biclique); the first ``k`` are pinned.
        Every pair must be an edge (``KeyError`` otherwise).
    maximal : bool
        Also require closed bicliques and sorted target sets (fewer symmetric models).

    Returns
    -------
    clauses : list of list of int
        For python-sat (:func:`~theorem.sat.solve_within`).
    decode : callable
        ``decode(model)``: the cover, a list of ``(sources, targets)`` (empty bicliques
        left out), for :meth:`~theorem.digraphs.HubExtension.from_biclique_cover`.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.sat import solve_within
    >>> g = transitive_tournament(3)
    >>> clauses, decode = biclique_cover_cnf(g, 2, fooling=[(0, 1), (1, 2)], maximal=True)
    >>> ok, model = solve_within(clauses, None)
    >>> cover = decode(model)
    >>> ok, len(cover), HubExtension(cover).validate(g)
    (True, 2, None)
    >>> solve_within(biclique_cover_cnf(g, 1)[0], None)        # b = 2
    (False, None)
    """
    n, e = digraph.n, digraph.edges
    x = lambda v, j: 1 + v * k + j  # noqa: E731
    y = lambda v, j: 1 + n * k + v * k + j  # noqa: E731
    z = lambda i, j: 1 + 2 * n * k + i * k + j  # noqa: E731
    m = digraph.adjacency.astype(bool)
    clauses = []
    for a, b in np.argwhere(~m).tolist():
        clauses.extend([-x(a, j), -y(b, j)] for j in range(k))
    for i, (a, b) in enumerate(e.tolist()):
        clauses.append([z(i, j) for j in range(k)])
        for j in range(k):
            clauses.append([-z(i, j), x(a, j)])
            clauses.append([-z(i, j), y(b, j)])
    index = {tuple(p): i for i, p in enumerate(e.tolist())}
    pinned = np.asarray(fooling).reshape(-1, 2).tolist()[:k]
    for j, f in enumerate(pinned):
        clauses.append([z(index[tuple(f)], j)])
    if maximal:
        outside = [np.flatnonzero(~m[v]).tolist() for v in range(n)]     # w ∉ N⁺(v)
        inside = [np.flatnonzero(~m[:, w]).tolist() for w in range(n)]   # u ∉ N⁻(w)
        for j in range(k):
            clauses.extend([x(v, j)] + [y(w, j) for w in outside[v]] for v in range(n))
            clauses.extend([y(w, j)] + [x(u, j) for u in inside[w]] for w in range(n))
        clauses.extend(_lex_descending([[y(v, j) for v in range(n)] for j in range(len(pinned), k)],
                                       2 * n * k + len(e) * k))

    def decode(model):
        true = set(v for v in model if v > 0)
        cover = []
        for j in range(k):
            sources = [v for v in range(n) if x(v, j) in true]
            targets = [v for v in range(n) if y(v, j) in true]
            if sources and targets:
                cover.append((sources, targets))
        return cover

    return clauses, decode


def _lex_descending(vectors: list[list[int]], top: int) -> list[list[int]]:
    """Clauses making the 0/1 vectors of literals ``vectors[0] ≥ vectors[1] ≥ …`` in
    lexicographic order (first literal most significant), with fresh variables from
    ``top + 1``: ``e_i`` holds when the first ``i + 1`` positions are equal, and equal
    prefixes force ``u_i ≥ w_i`` at the next position."""
    clauses = []
    for u, w in zip(vectors, vectors[1:]):
        equal = None
        for ui, wi in zip(u, w):
            before = [] if equal is None else [-equal]
            clauses.append(before + [ui, -wi])
            top += 1
            clauses += [before + [-ui, -wi, top], before + [ui, wi, top],
                        [-top, ui, -wi], [-top, -ui, wi]] + ([[-top, equal]] if equal else [])
            equal = top
    return clauses


def _row_pairs(digraph: AttentionDigraph) -> tuple[np.ndarray, np.ndarray]:
    """The source pairs ``a < a'`` with a common out-neighbour, shape ``(P, 2)`` in
    lexicographic order, and their numbers of common out-neighbours: the pairs whose rows a
    difunctional relation may force equal. A sparse product ``M Mᵀ`` (float64, exact for
    counts ``≤ N``): its cost is ``Σ_b indeg(b)²``, never ``N³``."""
    e, n = digraph.edges, digraph.n
    m = sparse.csr_matrix((np.ones(digraph.n_edges), (e[:, 0], e[:, 1])), shape=(n, n))
    shared = sparse.triu(m @ m.T, k=1).tocoo()
    order = np.lexsort((shared.col, shared.row))
    pairs = np.column_stack([shared.row[order], shared.col[order]]).astype(np.int64)
    return pairs.reshape(-1, 2), shared.data[order].astype(np.int64)


def difunctional_cover_size(digraph: AttentionDigraph, h: int) -> int:
    """The number of clauses of :func:`difunctional_cover_cnf` for ``h`` relations, without
    building it: a size check.

    Per relation: one clause per source pair ``a < a'`` and common out-neighbour, and one
    per pair and out-edge of either source; plus one covering clause per edge and one
    symmetry-breaking clause. It grows like ``h · N² · Δ⁺``, not like the paths of three
    edges (``E · Δ²``). Its cost is that of the source pairs, ``Σ_b indeg(b)²``.

    Parameters
    ----------
    digraph : AttentionDigraph
    h : int
        Number of relations.

    Returns
    -------
    int

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> g = transitive_tournament(3)
    >>> difunctional_cover_size(g, 2) == len(difunctional_cover_cnf(g, 2)[0])
    True
    """
    pairs, common = _row_pairs(digraph)
    per_class = int(common.sum() + digraph.out_degrees[pairs].sum())
    return h * per_class + digraph.n_edges + int(bool(digraph.n_edges and h))


def _pair_entries(digraph: AttentionDigraph, pairs: np.ndarray):
    """For each source pair ``k = (a, a')`` and side ``x ∈ (a, a')`` (in that order), the
    out-edges ``(x, b)`` by increasing ``b``: arrays ``k``, side (0 for ``a``), the index of
    ``(x, b)`` in ``digraph.edges`` and that of ``(y, b)`` for the other source ``y``, or
    ``-1`` when it is no edge. Edges are sorted, so ``(x, b)`` is at ``indptr[x] + j``."""
    e, n = digraph.edges, digraph.n
    out = digraph.out_degrees
    indptr = np.concatenate([[0], np.cumsum(out)])
    x = pairs.reshape(-1)                                         # (a_0, a'_0, a_1, …)
    y = pairs[:, ::-1].reshape(-1)
    lengths = out[x]
    segment = np.repeat(np.arange(len(x)), lengths)
    position = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    ex = np.repeat(indptr[x], lengths) + position
    codes = e[:, 0] * n + e[:, 1]
    wanted = y[segment] * n + e[ex, 1]
    at = np.minimum(np.searchsorted(codes, wanted), max(len(codes) - 1, 0))
    ey = np.where(codes[at] == wanted, at, -1)
    return segment // 2, segment % 2, ex, ey


def difunctional_cover_cnf(digraph: AttentionDigraph, h: int):
    """CNF satisfiable iff ``E`` is the union of ``h`` difunctional relations ``R_c ⊆ E``.

    Variable ``1 + i·h + c`` says edge ``i`` lies in relation ``c``. A relation is
    difunctional iff two sources with a common target have equal rows
    (docs/conventions.md#hub-extensions-and-colorings), so for each source pair
    ``a < a'`` with a common out-neighbour a variable ``q(a, a', c)`` (after the edge
    variables) says "equal rows in ``R_c``": both edges to a common target in ``R_c`` force
    it, and it forces ``(a, b) ∈ R_c ⇔ (a', b) ∈ R_c`` for every ``b`` (a non-edge
    ``(a', b)`` forbids ``(a, b)``). Each edge is in some relation, and edge 0 in relation 0
    (symmetry breaking). So it is satisfiable iff ``χ_hub ≤ h``, with
    :func:`difunctional_cover_size` clauses: at most ``3/2 · h · N² · Δ⁺`` (``N²/2`` pairs,
    ``3Δ⁺`` clauses each), where listing the paths ``(a, b), (a', b), (a', b')`` a relation
    must close takes up to ``E · Δ²``. Built by numpy, without ``N × N`` arrays: the
    covering clauses, then per pair the clauses of its sources' edges to targets the other
    lacks, then per pair the three groups over common targets.

    Parameters
    ----------
    digraph : AttentionDigraph
    h : int
        Number of relations (colors), at least 0.

    Returns
    -------
    clauses : list of list of int
        For python-sat (:func:`~theorem.sat.solve_within`).
    decode : callable
        ``decode(model)``: the colored :class:`~theorem.digraphs.HubExtension`, a hub per
        biclique of each relation, colored with its relation.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.sat import solve_within
    >>> g = transitive_tournament(3)
    >>> solve_within(difunctional_cover_cnf(g, 1)[0], None)[0]
    False
    >>> clauses, decode = difunctional_cover_cnf(g, 2)
    >>> ext = decode(solve_within(clauses, None)[1])
    >>> ext.validate(g); ext.n_colors
    2
    """
    e, ne = digraph.edges, digraph.n_edges
    relations = np.arange(h)

    def z(i):                      # the edge variables of edge indices i, a column a relation
        return 1 + i[:, None] * h + relations

    def q(k):                      # the equal-rows variables of pairs k
        return 1 + ne * h + k[:, None] * h + relations

    pairs, _ = _row_pairs(digraph)
    k, side, ex, ey = _pair_entries(digraph, pairs)
    alone, inside = ey < 0, ey >= 0
    clauses = z(np.arange(ne)).tolist()
    clauses += np.stack([-q(k[alone]), -z(ex[alone])], -1).reshape(-1, 2).tolist()
    first = inside & (side == 0)                                  # (a, b), (a', b) both edges
    both = np.stack([-z(ex[first]), -z(ey[first]), q(k[first])], -1)
    equal = np.stack([-q(k[inside]), -z(ex[inside]), z(ey[inside])], -1)
    group = np.concatenate([np.zeros(first.sum(), int), 1 + side[inside]])
    order = np.argsort(np.concatenate([k[first], k[inside]]) * 3 + group, kind="stable")
    clauses += np.concatenate([both, equal])[order].reshape(-1, 3).tolist()
    if ne and h:
        clauses.append([1])

    def decode(model):
        true = set(v for v in model if v > 0)
        hubs, colors = [], []
        for c in range(h):
            members = [i for i in range(ne) if 1 + i * h + c in true]
            rows: dict[int, set[int]] = {}
            for i in members:
                a, b = e[i].tolist()
                rows.setdefault(a, set()).add(b)
            groups: dict[frozenset, list[int]] = {}
            for a, targets in rows.items():
                groups.setdefault(frozenset(targets), []).append(a)
            for targets, sources in groups.items():
                hubs.append((sources, sorted(targets)))
                colors.append(c)
        return HubExtension(hubs, colors)

    return clauses, decode


def colored_cover_cnf(digraph: AttentionDigraph, n: int, h: int, fooling=()):
    """CNF satisfiable iff ``E`` has a hub extension with ``n`` hubs colored with ``h`` colors.

    The biclique-cover encoding of :func:`biclique_cover_cnf` with ``k = n``, plus color
    variables ``col(p, c)``: every hub has a color, and two hubs of one color share no source
    and no target. Symmetry breaking: the ``i``-th fooling edge in hub ``i``, hub 0 colored
    0.

    Parameters
    ----------
    digraph : AttentionDigraph
    n : int
        Number of hubs, at least 0.
    h : int
        Number of colors, at least 0.
    fooling : array_like of shape ``(F, 2)``
        Edges of a fooling set; the first ``n`` are pinned, as in
        :func:`biclique_cover_cnf`.

    Returns
    -------
    clauses : list of list of int
        For python-sat (:func:`~theorem.sat.solve_within`).
    decode : callable
        ``decode(model)``: the colored :class:`~theorem.digraphs.HubExtension` (hubs with an
        empty side left out).

    Examples
    --------
    The transitive tournament on 3 vertices: its two hubs share a source or a target.

    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.sat import solve_within
    >>> g = transitive_tournament(3)
    >>> solve_within(colored_cover_cnf(g, 2, 1)[0], None)[0]
    False
    >>> clauses, decode = colored_cover_cnf(g, 2, 2)
    >>> ext = decode(solve_within(clauses, None)[1])
    >>> ext.validate(g); ext.n_hubs, ext.n_colors
    (2, 2)
    """
    clauses, _ = biclique_cover_cnf(digraph, n, fooling)
    nv, ne = digraph.n, digraph.n_edges
    base = 2 * nv * n + ne * n
    col = lambda p, c: 1 + base + p * h + c  # noqa: E731
    x = lambda v, p: 1 + v * n + p  # noqa: E731
    y = lambda v, p: 1 + nv * n + v * n + p  # noqa: E731
    clauses = clauses + [[col(p, c) for c in range(h)] for p in range(n)]
    if n and h:
        clauses.append([col(0, 0)])
    for p in range(n):
        for q in range(p + 1, n):
            for c in range(h):
                for v in range(nv):
                    clauses.append([-col(p, c), -col(q, c), -x(v, p), -x(v, q)])
                    clauses.append([-col(p, c), -col(q, c), -y(v, p), -y(v, q)])

    def decode(model):
        true = set(v for v in model if v > 0)
        hubs, colors = [], []
        for p in range(n):
            sources = [v for v in range(nv) if x(v, p) in true]
            targets = [v for v in range(nv) if y(v, p) in true]
            if sources and targets:
                hubs.append((sources, targets))
                colors.append(next(c for c in range(h) if col(p, c) in true))
        return HubExtension(hubs, colors)

    return clauses, decode
