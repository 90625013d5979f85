r"""Section 3 on the token set: attention heads whose logits are a digraph's edges.

docs/conventions.md#section-3-two-notions. The tokens are an orthonormal
family ``x_0..x_{N−1}`` in ``R^d`` (``d ≥ N``), the rows of ``X`` with ``X Xᵀ = I_N``. A
head has linear key and query maps ``K_j, Q_j : R^d → R^{n_j}`` (``n_j`` its key
dimension) and a value matrix ``V_j``; query ``b`` gives key ``a`` the logit
``⟨Q_j x_b, K_j x_a⟩`` (the project's edge direction: ``(a, b) ∈ E`` means ``b`` attends to
``a``) and the weight ``softmax_a(β ⟨Q_j x_b, K_j x_a⟩)`` at inverse temperature ``β``.

* From a **colored hub extension** (:func:`attention_heads`): one head per color ``j``, with
  ``K_j = S_j X`` and ``Q_j = T_j X``, where ``S_j, T_j`` are the ``n_j × N`` source and
  target incidences of the hubs of color ``j``. The logit is ``m_j(a, b)``, the number of
  color-``j`` hubs covering ``(a, b)``, which a valid coloring makes exactly the indicator of
  the color-``j`` edges; key dimension ``n_j``.
* One head from a **real factorization** ``M = U Σ Vᵀ`` (:func:`factored_head`):
  ``K = (U Σ^{1/2})ᵀ X`` and ``Q = (V Σ^{1/2})ᵀ X`` give the logits ``M[a, b]`` in one head of
  key dimension ``rank_R(M)``: on the token set one head realizes every digraph, so the
  discrete notion forces neither ``χ'`` nor ``χ_hub`` heads.

:func:`verify_attention_heads` checks the logits against the indicators, that the heads'
supports together are ``E``, and measures ``ε(β)``, the weight a query puts outside its
in-neighbours, against its closed-form bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from laws import Check, Report, SelfAttention
from manifolds.validation import as_generator, as_integer, as_nonnegative

from ..covers.verification import claim_checks
from ..digraphs.digraph import AttentionDigraph, check_digraph
from ..digraphs.hubs import HubExtension
from ..errors import HeadError, InvalidColoringError, TheoremError

__all__ = ["AttentionHeads", "HeadsReport", "attention_heads", "factored_head",
           "orthonormal_tokens", "verify_attention_heads", "DEFAULT_BETAS"]

#: The inverse temperatures :func:`verify_attention_heads` measures ``ε(β)`` at.
DEFAULT_BETAS = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)

#: Largest error a logit may have: logits are 0 or 1, so this is far from both the
#: rounding of ``K x`` and ``Q x`` (``~1e-15 · N``) and from the gap between the two values.
LOGIT_TOL = 1e-9


def orthonormal_tokens(n: int, d: int, *, rng=None) -> np.ndarray:
    """``n`` orthonormal tokens in ``R^d``: the rows of an ``(n, d)`` matrix ``X`` with
    ``X Xᵀ = I``.

    Without ``rng`` they are the first ``n`` standard basis vectors (exact); with one, a
    uniformly random orthonormal frame (QR of a Gaussian matrix, signs fixed by ``R``'s
    diagonal), which shows that nothing below depends on the basis.

    Parameters
    ----------
    n : int
        Number of tokens ``N ≥ 0``.
    d : int
        Token dimension, at least ``n``.
    rng : Generator or int, optional
        Seed or Generator for a random frame; ``None`` gives the standard basis.

    Returns
    -------
    numpy.ndarray
        ``(n, d)`` float array with orthonormal rows.

    Raises
    ------
    TypeError
        ``n`` or ``d`` is not an integer, or ``rng`` not a seed or Generator.
    HeadError
        ``d < n``: ``n`` orthonormal vectors need ``d ≥ n`` (or ``n``, ``d`` negative).

    Examples
    --------
    >>> orthonormal_tokens(2, 3).tolist()
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    >>> x = orthonormal_tokens(3, 5, rng=0)
    >>> bool(np.allclose(x @ x.T, np.eye(3), atol=1e-14))
    True
    >>> orthonormal_tokens(4, 3)
    Traceback (most recent call last):
        ...
    theorem.errors.HeadError: 4 orthonormal tokens need a token dimension d ≥ 4, got d = 3; raise d to at least the number of vertices
    """
    n = as_integer(n, "n", minimum=0, error=HeadError)
    d = as_integer(d, "d", minimum=0, error=HeadError)
    if d < n:
        raise HeadError(f"{n} orthonormal tokens need a token dimension d ≥ {n}, got d = {d}; "
                        "raise d to at least the number of vertices")
    if rng is None:
        return np.eye(n, d)
    q, r = np.linalg.qr(as_generator(rng, error=TheoremError).standard_normal((d, n)))
    return (q * np.where(np.diag(r) < 0, -1.0, 1.0)).T


@dataclass(frozen=True, eq=False)
class AttentionHeads:
    """Attention heads on orthonormal tokens, each claiming the edges its logits mark.

    Built by :func:`attention_heads` (one head per color of a colored hub extension) or
    :func:`factored_head` (one head, key dimension ``rank_R(M)``), checked by
    :func:`verify_attention_heads`.

    Parameters
    ----------
    digraph : AttentionDigraph
    tokens : ndarray ``(N, d)``
        Orthonormal rows ``x_v``.
    keys, queries : tuple of ndarray ``(n_j, d)``
        ``K_j`` and ``Q_j`` per head.
    values : tuple of ndarray ``(d, d)``
        ``V_j`` per head (the identity here: a head moves a token toward those it attends to).
    claims : tuple of ndarray ``(E_j, 2)``
        The edges each head's logits mark.
    label : str
        What was built.
    extension : HubExtension or None
        The colored hub extension the heads come from (``None`` for :func:`factored_head`).
    idle_to_self : bool
        Whether a query with no in-neighbour in a head attends to itself in it (one extra key
        dimension per such query; see :func:`attention_heads`).

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    >>> heads = attention_heads(transitive_tournament(3), ext, 4)
    >>> heads.n_heads, heads.key_dims, heads.d, heads.n_parameters
    (2, (1, 1), 4, 16)
    """

    digraph: AttentionDigraph
    tokens: np.ndarray
    keys: tuple
    queries: tuple
    values: tuple
    claims: tuple
    label: str
    extension: HubExtension | None = None
    idle_to_self: bool = False

    def __post_init__(self):
        check_digraph(self.digraph)
        tokens = np.asarray(self.tokens, dtype=float)
        if tokens.ndim != 2 or len(tokens) != self.digraph.n:
            raise HeadError(f"tokens has shape {tokens.shape}; give one token of R^d per vertex "
                            f"({self.digraph.n})")
        d = tokens.shape[1]
        counts = {len(self.keys), len(self.queries), len(self.values), len(self.claims)}
        if len(counts) != 1:
            raise HeadError(f"{len(self.keys)} keys, {len(self.queries)} queries, "
                            f"{len(self.values)} values and {len(self.claims)} claims; give one "
                            "of each per head")
        for j, (k, q, v) in enumerate(zip(self.keys, self.queries, self.values)):
            k, q, v = np.asarray(k), np.asarray(q), np.asarray(v)
            if k.ndim != 2 or k.shape != q.shape or k.shape[1] != d or v.shape != (d, d):
                raise HeadError(f"head {j}: K {k.shape}, Q {q.shape}, V {v.shape}; give K and Q "
                                f"of one shape (n_j, {d}) and V ({d}, {d})")
        for j, c in enumerate(self.claims):
            c = np.asarray(c)
            if c.size and (not np.issubdtype(c.dtype, np.integer) or c.ndim != 2
                           or c.shape[1] != 2 or c.min() < 0 or c.max() >= self.digraph.n):
                raise HeadError(f"claims[{j}] must be vertex pairs (E_j, 2) in 0..{self.digraph.n - 1}")
        object.__setattr__(self, "tokens", tokens)

    @property
    def n_heads(self) -> int:
        """Number of heads."""
        return len(self.keys)

    @property
    def d(self) -> int:
        """Token dimension ``d``."""
        return self.tokens.shape[1]

    @property
    def key_dims(self) -> tuple[int, ...]:
        """Key (and query) dimension ``n_j`` of each head."""
        return tuple(k.shape[0] for k in self.keys)

    @property
    def n_parameters(self) -> int:
        """Entries of the key and query maps, ``Σ_j 2 d n_j`` (the value matrices, ``d²``
        each, are the same for every construction and not counted)."""
        return 2 * self.d * sum(self.key_dims)

    def logits(self) -> np.ndarray:
        """The logits ``L[j, b, a] = ⟨Q_j x_b, K_j x_a⟩`` of every head, query ``b`` and key ``a``.

        Returns
        -------
        numpy.ndarray
            ``(n_heads, N, N)``; row ``b`` of head ``j`` is what query ``b`` gives each key.

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> heads = factored_head(transitive_tournament(3), 3)
        >>> np.rint(heads.logits()[0]).astype(int).tolist()     # Mᵀ: query 2 attends to 0 and 1
        [[0, 0, 0], [1, 0, 0], [1, 1, 0]]
        """
        n = self.digraph.n
        if not self.keys:
            return np.zeros((0, n, n))
        return np.stack([(self.tokens @ q.T) @ (self.tokens @ k.T).T
                         for k, q in zip(self.keys, self.queries)])

    def attention(self, beta: float) -> np.ndarray:
        """Softmax attention ``w[j, b, a] = softmax_a(β L[j, b, a])`` of every head.

        Parameters
        ----------
        beta : float
            Inverse temperature ``β ≥ 0`` (not the weight ``β(x, y)`` of an interaction law).

        Returns
        -------
        numpy.ndarray
            ``(n_heads, N, N)``, rows summing to 1 (computed with the row maximum
            subtracted, so no ``β`` overflows).

        Raises
        ------
        ParameterError
            ``beta`` is negative or not finite.

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> w = factored_head(transitive_tournament(3), 3).attention(0.0)
        >>> w[0].round(6).tolist()[0]                   # β = 0: uniform
        [0.333333, 0.333333, 0.333333]
        """
        beta = as_nonnegative(beta, "beta")
        z = beta * self.logits()
        z -= z.max(axis=-1, keepdims=True, initial=-np.inf) if z.size else 0.0
        w = np.exp(z)
        return w / w.sum(axis=-1, keepdims=True)

    def self_attention(self, beta: float) -> SelfAttention:
        """These heads as the SA dynamics of :mod:`laws` (softmax, physical clock).

        ``K_j, Q_j`` are padded with zero rows to ``d × d``, which leaves every logit as is.
        Without heads (no edges) it is one head with zero values: no force.

        Parameters
        ----------
        beta : float
            Inverse temperature ``β ≥ 0``.

        Returns
        -------
        laws.SelfAttention
            ``ẋ_b = P_{x_b} Σ_j Σ_a w_j[b, a] V_j x_a`` on ``S^{d−1}``.

        Raises
        ------
        ParameterError
            ``beta`` is negative or not finite.

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> heads = factored_head(transitive_tournament(3), 3)
        >>> heads.self_attention(1.0).token_dim
        3
        """
        d = self.d

        def square(m):
            out = np.zeros((d, d))
            out[:len(m)] = m
            return out

        heads = [(square(q), square(k), v) for k, q, v in zip(self.keys, self.queries, self.values)]
        return SelfAttention(beta, heads=heads or [(None, None, np.zeros((d, d)))])


def _check_dimension(digraph: AttentionDigraph, d) -> int:
    d = as_integer(d, "d", minimum=1, error=HeadError)
    if d < digraph.n:
        raise HeadError(f"the token dimension d = {d} is below the number of vertices "
                        f"N = {digraph.n}: the heads are built on N orthonormal tokens in R^d, "
                        f"so give d ≥ {digraph.n}")
    return d


def _idle_rows(tokens: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Rows ``x_b`` of the queries ``b`` that no hub of a head targets (``targets``: the
    head's ``(n_j, N)`` target incidence)."""
    return tokens[~targets.any(axis=0)]


