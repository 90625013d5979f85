"""The Pareto front of colored hub extensions: fewest hubs ``n`` against fewest colors ``h``.

The two minima (``n = b``, ``h = χ_hub``) need not be reached by one colored hub extension;
the non-dominated pairs ``(n, h)`` form a front, from ``(n(χ_hub), χ_hub)`` down to
``(b, h(b))``. For each color count ``h`` from ``χ_hub`` up, the least hub count ``n(h)`` is
found by SAT (one UNSAT result proves it); the front stops once ``n(h) = b``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ..digraphs.digraph import AttentionDigraph, check_digraph, check_vertex_count
from ..digraphs.hubs import HubExtension
from ..digraphs.trim import Trimmed
from ..sat.budget import anytime, deadline_after, past, reserve, share
from ..sat.claims import Claims
from ..sat.encodings import MAX_CLAUSES, colored_cover_cnf
from ..sat.search import descend
from ..sat.solver import SOLVER
from .biclique_cover import biclique_cover_number
from .fooling import fooling_set
from .hub_chromatic import _hub_chromatic_index, dsatur_colored
from .results import check_result, unsat_certificate

__all__ = ["ParetoPoint", "ParetoFront", "hub_pareto_front"]


@dataclass(frozen=True)
class ParetoPoint:
    """A pair ``(hubs, colors)`` with a colored hub extension realizing it; ``optimal`` when
    no extension with ``colors`` colors has fewer hubs is proved (UNSAT or ``hubs = b``).

    A point of the Pareto front (docs/conventions.md#hub-extensions-and-colorings).

    Parameters
    ----------
    hubs : int
        Number of hubs ``n`` of the witness.
    colors : int
        Number of colors ``h`` of the witness.
    witness : HubExtension
        A colored hub extension with ``hubs`` hubs and ``colors`` colors.
    optimal : bool
        Whether ``hubs`` is proved the least for ``colors`` colors.

    Examples
    --------
    >>> from theorem.digraphs import HubExtension
    >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    >>> point = ParetoPoint(ext.n_hubs, ext.n_colors, ext, True)
    >>> point.hubs, point.colors
    (2, 2)
    """

    hubs: int
    colors: int
    witness: HubExtension
    optimal: bool


@dataclass(frozen=True)
class ParetoFront:
    """The points found, by increasing colors; ``complete`` when the last one reaches
    ``hubs = b`` (otherwise the time limit stopped the search before the end of the front).

    Returned by :func:`hub_pareto_front`.

    Parameters
    ----------
    points : list of ParetoPoint
        The non-dominated points, by increasing colors (decreasing hubs).
    complete : bool
        Whether the front reaches ``hubs = b`` (with ``b`` proved).

    Examples
    --------
    >>> from theorem.digraphs import HubExtension
    >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    >>> front = ParetoFront([ParetoPoint(2, 2, ext, True)], True)
    >>> front.pairs(), front.optimal
    ([[2, 2]], True)
    """

    points: list[ParetoPoint]
    complete: bool

    @property
    def optimal(self) -> bool:
        """Complete, and every point proved."""
        return self.complete and all(p.optimal for p in self.points)

    def pairs(self) -> list[list[int]]:
        """The front as ``[[hubs, colors], ...]``, by increasing colors.

        Returns
        -------
        list of list of int
            One ``[n, h]`` per point (JSON-ready).

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> hub_pareto_front(transitive_tournament(3)).pairs()
        [[2, 2]]
        """
        return [[p.hubs, p.colors] for p in self.points]


def hub_pareto_front(digraph: AttentionDigraph, *, time_limit: float | None = None,
                     solver: str = SOLVER, biclique_cover=None, hub_chromatic=None
                     ) -> ParetoFront:
    """Every non-dominated pair ``(hubs, colors)`` over colored hub extensions, each with a
    validated witness, ordered by increasing colors (decreasing hubs).

    With a time limit the points found so far are returned with ``complete=False``; a point
    whose hub count is not proved minimal for its colors has ``optimal=False``. The results of
    :func:`biclique_cover_number` and :func:`hub_chromatic_index` for this digraph, when
    already computed, can be passed as ``biclique_cover`` and ``hub_chromatic``. A descent
    whose encoding (about ``hubs² · colors · N`` clauses) exceeds ``MAX_CLAUSES`` is not
    attempted: its point stays unproved.

    Parameters
    ----------
    digraph : AttentionDigraph
    time_limit : float, optional
        Seconds for the whole front (``b`` and ``χ_hub`` included when not given). When it
        runs out, the points found so far, with ``complete=False``.
    solver : str
        A python-sat solver name.
    biclique_cover : InvariantResult, optional
        ``biclique_cover_number(digraph)``, already computed (checked, not recomputed).
    hub_chromatic : InvariantResult, optional
        ``hub_chromatic_index(digraph)``, already computed (checked, not recomputed).

    Returns
    -------
    ParetoFront
        The non-dominated points, each with a validated colored hub extension.

    Raises
    ------
    TypeError
        ``biclique_cover`` or ``hub_chromatic`` is not an :class:`InvariantResult` (raised by
        :func:`check_result`).
    TheoremError
        ``biclique_cover`` or ``hub_chromatic`` is not a result of that invariant for this
        digraph (raised by :func:`check_result`), or ``time_limit`` is not positive.
    VertexError
        More than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES` vertices have an
        edge (the searches build ``N × N`` matrices over them).

    Examples
    --------
    >>> from theorem.digraphs import complete_digraph
    >>> front = hub_pareto_front(complete_digraph(5))
    >>> front.pairs(), front.complete
    ([[6, 3], [4, 4]], True)
    """
    check_digraph(digraph)
    if biclique_cover is not None:
        check_result(biclique_cover, "biclique_cover_number", digraph, "biclique_cover")
    if hub_chromatic is not None:
        check_result(hub_chromatic, "hub_chromatic_index", digraph, "hub_chromatic")
    deadline = deadline_after(time_limit)
    if digraph.n_edges == 0:
        return ParetoFront([ParetoPoint(0, 0, HubExtension([]), True)], True)
    trimmed = Trimmed.of(digraph)
    check_vertex_count(trimmed.digraph.n, "N", dense=True,
                       what="hub_pareto_front (N counts the vertices with an edge)")

    def limit(fraction):
        end = share(deadline, fraction)
        return None if end is None else max(end - time.monotonic(), 1e-3)

    b = biclique_cover or biclique_cover_number(digraph, time_limit=limit(1 / 3), solver=solver)
    chi = hub_chromatic or _hub_chromatic_index(digraph, limit(1 / 2), solver, b)
    # before any search: the two extremes, the fewest-hubs cover colored apart
    begun = time.perf_counter()
    apart = b.witness.with_colors(range(b.witness.n_hubs))
    points = [ParetoPoint(chi.witness.n_hubs, chi.value, chi.witness, False),
              ParetoPoint(b.value, b.value, apart, False)]
    state = _non_dominated(points)
    fewest_hubs, fewest_colors = trimmed.restrict(b.witness), trimmed.restrict(chi.witness)
    # afterwards each point is mapped back and validated: keep time for that
    deadline = reserve(deadline, time.perf_counter() - begun, factor=len(state) + 1)
    found, _ = anytime(_search_front, deadline, trimmed.digraph, fewest_hubs,
                       b.value, b.lower_bound, b.optimal, fewest_colors,
                       chi.value, chi.optimal, deadline, solver)
    if found is not None:
        # the search's witnesses are new: validated once, here (b's and χ_hub's already are)
        state = [replace(p, witness=trimmed.extension(p.witness)) for p in found]
        for p in state:
            p.witness.validate(digraph)
    return ParetoFront(state, state[-1].hubs == b.value and b.optimal and state[-1].optimal)


def _non_dominated(points: list[ParetoPoint]) -> list[ParetoPoint]:
    """The points no other point dominates (fewer or equal hubs and colors), by colors."""
    kept = [p for p in points
            if not any((q.hubs, q.colors) != (p.hubs, p.colors) and q.hubs <= p.hubs
                       and q.colors <= p.colors for q in points)]
    unique = {(p.hubs, p.colors): p for p in kept}
    return sorted(unique.values(), key=lambda p: p.colors)


def _search_front(report, digraph: AttentionDigraph, fewest_hubs: HubExtension, b: int,
                  b_lower: int, b_optimal: bool, fewest_colors: HubExtension, chi: int,
                  chi_optimal: bool, deadline: float | None, solver: str) -> None:
    """The search of :func:`hub_pareto_front` on a digraph without isolated vertices,
    reporting the front found so far; runs under :func:`.anytime`."""
    fewest = dsatur_colored(fewest_hubs)
    front = [ParetoPoint(fewest_colors.n_hubs, chi, fewest_colors, False),
             ParetoPoint(fewest.n_hubs, fewest.n_colors, fewest, False)]
    report(_non_dominated(front))
    fooling = fooling_set(digraph, deadline=share(deadline, 0.1))
    front = []
    best = fewest_colors
    h = chi
    while True:
        with Claims(lambda k, h=h: (colored_cover_cnf(digraph, k, h, fooling)
                                    if k * k * h * digraph.n <= MAX_CLAUSES
                                    and not past(deadline) else None),
                    solver=solver) as claims:
            best, least, _ = descend(
                best, lambda w: w.n_hubs, b_lower, None, claims, deadline,
                unsat_certificate(lambda k, h=h: f"{k} hubs with {h} colors", solver))
        n = best.n_hubs
        proved = least == n
        if not front or n < front[-1].hubs:
            front.append(ParetoPoint(n, h, best, proved and chi_optimal))
        if n <= b or past(deadline):
            break
        report(_non_dominated(front + [ParetoPoint(fewest.n_hubs, fewest.n_colors, fewest,
                                                   False)]))
        h += 1  # the current witness stays valid with one more color allowed
    if front[-1].hubs > b:
        # the time limit stopped the descent above b: the fewest-hubs witness, DSatur-colored,
        # is a point of fewest hubs (its color count unproved); drop what it dominates
        front = _non_dominated(front + [ParetoPoint(fewest.n_hubs, fewest.n_colors, fewest,
                                                    False)])
    report(front)
