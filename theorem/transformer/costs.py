r"""What each way of realizing a digraph's attention costs, side by side, each construction
verified.

docs/transformer.md#the-cost-table. For one digraph on ``N`` orthonormal tokens in ``R^d``:

* **hub-feature functions** (Main Theorem part ii): ``χ_hub`` weights from a colored hub
  extension with ``n`` hubs, weight ``j`` of rank ``n_j`` — on the token set the heads of
  :func:`attention_heads` (key dimension ``n_j``), on ``S^{d−1}`` the density cover of
  :func:`~theorem.covers.density_cover` with bump kernels of radius :data:`RADIUS` (the
  tokens are ``π/2`` apart, so the balls are disjoint), verified by
  :func:`~theorem.covers.verify_density_cover`;
* **bilinear** ``K = I`` weights: ``χ'`` of them (:func:`bilinear_density_cover`), query maps
  ``d × d``, verified by :func:`verify_bilinear_cover` at the paper's strength (their maxima
  are strict, the exact strength, only where a weight has one edge);
* **one function**: rank ``rank_R(M)`` (part i's universal one-function cover), on the
  token set the single head of :func:`factored_head`.

Parameters are counted as entries of the key and query maps: ``2 d n`` for the hub heads,
``χ' d²`` for the bilinear ones (the key is the identity), ``2 d rank_R(M)`` for one head.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from laws import BumpKernel
from manifolds import Sphere

from ..covers.density_covers import MAX_COVER_VERTICES, density_cover
from ..covers.verification import VerificationReport, verify_density_cover
from ..digraphs.digraph import AttentionDigraph, check_digraph
from ..errors import TheoremError
from ..invariants.profile import InvariantProfile, invariant_profile
from ..sat.budget import anytime, deadline_after
from .bilinear import bilinear_density_cover, verify_bilinear_cover
from .heads import (DEFAULT_BETAS, AttentionHeads, HeadsReport, attention_heads, factored_head,
                    orthonormal_tokens, verify_attention_heads)

__all__ = ["HeadCosts", "head_costs", "RADIUS"]

#: Kernel radius of the hub functions' density cover: just under half the tokens' separation
#: ``π/2``, so the balls are disjoint and, even on ``S^1``, a unit field exists whose zero set
#: stays farther than the radius from every token (at ``π/4`` exactly none does on ``S^1``).
RADIUS = 0.9 * math.pi / 4


@dataclass(frozen=True, eq=False)
class HeadCosts:
    """The constructions of :func:`head_costs` for one digraph, with their verifications.

    A report is ``None`` when the time limit ran out before it was made.

    Parameters
    ----------
    digraph : AttentionDigraph
    d : int
        Token dimension.
    profile : InvariantProfile
        ``b``, ``χ_hub``, ``χ'`` and ``rank_R(M)`` with bounds and witnesses.
    hub_heads : AttentionHeads
        One head per color of ``profile.hub_chromatic.witness``.
    hub_heads_report : HeadsReport or None
    hub_functions_report : VerificationReport or None
        The density cover of the same colored hub extension on ``S^{d−1}`` (also ``None``
        for a digraph over :data:`~theorem.covers.MAX_COVER_VERTICES` vertices).
    bilinear_ranks : tuple of int
        Edges of each bilinear weight (a color class of the König coloring): ``χ'`` entries.
    bilinear_report : VerificationReport or None
    one_head : AttentionHeads
        :func:`factored_head`.
    one_head_report : HeadsReport or None
    elapsed : float
        Seconds.
    seconds : dict
        Seconds per stage: ``"invariants"``, ``"token_set"`` (checking the hub heads and
        the one head), ``"bilinear"`` (building and checking the bilinear cover),
        ``"continuum"`` (the hub functions' density cover on ``S^{d−1}``).

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite
    >>> costs = head_costs(complete_bipartite(3, 4), time_limit=30)
    >>> [row[:3] for row in costs.rows()]
    [['hub-feature functions', '1', '1 hub'], ['bilinear, K = I', '4', '3, 3, 3, 3 edges'], ['one function, rank_R(M)', '1', 'rank 1']]
    >>> costs.verified, costs.optimal, costs.bilinear_report.exact_passed
    (True, True, False)
    """

    digraph: AttentionDigraph
    d: int
    profile: InvariantProfile
    hub_heads: AttentionHeads
    hub_heads_report: HeadsReport | None
    hub_functions_report: VerificationReport | None
    bilinear_ranks: tuple
    bilinear_report: VerificationReport | None
    one_head: AttentionHeads
    one_head_report: HeadsReport | None
    elapsed: float
    seconds: dict

    def _verdicts(self) -> list[bool | None]:
        """Per construction: passed, failed, or ``None`` (not checked in time). The bilinear
        cover is judged at the paper's strength and for rank."""
        bilinear = self.bilinear_report
        return [None if r is None else r.passed
                for r in (self.hub_heads_report, self.hub_functions_report, self.one_head_report)
                ] + [None if bilinear is None else bilinear.paper_passed and bilinear.rank_passed]

    @property
    def failed(self) -> bool:
        """Whether a verification that was made failed."""
        return any(v is False for v in self._verdicts())

    @property
    def verified(self) -> bool:
        """Whether every construction was verified (the bilinear cover at the paper's
        strength and for rank); one not checked in time counts as not verified."""
        return all(v is True for v in self._verdicts())

    @property
    def optimal(self) -> bool:
        """Whether ``b``, ``χ_hub`` and ``χ'`` are proved (so the head counts are the least)."""
        return self.profile.optimal

    def rows(self) -> list[list[str]]:
        """The cost table's rows: construction, functions (heads), their ranks or key
        dimensions, parameters, verified.

        Returns
        -------
        list of list of str

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> rows = head_costs(transitive_tournament(3), time_limit=30).rows()
        >>> [r[0] for r in rows], rows[1][1], rows[1][5]
        (['hub-feature functions', 'bilinear, K = I', 'one function, rank_R(M)'], '2', "S^2 paper's strength passed, exact: no (flat maxima)")
        """
        hub = self.profile.hub_chromatic
        bound = "" if hub.optimal else f" (χ_hub ∈ [{hub.lower_bound}, {hub.upper_bound}])"
        token, continuum, one, bilinear = map(_verdict, self._verdicts())
        n_hubs = self.hub_heads.extension.n_hubs
        edges = _sizes(self.bilinear_ranks)
        exact = "" if self.bilinear_report is None else ", exact: yes"
        if self.bilinear_report is not None and not self.bilinear_report.exact_passed:
            flat = all(c.name.startswith("maxima of") for c in self.bilinear_report.exact.failures())
            exact = ", exact: no (flat maxima)" if flat else ", exact: FAILED"
        return [
            ["hub-feature functions", f"{self.hub_heads.n_heads}{bound}",
             f"{n_hubs} hub{'s' if n_hubs != 1 else ''}",
             _sizes(self.hub_heads.key_dims), str(self.hub_heads.n_parameters),
             f"token set {token}, S^{self.d - 1} {continuum}"],
            ["bilinear, K = I", str(len(self.bilinear_ranks)),
             f"{edges} edges" if self.bilinear_ranks else "-",
             f"{self.d}×{self.d}", str(len(self.bilinear_ranks) * self.d ** 2),
             f"S^{self.d - 1} paper's strength {bilinear}{exact}"],
            ["one function, rank_R(M)", "1", f"rank {self.one_head.key_dims[0]}",
             str(self.one_head.key_dims[0]), str(self.one_head.n_parameters),
             f"token set {one}"],
        ]

    def to_json(self) -> dict:
        """The table as JSON: keys ``hub_heads``, ``bilinear_heads``, ``universal_rank``,
        ``token_heads``, plus ``d``, ``digraph``, ``verified``, ``optimal``, ``elapsed``,
        ``seconds``; a verification not made in time is ``null``.

        Returns
        -------
        dict

        Examples
        --------
        >>> from theorem.digraphs import complete_bipartite
        >>> data = head_costs(complete_bipartite(3, 4), time_limit=30).to_json()
        >>> data["hub_heads"]["functions"], data["bilinear_heads"]["functions"], data["universal_rank"]["rank"]
        (1, 4, 1)
        """
        hub, one = self.hub_heads, self.one_head
        p = self.profile
        token, continuum, one_verdict, bilinear = self._verdicts()
        return {
            "digraph": {"n": self.digraph.n, "edges": self.digraph.n_edges},
            "d": self.d,
            "hub_heads": {
                "functions": hub.n_heads, "chi_hub": p.hub_chromatic.summary(),
                "hubs": hub.extension.n_hubs, "b": p.biclique_cover.summary(),
                "ranks": list(hub.key_dims), "parameters": hub.n_parameters,
                "verified": {"token_set": token, "continuum": continuum}},
            "bilinear_heads": {
                "functions": len(self.bilinear_ranks), "chi_prime": p.chromatic.summary(),
                "query_dim": self.d, "ranks": list(self.bilinear_ranks),
                "parameters": len(self.bilinear_ranks) * self.d ** 2, "verified": bilinear,
                "exact": None if self.bilinear_report is None else self.bilinear_report.exact_passed,
                "strict_maxima": all(r <= 1 for r in self.bilinear_ranks)},
            "universal_rank": {"rank": one.key_dims[0], "real_rank": p.real_rank,
                               "functions": 1, "parameters": one.n_parameters,
                               "verified": one_verdict},
            "token_heads": {
                "hub": {"heads": hub.n_heads, "key_dims": list(hub.key_dims),
                        "parameters": hub.n_parameters,
                        **_report_json(self.hub_heads_report)},
                "one_head": {"heads": 1, "key_dim": one.key_dims[0],
                             "parameters": one.n_parameters,
                             **_report_json(self.one_head_report)}},
            "verified": self.verified, "optimal": self.optimal, "elapsed": self.elapsed,
            "seconds": self.seconds,
        }


def _report_json(report: HeadsReport | None) -> dict:
    return {"passed": None} if report is None else report.to_dict()


def _sizes(values) -> str:
    """``values`` listed when at most four, else as their range: ``"1–28"``."""
    if len(values) <= 4:
        return ", ".join(map(str, values)) or "-"
    return f"{min(values)}–{max(values)}"


def _verdict(passed: bool | None) -> str:
    return "not in time" if passed is None else "passed" if passed else "FAILED"


def _token_set(report, hub, one, betas) -> None:
    report((verify_attention_heads(hub, betas=betas), verify_attention_heads(one, betas=betas)))


def _bilinear(report, digraph, d) -> None:
    cover = bilinear_density_cover(digraph, d)          # the d × d matrices stay in the child
    report((cover.ranks, verify_bilinear_cover(cover, rng=0)))


def _continuum(report, cover) -> None:
    report(verify_density_cover(cover, rng=0))


def head_costs(digraph: AttentionDigraph, *, d: int | None = None, time_limit: float = 60.0,
               betas=DEFAULT_BETAS, progress=None) -> HeadCosts:
    r"""Hub-feature heads, bilinear ``K = I`` heads and the one-function cover of ``digraph``,
    built and verified, with their sizes (module docs).

    Half of ``time_limit`` goes to the invariants
    (:func:`~theorem.invariants.invariant_profile`; an unproved ``χ_hub`` is used through its
    witness, an upper bound). The checks then run one after the other in child processes
    killed at the deadline, so the limit holds on any input: the token-set heads
    (milliseconds), the bilinear cover (one SVD a weight), the density cover of the hub
    functions on ``S^{d−1}`` (seconds at 20–30 tokens). What the time left undone is
    reported as not verified.

    Parameters
    ----------
    digraph : AttentionDigraph
    d : int, optional
        Token dimension (``≥ N``); default ``max(N, 3)``.
    time_limit : float
        Seconds for the whole.
    betas : sequence of float
        Inverse temperatures for ``ε(β)``.
    progress : callable, optional
        Called as ``progress(stage)`` before each stage (after the arguments are checked).

    Returns
    -------
    HeadCosts

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``d`` not an integer.
    HeadError
        ``d < N``.
    TheoremError
        ``time_limit`` is ``None`` or not a positive, finite number of seconds.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> costs = head_costs(transitive_tournament(3), time_limit=30)
    >>> costs.hub_heads.n_heads, len(costs.bilinear_ranks), costs.one_head.key_dims
    (2, 2, (2,))
    """
    start = time.monotonic()
    check_digraph(digraph)
    if time_limit is None:
        raise TheoremError("head_costs needs a time_limit (seconds): the checks are cut off "
                           "when it runs out")
    deadline = deadline_after(time_limit)
    d = max(digraph.n, 3) if d is None else d
    one = factored_head(digraph, d)          # checks d first
    betas = tuple(betas)
    report = progress if progress is not None else (lambda stage: None)
    seconds = {}

    def lap(stage: str, begun: float) -> float:
        now = time.monotonic()
        seconds[stage] = round(now - begun, 4)
        return now

    report("b, χ_hub, χ' and rank_R(M)")
    begun = time.monotonic()
    profile = invariant_profile(digraph, time_limit=time_limit / 2)
    begun = lap("invariants", begun)
    report("the heads on the token set")
    hub = attention_heads(digraph, profile.hub_chromatic.witness, d)
    token, _ = anytime(_token_set, deadline, hub, one, betas)
    hub_report, one_report = (None, None) if token is None else token
    begun = lap("token_set", begun)
    report("the bilinear cover")
    built, _ = anytime(_bilinear, deadline, digraph, d)
    if built is None:          # not checked in time: the sizes of the profile's König coloring
        colors = profile.chromatic.witness
        built = (tuple(int(c) for c in np.bincount(colors, minlength=profile.chromatic.value)), None)
    bilinear_ranks, bilinear_report = built
    begun = lap("bilinear", begun)
    continuum = None
    if digraph.n <= MAX_COVER_VERTICES and deadline - time.monotonic() > 0.05:
        report(f"the hub functions' density cover on S^{d - 1}")
        cover = density_cover(digraph, profile.hub_chromatic.witness,
                              orthonormal_tokens(digraph.n, d), BumpKernel(Sphere(d - 1), RADIUS),
                              rng=0, validate=False)
        continuum, _ = anytime(_continuum, deadline, cover)
    lap("continuum", begun)
    return HeadCosts(digraph, d, profile, hub, hub_report, continuum, bilinear_ranks, bilinear_report,
                     one, one_report, time.monotonic() - start, seconds)
