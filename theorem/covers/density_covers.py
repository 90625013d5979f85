r"""Part (ii) of the Main Theorem: density covers from colored hub extensions.

docs/conventions.md#main-theorem. Given a digraph, a colored hub extension with ``n`` hubs and ``h`` colors, an
embedding ``α`` admissible for the kernel radius (pairwise distances ``r0 > r``) and a bump
kernel, color ``j`` gets the finite-rank weight

``β_j(x, y) = ⟨φ_j(x), ψ_j(y)⟩``,  ``φ_j(x)_p = Σ_{a∈A_p} κ(x, α(a))``,  ``ψ_j(y)_p = Σ_{b∈B_p} κ(y, α(b))``

over the hubs ``p`` of color ``j`` (``n_j`` features), and the law ``u_j = β_j a_θ``. With
disjoint balls (``2r ≤ r0``) and a valid coloring, ``β_j`` equals ``1`` at the images of the
color-``j`` edges and ``0`` at every other vertex pair, lies in ``[0, 1]``, and has a strict
local maximum at each of its edges; :func:`verify_density_cover` checks all of it.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace

import numpy as np

from laws import BumpKernel, FiniteRankWeight, InteractionLaw, IsotropicFamily, KernelSum, ZeroSetError
from manifolds import (Embedding, NotAdmissibleError, ShapeError, Space, admissible_embedding,
                       as_generator, as_positive, check_admissible)

from ..digraphs.digraph import AttentionDigraph, check_digraph
from ..digraphs.hubs import HubExtension
from ..digraphs.trim import Trimmed
from ..errors import InvalidColoringError, InvalidHubExtensionError, TheoremError, VertexError
from ..invariants.pareto import ParetoFront, hub_pareto_front

__all__ = ["DensityCover", "density_cover", "construct_density_cover", "partition_cover",
           "product_cover", "check_cover_size", "MAX_COVER_VERTICES"]

#: The most vertices of a digraph a density cover is built for, ``2^10`` (1,024). Every
#: vertex is embedded, isolated ones included, and the costs grow as ``N²``: the embedding
#: search and its check compare all pairs of points, and :func:`verify_density_cover`
#: evaluates each weight on all pairs of about ``(2 + per_ball) N`` sample points — measured
#: at 0.8 GiB and half a minute for ``N = 600`` (``per_ball = 4``), so about 2.5 GiB and a
#: minute and a half at this limit.
MAX_COVER_VERTICES = 2 ** 10


def check_cover_size(digraph: AttentionDigraph) -> None:
    """Check that ``digraph`` is small enough for a density cover: at most
    :data:`MAX_COVER_VERTICES` vertices.

    Every function of :mod:`theorem.covers` that embeds a digraph checks this first, before
    an embedding is searched for; a caller that embeds the vertices itself
    (:func:`manifolds.admissible_embedding`) checks it first too.

    Parameters
    ----------
    digraph : AttentionDigraph

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`.
    VertexError
        ``digraph`` has more than :data:`MAX_COVER_VERTICES` vertices (the message says
        why, and how to drop isolated vertices).

    Examples
    --------
    >>> check_cover_size(AttentionDigraph(3, [(0, 1)]))
    >>> check_cover_size(AttentionDigraph(100_000, [(0, 1), (5, 99_999)]))
    Traceback (most recent call last):
    ...
    theorem.errors.VertexError: the digraph has 100000 vertices, above the limit of 1024 (MAX_COVER_VERTICES) for density covers: every vertex is embedded, and the embedding and the verification cost N² (about 2.5 GiB at the limit); drop isolated vertices (Trimmed.of(digraph).digraph has 4) or cover a smaller digraph
    """
    check_digraph(digraph)
    if digraph.n > MAX_COVER_VERTICES:
        raise VertexError(
            f"the digraph has {digraph.n} vertices, above the limit of {MAX_COVER_VERTICES} "
            "(MAX_COVER_VERTICES) for density covers: every vertex is embedded, and the "
            "embedding and the verification cost N² (about 2.5 GiB at the limit); drop "
            f"isolated vertices (Trimmed.of(digraph).digraph has {Trimmed.of(digraph).digraph.n}"
            ") or cover a smaller digraph")


def _check_kernel(kernel) -> None:
    """``TypeError`` unless ``kernel`` is a :class:`laws.BumpKernel`."""
    if not isinstance(kernel, BumpKernel):
        raise TypeError(f"kernel must be a laws.BumpKernel, not {type(kernel).__name__}")


@dataclass(frozen=True, eq=False)
class DensityCover:
    """Finite-rank weights ``β_j`` (one per color) and laws ``u_j = β_j a_θ`` covering a digraph.

    Built by :func:`density_cover`, :func:`construct_density_cover`, :func:`partition_cover`
    or :func:`product_cover`, and checked by :func:`verify_density_cover` at the two strengths
    of docs/conventions.md#density-covers.

    Parameters
    ----------
    digraph : AttentionDigraph
    extension : HubExtension or None
        The colored hub extension it was built from (``None`` for a control).
    points : ndarray ``(N, *point_shape)``
        The embedding ``α``.
    kernel : BumpKernel
    weights, laws : tuple
        ``β_j`` and ``u_j`` per color ``j``.
    claims : tuple of ndarray
        ``(E_j, 2)`` edges of each weight (the edges its hubs cover).
    ranks : tuple of int
        ``n_j``, hubs of color ``j`` (the rank each weight must have).
    theta : ndarray
        The parameter of the unit field (one for all colors).
    r0 : float
        The embedding's separation: it is admissible for every kernel radius below it.
    label : str
        What was built (``"colored hub extension"``, or a control's name).
    info : dict
        How it was built (invariants proved or not, radius choice, times).

    Examples
    --------
    >>> from manifolds import Sphere, admissible_embedding
    >>> from laws import BumpKernel
    >>> from theorem.digraphs import transitive_tournament
    >>> s2 = Sphere(2)
    >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    >>> emb = admissible_embedding(s2, 3, rng=0)
    >>> cover = density_cover(transitive_tournament(3), ext, emb, BumpKernel(s2, emb.separation / 2), rng=0)
    >>> cover.n_hubs, cover.n_colors, cover.points.shape, cover.label
    (2, 2, (3, 3), 'colored hub extension')
    """

    digraph: AttentionDigraph
    extension: HubExtension | None
    points: np.ndarray
    kernel: BumpKernel
    weights: tuple
    laws: tuple
    claims: tuple
    ranks: tuple
    theta: np.ndarray
    r0: float
    label: str = "colored hub extension"
    info: dict = field(default_factory=dict)

    @property
    def space(self):
        """The space of the embedding, ``kernel.space``."""
        return self.kernel.space

    @property
    def radius(self) -> float:
        """The kernel radius ``r``, ``kernel.radius``."""
        return self.kernel.radius

    @property
    def disjoint_balls(self) -> bool:
        """``2r ≤ r0``: the balls around embedded vertices are disjoint (the exact statements)."""
        return 2 * self.radius <= self.r0

    @property
    def n_hubs(self) -> int:
        """Total number of hubs ``n = Σ_j n_j``, the total rank of the weights."""
        return int(sum(self.ranks))

    @property
    def n_colors(self) -> int:
        """Number of weights (colors) ``h``."""
        return len(self.weights)


def _embedding(digraph: AttentionDigraph, embedding, space, radius: float = 0.0) -> Embedding:
    """``embedding`` (an :class:`Embedding` or an array) checked: one point of ``space`` per
    vertex, pairwise distances above ``radius`` (the kernel radius, when one is fixed)."""
    points = embedding.points if isinstance(embedding, Embedding) else embedding
    points = space.check_points(points, "embedding")
    if points.ndim != len(space.ambient_shape) + 1 or len(points) != digraph.n:
        raise ShapeError(f"the embedding has shape {points.shape}; give one point of "
                         f"{space.name} per vertex ({digraph.n})")
    try:
        return check_admissible(points, space, r0=radius)
    except NotAdmissibleError as exc:
        raise NotAdmissibleError(
            f"{exc}; the kernel radius r = {radius:g} needs an embedding admissible for "
            "some r0 > r (pairwise distances above r): lower the radius or spread the points"
        ) from None


#: How many random parameters ``θ`` :func:`_theta` compares, in each of its rounds.
_THETA_DRAWS = 256

#: Rounds of local refinement :func:`_theta` makes when no random ``θ`` clears the radius.
_THETA_ROUNDS = 12


def _theta(space, points: np.ndarray, radius: float, rng) -> np.ndarray:
    """The ``θ`` whose zero set is farthest from the embedded points, among
    :data:`_THETA_DRAWS` random ones (Gaussian in the ambient space, symmetric matrices on the
    projector spaces), by :meth:`IsotropicFamily.clearance`. When none clears ``radius``, up
    to :data:`_THETA_ROUNDS` rounds of as many perturbations of the best so far (a Gaussian
    step of a third of its norm, shrinking by 0.7 a round) refine it; :class:`ZeroSetError`
    when even the refined one is within ``radius`` of a point. (A density cover needs no
    particular field, only one defined on every ball.)"""
    gen = as_generator(rng)
    draws = gen.standard_normal((_THETA_DRAWS, *space.ambient_shape))
    if draws.ndim == 3:
        draws = draws + np.swapaxes(draws, 1, 2)
    if not len(points):     # no vertex (N = 0): nothing to avoid, any θ will do
        return draws[0]
    family = IsotropicFamily(space)
    clearance = family.clearance(draws, points)
    best = int(np.argmax(clearance))
    theta, reach = draws[best], clearance[best]
    step = np.linalg.norm(theta) / 3
    for _ in range(_THETA_ROUNDS):
        if reach > radius:
            break
        noise = gen.standard_normal((_THETA_DRAWS, *space.ambient_shape))
        if noise.ndim == 3:
            noise = (noise + np.swapaxes(noise, 1, 2)) / np.sqrt(2)
        candidates = theta + step * noise / np.sqrt(noise[0].size)
        clearance = family.clearance(candidates, points)
        best = int(np.argmax(clearance))
        if clearance[best] > reach:
            theta, reach = candidates[best], clearance[best]
        step *= 0.7
    if not reach > radius:
        raise ZeroSetError(
            f"the zero set of every one of {_THETA_DRAWS} random fields, refined "
            f"{_THETA_ROUNDS} times, comes within {reach:.4g} of an embedded vertex, inside "
            f"the kernel radius {radius:g}; lower the radius")
    return theta


def _build(digraph, ext_sides, points, kernel, theta, r0, ext, label, info):
    """Weights, laws and claims from per-weight hub sides ``[(A_list, B_list), ...]``."""
    n = digraph.n
    field_ = IsotropicFamily(kernel.space).at(theta)
    weights, laws, claims, ranks = [], [], [], []
    for sources, targets in ext_sides:
        a = np.zeros((n, len(sources)))
        b = np.zeros((n, len(targets)))
        for p, (src, tgt) in enumerate(zip(sources, targets)):
            a[sorted(src), p] = 1.0
            b[sorted(tgt), p] = 1.0
        beta = FiniteRankWeight(KernelSum(kernel, points, weights=a), KernelSum(kernel, points, weights=b))
        weights.append(beta)
        laws.append(InteractionLaw(beta, field_))
        claims.append(np.argwhere(a @ b.T > 0))
        ranks.append(len(sources))
    return DensityCover(digraph, ext, points, kernel, tuple(weights), tuple(laws), tuple(claims),
                        tuple(ranks), theta, r0, label, info)


def density_cover(digraph: AttentionDigraph, extension: HubExtension, embedding, kernel: BumpKernel,
                  *, rng=None, theta=None, validate: bool = True) -> DensityCover:
    r"""The density cover of part (ii): one finite-rank weight and law per color.

    Parameters
    ----------
    digraph : AttentionDigraph
    extension : HubExtension
        A *colored* hub extension of ``digraph`` (checked: axiom 1 exactly, the coloring).
    embedding : Embedding or array ``(N, *point_shape)``
        Must be admissible for the kernel radius: pairwise distances ``> r`` (else
        :class:`NotAdmissibleError`). The exact statements need ``2r ≤ r0``
        (:attr:`DensityCover.disjoint_balls`), which is recorded, not required.
    kernel : BumpKernel
    rng : optional
        For the choice of ``θ`` (one for all colors: its zero set is kept farther than ``r``
        from every embedded vertex, so every ``a_θ`` is defined on every ball).
    theta : array, optional
        Reuse a parameter (checked: its zero set must be farther than ``r`` from every
        embedded vertex, else :class:`laws.ZeroSetError`).
    validate : bool
        ``False`` builds the cover from an invalid coloring anyway — only for negative
        controls: the verification then fails exactness and names the edge.

    Returns
    -------
    DensityCover
        One weight ``β_j`` and law ``u_j`` per color, by increasing color; ``ranks[j] = n_j``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, ``extension`` not a
        :class:`HubExtension`, ``kernel`` not a :class:`laws.BumpKernel`, or ``rng`` not a
        seed or Generator.
    VertexError
        ``digraph`` has more than :data:`MAX_COVER_VERTICES` vertices.
    TheoremError
        ``rng`` is a negative seed.
    InvalidColoringError
        ``extension`` has hubs but no colors, or (when ``validate``) an invalid coloring.
    InvalidHubExtensionError
        (when ``validate``) ``extension`` does not cover ``E`` exactly.
    NotAdmissibleError
        The embedding has two points within the kernel radius.
    ZeroSetError
        The given ``theta`` has its zero set within ``r`` of an embedded vertex, or no
        ``θ`` avoiding the balls was found.

    Examples
    --------
    >>> from manifolds import Sphere, admissible_embedding
    >>> from laws import BumpKernel
    >>> from theorem.digraphs import transitive_tournament
    >>> s2 = Sphere(2)
    >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    >>> emb = admissible_embedding(s2, 3, rng=0)
    >>> cover = density_cover(transitive_tournament(3), ext, emb, BumpKernel(s2, emb.separation / 2), rng=0)
    >>> cover.ranks, cover.disjoint_balls, [c.tolist() for c in cover.claims]
    ((1, 1), True, [[[0, 1], [0, 2]], [[1, 2]]])
    """
    check_cover_size(digraph)
    if not isinstance(extension, HubExtension):
        raise TypeError(f"extension must be a HubExtension, not {type(extension).__name__}")
    _check_kernel(kernel)
    rng = as_generator(rng, error=TheoremError)
    if extension.colors is None and extension.n_hubs:
        raise InvalidColoringError("the hub extension has no colors; density covers need a colored "
                                   "hub extension (HubExtension(..., colors=[...]))")
    if validate:
        extension.validate(digraph)
    emb = _embedding(digraph, embedding, kernel.space, kernel.radius)
    if theta is not None:
        _check_theta(theta, emb.points, kernel)
    return _colored_cover(digraph, extension, emb, kernel, theta, rng)


def _check_theta(theta, points: np.ndarray, kernel: BumpKernel) -> None:
    """Raise :class:`laws.ZeroSetError` unless the zero set of ``a_θ`` is farther than the
    kernel radius from every point."""
    gap = float(IsotropicFamily(kernel.space).zero_set_distance(theta, points).min(
        initial=np.inf))                # no points: nothing to avoid
    if not gap > kernel.radius:
        raise ZeroSetError(f"the given θ has its zero set {gap:.4g} from an embedded vertex, "
                           f"within the kernel radius {kernel.radius:g}; let density_cover choose θ")


def _colored_cover(digraph: AttentionDigraph, extension: HubExtension, emb: Embedding,
                   kernel: BumpKernel, theta, rng) -> DensityCover:
    """The cover of :func:`density_cover`, trusting its caller (docs/conventions.md#validation):
    ``extension`` is a validated colored hub extension of ``digraph``, ``emb`` is admissible
    for ``kernel.radius`` and ``theta``, when given, keeps its zero set off the balls."""
    if theta is None:
        theta = _theta(kernel.space, emb.points, kernel.radius, rng)
    colors = sorted(set(extension.colors or ()))   # no hubs (no edges): no weights
    sides = []
    for c in colors:
        hubs = [p for p in range(extension.n_hubs) if extension.colors[p] == c]
        sides.append(([extension.sources[p] for p in hubs], [extension.targets[p] for p in hubs]))
    return _build(digraph, sides, emb.points, kernel, theta, emb.separation, extension,
                  "colored hub extension", {"colors": colors})


def partition_cover(digraph: AttentionDigraph, extension: HubExtension, embedding, kernel: BumpKernel,
                    *, rng=None) -> DensityCover:
    r"""One weight for all hubs of an edge-disjoint hub extension (a biclique partition).

    docs/conventions.md#density-covers: edge-disjoint hubs need no colors — every pair is covered at most once, so
    ``β = Σ_p φ_p ψ_p`` is exact with rank ``n``. Raises :class:`InvalidHubExtensionError`
    when the extension is not exact or two hubs share an edge.

    Parameters
    ----------
    digraph : AttentionDigraph
    extension : HubExtension
        A hub extension of ``digraph`` whose bicliques are edge-disjoint; colors, if any, are
        ignored.
    embedding : Embedding or array ``(N, *point_shape)``
        Admissible for the kernel radius (pairwise distances ``> r``).
    kernel : BumpKernel
    rng : optional
        For the choice of ``θ``.

    Returns
    -------
    DensityCover
        One weight of rank ``n`` (``ranks == (n,)``), labelled
        ``"biclique partition in one weight"``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, ``extension`` not a
        :class:`HubExtension`, ``kernel`` not a :class:`laws.BumpKernel`, or ``rng`` not a
        seed or Generator.
    VertexError
        ``digraph`` has more than :data:`MAX_COVER_VERTICES` vertices.
    TheoremError
        ``rng`` is a negative seed.
    InvalidHubExtensionError
        ``extension`` does not cover ``E`` exactly, or two hubs cover one edge.
    NotAdmissibleError
        The embedding has two points within the kernel radius.

    Examples
    --------
    >>> from manifolds import Sphere, admissible_embedding
    >>> from laws import BumpKernel
    >>> from theorem.digraphs import transitive_tournament
    >>> s2 = Sphere(2)
    >>> emb = admissible_embedding(s2, 3, rng=0)
    >>> stars = HubExtension([({0}, {1, 2}), ({1}, {2})])
    >>> partition_cover(transitive_tournament(3), stars, emb, BumpKernel(s2, 0.5), rng=0).ranks
    (2,)
    """
    check_cover_size(digraph)
    if not isinstance(extension, HubExtension):
        raise TypeError(f"extension must be a HubExtension, not {type(extension).__name__}")
    _check_kernel(kernel)
    rng = as_generator(rng, error=TheoremError)
    HubExtension(extension.hubs).validate(digraph)
    s, t = extension.incidence(digraph.n)
    twice = np.argwhere(s.T.astype(int) @ t.astype(int) > 1)
    if len(twice):
        a, b = map(int, twice[0])
        raise InvalidHubExtensionError(f"edge ({a}, {b}) is covered by two hubs; a partition "
                                       "covers each edge once (color the hubs and use density_cover)")
    emb = _embedding(digraph, embedding, kernel.space, kernel.radius)
    theta = _theta(kernel.space, emb.points, kernel.radius, rng)
    return _build(digraph, [(extension.sources, extension.targets)], emb.points, kernel, theta,
                  emb.separation, extension, "biclique partition in one weight", {})


def product_cover(digraph: AttentionDigraph, embedding, kernel: BumpKernel, *, rng=None) -> DensityCover:
    r"""The rank-1 control ``β(x, y) = (Σ_a κ(x, α(a))) (Σ_b κ(y, α(b)))`` over all vertices.

    Every edge image is a strict local maximum (the paper's definition holds for every
    digraph), but ``β = 1`` at every vertex pair, edges or not: it must fail exactness
    (docs/conventions.md#density-covers). It claims the edges of ``digraph``.

    Parameters
    ----------
    digraph : AttentionDigraph
    embedding : Embedding or array ``(N, *point_shape)``
        Admissible for the kernel radius (pairwise distances ``> r``).
    kernel : BumpKernel
    rng : optional
        For the choice of ``θ``.

    Returns
    -------
    DensityCover
        One rank-1 weight, ``extension=None``, labelled as a control.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, ``kernel`` not a
        :class:`laws.BumpKernel`, or ``rng`` not a seed or Generator.
    VertexError
        ``digraph`` has more than :data:`MAX_COVER_VERTICES` vertices.
    TheoremError
        ``rng`` is a negative seed.
    NotAdmissibleError
        The embedding has two points within the kernel radius.

    Examples
    --------
    >>> import numpy as np
    >>> from manifolds import Sphere, admissible_embedding
    >>> from laws import BumpKernel
    >>> from theorem.digraphs import transitive_tournament
    >>> s2 = Sphere(2)
    >>> emb = admissible_embedding(s2, 3, rng=0)
    >>> cover = product_cover(transitive_tournament(3), emb, BumpKernel(s2, emb.separation / 2), rng=0)
    >>> cover.ranks, np.round(cover.weights[0].matrix(emb.points, emb.points), 12).tolist()
    ((1,), [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    """
    check_cover_size(digraph)
    _check_kernel(kernel)
    rng = as_generator(rng, error=TheoremError)
    emb = _embedding(digraph, embedding, kernel.space, kernel.radius)
    theta = _theta(kernel.space, emb.points, kernel.radius, rng)
    everyone = frozenset(range(digraph.n))
    cover = _build(digraph, [([everyone], [everyone])], emb.points, kernel, theta, emb.separation,
                   None, "rank-1 product of bump sums (control)", {})
    # it claims the edges (its hubs would claim every pair, loops included)
    return replace(cover, claims=(np.asarray(digraph.edges).reshape(-1, 2),))


def construct_density_cover(digraph: AttentionDigraph, space, objective: str = "hubs", *, rng=None,
                      time_limit: float | None = 10.0, embedding=None, front=None,
                      theta=None, radius: float | None = None):
    r"""The whole pipeline: invariants, a witness extension, an embedding, a kernel radius.

    ``objective``: ``"hubs"`` (fewest hubs ``n = b``, then fewest colors for it), ``"colors"``
    (fewest colors ``h = χ_hub``, then fewest hubs for it) or ``"pareto"`` (one cover per
    point of :func:`hub_pareto_front`; returns a list). The solves share ``time_limit``;
    an extension not proved fewest is still used, and ``info["proved"]`` says so.
    ``embedding`` (an :class:`Embedding`), ``front`` (a :class:`ParetoFront` of this
    digraph), and ``theta`` with ``radius`` (of an earlier cover on this embedding) may be
    passed to reuse them.

    The embedding is :func:`admissible_embedding` of ``N`` points; the kernel radius is
    ``r = r0/2`` (disjoint balls), lowered by factors ``0.8`` until a unit field avoiding all
    balls exists. All covers of one call share the radius and ``θ``.

    Parameters
    ----------
    digraph : AttentionDigraph
    space : Space
        Where to embed the vertices (docs/conventions.md#spaces-and-metrics).
    objective : {"hubs", "colors", "pareto"}
        Which point of the Pareto front to build (``"pareto"``: all of them).
    rng : Generator or int, optional
        For the embedding and ``θ``.
    time_limit : float, optional
        Seconds shared by the solves (10 by default; ``None`` for no limit).
    embedding : Embedding, optional
        An embedding to reuse (checked: one point per vertex, admissible for ``radius``).
    front : ParetoFront, optional
        The front of this digraph, already computed (its witnesses are validated).
    theta : array, optional
        The unit field's parameter of an earlier cover, with ``radius`` (checked: its zero
        set must stay farther than ``radius`` from every embedded vertex).
    radius : float, optional
        The kernel radius to use, instead of ``r0/2`` lowered until a field exists.

    Returns
    -------
    DensityCover or list of DensityCover
        One cover, or one per point of the front for ``objective="pareto"``;
        ``info["proved"]`` says whether its hub and color counts are proved.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, ``space`` not a
        :class:`manifolds.Space`, ``front`` not a :class:`ParetoFront`, or ``rng`` not a
        seed or Generator.
    VertexError
        ``digraph`` has more than :data:`MAX_COVER_VERTICES` vertices (checked before any
        solve or embedding).
    TheoremError
        ``objective`` is unknown, ``theta`` comes without ``radius``, ``radius`` is not
        positive, ``rng`` is a negative seed, or ``front`` is not a front of this digraph.
    NotAdmissibleError
        ``embedding`` is not admissible for ``radius``.
    ZeroSetError
        ``theta`` has its zero set within ``radius`` of a vertex, or no unit field avoids
        the balls.

    Examples
    --------
    >>> from manifolds import ProjectiveSpace
    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.covers import verify_density_cover
    >>> cover = construct_density_cover(transitive_tournament(3), ProjectiveSpace(2), "colors", rng=0)
    >>> cover.n_hubs, cover.n_colors, cover.info["proved"], verify_density_cover(cover, rng=0).passed
    (2, 2, True, True)
    """
    # every argument is checked here, once; the steps below trust it (conventions#validation)
    check_cover_size(digraph)
    if not isinstance(space, Space):
        raise TypeError(f"space must be a manifolds.Space, not {type(space).__name__}")
    if objective not in ("hubs", "colors", "pareto"):
        raise TheoremError(f"objective must be 'hubs', 'colors' or 'pareto', got {objective!r}")
    if theta is not None and radius is None:
        raise TheoremError("theta was given without radius; pass both (an earlier cover's "
                           "cover.theta and cover.radius) or neither")
    if radius is not None:
        radius = as_positive(radius, "radius", error=TheoremError)
    gen = as_generator(rng, error=TheoremError)
    if embedding is not None:
        embedding = _embedding(digraph, embedding, space, 0.0 if radius is None else radius)
        if theta is not None:
            _check_theta(theta, embedding.points, BumpKernel(space, radius))
    if front is None:
        front = hub_pareto_front(digraph, time_limit=time_limit)
    elif not isinstance(front, ParetoFront):
        raise TypeError(f"front must be a ParetoFront, not {type(front).__name__}")
    else:
        try:
            for point in front.points:
                point.witness.validate(digraph)
        except TheoremError as exc:
            raise TheoremError(f"front is not a Pareto front of this digraph: {exc}") from None
    chosen = {"hubs": [front.points[-1]], "colors": [front.points[0]], "pareto": front.points}[objective]
    if embedding is None:
        embedding = admissible_embedding(space, digraph.n, rng=gen)
        if theta is not None:
            _check_theta(theta, embedding.points, BumpKernel(space, radius))
    covers = []
    for point in chosen:
        cover = _cover_with_radius(digraph, point.witness, embedding, space, gen, theta, radius)
        theta, radius = cover.theta, cover.radius
        proved = bool(point.optimal and (front.complete or point is front.points[0]))
        cover.info.update({"objective": objective, "hubs": point.hubs, "colors": point.colors,
                           "proved": proved})
        covers.append(cover)
    return covers if objective == "pareto" else covers[0]


def density_cover_for(*args, **kwargs):
    """Deprecated alias of :func:`construct_density_cover` (the name said less than the
    function does); it will be removed in the next release.

    Emits a ``DeprecationWarning``, then calls :func:`construct_density_cover` with the same
    arguments.

    Parameters
    ----------
    *args
        Passed on to :func:`construct_density_cover`.
    **kwargs
        Passed on to :func:`construct_density_cover`.

    Returns
    -------
    DensityCover or list of DensityCover
        What :func:`construct_density_cover` returns.

    Examples
    --------
    >>> import warnings
    >>> from manifolds import Sphere
    >>> from theorem.digraphs import transitive_tournament
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     cover = density_cover_for(transitive_tournament(3), Sphere(2), rng=0)
    >>> caught[0].category.__name__, cover.n_hubs
    ('DeprecationWarning', 2)
    """
    warnings.warn("density_cover_for is deprecated; use construct_density_cover",
                  DeprecationWarning, stacklevel=2)
    return construct_density_cover(*args, **kwargs)


def _cover_with_radius(digraph, extension, emb, space, gen, theta=None, radius=None) -> DensityCover:
    """The cover of a validated ``extension`` on an admissible ``emb``, at ``radius`` (with
    ``theta``, both checked by the caller) or at the largest radius ``≤ r0/2`` at which a
    unit field avoiding the balls is found."""
    if radius is not None:
        return _colored_cover(digraph, extension, emb, BumpKernel(space, radius), theta, gen)
    r = min(emb.separation / 2, 0.99 * space.injectivity_radius)
    for _ in range(12):
        try:
            return _colored_cover(digraph, extension, emb, BumpKernel(space, r), None, gen)
        except ZeroSetError:
            r *= 0.8
    raise ZeroSetError(f"no unit field avoids the balls even at radius {r / 0.8:.3g}")
