"""KernelSum against the dense all-pairs sum, on every space, for every weight shape."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws import BumpKernel, FeatureError, KernelSum
from manifolds import NonFiniteError, ShapeError, Sphere

from tests.spaces import LAW_SPACES as SPACES, space_id


@pytest.mark.parametrize("space", SPACES, ids=space_id)
@pytest.mark.parametrize("radius", [0.1, 0.6, 1.4])
def test_matches_dense_sum(space, radius, rng):
    if radius >= space.injectivity_radius:
        pytest.skip("radius beyond the injectivity radius")
    kernel = BumpKernel(space, radius)
    centers = space.random_point(300, rng=rng)
    x = space.random_point(500, rng=rng)
    dense = kernel.matrix(x, centers)
    weights = rng.standard_normal((300, 3))
    assert np.allclose(KernelSum(kernel, centers)(x), dense.sum(axis=1), rtol=0, atol=1e-12)
    assert np.allclose(KernelSum(kernel, centers, weights=weights)(x), dense @ weights, rtol=0, atol=1e-12)
    sparse = KernelSum(kernel, centers).sparse_matrix(x)
    # exact: each stored value is κ of the same pair by the same formula, and a pair the tree
    # missed would leave a 0 where κ may be as small as 1e-300
    assert np.array_equal(sparse.toarray(), dense)


def test_points_near_their_centers_see_them(rng):
    sphere = Sphere(2)
    kernel = BumpKernel(sphere, 0.05)
    centers = sphere.random_point(2000, rng=rng)
    near = sphere.exp(0.3 * 0.05 * sphere.to_tangent(sphere.random_point(2000, rng=rng), centers), centers)
    total = KernelSum(kernel, centers)(near)
    own = kernel(near, centers)
    assert (total >= own).all() and (own > 0.9).all()


def test_many_coincident_centers_grow_the_query():
    # 100 copies of one center: every point near it has 100 neighbours (more than the
    # first query asks for), so the adaptive query must widen
    sphere = Sphere(2)
    kernel = BumpKernel(sphere, 0.2)
    centers = np.repeat(np.eye(3)[:1], 100, axis=0)
    x = sphere.exp(np.array([[0.0, 0.1, 0.0], [0.0, 0.0, 0.3]]), np.eye(3)[:1])
    assert np.allclose(KernelSum(kernel, centers)(x), 100 * kernel(x, np.eye(3)[0]))


def test_batch_shapes_and_empty_centers(rng):
    sphere = Sphere(7)
    kernel = BumpKernel(sphere, 0.8)
    centers = sphere.random_point(40, rng=rng)
    x = sphere.random_point(24, rng=rng).reshape(2, 3, 4, 8)
    total = KernelSum(kernel, centers, weights=np.ones((40, 2)))(x)
    assert total.shape == (2, 3, 4, 2)
    assert np.allclose(total[..., 0], kernel.matrix(x.reshape(24, 8), centers).sum(1).reshape(2, 3, 4))
    empty = KernelSum(kernel, centers[:0])
    assert np.array_equal(empty(x), np.zeros((2, 3, 4)))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), radius=st.floats(0.01, 1.5), n_centers=st.integers(1, 60))
def test_property_equals_dense_on_s2(seed, radius, n_centers):
    gen = np.random.default_rng(seed)
    sphere = Sphere(2)
    kernel = BumpKernel(sphere, radius)
    centers = sphere.random_point(n_centers, rng=gen)
    x = np.concatenate([sphere.random_point(50, rng=gen), centers])
    assert np.allclose(KernelSum(kernel, centers)(x), kernel.matrix(x, centers).sum(1), rtol=0, atol=1e-13)


def test_bad_input_raises(rng):
    sphere = Sphere(2)
    kernel = BumpKernel(sphere, 0.3)
    centers = sphere.random_point(5, rng=rng)
    with pytest.raises(FeatureError, match="5 centers"):
        KernelSum(kernel, centers, weights=np.ones(4))
    with pytest.raises(NonFiniteError):
        KernelSum(kernel, centers, weights=[1.0, np.nan, 1, 1, 1])
    with pytest.raises(ShapeError):
        KernelSum(kernel, centers[0])
    with pytest.raises(TypeError):
        KernelSum(lambda x, y: 1.0, centers)
