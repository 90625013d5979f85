"""The hub-chromatic index ``χ_hub``: fewest difunctional relations covering ``E``."""

from __future__ import annotations

import time

import numpy as np

from ..digraphs.digraph import AttentionDigraph, check_digraph, check_vertex_count
from ..digraphs.hubs import HubExtension
from ..digraphs.trim import Trimmed
from ..sat.budget import deadline_after, past, share
from ..sat.encodings import MAX_CLAUSES, difunctional_cover_cnf, difunctional_cover_size
from ..sat.claims import Claims
from ..sat.search import ascend, descend
from ..sat.solver import SOLVER
from .biclique_cover import QUICK_SAT
from .difunctional_search import DIFUNCTIONAL_ITERATIONS, local_search_difunctional_cover
from .edge_coloring import chromatic_index
from .greedy import greedy_cover, star_cover
from .results import Certificate, InvariantResult, check_result, solved, unsat_certificate
from .transitive import binary_cover, log2_ceil, skew_sequence, skew_sequence_of_length

__all__ = ["hub_chromatic_index", "dsatur_colored"]


def dsatur_colored(extension: HubExtension) -> HubExtension:
    """``extension`` with its hubs colored by DSatur on the hub-conflict graph (a valid
    coloring, not necessarily with the fewest colors).

    DSatur (networkx's ``saturation_largest_first``) gives hubs that share a source or a
    target different colors (docs/conventions.md#hub-extensions-and-colorings); the result's
    chromatic index is an upper bound on ``χ_hub`` when ``extension`` is a hub extension of
    the digraph. Deterministic: the conflict graph, not a random order, decides.

    Parameters
    ----------
    extension : HubExtension
        The hubs to color (any colors it carries are replaced).

    Returns
    -------
    HubExtension
        The same hubs, colored.

    Raises
    ------
    TypeError
        ``extension`` is not a :class:`HubExtension`.

    Examples
    --------
    >>> from theorem.digraphs import HubExtension
    >>> ext = HubExtension([({0}, {1}), ({0}, {2}), ({1}, {2})])   # a path of conflicts
    >>> colored = dsatur_colored(ext)
    >>> colored.n_colors
    2
    >>> colored.validate_coloring()                                 # valid: no error
    """
    import networkx as nx

    if not isinstance(extension, HubExtension):
        raise TypeError(f"extension must be a HubExtension, not {type(extension).__name__}")
    coloring = nx.greedy_color(extension.conflict_graph(), strategy="saturation_largest_first")
    return extension.with_colors([coloring[p] for p in range(extension.n_hubs)])


def hub_chromatic_index(digraph: AttentionDigraph, *, time_limit: float | None = None,
                        solver: str = SOLVER, biclique_cover: InvariantResult | None = None
                        ) -> InvariantResult:
    """Least chromatic index over all hub extensions of ``digraph``.

    Equivalently the least ``h`` such that ``E`` is covered by ``h`` difunctional relations
    ``R ⊆ E`` (``R Rᵀ R ⊆ R``). Upper bound: the best of the trivial ones — the stars of
    :func:`star_cover` each colored apart (``χ_hub ≤`` the non-isolated sources and targets;
    with ``biclique_cover``, its cover colored apart instead when it has no more hubs than
    that, as every result of :func:`biclique_cover_number` does),
    the König edge coloring (``χ' = max(Δ⁺, Δ⁻)`` classes, each a matching) and, when
    ``biclique_cover`` (the result of :func:`biclique_cover_number` for this digraph) is
    given, its cover colored by DSatur (so ``χ_hub ≤ b``) — the greedy cover colored by
    DSatur and, for transitive tournaments and complete digraphs, a binary cover. Lower
    bound: ``1`` for a non-empty edge set, ``⌈log₂ m⌉`` for a skew sequence of ``m`` pairs
    (:func:`.skew_sequence`, then :func:`.skew_sequence_of_length` for one pair past the
    next power of two; a transitive sequence of ``m`` vertices is one). All of it runs on
    the kernel (:class:`~theorem.digraphs.Kernel`: empty and repeated rows and columns
    removed, which keeps ``χ_hub``). Where the best trivial witness has more than twice the
    lower bound's colors, the tabu search :func:`.local_search_difunctional_cover` first
    looks for a cover far below it, from empty relations (at ``2·lower``, then half as many
    again while it gives up, within :data:`JUMP_SHARE` of the time left). SAT
    (:func:`.difunctional_cover_cnf`) closes the gap as for
    :func:`biclique_cover_number`: quick calls (at most :data:`QUICK_SAT` seconds, on
    encodings of at most :data:`QUICK_CLAUSES` clauses) bisect toward fewer relations,
    starting at twice the lower bound; where they leave a gap, the tabu search descends one
    relation at a time (with at most :data:`DESCENT_SHARE` of the time left: on dense
    digraphs the quick calls refute what SAT refutes at all within seconds, and the search
    finds what they miss; under a time limit, at the lower bound it restarts with longer
    searches until that share is spent); then refutations from below take the time left (a model at the
    lower bound ends it, exact), then covers one below the best are sought. Encodings over
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

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``biclique_cover`` not an
        :class:`InvariantResult`.
    TheoremError
        ``biclique_cover`` is not a result of :func:`biclique_cover_number` for this
        digraph.
    VertexError
        More than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES` vertices have an
        edge (the search builds ``N × N`` matrices over them).

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite
    >>> hub_chromatic_index(complete_bipartite(3, 4)).value
    1
    """
    check_digraph(digraph)
    if biclique_cover is not None:
        check_result(biclique_cover, "biclique_cover_number", digraph, "biclique_cover")
    return _hub_chromatic_index(digraph, time_limit, solver, biclique_cover)


