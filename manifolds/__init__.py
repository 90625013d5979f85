"""Homogeneous spaces with precise, vectorized geometry, and admissible embeddings.

Every space subclasses :class:`Space`, the contract code outside this package relies on
(docs/manifolds.md, "The Space contract"); :mod:`manifolds.validation` checks scalar
arguments (counts, dimensions, probabilities, generators, tolerances) for every package.

``Sphere(d)``, ``ProjectiveSpace(d)`` and ``Grassmannian(n, k)`` follow the conventions of
docs/conventions.md#spaces-and-metrics: angle / principal-angle distances, projector points, metric ``½ tr(UᵀV)`` on
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
from .space import Space
from .validation import (
    as_choice,
    as_count,
    as_dimension,
    as_generator,
    as_integer,
    as_nonnegative,
    as_positive,
    as_positive_integer,
    as_probability,
    as_real,
    as_real_array,
    as_space,
    as_tolerance,
)
from ._checks import MAX_TANGENT_NORM
from .embedding import Embedding, admissible_embedding, check_admissible, pairwise_distances
from .grassmannian import Grassmannian
from .projective import ProjectiveSpace
from .spec import parse_space, space_spec
from .sphere import Sphere

__all__ = [
    "Space",
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
    "as_integer",
    "as_count",
    "as_positive_integer",
    "as_dimension",
    "as_real",
    "as_positive",
    "as_nonnegative",
    "as_probability",
    "as_tolerance",
    "as_choice",
    "as_real_array",
    "as_space",
    "MAX_TANGENT_NORM",
    "ManifoldError",
    "ParameterError",
    "ShapeError",
    "NonFiniteError",
    "NotOnManifoldError",
    "NotTangentError",
    "CutLocusError",
    "NotAdmissibleError",
]
