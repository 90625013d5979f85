"""Exact invariants of attention digraphs, each with a witness and a lower-bound certificate.

``biclique_cover_number`` (``b``, the Boolean rank of ``M``) and ``hub_chromatic_index``
(``χ_hub``) are NP-hard: a heuristic gives the upper bound and its witness, a bound theorem
applied to a structure found in the input gives the lower bound, and SAT (CaDiCaL) closes
the gap, one UNSAT result at a time. A time limit returns both bounds with
``optimal=False``.
"""

from __future__ import annotations

import itertools
import time
from math import comb

import numpy as np

from .budget import anytime, deadline_after, past, reserve, share
from .digraph import AttentionDigraph
from .edge_coloring import chromatic_index
from .errors import InvalidHubExtensionError, TheoremError, TooManyBicliquesError
from .fooling import fooling_set, is_fooling_set
from .fractional_cover import fractional_biclique_cover
from .hubs import HubExtension
from .results import Certificate, InvariantResult
from .sat import SOLVER, solve_within
from .trim import Trimmed

__all__ = [
    "biclique_cover_number",
    "hub_chromatic_index",
    "fooling_set",
    "is_fooling_set",
    "sperner_number",
    "transitive_sequence",
    "is_transitive_sequence",
    "biclique_cover_cnf",
    "difunctional_cover_cnf",
    "real_rank",
    "star_cover",
]


#: Encodings larger than this many clauses are not built (they would take minutes in Python
#: and gigabytes); the bound they would have tested stays unproved (``optimal=False``).
MAX_CLAUSES = 5_000_000

#: Seconds allowed to each of the first, quick SAT calls of ``biclique_cover_number``.
QUICK_SAT = 2.0

#: Digraphs with more edges skip the fractional-cover bound (an LP row per edge).
MAX_LP_EDGES = 20_000


def _check(digraph) -> None:
    if not isinstance(digraph, AttentionDigraph):
        raise TypeError(f"expected an AttentionDigraph, got {type(digraph).__name__}")


def real_rank(digraph: AttentionDigraph, *, time_limit: float | None = None) -> int | None:
    """``rank_R(M)``; reported beside ``b``, which it neither bounds above nor below.

    Computed by SVD (``numpy.linalg.matrix_rank``) of ``M`` without its isolated vertices'
    zero rows and columns, which change no rank. Returns ``None`` when ``time_limit`` seconds
    pass first (an SVD cannot be interrupted, so it runs in a child process then).

    Examples
    --------
    >>> from theorem.families import complete_digraph
    >>> real_rank(complete_digraph(4))          # J − I is invertible
    4
    """
    _check(digraph)
    deadline = deadline_after(time_limit)
    if digraph.n_edges == 0:
        return 0
    rank, _ = anytime(_rank, deadline, Trimmed.of(digraph).digraph)
    return rank


def _rank(report, digraph: AttentionDigraph) -> None:
    report(int(np.linalg.matrix_rank(digraph.adjacency.astype(float))))


