"""Pictures (needs the ``plot`` extra): a bump kernel and a unit field ``a_θ`` on ``S^2``;
the clustering of self-attention dynamics."""

from __future__ import annotations

import os
import pathlib

import numpy as np

from .errors import LawError
from .fields import IsotropicFamily
from .kernels import BumpKernel

__all__ = ["draw_kernel_and_field", "draw_clustering", "check_figure_path"]

#: What ``require_pyplot`` says when matplotlib is missing: how to install the plot extra,
#: from the package index or from a checkout.
PLOT_EXTRA_HINT = ("install the plot extra: pip install 'transformer-dynamics[plot]', "
                   "or pip install -e '.[plot]' from a checkout")


def require_pyplot():
    """``matplotlib.pyplot``, or an ``ImportError`` that says how to install the plot extra."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(f"drawing needs matplotlib; {PLOT_EXTRA_HINT}") from None
    return plt


def check_figure_path(path) -> pathlib.Path:
    """Check that matplotlib can save a figure at ``path``, before anything is computed.

    The file's extension (case aside) names the format, and must be one that matplotlib
    writes (``png``, ``pdf``, ``svg``, ``jpg``, …: ``FigureCanvasBase.get_supported_filetypes``);
    its folder must exist, and ``path`` must not be a folder. Call it where a figure's path
    enters (a command-line option), so that a wrong path fails at once instead of after the
    computation. Nothing is written.

    Parameters
    ----------
    path : str or path-like
        Where a figure is to be saved.

    Returns
    -------
    pathlib.Path
        ``path``, as a :class:`pathlib.Path`.

    Raises
    ------
    TypeError
        ``path`` is not a string or path-like.
    LawError
        The extension is missing or not one matplotlib writes (the message lists the
        supported ones), the folder does not exist, or ``path`` is a folder.
    ImportError
        matplotlib is not installed (the ``plot`` extra).

    Examples
    --------
    >>> check_figure_path("clustering.png").name
    'clustering.png'
    >>> check_figure_path("clustering.txt")  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
        ...
    laws.errors.LawError: cannot save a figure as 'clustering.txt': matplotlib does not
    write '.txt' files; use one of the extensions ..., .pdf, ..., .png, ..., .svg, ...
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"a figure path must be a string or path-like, not {type(path).__name__}")
    path = pathlib.Path(path)
    require_pyplot()
    from matplotlib.backend_bases import FigureCanvasBase

    supported = sorted(FigureCanvasBase.get_supported_filetypes())
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in supported:
        what = f"'.{suffix}' files" if suffix else "files without an extension"
        raise LawError(f"cannot save a figure as '{path}': matplotlib does not write {what}; "
                       f"use one of the extensions {', '.join('.' + s for s in supported)}")
    if path.is_dir():
        raise LawError(f"cannot save a figure as '{path}': it is a folder; give a file name "
                       f"such as '{path / ('figure.' + suffix)}'")
    folder = path.parent
    if not folder.is_dir():
        raise LawError(f"cannot save a figure as '{path}': the folder '{folder}' does not "
                       "exist; create it first")
    return path


_ELEV, _AZIM = 25.0, 35.0
_VIEW = np.array([np.cos(np.radians(_ELEV)) * np.cos(np.radians(_AZIM)),
                  np.cos(np.radians(_ELEV)) * np.sin(np.radians(_AZIM)), np.sin(np.radians(_ELEV))])


def _circle(space, center: np.ndarray, radius: float) -> np.ndarray:
    """The geodesic circle of ``radius`` about ``center`` on ``S^2``, shape ``(200, 3)``."""
    e1, e2 = space.tangent_basis(center)
    t = np.linspace(0, 2 * np.pi, 200)[:, None]
    return space.exp(radius * (np.cos(t) * e1 + np.sin(t) * e2), center)


def finish_figure(fig, path=None):
    """Lay out ``fig``, save it to ``path`` (110 dpi) when given, and return it."""
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig


def _fibonacci_sphere(count: int) -> np.ndarray:
    i = np.arange(count) + 0.5
    z = 1 - 2 * i / count
    phi = np.pi * (1 + 5**0.5) * i
    rho = np.sqrt(1 - z * z)
    return np.stack([rho * np.cos(phi), rho * np.sin(phi), z], axis=1)


