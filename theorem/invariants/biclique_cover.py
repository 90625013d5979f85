"""The biclique cover number ``b`` (the Boolean rank of ``M``), with witness and certificate.

NP-hard: the trivial star cover and a greedy cover give the upper bound and its witness;
fooling sets, complete subdigraphs (Sperner) and the fractional cover's duals give lower
bounds; SAT closes the gap one UNSAT result at a time. A time limit returns both bounds with
``optimal=False``.
"""

from __future__ import annotations

import itertools
import time
from math import comb

import numpy as np

from ..digraphs.digraph import AttentionDigraph, check_digraph, check_vertex_count
from ..digraphs.hubs import HubExtension
from ..digraphs.trim import Trimmed
from ..errors import TooManyBicliquesError
from ..sat.budget import deadline_after, past, share
from ..sat.encodings import MAX_CLAUSES, biclique_cover_cnf
from ..sat.search import ascend, descend, with_decoder
from ..sat.claims import Claims
from ..sat.solver import SOLVER
from .fooling import fooling_set, is_fooling_set
from .fractional_cover import fractional_biclique_cover
from .greedy import greedy_cover, star_cover
from .local_search import local_search_cover
from .results import Certificate, InvariantResult, solved, unsat_certificate
from .transitive import transitive_sequence

__all__ = ["biclique_cover_number", "sperner_number", "complete_subdigraph_certificate",
           "QUICK_SAT", "MAX_LP_EDGES", "EARLY_LP_GAP"]


#: Seconds allowed to each of the first, quick SAT calls of ``biclique_cover_number``.
QUICK_SAT = 2.0


#: Digraphs with more edges skip the fractional-cover bound (an LP row per edge).
MAX_LP_EDGES = 20_000


#: Where the local descent of ``biclique_cover_number`` leaves its cover more than this many
#: above the lower bound, the LP bound comes before the quick SAT calls that bisect from
#: above, not after them: on real heads of 30–64 tokens those calls (2 s each at sizes far
#: above the lower bound) mostly end undecided, and the LP, re-solved from its last basis,
#: lifts the lower bound by up to 3 within the time they took (``docs/benchmarks.md``).
EARLY_LP_GAP = 2


