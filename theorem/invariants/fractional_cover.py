r"""The fractional biclique cover and the weighted fooling sets that bound ``b`` from below.

Relax the biclique cover to a linear program over the maximal bicliques ``(A_c, B_c)``:

.. math:: b^* = \min \sum_c x_c \quad \text{s.t.} \quad \sum_{c \ni e} x_c \ge 1 \ (e \in E),
          \ x \ge 0.

Its dual asks for edge weights ``y ≥ 0`` with ``y(A × B) ≤ 1`` on every biclique and
``Σ y`` as large as possible — a *weighted fooling set* (a fooling set is the 0/1 case;
Karchmer, Kushilevitz & Nisan, *SIAM J. Discrete Math.* 8, 1995). Any such weights bound
``b``: every edge lies in a biclique of the cover, so
``Σ_e y_e ≤ Σ_{cover} y(A × B) ≤ b · W`` with ``W`` the largest weight of a biclique. The
certificate stores integer weights and ``W``, so the bound ``b ≥ ⌈Σ y / W⌉`` is checked in
exact integer arithmetic by :func:`weighted_fooling_bound`, whatever the LP solver's
rounding did.

A biclique's weight only grows when it grows, so ``W`` is a maximum over the maximal
bicliques, the closed pairs ``B = ⋂_{a ∈ A} N⁺(a)``, ``A = {v : B ⊆ N⁺(v)}``: every
intersection of out-neighbourhoods, enumerated by :func:`maximal_bicliques`. Their number can
grow exponentially (``2^N - 2`` for the complete digraph), hence its ``limit``. The LP is
solved by column generation, pricing every maximal biclique against the duals at each round.
The restricted LPs are solved in their dual form — ``max Σ y`` with ``y(A × B) ≤ 1`` over
the bicliques priced so far — as one HiGHS model (``highspy``, HiGHS's own Python
interface) that grows by a block of rows a round; dual simplex goes on from the last
round's basis, which added rows leave dual feasible, and the fractional cover ``x`` is the
rows' duals. Every ``PURGE_EVERY`` rounds the rows slack at the optimum leave the model
(each run of dual simplex starts with work that grows with the rows: 0.19 s before 20 pivots
at 3,700 rows on a real head of 57 tokens), and the pricing runs in float32, re-priced in
float64 wherever a biclique's weight may reach 1. The bound is priced in exact integers,
and only on rounds whose duals may lift it. This is 1.4 to 1.8 times faster than the primal
form re-solved by primal simplex, and 5 to 7 times faster than scipy's ``linprog``, which
runs the same solver but starts every round afresh (``docs/benchmarks.md``).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import highspy
import numpy as np

from manifolds.validation import as_count

from ..digraphs.digraph import AttentionDigraph, check_digraph, check_vertex_count
from ..errors import TheoremError, TooManyBicliquesError
from ..sat.budget import anytime, deadline_after

__all__ = [
    "FractionalCover",
    "fractional_biclique_cover",
    "maximal_bicliques",
    "weighted_fooling_bound",
]

#: Integer weights are the LP duals times this scale, rounded down: sums over ``≤ 2^32``
#: edges stay below ``2^53``, so float64 matrix products add them exactly.
SCALE = 2 ** 20

#: Maximal bicliques enumerated by default before :func:`fractional_biclique_cover` gives up.
MAX_BICLIQUES = 300_000

_CHUNK = 1 << 16

#: Every this many rounds, the rows slack at the restricted optimum leave the LP (as long as
#: its value fell since the last time): their slacks are basic, so the basis stays optimal,
#: and each run of dual simplex starts with work that grows with the rows it keeps
#: (``docs/benchmarks.md``).
PURGE_EVERY = 3


@dataclass(frozen=True)
class FractionalCover:
    """A fractional biclique cover and the weighted fooling set of its dual.

    ``value`` is the LP optimum over the bicliques priced so far (``b*`` when ``converged``);
    ``weights`` (``int64``, one per edge of ``digraph.edges``) and ``max_weight`` (the largest
    weight of a biclique) prove ``bound = ⌈Σ weights / max_weight⌉ ≤ b`` — valid whether or
    not the column generation converged; they are the duals of the round with the highest
    bound so far, not necessarily the last. ``sources``/``targets`` (bool, ``[C, N]``) and
    ``x`` give the fractional cover itself (its support).

    Returned by :func:`fractional_biclique_cover`; ``bound`` is what
    :func:`weighted_fooling_bound` would check again from ``weights``.

    Parameters
    ----------
    value : float
        The restricted LP's optimum ``Σ_c x_c`` (an upper bound on ``b*``; ``b*`` itself when
        ``converged``).
    converged : bool
        Whether no maximal biclique was left with a violated dual constraint.
    bound : int
        ``⌈Σ weights / max_weight⌉``, a lower bound on ``b``.
    weights : numpy.ndarray of int64, shape ``(n_edges,)``
        The integer dual weight of each row of ``digraph.edges``.
    max_weight : int
        The largest weight ``y(A × B)`` of a biclique.
    sources, targets : numpy.ndarray of bool, shape ``(C, N)``
        The bicliques of the LP's support, row ``c`` marking ``A_c`` and ``B_c``.
    x : numpy.ndarray of float, shape ``(C,)``
        Their values in the LP solution.
    n_bicliques : int
        Number of maximal bicliques of the digraph (the columns priced).
    rounds : int
        Rounds of column generation.

    Examples
    --------
    >>> from theorem.digraphs import directed_cycle
    >>> f = fractional_biclique_cover(directed_cycle(5))   # the five edges are the bicliques
    >>> f.bound, f.n_bicliques, f.weights.shape, f.sources.shape
    (5, 5, (5,), (5, 5))
    """

    value: float
    converged: bool
    bound: int
    weights: np.ndarray
    max_weight: int
    sources: np.ndarray
    targets: np.ndarray
    x: np.ndarray
    n_bicliques: int
    rounds: int


def maximal_bicliques(digraph: AttentionDigraph, *, limit: int | None = None,
                      deadline: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every maximal biclique ``(A, B)`` (both sides non-empty) of the digraph.

    ``B`` runs over the non-empty intersections ``⋂_{a ∈ S} N⁺(a)`` of out-neighbourhoods
    (built one vertex at a time: the family closed under intersection with ``N⁺(v)``), and
    ``A = {v : B ⊆ N⁺(v)}``. Raises :class:`~theorem.errors.TooManyBicliquesError` when there
    are more than ``limit``, or when ``deadline`` (``time.monotonic()`` seconds) passes first.

    Their number can grow exponentially (``2^N − 2`` for the complete digraph); the
    enumeration holds them as Python integers (bit sets).

    Parameters
    ----------
    digraph : AttentionDigraph
    limit : int, optional
        The most maximal bicliques allowed; ``None`` for no limit.
    deadline : float, optional
        A ``time.monotonic()`` deadline; ``None`` for no limit.

    Returns
    -------
    sources, targets : ndarray of bool, shape (C, N)
        Row ``c`` marks ``A_c`` and ``B_c``; rows are sorted by ``B`` read as a binary number.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> sources, targets = maximal_bicliques(transitive_tournament(3))
    >>> [(s.nonzero()[0].tolist(), t.nonzero()[0].tolist()) for s, t in zip(sources, targets)]
    [([0, 1], [2]), ([0], [1, 2])]

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``limit`` not an integer.
    TheoremError
        ``limit`` is negative.
    TooManyBicliquesError
        There are more than ``limit`` maximal bicliques, or ``deadline`` passed first.
    VertexError
        ``digraph`` has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        vertices (raised by :attr:`~AttentionDigraph.adjacency`).
    """
    check_digraph(digraph)
    if limit is not None:
        limit = as_count(limit, "limit", error=TheoremError)
    n = digraph.n
    m = digraph.adjacency.astype(bool)
    weights = 1 << np.arange(n, dtype=object)
    rows = sorted({int(weights[r].sum()) for r in m if r.any()})
    closed = {(1 << n) - 1}
    for done, row in enumerate(rows, 1):
        closed |= {c & row for c in closed}
        if limit is not None and len(closed) - 1 > limit:
            raise TooManyBicliquesError(
                f"more than {limit} maximal bicliques after {done} of {len(rows)} vertices; "
                "raise the limit or skip this bound")
        if deadline is not None and time.monotonic() >= deadline:
            raise TooManyBicliquesError(
                f"out of time enumerating maximal bicliques ({len(closed) - 1} after {done} of "
                f"{len(rows)} vertices); allow more time or skip this bound")
    closed.discard(0)
    closed.discard((1 << n) - 1)             # ⋂ of no vertex: not a biclique's target set
    values = sorted(closed)
    nbytes = max((n + 7) // 8, 1)
    packed = np.frombuffer(b"".join(c.to_bytes(nbytes, "little") for c in values), np.uint8)
    targets = np.unpackbits(packed.reshape(len(values), nbytes), axis=1, bitorder="little")[:, :n]
    targets = targets.astype(bool)
    outside = (~m).astype(np.float32)        # outside[v, w]: w ∉ N⁺(v)
    sources = np.concatenate([
        (targets[i:i + _CHUNK].astype(np.float32) @ outside.T) == 0
        for i in range(0, len(values), _CHUNK)]) if values else np.zeros((0, n), bool)
    keep = sources.any(axis=1)
    return sources[keep], targets[keep]


def _biclique_weights(sources, targets, weight_matrix, dtype=np.float64) -> np.ndarray:
    """``y(A_c × B_c)`` for every row, in ``dtype``; exact in float64 when ``weight_matrix``
    holds integers < 2^53 in total (float64 sums of integers are exact below that)."""
    out = np.empty(len(sources), dtype=dtype)
    weight_matrix = np.asarray(weight_matrix, dtype=dtype)
    for i in range(0, len(sources), _CHUNK):
        a = sources[i:i + _CHUNK].astype(dtype)
        b = targets[i:i + _CHUNK].astype(dtype)
        out[i:i + _CHUNK] = np.einsum("cw,cw->c", a @ weight_matrix, b)
    return out


def _priced(sources, targets, dual) -> np.ndarray:
    """``y(A_c × B_c)`` for every row of the ``N × N`` duals ``dual``: in float32, then again
    in float64 where the float32 weight is within ``8N · 2^-24`` below 1 or above. A float32
    weight sums non-negative terms (duals rounded once, then ``≤ 2N`` rounded additions),
    so it errs by under ``(2N + 1) · 2^-24`` of itself: every weight that reaches 1, the
    violated and the tight alike, is re-priced in float64, at a fraction of the cost."""
    priced = _biclique_weights(sources, targets, dual, np.float32).astype(np.float64)
    near = np.flatnonzero(priced >= 1 - 8 * len(dual) * 2.0 ** -24)
    priced[near] = _biclique_weights(sources[near], targets[near], dual)
    return priced


def weighted_fooling_bound(digraph: AttentionDigraph, weights) -> tuple[int, int]:
    """The lower bound ``⌈Σ y / W⌉ ≤ b`` of integer edge weights ``y``, checked exactly.

    ``W`` is the largest weight ``y(A × B)`` of a biclique, a maximum over
    :func:`maximal_bicliques`. ``weights`` are rows ``(a, b, y)`` with ``(a, b)`` an edge and
    ``y ≥ 0`` an integer (missing edges weigh 0). Returns ``(bound, W)``; raises
    :class:`TheoremError` on a non-edge, a negative or non-integer weight, or all zeros.

    Parameters
    ----------
    digraph : AttentionDigraph
    weights : array_like of int, shape ``(k, 3)``
        Rows ``(a, b, y)``: edge ``(a, b)`` weighs ``y`` (as in a ``"weighted-fooling-set"``
        certificate's ``data["weights"]``).

    Returns
    -------
    bound : int
        ``⌈Σ y / W⌉``, a lower bound on ``b``.
    W : int
        The largest weight of a biclique.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.
    TheoremError
        ``weights`` is not rows of three, a weight is not an integer, a weighted pair is
        not an edge, the weights are negative or all zero, or their total reaches ``2^53``
        (too large for an exact check).

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> weighted_fooling_bound(transitive_tournament(3), [(0, 1, 1), (1, 2, 1), (0, 2, 0)])
    (2, 1)
    """
    check_digraph(digraph)
    try:
        rows = np.asarray(weights, dtype=object)
    except (ValueError, TypeError):
        rows = None
    if rows is None or rows.size % 3:
        raise TheoremError("weights must be integer rows (a, b, y), three numbers each")
    rows = rows.reshape(-1, 3)
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in rows.ravel()):
        raise TheoremError("weights must be integer rows (a, b, y)")
    if any(abs(int(v)) >= 2 ** 53 for v in rows.ravel()):
        raise TheoremError("weights too large for an exact check (a value ≥ 2^53); scale "
                           "them down, and name vertices in 0..N-1")
    rows = rows.astype(np.int64)
    m = digraph.adjacency.astype(bool)
    a, b, y = rows[:, 0], rows[:, 1], rows[:, 2]
    if ((a < 0) | (a >= digraph.n) | (b < 0) | (b >= digraph.n)).any() or not m[a, b].all():
        raise TheoremError("every weighted pair must be an edge of the digraph")
    if (y < 0).any() or not y.any():
        raise TheoremError("weights must be non-negative and not all zero")
    matrix = np.zeros(m.shape)
    np.add.at(matrix, (a, b), y.astype(np.float64))
    if matrix.sum() >= 2.0 ** 53:
        raise TheoremError("weights too large for an exact check (total ≥ 2^53); scale them down")
    sources, targets = maximal_bicliques(digraph)
    heaviest = int(_biclique_weights(sources, targets, matrix).max())
    total = int(y.sum())
    return -(-total // heaviest), heaviest


def fractional_biclique_cover(digraph: AttentionDigraph, *, time_limit: float | None = None,
                              limit: int = MAX_BICLIQUES, start=(),
                              floor: int | None = None) -> FractionalCover:
    """The fractional biclique cover number ``b*`` by column generation, with its dual bound.

    Starts from the maximal bicliques containing the bicliques ``start`` (any cover, e.g. a
    greedy one; by default the out-stars), solves the restricted LP, prices every
    maximal biclique against the duals and adds the 200 most violated, until none is
    (``converged``) or ``time_limit`` seconds pass, or the restricted LP's value — an upper
    bound on ``b*`` — falls to ``floor`` (a lower bound known already, which the LP then
    cannot beat). The returned weights are the duals of the round whose bound was highest,
    scaled to integers (a round's duals can bound less than an earlier round's, so the
    bound never falls from one report to the next); it holds whether or not the LP
    converged. Raises :class:`~theorem.errors.TooManyBicliquesError`
    past ``limit`` maximal bicliques.

    Parameters
    ----------
    digraph : AttentionDigraph
        With at least one edge.
    time_limit : float, optional
        Seconds; the column generation then runs in a child process
        (:func:`~theorem.sat.budget.anytime`). ``None`` for no limit.
    limit : int
        The most maximal bicliques to enumerate (:data:`MAX_BICLIQUES` by default).
    start : iterable of (list of int, list of int)
        Bicliques whose maximal extensions are the first columns; the out-stars when empty.
    floor : int, optional
        A lower bound on ``b`` already known: stop once the LP's value falls to it.

    Returns
    -------
    FractionalCover
        The LP value, the integer dual weights and their bound ``⌈Σ y / W⌉ ≤ b``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.
    TheoremError
        The digraph has no edges, or the restricted LP failed.
    VertexError
        The digraph has more than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES`
        vertices (the column generation builds ``N × N`` matrices).
    TooManyBicliquesError
        More than ``limit`` maximal bicliques, or the time ran out before the first
        restricted LP was solved.

    Examples
    --------
    >>> from theorem.digraphs import directed_cycle
    >>> f = fractional_biclique_cover(directed_cycle(5))
    >>> round(f.value, 6), f.bound, f.converged
    (5.0, 5, True)
    """
    check_digraph(digraph)
    deadline = deadline_after(time_limit)
    if not digraph.n_edges:
        raise TheoremError("the digraph has no edges: there is nothing to cover")
    check_vertex_count(digraph.n, "N", dense=True, what="fractional_biclique_cover")
    found, _ = anytime(_column_generation, deadline, digraph, deadline, limit, start, floor)
    if found is None:
        raise TooManyBicliquesError(
            f"time ran out ({time_limit:g} s) before the first restricted LP was solved; "
            "raise time_limit")
    return found


def _restricted_lp(n_edges: int) -> highspy.Highs:
    """The dual of the restricted LP, ``min −Σ y`` over ``n_edges`` columns ``y_e ≥ 0`` and
    no row yet (each priced biclique adds ``y(A × B) ≤ 1``), for dual simplex on one thread,
    printing nothing.

    ``highspy.Highs()`` writes HiGHS's banner to file descriptor 1 the first time a process
    builds one, before any option can turn it off (HiGHS issue #2749); a command's ``--json``
    output must not start with it, so that descriptor points at ``os.devnull`` meanwhile."""
    try:
        saved = os.dup(1)
    except OSError:                           # no descriptor 1: nothing to keep clean
        lp = highspy.Highs()
    else:
        try:
            with open(os.devnull, "wb") as null:
                os.dup2(null.fileno(), 1)
                lp = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
    lp.setOptionValue("output_flag", False)
    lp.setOptionValue("threads", 1)
    lp.setOptionValue("simplex_strategy", 1)   # dual: added rows keep the basis dual feasible
    none = np.zeros(0, dtype=np.int32)
    lp.addCols(n_edges, -np.ones(n_edges), np.zeros(n_edges),
               np.full(n_edges, highspy.kHighsInf), 0, none, none, np.zeros(0))
    return lp


def _column_generation(report, digraph: AttentionDigraph, deadline: float | None, limit: int,
                       start, floor: int | None) -> None:
    """The rounds of :func:`fractional_biclique_cover`, reporting the cover (with its proved
    integer bound) after each; runs under :func:`.anytime`."""
    sources, targets = maximal_bicliques(digraph, limit=limit, deadline=deadline)
    e = digraph.edges
    edge_id = np.full((digraph.n, digraph.n), -1, dtype=np.int64)
    edge_id[e[:, 0], e[:, 1]] = np.arange(len(e))
    lp = _restricted_lp(len(e))
    rows = np.zeros(0, dtype=np.int64)     # the biclique of each of the LP's rows

    def add(new: np.ndarray) -> None:
        nonlocal rows
        c, a, b = np.nonzero(sources[new][:, :, None] & targets[new][:, None, :])
        starts = np.searchsorted(c, np.arange(len(new))).astype(np.int32)
        lp.addRows(len(new), np.full(len(new), -highspy.kHighsInf), np.ones(len(new)),
                   len(c), starts, edge_id[a, b].astype(np.int32), np.ones(len(c)))
        rows = np.concatenate([rows, new])

    add(_starting_columns(sources, targets, start, digraph.adjacency.astype(bool)))
    best = None                             # (bound, weights, heaviest) of the best round
    rounds = 0
    purged_at = np.inf                      # the LP's value when rows last left it
    while True:
        rounds += 1
        lp.run()
        if lp.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            raise TheoremError("the restricted LP failed: HiGHS ended with "
                               f"{lp.modelStatusToString(lp.getModelStatus())}")
        solution = lp.getSolution()
        value = -lp.getInfo().objective_function_value
        y = np.clip(np.asarray(solution.col_value), 0.0, None)
        x = -np.asarray(solution.row_dual)      # a row at its bound 1 has a dual ≤ 0
        dual = np.zeros((digraph.n, digraph.n))
        dual[e[:, 0], e[:, 1]] = y
        priced = _priced(sources, targets, dual)
        violated = np.flatnonzero(priced > 1 + 1e-9)
        converged = not len(violated)
        # the duals scaled to integers prove ⌈Σ y / W⌉ whether the LP converged or not
        top = int(np.argmax(priced))
        weights = np.floor(y * (SCALE / max(float(priced[top]), 1e-300))).astype(np.int64)
        total = int(weights.sum())
        # the heaviest biclique weighs at least the one heaviest under the duals: where
        # even that one's weight leaves the bound at or below the best, no pricing can lift it
        least = int(weights[edge_id[np.ix_(sources[top], targets[top])]].sum())
        if best is None or not least or -(-total // least) > best[0]:
            integer = np.zeros((digraph.n, digraph.n))
            integer[e[:, 0], e[:, 1]] = weights
            heaviest = int(_biclique_weights(sources, targets, integer).max())
            bound = -(-total // heaviest) if heaviest else 0
            if best is None or bound > best[0]:
                best = (bound, weights, heaviest)
        support = x > 1e-9
        report(FractionalCover(float(value), converged, *best,
                               sources[rows[support]], targets[rows[support]], x[support],
                               len(sources), rounds))
        if converged or (floor is not None and value <= floor) or (
                deadline is not None and time.monotonic() >= deadline):
            return
        # only after the value fell, so that no rows can leave and come back for ever
        if rounds % PURGE_EVERY == 0 and value < purged_at - 1e-9:
            slack = np.flatnonzero(np.asarray(solution.row_value) < 1 - 1e-6)
            if lp.deleteRows(len(slack), slack.astype(np.int32)) != highspy.HighsStatus.kOk:
                raise TheoremError("HiGHS could not delete the restricted LP's slack rows")
            rows = np.delete(rows, slack)
            purged_at = value
        add(violated[np.argsort(-priced[violated], kind="stable")[:200]])


def _starting_columns(sources, targets, start, adjacency) -> np.ndarray:
    """Indices of maximal bicliques holding each biclique of ``start`` (when empty, the
    out-stars ``({a}, N⁺(a))``, which cover every edge)."""
    if not len(start):
        start = [([a], np.flatnonzero(row)) for a, row in enumerate(adjacency) if row.any()]
    found = []
    for a, b in start:
        holds = sources[:, list(a)].all(axis=1) & targets[:, list(b)].all(axis=1)
        found.append(int(np.argmax(holds)))
    return np.unique(found)