def draw_kernel_and_field(kernel: BumpKernel, center, theta, *, path=None, arrows: int = 400):
    r"""Draw ``κ(·, center)`` (left) and the unit field ``a_θ`` (right) on ``S^2``.

    Left: the sphere colored by ``κ(x, center)``, with its color bar, its support the cap of
    radius ``r``. Right: arrows ``a_θ(y)`` at ``arrows`` evenly spread points, the zero set
    ``±θ̂`` marked where it faces the viewer; arrows within ``0.15`` rad of the zero set are
    left out (the field turns fast there). Both panels outline the support, the cap of radius
    ``r`` about ``center``; the legend sits under the spheres. Returns the matplotlib figure
    (saved to ``path`` if given).
    Conventions: docs/conventions.md#bump-kernel, docs/conventions.md#isotropic-family.

    Parameters
    ----------
    kernel : BumpKernel
        A kernel on ``Sphere(2)``.
    center : array_like, shape (3,)
        The center ``c`` of ``κ(·, c)``, a point of ``S^2``.
    theta : array_like, shape (3,)
        The non-zero parameter ``θ`` of the unit field ``a_θ``.
    path : str or path-like, optional
        Where to save the figure (110 dpi); default: not saved.
    arrows : int, optional
        Number of evenly spread points (a Fibonacci lattice) that may carry an arrow;
        default 400.

    Returns
    -------
    matplotlib.figure.Figure
        Two 3-D panels, the kernel (left, with its color bar) and the unit field with the
        front zero set (right), and a legend under them.

    Raises
    ------
    TypeError
        When ``kernel`` is not on ``Sphere(2)``. Without matplotlib, an ``ImportError``
        names the ``plot`` extra.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from manifolds import Sphere
    >>> fig = draw_kernel_and_field(BumpKernel(Sphere(2), 0.5), np.array([0.0, 0.0, 1.0]),
    ...                             np.array([0.6, 0.8, 0.0]), arrows=50)
    >>> len(fig.axes)                                   # the two spheres and κ's color bar
    3
    >>> plt.close(fig)
    """
    space = kernel.space
    if space.model != "sphere" or space.dim != 2:
        raise TypeError(f"draw_kernel_and_field draws on Sphere(2), not {space.name}")
    plt = require_pyplot()
    family = IsotropicFamily(space)
    center = space.check_points(center, "center")
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 181), np.linspace(0, np.pi, 91))
    grid = np.stack([np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v)], axis=-1)
    values = kernel(grid / np.linalg.norm(grid, axis=-1, keepdims=True), center)

    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    fig = plt.figure(figsize=(12, 5.2))
    left = fig.add_axes((0.01, 0.07, 0.41, 0.84), projection="3d")
    cmap = plt.get_cmap("viridis")
    left.plot_surface(*np.moveaxis(grid, -1, 0), facecolors=cmap(values), rstride=1, cstride=1,
                      linewidth=0, antialiased=False, shade=False)
    left.set_title(rf"$\kappa(x, c)$, {kernel.profile.name} profile, $r$ = {kernel.radius:g}")
    right = fig.add_axes((0.52, 0.07, 0.43, 0.84), projection="3d")
    right.computed_zorder = False          # only the front is drawn: no depth sorting needed
    right.plot_surface(*np.moveaxis(grid, -1, 0), color="0.92", linewidth=0, shade=False,
                       alpha=0.35, zorder=1)
    points = _fibonacci_sphere(arrows)
    keep = (family.zero_set_distance(theta, points) > 0.15) & (points @ _VIEW > 0.05)
    points = points[keep]
    a = family.unit_field(theta, points)
    right.quiver(*points.T, *a.T, length=0.12, normalize=False, color="tab:blue", linewidth=0.8,
                 zorder=2)
    zeros = family.zero_set(theta)
    zeros = zeros[zeros @ _VIEW > 0]
    right.scatter(*zeros.T, color="tab:red", s=40, depthshade=False, zorder=4,
                  label=r"zero set $\pm\hat\theta$ of $a_\theta$ (front)")
    right.set_title(r"unit field $a_\theta = P_T\,\theta\ /\ |P_T\,\theta|$")
    circle = _circle(space, center, kernel.radius)
    for ax in (left, right):
        ax.plot(*(1.01 * circle).T, color="tab:orange", linewidth=1.5, zorder=5,
                label=r"support of $\kappa(\cdot, c)$: the cap of radius $r$ about $c$")
        ax.set_box_aspect((1, 1, 1), zoom=1.1)
        ax.set(xlim=(-0.8, 0.8), ylim=(-0.8, 0.8), zlim=(-0.8, 0.8))
        ax.axis("off")
        ax.view_init(elev=_ELEV, azim=_AZIM)
    bar = fig.colorbar(ScalarMappable(Normalize(0.0, 1.0), cmap),
                       cax=fig.add_axes((0.41, 0.2, 0.015, 0.6)))
    bar.set_label(r"$\kappa(x, c)$")
    fig.legend(*right.get_legend_handles_labels(), loc="lower center", ncol=2, frameon=False)
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig


def draw_clustering(trajectory, *, path=None, bins: int = 60):
    r"""The clustering picture of seed 003: pairwise inner products against time.

    Left: for every recorded time, the histogram of ``⟨x_i, x_j⟩`` over all pairs ``i < j``
    of all systems (color: fraction of pairs, log scale), which concentrates at ``1`` as the
    tokens collapse. Right, on ``S^2``: the trajectories of the first system, dots at the
    end. Returns the matplotlib figure (saved to ``path`` if given). The time axis is in the
    trajectory's clock (docs/conventions.md#dynamics-clock).

    Parameters
    ----------
    trajectory : Trajectory
        Tokens on a sphere, as :func:`~laws.integrate` returns them, points
        ``(T, B, N, d)``.
    path : str or path-like, optional
        Where to save the figure (110 dpi); default: not saved.
    bins : int, optional
        Number of histogram bins of ``⟨x_i, x_j⟩`` on ``[−1, 1]``; default 60.

    Returns
    -------
    matplotlib.figure.Figure
        The histogram panel with its color bar, and the 3-D trajectory panel on ``S^2``.

    Raises
    ------
    TypeError
        When the trajectory's space is not a sphere. Without matplotlib, an ``ImportError``
        names the ``plot`` extra.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from manifolds import Sphere
    >>> from laws import SelfAttention, integrate
    >>> x0 = Sphere(3).random_point(4, rng=0).reshape(1, 4, 4)    # tokens in R^4: no 3-D panel
    >>> fig = draw_clustering(integrate(SelfAttention(1.0), x0, t_final=1.0, dt=0.1), bins=10)
    >>> len(fig.axes)                                               # histogram and color bar
    2
    >>> plt.close(fig)
    """
    plt = require_pyplot()
    from matplotlib.colors import LogNorm

    points = np.asarray(trajectory.points)
    if trajectory.space.model != "sphere":
        raise TypeError(f"draw_clustering draws tokens on a sphere, not {trajectory.space.name}")
    n = points.shape[2]
    iu = np.triu_indices(n, 1)
    inner = np.matmul(points, np.swapaxes(points, -1, -2))[..., iu[0], iu[1]]   # (T, B, pairs)
    inner = inner.reshape(len(trajectory.times), -1)
    edges = np.linspace(-1.0, 1.0, bins + 1)
    hist = np.stack([np.histogram(row, bins=edges)[0] for row in inner]).T / inner.shape[1]
    three_d = trajectory.space.dim == 2
    fig = plt.figure(figsize=(12 if three_d else 7, 5))
    if three_d:
        ax = fig.add_axes((0.07, 0.11, 0.37, 0.8))
        cax = fig.add_axes((0.455, 0.11, 0.012, 0.8))
    else:
        ax, cax = fig.add_subplot(1, 1, 1), None
    t = trajectory.times
    mesh = ax.pcolormesh(t, 0.5 * (edges[:-1] + edges[1:]), np.where(hist > 0, hist, np.nan),
                         shading="nearest", norm=LogNorm(vmin=max(hist[hist > 0].min(), 1e-4), vmax=1))
    fig.colorbar(mesh, ax=ax, cax=cax, label="fraction of pairs")
    ax.set(xlabel=f"time ({trajectory.diagnostics.get('clock', 'physical')} clock)",
           ylabel=r"$\langle x_i, x_j \rangle$",
           title=f"pairwise inner products, {points.shape[1]} systems × {n} tokens")
    if not three_d:
        return finish_figure(fig, path)
    ax3 = fig.add_axes((0.53, 0.0, 0.45, 0.92), projection="3d")
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 61), np.linspace(0, np.pi, 31))
    ax3.plot_surface(np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v), color="0.9",
                     alpha=0.3, linewidth=0)
    for i in range(n):
        ax3.plot(*points[:, 0, i].T, linewidth=0.8)
    ax3.scatter(*points[-1, 0].T, color="black", s=12)
    ax3.set(xlim=(-1, 1), ylim=(-1, 1), zlim=(-1, 1))
    ax3.set_box_aspect((1, 1, 1), zoom=1.4)
    ax3.axis("off")
    ax3.set_title("trajectories of the first system (dots: where they end)")
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig
