"""Drawings (needs the ``plot`` extra): an attention digraph beside a colored hub extension,
the weights of a density cover over ``S^2``, one attention head of a model with its digraph
and hub extension, a number per head of a model (layer × head), the dynamics of heads
built from a hub extension, and a sweep's invariants against ``N``."""

from __future__ import annotations

import numbers
import pathlib
from collections.abc import Iterable

import numpy as np

from laws.drawing import finish_figure, require_pyplot

from .digraphs.digraph import AttentionDigraph
from .digraphs.hubs import HubExtension
from .errors import AttentionMatrixError, TheoremError

__all__ = ["draw_hub_extension", "draw_density_cover", "draw_head_grid", "draw_attention_study",
           "draw_attention_head", "draw_head_dynamics", "draw_sweep"]


def _count(number: int, noun: str, plural: str | None = None) -> str:
    """``"1 hub"``, ``"2 hubs"``: ``number`` and ``noun``, plural (default ``noun + "s"``)
    unless ``number`` is 1."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def _vertex_layout(digraph: AttentionDigraph) -> tuple[np.ndarray, bool]:
    """Vertex positions ``(N, 2)``, and whether the digraph is drawn in two columns.

    A digraph with edges where no vertex is both a source (an out-edge) and a target (an
    in-edge) is drawn in two columns: sources left (``x = -1``, in vertex order), targets right
    (``x = 1``, ordered by the mean row of their sources, to limit crossings), vertices with
    no edge in a row below. Any other digraph: its vertices on the unit circle, vertex ``0``
    on top, counterclockwise.
    """
    n, edges = digraph.n, digraph.edges
    out_edge, in_edge = np.zeros(n, bool), np.zeros(n, bool)
    out_edge[edges[:, 0]] = True
    in_edge[edges[:, 1]] = True
    if len(edges) == 0 or (out_edge & in_edge).any():
        angle = 2 * np.pi * np.arange(n) / max(n, 1) + np.pi / 2
        return np.stack([np.cos(angle), np.sin(angle)], axis=1), False
    sources, isolated = np.flatnonzero(out_edge), np.flatnonzero(~out_edge & ~in_edge)
    row = np.full(n, np.nan)
    row[sources] = np.arange(len(sources))
    targets = sorted(np.flatnonzero(in_edge).tolist(),
                     key=lambda b: (row[edges[edges[:, 1] == b, 0]].mean(), b))
    step = 2.0 / max(len(sources) - 1, len(targets) - 1, 1)
    pos = np.zeros((n, 2))
    for x, column in ((-1.0, sources), (1.0, targets)):
        pos[column, 0] = x
        pos[column, 1] = step * ((len(column) - 1) / 2 - np.arange(len(column)))
    if len(isolated):
        pos[isolated, 0] = np.linspace(-1, 1, len(isolated) + 2)[1:-1]
        pos[isolated, 1] = pos[:, 1].min() - step
    return pos, True


def _separate(points: np.ndarray, gap: float, obstacles: np.ndarray, *,
              vertical: bool = False) -> np.ndarray:
    """``points`` moved apart until any two are at least ``gap`` apart, and each is at least
    ``gap`` from every obstacle (pairwise pushes; ``vertical``: moves along ``y`` only).
    Equal points are first fanned out in a fixed order, so the result is deterministic."""
    pts = np.array(points, dtype=float)
    for i in range(len(pts)):
        while any(np.allclose(pts[i], pts[j]) for j in range(i)):
            pts[i] += 1e-3 * (np.array([0.0, 1.0]) if vertical
                              else np.array([np.cos(2.4 * i), np.sin(2.4 * i)]))
    for _ in range(2000):
        diff = pts[:, None] - pts[None]
        dist = np.hypot(*np.moveaxis(diff, -1, 0))
        np.fill_diagonal(dist, np.inf)
        push = (0.5 * np.clip(gap - dist, 0, None) / np.maximum(dist, 1e-12))[..., None] * diff
        away = pts[:, None] - obstacles[None]
        far = np.hypot(*np.moveaxis(away, -1, 0))
        push_away = (np.clip(gap - far, 0, None) / np.maximum(far, 1e-12))[..., None] * away
        move = push.sum(axis=1) + push_away.sum(axis=1)
        if vertical:
            move[:, 0] = 0.0
        if np.abs(move).max() < 1e-9:
            break
        pts += 1.05 * move
    return pts


def _hub_layout(extension: HubExtension, pos: np.ndarray, two_columns: bool) -> np.ndarray:
    """Hub positions ``(n_hubs, 2)``, pairwise at least ``0.25`` apart.

    A hub starts halfway between the mean of its sources and the mean of its targets (on the
    middle column ``x = 0`` in the two-column layout, pulled toward the center on the circle),
    then hubs too close to each other or to a vertex are pushed apart."""
    start = np.array([0.5 * (pos[a].mean(axis=0) + pos[b].mean(axis=0))
                      for a, b in extension.hubs]).reshape(-1, 2)
    if two_columns:
        start[:, 0] = 0.0
    else:
        start *= 0.6
    return _separate(start, 0.25, pos, vertical=two_columns)


def _draw_digraph_and_hubs(left, right, digraph: AttentionDigraph,
                           extension: HubExtension) -> None:
    """Draw ``digraph`` on the axes ``left`` and its (validated) hub extension on ``right``,
    as :func:`draw_hub_extension` describes: vertices at the same places in both, titled
    with their counts, axes off."""
    from matplotlib import colormaps
    from matplotlib.patches import FancyArrowPatch

    n = digraph.n
    pos, two_columns = _vertex_layout(digraph)
    hubs = _hub_layout(extension, pos, two_columns)
    palette = colormaps["tab10"]

    def arrow(ax, start, end, color):
        ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=12,
                                     shrinkA=10, shrinkB=10, lw=1.2, color=color, zorder=2))

    for a, b in digraph.edges.tolist():
        arrow(left, pos[a], pos[b], "0.3")
    colors = extension.colors or [0] * extension.n_hubs
    for p, ((sources, targets), c, hub) in enumerate(zip(extension.hubs, colors, hubs)):
        color = palette(c % 10)
        for a in sources:
            arrow(right, pos[a], hub, color)
        for b in targets:
            arrow(right, hub, pos[b], color)
        right.scatter(*hub, s=200, marker="s", color=color, zorder=3)
        right.text(*hub, f"h{p}", ha="center", va="center", fontsize=8, color="white",
                   zorder=4)
    colored = (_count(extension.n_colors, "color") if extension.colors is not None
               else "uncolored")
    everything = np.concatenate([pos, hubs])
    low, high = everything.min(axis=0) - 0.2, everything.max(axis=0) + 0.2
    for ax, title in ((left, f"digraph: {_count(n, 'vertex', 'vertices')}, "
                             f"{_count(digraph.n_edges, 'edge')}"),
                      (right, f"hub extension: {_count(extension.n_hubs, 'hub')}, {colored}")):
        ax.scatter(pos[:, 0], pos[:, 1], s=260, color="white", edgecolor="black", zorder=3)
        for v, (x, y) in enumerate(pos):
            ax.text(x, y, str(v), ha="center", va="center", fontsize=9, zorder=4)
        ax.set_title(title)
        ax.set(xlim=(low[0], high[0]), ylim=(low[1], high[1]), aspect="equal")
        ax.axis("off")


def draw_hub_extension(digraph: AttentionDigraph, extension: HubExtension, *, path=None):
    """Draw ``digraph`` (left) beside its hub extension (right), hubs filled with their colors.

    Vertices sit at the same places in both panels: in two columns, sources left and targets
    right, when the digraph is bipartite in the sense that no vertex is both a source and a
    target (vertices without edges in a row below); otherwise on a circle, vertex ``0`` on
    top. On the right each hub is a square between the mean of its sources and the mean of its
    targets (on the middle column in the two-column layout), hubs pushed apart so that no two
    share a spot, with arrows ``a → hub`` for ``a ∈ A_p`` and ``hub → b`` for ``b ∈ B_p`` in
    the hub's color (docs/conventions.md#hub-extensions-and-colorings); an uncolored
    extension is drawn in one color. The extension is validated first.

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
        Two panels: the digraph (left) and the hub extension (right), each titled with its
        counts.

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
    >>> from theorem.digraphs import complete_bipartite, transitive_tournament
    >>> ext = HubExtension([([0], [1, 2]), ([1], [2])], colors=[0, 1])
    >>> fig = draw_hub_extension(transitive_tournament(3), ext)
    >>> [ax.get_title() for ax in fig.axes]
    ['digraph: 3 vertices, 3 edges', 'hub extension: 2 hubs, 2 colors']
    >>> plt.close(fig)
    >>> fig = draw_hub_extension(complete_bipartite(1, 2), HubExtension([([0], [1, 2])]))
    >>> [ax.get_title() for ax in fig.axes]       # sources left, targets right
    ['digraph: 3 vertices, 2 edges', 'hub extension: 1 hub, uncolored']
    >>> plt.close(fig)
    """
    extension.validate(digraph)
    plt = require_pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5.5))
    fig.subplots_adjust(left=0.01, right=0.99, bottom=0.02, top=0.9, wspace=0.04)
    _draw_digraph_and_hubs(left, right, digraph, extension)
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig


def draw_density_cover(cover, targets=None, *, path=None):
    r"""Heat maps of ``x ↦ β_j(x, α(b))`` over ``S^2`` for a few targets ``b``.

    For each target ``b`` (default: up to three vertices with in-edges) the weight ``j`` of
    a hub covering an edge into ``b`` is drawn over the whole sphere in longitude and latitude;
    it is ``1`` at the images of the sources ``a`` of the color-``j`` edges ``(a, b)`` (red
    dots) and ``0`` near every other embedded vertex (white dots; ``b`` itself circled in
    cyan): the exact strength of docs/conventions.md#density-covers, seen on one slice. Each
    panel evaluates the weight on a 361 × 181 grid; panels run in two columns, with a legend
    of the dots (in the spare cell, or under the panels) and a labelled color bar.

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
        A panel per target (titled ``β_j(x, α(b))``, in mathtext), a shared color bar and a
        legend.

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
    ['$\\beta_{0}(x, \\alpha(2))$: 1 at sources [0]']
    >>> fig.axes[-1].get_ylabel()                       # the color bar
    'weight $\\beta_j(x, \\alpha(b))$'
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
    from matplotlib.lines import Line2D

    ncols = min(len(choices), 2)
    nrows = -(-len(choices) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.6 * ncols + 1.0, 3.0 * nrows + 0.5),
                             squeeze=False, layout="constrained")
    panels = axes.ravel()[:len(choices)]
    for ax, (j, b) in zip(panels, choices):
        weight = cover.weights[j]
        values = weight.phi(grid) @ weight.psi(p[b])
        mesh = ax.pcolormesh(np.degrees(lon), np.degrees(lat), values, shading="auto",
                             cmap="magma", vmin=0, vmax=1)
        sources = [a for a, bb in cover.claims[j].tolist() if bb == b]
        others = [a for a in range(len(p)) if a not in sources]
        ax.scatter(np.degrees(p_lon[others]), np.degrees(p_lat[others]), color="white",
                   edgecolor="black", s=24, zorder=3)
        ax.scatter(np.degrees(p_lon[sources]), np.degrees(p_lat[sources]), color="red",
                   edgecolor="white", linewidth=0.5, s=36, zorder=4)
        ax.scatter(np.degrees(p_lon[b]), np.degrees(p_lat[b]), facecolor="none", edgecolor="cyan",
                   s=130, linewidth=1.8, zorder=5)
        ax.set(xlabel="longitude (°)", ylabel="latitude (°)", aspect="equal",
               xticks=np.arange(-180, 181, 90), yticks=np.arange(-90, 91, 45),
               title=rf"$\beta_{{{j}}}(x, \alpha({b}))$: 1 at sources {sources}")
    bar = fig.colorbar(mesh, ax=axes.ravel().tolist(), shrink=0.8, aspect=30)
    bar.set_label(r"weight $\beta_j(x, \alpha(b))$")
    handles = [
        Line2D([], [], linestyle="none", marker="o", markersize=7, color="red",
               markeredgecolor="white", label=r"sources $a$ of the color-$j$ edges $(a, b)$: "
                                              r"$\beta_j = 1$"),
        Line2D([], [], linestyle="none", marker="o", markersize=6, color="white",
               markeredgecolor="black", label=r"other vertices: $\beta_j = 0$ nearby"),
        Line2D([], [], linestyle="none", marker="o", markersize=11, markerfacecolor="none",
               markeredgecolor="cyan", markeredgewidth=1.8, label=r"the target $b$"),
    ]
    spare = axes.ravel()[len(choices):]
    for ax in spare:
        ax.axis("off")
    if len(spare):
        spare[0].legend(handles=handles, loc="center", frameon=False, fontsize=11)
    else:
        fig.legend(handles=handles, loc="outside lower center", ncol=3 if ncols > 1 else 1,
                   frameon=False, fontsize=11)
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig


