"""The drawing of a digraph beside its colored hub extension (plot extra)."""

import pytest

from theorem.errors import InvalidHubExtensionError
from theorem.families import transitive_tournament
from theorem.hubs import HubExtension
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
