r"""The self-attention dynamics of constructed heads: tokens move toward what they attend to.

docs/transformer.md#dynamics. The heads of :func:`attention_heads` (or :func:`factored_head`)
drive the SA dynamics of :mod:`laws` on ``S^{d−1}``,
``ẋ_b = P_{x_b} Σ_j Σ_a w_j[b, a] V_j x_a`` (``V_j = I``). At the tokens themselves the
velocity of ``b`` along another token ``a`` is ``⟨ẋ_b, x_a⟩ = Σ_j w_j[b, a]`` (orthonormal
tokens: the projection only removes the ``x_b`` component), so ``b`` is pulled toward each
in-neighbour ``a`` by at least ``(1 − ε)/k`` in the head that covers ``(a, b)``, and toward a
non-neighbour only by the weight that leaks (``≤ ε(β)`` a head) and by the uniform rows of the
heads in which ``b`` is idle (``1/N`` each, the same for every token; ``idle_to_self``
removes them). :func:`head_dynamics` integrates from near the tokens and measures both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from laws import Check, Report, Trajectory, integrate
from manifolds.validation import as_generator, as_nonnegative, as_positive

from ..errors import TheoremError
from .heads import AttentionHeads

__all__ = ["HeadDynamics", "head_dynamics"]


@dataclass(frozen=True, eq=False)
class HeadDynamics:
    """What :func:`head_dynamics` measured.

    Parameters
    ----------
    heads : AttentionHeads
    beta : float
        Inverse temperature.
    trajectory : Trajectory
        One system of the ``N`` tokens on ``S^{d−1}``.
    pull : ndarray ``(N, N)``
        ``pull[b, a] = ⟨ẋ_b(0), x_a⟩``: the initial velocity of token ``b`` toward token ``a``.
    drift : ndarray ``(T, N, N)``
        ``drift[t, b, a] = ⟨x_b(t) − x_b(0), x_a⟩``: how far ``b`` has moved toward token ``a``.

    Examples
    --------
    >>> from theorem.digraphs import HubExtension, transitive_tournament
    >>> from theorem.transformer import attention_heads
    >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    >>> heads = attention_heads(transitive_tournament(3), ext, 3, idle_to_self=True)
    >>> result = head_dynamics(heads, 8.0, rng=0)
    >>> result.report().passed, result.others_ratio < 0.01
    (True, True)
    """

    heads: AttentionHeads
    beta: float
    trajectory: Trajectory
    pull: np.ndarray
    drift: np.ndarray

    @property
    def attended(self) -> np.ndarray:
        """``(N, N)`` boolean, ``[b, a]``: ``(a, b) ∈ E`` (``b`` attends to ``a``)."""
        return self.heads.digraph.adjacency.astype(bool).T

    @property
    def others(self) -> np.ndarray:
        """``(N, N)`` boolean, ``[b, a]``: ``a ≠ b`` and ``b`` does not attend to ``a``."""
        return ~self.attended & ~np.eye(len(self.pull), dtype=bool)

    @property
    def separation(self) -> np.ndarray:
        """Per token ``b`` with in-neighbours: the least pull toward them minus the largest
        pull toward any other token (``(N,)``; ``nan`` where ``b`` attends to nothing, ``inf``
        where it attends to every other token)."""
        lo = np.where(self.attended, self.pull, np.inf).min(axis=1)
        hi = np.where(self.others, self.pull, -np.inf).max(axis=1)
        return np.where(self.attended.any(axis=1), lo - hi, np.nan)

    @property
    def others_ratio(self) -> float:
        """The largest pull toward a token not attended to, over the least toward one attended
        to (0 when nothing is attended or nothing else is left)."""
        lo = self.pull[self.attended].min(initial=np.inf)
        hi = self.pull[self.others].max(initial=0.0)
        return float(max(hi, 0.0) / lo) if np.isfinite(lo) and lo > 0 else 0.0

    def report(self) -> Report:
        """The checks: every token moves toward each token it attends to, faster than toward
        any other, initially and at the first recorded time.

        Returns
        -------
        laws.Report
            Three checks with their margins.

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> from theorem.transformer import factored_head
        >>> result = head_dynamics(factored_head(transitive_tournament(3), 3), 8.0, rng=0)
        >>> [c.passed for c in result.report().checks]
        [True, True, True]
        """
        attended, others = self.attended, self.others
        lo = float(self.pull[attended].min(initial=np.inf))
        where = np.argwhere(attended & (self.pull == lo))
        sep = self.separation
        worst = int(np.nanargmin(np.where(np.isnan(sep), np.inf, sep))) if attended.any() else 0
        first = self.drift[1] if len(self.drift) > 1 else self.drift[0]
        moved = (np.where(attended, first, np.inf).min(axis=1)
                 - np.where(others, first, -np.inf).max(axis=1))
        moved = np.where(attended.any(axis=1), moved, np.inf)
        late = int(np.argmin(moved))
        t1 = self.trajectory.times[min(1, len(self.trajectory.times) - 1)]
        return Report(f"SA dynamics of {self.heads.n_heads} heads at β = {self.beta:g}", [
            Check("every token is pulled toward each token it attends to", lo, 0.0, ">",
                  f"token {where[0][0]} toward {where[0][1]}" if len(where) else "no edge"),
            Check("each token is pulled toward the tokens it attends to more than toward any other",
                  float(np.nanmin(sep, initial=np.inf)) if attended.any() else np.inf, 0.0, ">",
                  f"token {worst}, others/attended pull {self.others_ratio:.3g}"),
            Check(f"at t = {t1:.3g} each token has moved further toward the tokens it attends "
                  "to than toward any other", float(moved.min(initial=np.inf)), 0.0, ">",
                  f"token {late}"),
        ])


def head_dynamics(heads: AttentionHeads, beta: float = 8.0, *, t_final: float = 0.5,
                  dt: float = 0.01, noise: float = 1e-3, rng=None) -> HeadDynamics:
    r"""Run the SA dynamics of ``heads`` from near the tokens and measure where each moves.

    The start is ``x_b(0) = (x_b + σ g_b)/‖x_b + σ g_b‖`` (``g_b`` Gaussian, ``σ = noise``);
    integration is :func:`laws.integrate` with RK4 on ``S^{d−1}``.

    Parameters
    ----------
    heads : AttentionHeads
    beta : float
        Inverse temperature ``β ≥ 0``.
    t_final, dt : float
        Horizon and step.
    noise : float
        ``σ ≥ 0``.
    rng : Generator or int, optional
        For the noise.

    Returns
    -------
    HeadDynamics

    Raises
    ------
    TypeError
        ``heads`` is not an :class:`AttentionHeads`, or ``rng`` not a seed or Generator.
    ParameterError
        ``beta`` or ``noise`` negative or not finite; ``t_final`` or ``dt`` not positive,
        or ``dt > t_final``.
    TheoremError
        ``rng`` is a negative seed.

    Examples
    --------
    >>> from theorem.digraphs import HubExtension, transitive_tournament
    >>> from theorem.transformer import attention_heads
    >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    >>> result = head_dynamics(attention_heads(transitive_tournament(3), ext, 3), 8.0, rng=0)
    >>> bool(result.pull[2, 0] > 0.9 and result.pull[2, 1] > 0.9)      # 2 attends to 0 and 1
    True
    """
    if not isinstance(heads, AttentionHeads):
        raise TypeError(f"heads must be AttentionHeads, not {type(heads).__name__}; build them "
                        "with attention_heads or factored_head")
    beta = as_nonnegative(beta, "beta")
    noise = as_nonnegative(noise, "noise")
    as_positive(t_final, "t_final")
    gen = as_generator(rng, error=TheoremError)
    tokens = heads.tokens
    x0 = tokens + noise * gen.standard_normal(tokens.shape)
    x0 /= np.linalg.norm(x0, axis=1, keepdims=True)
    velocity = heads.self_attention(beta)
    pull = velocity(x0[None])[0] @ tokens.T
    trajectory = integrate(velocity, x0[None], t_final=t_final, dt=dt, method="rk4")
    drift = (trajectory.points[:, 0] - x0) @ tokens.T
    return HeadDynamics(heads, float(beta), trajectory, pull, drift)
