"""SAT with time limits: budgets, anytime children and resumable ones (:mod:`.budget`), the
solver call, claims decided resumably (:mod:`.claims`), the CNF encodings of the invariants'
claims, the search from both ends, and DRAT proofs. No geometry."""

from .budget import Resumable, anytime, deadline_after, past, reserve, share
from .claims import Claims
from .drat import DratCheck, check_drat, unsat_proof
from .encodings import (
    MAX_CLAUSES,
    biclique_cover_cnf,
    colored_cover_cnf,
    difunctional_cover_cnf,
    difunctional_cover_size,
)
from .search import ascend, descend, with_decoder
from .solver import SOLVER, solve_within

__all__ = [
    "anytime",
    "deadline_after",
    "past",
    "reserve",
    "share",
    "Resumable",
    "Claims",
    "DratCheck",
    "check_drat",
    "unsat_proof",
    "MAX_CLAUSES",
    "biclique_cover_cnf",
    "colored_cover_cnf",
    "difunctional_cover_cnf",
    "difunctional_cover_size",
    "ascend",
    "descend",
    "with_decoder",
    "SOLVER",
    "solve_within",
]
