"""The drawing of a digraph beside its colored hub extension (plot extra)."""

import numpy as np
import pytest

from theorem.errors import AttentionMatrixError, InvalidHubExtensionError, TheoremError
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


# -- a number per head ---------------------------------------------------------------------

GRID = np.array([[3.0, 40.0, 0.125],
                 [np.nan, 33.5, 32.0]])


def test_head_grid_annotates_each_cell_and_outlines_those_above_the_reference(tmp_path):
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Rectangle

    from theorem.drawing import draw_head_grid

    fig = draw_head_grid(GRID, label="b", reference=32, path=tmp_path / "grid.png")
    assert (tmp_path / "grid.png").stat().st_size > 0
    ax = fig.axes[0]
    # one text per cell, row by row, its value formatted :.2g; NaN shows a dash
    assert [t.get_text() for t in ax.texts] == ["3", "40", "0.12", "–", "34", "32"]
    centres = [tuple(np.round(t.get_position(), 6)) for t in ax.texts]
    assert centres == [(j, i) for i in range(2) for j in range(3)]        # (head, layer)
    # the NaN cell is masked (drawn in the "bad" grey), the others are not
    assert ax.images[0].get_array().mask.tolist() == np.isnan(GRID).tolist()
    # 40 and 33.5 are above 32 (32 itself is not): two red outlines, on those cells
    red = [p for p in ax.patches if isinstance(p, Rectangle)
           and np.allclose(p.get_edgecolor(), to_rgba("red"))]
    expected = np.argwhere(GRID > 32)            # NaN > 32 is False
    assert len(red) == len(expected) == 2
    outlined = sorted((round(p.get_y() + p.get_height() / 2), round(p.get_x() + p.get_width() / 2))
                      for p in red)
    assert outlined == sorted(map(tuple, expected.tolist()))
    assert ax.get_title() == "b: 2 of 6 heads above 32"
    assert fig.axes[1].get_ylabel() == "b"                                # the color bar
    assert [t.get_text() for t in ax.get_yticklabels()][0] == "layer 0"
    assert ax.yaxis_inverted()                                            # layer 0 on top
    assert outside_canvas(fig) == []
    matplotlib.pyplot.close(fig)


@pytest.mark.parametrize("values, reference, above", [
    (np.arange(12.0).reshape(3, 4), 5.5, 6),
    (np.full((2, 2), np.nan), 1, 0),
    ([[1, 2]], None, 0),
    (np.array([[True, False]]), 0.5, 1),
])
def test_head_grid_counts_the_red_outlines(values, reference, above):
    from theorem.drawing import draw_head_grid

    fig = draw_head_grid(values, label="value", reference=reference)
    ax = fig.axes[0]
    assert len(ax.patches) == above
    assert len(ax.texts) == np.size(values)
    if reference is not None:
        assert ax.get_title() == f"value: {above} of {np.size(values)} heads above {reference:g}"
    assert outside_canvas(fig) == []
    matplotlib.pyplot.close(fig)


def test_a_large_head_grid_stays_on_the_canvas():
    from theorem.drawing import draw_head_grid

    values = np.random.default_rng(0).gamma(3, 10, size=(12, 12))
    values[3, 4] = np.nan
    fig = draw_head_grid(values, label="biclique cover number b", reference=32)
    assert fig.axes[0].texts[3 * 12 + 4].get_text() == "–"
    assert len(fig.axes[0].patches) == int((values > 32).sum())
    assert outside_canvas(fig) == []
    matplotlib.pyplot.close(fig)


@pytest.mark.parametrize("values, reference, error", [
    (np.zeros(4), None, TheoremError),
    (np.zeros((2, 3, 4)), None, TheoremError),
    (np.zeros((0, 3)), None, TheoremError),
    (5.0, None, TheoremError),
    ([["a", "b"]], None, TypeError),
    (np.array([[1 + 2j]]), None, TypeError),
    (np.zeros((2, 2)), "32", TypeError),
])
def test_head_grid_rejects_bad_inputs(values, reference, error):
    from theorem.drawing import draw_head_grid

    with pytest.raises(error):
        draw_head_grid(values, label="b", reference=reference)


# -- one attention head --------------------------------------------------------------------

# rows = queries, columns = keys; each row sums to 1
HEAD = np.array([[0.70, 0.20, 0.10, 0.00],
                 [0.50, 0.25, 0.15, 0.10],
                 [0.10, 0.60, 0.25, 0.05],
                 [0.40, 0.05, 0.45, 0.10]])
TOKENS = ["[CLS]", "the", "cat", "sat"]


def _head_and_cover():
    from theorem.digraphs import attention_digraph
    from theorem.invariants import biclique_cover_number

    g = attention_digraph(HEAD, rule="top-mass:0.8")
    return g, biclique_cover_number(g).witness


def _marked_cells(ax):
    """The ``[row, column]`` cells of the matrix panel marked with a dot."""
    (dots,) = ax.collections
    return {(int(round(y)), int(round(x))) for x, y in dots.get_offsets()}