def _real_array(values, name: str) -> np.ndarray:
    """``values`` as a float64 array, or a ``TypeError`` naming ``name`` when it does not
    hold real numbers (booleans, integers and floats pass)."""
    array = np.asarray(values)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be an array of real numbers, not of dtype {array.dtype}")
    return array.astype(np.float64)


def draw_head_grid(values, *, label, reference=None, path=None):
    """Heat map of one number per attention head: layers as rows (``layer 0`` on top), heads
    as columns, each cell annotated with its value.

    Each cell shows ``values[layer, head]`` formatted ``:.2g``; a NaN cell (no value: a head
    that was skipped or timed out) is grey and annotated ``–``. A colorbar labelled ``label``
    gives the scale. With a ``reference`` (for the biclique cover number ``b``, the head
    dimension), each cell with a value above it is outlined in red, the reference is drawn as
    a red line on the colorbar, and the title counts those cells:
    ``"{label}: k of L·H heads above {reference:g}"``.

    Parameters
    ----------
    values : array_like, shape ``(L, H)``
        Real numbers, one per layer and head; NaN where a head has no value.
    label : str
        What the values are (the colorbar's label and the start of the title).
    reference : float, optional
        A level to compare with; cells strictly above it are outlined. Default: none.
    path : str or path-like, optional
        Where to save the figure (110 dpi); default: not saved.

    Returns
    -------
    matplotlib.figure.Figure
        The heat map (``fig.axes[0]``: its texts are the cell annotations, row by row) and
        its colorbar (``fig.axes[1]``).

    Raises
    ------
    TheoremError
        ``values`` is not 2-D, or has no cell.
    TypeError
        ``values`` does not hold real numbers, or ``reference`` is not a real number.
    ImportError
        matplotlib is not installed (the ``plot`` extra).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig = draw_head_grid([[3, 40], [np.nan, 33.5]], label="b", reference=32)
    >>> fig.axes[0].get_title(), [t.get_text() for t in fig.axes[0].texts]
    ('b: 2 of 4 heads above 32', ['3', '40', '–', '34'])
    >>> plt.close(fig)
    """
    grid = _real_array(values, "values")
    if grid.ndim != 2 or grid.size == 0:
        raise TheoremError(
            f"values must be a non-empty 2-D array (layer × head), got shape {grid.shape}; "
            "give one row per layer and one column per head")
    if reference is not None and (isinstance(reference, bool)
                                  or not isinstance(reference, numbers.Real)):
        raise TypeError(f"reference must be a real number, not {type(reference).__name__}")
    plt = require_pyplot()
    from matplotlib import colormaps
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    layers, heads = grid.shape
    finite = np.isfinite(grid)
    cmap = colormaps["viridis"].with_extremes(bad="0.8")
    low, high = (grid[finite].min(), grid[finite].max()) if finite.any() else (0.0, 1.0)
    norm = Normalize(vmin=low, vmax=high if high > low else low + 1)
    fig, ax = plt.subplots(figsize=(min(max(0.6 * heads + 2.6, 4.5), 16),
                                    min(max(0.45 * layers + 1.4, 2.6), 14)))
    image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=norm, aspect="auto")
    size = 8 if heads <= 16 else 6
    for i in range(layers):
        for j in range(heads):
            value = grid[i, j]
            if np.isfinite(value):
                dark = norm(value) < 0.55
                ax.text(j, i, f"{value:.2g}", ha="center", va="center", fontsize=size,
                        color="white" if dark else "black")
            else:
                ax.text(j, i, "–", ha="center", va="center", fontsize=size, color="black")
    ax.set_xticks(np.arange(heads), [str(j) for j in range(heads)], fontsize=size)
    ax.set_yticks(np.arange(layers), [f"layer {i}" for i in range(layers)], fontsize=size)
    ax.set_xlabel("head")
    bar = fig.colorbar(image, ax=ax)
    bar.set_label(label)
    title = f"{label} per head: {_count(layers, 'layer')} × {_count(heads, 'head')}"
    if reference is not None:
        above = finite & (grid > reference)
        for i, j in np.argwhere(above):
            ax.add_patch(Rectangle((j - 0.44, i - 0.44), 0.88, 0.88, fill=False,
                                   edgecolor="red", linewidth=1.8, zorder=3))
        if low <= reference <= norm.vmax:
            bar.ax.axhline(reference, color="red", linewidth=1.5)
        title = f"{label}: {int(above.sum())} of {grid.size} heads above {reference:g}"
    ax.set_title(title)
    return finish_figure(fig, path)


