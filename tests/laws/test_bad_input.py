"""Bad input to laws raises a specific exception whose message says what was wrong, where and
how to fix it — never an internal numpy/BLAS error, never a silent NaN or broadcast."""

import numpy as np
import pytest

from laws import (
    BumpKernel,
    Check,
    FiniteRankWeight,
    InteractionLaw,
    IsotropicFamily,
    KernelSum,
    LawDynamics,
    LawError,
    SelfAttention,
    Trajectory,
    check_isotropy,
    check_kernel,
    collapse_time,
    count_clusters,
    integrate,
    normal_chart,
    pairwise_inner,
    strength_report,
    usa_energy,
)
from manifolds import (
    NonFiniteError,
    NotOnManifoldError,
    ParameterError,
    ShapeError,
    Sphere,
)


def _tokens(d, n, systems, seed=0):
    return Sphere(d - 1).random_point(systems * n, rng=seed).reshape(systems, n, d)


# -- 1. empty input: refused everywhere in laws.dynamics ------------------------------------
@pytest.mark.parametrize("shape,what", [((0, 3, 3), "no system"), ((1, 0, 3), "no particle")])
def test_integrate_refuses_empty_input(shape, what):
    with pytest.raises(ShapeError, match=f"{what}.*at least one system of at least one particle"):
        integrate(SelfAttention(1.0), np.empty(shape), t_final=1.0, dt=0.1)


@pytest.mark.parametrize("call", [
    lambda x: count_clusters(x),
    lambda x: pairwise_inner(x),
    lambda x: usa_energy(x, 1.0),
    lambda x: SelfAttention(1.0)(x),
    lambda x: collapse_time([0.0], x[None]),
])
@pytest.mark.parametrize("shape", [(1, 0, 3), (0, 2, 3)])
def test_the_diagnostics_and_velocities_refuse_empty_input(call, shape):
    with pytest.raises(ShapeError, match="at least one system of at least one particle"):
        call(np.empty(shape))


# -- 2. a velocity of the wrong shape, None, NaN or infinity ---------------------------------
def test_integrate_refuses_a_velocity_of_the_wrong_shape():
    with pytest.raises(ShapeError, match=r"t = 0 \(step 1 of 10.*shape \(2, 3, 2\); expected \(2, 3, 3\)"):
        integrate(lambda p: p[..., :2], _tokens(3, 3, 2), t_final=1, dt=0.1, space=Sphere(2))
    with pytest.raises(ShapeError, match="expected"):   # broadcastable, still refused
        integrate(lambda p: np.zeros(p.shape[1:]), _tokens(3, 3, 2), t_final=1, dt=0.1, space=Sphere(2))


@pytest.mark.parametrize("returned", [None, "fast", [[["a"]]]])
def test_integrate_refuses_a_velocity_that_returns_no_real_array(returned):
    with pytest.raises(TypeError, match=r"velocity\(x\) at t = 0 \(step 1"):
        integrate(lambda p: returned, _tokens(3, 3, 2), t_final=1, dt=0.1, space=Sphere(2))


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_integrate_refuses_a_non_finite_velocity_and_says_when(bad):
    def velocity(p, calls=[0]):
        calls[0] += 1
        v = np.zeros_like(p)
        if calls[0] > 9:            # RK4: the second stage of step 3
            v[1, 2, 0] = bad
        return v

    with pytest.raises(NonFiniteError, match=r"t = 0\.25 \(step 3 of 10, stage 2 of 4\) is .* at index \[1, 2, 0\]"):
        integrate(velocity, _tokens(3, 3, 2), t_final=1, dt=0.1, space=Sphere(2))


def test_integrate_refuses_a_law_that_returns_nan_and_says_when():
    space = Sphere(2)
    nan_weight = FiniteRankWeight(lambda x: np.full(np.shape(x)[:-1] + (1,), np.nan),
                                  lambda y: np.ones(np.shape(y)[:-1] + (1,)), n_features=1)
    family = IsotropicFamily(space)
    law = InteractionLaw(nan_weight, family.at([0.0, 0.0, 1.0]))
    x0 = np.array([[[1.0, 0, 0], [0, 1.0, 0]]])
    with pytest.raises(NonFiniteError, match=r"t = 0 \(step 1 of 10, stage 1 of 4\) is nan.*law.s weight"):
        integrate(LawDynamics(law), x0, t_final=1.0, dt=0.1)


