"""Attention digraphs: the digraph type, named families and their registry, hub extensions
(Lemma 2.1), the random hub model, and trimming. No geometry (imports neither
:mod:`manifolds`' spaces nor :mod:`laws`)."""

from .digraph import (
    MAX_DENSE_VERTICES,
    MAX_VERTICES,
    AttentionDigraph,
    check_digraph,
    check_vertex_count,
)
from .families import (
    FAMILIES,
    block_local,
    complete_bipartite,
    complete_digraph,
    directed_cycle,
    named_family,
    sliding_window,
    strided,
    transitive_tournament,
)
from .hubs import HubExtension
from .random_hub import random_hub_extension
from .trim import Trimmed

__all__ = [
    "AttentionDigraph",
    "check_digraph",
    "check_vertex_count",
    "MAX_VERTICES",
    "MAX_DENSE_VERTICES",
    "FAMILIES",
    "named_family",
    "transitive_tournament",
    "complete_bipartite",
    "complete_digraph",
    "directed_cycle",
    "sliding_window",
    "strided",
    "block_local",
    "HubExtension",
    "random_hub_extension",
    "Trimmed",
]
