"""Fast high-precision references for the precision tests and ``benchmarks/bench_precision.py``.

Everything here runs in ``numpy.longdouble`` (the x87 80-bit format on x86: a 64-bit
mantissa, ``eps = 1.08e-19``, 2048 times finer than float64), batched over leading axes, and
shares no code with ``manifolds``. It is itself checked against 60-digit mpmath on a few
pairs in ``tests/manifolds/test_precision.py``. Float64 inputs are exact in longdouble, so
each reference is computed from the very same inputs as the library's answer.

* :func:`sphere_angle` — the angle ``atan2(|x ∧ y|, ⟨x, y⟩)`` of two float vectors, with the
  wedge taken as ``x ∧ (y ∓ x)`` (no cancellation for nearby or antipodal vectors).
* :func:`jacobi_eigh` — cyclic two-sided Jacobi eigensolver (eigenvalues to a few longdouble
  eps of ``|A|``, eigenvectors to ``eps / gap``).
* :func:`principal_angles` — principal angles between the spectral projectors of symmetric
  float matrices near projectors, from the Jacobi eigenvalues of the *exactly corrected*
  ``Π(P) − Π(Q)`` and ``Π(P) + Π(Q) − I`` (:func:`projector_defect`): relative accuracy for
  small angles, absolute for large ones.
"""

import numpy as np

LD = np.longdouble
LD_EPS = float(np.finfo(LD).eps)


def sphere_angle(x, y, *, chunk=1024):
    """Angle between the float vectors ``x`` and ``y`` (any norms), shape ``(...)``."""
    x = np.asarray(x, dtype=LD)
    y = np.asarray(y, dtype=LD)
    shape = np.broadcast_shapes(x.shape, y.shape)
    x = np.broadcast_to(x, shape).reshape(-1, shape[-1])
    y = np.broadcast_to(y, shape).reshape(-1, shape[-1])
    out = np.empty(len(x), dtype=LD)
    iu = np.triu_indices(shape[-1], 1)
    for start in range(0, len(x), chunk):
        xs, ys = x[start:start + chunk], y[start:start + chunk]
        dot = np.einsum("bi,bi->b", xs, ys)
        # x ∧ y = −x ∧ (x − y) = x ∧ (x + y): the short one of the two chords has no
        # cancellation in its wedge components
        c = np.where((dot >= 0)[:, None], xs - ys, xs + ys)
        wedge = xs[:, :, None] * c[:, None, :] - c[:, :, None] * xs[:, None, :]
        out[start:start + chunk] = np.arctan2(np.sqrt((wedge[:, iu[0], iu[1]] ** 2).sum(-1)), dot)
    return out.reshape(shape[:-1])


def jacobi_eigh(a, *, tol=None, max_sweeps=80):
    """Eigenvalues (ascending) and eigenvectors (columns) of symmetric matrices ``a``.

    Cyclic Jacobi in longdouble over a batch ``(..., n, n)``; every rotation is applied to the
    whole batch at once (stored batch-last, so each row and column is one contiguous block).
    Stops when the off-diagonal part is below ``tol · |A|_F`` (default 8 longdouble eps) for
    every matrix (a few sweeps; tight clusters of eigenvalues, such as cosines of tiny angles
    next to 1, can take dozens); raises if that takes more than ``max_sweeps`` sweeps.
    """
    a = np.asarray(a, dtype=LD)
    batch, n = a.shape[:-2], a.shape[-1]
    a = np.moveaxis(a.reshape((-1, n, n)), 0, -1).copy(order="C")  # (n, n, B), own copy
    v = np.broadcast_to(np.eye(n, dtype=LD)[:, :, None], a.shape).copy(order="C")
    scale = np.sqrt((a * a).sum(axis=(0, 1)))
    tol = 8 * LD_EPS if tol is None else tol
    pairs = [(p, q) for p in range(n - 1) for q in range(p + 1, n)]
    active = np.arange(a.shape[-1])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for _ in range(max_sweeps):
            sub, vsub = a[..., active], v[..., active]
            off = np.sqrt(sum(2 * sub[p, q] ** 2 for p, q in pairs)) if pairs else 0 * scale
            todo = off > tol * scale[active]
            if not todo.any():
                break
            active = active[todo]  # sweep only the matrices that have not converged
            sub, vsub = np.ascontiguousarray(sub[..., todo]), np.ascontiguousarray(vsub[..., todo])
            for p, q in pairs:
                apq = sub[p, q]
                theta = (sub[q, q] - sub[p, p]) / (2 * apq)
                t = np.sign(theta) / (np.abs(theta) + np.sqrt(theta * theta + 1))
                t[theta == 0] = 1
                t[(apq == 0) | np.isinf(theta)] = 0
                c = 1 / np.sqrt(t * t + 1)
                s = t * c
                for m in (sub, vsub):  # columns p, q
                    mp, mq = m[:, p].copy(), m[:, q]
                    m[:, p] = c * mp - s * mq
                    m[:, q] = s * mp + c * mq
                ap, aq = sub[p].copy(), sub[q]  # rows p, q
                sub[p] = c * ap - s * aq
                sub[q] = s * ap + c * aq
                sub[p, q] = sub[q, p] = 0
            a[..., active], v[..., active] = sub, vsub
        else:
            raise RuntimeError(f"Jacobi did not converge in {max_sweeps} sweeps")
    vals = np.ascontiguousarray(np.diagonal(a, axis1=0, axis2=1))  # (B, n)
    vecs = np.moveaxis(v, -1, 0)  # (B, n, n)
    order = np.argsort(vals, axis=1)
    vals = np.take_along_axis(vals, order, axis=1)
    vecs = np.take_along_axis(vecs, order[:, None, :], axis=2)
    return vals.reshape(batch + (n,)), vecs.reshape(batch + (n, n))


