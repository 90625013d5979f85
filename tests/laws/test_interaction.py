"""Finite-rank weights, interaction laws and the strength report."""

import numpy as np
import pytest

from laws import (
    BumpKernel,
    FeatureError,
    FiniteRankWeight,
    InteractionLaw,
    IsotropicFamily,
    KernelSum,
    ZeroSetError,
    strength_report,
)
from manifolds import NotOnManifoldError, ShapeError, Sphere

from tests.spaces import LAW_SPACES as SPACES, random_tangent, space_id


def _ball_samples(space, centers, radius, count, rng):
    """``count`` points in each geodesic ball ``B(c, radius)``, shape ``(len(centers)·count, *pt)``."""
    out = []
    for c in centers:
        v = np.stack([random_tangent(space, c, rng) for _ in range(count)])
        norms = np.sqrt(space.inner(v, v, np.broadcast_to(c, v.shape)))
        lengths = radius * rng.uniform(0, 1, count)
        out.append(space.exp(v * (lengths / norms).reshape((-1,) + (1,) * c.ndim), c))
    return np.concatenate(out)


def _universal_law(space, r, x0, y0, v0, rng):
    kernel = BumpKernel(space, r)
    beta = FiniteRankWeight(KernelSum(kernel, x0[None], weights=[[1.0]]),
                            KernelSum(kernel, y0[None], weights=[[1.0]]))
    family = IsotropicFamily(space)
    return InteractionLaw(beta, family.at(family.theta_for(v0, y0, radius=r, rng=rng)))


@pytest.mark.parametrize("space", SPACES, ids=space_id)
def test_universal_law_is_strong_and_points_along_v0(space, rng):
    r = 0.3
    x0, y0 = space.random_point(2, rng=rng)
    v0 = random_tangent(space, y0, rng)
    law = _universal_law(space, r, x0, y0, v0, rng)
    report = strength_report(law, x0, y0, rng=rng)
    assert report.passed, str(report)
    # u(x0, y0) = c v0 with c = 1/|v0| > 0, and the Hessian of |u| = κκ is −2/r² in every direction
    assert np.allclose(law(x0, y0), v0 / np.sqrt(space.inner(v0, v0, y0)), atol=1e-13)
    # |u| = f(|s|/r) f(|t|/r) in normal coordinates, so the finite-difference error does not
    # depend on the points: truncation ≈ 4e-8 · dim (2.7e-7 on S^7), rounding ~1e-12
    assert np.allclose(report.notes["Hessian eigenvalues"], -2 / r**2, rtol=1e-6)


@pytest.mark.parametrize("space", SPACES, ids=space_id)
def test_constant_weight_is_not_strong(space, rng):
    y0, x0 = space.random_point(2, rng=rng)
    family = IsotropicFamily(space)
    ones = lambda p: np.ones(np.shape(p)[: np.ndim(p) - len(space.ambient_shape)] + (1,))  # noqa: E731
    law = InteractionLaw(FiniteRankWeight(ones, ones, n_features=1),
                         family.at(family.theta_for(random_tangent(space, y0, rng), y0, rng=rng)))
    report = strength_report(law, x0, y0, rng=rng)
    assert not report.passed
    assert not report["not constant nearby"].passed
    assert not report["Hessian negative definite"].passed
    assert report["|a| = 1 near (x0, y0)"].passed


def test_a_minimum_is_not_strong(rng):
    # 1 − κ(x, x0) κ(y, y0) has a strict minimum at (x0, y0): the sampled check fails
    sphere = Sphere(2)
    x0, y0 = np.eye(3)[0], np.eye(3)[2]
    law = _universal_law(sphere, 0.4, x0, y0, np.eye(3)[1], rng)
    flipped = InteractionLaw(lambda x, y: 1.0 - law.weight(x, y), law.field)
    report = strength_report(flipped, x0, y0, scale=0.4, rng=rng)
    assert not report["local maximum at radius 0.004"].passed


@pytest.mark.parametrize("space", SPACES, ids=space_id)
def test_numerical_rank_equals_structural_rank(space, rng):
    r = 0.25
    kernel = BumpKernel(space, r)
    # centers far apart, features mix them with a generic (full-rank) matrix
    centers = space.random_point(200, rng=rng)
    keep = [0]
    for i in range(1, len(centers)):
        if len(keep) < 4 and (space.dist(centers[i], centers[keep]) > 2 * r).all():
            keep.append(i)
    centers = centers[keep]
    n = len(centers)
    phi = KernelSum(kernel, centers, weights=rng.standard_normal((n, n)))
    psi = KernelSum(kernel, centers, weights=rng.standard_normal((n, n)))
    beta = FiniteRankWeight(phi, psi)
    samples = _ball_samples(space, centers, 0.8 * r, 15, rng)
    assert beta.rank == n == 4
    assert beta.numerical_rank(samples, samples) == n
    # a weight of structural rank 4 whose features are dependent has lower numerical rank
    low = FiniteRankWeight(KernelSum(kernel, centers, weights=np.outer(np.ones(n), np.arange(1.0, n + 1))), psi)
    assert low.rank == 4 and low.numerical_rank(samples, samples) == 1


def test_law_is_zero_off_the_support_even_on_the_zero_set(rng):
    sphere = Sphere(2)
    x0, y0 = np.eye(3)[0], np.eye(3)[2]
    law = _universal_law(sphere, 0.3, x0, y0, np.eye(3)[1], rng)
    zeros = law.field.family.zero_set(law.field.theta)
    assert np.array_equal(law(x0, zeros), np.zeros((2, 3)))          # β = 0 there: no error
    everywhere = InteractionLaw(lambda x, y: np.ones(np.broadcast_shapes(np.shape(x)[:-1], np.shape(y)[:-1])),
                                law.field)
    with pytest.raises(ZeroSetError, match="zero set"):
        everywhere(x0, zeros)


def test_law_batches_broadcast(rng):
    sphere = Sphere(7)
    x0, y0 = sphere.random_point(2, rng=rng)
    law = _universal_law(sphere, 0.5, x0, y0, random_tangent(sphere, y0, rng), rng)
    xs = sphere.exp(0.1 * sphere.to_tangent(sphere.random_point(6, rng=rng), x0), x0).reshape(2, 3, 8)
    u = law(xs[:, :, None], y0)
    assert u.shape == (2, 3, 1, 8)
    assert np.allclose(u[..., 0, :], law.weight(xs, y0)[..., None] * law.field(xs, y0))


def test_bad_input_raises(rng):
    sphere = Sphere(2)
    kernel = BumpKernel(sphere, 0.3)
    c = sphere.random_point(3, rng=rng)
    with pytest.raises(FeatureError, match="ambiguous"):
        FiniteRankWeight(KernelSum(kernel, c, weights=np.eye(3)), KernelSum(kernel, c[:2], weights=np.eye(2)))
    with pytest.raises(FeatureError, match="unknown"):
        FiniteRankWeight(lambda x: x, lambda y: y)
    with pytest.raises(TypeError):
        FiniteRankWeight(1.0, lambda y: y, n_features=1)
    wrong = FiniteRankWeight(lambda x: x, lambda y: y, n_features=2)
    with pytest.raises(FeatureError, match="2 components"):
        wrong(c[0], c[1])
    law = _universal_law(sphere, 0.3, c[0], c[1], sphere.to_tangent(c[2], c[1]), rng)
    with pytest.raises(NotOnManifoldError):
        law(np.array([2.0, 0, 0]), c[1])
    with pytest.raises(ShapeError):
        strength_report(law, c, c[1])
    with pytest.raises(TypeError):
        InteractionLaw(law.weight, lambda x, y: y)