# -- lower bounds ------------------------------------------------------------------------------
def sperner_number(m: int) -> int:
    """``σ(m)``: least ``k`` with ``C(k, ⌊k/2⌋) ≥ m`` — the Boolean rank of the complete
    digraph on ``m`` vertices (de Caen, Gregory & Pullman, 1981)."""
    k = 0
    while comb(k, k // 2) < m:
        k += 1
    return k


def _mutual_clique(digraph: AttentionDigraph) -> list[int]:
    """A large set of vertices joined both ways pairwise (greedy, highest mutual degree first)."""
    m = digraph.adjacency.astype(bool)
    mutual = m & m.T
    order = np.argsort(-mutual.sum(axis=1), kind="stable")
    clique: list[int] = []
    candidate = np.ones(digraph.n, dtype=bool)
    for v in order:
        if candidate[v]:
            clique.append(int(v))
            candidate &= mutual[v]
    return clique


def complete_subdigraph_certificate(clique: list[int]) -> Certificate:
    """``b ≥ σ(m)`` from ``m`` vertices pairwise joined both ways (de Caen, Gregory &
    Pullman 1981)."""
    return Certificate(
        "complete-subdigraph",
        f"vertices {clique} are pairwise joined both ways; the complete digraph on "
        f"{len(clique)} vertices has Boolean rank σ({len(clique)}) = "
        f"{sperner_number(len(clique))} (de Caen, Gregory & Pullman 1981)",
        {"vertices": clique})


def is_transitive_sequence(digraph: AttentionDigraph, sequence) -> bool:
    """Whether ``sequence`` lists distinct vertices with ``(v_i, v_l) ∈ E`` for all ``i < l``."""
    seq = [int(v) for v in sequence]
    if len(set(seq)) != len(seq) or any(not 0 <= v < digraph.n for v in seq):
        return False
    m = digraph.adjacency.astype(bool)
    return all(m[seq[i], seq[l]] for i in range(len(seq)) for l in range(i + 1, len(seq)))


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

    Examples
    --------
    >>> from theorem.families import transitive_tournament
    >>> transitive_sequence(transitive_tournament(5))
    [0, 1, 2, 3, 4]
    """
    adjacency = digraph.adjacency.astype(bool)
    out_degree = adjacency.sum(axis=1).astype(float)
    gen = np.random.default_rng(rng)
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


def _log2_ceil(m: int) -> int:
    return (m - 1).bit_length() if m > 0 else 0


def _binary_cover(digraph: AttentionDigraph, order: list[int]) -> HubExtension | None:
    """``⌈log₂ N⌉`` difunctional relations for a transitive tournament on ``order`` (all
    vertices), or a complete digraph: relation ``j`` joins, for each prefix of the positions'
    binary digits above ``j``, the half with digit ``j`` = 0 to the half with 1 (and back,
    when the digraph has every pair both ways). ``None`` unless it covers ``E`` exactly."""
    n = len(order)
    if n != digraph.n or n < 2:
        return None
    order_arr = np.asarray(order)
    m = digraph.adjacency.astype(bool)
    both = bool((m | np.eye(n, dtype=bool)).all())
    pos = np.arange(n)
    hubs, colors = [], []
    for j in range(_log2_ceil(n)):
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


# -- upper bound ------------------------------------------------------------------------------
def _sperner_cover(clique: list[int]) -> list[tuple[list[int], list[int]]]:
    """``σ(m)`` bicliques covering the complete digraph on ``clique``: give each vertex a
    distinct ``⌊k/2⌋``-subset ``S_v`` of ``{0..k-1}``; biclique ``j`` is
    ``({v : j ∈ S_v}, {v : j ∉ S_v})``, which covers ``(a, b)`` for any ``j`` in ``S_a``
    but not in ``S_b``."""
    k = sperner_number(len(clique))
    subsets = itertools.islice(itertools.combinations(range(k), k // 2), len(clique))
    member = dict(zip(clique, map(set, subsets)))
    cover = [([v for v in clique if j in member[v]], [v for v in clique if j not in member[v]])
             for j in range(k)]
    return [(a, b) for a, b in cover if a and b]


def star_cover(digraph: AttentionDigraph) -> list[tuple[list[int], list[int]]]:
    """The trivial biclique cover: the fewer of out-stars and in-stars (out-stars on a tie),
    stars with equal leaves merged.

    Sources with the same out-neighbourhood ``N⁺`` form one biclique ``(sources, N⁺)``, so
    ``b ≤`` the number of distinct non-empty rows of ``M``, and likewise of columns: never
    more than ``N``, the non-isolated sources or the non-isolated targets. ``O(E log E)``
    (no ``N × N`` structure).

    Examples
    --------
    >>> from theorem.families import transitive_tournament
    >>> star_cover(transitive_tournament(3))        # the out-stars of 0 and 1
    [([0], [1, 2]), ([1], [2])]
    """
    best: list[tuple[list[int], list[int]]] | None = None
    for side in (0, 1):
        e = digraph.edges if side == 0 else digraph.edges[
            np.lexsort((digraph.edges[:, 0], digraph.edges[:, 1]))][:, ::-1]
        centers, first = np.unique(e[:, 0], return_index=True)
        groups: dict[bytes, tuple[np.ndarray, list[int]]] = {}
        for center, leaves in zip(centers.tolist(), np.split(e[:, 1], first[1:])):
            groups.setdefault(leaves.tobytes(), (leaves, []))[1].append(center)
        stars = [(centers_, leaves.tolist()) if side == 0 else (leaves.tolist(), centers_)
                 for leaves, centers_ in groups.values()]
        if best is None or len(stars) < len(best):
            best = stars
    return best or []


def _greedy_cover(digraph: AttentionDigraph, start=(), deadline: float | None = None
                  ) -> list[tuple[list[int], list[int]]]:
    """Greedy biclique cover completing the bicliques ``start``: repeatedly take the
    star-closure biclique (``B = N⁺(a)``, ``A = {a' : N⁺(a') ⊇ B}``, or the same on in-stars)
    covering most uncovered edges. Products in floating point (BLAS; counts ``≤ N`` are exact).
    When ``deadline`` passes, the uncovered edges are completed by :func:`star_cover`."""
    m = digraph.adjacency.astype(np.float64)
    uncovered = m.astype(bool)
    cover = list(start)
    for sources, targets in cover:
        uncovered[np.ix_(sources, targets)] = False
    closures = []
    for mat in (m, m.T):
        deg = mat.sum(axis=1)
        contains = ((mat @ mat.T) == deg[None, :]) & (deg > 0)[None, :]   # N(a') ⊇ N(a)
        closures.append((mat, contains.astype(np.float64)))
    while uncovered.any():
        if past(deadline):
            rest = AttentionDigraph(digraph.n, np.argwhere(uncovered))
            return cover + star_cover(rest)
        best = None
        for flip, (mat, contains) in enumerate(closures):
            u = (uncovered.T if flip else uncovered).astype(np.float64)
            gain = (contains * (u @ mat.T)).sum(axis=0)        # uncovered edges in A_a × N(a)
            a = int(np.argmax(gain))
            if best is None or gain[a] > best[0]:
                rows = np.flatnonzero(contains[:, a]).tolist()
                cols = np.flatnonzero(mat[a]).tolist()
                best = (gain[a], (cols, rows) if flip else (rows, cols))
        sources, targets = best[1]
        cover.append((sources, targets))
        uncovered[np.ix_(sources, targets)] = False
    return cover


# -- SAT descent ------------------------------------------------------------------------------
def _descend(witness, size, lower, certificate, encode, deadline, solver, claim, data=None,
             cap: float | None = None, bisect: bool = False, report=None):
    """Lower an upper bound by SAT: each model is the new ``witness``; UNSAT for ``k`` proves
    ``k + 1`` (returned as an ``unsat`` certificate). ``encode(k)`` returns
    ``(clauses, decode)``, or ``None`` when the deadline passed while encoding. Tries one less
    than the witness, or with ``bisect`` the middle of the gap (large covers are quick to
    find, so this skips many easy steps). With ``cap``, each call gets at most ``cap``
    seconds; a call over it ends the descent, or with ``bisect`` moves the search above it.
    ``report((witness, lower, certificate))`` is called on each improvement.
    Returns ``(witness, lower, certificate)``."""
    floor = lower
    while size(witness) > floor and not past(deadline):
        k = (floor + size(witness) - 1) // 2 if bisect else size(witness) - 1
        encoded = encode(k)
        if encoded is None:
            break
        ok, model = solve_within(encoded[0], share(deadline, 1.0, cap), solver=solver)
        if ok is None:
            if not bisect:
                break
            floor = k + 1
            continue
        if not ok:
            lower = floor = k + 1
            certificate = Certificate(
                "unsat", f"no {claim(k)} ({solver})", {"k": k, "solver": solver, **(data or {})})
        else:
            witness = encoded[1](model)
        if report is not None:
            report((witness, lower, certificate))
    return witness, lower, certificate


def _ascend(witness, size, lower, certificate, encode, deadline, solver, claim, data=None,
            cap: float | None = None, report=None):
    """Raise a lower bound by SAT from below, one at a time: UNSAT for ``k = lower`` proves
    ``k + 1``; a model for ``k`` is a witness of size ``k = lower`` (exact). Refutations with
    few bicliques are usually quick, so this lifts the bound far past the structural ones.
    Each call may run to the deadline, or for at most ``cap`` seconds when given (the first
    call over it ends the climb). ``report`` as in :func:`_descend`.
    Returns ``(witness, lower, certificate)``."""
    while lower < size(witness) and not past(deadline):
        k = lower
        encoded = encode(k)
        if encoded is None:
            break
        ok, model = solve_within(encoded[0], share(deadline, 1.0, cap), solver=solver)
        if ok is None:
            break
        if ok:
            witness = encoded[1](model)
        else:
            lower, certificate = k + 1, Certificate(
                "unsat", f"no {claim(k)} ({solver})", {"k": k, "solver": solver, **(data or {})})
        if report is not None:
            report((witness, lower, certificate))
        if ok:
            break
    return witness, lower, certificate


def _encoded(encoding, wrap):
    """``encoding`` with its decoder's result passed through ``wrap``."""
    clauses, decode = encoding
    return clauses, lambda model: wrap(decode(model))


