"""The picture of κ and a_θ on S^2 (plot extra)."""

import numpy as np
import pytest

from laws import BumpKernel, IsotropicFamily
from manifolds import ProjectiveSpace, Sphere

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


def test_drawing_shows_support_and_front_zero_set(tmp_path):
    from laws.drawing import draw_kernel_and_field

    s2 = Sphere(2)
    c = np.array([0.0, 0.0, 1.0])
    theta = np.array([0.6, 0.8, 0.0])        # zero set ±θ̂ on the equator, one facing the viewer
    fig = draw_kernel_and_field(BumpKernel(s2, 0.5), c, theta, path=tmp_path / "law.png")
    right = fig.axes[1]
    markers = [col for col in right.collections if col.get_label().startswith("zero set")]
    assert len(markers) == 1 and len(markers[0]._offsets3d[0]) == 1
    assert len(right.get_lines()) == 1                         # the support circle
    assert (tmp_path / "law.png").stat().st_size > 0
    with pytest.raises(TypeError, match="Sphere"):
        draw_kernel_and_field(BumpKernel(ProjectiveSpace(2), 0.5), np.eye(3), np.eye(3))
    assert IsotropicFamily(s2).zero_set_distance(theta, c) == pytest.approx(np.pi / 2)


def test_clustering_figure_has_the_histogram_and_one_line_per_token(tmp_path):
    from laws import SelfAttention, integrate
    from laws.drawing import draw_clustering

    x0 = Sphere(2).random_point(10, rng=0).reshape(2, 5, 3)
    traj = integrate(SelfAttention(1.0), x0, t_final=2.0, dt=0.1)
    fig = draw_clustering(traj, path=tmp_path / "c.png")
    heat, _, three_d = fig.axes
    mesh = heat.collections[0]
    assert mesh.get_array().shape == (60, len(traj.times))      # 60 bins of ⟨x_i, x_j⟩ × times
    assert len(three_d.get_lines()) == 5
    x7 = Sphere(7).random_point(4, rng=1).reshape(1, 4, 8)
    assert len(draw_clustering(integrate(SelfAttention(1.0), x7, t_final=1.0, dt=0.1)).axes) == 2