def draw_attention_head(weights, digraph: AttentionDigraph, extension: HubExtension, *,
                        tokens=None, path=None):
    """Draw one attention head: its attention matrix with the kept cells marked (left), its
    attention digraph (middle) and a hub extension of it (right).

    Left: ``weights`` as an image, rows = queries ``b``, columns = keys ``a``, with a
    colorbar; a red dot marks each cell ``[b, a]`` of an edge ``(a, b)`` of ``digraph``
    (query ``b`` kept key ``a``: docs/conventions.md#edge-direction), so the dots are the
    digraph's adjacency matrix transposed; kept self-attention (the diagonal) is not an edge
    and is not marked. Middle and right: ``digraph`` and ``extension`` as
    :func:`draw_hub_extension` draws them, vertex ``i`` being token ``i``.

    Parameters
    ----------
    weights : array_like, shape ``(N, N)``
        The head's attention matrix over the digraph's ``N`` tokens (the kept ones, when
        tokens were dropped), ``weights[b, a]`` the weight of key ``a`` for query ``b``.
    digraph : AttentionDigraph
        Its attention digraph (:func:`~theorem.digraphs.attention_digraph`).
    extension : HubExtension
        A hub extension of ``digraph``, colored or not.
    tokens : sequence of str, optional
        One label per token, the matrix's tick labels; default: the digraph's vertex labels
        when it has them, else the token positions.
    path : str or path-like, optional
        Where to save the figure (110 dpi); default: not saved.

    Returns
    -------
    matplotlib.figure.Figure
        Three panels (``fig.axes[:3]``: matrix, digraph, hub extension) and the matrix's
        colorbar (``fig.axes[3]``).

    Raises
    ------
    AttentionMatrixError
        ``weights`` is not ``N × N`` for the digraph's ``N`` vertices, or ``tokens`` does not
        hold one label per vertex (both are :class:`TheoremError`).
    InvalidHubExtensionError
        ``extension`` is not a hub extension of ``digraph``.
    InvalidColoringError
        Its colors give two hubs that share a source or a target the same color.
    TypeError
        ``weights`` does not hold real numbers, or ``tokens`` is not a sequence.
    ImportError
        matplotlib is not installed (the ``plot`` extra).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from theorem.digraphs import attention_digraph
    >>> w = np.array([[0.9, 0.1, 0.0], [0.6, 0.4, 0.0], [0.5, 0.1, 0.4]])
    >>> g = attention_digraph(w, rule="top-mass:0.8")
    >>> g.edges.tolist()
    [[0, 1], [0, 2]]
    >>> fig = draw_attention_head(w, g, HubExtension([([0], [1, 2])]), tokens=["a", "b", "c"])
    >>> [ax.get_title() for ax in fig.axes[1:3]]
    ['digraph: 3 vertices, 2 edges', 'hub extension: 1 hub, uncolored']
    >>> plt.close(fig)
    """
    matrix = _real_array(weights, "weights")
    n = digraph.n
    if matrix.shape != (n, n):
        raise AttentionMatrixError(
            f"weights has shape {matrix.shape}, but the digraph has {n} vertices; give the "
            f"{n} × {n} attention matrix (rows = queries, columns = keys) of the tokens the "
            "digraph was made from, dropped tokens removed")
    if tokens is None:
        tokens = digraph.labels
    elif isinstance(tokens, str) or not isinstance(tokens, Iterable):
        raise TypeError(f"tokens must be a sequence of str, one per token, not "
                        f"{type(tokens).__name__}")
    else:
        tokens = [str(t) for t in tokens]
        if len(tokens) != n:
            raise AttentionMatrixError(
                f"{len(tokens)} tokens for a {n} × {n} attention matrix; give one label per "
                "vertex of the digraph (dropped tokens left out)")
    extension.validate(digraph)
    plt = require_pyplot()

    fig, (matrix_ax, left, right) = plt.subplots(
        1, 3, figsize=(16, 5.6), gridspec_kw={"width_ratios": [1.15, 1, 1]})
    top = np.nanmax(matrix, initial=0.0)
    image = matrix_ax.imshow(matrix, cmap="Blues", vmin=0, vmax=top if top > 0 else 1)
    bar = fig.colorbar(image, ax=matrix_ax, fraction=0.046, pad=0.03)
    bar.set_label("attention weight")
    edges = digraph.edges
    matrix_ax.scatter(edges[:, 0], edges[:, 1], s=max(12, 900 / max(n, 1) ** 1.3),
                      color="red", edgecolor="white", linewidth=0.5, zorder=3)
    ticks = np.arange(n)
    labels = list(tokens) if tokens is not None else [str(i) for i in ticks]
    small = 8 if n <= 16 else 6
    matrix_ax.set_xticks(ticks, labels, rotation=90, fontsize=small)
    matrix_ax.set_yticks(ticks, labels, fontsize=small)
    matrix_ax.set(xlabel="key a", ylabel="query b",
                  title=f"attention: red dots = the {_count(digraph.n_edges, 'edge')} (a, b)")
    _draw_digraph_and_hubs(left, right, digraph, extension)
    return finish_figure(fig, path)


