"""Particle dynamics: order of the integrators, staying on M, and the known behaviour of
self-attention (seed 003) — energy, collapse, equiangular orthonormal starts."""

import numpy as np
import pytest

from laws import (
    BumpKernel,
    FiniteRankWeight,
    InteractionLaw,
    IsotropicFamily,
    KernelSum,
    LawDynamics,
    SelfAttention,
    collapse_time,
    count_clusters,
    integrate,
    pairwise_inner,
    usa_energy,
)
from manifolds import Grassmannian, NotOnManifoldError, ParameterError, ProjectiveSpace, ShapeError, Sphere

from tests.spaces import random_tangent


def _tokens(d, n, systems, seed):
    return Sphere(d - 1).random_point(systems * n, rng=seed).reshape(systems, n, d)


def _reference_velocity(x, beta, heads, normalization):
    """Token-by-token SA/USA velocity straight from the formula (no batching, no tricks)."""
    out = np.zeros_like(x)
    n = x.shape[-2]
    for b in range(x.shape[0]):
        for i in range(n):
            total = np.zeros(x.shape[-1])
            for q, k, v in heads:
                logits = np.array([beta * (q @ x[b, i]) @ (k @ x[b, j]) for j in range(n)])
                w = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum() \
                    if normalization == "softmax" else np.exp(logits) / n
                total += sum(w[j] * (v @ x[b, j]) for j in range(n))
            out[b, i] = total - (total @ x[b, i]) * x[b, i]
    return out


@pytest.mark.parametrize("normalization", ["softmax", "mean"])
def test_velocity_matches_the_formula_with_general_heads(normalization, rng):
    d = 5
    x = _tokens(d, 6, 2, 1)
    heads = [tuple(rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3)) for _ in range(2)]
    for used in (heads[:1], heads):
        sa = SelfAttention(1.3, heads=used, normalization=normalization)
        assert np.allclose(sa(x), _reference_velocity(x, 1.3, used, normalization), atol=1e-13)
    eye = [(np.eye(d),) * 3]
    assert np.allclose(SelfAttention(2.0, normalization=normalization)(x),
                       _reference_velocity(x, 2.0, eye, normalization), atol=1e-13)


@pytest.mark.parametrize("method,order", [("euler", 1), ("heun", 2), ("rk4", 4)])
def test_convergence_order_against_a_fine_reference(method, order):
    x0 = _tokens(3, 8, 2, 0)
    sa = SelfAttention(1.0)
    reference = integrate(sa, x0, t_final=1.0, dt=1 / 1280).final
    errors = [np.abs(integrate(sa, x0, t_final=1.0, dt=h, method=method).final - reference).max()
              for h in (0.1, 0.05, 0.025)]
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    assert np.all(np.abs(ratios / 2**order - 1) < 0.1), ratios   # ≈ 2, 4, 16


@pytest.mark.parametrize("normalization", ["softmax", "mean"])
@pytest.mark.parametrize("d", [3, 8])
def test_points_stay_on_the_sphere(normalization, d):
    traj = integrate(SelfAttention(4.0, normalization=normalization), _tokens(d, 12, 3, 2),
                     t_final=5.0, dt=0.05, record_every=5)
    assert traj.diagnostics["max_deviation"] <= 1e-12
    assert Sphere(d - 1).belongs(traj.points, atol=1e-12).all()
    assert traj.points.shape == (21, 3, 12, d) and np.allclose(traj.times, np.arange(21) * 0.25)


@pytest.mark.parametrize("d", [3, 8])
def test_usa_energy_never_decreases(d):
    beta = 2.0
    traj = integrate(SelfAttention(beta, normalization="mean"), _tokens(d, 10, 3, 3),
                     t_final=5.0, dt=0.01, record_every=1)
    energy = usa_energy(traj.points, beta)                       # (T, B)
    steps = np.diff(energy, axis=0)
    assert (steps >= -1e-13 * energy[:-1]).all()
    assert (energy[-1] > energy[0]).all()


def test_usa_is_n_times_the_projected_gradient_of_the_energy():
    beta, x = 1.5, _tokens(4, 7, 1, 4)
    n = x.shape[1]
    grad = np.exp(beta * pairwise_inner(x)) @ x[0] / n**2                  # ∇_{x_i} E_β
    projected = grad - np.einsum("...i,...i->...", grad, x)[..., None] * x
    assert np.allclose(SelfAttention(beta, normalization="mean")(x), n * projected, atol=1e-14)