# -- SAT encodings ------------------------------------------------------------------------------
def biclique_cover_cnf(digraph: AttentionDigraph, k: int, fooling=(), *, maximal: bool = False):
    """CNF (list of clauses) satisfiable iff ``E`` is covered by ``k`` bicliques.

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
    fooling edge pins, gives a cover satisfying them. Returns ``(clauses, decode)``, where
    ``decode(model)`` gives the bicliques.
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


def biclique_cover_number(digraph: AttentionDigraph, *, time_limit: float | None = None,
                          solver: str = SOLVER) -> InvariantResult:
    """Least number of bicliques whose union is the edge set (the Boolean rank of ``M``).

    A biclique is a pair ``(A, B)`` with ``A × B ⊆ E``. By Lemma 2.1 this is also the least
    number of hubs in a hub extension. Upper bound: the trivial :func:`star_cover` (so
    ``b ≤ min(N, non-isolated sources, non-isolated targets)`` always), improved by greedy
    star-closure bicliques (also started from a Sperner cover of a complete subdigraph).
    Lower bound: the largest of a fooling set (edges pairwise in no common biclique;
    :func:`.fooling_set`, or the consecutive edges of a transitive sequence), ``σ(m)`` for a
    complete subdigraph on ``m`` vertices (de Caen–Gregory–Pullman) and the weighted fooling
    set of the fractional cover (:mod:`.fractional_cover`). SAT (maximal bicliques, fooling
    edges pinned; :func:`biclique_cover_cnf`) closes the gap: quick calls (at most
    :data:`QUICK_SAT` seconds) refute ``lower``, ``lower + 1``, … and bisect toward smaller
    covers; after the LP bound, refutations from below continue with all the time left (a
    model at the lower bound ends it, exact), then covers one below the best are sought.

    Parameters
    ----------
    digraph : AttentionDigraph
    time_limit : float, optional
        Seconds. When it runs out the result holds both bounds and ``optimal=False``. The
        search (on the digraph without its isolated vertices) then runs in a child process
        killed at the deadline (:func:`.budget.anytime`); the call returns within the limit
        plus the linear-time validation of the witness.
    solver : str
        A python-sat solver name.

    Returns
    -------
    InvariantResult
        ``witness``: the cover as a :class:`HubExtension`; ``certificate``: what proves the
        lower bound.

    Examples
    --------
    >>> from theorem.families import transitive_tournament
    >>> result = biclique_cover_number(transitive_tournament(3))
    >>> result.value, result.optimal
    (2, True)
    """
    _check(digraph)
    start = time.perf_counter()
    deadline = deadline_after(time_limit)
    if digraph.n_edges == 0:
        return InvariantResult("biclique_cover_number", 0, 0, 0, True, HubExtension([]),
                               Certificate("empty", "no edges"), time.perf_counter() - start)
    trimmed = Trimmed.of(digraph)
    stars = HubExtension(star_cover(trimmed.digraph))
    state = (stars, 1, Certificate("non-empty", "one edge needs one biclique"))
    return _searched("biclique_cover_number", lambda w: w.n_hubs, state, trimmed, start,
                     deadline, _search_biclique_cover, stars, solver)


def _searched(name: str, size, state, trimmed: Trimmed, start: float, deadline, search,
              begin: HubExtension, solver: str) -> InvariantResult:
    """The result of ``search(report, digraph, begin, deadline, solver)`` run under
    :func:`.anytime` on the trimmed digraph, against the trivial ``state = (witness, lower,
    certificate)``: the smaller witness and the larger lower bound of the two, mapped back to
    the original digraph and validated there. ``start`` is when the call began."""
    deadline = reserve(deadline, time.perf_counter() - start)
    found, _ = anytime(search, deadline, trimmed.digraph, begin, deadline, solver)
    witness, lower, certificate = state
    if found is not None:
        witness = min(witness, found[0], key=size)
        lower, certificate = max((lower, certificate), (found[1], found[2]), key=lambda lc: lc[0])
    witness, certificate = trimmed.extension(witness), trimmed.certificate(certificate)
    witness.validate(trimmed.original)
    value = size(witness)
    return InvariantResult(name, value, lower, value, value == lower, witness, certificate,
                           time.perf_counter() - start)


def _search_biclique_cover(report, digraph: AttentionDigraph, stars: HubExtension,
                           deadline: float | None, solver: str) -> None:
    """The search of :func:`biclique_cover_number` on a digraph without isolated vertices,
    reporting each improved ``(witness, lower, certificate)``; runs under :func:`.anytime`."""
    fooling = fooling_set(digraph, iterations=0, deadline=share(deadline, 0.1))
    # the consecutive edges of a transitive sequence are fooling when no edge runs back
    # two steps or more (transitive tournaments): a long fooling set found in O(N²)
    sequence = transitive_sequence(digraph, tries=1, deadline=share(deadline, 0.1))
    path = np.asarray(list(zip(sequence, sequence[1:])), dtype=np.int64).reshape(-1, 2)
    if len(path) > len(fooling) and is_fooling_set(digraph, path):
        fooling = path[np.lexsort((path[:, 1], path[:, 0]))]
    lower = len(fooling)
    certificate = Certificate(
        "fooling-set", f"{len(fooling)} edges pairwise in no common biclique",
        {"edges": fooling.tolist()})
    report((stars, lower, certificate))
    cover = stars.hubs
    if lower < len(cover):
        clique = _mutual_clique(digraph)
        greedy = _greedy_cover(digraph, deadline=share(deadline, 0.15))
        greedy = min(greedy, _greedy_cover(digraph, _sperner_cover(clique),
                                           deadline=share(deadline, 0.15)), key=len)
        if len(greedy) < len(cover):
            cover = greedy
            report((HubExtension(cover), lower, certificate))
    else:
        clique = []
    if max(len(fooling), sperner_number(len(clique))) < len(cover):
        # a cover as small as the greedy fooling set ends it at once; else search for a
        # larger fooling set (a stronger bound, and more bicliques pinned for SAT)
        encoded = _maximal_cover_cnf(digraph, len(fooling), fooling, deadline)
        ok, model = (None, None) if encoded is None else solve_within(
            encoded[0], share(deadline, 0.1, QUICK_SAT / 4), solver=solver)
        if ok:
            cover = encoded[1](model)
        else:
            fooling = fooling_set(digraph, target=len(cover), patience=3000,
                                  deadline=share(deadline, 0.1))
    if len(fooling) > lower:
        lower = len(fooling)
        certificate = Certificate(
            "fooling-set", f"{len(fooling)} edges pairwise in no common biclique",
            {"edges": fooling.tolist()})
    if sperner_number(len(clique)) > lower:
        lower = sperner_number(len(clique))
        certificate = complete_subdigraph_certificate(clique)

    def size(w):
        return w.n_hubs

    def encode(k):
        encoded = _maximal_cover_cnf(digraph, k, fooling, deadline)
        return None if encoded is None else _encoded(encoded, HubExtension)

    def claim(k):
        return f"cover by {k} bicliques"

    data = {"fooling_set": fooling.tolist(), "maximal": True}
    witness = HubExtension(cover)
    report((witness, lower, certificate))
    # quick SAT calls first (each ≤ QUICK_SAT seconds) from below and from above, then the
    # LP bound, then SAT from below — the call at the lower bound, often the deciding one,
    # may take all the time left (fewer free bicliques make it easier than the covers
    # above) — and from above with what remains
    steps = dict(deadline=deadline, solver=solver, claim=claim, data=data, report=report)
    witness, lower, certificate = _ascend(witness, size, lower, certificate, encode,
                                          cap=QUICK_SAT, **steps)
    witness, lower, certificate = _descend(witness, size, lower, certificate, encode,
                                           cap=QUICK_SAT, bisect=True, **steps)
    if lower < witness.n_hubs:
        lower, certificate = _fractional_bound(digraph, witness.hubs, lower, certificate,
                                               share(deadline, 0.5))
        report((witness, lower, certificate))
    witness, lower, certificate = _ascend(witness, size, lower, certificate, encode, **steps)
    _descend(witness, size, lower, certificate, encode, **steps)


def _maximal_cover_cnf(digraph, k, fooling, deadline=None):
    """``biclique_cover_cnf(..., maximal=True)``, or ``None`` past :data:`MAX_CLAUSES` or
    ``deadline``."""
    nonedges = digraph.n ** 2 - digraph.n_edges
    if (nonedges + 2 * digraph.n_edges + 2 * digraph.n) * k > MAX_CLAUSES or past(deadline):
        return None
    return biclique_cover_cnf(digraph, k, fooling, maximal=True)


def _fractional_bound(digraph, cover, lower, certificate, deadline):
    """``lower`` raised to the weighted-fooling-set bound of the fractional biclique cover
    (when the maximal bicliques are few enough to price and the edges at most
    :data:`MAX_LP_EDGES`; see :mod:`.fractional_cover`)."""
    left = None if deadline is None else deadline - time.monotonic()
    if (left is not None and left <= 0) or digraph.n_edges > MAX_LP_EDGES:
        return lower, certificate
    try:
        frac = fractional_biclique_cover(digraph, time_limit=left, start=cover, floor=lower)
    except TooManyBicliquesError:
        return lower, certificate
    if frac.bound <= lower:
        return lower, certificate
    e = digraph.edges
    weights = [[int(a), int(b), int(w)] for (a, b), w in zip(e.tolist(), frac.weights) if w]
    return frac.bound, Certificate(
        "weighted-fooling-set",
        f"edge weights totalling {int(frac.weights.sum())} with every biclique weighing at most "
        f"{frac.max_weight}: b ≥ ⌈total / max⌉ = {frac.bound} (the dual of the fractional "
        f"biclique cover, b* = {frac.value:.4f}; Karchmer, Kushilevitz & Nisan 1995)",
        {"weights": weights, "max_biclique_weight": frac.max_weight,
         "fractional_cover": frac.value})


# -- hub-chromatic index ------------------------------------------------------------------------
def _count_triples(digraph: AttentionDigraph) -> int:
    """The number of triples :func:`_difunctional_triples` lists, from the degrees alone:
    ``Σ_{(a',b) ∈ E} (indeg(b) − 1)(outdeg(a') − 1)``."""
    e = digraph.edges
    return int(((digraph.in_degrees[e[:, 1]] - 1) * (digraph.out_degrees[e[:, 0]] - 1)).sum())


def _difunctional_triples(digraph: AttentionDigraph, deadline: float | None = None):
    """Index triples ``(i, j, l)`` of edges ``(a,b), (a',b), (a',b')`` (``a ≠ a'``,
    ``b ≠ b'``) with the index of ``(a, b')`` or ``-1`` when it is not an edge: a class
    holding all three must hold ``(a, b')`` (``R Rᵀ R ⊆ R``). ``None`` if ``deadline``
    passes first (there are up to ``Σ_b indeg(b)² · Δ⁺`` of them)."""
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
    (impossible when it is not an edge). Edge 0 is put in class 0 (symmetry breaking).
    Returns ``(clauses, decode)``; ``decode(model)`` gives the colored hub extension.
    """
    z = lambda i, c: 1 + i * h + c  # noqa: E731
    triples = _difunctional_triples(digraph) if triples is None else triples
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


def dsatur_colored(extension: HubExtension) -> HubExtension:
    """``extension`` with its hubs colored by DSatur on the hub-conflict graph (a valid
    coloring, not necessarily with the fewest colors)."""
    import networkx as nx

    coloring = nx.greedy_color(extension.conflict_graph(), strategy="saturation_largest_first")
    return extension.with_colors([coloring[p] for p in range(extension.n_hubs)])


def hub_chromatic_index(digraph: AttentionDigraph, *, time_limit: float | None = None,
                        solver: str = SOLVER, biclique_cover: InvariantResult | None = None
                        ) -> InvariantResult:
    """Least chromatic index over all hub extensions of ``digraph``.

    Equivalently the least ``h`` such that ``E`` is covered by ``h`` difunctional relations
    ``R ⊆ E`` (``R Rᵀ R ⊆ R``). Upper bound: the best of the trivial ones — the stars of
    :func:`star_cover` each colored apart (``χ_hub ≤`` the non-isolated sources and targets),
    the König edge coloring (``χ' = max(Δ⁺, Δ⁻)`` classes, each a matching) and, when
    ``biclique_cover`` (the result of :func:`biclique_cover_number` for this digraph) is
    given, its cover colored by DSatur (so ``χ_hub ≤ b``) — the greedy cover colored by
    DSatur and, for transitive tournaments and complete digraphs, a binary cover; then SAT
    below it. Lower bound: ``1`` for a non-empty edge set, ``⌈log₂ m⌉`` for a transitive
    sequence of ``m`` vertices, or UNSAT for one less than the best. Encodings over
    ``MAX_CLAUSES`` clauses are not attempted (the result then says ``optimal=False``).

    Parameters
    ----------
    digraph : AttentionDigraph
    time_limit : float, optional
        Seconds. When it runs out the result holds both bounds and ``optimal=False``.
    solver : str
        A python-sat solver name.
    biclique_cover : InvariantResult, optional
        ``biclique_cover_number(digraph)``, whose witness then bounds the result.

    Returns
    -------
    InvariantResult
        ``witness``: a colored :class:`HubExtension` with ``value`` colors (validated);
        ``certificate``: what proves the lower bound.

    Examples
    --------
    >>> from theorem.families import complete_bipartite
    >>> hub_chromatic_index(complete_bipartite(3, 4)).value
    1
    """
    _check(digraph)
    start = time.perf_counter()
    deadline = deadline_after(time_limit)
    if digraph.n_edges == 0:
        return InvariantResult("hub_chromatic_index", 0, 0, 0, True, HubExtension([], []),
                               Certificate("empty", "no edges"), time.perf_counter() - start)
    trimmed = Trimmed.of(digraph)
    stars = star_cover(trimmed.digraph)
    start_witness = HubExtension(stars, range(len(stars)))
    if biclique_cover is not None and biclique_cover.witness.n_hubs < start_witness.n_hubs:
        start_witness = trimmed.restrict(biclique_cover.witness)
        start_witness = start_witness.with_colors(range(start_witness.n_hubs))
    state = (start_witness, 1, Certificate("non-empty", "one edge needs one color"))
    return _searched("hub_chromatic_index", lambda w: w.n_colors, state, trimmed, start,
                     deadline, _search_difunctional_cover, start_witness, solver)


def _search_difunctional_cover(report, digraph: AttentionDigraph, start: HubExtension,
                               deadline: float | None, solver: str) -> None:
    """The search of :func:`hub_chromatic_index` on a digraph without isolated vertices,
    from the colored extension ``start``, reporting each improved ``(witness, lower,
    certificate)``; runs under :func:`.anytime`."""
    lower = 1
    certificate = Certificate("non-empty", "one edge needs one color")
    witness = start
    sequence = transitive_sequence(digraph, deadline=share(deadline, 0.1))
    binary = _binary_cover(digraph, sequence)
    if binary is not None and binary.n_colors < witness.n_colors:
        witness = binary
    if _log2_ceil(len(sequence)) > lower:
        lower = _log2_ceil(len(sequence))
        certificate = Certificate(
            "transitive-sequence",
            f"{len(sequence)} vertices with v_i → v_l for all i < l need 2^h ≥ {len(sequence)} "
            "(Alon 1985, Thm 1.1, r = s = 1)",
            {"sequence": sequence})
    report((witness, lower, certificate))
    delta = max(digraph.out_degrees.max(), digraph.in_degrees.max())
    if delta < witness.n_colors:  # the König coloring (χ' = Δ classes) is worth its time
        koenig = chromatic_index(digraph)
        witness = HubExtension([([a], [b]) for a, b in digraph.edges.tolist()],
                               koenig.witness.tolist())
        report((witness, lower, certificate))
    if witness.n_colors > lower:
        for candidate in (start, HubExtension(_greedy_cover(digraph,
                                                            deadline=share(deadline, 0.2)))):
            colored = dsatur_colored(candidate)
            if colored.n_colors < witness.n_colors:
                witness = colored
                report((witness, lower, certificate))
    triples: list = []

    def encode(h):
        if _count_triples(digraph) * h > MAX_CLAUSES or past(deadline):
            return None
        if not triples:
            found = _difunctional_triples(digraph, deadline)
            if found is None:
                return None
            triples.extend(found)
        return difunctional_cover_cnf(digraph, h, triples)

    _descend(witness, lambda w: w.n_colors, lower, certificate, encode, deadline, solver,
             lambda h: f"cover by {h} difunctional relations", report=report)
