"""Drawings of an attention digraph beside a colored hub extension (needs the ``plot`` extra)."""

from __future__ import annotations

import numpy as np

from laws.drawing import finish_figure, require_pyplot

from .digraph import AttentionDigraph
from .hubs import HubExtension

__all__ = ["draw_hub_extension"]


def draw_hub_extension(digraph: AttentionDigraph, extension: HubExtension, *, path=None):
    """Draw ``digraph`` (left) beside its hub extension (right), hubs filled with their colors.

    Vertices sit on a circle in both panels; on the right each hub sits at the mean of its
    sources' and targets' positions pulled toward the center, with arrows ``a → hub`` for
    ``a ∈ A_p`` and ``hub → b`` for ``b ∈ B_p`` in the hub's color. The extension is validated
    first. Returns the matplotlib figure (also saved to ``path`` if given).
    """
    extension.validate(digraph)
    plt = require_pyplot()
    n = digraph.n
    angle = 2 * np.pi * np.arange(n) / max(n, 1) + np.pi / 2
    pos = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    palette = plt.get_cmap("tab10")
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 5))
    arrow = dict(arrowstyle="-|>", shrinkA=9, shrinkB=9, lw=1.0)
    for a, b in digraph.edges.tolist():
        left.annotate("", pos[b], pos[a], arrowprops=dict(arrow, color="0.3"))
    colors = extension.colors or [0] * extension.n_hubs
    for p, ((sources, targets), c) in enumerate(zip(extension.hubs, colors)):
        hub = 0.45 * pos[sources + targets].mean(axis=0)
        color = palette(c % 10)
        for a in sources:
            right.annotate("", hub, pos[a], arrowprops=dict(arrow, color=color))
        for b in targets:
            right.annotate("", pos[b], hub, arrowprops=dict(arrow, color=color))
        right.scatter(*hub, s=160, marker="s", color=color, zorder=3)
        right.annotate(f"h{p}", hub, ha="center", va="center", fontsize=7, color="white",
                       zorder=4)
    for ax, title in ((left, f"digraph: {n} vertices, {digraph.n_edges} edges"),
                      (right, f"hub extension: {extension.n_hubs} hubs, "
                              f"{extension.n_colors} colors")):
        ax.scatter(pos[:, 0], pos[:, 1], s=220, color="white", edgecolor="black", zorder=3)
        for v, (x, y) in enumerate(pos):
            ax.annotate(str(v), (x, y), ha="center", va="center", fontsize=8, zorder=4)
        ax.set_title(title)
        ax.set_aspect("equal")
        ax.axis("off")
    return finish_figure(fig, path)
