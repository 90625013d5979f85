"""A SAT call with a wall-clock deadline (python-sat, CaDiCaL 1.9.5 by default).

python-sat's CaDiCaL cannot be interrupted, so a call with a deadline runs in a forked child
process that is terminated when the deadline passes; calls without one run in process.
"""

from __future__ import annotations

import multiprocessing
import time

from pysat.solvers import Solver

__all__ = ["SOLVER", "solve_within"]

SOLVER = "cadical195"


def _solve(clauses, solver: str):
    with Solver(name=solver, bootstrap_with=clauses) as s:
        ok = s.solve()
        return ok, (s.get_model() if ok else None)


def _child(conn, clauses, solver):
    conn.send(_solve(clauses, solver))
    conn.close()


def solve_within(clauses, deadline: float | None, *, solver: str = SOLVER):
    """Solve ``clauses`` (lists of non-zero ints) before ``deadline`` (``time.monotonic()``
    seconds, or ``None`` for no limit).

    Returns ``(True, model)``, ``(False, None)`` when unsatisfiable, or ``(None, None)`` when
    the deadline stopped the search.
    """
    if deadline is None:
        return _solve(clauses, solver)
    left = deadline - time.monotonic()
    if left <= 0:
        return None, None
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(send, clauses, solver), daemon=True)
    child.start()
    send.close()
    try:
        if receive.poll(left):
            return receive.recv()
        return None, None
    finally:
        if child.is_alive():
            child.terminate()
        child.join()
        receive.close()
