r"""Verification of density covers, at the paper's strength and at the exact one.

docs/conventions.md#density-covers. :func:`verify_density_cover` measures, for a :class:`DensityCover`:

* **paper's definition** — every edge ``(a, b)`` a weight claims is a strict local maximum
  of that weight at ``(α(a), α(b))``: the least decrease of ``β_j`` over sampled
  perturbations in product normal coordinates (radii ``r·(0.01, 0.03, 0.1, 0.3)``) exceeds
  the rounding floor, and the finite-difference Hessian is negative definite beyond its error
  estimate (so ``β_j`` is not constant nearby); each weight claims only edges, and the
  weights together claim every edge (:func:`claim_checks`);
* **exact** — in addition: ``β_j`` at all vertex pairs equals the indicator of its edges;
  ``0 ≤ β_j ≤ 1`` from the hypotheses (disjoint balls ``2r ≤ r0``; no pair covered by two
  hubs of one weight, ``m_j ≤ 1`` — what a valid coloring, or a biclique partition in one
  weight, guarantees; a profile bounded by 1), each checked exactly, and by sampling at, near (within ``1.2 r``)
  and between the embedded points (midpoints of vertices closer than ``2.5 r``, where
  overlapping balls make spurious maxima), all pairs of samples;
* **rank** — the numerical rank of ``β_j`` on points sampled inside the balls equals
  ``rank(A_j B_jᵀ)`` (``A_j``, ``B_j``: the ``N × n_j`` incidence of the hubs' sources and
  targets; ``β_j = κ(x)ᵀ A_j B_jᵀ κ(y)`` and the kernel vectors of such samples span
  ``R^N``), which is ``n_j``, the hubs of color ``j``, for a valid coloring (disjoint
  sides), and ``rank_R(M)`` for a biclique partition in one weight.

Every row is a :class:`laws.Check` with its value, bound and margin, and names the edge, pair
or sample that attains it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from laws import Check, Report, hessian, unit_coordinates
from manifolds.validation import as_generator, as_positive_integer

from ..errors import TheoremError
from .density_covers import DensityCover

__all__ = ["VerificationReport", "verify_density_cover", "claim_checks"]

_TOL = 1e-12


@dataclass(frozen=True)
class VerificationReport:
    """The three strengths of a density cover's verification, each a :class:`laws.Report`.

    ``paper`` (edge rows: local maximum and Hessian per edge and weight, and coverage),
    ``exact`` (values at vertex pairs, the hypotheses, sampled bounds) and ``rank``.
    ``exact_passed`` requires the paper's rows too; ``passed`` requires all three.

    Returned by :func:`verify_density_cover`; ``str(report)`` is a summary with the first
    failures.

    Parameters
    ----------
    paper : Report
        The paper's strength: local maximum and Hessian per claimed edge, and coverage.
    exact : Report
        The exact strength: values at vertex pairs, the hypotheses, sampled bounds.
    rank : Report
        The numerical rank of each weight against ``rank(A_j B_jᵀ)``.
    edges_verified : int
        Claimed edges whose local-maximum and Hessian checks both passed.
    worst_margin : float
        The least margin of the local-maximum checks (``inf`` when there are none).

    Examples
    --------
    >>> from laws import Check, Report
    >>> ok, bad = Report("p", [Check("ok", 0.0, 1.0)]), Report("e", [Check("bad", 2.0, 1.0)])
    >>> report = VerificationReport(ok, bad, ok, 3, 1.0)
    >>> report.paper_passed, report.exact_passed, report.rank_passed, report.passed
    (True, False, True, False)
    """

    paper: Report
    exact: Report
    rank: Report
    edges_verified: int
    worst_margin: float

    @property
    def paper_passed(self) -> bool:
        """Whether the paper's strength holds (every row of :attr:`paper` passes)."""
        return self.paper.passed

    @property
    def exact_passed(self) -> bool:
        """Whether the exact strength holds (the rows of :attr:`paper` and :attr:`exact`)."""
        return self.paper.passed and self.exact.passed

    @property
    def rank_passed(self) -> bool:
        """Whether every weight has the expected rank (every row of :attr:`rank` passes)."""
        return self.rank.passed

    @property
    def passed(self) -> bool:
        """Whether all three strengths hold."""
        return self.exact_passed and self.rank_passed

    def failures(self) -> list[Check]:
        """The failing checks of the three reports, paper's first, then exact, then rank.

        Returns
        -------
        list of Check
            Empty when :attr:`passed`.

        Examples
        --------
        >>> from laws import Check, Report
        >>> ok, bad = Report("p", [Check("ok", 0.0, 1.0)]), Report("e", [Check("bad", 2.0, 1.0)])
        >>> [c.name for c in VerificationReport(ok, bad, ok, 3, 1.0).failures()]
        ['bad']
        """
        return [*self.paper.failures(), *self.exact.failures(), *self.rank.failures()]

    def to_dict(self) -> dict:
        """The report as a JSON-ready dictionary.

        Returns
        -------
        dict
            The verdicts (``"passed"``, ``"paper_passed"``, ``"exact_passed"``,
            ``"rank_passed"``), ``"edges_verified"``, ``"worst_margin"`` and the three
            reports (``"paper"``, ``"exact"``, ``"rank"``, each :meth:`laws.Report.to_dict`).

        Examples
        --------
        >>> from laws import Check, Report
        >>> ok = Report("p", [Check("ok", 0.0, 1.0)])
        >>> data = VerificationReport(ok, ok, ok, 3, 1.0).to_dict()
        >>> data["passed"], data["edges_verified"], data["paper"]["checks"][0]["name"]
        (True, 3, 'ok')
        """
        return {"passed": self.passed, "paper_passed": self.paper_passed,
                "exact_passed": self.exact_passed, "rank_passed": self.rank_passed,
                "edges_verified": self.edges_verified, "worst_margin": self.worst_margin,
                "paper": self.paper.to_dict(), "exact": self.exact.to_dict(),
                "rank": self.rank.to_dict()}

    def __str__(self) -> str:
        lines = [f"paper's definition: {'passed' if self.paper_passed else 'FAILED'} "
                 f"({self.edges_verified} edge checks passed, worst margin {self.worst_margin:.3g})",
                 f"exact: {'passed' if self.exact_passed else 'FAILED'}",
                 f"rank: {'passed' if self.rank_passed else 'FAILED'}"]
        lines += [f"  failed: {c.name}: {c.value:.4g} {c.relation} {c.bound:.4g} {c.where}".rstrip()
                  for c in self.failures()[:10]]
        return "\n".join(lines)


