"""Bad input raises a specific exception whose message says what was wrong."""

import numpy as np
import pytest

from manifolds import (
    Grassmannian,
    ManifoldError,
    NonFiniteError,
    NotOnManifoldError,
    NotTangentError,
    ParameterError,
    ProjectiveSpace,
    ShapeError,
    Sphere,
    parse_space,
)
from tests.spaces import SPACES

ids = [s.name for s in SPACES]


def test_every_error_is_a_value_error():
    for cls in (ManifoldError, NonFiniteError, NotOnManifoldError, NotTangentError,
                ParameterError, ShapeError):
        assert issubclass(cls, ValueError)


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_off_manifold_point_names_the_worst_index(space, rng):
    x = space.random_point(4, rng=rng)
    x[2] = 1.01 * x[2]
    with pytest.raises(NotOnManifoldError, match=r"x\[2\] is 0\.0\d+ off .*projection"):
        space.dist(x, x)


@pytest.mark.parametrize("space", SPACES, ids=ids)
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_input(space, bad, rng):
    x = space.random_point(3, rng=rng)
    x[(1,) + (0,) * len(space.ambient_shape)] = bad
    with pytest.raises(NonFiniteError, match=r"y\[1, 0.*must be finite"):
        space.dist(x[0], x)
    assert not space.belongs(x)[1] and space.belongs(x)[0]


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_shape_mismatches(space, rng):
    x = space.random_point(3, rng=rng)
    y = space.random_point(4, rng=rng)
    with pytest.raises(ShapeError, match="do not broadcast"):
        space.dist(x, y)
    wrong = np.zeros(tuple(s + 1 for s in space.ambient_shape))
    with pytest.raises(ShapeError, match="have shape"):
        space.dist(wrong, wrong)


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_non_tangent_vector(space, rng):
    x = space.random_point(1, rng=rng)[0]
    with pytest.raises(NotTangentError, match="to_tangent"):
        space.exp(x, x)  # a point is never tangent at itself


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_wrong_types(space):
    with pytest.raises(TypeError, match="real numbers"):
        space.dist("a", "b")
    with pytest.raises(TypeError, match="rng"):
        space.random_point(2, rng="seed")
    with pytest.raises(TypeError, match="integer"):
        space.random_point(2.5)


@pytest.mark.parametrize("make", [lambda: Sphere(0), lambda: ProjectiveSpace(0),
                                  lambda: Grassmannian(3, 3), lambda: Grassmannian(1, 1),
                                  lambda: Grassmannian(4, 0), lambda: Sphere(2, atol=-1.0)])
def test_invalid_spaces(make):
    with pytest.raises(ParameterError):
        make()


def test_argument_order_hint():
    with pytest.raises(ParameterError, match="ambient dimension first"):
        Grassmannian(2, 4)


def test_zero_vectors_cannot_be_projected_or_span_lines():
    with pytest.raises(NotOnManifoldError, match="zero vector"):
        Sphere(2).projection(np.zeros((2, 3)))
    with pytest.raises(NotOnManifoldError, match="spans no line"):
        ProjectiveSpace(2).from_vectors([[1.0, 0, 0], [0, 0, 0]])


@pytest.mark.parametrize("text", ["sphere", "sphere:x", "torus:2", "grassmannian:4", "sphere:0"])
def test_bad_space_spellings(text):
    with pytest.raises(ParameterError):
        parse_space(text)
