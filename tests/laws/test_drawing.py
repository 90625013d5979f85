"""The picture of κ and a_θ on S^2 (plot extra)."""

import pathlib
import re

import numpy as np
import pytest

from laws import BumpKernel, IsotropicFamily, LawError
from manifolds import ProjectiveSpace, Sphere

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from tests.figures import literal_subscripts, outside_canvas  # noqa: E402


def _sphere_box(ax):
    """The unit sphere of a drawn 3-D panel, as a box in pixels."""
    from matplotlib.transforms import Bbox
    from mpl_toolkits.mplot3d import proj3d

    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 73), np.linspace(0, np.pi, 37))
    x, y, _ = proj3d.proj_transform((np.cos(u) * np.sin(v)).ravel(),
                                    (np.sin(u) * np.sin(v)).ravel(), np.cos(v).ravel(), ax.M)
    pixels = ax.transData.transform(np.column_stack([x, y]))
    return Bbox.from_extents(*pixels.min(axis=0), *pixels.max(axis=0))


@pytest.mark.parametrize("name", ["clustering.png", "c.PDF", "c.svg", pathlib.Path("c.jpg")])
def test_figure_paths_matplotlib_writes_pass(name, tmp_path):
    from laws.drawing import check_figure_path

    assert check_figure_path(name) == pathlib.Path(name)
    assert check_figure_path(tmp_path / name) == tmp_path / name
    assert not (tmp_path / name).exists()                      # nothing is written


@pytest.mark.parametrize("name, complaint", [
    ("out.txt", "does not write '.txt' files"),
    ("out", "files without an extension"),
    ("missing/out.png", "does not exist"),
    (".", "files without an extension"),
])
def test_figure_paths_matplotlib_cannot_write_fail_first(name, complaint, tmp_path, monkeypatch):
    from laws.drawing import check_figure_path

    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.png").mkdir()
    with pytest.raises(LawError, match=re.escape(complaint)) as info:
        check_figure_path(name)
    assert isinstance(info.value, ValueError)
    if "extension" in str(info.value):
        for supported in (".png", ".pdf", ".svg", ".eps"):          # the list, in the message
            assert supported in str(info.value)
    with pytest.raises(LawError, match="is a folder"):
        check_figure_path("a.png")
    with pytest.raises(TypeError, match="path-like"):
        check_figure_path(3)


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
    # κ has a labelled color bar; the legend stays clear of both spheres; texts on the canvas
    assert any("kappa" in ax.get_ylabel() for ax in fig.axes)
    (legend,) = fig.legends
    fig.canvas.draw()
    box = legend.get_window_extent()
    for ax in fig.axes[:2]:
        sphere = _sphere_box(ax)
        assert sphere.height > 0.6 * fig.bbox.height
        assert not box.overlaps(sphere)
    assert outside_canvas(fig) == [] and literal_subscripts(fig) == []
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
    assert heat.get_ylabel().startswith("$")                    # mathtext, not a literal x_i
    assert literal_subscripts(fig) == [] and outside_canvas(fig) == []
    assert _sphere_box(three_d).height > 0.6 * fig.bbox.height  # the sphere fills its panel
    x7 = Sphere(7).random_point(4, rng=1).reshape(1, 4, 8)
    assert len(draw_clustering(integrate(SelfAttention(1.0), x7, t_final=1.0, dt=0.1)).axes) == 2