def _flat_basis(space, base: np.ndarray) -> np.ndarray:
    basis = space.tangent_basis(base)                         # (E, dim, *pt)
    return basis.reshape(basis.shape[:2] + (-1,))


def _edge_values(cover: DensityCover, j: int, edges: np.ndarray):
    """``c ↦ β_j(exp_{α(a)}(c_x), exp_{α(b)}(c_y))`` for all edges at once: ``(..., 2dim) → (..., E)``."""
    space, points = cover.space, cover.points
    dim = space.dim
    shape = space.ambient_shape
    x0, y0 = points[edges[:, 0]], points[edges[:, 1]]
    bx, by = _flat_basis(space, x0), _flat_basis(space, y0)
    weight = cover.weights[j]

    def values(coords):
        coords = np.asarray(coords, dtype=float)
        vx = np.einsum("...k,ekp->...ep", coords[..., :dim], bx)
        vy = np.einsum("...k,ekp->...ep", coords[..., dim:], by)
        batch = vx.shape[:-1]
        x = space.unchecked_exp(vx.reshape(batch + shape), np.broadcast_to(x0, batch + shape))
        y = space.unchecked_exp(vy.reshape(batch + shape), np.broadcast_to(y0, batch + shape))
        return np.einsum("...i,...i->...", weight.phi(x), weight.psi(y))

    return values


def _samples(cover: DensityCover, gen, per_ball: int, reach: float):
    """Points within ``reach · r`` of each embedded vertex, ``(N·per_ball, *pt)``, and names."""
    space, points = cover.space, cover.points
    n = len(points)
    base = np.repeat(points, per_ball, axis=0)
    coords = unit_coordinates(space.dim, len(base), gen)
    length = np.minimum(reach * cover.radius * gen.uniform(0.0, 1.0, len(base)),
                        0.99 * space.injectivity_radius)
    v = np.einsum("nk,nk...->n...", coords * length[:, None], space.tangent_basis(base))
    names = [f"near {v_}" for v_ in np.repeat(np.arange(n), per_ball)]
    return space.unchecked_exp(v, base), names


def _midpoints(cover: DensityCover):
    """Geodesic midpoints of the vertex pairs closer than ``2.5 r``, and their names; pairs
    on each other's cut locus (no unique midpoint) are left out."""
    space, points = cover.space, cover.points
    a, b = np.triu_indices(len(points), 1)
    close = space.unchecked_dist(points[a], points[b]) < 2.5 * cover.radius
    a, b = a[close], b[close]
    v, angles = space.unchecked_log(points[b], points[a])
    unique = space.injectivity_radius - angles.max(axis=-1, initial=0.0) > 1e-12
    a, b, v = a[unique], b[unique], v[unique]
    names = [f"between {i} and {j}" for i, j in zip(a.tolist(), b.tolist())]
    return space.unchecked_exp(0.5 * v, points[a]), names


