"""Claims decided resumably: each formula solved by a child process that a deadline pauses,
so that a later call on the same claim goes on from where the solver stopped.

The searches of :mod:`theorem.sat.search` ask the same claim several times — a quick call
capped at a few seconds, then the refutation from below with all the time left — and a
refutation that needs 5 s is not found by a 2 s call followed by a 3 s one that starts
afresh. A paused solver (:class:`~theorem.sat.budget.Resumable`) loses nothing: the two
calls together do exactly what one call of 5 s would (CaDiCaL is never interrupted, so its
restarts and phases are those of one run).
"""

from __future__ import annotations

from typing import Callable

from .budget import Resumable, past
from .solver import SOLVER, _report_solution, _solve

__all__ = ["Claims", "KEEP_SOLVERS"]

#: Paused solvers kept at once (the least recently used one is killed beyond it).
KEEP_SOLVERS = 3


class Claims:
    """The claims "a witness of size at most ``k`` exists" of one search, each encoded once
    and decided by a solver kept between calls.

    Parameters
    ----------
    encode : callable
        ``encode(k)`` returns ``(clauses, decode)`` (``decode(model)`` is the witness), or
        ``None`` when the claim is not to be encoded (too large, or the deadline passed).
    size : callable, optional
        ``size(k)``, the number of clauses ``encode(k)`` would build, for
        :meth:`decide`'s ``most``.
    solver : str
        A python-sat solver name (:data:`~theorem.sat.SOLVER`).
    keep : int
        Paused solvers kept at once.

    Examples
    --------
    The biclique cover number of the transitive tournament on 3 vertices:

    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.sat import biclique_cover_cnf
    >>> g = transitive_tournament(3)
    >>> with Claims(lambda k: biclique_cover_cnf(g, k)) as claims:
    ...     (ok1, _), (ok2, cover) = claims.decide(1, None), claims.decide(2, None)
    >>> ok1, ok2, len(cover)
    (False, True, 2)
    """

    def __init__(self, encode: Callable, *, size: Callable | None = None,
                 solver: str = SOLVER, keep: int = KEEP_SOLVERS):
        self.encode, self.size, self.solver, self.keep = encode, size, solver, keep
        self._open: dict[int, tuple] = {}       # k -> (Resumable, decode)
        self._decided: dict[int, tuple] = {}

    def decide(self, k: int, deadline: float | None, *, most: int | None = None):
        """Whether a witness of size at most ``k`` exists, found before ``deadline``.

        A claim decided before is answered from memory; one left undecided goes on from
        where its solver was paused. Without a deadline a new claim is solved in process.

        Parameters
        ----------
        k : int
        deadline : float or None
            A ``time.monotonic()`` deadline; ``None`` to run until decided.
        most : int, optional
            Leave a claim not yet encoded undecided when its encoding would have more than
            this many clauses (needs ``size``).

        Returns
        -------
        found : bool or None
            ``True`` (a witness exists), ``False`` (none does) or ``None`` (undecided: the
            deadline passed, or the claim was not encoded).
        witness : object or None
            The decoded witness when ``found``.

        Examples
        --------
        >>> import time
        >>> from theorem.digraphs import transitive_tournament
        >>> from theorem.sat import biclique_cover_cnf, deadline_after
        >>> g = transitive_tournament(4)
        >>> with Claims(lambda k: biclique_cover_cnf(g, k)) as claims:
        ...     found, cover = claims.decide(3, deadline_after(60))
        ...     again = claims.decide(3, None)          # answered from memory
        ...     none = claims.decide(2, time.monotonic() - 1)   # a deadline passed
        >>> found, len(cover), again[1] is cover, none
        (True, 3, True, (None, None))
        """
        if k in self._decided:
            return self._decided[k]
        entry = self._open.pop(k, None)
        if entry is None:
            if past(deadline) or (most is not None and self.size is not None
                                  and self.size(k) > most):
                return None, None
            encoded = self.encode(k)
            if encoded is None:
                return None, None
            if deadline is None:
                return self._keep(k, _solve(encoded[0], self.solver), encoded[1])
            entry = (Resumable(_report_solution, encoded[0], self.solver), encoded[1])
        self._open[k] = entry                        # the most recently used last
        while len(self._open) > self.keep:
            self._open.pop(next(iter(self._open)))[0].close()
        answer, finished = entry[0].run(deadline)
        if not finished or answer is None:
            return None, None
        del self._open[k]
        entry[0].close()
        return self._keep(k, answer, entry[1])

    def _keep(self, k: int, answer: tuple, decode) -> tuple:
        """Remember the decided claim ``k`` from the solver's ``(found, model)``."""
        found, model = answer
        self._decided[k] = (found, decode(model) if found else None)
        return self._decided[k]

    def close(self) -> None:
        """Kill the solvers still paused; the claims decided stay known.

        Examples
        --------
        >>> from theorem.digraphs import transitive_tournament
        >>> from theorem.sat import biclique_cover_cnf
        >>> claims = Claims(lambda k: biclique_cover_cnf(transitive_tournament(3), k))
        >>> claims.decide(1, None)
        (False, None)
        >>> claims.close()
        >>> claims.decide(1, None)
        (False, None)
        """
        for child, _ in self._open.values():
            child.close()
        self._open.clear()

    def __enter__(self) -> "Claims":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
