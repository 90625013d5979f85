"""The invariants of an attention digraph, each with a witness and a lower-bound certificate:
``b`` (:mod:`.biclique_cover`), ``χ_hub`` (:mod:`.hub_chromatic`), ``χ'``
(:mod:`.chromatic_index`), their Pareto front, fooling sets, the fractional cover, transitive
and skew sequences, the real rank, the local searches for covers (by bicliques and by difunctional relations), the profile of all of them, and the results. No geometry."""

from .biclique_cover import biclique_cover_number, complete_subdigraph_certificate, sperner_number
from .certificates import check_unsat_certificate
from .edge_coloring import chromatic_index, validate_edge_coloring
from .fooling import fooling_set, is_fooling_set
from .fractional_cover import (
    FractionalCover,
    fractional_biclique_cover,
    maximal_bicliques,
    weighted_fooling_bound,
)
from .greedy import star_cover
from .local_search import local_search_cover
from .difunctional_search import local_search_difunctional_cover
from .hub_chromatic import dsatur_colored, hub_chromatic_index
from .pareto import ParetoFront, ParetoPoint, hub_pareto_front
from .profile import InvariantProfile, invariant_profile
from .rank import real_rank
from .results import Certificate, InvariantResult, check_result
from .transitive import (
    is_skew_sequence,
    is_transitive_sequence,
    skew_sequence,
    skew_sequence_of_length,
    transitive_sequence,
)

__all__ = [
    "biclique_cover_number",
    "hub_chromatic_index",
    "chromatic_index",
    "hub_pareto_front",
    "ParetoFront",
    "ParetoPoint",
    "real_rank",
    "invariant_profile",
    "InvariantProfile",
    "star_cover",
    "local_search_cover",
    "local_search_difunctional_cover",
    "fooling_set",
    "is_fooling_set",
    "sperner_number",
    "complete_subdigraph_certificate",
    "transitive_sequence",
    "is_transitive_sequence",
    "skew_sequence",
    "skew_sequence_of_length",
    "is_skew_sequence",
    "dsatur_colored",
    "fractional_biclique_cover",
    "FractionalCover",
    "maximal_bicliques",
    "weighted_fooling_bound",
    "validate_edge_coloring",
    "check_unsat_certificate",
    "check_result",
    "Certificate",
    "InvariantResult",
]
