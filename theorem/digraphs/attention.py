"""From attention matrices to attention digraphs: the rules that decide which keys a query
keeps.

An attention matrix ``A`` is row-stochastic with rows = queries and columns = keys. Query
``b`` keeping key ``a`` gives the edge ``(a, b)`` — ``b`` attends to ``a``, the library's
direction (docs/conventions.md#edge-direction) — so the digraph's adjacency matrix is the
transpose of the kept pattern. Self-attention (``a = b``) is dropped and counted
(:attr:`AttentionDigraph.n_dropped_loops`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..errors import AttentionMatrixError
from .digraph import AttentionDigraph, check_vertex_count

__all__ = ["AttentionRule", "attention_digraph", "kept_keys", "drop_tokens"]

#: The rule names :class:`AttentionRule` understands, with what their parameter means.
RULES = {
    "top-k": "each query keeps its k heaviest keys (k ≥ 1, an integer)",
    "top-mass": "each query keeps the fewest heaviest keys holding at least a mass τ of its "
                "row (0 < τ ≤ 1)",
    "threshold": "each query keeps the keys of weight at least t (0 < t ≤ 1)",
}


@dataclass(frozen=True)
class AttentionRule:
    """Which keys a query keeps: ``top-k``, ``top-mass`` or ``threshold``, with its parameter.

    * ``top-k:K`` — the ``K`` heaviest keys of each row (all of them when the row has fewer).
    * ``top-mass:τ`` — the shortest prefix of the row sorted by weight, descending, whose
      cumulative weight reaches ``τ`` (``searchsorted(cumsum, τ) + 1`` keys, at most the
      row's length).
    * ``threshold:t`` — every key of weight ``≥ t`` (a row may keep none).

    Ties in weight are broken by the smaller key index (a stable sort), so a rule gives one
    answer on every machine for the same float64 weights.

    Parameters
    ----------
    kind : str
        ``"top-k"``, ``"top-mass"`` or ``"threshold"``.
    value : float
        ``k`` (an integer ``≥ 1``), ``τ`` in ``(0, 1]`` or ``t`` in ``(0, 1]``.

    Raises
    ------
    AttentionMatrixError
        An unknown rule, or a parameter outside its range.
    TypeError
        ``value`` is not a real number.

    Examples
    --------
    >>> AttentionRule.parse("top-mass:0.9")
    AttentionRule(kind='top-mass', value=0.9)
    >>> str(AttentionRule("top-k", 3))
    'top-k:3'
    """

    kind: str
    value: float

    def __post_init__(self):
        if self.kind not in RULES:
            raise AttentionMatrixError(
                f"unknown attention rule {self.kind!r}; use one of "
                + "; ".join(f"{name} ({what})" for name, what in RULES.items()))
        if isinstance(self.value, bool) or not isinstance(self.value, numbers.Real):
            raise TypeError(f"the {self.kind} parameter must be a real number, not "
                            f"{type(self.value).__name__}")
        value = float(self.value)
        if self.kind == "top-k":
            if not (math.isfinite(value) and value == int(value) and value >= 1):
                raise AttentionMatrixError(
                    f"top-k needs an integer k ≥ 1, got {self.value!r}")
            value = int(value)
        elif not (0 < value <= 1):
            name = "τ" if self.kind == "top-mass" else "t"
            raise AttentionMatrixError(
                f"{self.kind} needs {name} in (0, 1], got {self.value!r}")
        object.__setattr__(self, "value", value)

    @classmethod
    def parse(cls, text: str) -> AttentionRule:
        """A rule from its command-line form ``NAME:VALUE`` (``top-k:5``, ``top-mass:0.9``,
        ``threshold:0.05``).

        Parameters
        ----------
        text : str

        Returns
        -------
        AttentionRule

        Raises
        ------
        AttentionMatrixError
            ``text`` is not ``NAME:VALUE`` with a known name and a parameter in range.

        Examples
        --------
        >>> AttentionRule.parse("top-k:5").value
        5
        >>> AttentionRule.parse("top-mass")
        Traceback (most recent call last):
        ...
        theorem.errors.AttentionMatrixError: attention rule 'top-mass' is not NAME:VALUE; write for example top-mass:0.9, top-k:5 or threshold:0.05
        """
        name, sep, value = str(text).partition(":")
        try:
            number = float(value) if sep else None
        except ValueError:
            number = None
        if number is None:
            raise AttentionMatrixError(
                f"attention rule {text!r} is not NAME:VALUE; write for example top-mass:0.9, "
                "top-k:5 or threshold:0.05")
        return cls(name, int(number) if number.is_integer() else number)

    @classmethod
    def of(cls, rule) -> AttentionRule:
        """``rule`` itself, or parsed from its ``NAME:VALUE`` form (:meth:`parse`).

        Parameters
        ----------
        rule : AttentionRule or str

        Returns
        -------
        AttentionRule

        Raises
        ------
        AttentionMatrixError
            A malformed string.
        TypeError
            ``rule`` is neither a rule nor a string.

        Examples
        --------
        >>> AttentionRule.of("threshold:0.1") == AttentionRule("threshold", 0.1)
        True
        """
        if isinstance(rule, cls):
            return rule
        if isinstance(rule, str):
            return cls.parse(rule)
        raise TypeError(f"rule must be an AttentionRule or a string such as 'top-mass:0.9', "
                        f"not {type(rule).__name__}")

    def __str__(self) -> str:
        return f"{self.kind}:{self.value!r}"


def drop_tokens(weights, drop=(), *, atol: float = 1e-4) -> tuple[np.ndarray, np.ndarray]:
    """Attention matrices checked, cast to float64, without the tokens in ``drop``, each row
    renormalized to sum 1; and the positions of the tokens kept.

    A row whose whole mass was on dropped tokens becomes 0. Every check of an attention
    matrix the library makes is here.

    Parameters
    ----------
    weights : array_like, shape ``(..., T, T)``
        Row-stochastic attention matrices, rows = queries, columns = keys.
    drop : sequence of int
        Token positions to leave out (negative positions count from the end).
    atol : float
        How far a row's sum may be from 1 (float32 softmax rows are within ``T·2⁻²⁴``).

    Returns
    -------
    weights : ndarray of float64, shape ``(..., T', T')``
    kept : ndarray of int64, shape ``(T',)``
        The original position of each token kept, in order.

    Raises
    ------
    AttentionMatrixError
        ``weights`` is not square, holds a NaN, an infinite or negative entry, or a row not
        summing to 1 within ``atol``; ``drop`` names a token that is not there.
    TypeError
        ``weights`` is not numeric, ``drop`` is not a sequence of integers.

    Examples
    --------
    >>> w, kept = drop_tokens([[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.5, 0.0, 0.5]], [0])
    >>> w.tolist(), kept.tolist()
    ([[1.0, 0.0], [0.0, 1.0]], [1, 2])
    """
    if isinstance(atol, bool) or not isinstance(atol, numbers.Real):
        raise TypeError(f"atol must be a real number, not {type(atol).__name__}")
    if not (np.isfinite(atol) and atol >= 0):
        raise AttentionMatrixError(f"atol must be a finite number ≥ 0, got {atol!r}")
    try:
        raw = np.asarray(weights)
        if np.iscomplexobj(raw):
            raise TypeError
        w = raw.astype(np.float64)
    except (TypeError, ValueError, RuntimeError):
        raise TypeError(
            f"weights must be a rectangular array of real numbers, not {type(weights).__name__}"
            " (a torch tensor: pass tensor.detach().float().numpy())") from None
    if w.ndim < 2 or w.shape[-1] != w.shape[-2]:
        raise AttentionMatrixError(
            f"an attention matrix is square, T × T (rows = queries, columns = keys), with any "
            f"batch axes before it; got shape {w.shape}")
    t = check_vertex_count(w.shape[-1], "T", dense=True, what="an attention matrix")
    if not np.isfinite(w).all():
        where = tuple(int(i) for i in np.argwhere(~np.isfinite(w))[0])
        raise AttentionMatrixError(f"weights hold a NaN or infinite entry at {where}")
    if (w < 0).any():
        where = tuple(int(i) for i in np.argwhere(w < 0)[0])
        raise AttentionMatrixError(
            f"weights hold a negative entry {w[where]:.3g} at {where}; attention weights are "
            "the output of a softmax")
    off = np.abs(w.sum(axis=-1) - 1)
    if off.size and off.max() > atol:
        where = tuple(int(i) for i in np.argwhere(off == off.max())[0])
        raise AttentionMatrixError(
            f"row {where} sums to {w[where].sum():.6g}, not 1 within atol = {atol:g}; give a "
            "row-stochastic matrix (rows = queries after the softmax), or raise atol")
    dropped = np.zeros(t, dtype=bool)
    if isinstance(drop, (str, bytes)) or not isinstance(drop, Iterable):
        raise TypeError(f"drop must be a sequence of token positions, not {type(drop).__name__}")
    for v in drop:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise TypeError(f"drop holds token positions (integers), not {v!r}")
        if not -t <= v < t:
            raise AttentionMatrixError(
                f"drop names token {v}, but the matrix has {t} tokens (0..{t - 1})")
        dropped[v] = True
    kept = np.flatnonzero(~dropped)
    if dropped.any():
        w = w[..., kept[:, None], kept]
        total = w.sum(axis=-1, keepdims=True)
        w = np.divide(w, total, out=np.zeros_like(w), where=total > 0)
    return w, kept


def kept_keys(weights, rule="top-mass:0.9", *, drop=(), atol: float = 1e-4) -> np.ndarray:
    """The keys each query keeps under ``rule``: a boolean ``(..., T', T')`` array, ``[b, a]``
    true when query ``b`` keeps key ``a``.

    The tokens in ``drop`` lose their rows and columns first (``T' = T − len(drop)``) and
    each row is renormalized to sum 1 (:func:`drop_tokens`; a row whose whole mass was on
    dropped tokens keeps nothing). Vectorized over
    the batch axes.

    Parameters
    ----------
    weights : array_like, shape ``(..., T, T)``
        Row-stochastic attention matrices, rows = queries, columns = keys.
    rule : AttentionRule or str
        ``"top-mass:0.9"`` by default; see :class:`AttentionRule`.
    drop : sequence of int
        Token positions to leave out (special tokens, attention sinks); none by default.
    atol : float
        How far a row's sum may be from 1 (float32 softmax rows are within ``T·2⁻²⁴``).

    Returns
    -------
    ndarray of bool, shape ``(..., T', T')``
        The diagonal is included: self-attention is dropped later, by
        :func:`attention_digraph`, which counts it.

    Raises
    ------
    AttentionMatrixError
        ``weights`` is not square, holds a NaN, an infinite or negative entry, or a row not
        summing to 1 within ``atol``; ``drop`` names a token that is not there; a bad rule.
    TypeError
        ``weights`` is not numeric, ``drop`` holds a non-integer, ``rule`` is not a rule.

    Examples
    --------
    >>> a = np.array([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8], [0.3, 0.2, 0.5]])
    >>> kept_keys(a, "top-mass:0.75").astype(int).tolist()
    [[1, 1, 0], [0, 0, 1], [1, 0, 1]]
    >>> kept_keys(a, "top-k:1", drop=[2]).astype(int).tolist()
    [[1, 0], [1, 0]]
    """
    return _apply(AttentionRule.of(rule), drop_tokens(weights, drop, atol=atol)[0])


def _prefix_sums(w: np.ndarray) -> np.ndarray:
    """The cumulative sums of ``w`` along its last axis by Neumaier's compensated summation:
    each within about one ulp of the exact sum of the float64 terms (``np.cumsum`` drifts by
    up to ``T`` ulps, enough to miss or pass ``τ``: nine weights ``0.1`` sum to
    ``0.8999999999999999`` there). A loop over the ``T`` positions, vectorized over rows."""
    out = np.empty_like(w)
    total = np.zeros(w.shape[:-1])
    error = np.zeros(w.shape[:-1])
    for i in range(w.shape[-1]):
        term = w[..., i]
        step = total + term
        big = np.abs(total) >= np.abs(term)
        error += np.where(big, (total - step) + term, (term - step) + total)
        total = step
        out[..., i] = total + error
    return out


def _apply(rule: AttentionRule, w: np.ndarray) -> np.ndarray:
    """The kept pattern of checked, renormalized float64 weights ``w`` under ``rule``: never
    a key of weight 0 (a masked or dropped key)."""
    t = w.shape[-1]
    if rule.kind == "threshold":
        return w >= rule.value
    order = np.argsort(-w, axis=-1, kind="stable")
    if rule.kind == "top-k":
        count = np.full(w.shape[:-1], min(rule.value, t))
    else:  # the first index where the cumulative sum reaches τ, plus one
        cumulative = _prefix_sums(np.take_along_axis(w, order, axis=-1))
        count = (cumulative < rule.value).sum(axis=-1) + 1
    count = np.minimum(count, (w > 0).sum(axis=-1))
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(t), axis=-1)
    return ranks < count[..., None]


def attention_digraph(weights, *, rule="top-mass:0.9", drop=(), labels=None,
                      atol: float = 1e-4):
    """The attention digraph of an attention matrix under ``rule``: edge ``(a, b)`` when
    query ``b`` keeps key ``a ≠ b`` (docs/conventions.md#edge-direction).

    Vertex ``i`` is the ``i``-th token left after ``drop`` (in order). Self-attention — a
    query keeping its own key — is dropped and counted in the digraph's
    :attr:`~AttentionDigraph.n_dropped_loops`. Batched: ``(..., T, T)`` weights (layers,
    heads) give an object array of digraphs of shape ``(...)``; a single ``T × T`` matrix gives
    one digraph.

    Parameters
    ----------
    weights : array_like, shape ``(..., T, T)``
        Row-stochastic attention matrices, ``weights[..., b, a]`` = weight of key ``a`` for
        query ``b``.
    rule : AttentionRule or str
        ``"top-mass:0.9"`` by default (:class:`AttentionRule`; :func:`kept_keys` applies it).
    drop : sequence of int
        Token positions to leave out before the rule, their mass renormalized away; none by
        default (the model pipeline drops the tokenizer's special tokens, ``[CLS]`` and
        ``[SEP]``).
    labels : sequence of str, optional
        One label per token (before ``drop``); the kept tokens' labels become vertex labels.
    atol : float
        How far a row's sum may be from 1.

    Returns
    -------
    AttentionDigraph or ndarray of AttentionDigraph
        One digraph for a ``T × T`` matrix, else an object array of the batch shape.

    Raises
    ------
    AttentionMatrixError
        As :func:`kept_keys`; ``labels`` not one per token.
    TypeError
        As :func:`kept_keys`.

    Examples
    --------
    Query 2 keeps keys 2 (itself) and 0, so the digraph has the edge ``(0, 2)``; queries 0
    and 2 keep their own keys, two dropped loops:

    >>> a = np.array([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8], [0.3, 0.2, 0.5]])
    >>> g = attention_digraph(a, rule="top-mass:0.75", labels=["x", "y", "z"])
    >>> g.edges.tolist(), g.n_dropped_loops, g.labels
    ([[0, 2], [1, 0], [2, 1]], 2, ('x', 'y', 'z'))
    >>> attention_digraph(np.stack([a, a.T / a.T.sum(1, keepdims=True)]), rule="top-k:1").shape
    (2,)
    """
    rule = AttentionRule.of(rule)
    w, tokens = drop_tokens(weights, drop, atol=atol)
    kept = _apply(rule, w)
    if labels is not None:
        if isinstance(labels, str) or not isinstance(labels, Iterable):
            raise TypeError(f"labels must be a sequence of str, one per token, not "
                            f"{type(labels).__name__}")
        labels, n_tokens = list(labels), np.shape(weights)[-1]
        if len(labels) != n_tokens:
            raise AttentionMatrixError(
                f"{len(labels)} labels for {n_tokens} tokens; give one label per token, "
                "dropped ones included")
        labels = [labels[i] for i in tokens]
    t = kept.shape[-1]
    batch = kept.shape[:-2]
    flat = kept.reshape((int(np.prod(batch)), t, t))   # explicit: t may be 0
    digraphs = np.empty(len(flat), dtype=object)
    for i, pattern in enumerate(flat):  # one digraph each: AttentionDigraph is per-digraph
        queries, keys = np.nonzero(pattern)
        digraphs[i] = AttentionDigraph(t, np.column_stack([keys, queries]), labels=labels,
                                       drop_loops=True)
    return digraphs[0] if not batch else digraphs.reshape(batch)
