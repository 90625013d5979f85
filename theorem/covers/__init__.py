"""The Main Theorem built and checked: part (i), the universal family (:mod:`.universal`);
part (ii), density covers from colored hub extensions (:mod:`.density_cover`); and their
verification at the paper's strength, exactly, and for rank (:mod:`.verification`)."""

from .density_covers import (
    MAX_COVER_VERTICES,
    DensityCover,
    check_cover_size,
    construct_density_cover,
    density_cover,
    density_cover_for,
    partition_cover,
    product_cover,
)
from .universal import UniversalFamily, one_function_cover, universal_law
from .verification import VerificationReport, claim_checks, verify_density_cover

__all__ = [
    "universal_law",
    "UniversalFamily",
    "one_function_cover",
    "DensityCover",
    "density_cover",
    "construct_density_cover",
    "density_cover_for",
    "partition_cover",
    "product_cover",
    "check_cover_size",
    "MAX_COVER_VERTICES",
    "verify_density_cover",
    "VerificationReport",
    "claim_checks",
]
