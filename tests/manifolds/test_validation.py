"""The argument checks of manifolds.validation: types, ranges, messages, error classes."""

import numpy as np
import pytest

from manifolds import ParameterError
from manifolds.validation import (
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
    as_tolerance,
)


class CustomError(ValueError):
    pass


@pytest.mark.parametrize("check", [as_count, as_positive_integer,
                                   lambda v, n: as_integer(v, n),
                                   lambda v, n: as_dimension(v, n, 1)])
@pytest.mark.parametrize("bad", [1.5, "3", True, None])
def test_integer_checks_refuse_other_types(check, bad):
    with pytest.raises(TypeError, match="n must be"):
        check(bad, "n")


def test_integer_ranges():
    assert as_count(np.int64(0), "n") == 0 and type(as_count(np.int64(0), "n")) is int
    assert as_positive_integer(3, "n") == 3
    assert as_dimension(4, "dim", 2) == 4
    with pytest.raises(ParameterError, match="n must be non-negative, got -1"):
        as_count(-1, "n")
    with pytest.raises(ParameterError, match="positive integer"):
        as_positive_integer(0, "n")
    with pytest.raises(ParameterError, match="at least 2"):
        as_dimension(1, "dim", 2)
    with pytest.raises(CustomError):
        as_positive_integer(0, "n", error=CustomError)


@pytest.mark.parametrize("value", [0.0, -1.0, np.nan, np.inf])
def test_positive_refuses(value):
    with pytest.raises(ParameterError, match="finite and positive"):
        as_positive(value, "dt")


def test_real_checks():
    assert as_real(2, "x") == 2.0
    assert as_nonnegative(0, "beta") == 0.0
    assert as_positive(np.float32(0.5), "dt") == 0.5
    with pytest.raises(TypeError, match="real number"):
        as_real("1", "x")
    with pytest.raises(TypeError):
        as_positive(True, "dt")
    with pytest.raises(ParameterError, match="finite"):
        as_real(np.nan, "x")
    assert np.isinf(as_real(np.inf, "x", finite=False))
    with pytest.raises(CustomError, match="non-negative"):
        as_nonnegative(-0.1, "radius", error=CustomError)


@pytest.mark.parametrize("p", [0.0, 0.25, 1.0])
def test_probabilities(p):
    assert as_probability(p, "p") == p


@pytest.mark.parametrize("p", [-0.1, 1.01, np.nan])
def test_bad_probabilities(p):
    with pytest.raises(ParameterError, match=r"probability in \[0, 1\]"):
        as_probability(p, "p")


def test_generators_and_tolerances_and_choices():
    gen = np.random.default_rng(1)
    assert as_generator(gen) is gen
    assert as_generator(7).random() == np.random.default_rng(7).random()
    assert isinstance(as_generator(None), np.random.Generator)
    with pytest.raises(TypeError, match="rng"):
        as_generator("seed")
    assert as_tolerance(1e-8) == 1e-8
    with pytest.raises(ParameterError):
        as_tolerance(0.0)
    with pytest.raises(TypeError):
        as_tolerance("small")
    assert as_choice("mean", "normalization", ("mean", "weight")) == "mean"
    with pytest.raises(ParameterError, match="must be one of"):
        as_choice("median", "normalization", ("mean", "weight"))
