"""A SAT call with a wall-clock deadline (python-sat, CaDiCaL 1.9.5 by default).

python-sat's CaDiCaL cannot be interrupted, so a call with a deadline runs in a forked child
process (:func:`theorem.budget.anytime`) that is killed when the deadline passes; calls
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
    """Solve ``clauses`` (lists of non-zero ints) before ``deadline`` (``time.monotonic()``
    seconds, or ``None`` for no limit).

    Returns ``(True, model)``, ``(False, None)`` when unsatisfiable, or ``(None, None)`` when
    the deadline stopped the search.
    """
    if deadline is None:
        return _solve(clauses, solver)
    if deadline <= time.monotonic():
        return None, None
    found, finished = anytime(_report_solution, deadline, clauses, solver)
    return found if finished and found is not None else (None, None)