def _hub_chromatic_index(digraph: AttentionDigraph, time_limit: float | None, solver: str,
                         biclique_cover: InvariantResult | None) -> InvariantResult:
    """:func:`hub_chromatic_index`, trusting its caller (docs/conventions.md#validation):
    ``biclique_cover``, when given, is a checked result for ``digraph``."""
    start = time.perf_counter()
    deadline = deadline_after(time_limit)
    if digraph.n_edges == 0:
        return InvariantResult("hub_chromatic_index", 0, 0, 0, True, HubExtension([], []),
                               Certificate("empty", "no edges"), time.perf_counter() - start)
    trimmed = Trimmed.of(digraph)
    check_vertex_count(trimmed.digraph.n, "N", dense=True,
                       what="hub_chromatic_index (N counts the vertices with an edge)")
    small = trimmed.digraph
    trivial = min(np.count_nonzero(small.out_degrees), np.count_nonzero(small.in_degrees))
    if biclique_cover is not None and biclique_cover.witness.n_hubs <= trivial:
        # b's own result has at most the hubs of the star cover (its first witness): the
        # stars are not made twice
        start_witness = trimmed.restrict(biclique_cover.witness)
        start_witness = start_witness.with_colors(range(start_witness.n_hubs))
    else:
        stars = star_cover(small)
        start_witness = HubExtension(stars, range(len(stars)))
    state = (start_witness, 1, Certificate("non-empty", "one edge needs one color"))
    return solved("hub_chromatic_index", lambda w: w.n_colors, state, trimmed, start,
                     deadline, _search_difunctional_cover, start_witness, solver, unions=False)


