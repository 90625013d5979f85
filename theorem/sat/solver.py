"""A SAT call with a wall-clock deadline (python-sat, CaDiCaL 1.9.5 by default).

python-sat's CaDiCaL cannot be interrupted, so a call with a deadline runs in a forked child
process (:func:`theorem.sat.budget.anytime`) that is killed when the deadline passes; calls
without one run in process.
"""

from __future__ import annotations

import time

from pysat.solvers import Solver

from .budget import anytime

__all__ = ["SOLVER", "solve_within"]

SOLVER = "cadical195"


def _solve(clauses, solver: str):
    with Solver(name=solver, bootstrap_with=clauses) as s:
        ok = s.solve()
        return ok, (s.get_model() if ok else None)


def _report_solution(report, clauses, solver: str) -> None:
    report(_solve(clauses, solver))


def solve_within(clauses, deadline: float | None, *, solver: str = SOLVER):
    """Decide the satisfiability of a CNF formula before ``deadline``.

    With a deadline the call runs in a forked child killed at the deadline
    (:func:`~theorem.sat.budget.anytime`); without one it runs in process. A deadline already
    passed answers ``(None, None)`` without starting the solver.

    Parameters
    ----------
    clauses : list of list of int
        DIMACS-style clauses: non-zero ints, ``-v`` the negation of variable ``v``.
    deadline : float or None
        A ``time.monotonic()`` deadline (:func:`~theorem.sat.budget.deadline_after`), or
        ``None`` for no limit.
    solver : str
        A python-sat solver name; default :data:`SOLVER` (CaDiCaL 1.9.5).

    Returns
    -------
    found : bool or None
        ``True`` satisfiable, ``False`` unsatisfiable, ``None`` when the deadline stopped the
        search.
    model : list of int or None
        When satisfiable, a literal per variable (``v`` true, ``-v`` false); else ``None``.

    Examples
    --------
    >>> import time
    >>> solve_within([[1, 2], [-1]], None)
    (True, [-1, 2])
    >>> solve_within([[1, 2], [-1], [-2]], None)
    (False, None)
    >>> solve_within([[1, 2], [-1]], time.monotonic() - 1)     # the deadline has passed
    (None, None)
    """
    if deadline is None:
        return _solve(clauses, solver)
    if deadline <= time.monotonic():
        return None, None
    found, finished = anytime(_report_solution, deadline, clauses, solver)
    return found if finished and found is not None else (None, None)
