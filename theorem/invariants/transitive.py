"""Transitive and skew sequences: ``χ_hub ≥ ⌈log₂ m⌉`` (Alon 1985), the binary cover that
meets it on transitive tournaments and complete digraphs, and long fooling sets on the way."""

from __future__ import annotations

import numbers

import numpy as np

from manifolds.validation import as_count, as_generator, as_positive_integer

from ..digraphs.digraph import AttentionDigraph, check_digraph
from ..digraphs.hubs import HubExtension
from ..errors import InvalidHubExtensionError, TheoremError
from ..sat.budget import past

__all__ = ["transitive_sequence", "is_transitive_sequence", "skew_sequence", "is_skew_sequence",
           "skew_sequence_of_length", "SKEW_NODES",
           "binary_cover", "log2_ceil"]


def is_transitive_sequence(digraph: AttentionDigraph, sequence) -> bool:
    """Whether ``sequence`` is a transitive sequence: distinct vertices with
    ``(v_i, v_l) ∈ E`` for all ``i < l``.

    Such a sequence of ``m`` vertices proves ``χ_hub ≥ ⌈log₂ m⌉`` (:func:`transitive_sequence`).
    Vertices outside ``0..N-1`` make the answer ``False``. Looks the ``m(m − 1)/2`` pairs up
    among the sorted edges: nothing of size ``N × N`` is built.

    Parameters
    ----------
    digraph : AttentionDigraph
    sequence : iterable of int
        The vertices ``v_1..v_m``, in order.

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``sequence`` is not an iterable
        of integers.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> g = transitive_tournament(4)
    >>> is_transitive_sequence(g, [0, 1, 3]), is_transitive_sequence(g, [1, 0])
    (True, False)
    """
    check_digraph(digraph)
    try:
        seq = list(sequence)
    except TypeError:
        raise TypeError(f"sequence must be an iterable of vertices, not "
                        f"{type(sequence).__name__}") from None
    for v in seq:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise TypeError(f"sequence must hold integer vertices, got {v!r}")
    seq = [int(v) for v in seq]
    n = digraph.n
    if len(set(seq)) != len(seq) or any(not 0 <= v < n for v in seq):
        return False
    i, l = np.triu_indices(len(seq), 1)
    order = np.asarray(seq, dtype=np.int64)
    codes = order[i] * n + order[l]
    return bool(np.isin(codes, digraph.edges[:, 0] * n + digraph.edges[:, 1]).all())


