"""The paper's Main Theorem: attention digraphs, hub extensions, invariants, density covers.

Attention digraphs and named families, hub extensions with their colorings (Lemma 2.1), the
random hub model, the invariants ``b``, ``χ_hub`` and ``χ'`` with witnesses and certificates
and their Pareto front; part (i) of the Main Theorem (:func:`universal_law`,
:class:`UniversalFamily`, :func:`one_function_cover`) and part (ii) (:func:`density_cover`,
:func:`density_cover_for`) with their verification (:func:`verify_density_cover`); the
command line. Imports :mod:`manifolds` and :mod:`laws`; neither imports this package.
"""

from .density_cover import DensityCover, density_cover, density_cover_for, partition_cover, product_cover
from .digraph import AttentionDigraph
from .edge_coloring import chromatic_index, validate_edge_coloring
from .errors import (
    DigraphFormatError,
    InvalidColoringError,
    InvalidHubExtensionError,
    SelfLoopError,
    TheoremError,
    TooManyBicliquesError,
    VertexError,
)
from .families import (
    block_local,
    complete_bipartite,
    complete_digraph,
    directed_cycle,
    sliding_window,
    strided,
    transitive_tournament,
)
from .fractional_cover import FractionalCover, fractional_biclique_cover, maximal_bicliques, weighted_fooling_bound
from .hubs import HubExtension, random_hub_extension
from .invariants import (
    biclique_cover_number,
    fooling_set,
    hub_chromatic_index,
    is_fooling_set,
    real_rank,
    sperner_number,
    star_cover,
)
from .pareto import ParetoFront, ParetoPoint, hub_pareto_front
from .results import Certificate, InvariantResult
from .universal import UniversalFamily, one_function_cover, universal_law
from .verification import VerificationReport, verify_density_cover

__all__ = [
    "AttentionDigraph",
    "HubExtension",
    "random_hub_extension",
    "transitive_tournament",
    "complete_bipartite",
    "complete_digraph",
    "directed_cycle",
    "sliding_window",
    "strided",
    "block_local",
    "chromatic_index",
    "biclique_cover_number",
    "hub_chromatic_index",
    "real_rank",
    "star_cover",
    "fooling_set",
    "is_fooling_set",
    "sperner_number",
    "fractional_biclique_cover",
    "FractionalCover",
    "maximal_bicliques",
    "weighted_fooling_bound",
    "validate_edge_coloring",
    "hub_pareto_front",
    "ParetoFront",
    "ParetoPoint",
    "universal_law",
    "UniversalFamily",
    "one_function_cover",
    "DensityCover",
    "density_cover",
    "density_cover_for",
    "partition_cover",
    "product_cover",
    "verify_density_cover",
    "VerificationReport",
    "Certificate",
    "InvariantResult",
    "TheoremError",
    "SelfLoopError",
    "VertexError",
    "DigraphFormatError",
    "InvalidHubExtensionError",
    "InvalidColoringError",
    "TooManyBicliquesError",
]
