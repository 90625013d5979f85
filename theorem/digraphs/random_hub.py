"""The random hub extension: the paper's random model of attention digraphs."""

from __future__ import annotations

import numpy as np

from manifolds.validation import as_count, as_generator, as_probability

from ..errors import TheoremError, VertexError
from .digraph import AttentionDigraph
from .hubs import HubExtension

__all__ = ["random_hub_extension"]


def random_hub_extension(n: int, n_hubs: int, p: float, rng=None):
    r"""The random hub model: a digraph with its planted hub extension.

    Each of the ``n · n_hubs`` vertex–hub pairs is joined independently with probability
    ``p``; the joining edge points into the hub or out of it with probability ½ each. Hubs
    with an empty side are dropped (``n_hubs`` of the result is the effective count). Edge
    density is about ``1 − (1 − p²/4)^{n_hubs}``.

    Returns
    -------
    (AttentionDigraph, HubExtension)

    Examples
    --------
    >>> g, ext = random_hub_extension(30, 5, 0.4, rng=1)
    >>> ext.validate(g); ext.n_hubs <= 5
    True
    """
    n = as_count(n, "n", error=VertexError)
    n_hubs = as_count(n_hubs, "n_hubs", error=VertexError)
    p = as_probability(p, "p", error=TheoremError)
    gen = as_generator(rng)
    joined = gen.random((n_hubs, n)) < p
    into = gen.random((n_hubs, n)) < 0.5
    s, t = joined & into, joined & ~into
    keep = s.any(axis=1) & t.any(axis=1)
    s, t = s[keep], t[keep]
    adjacency = (s.T.astype(np.int64) @ t.astype(np.int64)) > 0
    digraph = AttentionDigraph.from_adjacency(adjacency.astype(np.uint8))
    hubs = [(np.flatnonzero(a).tolist(), np.flatnonzero(b).tolist()) for a, b in zip(s, t)]
    return digraph, HubExtension(hubs)