def sperner_number(m: int) -> int:
    """The Sperner number ``σ(m)``: the Boolean rank of the complete digraph on ``m``
    vertices (de Caen, Gregory & Pullman, 1981).

    ``σ(m)`` is the least ``k`` with ``C(k, ⌊k/2⌋) ≥ m`` (Sperner's theorem: ``m`` pairwise
    incomparable subsets of ``{0..k-1}``). A complete subdigraph on ``m`` vertices therefore
    proves ``b ≥ σ(m)`` (:func:`complete_subdigraph_certificate`).

    Parameters
    ----------
    m : int
        Number of vertices, at least 0.

    Returns
    -------
    int
        ``σ(m)``; ``σ(0) = σ(1) = 0``.

    Examples
    --------
    >>> [sperner_number(m) for m in range(1, 8)]
    [0, 2, 3, 4, 4, 4, 5]
    """
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
    """The certificate ``b ≥ σ(m)`` from ``m`` vertices pairwise joined both ways (de Caen,
    Gregory & Pullman 1981).

    The vertices span a complete subdigraph, whose Boolean rank is the Sperner number
    ``σ(m)`` (:func:`sperner_number`); any biclique cover of the whole digraph restricts to
    one of it. The clique is not checked against a digraph here.

    Parameters
    ----------
    clique : list of int
        The ``m`` vertices, pairwise joined both ways.

    Returns
    -------
    Certificate
        ``kind="complete-subdigraph"``, ``data={"vertices": clique}``.

    Examples
    --------
    >>> c = complete_subdigraph_certificate([0, 1, 2, 3])
    >>> c.kind, c.data
    ('complete-subdigraph', {'vertices': [0, 1, 2, 3]})
    >>> c.statement.split("; ")[1]
    'the complete digraph on 4 vertices has Boolean rank σ(4) = 4 (de Caen, Gregory & Pullman 1981)'
    """
    return Certificate(
        "complete-subdigraph",
        f"vertices {clique} are pairwise joined both ways; the complete digraph on "
        f"{len(clique)} vertices has Boolean rank σ({len(clique)}) = "
        f"{sperner_number(len(clique))} (de Caen, Gregory & Pullman 1981)",
        {"vertices": clique})


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
    set of the fractional cover (:mod:`.fractional_cover`). All of it runs on the kernel
    (:class:`~theorem.digraphs.Kernel`: rows and columns that are empty, repeated or unions
    of others removed, which keeps ``b``). SAT (maximal bicliques, fooling edges pinned;
    :func:`biclique_cover_cnf`) closes the gap: quick calls (at most :data:`QUICK_SAT`
    seconds) refute ``lower``, ``lower + 1``, …; where they leave a gap the tabu search
    :func:`.local_search_cover` descends from the best cover (under a time limit, with
    restarts of growing length at a size above ``lower`` that it gives up on), and quick
    calls bisect toward smaller covers (below a size the restarts gave up on); then the LP
    bound (before the bisecting calls where the descent left a gap wider than
    :data:`EARLY_LP_GAP`); then refutations from below continue with all the time
    left (a model at the lower bound ends it, exact), then covers one below the best are
    sought. Each claim keeps its solver between calls (:class:`~theorem.sat.Claims`), so a
    refutation begun by a quick call is finished by a later one.

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

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.
    VertexError
        More than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES` vertices have an
        edge (the search builds ``N × N`` matrices over them).

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> result = biclique_cover_number(transitive_tournament(3))
    >>> result.value, result.optimal
    (2, True)
    """
    check_digraph(digraph)
    start = time.perf_counter()
    deadline = deadline_after(time_limit)
    if digraph.n_edges == 0:
        return InvariantResult("biclique_cover_number", 0, 0, 0, True, HubExtension([]),
                               Certificate("empty", "no edges"), time.perf_counter() - start)
    trimmed = Trimmed.of(digraph)
    check_vertex_count(trimmed.digraph.n, "N", dense=True,
                       what="biclique_cover_number (N counts the vertices with an edge)")
    stars = HubExtension(star_cover(trimmed.digraph))
    state = (stars, 1, Certificate("non-empty", "one edge needs one biclique"))
    return solved("biclique_cover_number", lambda w: w.n_hubs, state, trimmed, start,
                     deadline, _search_biclique_cover, stars, solver, unions=True)


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
    lower, certificate = len(fooling), _fooling_certificate(fooling)
    report((stars, lower, certificate))
    cover = stars.hubs
    if lower < len(cover):
        clique = _mutual_clique(digraph)
        greedy = greedy_cover(digraph, deadline=share(deadline, 0.15))
        greedy = min(greedy, greedy_cover(digraph, _sperner_cover(clique),
                                           deadline=share(deadline, 0.15)), key=len)
        if len(greedy) < len(cover):
            cover = greedy
            report((HubExtension(cover), lower, certificate))
    else:
        clique = []
    if max(len(fooling), sperner_number(len(clique))) < len(cover):
        # a cover as small as the greedy fooling set ends it at once; else search for a
        # larger fooling set (a stronger bound, and more bicliques pinned for SAT)
        with Claims(lambda k: _maximal_cover_cnf(digraph, k, fooling, deadline),
                    solver=solver) as greedy_fooling:
            ok, found = greedy_fooling.decide(len(fooling),
                                              share(deadline, 0.1, QUICK_SAT / 4))
        if ok:
            cover = found
        else:
            fooling = fooling_set(digraph, target=len(cover), patience=3000,
                                  deadline=share(deadline, 0.1))
    if len(fooling) > lower:
        lower, certificate = len(fooling), _fooling_certificate(fooling)
    if sperner_number(len(clique)) > lower:
        lower = sperner_number(len(clique))
        certificate = complete_subdigraph_certificate(clique)

    def size(w):
        return w.n_hubs

    def encode(k):
        encoded = _maximal_cover_cnf(digraph, k, fooling, deadline)
        return None if encoded is None else with_decoder(encoded, HubExtension)

    refuted = unsat_certificate(lambda k: f"cover by {k} bicliques", solver,
                                {"fooling_set": fooling.tolist(), "maximal": True})
    witness = HubExtension(cover)
    report((witness, lower, certificate))
    # quick SAT calls from below (each ≤ QUICK_SAT seconds), the local search for smaller
    # covers where they left a gap, quick calls bisecting from above, the LP bound (before
    # those calls where the gap is wide), then SAT from below — the call at the lower
    # bound, often the deciding one, may take all the time left (fewer free bicliques make
    # it easier than the covers above) — and from above with what remains. A claim asked twice goes on from where its solver stopped.
    with Claims(encode, solver=solver) as claims:
        steps = dict(deadline=deadline, refuted=refuted, report=report)
        witness, lower, certificate = ascend(witness, size, lower, certificate, claims,
                                              cap=QUICK_SAT, **steps)
        exhausted = None
        if lower < witness.n_hubs:
            cover, exhausted = _local_descent(
                digraph, witness.hubs, lower, share(deadline, 0.15),
                lambda cover: report((HubExtension(cover), lower, certificate)))
            witness = HubExtension(cover)
        early = witness.n_hubs - lower > EARLY_LP_GAP
        if early:
            lower, certificate = _fractional_bound(digraph, witness.hubs, lower, certificate,
                                                   share(deadline, 0.5))
            report((witness, lower, certificate))
        witness, lower, certificate = descend(
            witness, size, lower, certificate, claims, cap=QUICK_SAT, bisect=True,
            top=None if exhausted is None else exhausted - 1, **steps)
        if lower < witness.n_hubs and not early:
            lower, certificate = _fractional_bound(digraph, witness.hubs, lower, certificate,
                                                   share(deadline, 0.5))
            report((witness, lower, certificate))
        witness, lower, certificate = ascend(witness, size, lower, certificate, claims,
                                              **steps)
        descend(witness, size, lower, certificate, claims, **steps)


#: Searches side by side, and moves of each, for each smaller cover in
#: :func:`biclique_cover_number` (the last, failed, attempt costs all of them): 8 × 1,000
#: reach a cover one below the best twice as often as one search of 2,000 moves does, in
#: about the same time (``docs/benchmarks.md``).
DESCENT_TRIES, DESCENT_ITERATIONS = 8, 1000


def _local_descent(digraph, cover, lower, deadline, report, *, tries=DESCENT_TRIES,
                   iterations=DESCENT_ITERATIONS):
    """Smaller covers by :func:`.local_search_cover` (``tries`` searches of ``iterations``
    moves side by side), each from the last less the biclique that covers the fewest edges
    alone, down to ``lower`` or the first ``k`` it gives up on; reports each one. Under a
    ``deadline``, a ``k`` above ``lower`` that it gives up on is searched again up to the
    deadline, by batches of ``tries`` searches from random out-stars, each batch's searches
    twice as long as the last's (``2·iterations``, ``4·iterations``, …; seeds
    ``k + 1000·batch``): on the shared set's ``s5_L4_H1`` (``b = 18``) the first batch
    covers by 18 where 8 × 1,000 moves from the cover by 19 did not, and CaDiCaL's claim
    at 18 takes some 8 s (``docs/benchmarks.md``). Not at ``k = lower``: SAT's claim there
    is the one the refutation works on, and it decides either way; above it, the caller's
    quick SAT calls then leave ``k`` alone (their 2 s there went to the refutation).

    Returns the last cover and the size searched by restarts up to the deadline without a
    cover (``None`` when there was none: the descent reached ``lower``, gave up at it or
    without a deadline, or ran out of time while it was still finding covers)."""
    while len(cover) > lower and not past(deadline):
        sides = np.zeros((2, len(cover), digraph.n), dtype=np.int64)
        for j, (sources, targets) in enumerate(cover):
            sides[0, j, sources] = sides[1, j, targets] = 1
        once = (sides[0].T @ sides[1] == 1).astype(np.int64)
        weakest = int(np.argmin(((sides[0] @ once) * sides[1]).sum(axis=1)))
        k, moves = len(cover) - 1, iterations
        smaller = local_search_cover(digraph, k, rng=len(cover),
                                     start=cover[:weakest] + cover[weakest + 1:],
                                     iterations=moves, tries=tries, deadline=deadline)
        batch = 0
        while smaller is None and deadline is not None and k > lower and not past(deadline):
            batch, moves = batch + 1, 2 * moves
            smaller = local_search_cover(digraph, k, rng=k + 1000 * batch, iterations=moves,
                                         tries=tries, deadline=deadline)
        if smaller is None:
            return cover, (k if batch else None)
        cover = smaller
        report(cover)
    return cover, None


def _fooling_certificate(fooling: np.ndarray) -> Certificate:
    """``b ≥ |F|`` from a fooling set ``F``."""
    return Certificate("fooling-set", f"{len(fooling)} edges pairwise in no common biclique",
                       {"edges": fooling.tolist()})


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
    # cut by the deadline, the restricted LP's value is only an upper bound on b*
    relation = "=" if frac.converged else "≤"
    return frac.bound, Certificate(
        "weighted-fooling-set",
        f"edge weights totalling {int(frac.weights.sum())} with every biclique weighing at most "
        f"{frac.max_weight}: b ≥ ⌈total / max⌉ = {frac.bound} (the dual of the fractional "
        f"biclique cover, b* {relation} {frac.value:.4f}; Karchmer, Kushilevitz & Nisan 1995)",
        {"weights": weights, "max_biclique_weight": frac.max_weight,
         "fractional_cover": frac.value, "converged": frac.converged})