def attention_heads(digraph: AttentionDigraph, extension: HubExtension, d: int, *,
                    rng=None, idle_to_self: bool = False) -> AttentionHeads:
    r"""One attention head per color of a colored hub extension, logits the color's edges.

    Head ``j`` has ``K_j = S_j X`` and ``Q_j = T_j X`` (``S_j, T_j``: source and target
    incidence of the ``n_j`` hubs of color ``j``; ``X``: the tokens), so
    ``⟨Q_j x_b, K_j x_a⟩ = Σ_p [a ∈ A_p][b ∈ B_p] = m_j(a, b)``, which a valid coloring
    (hubs of one color share no source and no target) makes exactly 1 on the color-``j``
    edges and 0 on every other pair. Its key dimension is ``n_j`` and ``V_j = I``. At inverse
    temperature ``β`` a query ``b`` with color-``j`` in-neighbours (the sources ``A_p`` of the
    one hub of color ``j`` that targets it) puts all but
    ``ε = (N − k)/(k e^β + N − k) ≤ (N − 1)/(e^β + N − 1)`` of its weight on them.

    A query with no in-neighbour of color ``j`` is *idle* in head ``j``: its logits are all 0,
    so it spreads its weight uniformly and the head pulls it toward the tokens' mean. With
    ``idle_to_self=True`` head ``j`` gets one more key dimension per idle query ``b``, with
    ``K_j x_a`` and ``Q_j x_b`` carrying ``[a = b]``: the idle query then attends to itself,
    which exerts no force (``P_{x_b} x_b = 0``), and its logit on the diagonal — not an edge
    — is 1.

    Parameters
    ----------
    digraph : AttentionDigraph
    extension : HubExtension
        A colored hub extension of ``digraph`` (validated here).
    d : int
        Token dimension, ``d ≥ N``.
    rng : Generator or int, optional
        Random orthonormal tokens (:func:`orthonormal_tokens`); ``None``: the standard basis.
    idle_to_self : bool
        Let idle queries attend to themselves (see above).

    Returns
    -------
    AttentionHeads
        ``n_colors`` heads; ``claims[j]`` are the color-``j`` edges.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, ``extension`` not a
        :class:`HubExtension`, or ``d`` not an integer.
    HeadError
        ``d < N``.
    InvalidHubExtensionError
        ``extension`` does not cover ``E`` exactly.
    InvalidColoringError
        ``extension`` has no colors, or two hubs of one color share a source or a target.

    Examples
    --------
    The transitive tournament ``T3`` with its two-color hub extension:

    >>> from theorem.digraphs import transitive_tournament
    >>> ext = HubExtension([({0}, {1, 2}), ({1}, {2})], colors=[0, 1])
    >>> heads = attention_heads(transitive_tournament(3), ext, 3)
    >>> [c.tolist() for c in heads.claims]
    [[[0, 1], [0, 2]], [[1, 2]]]
    >>> heads.logits()[0].tolist()      # head 0: queries 1 and 2 attend to key 0
    [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
    """
    check_digraph(digraph)
    if not isinstance(extension, HubExtension):
        raise TypeError(f"extension must be a HubExtension, not {type(extension).__name__}")
    d = _check_dimension(digraph, d)
    if extension.colors is None:
        raise InvalidColoringError("attention_heads needs a colored hub extension (one head per "
                                   "color); color it, e.g. with theorem.invariants.dsatur_colored")
    extension.validate(digraph)
    tokens = orthonormal_tokens(digraph.n, d, rng=rng)
    sources, targets = (m.astype(float) for m in extension.incidence(digraph.n))
    colors = np.asarray(extension.colors)
    keys, queries, claims = [], [], []
    for c in sorted(set(extension.colors)):
        s, t = sources[colors == c], targets[colors == c]
        k, q = s @ tokens, t @ tokens
        if idle_to_self:
            idle = _idle_rows(tokens, t)
            k, q = np.vstack([k, idle]), np.vstack([q, idle])
        keys.append(k)
        queries.append(q)
        claims.append(np.argwhere(s.T @ t > 0))
    values = tuple(np.eye(d) for _ in keys)
    return AttentionHeads(digraph, tokens, tuple(keys), tuple(queries), values, tuple(claims),
                          "colored hub extension, one head per color", extension, idle_to_self)


