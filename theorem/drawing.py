"""Drawings (needs the ``plot`` extra): an attention digraph beside a colored hub extension,
and the weights of a density cover over ``S^2``."""

from __future__ import annotations

import numpy as np

from laws.drawing import finish_figure, require_pyplot

from .digraphs.digraph import AttentionDigraph
from .digraphs.hubs import HubExtension
from .errors import TheoremError

__all__ = ["draw_hub_extension", "draw_density_cover"]


def draw_hub_extension(digraph: AttentionDigraph, extension: HubExtension, *, path=None):
    """Draw ``digraph`` (left) beside its hub extension (right), hubs filled with their colors.

    Vertices sit on a circle in both panels; on the right each hub sits at the mean of its
    sources' and targets' positions pulled toward the center, with arrows ``a → hub`` for
    ``a ∈ A_p`` and ``hub → b`` for ``b ∈ B_p`` in the hub's color
    (docs/conventions.md#hub-extensions-and-colorings); an uncolored extension is drawn in
    one color. The extension is validated first.

    Parameters
    ----------
    digraph : AttentionDigraph
    extension : HubExtension
        A hub extension of ``digraph``, colored or not.
    path : str or path-like, optional
        Where to save the figure (110 dpi); default: not saved.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels: the digraph (left) and the hub extension (right).

    Raises
    ------
    InvalidHubExtensionError
        ``extension`` is not a hub extension of ``digraph`` (axiom 1 fails).
    InvalidColoringError
        Its colors give two hubs that share a source or a target the same color.
    ImportError
        matplotlib is not installed (the ``plot`` extra).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from theorem.digraphs import transitive_tournament
    >>> ext = HubExtension([([0], [1, 2]), ([1], [2])], colors=[0, 1])
    >>> fig = draw_hub_extension(transitive_tournament(3), ext)
    >>> [ax.get_title() for ax in fig.axes]
    ['digraph: 3 vertices, 3 edges', 'hub extension: 2 hubs, 2 colors']
    >>> plt.close(fig)
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


def draw_density_cover(cover, targets=None, *, path=None):
    r"""Heat maps of ``x ↦ β_j(x, α(b))`` over ``S^2`` for a few targets ``b``.

    For each target ``b`` (default: up to three vertices with in-edges) the weight ``j`` of
    a hub covering an edge into ``b`` is drawn over the whole sphere in longitude and latitude;
    it is ``1`` at the images of the sources ``a`` of the color-``j`` edges ``(a, b)`` (red
    dots) and ``0`` near every other embedded vertex (black dots; ``b`` itself circled):
    the exact strength of docs/conventions.md#density-covers, seen on one slice. Each panel
    evaluates the weight on a 361 × 181 grid.

    Parameters
    ----------
    cover : DensityCover
        A density cover on ``Sphere(2)``
        (:func:`~theorem.covers.construct_density_cover`).
    targets : iterable of int, optional
        The vertices ``b`` to draw, each with an in-edge; default: the first three vertices
        with an in-edge.
    path : str or path-like, optional
        Where to save the figure (110 dpi); default: not saved.

    Returns
    -------
    matplotlib.figure.Figure
        A panel per target, and a shared color bar.

    Raises
    ------
    TypeError
        ``cover`` is not on ``Sphere(2)``.
    TheoremError
        No target to draw: no vertex of ``targets`` (or of the digraph) has an in-edge.
    ImportError
        matplotlib is not installed (the ``plot`` extra).

    Examples
    --------
    ``A × B`` with ``A = {0}``, ``B = {1, 2}``, one hub, embedded at the coordinate axes:

    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from manifolds import Sphere
    >>> from laws import BumpKernel
    >>> from theorem.covers import density_cover
    >>> from theorem.digraphs import complete_bipartite
    >>> cover = density_cover(complete_bipartite(1, 2), HubExtension([([0], [1, 2])], colors=[0]),
    ...                       np.eye(3), BumpKernel(Sphere(2), np.pi / 4), rng=0)
    >>> fig = draw_density_cover(cover, targets=[2])
    >>> [ax.get_title() for ax in fig.axes if ax.get_title()]
    ['β_0(x, α(2)): 1 at sources [0]']
    >>> plt.close(fig)
    """
    space = cover.space
    if space.model != "sphere" or space.dim != 2:
        raise TypeError(f"draw_density_cover draws on Sphere(2), not {space.name}")
    plt = require_pyplot()
    choices = []
    for j, edges in enumerate(cover.claims):
        for b in sorted(set(edges[:, 1].tolist())):
            if (targets is None or b in targets) and b not in [c[1] for c in choices]:
                choices.append((j, b))
    if targets is None:
        choices = choices[:3]
    if not choices:
        raise TheoremError("no target with an in-edge to draw; pass targets=[b, ...] with in-edges")
    lon, lat = np.meshgrid(np.linspace(-np.pi, np.pi, 361), np.linspace(-np.pi / 2, np.pi / 2, 181))
    grid = np.stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)], axis=-1)
    grid /= np.linalg.norm(grid, axis=-1, keepdims=True)
    p = cover.points
    p_lon, p_lat = np.arctan2(p[:, 1], p[:, 0]), np.arcsin(np.clip(p[:, 2], -1, 1))
    fig, axes = plt.subplots(1, len(choices), figsize=(4.6 * len(choices) + 1, 2.9), squeeze=False,
                             layout="constrained")
    for ax, (j, b) in zip(axes[0], choices):
        weight = cover.weights[j]
        values = weight.phi(grid) @ weight.psi(p[b])
        mesh = ax.pcolormesh(np.degrees(lon), np.degrees(lat), values, shading="auto",
                             cmap="magma", vmin=0, vmax=1)
        sources = [a for a, bb in cover.claims[j].tolist() if bb == b]
        others = [a for a in range(len(p)) if a not in sources]
        ax.scatter(np.degrees(p_lon[others]), np.degrees(p_lat[others]), color="white",
                   edgecolor="black", s=18, zorder=3)
        ax.scatter(np.degrees(p_lon[sources]), np.degrees(p_lat[sources]), color="red", s=22, zorder=4)
        ax.scatter(np.degrees(p_lon[b]), np.degrees(p_lat[b]), facecolor="none", edgecolor="cyan",
                   s=90, linewidth=1.5, zorder=5)
        ax.set(xlabel="longitude (°)", ylabel="latitude (°)", aspect="equal",
               title=f"β_{j}(x, α({b})): 1 at sources {sources}")
        ax.title.set_fontsize(9)
    fig.colorbar(mesh, ax=axes[0].tolist(), shrink=0.8)
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig
