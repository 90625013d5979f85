"""Homogeneous spaces with precise, vectorized geometry, and admissible embeddings.

``Sphere(d)``, ``ProjectiveSpace(d)`` and ``Grassmannian(n, k)`` follow the conventions of
DESIGN.md §2: angle / principal-angle distances, projector points, metric ``½ tr(UᵀV)`` on
projector tangent vectors.
"""

from .errors import (
    CutLocusError,
    ManifoldError,
    NonFiniteError,
    NotAdmissibleError,
    NotOnManifoldError,
    NotTangentError,
    ParameterError,
    ShapeError,
)
from ._checks import as_generator
from .embedding import Embedding, admissible_embedding, check_admissible, pairwise_distances
from .grassmannian import Grassmannian
from .projective import ProjectiveSpace
from .spec import parse_space, space_spec
from .sphere import Sphere

__all__ = [
    "Sphere",
    "ProjectiveSpace",
    "Grassmannian",
    "Embedding",
    "admissible_embedding",
    "check_admissible",
    "pairwise_distances",
    "parse_space",
    "space_spec",
    "as_generator",
    "ManifoldError",
    "ParameterError",
    "ShapeError",
    "NonFiniteError",
    "NotOnManifoldError",
    "NotTangentError",
    "CutLocusError",
    "NotAdmissibleError",
]