def transitive_sequence(digraph: AttentionDigraph, *, tries: int = 8, rng=0,
                        deadline: float | None = None) -> list[int]:
    r"""A long sequence ``v_1..v_m`` of vertices with ``v_i → v_l`` for all ``i < l``.

    A transitive tournament inside the digraph (edges back are allowed). Greedy: repeatedly
    take, among the common out-neighbours of the vertices taken so far, one with the most
    out-neighbours among them (ties broken at random after the first try).

    It certifies ``χ_hub ≥ ⌈log₂ m⌉``: in a cover by ``h`` difunctional relations every vertex
    ``v`` is a source of at most one biclique and a target of at most one per relation, so
    ``A_v = {(j, source biclique of v in R_j)}`` and ``B_v = {(j, target biclique)}`` meet
    each relation's labels in at most one element; ``A_v ∩ B_v = ∅`` (no loops) and
    ``A_{v_i} ∩ B_{v_l} ≠ ∅`` for ``i < l`` (the edge is covered). Alon's theorem for such
    skew set-pair systems over a partitioned ground set (N. Alon, J. Combin. Theory A 40
    (1985), Theorem 1.1, with ``r_j = s_j = 1``) gives ``m ≤ Π_j C(2, 1) = 2^h``.
    ``deadline`` (``time.monotonic()`` seconds) ends the tries early: the longest sequence
    found so far is returned.

    Parameters
    ----------
    digraph : AttentionDigraph
    tries : int
        Greedy runs: the first deterministic, the others with random tie-breaks (at least
        one is made).
    rng : int or numpy.random.Generator
        Seed or generator of the tie-breaks.
    deadline : float, optional
        A ``time.monotonic()`` deadline; ``None`` for no limit.

    Returns
    -------
    list of int
        The longest sequence found (every digraph with a vertex has one of length ``≥ 1``).

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``rng`` not a seed or Generator.
    TheoremError
        ``rng`` is a negative seed.
    VertexError
        ``digraph`` has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        vertices (raised by :attr:`~AttentionDigraph.adjacency`).

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> transitive_sequence(transitive_tournament(5))
    [0, 1, 2, 3, 4]
    """
    check_digraph(digraph)
    gen = as_generator(rng, error=TheoremError)
    adjacency = digraph.adjacency.astype(bool)
    out_degree = adjacency.sum(axis=1).astype(float)
    best: list[int] = []
    for attempt in range(max(int(tries), 1)):
        if attempt and past(deadline):
            break
        candidates = np.ones(digraph.n, dtype=bool)
        score = out_degree.copy()                    # out-neighbours among the candidates
        sequence: list[int] = []
        while candidates.any():
            idx = np.flatnonzero(candidates)
            pick = score[idx] + (0.5 * gen.random(len(idx)) if attempt else 0.0)
            v = int(idx[np.argmax(pick)])
            sequence.append(v)
            removed = candidates & ~adjacency[v]
            candidates &= adjacency[v]
            score -= adjacency[:, removed].sum(axis=1)   # each vertex leaves once: O(N²)
        if len(sequence) > len(best):
            best = sequence
    return best


def is_skew_sequence(digraph: AttentionDigraph, pairs) -> bool:
    """Whether ``pairs`` is a skew sequence: ``(u_i, w_i)`` with ``(u_i, w_i) ∉ E``
    (``u_i = w_i`` allowed: ``E`` has no loops) and ``(u_i, w_l) ∈ E`` for all ``i < l``.

    In the ``N × N`` adjacency matrix, rows ``u_1..u_m`` and columns ``w_1..w_m`` hold a
    triangle: zeros on its diagonal, ones above it, anything below. Such a sequence of ``m``
    pairs proves ``χ_hub ≥ ⌈log₂ m⌉`` (:func:`skew_sequence`). A transitive sequence
    ``v_1..v_m`` is the skew sequence ``(v_i, v_i)``. Vertices outside ``0..N-1`` make the
    answer ``False``.

    Parameters
    ----------
    digraph : AttentionDigraph
    pairs : iterable of (int, int)
        The pairs ``(u_i, w_i)``, in order (a list, an array of shape ``(m, 2)``, …).

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``pairs`` is not an iterable of
        pairs of integers.

    Examples
    --------
    >>> from theorem.digraphs import AttentionDigraph
    >>> g = AttentionDigraph(3, [(0, 1), (0, 2), (2, 1)])
    >>> is_skew_sequence(g, [(0, 0), (2, 2), (1, 1)])     # a transitive sequence
    True
    >>> is_skew_sequence(g, [(0, 0), (1, 2)])             # (1, 2) is no edge, (0, 2) is
    True
    >>> is_skew_sequence(g, [(1, 2), (0, 0)])             # (1, 0) is no edge
    False
    """
    check_digraph(digraph)
    try:
        rows = [tuple(pair) for pair in pairs]
    except TypeError:
        raise TypeError(f"pairs must be an iterable of (u, w) pairs, not "
                        f"{type(pairs).__name__}") from None
    for pair in rows:
        if len(pair) != 2:
            raise TypeError(f"pairs must be (u, w) pairs of vertices, got {pair!r}")
        for v in pair:
            if isinstance(v, bool) or not isinstance(v, numbers.Integral):
                raise TypeError(f"pairs must hold integer vertices, got {v!r}")
    arr = np.asarray(rows, dtype=np.int64).reshape(-1, 2)
    n = digraph.n
    if ((arr < 0) | (arr >= n)).any():
        return False
    edges = digraph.edges[:, 0] * n + digraph.edges[:, 1]
    if np.isin(arr[:, 0] * n + arr[:, 1], edges).any():
        return False
    i, l = np.triu_indices(len(arr), 1)
    return bool(np.isin(arr[i, 0] * n + arr[l, 1], edges).all())


