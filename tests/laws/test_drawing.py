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
