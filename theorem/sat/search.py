"""The search from both ends: SAT calls that lower an upper bound and raise a lower one.

Each call decides one claim of a :class:`~theorem.sat.claims.Claims` under a deadline (a
claim left undecided goes on, when asked again, from where its solver stopped); a model is a
new witness, an UNSAT result proves one more. The caller says how to encode a bound, how to
measure a witness and what certificate an UNSAT result becomes: this module knows no
invariant.
"""

from __future__ import annotations

from .budget import past, share

__all__ = ["descend", "ascend", "with_decoder"]


def descend(witness, size, lower, certificate, claims, deadline, refuted,
             cap: float | None = None, bisect: bool = False, report=None,
             first: int | None = None, most: int | None = None, top: int | None = None):
    """Lower an upper bound by SAT, from the witness down.

    Each model is the new ``witness``; UNSAT for ``k`` proves ``k + 1`` (``refuted(k)`` is
    the certificate that says so, docs/conventions.md#exact-answers). Tries one less than
    the witness, or with ``bisect`` the middle of the gap (large covers are quick to find, so
    this skips many easy steps). It stops when the witness meets the lower bound, when the
    deadline passes, or when a call runs out of time (with ``bisect``, such a call moves the
    search above it instead).

    Parameters
    ----------
    witness : object
        The best witness so far (an upper bound).
    size : callable
        ``size(witness)``, the value the witness attains (int).
    lower : int
        The lower bound proved so far.
    certificate : object
        What proves ``lower``.
    claims : Claims
        The claims "a witness of size at most ``k`` exists" (:class:`~theorem.sat.Claims`).
    deadline : float or None
        A ``time.monotonic()`` deadline, or ``None`` for no limit.
    refuted : callable
        ``refuted(k)``, the certificate of ``k + 1`` once ``k`` is UNSAT.
    cap : float, optional
        At most this many seconds per SAT call.
    bisect : bool
        Try the middle of the gap instead of one less than the witness.
    report : callable, optional
        Called with ``(witness, lower, certificate)`` after each SAT call that decided.
    first : int, optional
        The size tried first, when it lies strictly between the lower bound and the
        witness's size — a guess far below the witness, where encodings are small (``χ_hub``
        of a dense digraph is a few colors, its König coloring dozens); then as above.
    most : int, optional
        Claims not yet encoded whose encodings would have more clauses than this are left
        undecided (:meth:`Claims.decide`).
    top : int, optional
        The largest size tried: sizes above it are left to others (a local search that
        searched them up to its own deadline, say).

    Returns
    -------
    (object, int, object)
        ``(witness, lower, certificate)``: optimal when ``size(witness) == lower``.

    Examples
    --------
    The biclique cover number of the transitive tournament on 3 vertices, from the trivial
    cover (one biclique per edge):

    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.sat import Claims, biclique_cover_cnf
    >>> g = transitive_tournament(3)
    >>> trivial = [([a], [b]) for a, b in g.edges.tolist()]
    >>> claims = Claims(lambda k: biclique_cover_cnf(g, k))
    >>> cover, lower, why = descend(trivial, len, 1, "an edge", claims, None,
    ...                             lambda k: f"no cover by {k} biclique")
    >>> len(cover), lower, why
    (2, 2, 'no cover by 1 biclique')
    >>> descend(trivial, len, 1, "an edge", claims, None, lambda k: "", top=0)[0] is trivial
    True
    """
    floor = lower

    def ceiling():                               # one above the largest size to try
        return size(witness) if top is None else min(size(witness), top + 1)

    while ceiling() > floor and not past(deadline):
        k = (floor + ceiling() - 1) // 2 if bisect else ceiling() - 1
        if first is not None and floor <= first < ceiling():
            k, first = first, None
        ok, found = claims.decide(k, share(deadline, 1.0, cap), most=most)
        if ok is None:
            if not bisect:
                break
            floor = k + 1
            continue
        if not ok:
            lower = floor = k + 1
            certificate = refuted(k)
        else:
            witness = found
        if report is not None:
            report((witness, lower, certificate))
    return witness, lower, certificate


def ascend(witness, size, lower, certificate, claims, deadline, refuted,
            cap: float | None = None, report=None):
    """Raise a lower bound by SAT, from below, one at a time.

    UNSAT for ``k = lower`` proves ``k + 1`` (``refuted(k)`` is the certificate); a model for
    ``k`` is a witness of size ``k = lower``, hence optimal, and ends the climb. Refutations
    with few bicliques are usually quick, so this lifts the bound far past the structural
    ones. Each call may run to the deadline, or for at most ``cap`` seconds when given (the
    first call over it ends the climb).

    Parameters
    ----------
    witness : object
        The best witness so far (an upper bound).
    size : callable
        ``size(witness)``, the value the witness attains (int).
    lower : int
        The lower bound proved so far.
    certificate : object
        What proves ``lower``.
    claims : Claims
        The claims "a witness of size at most ``k`` exists" (:class:`~theorem.sat.Claims`).
    deadline : float or None
        A ``time.monotonic()`` deadline, or ``None`` for no limit.
    refuted : callable
        ``refuted(k)``, the certificate of ``k + 1`` once ``k`` is UNSAT.
    cap : float, optional
        At most this many seconds per SAT call.
    report : callable, optional
        Called with ``(witness, lower, certificate)`` after each SAT call that decided.

    Returns
    -------
    (object, int, object)
        ``(witness, lower, certificate)``: optimal when ``size(witness) == lower``.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.sat import Claims, biclique_cover_cnf
    >>> g = transitive_tournament(3)
    >>> trivial = [([a], [b]) for a, b in g.edges.tolist()]
    >>> steps = []
    >>> claims = Claims(lambda k: biclique_cover_cnf(g, k))
    >>> cover, lower, why = ascend(trivial, len, 1, "an edge", claims, None,
    ...                            lambda k: f"no cover by {k} biclique", report=steps.append)
    >>> [(len(w), low) for w, low, _ in steps]       # UNSAT for 1, then a cover by 2
    [(3, 2), (2, 2)]
    """
    while lower < size(witness) and not past(deadline):
        k = lower
        ok, found = claims.decide(k, share(deadline, 1.0, cap))
        if ok is None:
            break
        if ok:
            witness = found
        else:
            lower, certificate = k + 1, refuted(k)
        if report is not None:
            report((witness, lower, certificate))
        if ok:
            break
    return witness, lower, certificate


def with_decoder(encoding, wrap):
    """An encoding whose decoder's result is passed through ``wrap``.

    Parameters
    ----------
    encoding : (list of list of int, callable)
        ``(clauses, decode)``, as the encodings of :mod:`theorem.sat.encodings` return.
    wrap : callable
        Applied to ``decode(model)``, for example to map a witness back to the original
        vertices.

    Returns
    -------
    (list of list of int, callable)
        The same clauses, and ``model ↦ wrap(decode(model))``.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.sat import biclique_cover_cnf, solve_within
    >>> clauses, decode = with_decoder(biclique_cover_cnf(transitive_tournament(3), 2), len)
    >>> decode(solve_within(clauses, None)[1])
    2
    """
    clauses, decode = encoding
    return clauses, lambda model: wrap(decode(model))