def _search_difunctional_cover(report, digraph: AttentionDigraph, start: HubExtension,
                               deadline: float | None, solver: str) -> None:
    """The search of :func:`hub_chromatic_index` on a digraph without isolated vertices,
    from the colored extension ``start``, reporting each improved ``(witness, lower,
    certificate)``; runs under :func:`.anytime`."""
    pairs = skew_sequence(digraph, deadline=share(deadline, 0.1))
    while 2 ** log2_ceil(len(pairs)) < digraph.n:      # one pair more lifts the bound
        longer = skew_sequence_of_length(digraph, 2 ** log2_ceil(len(pairs)) + 1,
                                         deadline=share(deadline, 0.05))
        if longer is None:
            break
        pairs = longer
    lower, certificate = 1, Certificate("non-empty", "one edge needs one color")
    if log2_ceil(len(pairs)) > lower:
        lower, certificate = log2_ceil(len(pairs)), _skew_certificate(pairs)
    witness = start
    if all(u == w for u, w in pairs):
        binary = binary_cover(digraph, [u for u, _ in pairs])
        if binary is not None and binary.n_colors < witness.n_colors:
            witness = binary
    report((witness, lower, certificate))
    delta = max(digraph.out_degrees.max(), digraph.in_degrees.max())
    if delta < witness.n_colors:  # the König coloring (χ' = Δ classes) is worth its time
        koenig = chromatic_index(digraph)
        witness = HubExtension([([a], [b]) for a, b in digraph.edges.tolist()],
                               koenig.witness.tolist())
        report((witness, lower, certificate))
    if witness.n_colors > lower:
        for candidate in (start, HubExtension(greedy_cover(digraph,
                                                            deadline=share(deadline, 0.2)))):
            colored = dsatur_colored(candidate)
            if colored.n_colors < witness.n_colors:
                witness = colored
                report((witness, lower, certificate))

    def encode(h):
        if difunctional_cover_size(digraph, h) > MAX_CLAUSES or past(deadline):
            return None
        return difunctional_cover_cnf(digraph, h)

    def size(w):
        return w.n_colors

    # the local search far below the trivial witnesses; quick calls bisecting toward fewer
    # relations, the first at twice the lower bound (χ_hub of a dense digraph is a few
    # colors, its König coloring dozens, and the encodings near the answer are the small
    # ones); the local search one relation at a time; then refutations from below with all
    # the time left (a model at the lower bound ends it), then covers from above
    steps = dict(deadline=deadline, report=report,
                 refuted=unsat_certificate(lambda h: f"cover by {h} difunctional relations",
                                           solver))
    searchable = witness.n_colors * digraph.n ** 2 <= MAX_SEARCH_CELLS
    if searchable and witness.n_colors > 2 * lower:
        witness = _local_jump(digraph, witness, lower, share(deadline, JUMP_SHARE),
                              lambda w: report((w, lower, certificate)))
    with Claims(encode, size=lambda h: difunctional_cover_size(digraph, h),
                solver=solver) as claims:
        witness, lower, certificate = descend(witness, size, lower, certificate, claims,
                                              cap=QUICK_SAT, bisect=True, first=2 * lower,
                                              most=QUICK_CLAUSES, **steps)
        if searchable and lower < witness.n_colors:
            witness = _local_descent(digraph, witness, lower, share(deadline, DESCENT_SHARE),
                                     lambda w: report((w, lower, certificate)))
        witness, lower, certificate = ascend(witness, size, lower, certificate, claims,
                                              **steps)
        descend(witness, size, lower, certificate, claims, **steps)


#: The quick SAT calls of :func:`hub_chromatic_index` are made on encodings of at most this
#: many clauses (building and loading more takes a second or more, and CaDiCaL decides
#: nothing about them within :data:`QUICK_SAT` seconds).
QUICK_CLAUSES = 300_000

#: The local search's arrays hold ``h·(N + 1)·N`` numbers each; past this many for the
#: largest ``h`` it would try, it is left out (its steps cost ``h·N³``).
MAX_SEARCH_CELLS = 4_000_000

#: The share of the time left that the local search may take to jump far below the trivial
#: witnesses (:func:`_local_jump`, which returns at its first cover: the share is spent only
#: while its tries give up).
JUMP_SHARE = 0.5

#: The share of the time left that the local search descending one relation at a time may
#: take in :func:`hub_chromatic_index`; the refutations from below get the rest. On the 432
#: shared attention heads every UNSAT result that proved ``χ_hub`` came from a quick call
#: (within 1.9 s of the start, 10 s limit), never from the long refutation after the search,
#: while the search at the lower bound succeeds in about one try of three.
DESCENT_SHARE = 0.9

#: Searches for each smaller cover in :func:`hub_chromatic_index` (the first from the last
#: cover, the others from empty relations), within its time.
DESCENT_TRIES = 8

#: Searches of :func:`hub_chromatic_index` run side by side (one batch of array operations)
#: while their moves' arrays, ``tries·h·N²`` numbers, stay within this many: there a move
#: costs mostly its fixed overhead, and 8 searches side by side make about 5 times the moves
#: of one on 18 tokens, 3 times on 29; on 62 tokens (``h = 10``) a move of 8 takes 5.6 times
#: a move of one, so they run one after the other there.
SIDE_BY_SIDE_CELLS = 40_000

