"""Attention digraphs: the digraph type, named families and their registry, hub extensions
(Lemma 2.1), the random hub model, trimming, kernels (sub-matrices with the same ``b`` or
``χ_hub``), digraphs from attention matrices (:func:`attention_digraph`) and their null
models. No geometry (imports neither :mod:`manifolds`' spaces nor :mod:`laws`)."""

from .attention import AttentionRule, attention_digraph, drop_tokens, kept_keys
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
from .null_models import hub_probability, matched_random_hub, random_in_degree_digraph
from .random_hub import random_hub_extension
from .kernel import Kernel, rectangle
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
    "Kernel",
    "rectangle",
    "AttentionRule",
    "attention_digraph",
    "kept_keys",
    "drop_tokens",
    "random_in_degree_digraph",
    "matched_random_hub",
    "hub_probability",
]