def factored_head(digraph: AttentionDigraph, d: int, *, rng=None) -> AttentionHeads:
    r"""One attention head whose logits are ``M``: key dimension ``rank_R(M)``.

    With the SVD ``M = U Σ Vᵀ`` truncated to its ``r = rank_R(M)`` non-zero singular values
    (numpy's ``matrix_rank`` threshold), ``K = (U Σ^{1/2})ᵀ X`` and ``Q = (V Σ^{1/2})ᵀ X`` give
    ``⟨Q x_b, K x_a⟩ = (U Σ Vᵀ)[a, b] = M[a, b]`` up to rounding: one head realizes the whole
    digraph on the token set. (On the continuum a bilinear weight realizes only a matching:
    :func:`~theorem.transformer.bilinear_maxima`.)

    Parameters
    ----------
    digraph : AttentionDigraph
    d : int
        Token dimension, ``d ≥ N``.
    rng : Generator or int, optional
        Random orthonormal tokens; ``None``: the standard basis.

    Returns
    -------
    AttentionHeads
        One head claiming every edge, key dimension ``rank_R(M)``.

    Raises
    ------
    TypeError
        ``digraph`` is not an :class:`AttentionDigraph`, or ``d`` not an integer.
    HeadError
        ``d < N``.

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite
    >>> heads = factored_head(complete_bipartite(3, 4), 7)
    >>> heads.n_heads, heads.key_dims                  # rank_R of a biclique is 1
    (1, (1,))
    """
    check_digraph(digraph)
    d = _check_dimension(digraph, d)
    tokens = orthonormal_tokens(digraph.n, d, rng=rng)
    m = digraph.adjacency.astype(float)
    u, s, vt = np.linalg.svd(m)
    r = int((s > s.max(initial=0.0) * max(m.shape) * np.finfo(float).eps).sum())
    root = np.sqrt(s[:r])
    keys = ((u[:, :r] * root).T @ tokens,)
    queries = ((vt[:r].T * root).T @ tokens,)
    return AttentionHeads(digraph, tokens, keys, queries, (np.eye(d),), (digraph.edges.copy(),),
                          "one head, real factorization of M")


