"""Bump kernels: the three properties, the Hessian, closed forms, and checks that can fail."""

import mpmath
import numpy as np
import pytest

from laws import PROFILES, BumpKernel, Profile, RadiusError, check_kernel
from laws.errors import LawError
from manifolds import Grassmannian, NotOnManifoldError, ProjectiveSpace, ShapeError, Sphere

from tests.spaces import LAW_SPACES as SPACES, space_id


@pytest.mark.parametrize("space", SPACES, ids=space_id)
@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("radius", [0.05, 0.7])
def test_check_kernel_passes_every_profile(space, profile, radius):
    report = check_kernel(BumpKernel(space, radius, profile), rng=3)
    assert report.passed, str(report)
    assert report.notes["in_theorem"] == (profile == "smooth")


@pytest.mark.parametrize("space", SPACES, ids=space_id)
def test_smooth_hessian_is_minus_two_over_r_squared(space):
    report = check_kernel(BumpKernel(space, 0.3), rng=5)
    assert report["Hessian = f''(0)/r² g"].value <= 1e-6
    assert report.notes["expected Hessian"] == f"{-2 / 0.3**2:.6g} g"


def _reference_smooth(t):
    with mpmath.workdps(40):
        t = mpmath.mpf(t)
        return float(mpmath.exp(1 - 1 / (1 - t * t))) if t < 1 else 0.0


def test_smooth_profile_against_mpmath():
    t = np.concatenate([np.linspace(0, 0.999, 400), [1e-9, 1e-4, 0.9999, 1.0, 1.5]])
    ours = PROFILES["smooth"](t)
    ref = np.array([_reference_smooth(mpmath.mpf(float(s))) for s in t])
    rel = np.abs(ours - ref) / np.maximum(ref, 1e-300)
    # exp(a) of a float argument a = −t²/(1−t²) is off by |a|·eps at best (conditioning of exp)
    exponent = np.abs(np.where(t < 1, t * t / np.maximum(1 - t * t, 1e-300), 0.0))
    bound = 8 * np.finfo(float).eps * (1 + exponent)
    assert (rel[ref > 0] <= bound[ref > 0]).all()
    assert (ours[ref == 0] == 0).all()


@pytest.mark.parametrize("name,expected", [("wendland-c2", -20.0), ("wendland-c4", -56 / 3)])
def test_wendland_second_derivative_matches_polynomial(name, expected):
    h = 1e-4
    f = PROFILES[name]
    second = (f(np.array([h])) - 2 * f(np.array([0.0])) + f(np.array([h]))) / h**2  # even extension
    assert second[0] == pytest.approx(expected, rel=1e-2)
    assert PROFILES[name].second_derivative == expected
    assert not PROFILES[name].in_theorem


def test_kernel_on_sphere_at_known_angles(rng):
    sphere = Sphere(2)
    kernel = BumpKernel(sphere, 0.5)
    x = sphere.random_point(1, rng=rng)[0]
    angles = np.array([0.0, 1e-9, 0.1, 0.25, 0.49, 0.5, 0.8, 3.0])
    basis = sphere.tangent_basis(x)[0]
    y = np.cos(angles)[:, None] * x + np.sin(angles)[:, None] * basis
    ref = np.array([_reference_smooth(a / 0.5) for a in angles])
    assert np.allclose(kernel(x, y), ref, rtol=1e-12, atol=0)


@pytest.mark.parametrize("space", SPACES, ids=space_id)
def test_matrix_matches_elementwise(space, rng):
    kernel = BumpKernel(space, 0.9)
    x, y = space.random_point(5, rng=rng), space.random_point(7, rng=rng)
    m = kernel.matrix(x, y)
    assert m.shape == (5, 7)
    # exact: both evaluate the same elementwise formula on the same pairs; d(x, x) is exactly
    # 0 (computed from x − x) and f(0) = exp(−0) = 1
    assert np.array_equal(m, kernel(x[:, None], y[None, :]))
    assert np.array_equal(kernel.matrix(x, x).diagonal(), np.ones(5))


def test_projective_kernel_sees_lines_not_vectors():
    rp = ProjectiveSpace(2)
    kernel = BumpKernel(rp, 0.4)
    v = np.array([1.0, 0.2, -0.3])
    # exact: (−v)(−v)ᵀ = v vᵀ bit for bit, so the distance is exactly 0
    assert kernel(rp.from_vectors(v), rp.from_vectors(-v)) == 1.0


# -- the checks can fail ------------------------------------------------------------------
def _bad(name, function, second=-2.0):
    return Profile(name, function, second, np.inf)


def test_non_monotone_profile_fails_decreasing():
    bumpy = _bad("bumpy", lambda t: np.where(t < 1, (1 - t**2) * (1 + 0.5 * np.sin(20 * t) ** 2) / 1.5 + 1 / 3 * (t == 0), 0.0))
    report = check_kernel(BumpKernel(Sphere(2), 0.5, bumpy), rng=0)
    assert not report["strictly decreasing"].passed


def test_profile_without_compact_support_fails_support():
    gauss = _bad("gaussian", lambda t: np.exp(-t * t))
    report = check_kernel(BumpKernel(Sphere(2), 0.5, gauss), rng=0)
    assert not report["zero outside the ball"].passed
    assert report["strictly decreasing"].passed


def test_wrong_second_derivative_fails_hessian():
    wrong = Profile("mislabelled", PROFILES["smooth"].function, -2.1, np.inf)
    report = check_kernel(BumpKernel(Grassmannian(4, 2), 0.5, wrong), rng=0)
    assert not report["Hessian = f''(0)/r² g"].passed
    assert report["Hessian = f''(0)/r² g"].value == pytest.approx(0.1 / 2.1, rel=1e-4)


def test_profile_above_one_fails_diagonal():
    high = _bad("high", lambda t: np.where(t < 1, 1.0 + 0.0 * t, 0.0))
    report = check_kernel(BumpKernel(Sphere(2), 0.5, high), rng=0)
    assert not report["κ < 1 off the diagonal"].passed


# -- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize("space", SPACES, ids=space_id)
def test_radius_at_or_above_injectivity_radius_raises(space):
    with pytest.raises(RadiusError, match="injectivity radius"):
        BumpKernel(space, space.injectivity_radius)
    for bad in (0.0, -0.1, np.nan, np.inf):
        with pytest.raises(RadiusError):
            BumpKernel(space, bad)
    with pytest.raises(TypeError):
        BumpKernel(space, "0.1")


def test_unknown_profile_and_bad_points_raise():
    sphere = Sphere(2)
    with pytest.raises(LawError, match="choose one of"):
        BumpKernel(sphere, 0.5, "gauss")
    kernel = BumpKernel(sphere, 0.5)
    with pytest.raises(NotOnManifoldError):
        kernel(np.array([1.0, 0, 0]), np.array([1.0, 1.0, 0]))
    with pytest.raises(ShapeError):
        kernel.matrix(np.eye(3)[0], np.eye(3))