def draw_attention_study(study, model, folder) -> list:
    """The figures of an attention study (:func:`~theorem.models.attention_study`), as PNGs in
    ``folder``: the layer × head grid of the median ``χ'/χ_hub`` (the lower end of its
    interval, ``ratio_grid.png``), the grid of the median ``b`` (upper bound) against the head
    dimension (``b_grid.png``), and the head with the largest median ratio on the first
    sentence: its attention matrix beside its digraph and the ``b`` witness of its profile
    (``head_L{layer}_H{head}.png``; left out when every digraph is without edges).

    Parameters
    ----------
    study : AttentionStudy
    model : PretrainedModel
        The study's model: it is run once more on the first sentence for the weights.
    folder : path-like
        An existing folder.

    Returns
    -------
    list of pathlib.Path
        The files written.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
    >>> import tempfile
    >>> from theorem.models import attention_study, load_model
    >>> model = load_model("minilm")
    >>> study = attention_study(model, ["Tokens drift together."], layers=[0], null=0)
    >>> [p.name for p in draw_attention_study(study, model, tempfile.mkdtemp())][:2]
    ['ratio_grid.png', 'b_grid.png']
    """
    from .models import sentence_attention

    folder = pathlib.Path(folder)
    grid = np.full((len(study.layers), len(study.heads), 2), np.nan)
    for (layer, head), summary in study.per_head().items():
        values = (summary["real"]["ratio"][0], summary["real"]["b"]["median"][1])
        grid[study.layers.index(layer), study.heads.index(head)] = [
            np.nan if v is None else v for v in values]
    written = [folder / "ratio_grid.png", folder / "b_grid.png"]
    draw_head_grid(grid[..., 0], label="median χ'/χ_hub (lower end)", path=written[0])
    draw_head_grid(grid[..., 1], label="median b (upper bound)", reference=study.head_dim,
                   path=written[1])
    if np.isnan(grid[..., 0]).all():
        return written
    i, j = np.unravel_index(np.nanargmax(grid[..., 0]), grid.shape[:2])
    layer, head = study.layers[i], study.heads[j]
    record = next(r for r in study.records if (r.sentence, r.layer, r.head) == (0, layer, head))
    weights = sentence_attention(model, study.sentences[0]).kept_weights(
        drop_special=study.drop_special)[layer, head]
    written.append(folder / f"head_L{layer}_H{head}.png")
    draw_attention_head(weights, record.digraph, record.profile.biclique_cover.witness,
                        tokens=record.digraph.labels, path=written[-1])
    return written


