r"""Self-attention dynamics on the sphere (seed 003): the SA and USA particle models.

Tokens ``x_1..x_N ∈ S^{d−1}`` move by

``ẋ_i = P_{x_i}( Σ_heads Σ_j w_ij V x_j )``,  ``w_ij = e^{β⟨Q x_i, K x_j⟩} / Z_i``

with ``Z_i = Σ_j e^{β⟨Q x_i, K x_j⟩}`` (**SA**, softmax attention) or ``Z_i = N`` (**USA**,
unnormalized), ``P_x v = v − ⟨v, x⟩ x`` and ``Q = K = V = I`` by default. ``β`` here is the
**temperature** (inverse), not the weight ``β(x, y)`` of an interaction law.

SA is computed with the row maximum subtracted before the exponential, so it never
overflows. USA's ``e^{β⟨·,·⟩}`` overflows once ``β c`` passes about 700, with
``c = max_heads ‖QᵀK‖₂ ≥ ⟨Qx, Ky⟩`` on unit vectors (``c = 1`` for ``Q = K = I``);
``clock="rescaled"`` integrates in the time ``s = e^{βc} t`` instead, where the weights are
``e^{β(⟨Qx_i, Kx_j⟩ − c)} / N ≤ 1/N``. Reports carry the clock they used.
"""

from __future__ import annotations

import numpy as np

from manifolds import ParameterError, ShapeError, Sphere, as_choice, as_nonnegative, as_positive

from .diagnostics import _blocks, _check_systems, _tokens

__all__ = ["SelfAttention", "usa_energy", "MAX_EXPONENT"]

#: ``exp`` overflows float64 above about 709.78; USA on the physical clock refuses ``βc`` above this.
MAX_EXPONENT = 700.0


def _matrix(m, name: str):
    if m is None:
        return None
    arr = np.asarray(m)
    if arr.dtype == object or not np.issubdtype(arr.dtype, np.number):
        raise TypeError(f"{name} must be a real matrix, got dtype {arr.dtype}")
    arr = arr.astype(float)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ShapeError(f"{name} has shape {arr.shape}; give a square d×d matrix")
    if not np.isfinite(arr).all():
        raise ParameterError(f"{name} holds NaN or infinity")
    return arr