@pytest.mark.parametrize("d", [3, 8])
def test_random_starts_collapse_to_one_cluster(d):
    # β = 1, 16 tokens, 4 systems, horizon 30, clusters at threshold 0.1 rad; collapse when
    # every inner product exceeds 1 − 1e-3
    traj = integrate(SelfAttention(1.0), _tokens(d, 16, 4, 5), t_final=30.0, dt=0.05, record_every=20)
    assert (count_clusters(traj.points[0]) > 1).all()
    assert (count_clusters(traj.final) == 1).all()
    assert np.isfinite(collapse_time(traj.times, traj.points, eps=1e-3)).all()


@pytest.mark.parametrize("normalization", ["softmax", "mean"])
def test_orthonormal_starts_stay_equiangular(normalization):
    d, n = 10, 6
    traj = integrate(SelfAttention(1.0, normalization=normalization), np.eye(d)[None, :n],
                     t_final=10.0, dt=0.05, record_every=10)
    iu = np.triu_indices(n, 1)
    off = pairwise_inner(traj.points)[..., iu[0], iu[1]]
    assert (off.max(-1) - off.min(-1)).max() <= 1e-10
    assert off[-1].min() > 0.9                                  # and they do move together


def test_large_beta_softmax_is_finite_and_usa_needs_the_rescaled_clock():
    x = _tokens(3, 8, 1, 6)
    assert np.isfinite(SelfAttention(1e4)(x)).all()
    with pytest.raises(ParameterError, match="rescaled"):
        SelfAttention(1000.0, normalization="mean")
    fast = SelfAttention(1000.0, normalization="mean", clock="rescaled")
    assert np.isfinite(fast(x)).all()
    phys, resc = SelfAttention(10.0, normalization="mean"), SelfAttention(10.0, normalization="mean", clock="rescaled")
    # e^{β(g−c)} against e^{βg} e^{−βc}: the exponents differ by the rounding of βg − βc
    # (|·| ≤ 20, ~2e-15), so the error is a few ulps of the weights, not of the velocity (a
    # nearly collapsed system, or a component that cancels in the tangent projection, has a
    # small velocity and a large weight): bound it by 1e-14 · max_i Σ_j w_ij (measured ≤ 5e-16)
    xs = _tokens(3, 8, 8, 6)
    expected = np.exp(-10.0) * phys(xs)
    weight = (np.exp(10.0 * (pairwise_inner(xs) - 1.0)).sum(-1) / 8).max(-1)            # (B,)
    assert (np.abs(resc(xs) - expected).max(axis=(1, 2)) <= 1e-14 * weight).all()
    traj = integrate(resc, x, t_final=1.0, dt=0.1)
    assert traj.diagnostics["clock"] == "rescaled"


def _bump_law(space, centers_x, centers_y, radius, rng):
    kernel = BumpKernel(space, radius)
    m = len(centers_x)
    beta = FiniteRankWeight(KernelSum(kernel, centers_x, weights=np.eye(m)),
                            KernelSum(kernel, centers_y, weights=np.eye(m)))
    family = IsotropicFamily(space)
    y0 = centers_y[0]
    theta = family.theta_for(random_tangent(space, y0, rng), y0, avoid=centers_y, radius=radius, rng=rng)
    return InteractionLaw(beta, family.at(theta))


@pytest.mark.parametrize("space", [ProjectiveSpace(3), Grassmannian(4, 2)], ids=lambda s: s.name)
@pytest.mark.parametrize("normalization", ["mean", "weight"])
def test_law_dynamics_stays_on_projector_spaces(space, normalization, rng):
    # Σ_k κ(x, c_k) κ(y, c'_k) a_θ(y): particles near c_k act on particles near c'_k
    c = space.random_point(2, rng=rng)
    law = _bump_law(space, c[:1], c[1:], 0.5, rng)
    near = lambda p: space.exp(0.1 * random_tangent(space, p, rng) / np.sqrt(space.dim), p)  # noqa: E731
    far = space.random_point(30, rng=rng)
    far = far[(space.dist(far, c[0]) > 0.6) & (space.dist(far, c[1]) > 0.6)][:1]
    x0 = np.stack([near(c[0]), near(c[1]), far[0]])[None]
    traj = integrate(LawDynamics(law, normalization), x0, t_final=2.0, dt=0.05, record_every=4)
    assert traj.diagnostics["max_deviation"] <= 1e-12
    assert space.belongs(traj.points, atol=1e-12).all()
    moved = space.dist(traj.final[0], x0[0])
    assert moved[1] > 1e-3                       # the particle near c' is pushed
    assert max(moved[0], moved[2]) < 1e-12       # nothing acts on the others (β(·, x) = 0);
    # they move only by the rounding of the projection onto M


