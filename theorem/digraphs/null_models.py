"""Null models for attention digraphs: random digraphs that keep what an attention rule
fixes and randomize the rest."""

from __future__ import annotations

import numpy as np

from manifolds.validation import as_count, as_generator, as_probability

from ..errors import TheoremError, VertexError
from .digraph import AttentionDigraph, check_digraph, check_vertex_count
from .hubs import HubExtension
from .random_hub import random_hub_extension

__all__ = ["random_in_degree_digraph", "matched_random_hub", "hub_probability"]


def random_in_degree_digraph(digraph: AttentionDigraph, *, rng=None) -> AttentionDigraph:
    r"""A uniformly random loopless digraph with the in-degree sequence of ``digraph``.

    Each vertex ``b`` keeps its in-degree ``d⁻(b)`` — in attention terms, query ``b`` keeps
    as many keys as it did (docs/conventions.md#edge-direction) — and draws its ``d⁻(b)``
    sources uniformly, without replacement, from the other ``N − 1`` vertices, independently
    of the other vertices. This is the null model of an attention rule: the rule fixes how
    many keys each query keeps (exactly ``k`` for top-k), the model decides which. Out-degrees
    are not kept.

    Parameters
    ----------
    digraph : AttentionDigraph
        At most :data:`MAX_DENSE_VERTICES` vertices (an ``N × N`` table is drawn).
    rng : Generator, int or None, optional
        Random source; an int ``≥ 0`` seeds it.

    Returns
    -------
    AttentionDigraph
        Same ``N`` and labels, same in-degrees.

    Raises
    ------
    VertexError
        ``digraph`` has more than :data:`MAX_DENSE_VERTICES` vertices.
    TheoremError
        ``rng`` is a negative seed.
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> g = transitive_tournament(6)
    >>> null = random_in_degree_digraph(g, rng=0)
    >>> null.in_degrees.tolist() == g.in_degrees.tolist()
    True
    """
    check_digraph(digraph)
    n = check_vertex_count(digraph.n, "digraph.n", dense=True, what="the in-degree null model")
    gen = as_generator(rng, error=TheoremError)
    keys = gen.random((n, n))
    np.fill_diagonal(keys, np.inf)                        # never a loop
    rank = np.argsort(np.argsort(keys, axis=1), axis=1)   # a uniform order of the others
    targets, sources = np.nonzero(rank < digraph.in_degrees[:, None])
    return AttentionDigraph(n, np.column_stack([sources, targets]), labels=digraph.labels)


def hub_probability(density: float, n_hubs: int) -> float:
    r"""The join probability ``p`` of the random hub model whose expected density is
    ``density``: ``1 − (1 − p²/4)^n = density``, so
    ``p = 2·√(1 − (1 − density)^{1/n})``,
    capped at 1 (the densest the model gets with ``n`` hubs is ``1 − (3/4)^n``).

    Parameters
    ----------
    density : float
        In ``[0, 1]``: edges over ``N(N − 1)`` ordered pairs.
    n_hubs : int
        At least 1.

    Returns
    -------
    float

    Raises
    ------
    TheoremError
        ``density`` is not a probability.
    VertexError
        ``n_hubs < 1``.

    Examples
    --------
    >>> p = hub_probability(0.5, 32)
    >>> round(1 - (1 - p * p / 4) ** 32, 12)
    0.5
    """
    density = as_probability(density, "density", error=TheoremError)
    n_hubs = as_count(n_hubs, "n_hubs", error=VertexError)
    if n_hubs < 1:
        raise VertexError(f"the random hub model needs at least one hub, got n_hubs = {n_hubs}")
    if density == 1:
        return 1.0
    return min(1.0, 2 * float(np.sqrt(-np.expm1(np.log1p(-density) / n_hubs))))


def matched_random_hub(digraph: AttentionDigraph, n_hubs: int, *,
                       rng=None) -> tuple[AttentionDigraph, HubExtension]:
    r"""A random hub extension (:func:`random_hub_extension`) on the vertices of ``digraph``
    with ``n_hubs`` hubs and the join probability whose expected density is the density of
    ``digraph`` (:func:`hub_probability`).

    Parameters
    ----------
    digraph : AttentionDigraph
        Supplies ``N`` and the density ``E / (N(N − 1))``; at least 2 vertices.
    n_hubs : int
        Hubs drawn (the effective count can be smaller: hubs with an empty side are dropped).
    rng : Generator, int or None, optional

    Returns
    -------
    (AttentionDigraph, HubExtension)
        The digraph (with the labels of ``digraph``) and its planted hub extension.

    Raises
    ------
    TheoremError
        ``digraph`` has fewer than 2 vertices, or ``rng`` is a negative seed.
    VertexError
        ``n_hubs < 1``.
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> real = transitive_tournament(40)                  # density 1/2
    >>> g, ext = matched_random_hub(real, 32, rng=0)
    >>> ext.validate(g); g.n, ext.n_hubs <= 32, 0.4 < g.n_edges / (40 * 39) < 0.6
    (40, True, True)
    """
    check_digraph(digraph)
    if digraph.n < 2:
        raise TheoremError(f"a density needs at least 2 vertices, the digraph has {digraph.n}")
    density = digraph.n_edges / (digraph.n * (digraph.n - 1))
    null, planted = random_hub_extension(digraph.n, n_hubs, hub_probability(density, n_hubs),
                                         rng=rng)
    return AttentionDigraph(null.n, null.edges, labels=digraph.labels), planted
