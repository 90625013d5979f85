"""Bad input raises a specific exception whose message says what was wrong."""

import re

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
from tests.spaces import SPACES, random_tangent

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


@pytest.mark.parametrize("space", SPACES, ids=ids)
@pytest.mark.parametrize("length", [1e13, 1e155, 1e300])
def test_exp_refuses_tangent_vectors_longer_than_the_bound(space, length, rng):
    # |v| = 1e155 gave NaN on spheres (|v|² overflowed) and a meaningless projector elsewhere
    x = space.random_point(2, rng=rng)
    v = np.stack([random_tangent(space, p, rng, norm=n) for p, n in zip(x, (0.5, length))])
    with pytest.raises(ParameterError, match=re.escape(f"tangent_vec[1] has length {length:.3g} > 1e+12 "
                                                      "(MAX_TANGENT_NORM)") + ".*scale the vector down"):
        space.exp(v, x)
    assert space.belongs(space.exp(random_tangent(space, x[0], rng, norm=0.99e12), x[0]))


@pytest.mark.parametrize("space", SPACES, ids=ids)
@pytest.mark.parametrize("length", [1e155, 1e300])
def test_tangency_of_huge_vectors_is_measured_without_overflow(space, length, rng):
    # |v|² overflows: the relative normal part was 0/inf or inf/inf, so a huge normal vector
    # passed the check (or a huge tangent one would have failed it)
    x = space.random_point(1, rng=rng)[0]
    v = random_tangent(space, x, rng, norm=length)
    assert np.array_equal(space.check_tangent(v, x), v)
    with pytest.raises(NotTangentError, match="normal component 0.[1-9]"):
        space.check_tangent(v + length * x / np.sqrt(np.sum(x * x)), x)


def test_points_whose_membership_measure_overflows_are_refused():
    # a measure that overflows to NaN (inf − inf in P² − P) compared False with atol: the
    # point passed; it now counts as infinitely far off
    from manifolds._checks import check_membership

    x = np.array([[1.0, 0, 0], [1e200, 0, 0]])
    with pytest.raises(NotOnManifoldError, match=r"x\[1\] is inf off Sphere\(2\)"):
        check_membership(Sphere(2), x, np.array([0.0, np.nan]), "x")
    bad = 1e200 * np.array([[1.0, 1, 0], [1, -1, 0], [0, 0, 0]])
    with pytest.raises(NotOnManifoldError, match=r"x is inf off ProjectiveSpace\(2\)"):
        ProjectiveSpace(2).dist(bad, np.diag([1.0, 0, 0]))


def test_from_vectors_takes_very_long_and_very_short_vectors():
    lines = ProjectiveSpace(2).from_vectors([[1e200, 1e200, 0], [1e-300, 0, -1e-300], [0, 0, 5e-324]])
    assert np.allclose(lines[0], [[0.5, 0.5, 0], [0.5, 0.5, 0], [0, 0, 0]])
    assert np.allclose(lines[1], [[0.5, 0, -0.5], [0, 0, 0], [-0.5, 0, 0.5]])
    assert np.array_equal(lines[2], np.diag([0.0, 0, 1]))


def test_space_and_array_arguments():
    from manifolds.validation import as_real_array, as_space

    with pytest.raises(TypeError, match=r"space must be a manifolds.Space .*not NoneType"):
        as_space(None)
    with pytest.raises(TypeError, match="instantiate it"):
        as_space(Sphere)
    with pytest.raises(TypeError, match="f is None"):
        as_real_array(None, "f")
    with pytest.raises(TypeError, match="dtype complex"):
        as_real_array([1j], "f")
    with pytest.raises(ShapeError, match=r"f has shape \(2,\); expected \(3,\)"):
        as_real_array([1.0, 2.0], "f", shape=(3,))
    with pytest.raises(NonFiniteError, match=r"f\[1\] is inf"):
        as_real_array([1.0, np.inf], "f")


@pytest.mark.parametrize("space", SPACES, ids=ids)
def test_exp_of_long_vectors_stays_on_the_space(space, rng):
    # on Gr(k, n) with 2k > n, V U has k − (n − k) zero singular values, computed as ~|V| eps
    # with arbitrary directions: they tilted exp's output off the projectors by that much
    x = space.random_point(20, rng=rng)
    v = np.stack([random_tangent(space, p, rng, norm=1e6) for p in x])
    assert space.deviation(space.exp(v, x)).max() <= 1e-13