class SelfAttention:
    r"""The SA / USA velocity field on ``S^{d−1}``, one or several heads.

    The token size ``d`` the matrices fix is :attr:`token_dim` (``None`` for identity
    heads); :attr:`space` is then ``Sphere(d − 1)``, whose ``dim`` is ``d − 1``.

    Parameters
    ----------
    beta : float
        Inverse temperature ``β ≥ 0``.
    Q, K, V : array ``(d, d)``, optional
        Query, key and value matrices of a single head; ``None`` is the identity.
    heads : list of ``(Q, K, V)``, optional
        Several heads (entries may be ``None``); their velocities are summed. Exclusive
        with ``Q, K, V``.
    normalization : {"softmax", "mean"}
        SA (``Z_i = Σ_j e^{…}``) or USA (``Z_i = N``).
    clock : {"physical", "rescaled"}
        ``"rescaled"`` (USA only): time ``s = e^{βc} t``, so the velocity is ``e^{−βc}``
        times the physical one and never overflows (docs/conventions.md#dynamics-clock).

    Raises
    ------
    ParameterError
        When ``beta`` is negative or not finite, ``normalization`` or ``clock`` unknown,
        the rescaled clock is asked for with softmax, both ``Q, K, V`` and ``heads`` are
        given, ``heads`` is empty, a matrix holds NaN or infinity, or USA on the physical
        clock would overflow (``β c > MAX_EXPONENT``; use ``clock="rescaled"``).
    ShapeError
        When a matrix is not square, or the matrices differ in size.
    TypeError
        When a matrix is not numeric.

    Examples
    --------
    >>> import numpy as np
    >>> sa = SelfAttention(2.0)
    >>> x = np.eye(3)[None, :2]                   # e0, e1 on S^2: logits 2 (self) and 0
    >>> sa(x).round(12).tolist()                  # ẋ_0 = P_{e0}(w e0 + (1 − w) e1), 1 − w = 1/(1 + e²)
    [[[0.0, 0.119202922022, 0.0], [0.119202922022, 0.0, 0.0]]]
    >>> SelfAttention(1000.0, normalization="mean", clock="rescaled").clock
    'rescaled'
    """

    def __init__(self, beta: float, Q=None, K=None, V=None, *, heads=None,
                 normalization: str = "softmax", clock: str = "physical"):
        beta = as_nonnegative(beta, "beta")
        as_choice(normalization, "normalization", ("softmax", "mean"))
        as_choice(clock, "clock", ("physical", "rescaled"))
        if clock == "rescaled" and normalization != "mean":
            raise ParameterError("the rescaled clock is for USA (normalization='mean'); SA never overflows")
        if heads is None:
            heads = [(Q, K, V)]
        elif any(m is not None for m in (Q, K, V)):
            raise ParameterError("give either Q, K, V (one head) or heads=[(Q, K, V), ...], not both")
        if len(heads) == 0:
            raise ParameterError("heads is empty; give at least one (Q, K, V)")
        self.heads = [tuple(_matrix(m, name) for m, name in zip(h, "QKV")) for h in heads]
        dims = {m.shape[0] for h in self.heads for m in h if m is not None}
        if len(dims) > 1:
            raise ShapeError(f"the matrices have different sizes {sorted(dims)}; all must be d×d")
        #: Token size ``d`` fixed by the matrices (tokens live on ``S^{d−1} ⊂ R^d``); ``None``
        #: for identity heads, where the tokens decide.
        self.token_dim = dims.pop() if dims else None
        self.beta = float(beta)
        self.normalization = normalization
        self.clock = clock
        #: ``c = max_heads ‖QᵀK‖₂``, the bound of ``⟨Qx, Ky⟩`` on unit vectors.
        self.logit_bound = max(
            1.0 if q is None and k is None else float(np.linalg.norm(
                (np.eye(self.token_dim) if q is None else q).T @ (np.eye(self.token_dim) if k is None else k), 2))
            for q, k, _ in self.heads
        )
        if normalization == "mean" and clock == "physical" and self.beta * self.logit_bound > MAX_EXPONENT:
            raise ParameterError(
                f"USA on the physical clock overflows: β·c = {self.beta * self.logit_bound:.4g} > "
                f"{MAX_EXPONENT:g} (e^{{β⟨Qx,Ky⟩}} leaves float64); use clock='rescaled' "
                "(time s = e^{βc} t)"
            )
        self._shift = self.beta * self.logit_bound if clock == "rescaled" else 0.0
        self._buffers: dict = {}

    @property
    def space(self):
        """``Sphere(d − 1)`` when the matrices fix ``d``; ``None`` for identity heads."""
        return None if self.token_dim is None else Sphere(self.token_dim - 1)

    def space_for(self, x0) -> Sphere:
        """The sphere the tokens ``x0`` live on: ``S^{d−1}`` for tokens in ``R^d``.

        :func:`integrate` calls it to find the space; the token size ``d`` must match
        :attr:`token_dim` when the matrices fix it.

        Parameters
        ----------
        x0 : array_like, shape (..., d)
            Tokens (only the last axis is read; the points are not checked here).

        Returns
        -------
        Sphere
            ``Sphere(d − 1)``.

        Raises
        ------
        ShapeError
            When ``x0`` has no last axis, ``d < 2``, or ``d`` differs from the size of
            ``Q, K, V``.

        Examples
        --------
        >>> SelfAttention(1.0).space_for(np.zeros((2, 5, 4))).dim
        3
        >>> SelfAttention(1.0, Q=np.eye(3)).space_for(np.zeros((5, 4)))
        Traceback (most recent call last):
            ...
        manifolds.errors.ShapeError: tokens have dimension 4, but Q, K, V are 3×3
        """
        shape = np.shape(x0)
        if len(shape) == 0 or shape[-1] < 2:
            raise ShapeError(f"tokens have shape {shape}; give tokens in R^d, d ≥ 2, along the last "
                             "axis (…, N, d)")
        d = shape[-1]
        if self.token_dim is not None and d != self.token_dim:
            raise ShapeError(f"tokens have dimension {d}, but Q, K, V are {self.token_dim}×{self.token_dim}")
        return Sphere(d - 1)

    def __call__(self, x) -> np.ndarray:
        """Velocities at tokens ``x (..., N, d)``, checked on the sphere (at least one token
        and one system: ``ShapeError`` for empty input); same shape."""
        x = self.space_for(x).check_points(x, "x")
        if x.ndim < 2:
            raise ShapeError(f"x has shape {x.shape}; give tokens (..., N, d)")
        _check_systems(x, 1, "x")
        return self._velocity(x)

    def _buffer(self, name: str, shape: tuple) -> np.ndarray:
        """A scratch array kept between calls: fresh large arrays cost page faults per step."""
        buf = self._buffers.get(name)
        if buf is None or buf.shape != shape:
            buf = self._buffers[name] = np.empty(shape)
        return buf

    def _velocity(self, x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Unchecked velocities at unit tokens ``x``, written to ``out`` when given.

        With one head and ``Q = K = V = I`` the tangent projection is folded into the
        weights: ``P_{x_i} Σ_j w_ij x_j = Σ_j (w_ij − δ_ij Σ_k w_ik ⟨x_k, x_i⟩) x_j``, which
        costs ``O(N²)`` per system instead of two passes over the ``(N, d)`` tokens.
        """
        n = x.shape[-2]
        out = np.empty_like(x) if out is None else out
        logits = self._buffer("logits", x.shape[:-1] + (n,))
        fold = len(self.heads) == 1 and all(m is None for m in self.heads[0])
        for index, (q, k, v) in enumerate(self.heads):
            qx = x if q is None else x @ q.T
            kx = x if k is None else x @ k.T
            vx = x if v is None else x @ v.T
            np.matmul(qx, np.swapaxes(kx, -1, -2), out=logits)
            if fold:
                gram = self._buffer("gram", logits.shape)
                np.copyto(gram, logits)
            if self.beta != 1.0:
                logits *= self.beta
            if self.normalization == "softmax":
                # unit tokens with Q = K = I have their largest logit, β, on the diagonal: a
                # scalar shift replaces the row maximum (every exponent ≤ 0, the sum ≥ 1)
                logits -= self.beta if fold else logits.max(axis=-1, keepdims=True)
                np.exp(logits, out=logits)
                logits *= 1.0 / logits.sum(axis=-1, keepdims=True)
            else:
                if self._shift:
                    logits -= self._shift
                np.exp(logits, out=logits)
                logits *= 1.0 / n
            if fold:
                diagonal = np.arange(n)
                logits[..., diagonal, diagonal] -= np.einsum("...ij,...ij->...i", logits, gram)
                return np.matmul(logits, x, out=out)
            if index == 0:
                np.matmul(logits, vx, out=out)
            else:
                out += np.matmul(logits, vx)
        normal = self._buffer("normal", x.shape)
        np.multiply(x, np.einsum("...i,...i->...", out, x)[..., None], out=normal)
        out -= normal
        return out


def usa_energy(points, beta: float, *, scaled: bool = False) -> np.ndarray:
    r"""The USA energy ``E_β = (1 / 2βN²) Σ_{i,j} e^{β⟨x_i, x_j⟩}`` of tokens ``(..., N, d)``.

    USA with ``Q = K = V = I`` is ``N`` times the projected gradient ascent of ``E_β``, so
    ``E_β`` never decreases along its flow. ``scaled=True`` returns ``e^{−β} E_β`` (each term
    ``≤ 1``: no overflow at any ``β``), the energy of the rescaled clock. ``β`` is the inverse
    temperature (docs/conventions.md#dynamics-clock).

    Where the plain sum could overflow (``β + 2 ln N > MAX_EXPONENT``), ``E_β`` is computed as
    ``e^{−β} E_β`` times ``e^β``: it is returned whenever its value is a float64
    (``E_β ≤ e^β / 2β``: up to ``β ≈ 716``), and refused beyond, with a pointer to
    ``scaled=True``. Systems are taken a block at a time (memory of about one
    system's Gram matrix; :mod:`laws.dynamics.diagnostics`).

    Parameters
    ----------
    points : array_like, shape (..., N, d)
        Tokens on ``S^{d−1}``, ``d ≥ 2`` (checked), at least one, any (non-empty) batch axes
        in front.
    beta : float
        Inverse temperature ``β > 0``.
    scaled : bool, optional
        Return ``e^{−β} E_β`` instead of ``E_β``; default ``False``.

    Returns
    -------
    ndarray, shape (...)
        ``E_β`` (or ``e^{−β} E_β``) of each system.

    Raises
    ------
    ParameterError
        When ``beta`` is not finite and positive, or ``E_β`` (``scaled=False``) exceeds
        float64: pass ``scaled=True``.
    TypeError
        When ``scaled`` is not a bool. Bad ``points`` raise as in :func:`pairwise_inner`
        (``ShapeError``, ``NonFiniteError``, ``NotOnManifoldError``, ``TypeError``).

    Examples
    --------
    >>> import numpy as np
    >>> bool(np.isclose(usa_energy(np.eye(3)[:1], 1.0), np.e / 2, rtol=1e-15))  # one token: e^β / 2β
    True
    >>> bool(np.isclose(usa_energy(np.eye(3)[:1], 1000.0, scaled=True), 1 / 2000, rtol=1e-15))
    True
    """
    beta = as_positive(beta, "beta")
    if not isinstance(scaled, (bool, np.bool_)):
        raise TypeError(f"scaled must be a bool, not {type(scaled).__name__}")
    x = _tokens(points, "points")
    n = x.shape[-2]
    flat = x.reshape((-1,) + x.shape[-2:])
    # e^{β⟨x_i, x_j⟩} leaves float64 past 709.78: below MAX_EXPONENT − 2 ln N the plain sum
    # cannot overflow (⟨x_i, x_j⟩ ≤ 1 + 2 atol); above, the terms are e^{β(⟨x_i, x_j⟩ − 1)}
    # (each ≤ 1) and E_β is their sum times e^β / 2βN²
    shift = beta if scaled or beta + 2.0 * np.log(n) > MAX_EXPONENT else 0.0
    total = np.empty(len(flat))
    for block in _blocks(len(flat), n):
        xb = flat[block]
        gram = np.matmul(xb, np.swapaxes(xb, -1, -2))
        total[block] = np.exp(beta * gram - shift).sum(axis=(-2, -1))
    total = total.reshape(x.shape[:-2])
    if scaled or not shift:
        return total / (2.0 * beta * n * n)
    with np.errstate(over="ignore"):
        factor = np.exp(beta - np.log(2.0 * beta * n * n))        # e^β / 2βN²
        energy = total * factor
    if not np.isfinite(energy).all():
        raise ParameterError(
            f"E_β overflows float64 at β = {beta:g} (it is about e^β / 2β = "
            f"10^{(beta - np.log(2.0 * beta)) / np.log(10.0):.1f}); pass scaled=True for "
            "e^(−β) E_β, the energy of the rescaled clock (docs/conventions.md#dynamics-clock)"
        )
    return energy