#: Moves of each try for a cover at the lower bound (the one that would prove the value):
#: the covers of real heads at ``χ_hub`` are found after 2,000–13,000 moves, rarely by
#: restarts of a few thousand.
FINAL_ITERATIONS = 15_000


def _local_jump(digraph: AttentionDigraph, witness: HubExtension, lower: int,
                deadline: float | None, report) -> HubExtension:
    """A cover far below ``witness`` from :func:`.local_search_difunctional_cover` started
    from empty relations: first by ``2·lower`` relations, then, while the search gives up,
    by half as many again (``3·lower``, ``4.5·lower``, …, below the witness's colors; the
    trivial witnesses of a dense digraph have dozens of colors, its covers a few). Each try
    but the last one below the witness gets half the time left: on 57–62 tokens a try at
    ``2·lower`` that gives up would otherwise take it all, where one at ``2.5·lower`` finds
    a cover within a second. Reports the cover found, if any."""
    h = 2 * lower
    while h < witness.n_colors and not past(deadline):
        bigger = (3 * h + 1) // 2
        cover = local_search_difunctional_cover(
            digraph, h, rng=h,
            deadline=deadline if bigger >= witness.n_colors else share(deadline, 0.5))
        if cover is not None:
            report(cover)
            return cover
        h = bigger
    return witness


def _local_descent(digraph: AttentionDigraph, witness: HubExtension, lower: int,
                   deadline: float | None, report) -> HubExtension:
    """Covers by fewer relations from :func:`.local_search_difunctional_cover`: for
    ``h = n_colors − 1, n_colors − 2, …`` down to ``lower``, :data:`DESCENT_TRIES` searches
    of :data:`~.difunctional_search.DIFUNCTIONAL_ITERATIONS` moves (:data:`FINAL_ITERATIONS`
    at ``h = lower``), the first from the last cover (its color class covering the fewest
    edges dropped), the others from empty relations. They run side by side, as many at a
    time as keep the arrays of a move within :data:`SIDE_BY_SIDE_CELLS`, except that above
    the lower bound the first runs alone (it mostly succeeds). Stops at the first ``h`` they
    all give up on, or at ``deadline``; but at ``h = lower``, where a cover proves the
    value, a ``deadline`` is searched up to: after those searches come batches of new ones,
    each batch's searches twice as long as the last's (restarts of growing length). Without
    a deadline the refutation that follows decides, so the search stops there as above.
    Reports each cover."""
    while witness.n_colors > lower and not past(deadline):
        h = witness.n_colors - 1
        final = h == lower
        moves = FINAL_ITERATIONS if final else DIFUNCTIONAL_ITERATIONS
        width = max(1, min(DESCENT_TRIES, SIDE_BY_SIDE_CELLS // (h * digraph.n ** 2)))
        restarts = final and deadline is not None
        smaller, tried = None, 0
        while smaller is None and (tried < DESCENT_TRIES or restarts) and not past(deadline):
            if tried >= DESCENT_TRIES:
                tries = width
                moves *= 2
            else:
                tries = 1 if tried == 0 and not final else min(width, DESCENT_TRIES - tried)
            smaller = local_search_difunctional_cover(
                digraph, h, start=witness if tried == 0 else None, rng=h + 1000 * tried,
                iterations=moves, tries=tries, deadline=deadline)
            tried += tries
        if smaller is None:
            break
        witness = smaller
        report(witness)
    return witness


def _skew_certificate(pairs: list[tuple[int, int]]) -> Certificate:
    """``χ_hub ≥ ⌈log₂ m⌉`` from a skew sequence of ``m`` pairs (a transitive sequence when
    every pair is one vertex twice)."""
    bound = log2_ceil(len(pairs))
    if all(u == w for u, w in pairs):
        return Certificate(
            "transitive-sequence",
            f"{len(pairs)} vertices with v_i → v_l for all i < l need 2^h ≥ {len(pairs)} "
            "(Alon 1985, Thm 1.1, r = s = 1)",
            {"sequence": [u for u, _ in pairs]})
    return Certificate(
        "skew-sequence",
        f"{len(pairs)} pairs (u_i, w_i) with u_i ↛ w_i and u_i → w_l for all i < l need "
        f"2^h ≥ {len(pairs)}, so h ≥ {bound} (Alon 1985, Thm 1.1, r = s = 1)",
        {"pairs": [[u, w] for u, w in pairs]})