def test_integrate_copies_a_velocity_that_returns_a_view_of_its_input():
    # ẋ_i = x_{N−1−i} as a view of the stage array: the next stage must not overwrite it
    x0 = _tokens(3, 4, 2)
    view = integrate(lambda p: p[:, ::-1], x0, t_final=1.0, dt=0.1, space=Sphere(2))
    copy = integrate(lambda p: p[:, ::-1].copy(), x0, t_final=1.0, dt=0.1, space=Sphere(2))
    assert np.array_equal(view.points, copy.points)


def test_integrate_checks_velocity_progress_and_space_types():
    x0 = _tokens(3, 3, 1)
    with pytest.raises(TypeError, match="velocity must be callable"):
        integrate(None, x0, t_final=1, dt=0.1, space=Sphere(2))
    with pytest.raises(TypeError, match="progress must be callable"):
        integrate(SelfAttention(1.0), x0, t_final=1, dt=0.1, progress=5)
    with pytest.raises(TypeError, match="space must be a manifolds.Space"):
        integrate(lambda p: p, x0, t_final=1, dt=0.1, space="sphere:2")
    with pytest.raises(ShapeError, match="d ≥ 2"):
        integrate(SelfAttention(1.0), 5.0, t_final=1, dt=0.1)


# -- 3. dt longer than the horizon ---------------------------------------------------------
def test_integrate_refuses_dt_longer_than_t_final():
    x0 = _tokens(3, 3, 1)
    with pytest.raises(ParameterError, match="dt = 100 is longer than the horizon t_final = 1; give dt ≤ t_final"):
        integrate(SelfAttention(1.0), x0, t_final=1.0, dt=100.0)
    with pytest.raises(ParameterError, match="longer than the horizon"):
        integrate(SelfAttention(1.0), x0, t_final=1.0, dt=1e13)      # was a ZeroDivisionError
    # dt = t_final (up to rounding) is one step; a dt that does not divide t_final is shortened
    assert integrate(SelfAttention(1.0), x0, t_final=0.3, dt=0.1 + 0.2).diagnostics["steps"] == 1
    assert integrate(SelfAttention(1.0), x0, t_final=1.0, dt=0.3).diagnostics["dt"] == 0.25


# -- 5. diagnostics: shapes, thresholds, tolerances, points, overflow -----------------------
def test_count_clusters_refuses_bad_shapes_and_thresholds():
    x = _tokens(3, 4, 2)
    with pytest.raises(ShapeError, match=r"points has shape \(3,\); give systems of N unit vectors"):
        count_clusters(np.array([1.0, 0.0, 0.0]))
    with pytest.raises(ShapeError, match=r"one point; give systems .*points\[None\]"):
        count_clusters(np.diag([1.0, 0.0, 0.0]), space=__import__("manifolds").ProjectiveSpace(2))
    for threshold in (np.nan, -0.1, 0.0, np.inf):
        with pytest.raises(ParameterError, match="threshold must be finite and positive"):
            count_clusters(x, threshold=threshold)
    with pytest.raises(TypeError, match="space must be a manifolds.Space"):
        count_clusters(x, space="sphere:2")
    with pytest.raises(NotOnManifoldError, match="points"):
        count_clusters(2 * x)


def test_collapse_time_refuses_mismatched_times_and_bad_eps():
    points = np.stack([_tokens(3, 3, 2, 0), _tokens(3, 3, 2, 1)])         # (T=2, B=2, N=3, d=3)
    with pytest.raises(ShapeError, match=r"times has shape \(3,\), but points records 2 states"):
        collapse_time([0.0, 1.0, 2.0], points)
    with pytest.raises(ShapeError, match=r"times has shape \(1,\), but points records 2"):
        collapse_time([0.0], points)
    with pytest.raises(ShapeError, match="a time axis first"):
        collapse_time([0.0, 1.0], points[0, 0])
    with pytest.raises(ParameterError, match="increasing order"):
        collapse_time([1.0, 0.0], points)
    with pytest.raises(NonFiniteError, match="times"):
        collapse_time([0.0, np.nan], points)
    for eps in (-1.0, 0.0, np.nan):
        with pytest.raises(ParameterError, match="eps must be finite and positive"):
            collapse_time([0.0, 1.0], points, eps=eps)


def test_pairwise_inner_and_usa_energy_refuse_nan_and_off_sphere_points():
    x = _tokens(3, 4, 2)
    bad = x.copy()
    bad[1, 2, 0] = np.nan
    with pytest.raises(NonFiniteError, match=r"points\[1, 2, 0\] is nan"):
        pairwise_inner(bad)
    with pytest.raises(NonFiniteError):
        usa_energy(bad, 1.0)
    with pytest.raises(NotOnManifoldError, match=r"points\[0, 1\] is 1 off Sphere\(2\)"):
        usa_energy(x * [[[1.0], [2.0], [1.0], [1.0]]], 1.0)
    with pytest.raises(TypeError, match="scaled must be a bool"):
        usa_energy(x, 1.0, scaled="yes")


def test_usa_energy_at_large_beta_is_computed_stably_or_refused():
    x = _tokens(3, 4, 2)
    with pytest.raises(ParameterError, match="E_β overflows float64 at β = 1000.*scaled=True"):
        usa_energy(x, 1000.0)
    scaled = usa_energy(x, 1000.0, scaled=True)
    assert np.isfinite(scaled).all() and (scaled > 0).all()
    # collapsed tokens at β = 700: e^{βg} summed over N² = 40000 pairs overflowed before
    together = np.repeat(np.eye(3)[:1], 200, axis=0)[None]
    assert np.isclose(usa_energy(together, 700.0), np.exp(700.0) / 1400.0, rtol=1e-12)
    # β = 705 > MAX_EXPONENT: E_β = e^β / 2β is still a float64, and computed
    assert np.isclose(usa_energy(np.eye(3)[None, :1], 705.0), np.exp(705.0) / 1410.0, rtol=1e-12)


# -- 7. diagnostics over a recorded trajectory: a block of systems at a time -----------------
def test_diagnostics_of_a_trajectory_need_the_memory_of_one_system(monkeypatch):
    import tracemalloc

    from laws.dynamics import diagnostics

    points = _tokens(3, 300, 64, 3).reshape(8, 8, 300, 3)          # (T, B, N, d)
    times = np.arange(8.0)
    expected = (count_clusters(points), collapse_time(times, points, eps=1.5), usa_energy(points, 2.0))
    # one system per block: the (T, B, N, N) arrays (46 MB each) are never formed
    monkeypatch.setattr(diagnostics, "_PAIR_BUDGET", 1, raising=False)
    tracemalloc.start()
    try:
        got = (count_clusters(points), collapse_time(times, points, eps=1.5), usa_energy(points, 2.0))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 12e6, f"peak {peak / 1e6:.1f} MB"
    for e, g in zip(expected, got):
        assert np.array_equal(e, g)
    assert got[0].shape == (8, 8) and got[1].shape == (8,) and got[2].shape == (8, 8)


# -- 6. spaces and the other typed arguments ---------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda: BumpKernel(None, 0.3),
    lambda: BumpKernel(Sphere, 0.3),
    lambda: IsotropicFamily(None),
    lambda: IsotropicFamily("sphere:2"),
    lambda: normal_chart(None, np.eye(3)[0]),
    lambda: Trajectory(np.zeros(1), np.zeros((1, 1, 1, 3)), None),
    lambda: count_clusters(np.eye(3)[None], space=Sphere),
])
def test_a_space_argument_must_be_a_space(make):
    with pytest.raises(TypeError, match="space must be a manifolds.Space"):
        make()


def test_interaction_law_field_must_carry_a_space():
    class Field:
        space = "sphere:2"

        def __call__(self, x, y):
            return y

    with pytest.raises(TypeError, match="field.space must be a manifolds.Space"):
        InteractionLaw(lambda x, y: 1.0, Field())


@pytest.mark.parametrize("call,match", [
    (lambda: check_kernel(None), "kernel must be a BumpKernel"),
    (lambda: check_isotropy(None), "family must be an IsotropicFamily"),
    (lambda: strength_report(None, None, None), "law must be an InteractionLaw"),
    (lambda: KernelSum(None, None), "kernel must be a BumpKernel"),
    (lambda: LawDynamics(None), "law must be an InteractionLaw"),
])
def test_checks_refuse_objects_of_the_wrong_type(call, match):
    with pytest.raises(TypeError, match=match):
        call()


def test_check_counts_must_be_positive():
    with pytest.raises(ParameterError, match="n_points must be a positive integer"):
        check_kernel(BumpKernel(Sphere(2), 0.3), n_points=0)
    with pytest.raises(ParameterError, match="n_samples must be a positive integer"):
        check_isotropy(IsotropicFamily(Sphere(2)), n_samples=0)


# -- 8. Check ------------------------------------------------------------------------------------
def test_check_refuses_an_unknown_relation_with_a_law_error():
    with pytest.raises(LawError, match=r"Check 'error': relation must be one of \['<=', '<', '>', '>='\], got '=='"):
        Check("error", 1.0, 2.0, "==")
    with pytest.raises(TypeError, match="value must be a real number"):
        Check("error", "small", 2.0)
