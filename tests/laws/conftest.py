"""Spaces and fixtures of the law tests: the issue's four spaces."""

import numpy as np
import pytest

from manifolds import Grassmannian, ProjectiveSpace, Sphere

SPACES = [Sphere(2), Sphere(7), ProjectiveSpace(3), Grassmannian(4, 2)]


def space_id(space):
    return space.name


def random_tangent(space, point, rng):
    """A tangent vector at ``point`` with standard normal coordinates in an orthonormal frame."""
    return np.tensordot(rng.standard_normal(space.dim), space.tangent_basis(point), axes=1)


@pytest.fixture
def rng():
    return np.random.default_rng(20261129)