def claim_checks(digraph, claims, *, what: str = "weight") -> list[Check]:
    """The checks on what the functions of a cover claim: each claims only edges of
    ``digraph``, and together they claim every edge.

    Shared by every verification of a cover (:func:`verify_density_cover`,
    :func:`~theorem.transformer.verify_bilinear_cover`,
    :func:`~theorem.transformer.verify_attention_heads`).

    Parameters
    ----------
    digraph : AttentionDigraph
    claims : sequence of array ``(E_j, 2)``
        The edges each function claims.
    what : str
        What a function is called in the checks' names (``"weight"``, ``"head"``).

    Returns
    -------
    list of laws.Check
        ``"{what} j claims only edges"`` per function (the count of claimed non-edges, and
        the first), then ``"{what}s claim every edge"`` (the count of unclaimed edges).

    Examples
    --------
    >>> import numpy as np
    >>> from theorem.digraphs import AttentionDigraph
    >>> g = AttentionDigraph(3, [(0, 1), (0, 2)])
    >>> [(c.name, c.passed, c.where) for c in claim_checks(g, [np.array([[0, 1], [1, 2]])])]
    [('weight 0 claims only edges', False, '(1, 2) is not an edge'), ('weights claim every edge', False, 'edge (0, 2) unclaimed')]
    """
    adjacency = digraph.adjacency.astype(bool)
    claimed = np.zeros_like(adjacency)
    checks = []
    for j, edges in enumerate(claims):
        edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        outside = edges[~adjacency[edges[:, 0], edges[:, 1]]]
        checks.append(Check(f"{what} {j} claims only edges", len(outside), 0, "<=",
                            f"({outside[0, 0]}, {outside[0, 1]}) is not an edge" if len(outside)
                            else ""))
        claimed[edges[:, 0], edges[:, 1]] = True
    missing = np.argwhere(adjacency & ~claimed)
    checks.append(Check(f"{what}s claim every edge", len(missing), 0, "<=",
                        f"edge {tuple(missing[0].tolist())} unclaimed" if len(missing) else ""))
    return checks


