"""Fixtures of the law tests (their spaces: :data:`tests.spaces.LAW_SPACES`)."""

import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(20261129)