def draw_head_dynamics(result, *, path=None):
    """Draw where the tokens of constructed heads move: the initial pull (left) and the
    distance moved toward each token over time (right).

    Left: ``result.pull[b, a]``, the initial velocity of token ``b`` toward token ``a``, as an
    image (rows = queries ``b``, columns = keys ``a``), a red dot on each cell of an edge
    ``(a, b)`` (docs/conventions.md#edge-direction). Right: ``result.drift[t, b, a]`` against
    time, one line per ordered pair, blue for the pairs where ``b`` attends to ``a`` and grey
    for the others; the title gives the largest initial pull toward a token not attended to
    as a share of the least toward one attended to.

    Parameters
    ----------
    result : theorem.transformer.HeadDynamics
        What :func:`~theorem.transformer.head_dynamics` returned.
    path : str or path-like, optional
        Where to save the figure (110 dpi); default: not saved.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels (``fig.axes[0]`` the pull, ``fig.axes[1]`` the drift) and the pull's
        colorbar (``fig.axes[2]``).

    Raises
    ------
    TypeError
        ``result`` is not a :class:`~theorem.transformer.HeadDynamics`.
    ImportError
        matplotlib is not installed (the ``plot`` extra).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.transformer import factored_head, head_dynamics
    >>> result = head_dynamics(factored_head(transitive_tournament(3), 3), 8.0, rng=0)
    >>> fig = draw_head_dynamics(result)
    >>> len(fig.axes), len(fig.axes[1].lines)          # 6 ordered pairs of 3 tokens
    (3, 6)
    >>> plt.close(fig)
    """
    from .transformer import HeadDynamics

    if not isinstance(result, HeadDynamics):
        raise TypeError(f"result must be a HeadDynamics (theorem.transformer.head_dynamics), "
                        f"not {type(result).__name__}")
    plt = require_pyplot()
    n = len(result.pull)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.6),
                                      gridspec_kw={"width_ratios": [1, 1.3]})
    image = left.imshow(result.pull, cmap="viridis")
    fig.colorbar(image, ax=left, label=r"initial pull $\langle \dot x_b, x_a\rangle$")
    b, a = np.nonzero(result.attended)
    left.scatter(a, b, s=max(4, 400 / max(n, 1)), color="red", label="b attends to a")
    from matplotlib.ticker import MaxNLocator

    for axis in (left.xaxis, left.yaxis):
        axis.set_major_locator(MaxNLocator(integer=True))
    left.set_xlabel("key a")
    left.set_ylabel("query b")
    left.set_title(f"{_count(result.heads.n_heads, 'head')}, β = {result.beta:g}")
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), fontsize=8, frameon=False)
    times = result.trajectory.times
    for mask, color, label, z in ((result.others, "0.6", "toward a token not attended to", 1),
                                  (result.attended, "tab:blue", "toward a token attended to", 2)):
        lines = result.drift[:, mask]
        for k in range(lines.shape[1]):
            right.plot(times, lines[:, k], color=color, linewidth=0.8, alpha=0.7, zorder=z,
                       label=label if k == 0 else None)
    right.set_xlabel("time t")
    right.set_ylabel("moved toward token a")
    right.set_title(f"initial pull toward others at most {result.others_ratio:.2g} of toward attended",
                    fontsize=10)
    right.legend(loc="upper left", fontsize=8)
    return finish_figure(fig, path)


