"""The random hub extension: the paper's random model of attention digraphs."""

from __future__ import annotations

import numpy as np

from manifolds.validation import as_count, as_generator, as_probability

from ..errors import TheoremError, VertexError
from .digraph import MAX_DENSE_VERTICES, AttentionDigraph, check_vertex_count
from .hubs import HubExtension

__all__ = ["random_hub_extension"]


def random_hub_extension(n: int, n_hubs: int, p: float, rng=None):
    r"""The random hub model: a random attention digraph with its planted hub extension.

    Each of the ``n · n_hubs`` vertex–hub pairs is joined independently with probability
    ``p``; the joining edge points into the hub or out of it with probability ½ each. Hubs
    with an empty side are dropped (``n_hubs`` of the result is the effective count). The
    digraph's edges are the union of the hubs' ``A_p × B_p``: loopless, with edge density
    about ``1 − (1 − p²/4)^{n_hubs}`` (docs/conventions.md#hub-extensions-and-colorings).

    Parameters
    ----------
    n : int
        Number of vertices, at least 0 and at most :data:`.MAX_DENSE_VERTICES` (the digraph
        is the product of two ``n_hubs × n`` incidence tables, an ``n × n`` matrix).
    n_hubs : int
        Number of hubs drawn, at least 0 (before empty ones are dropped), with
        ``n_hubs · max(n, 1)`` at most ``MAX_DENSE_VERTICES²`` (the tables drawn).
    p : float
        Probability, in ``[0, 1]``, that a vertex and a hub are joined.
    rng : Generator, int or None, optional
        Random source (:func:`manifolds.validation.as_generator`); an int ``≥ 0`` seeds it.

    Returns
    -------
    (AttentionDigraph, HubExtension)
        The digraph on ``n`` vertices and its planted, uncolored hub extension, which
        satisfies axiom 1 exactly (so ``b ≤`` its number of hubs).

    Raises
    ------
    VertexError
        ``n`` or ``n_hubs`` is negative or above its limit.
    TheoremError
        ``p`` is not a probability, or ``rng`` is a negative seed.
    TypeError
        An argument has the wrong type (``rng`` included).

    Examples
    --------
    >>> g, ext = random_hub_extension(30, 5, 0.4, rng=1)
    >>> ext.validate(g); ext.n_hubs <= 5
    True
    >>> g.n
    30
    """
    n = check_vertex_count(n, dense=True, what="the random hub model (an n × n product)")
    n_hubs = as_count(n_hubs, "n_hubs", error=VertexError)
    if n_hubs * max(n, 1) > MAX_DENSE_VERTICES ** 2:    # before the tables are drawn
        raise VertexError(
            f"n_hubs · n = {n_hubs} · {n} vertex–hub pairs is above the limit of "
            f"{MAX_DENSE_VERTICES ** 2} (MAX_DENSE_VERTICES²): the model draws two float64 "
            f"tables of them; draw fewer hubs (at most {MAX_DENSE_VERTICES ** 2 // max(n, 1)} "
            f"for n = {n})")
    p = as_probability(p, "p", error=TheoremError)
    gen = as_generator(rng, error=TheoremError)
    joined = gen.random((n_hubs, n)) < p
    into = gen.random((n_hubs, n)) < 0.5
    s, t = joined & into, joined & ~into
    keep = s.any(axis=1) & t.any(axis=1)
    s, t = s[keep], t[keep]
    adjacency = (s.T.astype(np.int64) @ t.astype(np.int64)) > 0
    digraph = AttentionDigraph.from_adjacency(adjacency.astype(np.uint8))
    hubs = [(np.flatnonzero(a).tolist(), np.flatnonzero(b).tolist()) for a, b in zip(s, t)]
    return digraph, HubExtension(hubs)
