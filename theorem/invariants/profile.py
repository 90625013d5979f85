"""The invariant profile of one attention digraph: ``b``, ``χ_hub``, ``χ'`` and the real rank
together, within one time limit."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..digraphs.digraph import AttentionDigraph, check_digraph
from ..sat.budget import deadline_after
from .biclique_cover import biclique_cover_number
from .edge_coloring import chromatic_index
from .hub_chromatic import hub_chromatic_index
from .rank import real_rank
from .results import InvariantResult

__all__ = ["InvariantProfile", "invariant_profile"]


@dataclass(frozen=True)
class InvariantProfile:
    """``b``, ``χ_hub``, ``χ'`` and ``rank_R(M)`` of one digraph, each exact invariant with its
    bounds, witness and certificate (docs/conventions.md#exact-answers).

    Parameters
    ----------
    tokens : int
        Vertices ``N``.
    edges : int
    biclique_cover : InvariantResult
        ``b``.
    hub_chromatic : InvariantResult
        ``χ_hub``.
    chromatic : InvariantResult
        ``χ'``.
    real_rank : int or None
        ``None`` when the time limit ran out first.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> p = invariant_profile(transitive_tournament(3))
    >>> p.tokens, p.edges, p.optimal
    (3, 3, True)
    """

    tokens: int
    edges: int
    biclique_cover: InvariantResult
    hub_chromatic: InvariantResult
    chromatic: InvariantResult
    real_rank: int | None

    @property
    def optimal(self) -> bool:
        """Whether ``b``, ``χ_hub`` and ``χ'`` are all proved."""
        return all(r.optimal for r in (self.biclique_cover, self.hub_chromatic, self.chromatic))

    def to_json(self) -> dict:
        """The profile as a JSON-ready dict: ``tokens``, ``edges``, ``b``, ``chi_hub`` and
        ``chi_prime`` (each :meth:`InvariantResult.summary`), ``real_rank`` and ``optimal``.

        Returns
        -------
        dict

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> report = invariant_profile(transitive_tournament(3)).to_json()
        >>> report["b"]["value"], report["chi_hub"]["value"], report["real_rank"]
        (2, 2, 2)
        """
        return {"tokens": self.tokens, "edges": self.edges,
                "b": self.biclique_cover.summary(), "chi_hub": self.hub_chromatic.summary(),
                "chi_prime": self.chromatic.summary(), "real_rank": self.real_rank,
                "optimal": self.optimal}


def invariant_profile(digraph: AttentionDigraph, *,
                      time_limit: float | None = None) -> InvariantProfile:
    """``b``, ``χ_hub``, ``χ'`` and ``rank_R(M)`` of ``digraph`` within one time limit.

    ``χ'`` (König's coloring) and the real rank come first: both are polynomial, a few
    milliseconds on attention-sized digraphs, and may use the whole budget. Then ``b``
    (:func:`biclique_cover_number`) gets half of what is left and ``χ_hub``
    (:func:`hub_chromatic_index`, given ``b``'s result, so its upper bound is never above
    ``b``'s) the rest. An invariant the limit leaves unproved keeps both bounds.

    Parameters
    ----------
    digraph : AttentionDigraph
    time_limit : float, optional
        Seconds for the four together; ``None`` for no limit.

    Returns
    -------
    InvariantProfile

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite
    >>> p = invariant_profile(complete_bipartite(3, 4), time_limit=10)
    >>> p.biclique_cover.value, p.hub_chromatic.value, p.chromatic.value, p.real_rank
    (1, 1, 4, 1)
    """
    check_digraph(digraph)
    deadline = deadline_after(time_limit)

    def share(fraction):
        if deadline is None:
            return None
        return max(fraction * (deadline - time.monotonic()), 1e-3)

    chromatic = chromatic_index(digraph, time_limit=share(1.0))
    rank = real_rank(digraph, time_limit=share(1.0))
    b = biclique_cover_number(digraph, time_limit=share(1 / 2))
    hub = hub_chromatic_index(digraph, time_limit=share(1.0), biclique_cover=b)
    return InvariantProfile(digraph.n, digraph.n_edges, b, hub, chromatic, rank)