@dataclass(frozen=True)
class HeadsReport:
    """What :func:`verify_attention_heads` measured: its checks and ``ε(β)``.

    Parameters
    ----------
    report : laws.Report
        The checks, each with its margin.
    betas : tuple of float
        The inverse temperatures.
    epsilon : tuple of float
        At each ``β``, the most weight a query puts outside its in-neighbours in a head
        where it has some (worst over heads and queries; 0 when no head has any).
    bound : tuple of float
        At each ``β``, the bound ``(N − 1)/(e^{β(1 − 2δ)} + N − 1)`` (``δ``: the worst logit
        error) that ``epsilon`` is checked against.
    logit_error : float
        ``δ``, the largest distance of a logit from its indicator.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> heads = factored_head(transitive_tournament(3), 3)
    >>> result = verify_attention_heads(heads, betas=(0.0,))
    >>> result.passed, round(result.epsilon[0], 6)     # β = 0: query 1 has 1 in-neighbour of 3 keys
    (True, 0.666667)
    """

    report: Report
    betas: tuple
    epsilon: tuple
    bound: tuple
    logit_error: float

    @property
    def passed(self) -> bool:
        """Whether every check passed."""
        return self.report.passed

    def to_dict(self) -> dict:
        """The report as a JSON-ready dictionary.

        Returns
        -------
        dict
            ``"passed"``, ``"logit_error"``, ``"epsilon"`` (a list of ``{"beta", "epsilon",
            "bound"}``) and ``"checks"`` (:meth:`laws.Report.to_dict`).

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> data = verify_attention_heads(factored_head(transitive_tournament(3), 3), betas=(1.0,)).to_dict()
        >>> sorted(data)
        ['checks', 'epsilon', 'logit_error', 'passed']
        """
        return {"passed": self.passed, "logit_error": self.logit_error,
                "epsilon": [{"beta": b, "epsilon": e, "bound": u}
                            for b, e, u in zip(self.betas, self.epsilon, self.bound)],
                "checks": self.report.to_dict()}