_SPLIT = 134217729.0  # 2^27 + 1: Veltkamp's split of a double into two 26-bit halves


def _two_prod(a, b):
    """``a·b = p + e`` exactly (Dekker), elementwise on float64 arrays."""
    p = a * b
    c = _SPLIT * a
    ah = c - (c - a)
    c = _SPLIT * b
    bh = c - (c - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _two_sum(a, b):
    """``a + b = s + e`` exactly (Knuth), elementwise."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _idempotency_defect(p):
    """``P − P²`` of float64 matrices to ~1e-32 absolute (double-double accumulation of
    error-free products), returned in longdouble."""
    hi, lo = p.copy(), np.zeros_like(p)
    for m in range(p.shape[-1]):
        prod, err = _two_prod(p[..., :, m:m + 1], p[..., m:m + 1, :])
        hi, e = _two_sum(hi, -prod)
        lo = lo + e - err
    return hi.astype(LD) + lo.astype(LD)


def projector_defect(p):
    """``E = P − Π(P)`` for symmetric float64 ``P`` near a projector, ``Π(P)`` its spectral
    projector (eigenvalues rounded to 0 or 1), in longdouble, to ``O(|E|²)``.

    Newton–Schulz: ``Π(P) = 3P² − 2P³ + O(|E|²)``, so ``E = (P − P²)(I − 2P) + O(|E|²)``; the
    defect ``P − P²`` (of size ``|E|``, a difference of unit-size terms) is computed in
    double-double, so ``E`` is exact to ~1e-31 for the inputs here (``|E| ≲ 1e-15``).
    """
    p = np.asarray(p, dtype=float)
    assert np.array_equal(p, np.swapaxes(p, -1, -2)), "the fast reference needs symmetric inputs"
    n = p.shape[-1]
    return _idempotency_defect(p) @ (np.eye(n, dtype=LD) - 2 * p.astype(LD))


def defect_norm(p):
    """``|P² − P|_F`` of symmetric float matrices, as floats (exact to ~1e-31): how far each
    is from a projector (it equals ``|P − Π(P)|_F`` to first order)."""
    d = _idempotency_defect(np.asarray(p, dtype=float))
    return np.sqrt((d * d).sum(axis=(-2, -1))).astype(float)


def principal_angles(p, q, k):
    """The ``k`` principal angles (ascending, longdouble) between the ranges of the spectral
    projectors of the symmetric float matrices ``p`` and ``q``, shape ``(..., k)``.

    With ``E_P = P − Π(P)`` from :func:`projector_defect`, the exact projectors' difference
    ``Π(P) − Π(Q) = (P − Q) − (E_P − E_Q)`` is formed without any unit-size rounding error
    (each entry of ``P − Q`` is exact in longdouble, or rounded relative to itself where the
    two entries differ in scale), so its top-``k`` Jacobi eigenvalues are the sines to a
    longdouble eps *relative to the largest sine* — relative accuracy for small angles, which
    a reference built from eigenvectors (absolute error ~1e-19) lacks. The cosines are the
    top-``k`` eigenvalues of ``Π(P) + Π(Q) − I`` (absolute accuracy).
    """
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    p, q = np.broadcast_arrays(p, q)
    ep, eq = projector_defect(p), projector_defect(q)
    pl, ql = p.astype(LD), q.astype(LD)
    eye = np.eye(p.shape[-1], dtype=LD)
    sines = jacobi_eigh((pl - ql) - (ep - eq))[0][..., -k:]
    cosines = jacobi_eigh((pl + ql - eye) - (ep + eq))[0][..., -k:][..., ::-1]
    return np.arctan2(np.clip(sines, 0, 1), np.clip(cosines, 0, 1))


def grassmann_dist(p, q, k):
    """``sqrt(Σ θ_i²)`` over :func:`principal_angles` (longdouble)."""
    return np.sqrt((principal_angles(p, q, k) ** 2).sum(axis=-1))