def verify_density_cover(cover: DensityCover, rng=None, *, n_directions: int = 32,
                         per_ball: int = 4) -> VerificationReport:
    r"""Verify ``cover`` at the paper's strength, the exact one, and its ranks (module docs).

    The two strengths are those of docs/conventions.md#density-covers: the paper's (every
    claimed edge image a strict local maximum, not constant nearby, and every edge claimed)
    and the exact one (values the indicator of the edges at vertex pairs, ``0 ≤ β_j ≤ 1``
    under its hypotheses); the rank rows compare each weight's numerical rank with
    ``rank(A_j B_jᵀ)``. Every row carries its margin and names what attains it.

    Parameters
    ----------
    cover : DensityCover
    rng : Generator or int, optional
        For the sampled directions and points.
    n_directions : int
        Directions sampled in product normal coordinates around each edge image, per radius.
    per_ball : int
        Points sampled near each embedded vertex (for the bounds and the rank).

    Returns
    -------
    VerificationReport
        The three reports, with ``edges_verified`` and the worst local-maximum margin.

    Raises
    ------
    TypeError
        ``cover`` is not a :class:`DensityCover` (build one with
        :func:`construct_density_cover`), ``rng`` not a seed or Generator, or
        ``n_directions``, ``per_ball`` not integers.
    TheoremError
        ``rng`` is a negative seed, or ``n_directions``, ``per_ball`` is below 1.

    Examples
    --------
    >>> from manifolds import Sphere, admissible_embedding
    >>> from laws import BumpKernel
    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.digraphs import HubExtension
    >>> from theorem.covers import density_cover
    >>> s2 = Sphere(2)
    >>> emb = admissible_embedding(s2, 3, rng=0)
    >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    >>> cover = density_cover(transitive_tournament(3), ext, emb, BumpKernel(s2, emb.separation / 2), rng=0)
    >>> report = verify_density_cover(cover, rng=0)
    >>> report.paper_passed, report.exact_passed, report.rank_passed, report.edges_verified
    (True, True, True, 3)
    """
    if not isinstance(cover, DensityCover):
        raise TypeError(f"cover must be a DensityCover, not {type(cover).__name__}; build one "
                        "with construct_density_cover (or density_cover)")
    gen = as_generator(rng, error=TheoremError)
    n_directions = as_positive_integer(n_directions, "n_directions", error=TheoremError)
    per_ball = as_positive_integer(per_ball, "per_ball", error=TheoremError)
    space, points, r = cover.space, cover.points, cover.radius
    dim = space.dim
    eps = np.finfo(float).eps
    paper, exact, rank = [], [], []
    passed_edges, margins = set(), []

    radii = r * np.array([0.01, 0.03, 0.1, 0.3])
    for j, (weight, edges) in enumerate(zip(cover.weights, cover.claims)):
        if len(edges) == 0:
            continue
        values = _edge_values(cover, j, edges)
        center = values(np.zeros(2 * dim))                                   # (E,)
        dirs = unit_coordinates(2 * dim, n_directions, gen)
        sampled = values(radii[:, None, None] * dirs[None])                  # (R, S, E)
        decrease = (center - sampled).reshape(-1, len(edges))
        worst = decrease.min(axis=0)
        where = decrease.argmin(axis=0)
        floor = 16 * eps * np.maximum(np.abs(center), np.finfo(float).tiny)
        hess, err = hessian(values, 2 * dim, r / 100)
        top = np.linalg.eigvalsh(hess)[..., -1]
        err = np.broadcast_to(err, top.shape)
        for e, (a, b) in enumerate(edges.tolist()):
            ok_max = Check(f"edge ({a}, {b}): local maximum of β_{j}", worst[e], floor[e], ">",
                           f"radius {radii[where[e] // n_directions]:.3g}, value {center[e]:.6g}")
            ok_hess = Check(f"edge ({a}, {b}): Hessian of β_{j} negative definite", top[e], -err[e], "<",
                            f"{2 * dim}×{2 * dim}, fd error {err[e]:.1e}")
            paper += [ok_max, ok_hess]
            margins.append(ok_max.margin)
            if ok_max.passed and ok_hess.passed:
                passed_edges.add((a, b))

    paper += claim_checks(cover.digraph, cover.claims)

    # -- exact: values at vertex pairs, hypotheses, sampled bounds ---------------------------
    for j, (weight, edges) in enumerate(zip(cover.weights, cover.claims)):
        values = weight.matrix(points, points)
        target = np.zeros_like(values)
        if len(edges):
            target[edges[:, 0], edges[:, 1]] = 1.0
        gap = np.abs(values - target)
        a, b = np.unravel_index(np.argmax(gap), gap.shape)
        exact.append(Check(f"β_{j} at vertex pairs = indicator of its edges", gap[a, b], _TOL, "<=",
                           f"pair ({a}, {b}): β = {values[a, b]:.6g}, expected {target[a, b]:g}"))
    exact.append(Check("disjoint balls: 2r ≤ r0", 2 * r, cover.r0, "<=", f"r = {r:.6g}"))
    for j, weight in enumerate(cover.weights):
        multiplicity = weight.phi.weights @ weight.psi.weights.T        # m_j(a, b): hubs covering (a, b)
        a, b = np.unravel_index(np.argmax(multiplicity), multiplicity.shape)
        exact.append(Check(f"m_{j} ≤ 1: no pair covered twice by weight {j}", multiplicity[a, b], 1.0, "<=",
                           f"pair ({a}, {b}) covered by {multiplicity[a, b]:g} hubs"))
    t = np.linspace(0.0, 2.0, 4001)
    exact.append(Check("kernel profile ≤ 1", float(cover.kernel.profile(t).max()), 1.0, "<=",
                       cover.kernel.profile.name))
    near, near_names = _samples(cover, gen, per_ball, 1.2)
    mids, mid_names = _midpoints(cover)
    uniform = space.random_point(len(points), rng=gen)
    xs = np.concatenate([points, near, mids, uniform])
    names = [f"vertex {v}" for v in range(len(points))] + near_names + mid_names + ["uniform"] * len(uniform)
    for j, weight in enumerate(cover.weights):
        values = weight.matrix(xs, xs)
        i, k = np.unravel_index(np.argmax(values), values.shape)
        exact.append(Check(f"β_{j} ≤ 1 (sampled near and between vertices)", values[i, k], 1 + _TOL, "<=",
                           f"x {names[i]}, y {names[k]}"))
        i, k = np.unravel_index(np.argmin(values), values.shape)
        exact.append(Check(f"β_{j} ≥ 0 (sampled)", -values[i, k], _TOL, "<=", f"x {names[i]}, y {names[k]}"))

    # -- rank --------------------------------------------------------------------------------
    inside, _ = _samples(cover, gen, per_ball, 0.9)
    for j, (weight, n_j) in enumerate(zip(cover.weights, cover.ranks)):
        measured = weight.numerical_rank(inside, inside)
        expected = int(np.linalg.matrix_rank(weight.phi.weights @ weight.psi.weights.T))
        rank.append(Check(f"rank of β_{j} = rank(A_{j} B_{j}ᵀ) = {expected} (n_{j} = {n_j} hubs)",
                          abs(measured - expected), 0, "<=",
                          f"numerical rank {measured} on {len(inside)} points inside the balls"))

    worst_margin = float(min(margins)) if margins else float("inf")
    title = f"{cover.label} on {space.name}"
    return VerificationReport(Report(f"{title}: paper's definition", paper),
                              Report(f"{title}: exact", exact), Report(f"{title}: rank", rank),
                              len(passed_edges), worst_margin)