_SWEEP_LABELS = {"b": "b", "chi_hub": r"$\chi_{hub}$", "chi_prime": r"$\chi'$"}


def draw_sweep(summary, folder) -> list:
    """Draw a sweep's invariants against ``N``, one figure per ``(n, p)``.

    Each invariant is a line through its medians with a band from the 10 % to the 90 %
    quantile; the planted hub count (its mean) is a dashed grey line. Unproved invariants
    count with their upper bounds (the legend gives the share proved at the largest ``N``).

    Parameters
    ----------
    summary : list of dict
        :func:`theorem.sweeps.summarize_sweep`'s cells.
    folder : str or path-like
        Where the PNGs go (created), named ``sweep_n{n}_p{p}.png`` (``p`` as Python writes
        it, so that two values never share a file).

    Returns
    -------
    list of pathlib.Path
        The files written.

    Raises
    ------
    TheoremError
        ``summary`` is empty.
    ImportError
        matplotlib is not installed (the ``plot`` extra).

    Examples
    --------
    >>> import tempfile
    >>> import matplotlib; matplotlib.use("Agg")
    >>> cells = [{"hubs": 2, "p": 0.5, "N": n, "rows": 4, "planted_hubs": 2.0,
    ...           "b": {"mean": 2.0, "median": 2.0, "q10": 1.0, "q90": 2.0, "optimal": 1.0}}
    ...          for n in (10, 20)]
    >>> [p.name for p in draw_sweep(cells, tempfile.mkdtemp())]
    ['sweep_n2_p0.5.png']
    """
    summary = list(summary)
    if not summary:
        raise TheoremError("the sweep has no rows to draw")
    plt = require_pyplot()
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    names = [n for n in _SWEEP_LABELS if n in summary[0]]
    written = []
    for hubs, p in sorted({(c["hubs"], c["p"]) for c in summary}):
        cells = sorted((c for c in summary if (c["hubs"], c["p"]) == (hubs, p)),
                       key=lambda c: c["N"])
        n = np.array([c["N"] for c in cells])
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for name in names:
            median = [c[name]["median"] for c in cells]
            line, = ax.plot(n, median, marker="o",
                            label=f"{_SWEEP_LABELS[name]} ({cells[-1][name]['optimal']:.0%} proved)")
            ax.fill_between(n, [c[name]["q10"] for c in cells], [c[name]["q90"] for c in cells],
                            color=line.get_color(), alpha=0.2)
        ax.plot(n, [c["planted_hubs"] for c in cells], linestyle="--", color="0.5",
                label="planted hubs")
        ax.set_xlabel("N (vertices)")
        ax.set_ylabel("median, 10–90 % band")
        ax.set_title(f"random hub extensions, n = {hubs}, p = {p}")
        ax.legend(fontsize=8)
        path = folder / f"sweep_n{hubs}_p{p}.png"
        finish_figure(fig, path)
        plt.close(fig)
        written.append(path)
    return written