def verify_attention_heads(heads: AttentionHeads, *, betas=DEFAULT_BETAS) -> HeadsReport:
    r"""Check that each head's logits are the indicator of its edges, that the heads together
    attend along exactly ``E``, and measure ``ε(β)``.

    The checks (each a :class:`laws.Check` with its margin):

    * each head claims only edges, and together they claim every edge
      (:func:`~theorem.covers.claim_checks`);
    * per head ``j``: ``max |L_j[b, a] − [(a, b) ∈ claims_j]| ≤`` :data:`LOGIT_TOL` over all
      pairs ``a ≠ b`` (and over the diagonal too, except where ``idle_to_self`` puts 1);
    * the supports ``{(a, b) : L_j[b, a] > 1/2, a ≠ b}`` of the heads together are exactly ``E``
      (counted pairs in one and not the other);
    * per ``β``: for every head and every query ``b`` with in-neighbours in it, the weight
      outside them is ``ε ≤ (N − 1)/(e^{β(1 − 2δ)} + N − 1)`` (``δ``: the worst logit error; with
      exact logits the worst case of ``(N − k)/(k e^β + N − k)`` over ``k ≥ 1``; the
      comparison allows relative ``1e-9`` and ``N`` times the smallest normal number, for
      the subnormal weights of ``β`` above about 700). Idle
      queries (no in-neighbour in the head) are not measured: their weight is uniform, or
      on themselves with ``idle_to_self``.

    Parameters
    ----------
    heads : AttentionHeads
    betas : sequence of float
        Inverse temperatures ``β ≥ 0``.

    Returns
    -------
    HeadsReport

    Raises
    ------
    TypeError
        ``heads`` is not an :class:`AttentionHeads`.
    ParameterError
        A ``β`` is negative or not finite.

    Examples
    --------
    >>> from theorem.digraphs import complete_digraph
    >>> result = verify_attention_heads(factored_head(complete_digraph(4), 4), betas=(8.0,))
    >>> result.passed, result.epsilon[0] < 1e-3
    (True, True)
    """
    if not isinstance(heads, AttentionHeads):
        raise TypeError(f"heads must be AttentionHeads, not {type(heads).__name__}; build them "
                        "with attention_heads or factored_head")
    betas = tuple(float(as_nonnegative(b, "beta")) for b in betas)
    n = heads.digraph.n
    logits = heads.logits()                                    # (h, N, N): [j, b, a]
    off = ~np.eye(n, dtype=bool)
    errors = []
    adjacency = heads.digraph.adjacency.astype(bool)
    checks = claim_checks(heads.digraph, heads.claims, what="head")
    for j, edges in enumerate(heads.claims):
        edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        target = np.zeros((n, n))
        if len(edges):
            target[edges[:, 1], edges[:, 0]] = 1.0
        if heads.idle_to_self:
            target[np.diag_indices(n)] = (~target.any(axis=1)).astype(float)
        gap = np.abs(logits[j] - target)
        b, a = np.unravel_index(np.argmax(gap), gap.shape) if gap.size else (0, 0)
        errors.append(float(gap.max(initial=0.0)))
        checks.append(Check(f"head {j}: logits = indicator of its {len(edges)} edges",
                            errors[-1], LOGIT_TOL, "<=",
                            f"query {b}, key {a}: logit {logits[j][b, a]:.3g}" if gap.size else ""))
    delta = max(errors, default=0.0)
    support = (logits > 0.5) & off
    union = support.any(axis=0).T                              # [a, b]
    wrong = np.argwhere(union != adjacency)
    checks.append(Check("the heads' supports together are E", len(wrong), 0, "<=",
                        f"pair {tuple(wrong[0].tolist())} "
                        f"{'unattended' if adjacency[tuple(wrong[0])] else 'attended, not an edge'}"
                        if len(wrong) else f"{heads.n_heads} heads, {len(adjacency.nonzero()[0])} edges"))
    epsilon, bound = [], []
    active = support.any(axis=-1)                              # [j, b]: b has in-neighbours
    for beta in betas:
        w = heads.attention(beta)
        outside = np.where(support, 0.0, w).sum(axis=-1)     # summed, not 1 − Σ inside: no cancellation
        worst = float(np.where(active, outside, 0.0).max(initial=0.0))
        # (N − 1)/(e^x + N − 1) in logarithms: e^x overflows from x ≈ 709.8, where the
        # leaked weight is still a subnormal number
        x = beta * (1 - 2 * delta)
        limit = float(np.exp(np.log(n - 1) - np.logaddexp(x, np.log(n - 1)))) if n > 1 else 0.0
        j, b = np.unravel_index(np.argmax(np.where(active, outside, -1.0)), active.shape) \
            if active.any() else (0, 0)
        epsilon.append(worst)
        bound.append(float(limit))
        checks.append(Check(f"β = {beta:g}: weight outside the in-neighbours "
                            "ε ≤ (N − 1)/(e^{β(1 − 2δ)} + N − 1)",
                            worst, limit * (1 + 1e-9) + n * np.finfo(float).tiny, "<=",
                            f"head {j}, query {b}" if active.any() else "no query attends"))
    title = f"{heads.label}: {heads.n_heads} heads on {n} tokens in R^{heads.d}"
    return HeadsReport(Report(title, checks), betas, tuple(epsilon), tuple(bound), delta)
