"""CNF encodings of the invariants' claims: covers by ``k`` bicliques (plain, or maximal and
ordered), by ``h`` difunctional relations, and by ``n`` hubs with ``h`` colors.

Each returns ``(clauses, decode)``: the clauses for python-sat, and a function turning a
model into the witness (bicliques, or a colored :class:`~theorem.digraphs.HubExtension`).
"""

from __future__ import annotations

import numpy as np

from ..digraphs.digraph import AttentionDigraph
from ..digraphs.hubs import HubExtension
from .budget import past

__all__ = ["MAX_CLAUSES", "biclique_cover_cnf", "difunctional_cover_cnf", "colored_cover_cnf",
           "difunctional_triples", "count_triples"]


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
    have non-increasing source sets in lexicographic order (auxiliary variables after the
    ``z``). Both keep the formula satisfiable iff a ``k``-cover exists: enlarging each
    biclique of a cover to a maximal one containing it, then sorting the bicliques no
    fooling edge pins, gives a cover satisfying them.

    Parameters
    ----------
    digraph : AttentionDigraph
    k : int
        Number of bicliques, at least 0.
    fooling : array_like of shape ``(F, 2)``
        Edges of a fooling set (pairwise in no common biclique); the first ``k`` are pinned.
        Every pair must be an edge (``KeyError`` otherwise).
    maximal : bool
        Also require closed bicliques and sorted source sets (fewer symmetric models).

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
        clauses.extend(_lex_descending([[x(v, j) for v in range(n)] for j in range(len(pinned), k)],
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


def count_triples(digraph: AttentionDigraph) -> int:
    """The number of paths :func:`difunctional_triples` lists, from the degrees alone.

    Each path ``(a, b), (a', b), (a', b')`` turns on its middle edge ``(a', b)``, hence
    ``Σ_{(a',b) ∈ E} (indeg(b) − 1)(outdeg(a') − 1)``: a size check before listing them.

    Parameters
    ----------
    digraph : AttentionDigraph

    Returns
    -------
    int

    Examples
    --------
    >>> from theorem.digraphs import complete_digraph, transitive_tournament
    >>> count_triples(transitive_tournament(3)), count_triples(complete_digraph(3))
    (1, 6)
    """
    e = digraph.edges
    return int(((digraph.in_degrees[e[:, 1]] - 1) * (digraph.out_degrees[e[:, 0]] - 1)).sum())


def difunctional_triples(digraph: AttentionDigraph, deadline: float | None = None):
    """The paths of three edges that a difunctional relation must close.

    For edges ``(a, b), (a', b), (a', b')`` with ``a ≠ a'`` and ``b ≠ b'``, a difunctional
    relation holding all three holds ``(a, b')`` (``R Rᵀ R ⊆ R``,
    docs/conventions.md#hub-extensions-and-colorings). There are
    :func:`count_triples` of them, up to ``Σ_b indeg(b)² · Δ⁺``.

    Parameters
    ----------
    digraph : AttentionDigraph
    deadline : float, optional
        A ``time.monotonic()`` deadline, checked once per target ``b``.

    Returns
    -------
    list of (int, int, int, int) or None
        ``(i, j, l, close)``: the indices (in ``digraph.edges``) of ``(a, b)``, ``(a', b)``
        and ``(a', b')``, and of ``(a, b')`` or ``-1`` when it is not an edge. ``None`` when
        ``deadline`` passes first.

    Examples
    --------
    In the transitive tournament on 3 vertices, the path ``(1, 2), (0, 2), (0, 1)`` would
    need the loop ``(1, 1)``:

    >>> from theorem.digraphs import transitive_tournament
    >>> g = transitive_tournament(3)
    >>> g.edges.tolist()
    [[0, 1], [0, 2], [1, 2]]
    >>> difunctional_triples(g)
    [(2, 1, 0, -1)]
    """
    n = digraph.n
    index = -np.ones((n, n), dtype=np.int64)
    index[digraph.edges[:, 0], digraph.edges[:, 1]] = np.arange(digraph.n_edges)
    out = []
    for b in range(n):
        if past(deadline):
            return None
        sources = np.flatnonzero(index[:, b] >= 0)
        for a in sources:
            for a2 in sources[sources != a]:
                targets = np.flatnonzero(index[a2] >= 0)
                targets = targets[targets != b]
                i, j = int(index[a, b]), int(index[a2, b])
                out.extend((i, j, l, c) for l, c in zip(index[a2, targets].tolist(),
                                                         index[a, targets].tolist()))
    return out


def difunctional_cover_cnf(digraph: AttentionDigraph, h: int, triples=None):
    """CNF satisfiable iff ``E`` is the union of ``h`` difunctional relations ``R_c ⊆ E``.

    Variable ``1 + i·h + c`` says edge ``i`` lies in class ``c``. Each edge is in some class;
    for every path ``(a,b), (a',b), (a',b')`` a class holding the three holds ``(a, b')``
    (impossible when it is not an edge). Edge 0 is put in class 0 (symmetry breaking). So
    it is satisfiable iff ``χ_hub ≤ h`` (docs/conventions.md#hub-extensions-and-colorings).

    Parameters
    ----------
    digraph : AttentionDigraph
    h : int
        Number of relations (colors), at least 0.
    triples : list of (int, int, int, int), optional
        :func:`difunctional_triples` of ``digraph``, when already listed.

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
    z = lambda i, c: 1 + i * h + c  # noqa: E731
    triples = difunctional_triples(digraph) if triples is None else triples
    clauses = [[z(i, c) for c in range(h)] for i in range(digraph.n_edges)]
    for i, j, l, close in triples:
        for c in range(h):
            clause = [-z(i, c), -z(j, c), -z(l, c)]
            clauses.append(clause + [z(close, c)] if close >= 0 else clause)
    if digraph.n_edges and h:
        clauses.append([z(0, 0)])

    def decode(model):
        true = set(v for v in model if v > 0)
        hubs, colors = [], []
        for c in range(h):
            members = [i for i in range(digraph.n_edges) if z(i, c) in true]
            rows: dict[int, set[int]] = {}
            for i in members:
                a, b = digraph.edges[i].tolist()
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
