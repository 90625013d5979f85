"""The drawing of a digraph beside its colored hub extension (plot extra)."""

import pytest

from theorem.errors import InvalidHubExtensionError
from theorem.digraphs import transitive_tournament
from theorem.digraphs import HubExtension
from theorem.invariants import hub_chromatic_index

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


def test_drawing_has_one_hub_marker_per_hub_and_validates_first(tmp_path):
    from theorem.drawing import draw_hub_extension

    g = transitive_tournament(5)
    ext = hub_chromatic_index(g).witness
    fig = draw_hub_extension(g, ext, path=tmp_path / "hubs.png")
    right = fig.axes[1]
    hub_markers = [c for c in right.collections if len(c.get_offsets()) == 1]
    assert len(hub_markers) == ext.n_hubs
    assert (tmp_path / "hubs.png").stat().st_size > 0
    with pytest.raises(InvalidHubExtensionError):
        draw_hub_extension(g, HubExtension([({0}, {1})]))


def test_density_cover_heat_maps_and_figures_command(tmp_path):
    import io

    import numpy as np

    from manifolds import Sphere, admissible_embedding
    from laws import BumpKernel
    from theorem.cli import main
    from theorem.covers import density_cover
    from theorem.drawing import draw_density_cover
    from theorem.digraphs import complete_bipartite

    s2 = Sphere(2)
    emb = admissible_embedding(s2, 7, rng=0)
    g = complete_bipartite(3, 4)
    cover = density_cover(g, HubExtension([({0, 1, 2}, {3, 4, 5, 6})], colors=[0]), emb,
                          BumpKernel(s2, emb.separation / 2), rng=0)
    fig = draw_density_cover(cover, targets=[3, 5])
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in panels] == ["β_0(x, α(3)): 1 at sources [0, 1, 2]",
                                                 "β_0(x, α(5)): 1 at sources [0, 1, 2]"]
    values = panels[0].collections[0].get_array()
    assert np.isclose(values.max(), 1.0, atol=0.05) and values.min() == 0.0
    out = io.StringIO()
    assert main(["figures", "--out", str(tmp_path)], out=out, err=io.StringIO()) == 0
    for name in ("tournament3_hubs.png", "bipartite3x4_hubs.png", "density_cover_s2.png"):
        assert (tmp_path / name).stat().st_size > 0
