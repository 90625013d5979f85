"""The search from both ends: SAT calls that lower an upper bound and raise a lower one.

Each call is one :func:`~theorem.sat.solver.solve_within` under a deadline; a model is a new
witness, an UNSAT result proves one more. The caller says how to encode a bound, how to
measure a witness and what certificate an UNSAT result becomes: this module knows no
invariant.
"""

from __future__ import annotations

from .budget import past, share
from .solver import solve_within

__all__ = ["descend", "ascend", "with_decoder"]


def descend(witness, size, lower, certificate, encode, deadline, solver, refuted,
             cap: float | None = None, bisect: bool = False, report=None):
    """Lower an upper bound by SAT: each model is the new ``witness``; UNSAT for ``k`` proves
    ``k + 1`` (``refuted(k)`` is the certificate that says so). ``encode(k)`` returns
    ``(clauses, decode)``, or ``None`` when the deadline passed while encoding. Tries one less
    than the witness, or with ``bisect`` the middle of the gap (large covers are quick to
    find, so this skips many easy steps). With ``cap``, each call gets at most ``cap``
    seconds; a call over it ends the descent, or with ``bisect`` moves the search above it.
    ``report((witness, lower, certificate))`` is called on each improvement.
    Returns ``(witness, lower, certificate)``."""
    floor = lower
    while size(witness) > floor and not past(deadline):
        k = (floor + size(witness) - 1) // 2 if bisect else size(witness) - 1
        encoded = encode(k)
        if encoded is None:
            break
        ok, model = solve_within(encoded[0], share(deadline, 1.0, cap), solver=solver)
        if ok is None:
            if not bisect:
                break
            floor = k + 1
            continue
        if not ok:
            lower = floor = k + 1
            certificate = refuted(k)
        else:
            witness = encoded[1](model)
        if report is not None:
            report((witness, lower, certificate))
    return witness, lower, certificate


def ascend(witness, size, lower, certificate, encode, deadline, solver, refuted,
            cap: float | None = None, report=None):
    """Raise a lower bound by SAT from below, one at a time: UNSAT for ``k = lower`` proves
    ``k + 1``; a model for ``k`` is a witness of size ``k = lower`` (exact). Refutations with
    few bicliques are usually quick, so this lifts the bound far past the structural ones.
    Each call may run to the deadline, or for at most ``cap`` seconds when given (the first
    call over it ends the climb). ``report`` as in :func:`descend`.
    Returns ``(witness, lower, certificate)``."""
    while lower < size(witness) and not past(deadline):
        k = lower
        encoded = encode(k)
        if encoded is None:
            break
        ok, model = solve_within(encoded[0], share(deadline, 1.0, cap), solver=solver)
        if ok is None:
            break
        if ok:
            witness = encoded[1](model)
        else:
            lower, certificate = k + 1, refuted(k)
        if report is not None:
            report((witness, lower, certificate))
        if ok:
            break
    return witness, lower, certificate


def with_decoder(encoding, wrap):
    """``encoding`` with its decoder's result passed through ``wrap``."""
    clauses, decode = encoding
    return clauses, lambda model: wrap(decode(model))
