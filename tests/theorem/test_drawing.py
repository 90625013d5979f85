"""The drawing of a digraph beside its colored hub extension (plot extra)."""

import numpy as np
import pytest

from theorem.errors import InvalidHubExtensionError
from theorem.digraphs import AttentionDigraph, complete_bipartite, transitive_tournament
from theorem.digraphs import HubExtension
from theorem.invariants import hub_chromatic_index

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from tests.figures import literal_subscripts, outside_canvas  # noqa: E402


def _hub_markers(fig):
    """Centres of the hub squares of the right panel, in pixels."""
    right = fig.axes[1]
    hubs = [c for c in right.collections if len(c.get_offsets()) == 1]
    return np.array([right.transData.transform(c.get_offsets()[0]) for c in hubs])


def _vertex_positions(ax):
    """The vertex circles of a panel, in data coordinates: the collection with one offset
    per vertex."""
    return np.asarray(max(ax.collections, key=lambda c: len(c.get_offsets())).get_offsets())


# Two hubs with the same vertex set {0, 1, 2}: the old layout put both at the same spot.
OVERLAPPING = (transitive_tournament(3), HubExtension([([0], [1, 2]), ([0, 1], [2])],
                                                      colors=[0, 1]))


@pytest.mark.parametrize("g, ext", [
    OVERLAPPING,
    (transitive_tournament(3), hub_chromatic_index(transitive_tournament(3)).witness),
    (transitive_tournament(5), hub_chromatic_index(transitive_tournament(5)).witness),
    (transitive_tournament(6), hub_chromatic_index(transitive_tournament(6)).witness),
    (complete_bipartite(3, 4), HubExtension([([0], [3, 4, 5, 6]), ([1, 2], [3, 4, 5, 6])],
                                            colors=[0, 1])),
])
def test_hub_markers_never_share_a_spot_and_texts_stay_on_the_canvas(g, ext):
    from theorem.drawing import draw_hub_extension

    fig = draw_hub_extension(g, ext)
    centres = _hub_markers(fig)
    assert len(centres) == ext.n_hubs
    side = np.sqrt(200) * fig.dpi / 72                 # the square's side, in pixels
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=-1)
    gaps = gaps[np.triu_indices(len(centres), 1)]
    assert (gaps > side).all(), gaps                   # no two squares overlap
    labels = [t.get_position() for t in fig.axes[1].texts if t.get_text().startswith("h")]
    assert len(set(map(tuple, np.round(labels, 6)))) == ext.n_hubs
    assert outside_canvas(fig) == []
    matplotlib.pyplot.close(fig)


@pytest.mark.parametrize("g, ext, titles", [
    (complete_bipartite(3, 4), HubExtension([([0, 1, 2], [3, 4, 5, 6])], colors=[0]),
     ["digraph: 7 vertices, 12 edges", "hub extension: 1 hub, 1 color"]),
    (complete_bipartite(1, 1), HubExtension([([0], [1])]),
     ["digraph: 2 vertices, 1 edge", "hub extension: 1 hub, uncolored"]),
    OVERLAPPING + (["digraph: 3 vertices, 3 edges", "hub extension: 2 hubs, 2 colors"],),
])
def test_titles_count_in_the_right_number(g, ext, titles):
    from theorem.drawing import draw_hub_extension

    fig = draw_hub_extension(g, ext)
    assert [ax.get_title() for ax in fig.axes] == titles
    assert outside_canvas(fig) == []
    matplotlib.pyplot.close(fig)


def test_bipartite_digraphs_are_drawn_in_two_columns():
    from theorem.drawing import draw_hub_extension

    # 0, 1 -> 2, 3; vertex 4 has no edge
    g = AttentionDigraph(5, [(0, 2), (1, 2), (1, 3)])
    fig = draw_hub_extension(g, HubExtension([([0, 1], [2]), ([1], [3])], colors=[0, 1]))
    for ax in fig.axes:
        pos = _vertex_positions(ax)
        assert np.ptp(pos[[0, 1], 0]) == 0 and np.ptp(pos[[2, 3], 0]) == 0    # two columns
        assert pos[0, 0] < pos[2, 0]                                         # sources left
        assert pos[4, 1] < pos[:4, 1].min()                                  # isolated: below
    hubs = fig.axes[1].transData.inverted().transform(_hub_markers(fig))
    pos = _vertex_positions(fig.axes[1])
    assert (pos[0, 0] < hubs[:, 0]).all() and (hubs[:, 0] < pos[2, 0]).all()  # hubs between
    matplotlib.pyplot.close(fig)
    k34 = complete_bipartite(3, 4)
    pos = _vertex_positions(draw_hub_extension(k34, hub_chromatic_index(k34).witness).axes[0])
    assert set(pos[:3, 0]) == {pos[0, 0]} and set(pos[3:, 0]) == {pos[3, 0]}
    assert pos[0, 0] < pos[3, 0]
    # a vertex that is both a source and a target: the circle
    pos = _vertex_positions(draw_hub_extension(*OVERLAPPING).axes[0])
    assert np.allclose(np.linalg.norm(pos, axis=1), 1.0)
    matplotlib.pyplot.close("all")


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
    assert [ax.get_title() for ax in panels] == [
        r"$\beta_{0}(x, \alpha(3))$: 1 at sources [0, 1, 2]",
        r"$\beta_{0}(x, \alpha(5))$: 1 at sources [0, 1, 2]"]
    values = panels[0].collections[0].get_array()
    assert np.isclose(values.max(), 1.0, atol=0.05) and values.min() == 0.0
    assert outside_canvas(fig) == [] and literal_subscripts(fig) == []
    # the color bar says what it measures; a legend explains the three kinds of dots
    assert "beta_j" in fig.axes[-1].get_ylabel()
    (legend,) = fig.legends
    assert len(legend.get_texts()) == 3
    # three targets: two columns, the legend in the spare cell; a slide's proportions
    fig = draw_density_cover(cover, targets=[3, 4, 5])
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert len({ax.get_position().x0 for ax in panels}) == 2
    assert sum(ax.get_legend() is not None for ax in fig.axes) == 1
    width, height = fig.get_size_inches()
    assert width / height < 2.2
    assert outside_canvas(fig) == [] and literal_subscripts(fig) == []
    matplotlib.pyplot.close("all")
    out = io.StringIO()
    assert main(["figures", "--out", str(tmp_path)], out=out, err=io.StringIO()) == 0
    for name in ("tournament3_hubs.png", "bipartite3x4_hubs.png", "density_cover_s2.png"):
        assert (tmp_path / name).stat().st_size > 0


def test_figures_command_without_matplotlib_creates_nothing(tmp_path, monkeypatch):
    import io
    import sys

    from theorem.cli import main

    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)     # import fails
    err = io.StringIO()
    folder = tmp_path / "pngs"
    assert main(["figures", "--out", str(folder)], out=io.StringIO(), err=err) == 2
    assert not folder.exists()
    message = err.getvalue()
    assert "pip install 'transformer-dynamics[plot]'" in message
    assert "pip install -e '.[plot]'" in message
