"""The real rank of the adjacency matrix, reported beside ``b``."""

from __future__ import annotations

import numpy as np

from ..digraphs.digraph import AttentionDigraph, check_digraph, check_vertex_count
from ..digraphs.trim import Trimmed
from ..sat.budget import anytime, deadline_after

__all__ = ["real_rank"]


def real_rank(digraph: AttentionDigraph, *, time_limit: float | None = None) -> int | None:
    """``rank_R(M)``; reported beside ``b``, which it neither bounds above nor below.

    Computed by SVD (``numpy.linalg.matrix_rank``) of ``M`` without its isolated vertices'
    zero rows and columns, which change no rank. Returns ``None`` when ``time_limit`` seconds
    pass first (an SVD cannot be interrupted, so it runs in a child process then).

    Parameters
    ----------
    digraph : AttentionDigraph
    time_limit : float, optional
        Seconds; ``None`` (the default) for no limit.

    Returns
    -------
    int or None
        ``rank_R(M)``, or ``None`` when the time limit ran out first.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.
    VertexError
        More than :data:`~theorem.digraphs.digraph.MAX_DENSE_VERTICES` vertices have an
        edge (the SVD is of an ``N × N`` matrix over them).

    Examples
    --------
    >>> from theorem.digraphs import complete_digraph
    >>> real_rank(complete_digraph(4))          # J − I is invertible
    4
    """
    check_digraph(digraph)
    deadline = deadline_after(time_limit)
    if digraph.n_edges == 0:
        return 0
    trimmed = Trimmed.of(digraph)
    check_vertex_count(trimmed.digraph.n, "N", dense=True,
                       what="real_rank (N counts the vertices with an edge)")
    rank, _ = anytime(_rank, deadline, trimmed.digraph)
    return rank


def _rank(report, digraph: AttentionDigraph) -> None:
    report(int(np.linalg.matrix_rank(digraph.adjacency.astype(float))))