def test_weight_normalization_with_zero_total_weight_is_zero_not_nan(rng):
    space = Sphere(2)
    c = space.random_point(2, rng=rng)
    law = _bump_law(space, c[:1], c[1:], 0.3, rng)
    isolated = space.random_point(3, rng=rng)[None]
    v = LawDynamics(law, "weight")(isolated)
    assert np.isfinite(v).all()


def test_law_dynamics_matches_pairwise_sum(rng):
    space = Sphere(2)
    c = space.random_point(2, rng=rng)
    law = _bump_law(space, c, c[::-1], 0.8, rng)
    x = np.stack([space.exp(0.2 * random_tangent(space, p, rng), p) for p in (c[0], c[1], c[0])])
    pairwise = np.array([sum(law(x[j], x[i]) for j in range(3)) for i in range(3)])
    weights = np.array([sum(law.weight(x[j], x[i]) for j in range(3)) for i in range(3)])
    assert np.allclose(LawDynamics(law, "mean")(x[None])[0], pairwise / 3, atol=1e-14)
    expected = np.where(weights[:, None] != 0, pairwise / np.where(weights == 0, 1, weights)[:, None], 0)
    assert np.allclose(LawDynamics(law, "weight")(x[None])[0], expected, atol=1e-14)
    generic = InteractionLaw(lambda a, b: law.weight(a, b), law.field)
    assert np.allclose(LawDynamics(generic, "mean")(x[None])[0], pairwise / 3, atol=1e-14)


def test_diagnostics():
    x = np.array([[1.0, 0, 0], [np.cos(0.05), np.sin(0.05), 0], [0, 0, 1.0]])
    assert count_clusters(x) == 2 and count_clusters(x, threshold=2.0) == 1
    times = np.array([0.0, 1.0])
    assert collapse_time(times, np.stack([x, x])[:, None], eps=1e-3)[0] == np.inf
    together = np.repeat(x[:1], 3, axis=0)
    assert collapse_time(times, np.stack([x, together])[:, None])[0] == 1.0


def test_bad_input_raises():
    sa = SelfAttention(1.0)
    with pytest.raises(NotOnManifoldError):
        integrate(sa, np.ones((1, 2, 3)), t_final=1.0, dt=0.1)
    with pytest.raises(ShapeError, match="B systems"):
        integrate(sa, np.eye(3), t_final=1.0, dt=0.1)
    for kwargs in ({"dt": 0.0}, {"dt": np.nan}, {"method": "rk45"}, {"record_every": 0}):
        with pytest.raises(ParameterError):
            integrate(sa, np.eye(3)[None], **{"t_final": 1.0, "dt": 0.1, **kwargs})
    with pytest.raises(ShapeError):
        SelfAttention(1.0, Q=np.ones((2, 3)))
    with pytest.raises(ShapeError, match="dimension"):
        SelfAttention(1.0, Q=np.eye(4))(np.eye(3)[None])
    with pytest.raises(ParameterError):
        SelfAttention(-1.0)
    with pytest.raises(ParameterError, match="USA"):
        SelfAttention(1.0, clock="rescaled")
    with pytest.raises(ParameterError):
        SelfAttention(1.0, Q=np.eye(3), heads=[(None, None, None)])
    with pytest.raises(TypeError):
        LawDynamics(sa)


def test_any_callable_velocity_against_the_exact_rotation():
    # ẋ = A x with A antisymmetric is tangent to the sphere; the flow is x(t) = e^{tA} x0
    from scipy.linalg import expm

    gen = np.random.default_rng(7)
    a = gen.standard_normal((4, 4))
    a = a - a.T
    x0 = _tokens(4, 5, 2, 8)
    traj = integrate(lambda x: x @ a.T, x0, t_final=2.0, dt=0.005, space=Sphere(3))
    # RK4's truncation error here is 5.2e-10 on every BLAS kernel (rounding adds ~1e-15)
    assert np.abs(traj.final - x0 @ expm(2.0 * a).T).max() < 1e-9
    with pytest.raises(TypeError, match="space"):
        integrate(lambda x: x, x0, t_final=1.0, dt=0.1)


def test_token_dim_and_the_dynamics_subpackage():
    import laws
    from laws.dynamics import METHODS, LawDynamics as NewLawDynamics, integrate as new_integrate

    assert laws.MAX_EXPONENT == 700.0
    assert NewLawDynamics is LawDynamics and new_integrate is integrate
    assert sorted(METHODS) == ["euler", "heun", "rk4"]
    sa = SelfAttention(1.0, Q=np.eye(4))
    assert sa.token_dim == 4 and sa.space.dim == 3
    assert SelfAttention(1.0).token_dim is None
