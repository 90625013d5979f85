"""Pictures of a bump kernel and of a unit field ``a_θ`` on ``S^2`` (needs the ``plot`` extra)."""

from __future__ import annotations

import numpy as np

from manifolds import Sphere

from .fields import IsotropicFamily
from .kernels import BumpKernel

__all__ = ["draw_kernel_and_field"]


def require_pyplot():
    """``matplotlib.pyplot``, or an ``ImportError`` that says which extra to install."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "drawing needs matplotlib: pip install 'transformer-dynamics[plot]'") from None
    return plt


_ELEV, _AZIM = 25.0, 35.0
_VIEW = np.array([np.cos(np.radians(_ELEV)) * np.cos(np.radians(_AZIM)),
                  np.cos(np.radians(_ELEV)) * np.sin(np.radians(_AZIM)), np.sin(np.radians(_ELEV))])


def _circle(space, center: np.ndarray, radius: float) -> np.ndarray:
    """The geodesic circle of ``radius`` about ``center`` on ``S^2``, shape ``(200, 3)``."""
    e1, e2 = space.tangent_basis(center)
    t = np.linspace(0, 2 * np.pi, 200)[:, None]
    return space.exp(radius * (np.cos(t) * e1 + np.sin(t) * e2), center)


def _fibonacci_sphere(count: int) -> np.ndarray:
    i = np.arange(count) + 0.5
    z = 1 - 2 * i / count
    phi = np.pi * (1 + 5**0.5) * i
    rho = np.sqrt(1 - z * z)
    return np.stack([rho * np.cos(phi), rho * np.sin(phi), z], axis=1)


def draw_kernel_and_field(kernel: BumpKernel, center, theta, *, path=None, arrows: int = 400):
    r"""Draw ``κ(·, center)`` (left) and the unit field ``a_θ`` (right) on ``S^2``.

    Left: the sphere colored by ``κ(x, center)``, its support the cap of radius ``r``.
    Right: arrows ``a_θ(y)`` at ``arrows`` evenly spread points, the zero set ``±θ̂``
    marked where it faces the viewer; arrows within ``0.15`` rad of the zero set are left
    out (the field turns fast there). Both panels outline the support, the cap of radius
    ``r`` about ``center``. Returns the matplotlib figure (saved to ``path`` if given).
    """
    space = kernel.space
    if not isinstance(space, Sphere) or space.dim != 2:
        raise TypeError(f"draw_kernel_and_field draws on Sphere(2), not {space.name}")
    plt = require_pyplot()
    family = IsotropicFamily(space)
    center = space.check_points(center, "center")
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 181), np.linspace(0, np.pi, 91))
    grid = np.stack([np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v)], axis=-1)
    values = kernel(grid / np.linalg.norm(grid, axis=-1, keepdims=True), center)

    fig = plt.figure(figsize=(11, 5))
    left = fig.add_subplot(1, 2, 1, projection="3d")
    colors = plt.get_cmap("viridis")(values)
    left.plot_surface(*np.moveaxis(grid, -1, 0), facecolors=colors, rstride=1, cstride=1,
                      linewidth=0, antialiased=False, shade=False)
    left.set_title(f"κ(x, c), {kernel.profile.name} profile, r = {kernel.radius:g}")

    right = fig.add_subplot(1, 2, 2, projection="3d")
    right.plot_surface(*np.moveaxis(grid, -1, 0), color="0.92", linewidth=0, shade=False, alpha=0.35)
    points = _fibonacci_sphere(arrows)
    keep = (family.zero_set_distance(theta, points) > 0.15) & (points @ _VIEW > 0.05)
    points = points[keep]
    a = family.unit_field(theta, points)
    right.quiver(*points.T, *a.T, length=0.12, normalize=False, color="tab:blue", linewidth=0.8)
    zeros = family.zero_set(theta)
    zeros = zeros[zeros @ _VIEW > 0]
    right.scatter(*zeros.T, color="tab:red", s=40, depthshade=False, label="zero set ±θ̂ (front)")
    right.set_title("unit field a_θ = P_T θ / |P_T θ|")
    circle = _circle(space, center, kernel.radius)
    for ax in (left, right):
        ax.plot(*(1.01 * circle).T, color="tab:orange", linewidth=1.5, zorder=5,
                label="support of κ(·, c)")
        ax.set_box_aspect((1, 1, 1))
        ax.set(xlim=(-0.75, 0.75), ylim=(-0.75, 0.75), zlim=(-0.75, 0.75))
        ax.axis("off")
        ax.view_init(elev=_ELEV, azim=_AZIM)
    right.legend(loc="lower left")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig
