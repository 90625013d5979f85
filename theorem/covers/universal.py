r"""Part (i) of the Main Theorem: the universal family and the one-function cover.

docs/conventions.md#main-theorem. For any ``(x0, y0, v0)`` the law ``u = κ(x, x0) κ(y, y0) a_θ(y)`` is strong at
``(x0, y0)`` with ``u(x0, y0) = v0/|v0|``; the universal family ``I_m`` sums ``m`` such
products, ``β = Σ_{k<m} κ(x, x_k) κ(y, y_k)``, times one unit field ``a_θ``. The
one-function cover of a digraph is ``β = Σ_{(a,b)∈E} κ(x, α(a)) κ(y, α(b)) = κ(x)ᵀ M κ(y)``,
of rank ``rank_R(M)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from laws import BumpKernel, FiniteRankWeight, InteractionLaw, IsotropicFamily, KernelSum
from manifolds import ParameterError, ShapeError, Space, as_generator, as_positive_integer

from ..digraphs.digraph import AttentionDigraph
from ..errors import TheoremError
from .density_covers import check_cover_size

__all__ = ["universal_law", "UniversalFamily", "one_function_cover"]


def _kernel(space, kernel) -> BumpKernel:
    if not isinstance(space, Space):
        raise TypeError(f"space must be a manifolds.Space, not {type(space).__name__}")
    if not isinstance(kernel, BumpKernel):
        raise TypeError(f"kernel must be a laws.BumpKernel, not {type(kernel).__name__}")
    if kernel.space != space:
        raise ParameterError(f"the kernel lives on {kernel.space.name}, not on {space.name}")
    return kernel


def universal_law(space, kernel: BumpKernel, x0, y0, v0, *, rng=None) -> InteractionLaw:
    r"""``u(x, y) = κ(x, x0) κ(y, y0) a_θ(y)``: strong at ``(x0, y0)``, ``u(x0, y0) = v0/|v0|``.

    ``θ`` comes from :meth:`IsotropicFamily.theta_for` with ``radius = r``, so ``a_θ`` is
    defined on the support ``B(y0, r)``; a radius for which no such ``θ`` exists is refused
    (:class:`laws.ZeroSetError`; docs/laws.md gives the largest radius per space).
    Part (i) of the Main Theorem (docs/conventions.md#main-theorem); the weight
    ``β(x, y) = κ(x, x0) κ(y, y0)`` has rank 1.

    Parameters
    ----------
    space : Space
        The manifold ``M``.
    kernel : BumpKernel
        The bump kernel ``κ`` on ``space``, of radius ``r``.
    x0 : array, shape ``point_shape``
        The point that acts (the key).
    y0 : array, shape ``point_shape``
        The point acted on (the query).
    v0 : array, shape ``point_shape``
        A non-zero tangent vector at ``y0``: the direction of ``u(x0, y0)``.
    rng : Generator or int, optional
        For the search of ``θ`` on projector spaces.

    Returns
    -------
    InteractionLaw
        ``u = β a_θ`` with ``β(x, y) = κ(x, x0) κ(y, y0)``.

    Raises
    ------
    TypeError
        ``space`` is not a :class:`manifolds.Space`, ``kernel`` not a
        :class:`laws.BumpKernel`, or ``rng`` not a seed or Generator.
    ParameterError
        ``kernel`` lives on another space.
    TheoremError
        ``rng`` is a negative seed.
    ZeroSetError
        No ``θ`` keeps the zero set of ``a_θ`` farther than ``r`` from ``y0``.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> from laws import BumpKernel, strength_report
    >>> s2 = Sphere(2)
    >>> law = universal_law(s2, BumpKernel(s2, 0.4), np.eye(3)[0], np.eye(3)[2], np.eye(3)[1])
    >>> law(np.eye(3)[0], np.eye(3)[2]).round(12).tolist()
    [0.0, 1.0, 0.0]
    >>> strength_report(law, np.eye(3)[0], np.eye(3)[2], rng=0).passed
    True
    """
    kernel = _kernel(space, kernel)
    rng = as_generator(rng, error=TheoremError)
    x0 = space.check_points(x0, "x0")
    y0 = space.check_points(y0, "y0")
    beta = FiniteRankWeight(KernelSum(kernel, x0[None], weights=[[1.0]]),
                            KernelSum(kernel, y0[None], weights=[[1.0]]))
    family = IsotropicFamily(space)
    return InteractionLaw(beta, family.at(family.theta_for(v0, y0, radius=kernel.radius, rng=rng)))


@dataclass(frozen=True)
class UniversalFamily:
    r"""The universal family ``I_m = {(Σ_{k<m} κ(x, x_k) κ(y, y_k)) a_θ(y)}``.

    The members are parametrized by ``m`` point pairs ``(x_k, y_k) ∈ M × M`` and ``θ``
    (:attr:`n_parameters` real numbers in all: ``2 m dim M + dim θ``); :meth:`law` builds
    one (docs/conventions.md#main-theorem).

    Parameters
    ----------
    space : Space
        The manifold ``M``.
    kernel : BumpKernel
        The bump kernel ``κ`` on ``space`` (checked: a ``TypeError`` for another type, a
        ``ParameterError`` for another space).
    m : int
        Number of products in the sum, at least 1 (else ``ParameterError``).

    Examples
    --------
    >>> from manifolds import Grassmannian
    >>> from laws import BumpKernel
    >>> gr = Grassmannian(4, 2)
    >>> UniversalFamily(gr, BumpKernel(gr, 0.3), 3).n_parameters     # 2·3·4 + 10
    34
    """

    space: object
    kernel: BumpKernel
    m: int

    def __post_init__(self):
        _kernel(self.space, self.kernel)
        object.__setattr__(self, "m", as_positive_integer(self.m, "m"))

    @property
    def n_parameters(self) -> int:
        """Real parameters of a member: ``2 m dim M + dim θ``."""
        return 2 * self.m * self.space.dim + IsotropicFamily(self.space).n_parameters

    def law(self, xs, ys, theta) -> InteractionLaw:
        """The member with point pairs ``xs, ys`` (each ``(m, *point_shape)``) and parameter ``θ``.

        ``u(x, y) = (Σ_{k<m} κ(x, x_k) κ(y, y_k)) a_θ(y)``, a weight of rank ``m``. ``θ`` is
        not checked against the supports here: where its zero set meets a ball, ``a_θ`` is
        not a unit field there.

        Parameters
        ----------
        xs : array, shape ``(m, *point_shape)``
            The points ``x_k``.
        ys : array, shape ``(m, *point_shape)``
            The points ``y_k``.
        theta : array
            The parameter of the unit field ``a_θ``
            (:meth:`laws.IsotropicFamily.theta_for` finds one).

        Returns
        -------
        InteractionLaw
            The member ``u = β a_θ``.

        Raises
        ------
        ShapeError
            ``xs`` and ``ys`` do not both have shape ``(m, *point_shape)``.

        Examples
        --------
        >>> import numpy as np
        >>> from manifolds import Sphere
        >>> from laws import BumpKernel
        >>> s2 = Sphere(2)
        >>> fam = UniversalFamily(s2, BumpKernel(s2, 0.4), 2)
        >>> e = np.eye(3)
        >>> law = fam.law(e[[0, 1]], e[[1, 2]], theta=e[0])
        >>> law(e[0], e[1]).round(12).tolist()          # κ = 1 at the pair, a_θ(e1) = e0
        [1.0, 0.0, 0.0]
        """
        xs = self.space.check_points(xs, "xs")
        ys = self.space.check_points(ys, "ys")
        nd = len(self.space.ambient_shape)
        if xs.shape != ys.shape or xs.ndim != nd + 1 or len(xs) != self.m:
            raise ShapeError(f"xs and ys must both have shape ({self.m}, *point_shape); got "
                             f"{xs.shape} and {ys.shape}")
        eye = np.eye(self.m)
        beta = FiniteRankWeight(KernelSum(self.kernel, xs, weights=eye),
                                KernelSum(self.kernel, ys, weights=eye))
        return InteractionLaw(beta, IsotropicFamily(self.space).at(theta))


def one_function_cover(digraph: AttentionDigraph, points, kernel: BumpKernel) -> FiniteRankWeight:
    r"""The one-function cover ``β(x, y) = κ(x)ᵀ M κ(y) = Σ_{(a,b)∈E} κ(x, α(a)) κ(y, α(b))``.

    ``κ(x) = (κ(x, α(v)))_v``; the features are factored through ``M = U Vᵀ`` (``r = rank_R(M)``
    columns, from the SVD), so ``β.rank`` is ``rank_R(M)``
    (docs/conventions.md#main-theorem). The embedding is not checked for admissibility here.

    Parameters
    ----------
    digraph : AttentionDigraph
    points : array, shape ``(N, *point_shape)``
        The embedding ``α``, one point of ``kernel.space`` per vertex.
    kernel : BumpKernel
        The bump kernel ``κ``; its space is the space of ``points``.

    Returns
    -------
    FiniteRankWeight
        ``β`` with features ``φ(x) = κ(x) U Σ`` and ``ψ(y) = κ(y) V`` (rank at least 1).

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``kernel`` not a
        :class:`laws.BumpKernel`.
    VertexError
        ``digraph`` has more than :data:`~theorem.covers.MAX_COVER_VERTICES` vertices.
    ShapeError
        ``points`` does not hold one point per vertex.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere
    >>> from laws import BumpKernel
    >>> from theorem.digraphs import complete_bipartite
    >>> s2 = Sphere(2)
    >>> pts = s2.projection(np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0], [0, -1, 0], [0, 0, -1], [1, 1, 1]]))
    >>> beta = one_function_cover(complete_bipartite(3, 4), pts, BumpKernel(s2, 0.3))
    >>> beta.rank, np.round(beta.matrix(pts, pts), 12).astype(int)[:3].tolist()
    (1, [[0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1]])
    """
    check_cover_size(digraph)
    if not isinstance(kernel, BumpKernel):
        raise TypeError(f"kernel must be a laws.BumpKernel, not {type(kernel).__name__}")
    space = kernel.space
    pts = space.check_points(points, "points")
    if len(pts) != digraph.n:
        raise ShapeError(f"{len(pts)} points for {digraph.n} vertices")
    m = digraph.adjacency.astype(float)
    u, s, vt = np.linalg.svd(m)
    r = int((s > s[0] * max(m.shape) * np.finfo(float).eps).sum()) if s.size and s[0] > 0 else 0
    r = max(r, 1)
    return FiniteRankWeight(KernelSum(kernel, pts, weights=u[:, :r] * s[:r]),
                            KernelSum(kernel, pts, weights=vt[:r].T))