def skew_sequence(digraph: AttentionDigraph, *, tries: int = 16, rng=0,
                  deadline: float | None = None) -> list[tuple[int, int]]:
    r"""A long sequence of pairs ``(u_i, w_i)`` with ``(u_i, w_i) ∉ E`` and ``(u_i, w_l) ∈ E``
    for all ``i < l``.

    A triangle in the adjacency matrix (:func:`is_skew_sequence`); transitive sequences are
    the ones with ``u_i = w_i``. It certifies ``χ_hub ≥ ⌈log₂ m⌉``: in a cover by ``h``
    difunctional relations, let ``A_v`` be the pairs ``(j, source biclique of v in R_j)`` and
    ``B_v`` the pairs ``(j, target biclique)``; they meet the labels of each relation in at
    most one element, ``A_v ∩ B_w ≠ ∅`` exactly when some relation covers ``(v, w)``, so
    ``A_{u_i} ∩ B_{w_i} = ∅`` (a non-edge or a loop is covered by none) and
    ``A_{u_i} ∩ B_{w_l} ≠ ∅`` for ``i < l``. Alon's theorem for skew set-pair systems over a
    partitioned ground set (N. Alon, J. Combin. Theory A 40 (1985), Theorem 1.1, with
    ``r_j = s_j = 1``) gives ``m ≤ 2^h``. On dense digraphs it is much longer than a
    transitive sequence: rows need not be columns.

    Greedy, on rows only: the columns still open are ``C = N⁺(u_1) ∩ … ∩ N⁺(u_{i-1})``; the
    next row is one with a non-neighbour ``w_i`` in ``C`` (itself, when it is in ``C``) and
    the most out-neighbours in ``C`` (ties broken at random after the first try).
    ``deadline`` (``time.monotonic()`` seconds) ends the tries early.

    Parameters
    ----------
    digraph : AttentionDigraph
    tries : int
        Greedy runs: the first deterministic, the others with random tie-breaks (at least
        one is made).
    rng : int or numpy.random.Generator
        Seed or generator of the tie-breaks.
    deadline : float, optional
        A ``time.monotonic()`` deadline; ``None`` for no limit.

    Returns
    -------
    list of (int, int)
        The longest sequence found (every digraph with a vertex has one of length ``≥ 1``).

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``rng`` not a seed or Generator.
    TheoremError
        ``rng`` is a negative seed.
    VertexError
        ``digraph`` has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        vertices (raised by :attr:`~AttentionDigraph.adjacency`).

    Examples
    --------
    Three edges and no transitive sequence of three vertices, but a skew sequence of three
    pairs (so ``χ_hub ≥ 2``):

    >>> from theorem.digraphs import AttentionDigraph
    >>> g = AttentionDigraph(4, [(0, 1), (2, 3), (0, 3)])
    >>> pairs = skew_sequence(g)
    >>> len(pairs), is_skew_sequence(g, pairs)
    (3, True)
    """
    check_digraph(digraph)
    gen = as_generator(rng, error=TheoremError)
    adjacency = digraph.adjacency.astype(bool)
    out_degree = adjacency.sum(axis=1).astype(float)
    n = digraph.n
    best: list[tuple[int, int]] = []
    for attempt in range(max(int(tries), 1)):
        if attempt and (past(deadline) or len(best) == n):    # rows are distinct: m ≤ N
            break
        open_ = np.ones(n, dtype=bool)
        inside = out_degree.copy()                     # |N⁺(u) ∩ C|, kept as columns leave
        pairs: list[tuple[int, int]] = []
        while open_.any():
            blocked = inside == open_.sum()            # no non-neighbour of u left in C
            if blocked.all():
                break
            gain = np.where(blocked, -1.0, inside)
            if attempt:
                gain += 0.5 * gen.random(n)
            u = int(np.argmax(gain))
            w = u if open_[u] else int(np.flatnonzero(open_ & ~adjacency[u])[0])
            pairs.append((u, w))
            removed = open_ & ~adjacency[u]
            open_ &= adjacency[u]
            inside -= adjacency[:, removed].sum(axis=1)  # each column leaves once: O(N²)
        if len(pairs) > len(best):
            best = pairs
    return best


#: Search nodes :func:`skew_sequence_of_length` visits by default before it gives up.
SKEW_NODES = 50_000


def skew_sequence_of_length(digraph: AttentionDigraph, m: int, *, max_nodes: int = SKEW_NODES,
                            deadline: float | None = None) -> list[tuple[int, int]] | None:
    r"""A skew sequence of exactly ``m`` pairs, found by exhaustive search, or ``None``.

    A skew sequence (:func:`is_skew_sequence`) is determined by its rows: after rows
    ``u_1..u_{i-1}`` the columns still open are ``C = N⁺(u_1) ∩ … ∩ N⁺(u_{i-1})``, and row
    ``u_i`` may follow iff it has a non-neighbour ``w_i`` in ``C``; then ``C`` shrinks to
    ``C ∩ N⁺(u_i)``, by one column at least. So the longest sequence from ``C`` depends on
    ``C`` alone and is at most ``|C|``: a depth-first search over the sets ``C`` (bitmasks),
    rows that keep the most columns first, cut where ``|C|`` cannot make up the pairs still
    needed and where a set ``C`` already failed for as many pairs. It finds what the greedy
    :func:`skew_sequence` misses, and is fast when ``m`` is close to ``N`` (the cut is then
    tight): asked for ``2^L + 1`` pairs it lifts the bound ``χ_hub ≥ ⌈log₂ m⌉`` past ``L``.

    Parameters
    ----------
    digraph : AttentionDigraph
    m : int
        Pairs wanted, at least 0.
    max_nodes : int
        Column sets expanded before giving up, at least 1.
    deadline : float, optional
        A ``time.monotonic()`` deadline (checked at every node); ``None`` for no limit.

    Returns
    -------
    list of (int, int) or None
        ``m`` pairs ``(u_i, w_i)`` forming a skew sequence, or ``None`` when the search
        ended without one: none exists, or ``max_nodes`` or ``deadline`` ran out first.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``m``/``max_nodes`` not
        integers.
    TheoremError
        ``m`` is negative or ``max_nodes`` below 1.
    VertexError
        ``digraph`` has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        vertices (raised by :attr:`~AttentionDigraph.adjacency`).

    Examples
    --------
    The greedy search takes row 1 first (most out-neighbours) and stops at two pairs; the
    exhaustive one finds three (so ``χ_hub ≥ 2``):

    >>> from theorem.digraphs import AttentionDigraph
    >>> g = AttentionDigraph(4, [(0, 1), (1, 0), (1, 2), (2, 1), (2, 3)])
    >>> len(skew_sequence(g, tries=1))
    2
    >>> pairs = skew_sequence_of_length(g, 3)
    >>> pairs, is_skew_sequence(g, pairs)
    ([(2, 2), (0, 3), (1, 1)], True)
    >>> skew_sequence_of_length(g, 5) is None             # rows are distinct: m ≤ N
    True
    """
    check_digraph(digraph)
    m = as_count(m, "m", error=TheoremError)
    max_nodes = as_positive_integer(max_nodes, "max_nodes", error=TheoremError)
    n = digraph.n
    if m > n:
        return None
    weights = 1 << np.arange(n, dtype=object)
    rows = [int(weights[np.flatnonzero(r)].sum()) for r in digraph.adjacency.astype(bool)]
    failed: dict[int, int] = {}          # C -> fewest pairs sought from C and not found
    budget = [int(max_nodes)]

    def search(open_: int, need: int) -> list[tuple[int, int]] | None:
        if need == 0:
            return []
        if open_.bit_count() < need or failed.get(open_, need + 1) <= need:
            return None
        budget[0] -= 1
        if budget[0] < 0 or past(deadline):
            raise _OutOfBudget
        options = {}
        for u, row in enumerate(rows):
            if open_ & ~row:
                options.setdefault(open_ & row, u)
        for kept in sorted(options, key=lambda c: -c.bit_count()):
            if kept.bit_count() < need - 1:
                break
            rest = search(kept, need - 1)
            if rest is not None:
                u = options[kept]
                w = u if open_ >> u & 1 else (open_ & ~rows[u] & -(open_ & ~rows[u])).bit_length() - 1
                return [(u, w)] + rest
        failed[open_] = need
        return None

    try:
        return search((1 << n) - 1, m)
    except (_OutOfBudget, RecursionError):
        return None


class _OutOfBudget(Exception):
    """:func:`skew_sequence_of_length` ran out of nodes or time."""


def log2_ceil(m: int) -> int:
    """``⌈log₂ m⌉``, the lower bound on ``χ_hub`` from a transitive sequence of ``m`` vertices.

    Exact integer arithmetic (``(m − 1).bit_length()``); ``0`` for ``m ≤ 1``.

    Parameters
    ----------
    m : int
        Length of the sequence.

    Returns
    -------
    int

    Examples
    --------
    >>> [log2_ceil(m) for m in range(0, 10)]
    [0, 0, 1, 2, 2, 3, 3, 3, 3, 4]
    """
    return (m - 1).bit_length() if m > 0 else 0


def binary_cover(digraph: AttentionDigraph, order: list[int]) -> HubExtension | None:
    """``⌈log₂ N⌉`` difunctional relations for a transitive tournament on ``order`` (all
    vertices), or a complete digraph: relation ``j`` joins, for each prefix of the positions'
    binary digits above ``j``, the half with digit ``j`` = 0 to the half with 1 (and back,
    when the digraph has every pair both ways). ``None`` unless it covers ``E`` exactly.

    The colored hub extension meets the lower bound ``⌈log₂ N⌉`` of the transitive sequence
    ``order``, so it proves ``χ_hub = ⌈log₂ N⌉`` on these families.

    Parameters
    ----------
    digraph : AttentionDigraph
    order : list of int
        All ``N`` vertices, in the order of a transitive sequence
        (:func:`transitive_sequence`).

    Returns
    -------
    HubExtension or None
        A colored hub extension of ``digraph`` with color ``j`` on relation ``j``
        (validated), or ``None`` when ``order`` does not list ``N ≥ 2`` vertices or the
        construction does not cover ``E`` exactly.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.

    Examples
    --------
    >>> from theorem.digraphs import directed_cycle, transitive_tournament
    >>> g = transitive_tournament(4)
    >>> binary_cover(g, [0, 1, 2, 3]).n_colors
    2
    >>> binary_cover(directed_cycle(4), [0, 1, 2, 3]) is None
    True
    """
    check_digraph(digraph)
    n = len(order)
    if n != digraph.n or n < 2 or sorted(order) != list(range(n)):
        return None
    order_arr = np.asarray(order)
    m = digraph.adjacency.astype(bool)
    both = bool((m | np.eye(n, dtype=bool)).all())
    pos = np.arange(n)
    hubs, colors = [], []
    for j in range(log2_ceil(n)):
        bit, prefix = (pos >> j) & 1, pos >> (j + 1)
        for p in np.unique(prefix):
            zero = order_arr[(prefix == p) & (bit == 0)].tolist()
            one = order_arr[(prefix == p) & (bit == 1)].tolist()
            if zero and one:
                hubs.append((zero, one))
                colors.append(j)
                if both:
                    hubs.append((one, zero))
                    colors.append(j)
    ext = HubExtension(hubs, colors)
    try:
        ext.validate(digraph)
    except InvalidHubExtensionError:
        return None
    return ext
