"""The spaces the tests run on, and random tangent vectors: defined once for the whole suite.

:data:`SPACES` is every space the geometry is tested on. The costlier law and cover tests run
on subsets of it, picked by name: :data:`LAW_SPACES` (one space of each kind, and a sphere of
higher dimension) and :data:`COVER_SPACES` (one space of each kind, the smallest).
"""

import numpy as np

from manifolds import Grassmannian, ProjectiveSpace, Sphere

SPACES = [Sphere(2), Sphere(7), ProjectiveSpace(2), ProjectiveSpace(3), ProjectiveSpace(5),
          Grassmannian(4, 2), Grassmannian(6, 3), Grassmannian(5, 3)]


def _pick(*names):
    spaces = {space.name: space for space in SPACES}
    return [spaces[name] for name in names]


LAW_SPACES = _pick("Sphere(2)", "Sphere(7)", "ProjectiveSpace(3)", "Grassmannian(4, 2)")
COVER_SPACES = _pick("Sphere(2)", "ProjectiveSpace(2)", "Grassmannian(4, 2)")


def space_id(space):
    """The test id of a space: its name."""
    return space.name


def random_tangent(space, point, rng, norm=None):
    """A tangent vector at ``point`` in a random direction: standard normal coordinates in a
    g-orthonormal frame, rescaled to g-norm ``norm`` when it is given."""
    coef = rng.standard_normal(space.dim)
    if norm is not None:
        coef *= norm / np.linalg.norm(coef)
    return np.tensordot(coef, space.tangent_basis(point), axes=1)