def test_attention_head_marks_the_digraphs_edges_transposed(tmp_path):
    from theorem.drawing import draw_attention_head

    g, ext = _head_and_cover()
    # by hand, top-mass 0.8 keeps (no cumulative sum near 0.8): query 0 keys {0, 1}
    # (0.7, 0.9); query 1 keys {0, 1, 2} (0.5, 0.75, 0.9); query 2 keys {1, 2} (0.6, 0.85);
    # query 3 keys {2, 0} (0.45, 0.85); the loops dropped
    assert g.edges.tolist() == [[0, 1], [0, 3], [1, 0], [1, 2], [2, 1], [2, 3]]
    fig = draw_attention_head(HEAD, g, ext, tokens=TOKENS, path=tmp_path / "head.png")
    assert (tmp_path / "head.png").stat().st_size > 0
    matrix, left, right, bar = fig.axes
    assert _marked_cells(matrix) == {(b, a) for a, b in g.edges.tolist()}
    kept = np.argwhere(g.adjacency.T)                          # A = Mᵀ, [query, key]
    assert _marked_cells(matrix) == set(map(tuple, kept.tolist()))
    assert np.array_equal(matrix.images[0].get_array(), HEAD)
    assert (matrix.get_xlabel(), matrix.get_ylabel()) == ("key a", "query b")
    assert [t.get_text() for t in matrix.get_xticklabels()] == TOKENS
    assert [t.get_text() for t in matrix.get_yticklabels()] == TOKENS
    assert bar.get_ylabel() == "attention weight"
    # the digraph and its hub extension, as draw_hub_extension draws them
    assert [ax.get_title() for ax in (left, right)] == [
        "digraph: 4 vertices, 6 edges",
        f"hub extension: {ext.n_hubs} hubs, uncolored"]
    assert len([c for c in right.collections if len(c.get_offsets()) == 1]) == ext.n_hubs
    assert outside_canvas(fig) == [] and literal_subscripts(fig) == []
    matplotlib.pyplot.close(fig)


def test_attention_head_takes_the_digraphs_labels_by_default():
    from theorem.digraphs import attention_digraph
    from theorem.drawing import draw_attention_head
    from theorem.invariants import biclique_cover_number

    g = attention_digraph(HEAD, rule="top-mass:0.8", labels=TOKENS)
    fig = draw_attention_head(HEAD, g, biclique_cover_number(g).witness)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == TOKENS
    matplotlib.pyplot.close(fig)
    fig = draw_attention_head(HEAD, *_head_and_cover())
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["0", "1", "2", "3"]
    matplotlib.pyplot.close(fig)


@pytest.mark.parametrize("weights, tokens, error", [
    (HEAD[:3, :3], None, AttentionMatrixError),
    (HEAD[:, :3], None, AttentionMatrixError),
    (HEAD[None], None, AttentionMatrixError),
    (HEAD, TOKENS[:3], AttentionMatrixError),
    (HEAD, TOKENS + ["on"], AttentionMatrixError),
    (HEAD, "the cat", TypeError),
    (np.full((4, 4), "x"), None, TypeError),
])
def test_attention_head_rejects_bad_shapes(weights, tokens, error):
    from theorem.drawing import draw_attention_head

    assert issubclass(AttentionMatrixError, TheoremError)
    with pytest.raises(error):
        draw_attention_head(weights, *_head_and_cover(), tokens=tokens)


def test_attention_head_validates_the_extension():
    from theorem.drawing import draw_attention_head

    g, _ = _head_and_cover()
    with pytest.raises(InvalidHubExtensionError):
        draw_attention_head(HEAD, g, HubExtension([([0], [1])]))


def test_head_dynamics_marks_the_edges_transposed_and_colors_the_pairs(tmp_path):
    from theorem.drawing import draw_head_dynamics
    from theorem.transformer import attention_heads, head_dynamics

    ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    result = head_dynamics(attention_heads(transitive_tournament(3), ext, 3), 8.0,
                           t_final=0.1, dt=0.01, rng=0)
    fig = draw_head_dynamics(result, path=tmp_path / "dynamics.png")
    assert (tmp_path / "dynamics.png").stat().st_size > 0
    dots = np.asarray(fig.axes[0].collections[0].get_offsets())        # (key a, query b)
    assert sorted(map(tuple, dots.astype(int).tolist())) == [(0, 1), (0, 2), (1, 2)]
    blue = [line for line in fig.axes[1].lines
            if matplotlib.colors.same_color(line.get_color(), "tab:blue")]
    assert len(blue) == 3 and len(fig.axes[1].lines) == 6
    assert outside_canvas(fig) == [] and literal_subscripts(fig) == []
    matplotlib.pyplot.close(fig)
    with pytest.raises(TypeError, match="HeadDynamics"):
        draw_head_dynamics("result")
