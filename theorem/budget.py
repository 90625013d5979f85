"""Time limits that hold: deadlines, shares of a budget, and anytime work in a child process.

A solve with a time limit must return within it (plus a small overrun) on any input it
accepts, with the best bounds found so far. Pure-Python loops can check a deadline, but a
BLAS product, a LAPACK factorization or a SAT call cannot be interrupted. So every solve with
a deadline runs its search in a forked child process (:func:`anytime`): the child reports each
improvement through a pipe, the parent keeps the last report, and at the deadline the
parent kills the child's whole process group (SAT solvers the child started included) and
returns what it has. The parent itself only does work linear in the input (the trivial
witnesses and the final validation).
"""

from __future__ import annotations

import math
import multiprocessing
import numbers
import os
import signal
import time
from typing import Any, Callable

from .errors import TheoremError

__all__ = ["deadline_after", "past", "share", "seconds_left", "anytime"]

#: True inside a child started by :func:`anytime`: nested calls then run in process, under the
#: outer child's hard deadline, instead of forking again.
_IN_CHILD = False


def deadline_after(time_limit) -> float | None:
    """The ``time.monotonic()`` deadline ``time_limit`` seconds from now (``None``: no limit).

    Raises ``TypeError`` for a non-number and :class:`TheoremError` for a limit that is not a
    positive finite number of seconds.
    """
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
        raise TypeError(f"time_limit must be seconds (a number), not {type(time_limit).__name__}")
    if not (math.isfinite(time_limit) and time_limit > 0):
        raise TheoremError(
            f"time_limit must be a positive, finite number of seconds, got {time_limit}; "
            "pass None for no limit")
    return time.monotonic() + float(time_limit)


def past(deadline: float | None) -> bool:
    """Whether ``deadline`` has passed (never, for ``None``)."""
    return deadline is not None and time.monotonic() >= deadline


def seconds_left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (at least 0), or ``None`` for no deadline."""
    return None if deadline is None else max(deadline - time.monotonic(), 0.0)


def share(deadline: float | None, fraction: float, cap: float | None = None) -> float | None:
    """The deadline of a step allowed ``fraction`` of the time left, and at most ``cap``
    seconds when given (``None``: no limit, unless ``cap``)."""
    now = time.monotonic()
    end = math.inf if deadline is None else now + fraction * max(deadline - now, 0.0)
    if cap is not None:
        end = min(end, now + cap)
    return None if math.isinf(end) else end


def _child(send, work, args):
    global _IN_CHILD
    _IN_CHILD = True
    os.setpgid(0, 0)
    try:
        work(lambda state: send.send(("state", state)), *args)
        send.send(("done", None))
    except BaseException as exc:  # handed to the parent, which raises it
        try:
            send.send(("error", exc))
        except Exception:
            send.send(("error", RuntimeError(repr(exc))))
    finally:
        send.close()


def anytime(work: Callable[..., None], deadline: float | None, *args) -> tuple[Any, bool]:
    """Run ``work(report, *args)`` until it returns or ``deadline`` passes.

    ``work`` calls ``report(state)`` with each improved state (picklable). With a deadline it
    runs in a forked child process in its own process group, killed with everything it
    started when the deadline passes; without one (or inside such a child already) it runs in
    process. Returns ``(last state reported or None, finished)``; an exception raised by
    ``work`` is raised here.
    """
    states: list = [None]
    if deadline is None or _IN_CHILD:
        work(lambda state: states.__setitem__(0, state), *args)
        return states[0], True
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(send, work, args))
    child.start()
    send.close()
    try:
        os.setpgid(child.pid, child.pid)
    except OSError:  # the child already did it (or already exited)
        pass
    finished, error = False, None
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not receive.poll(left):
                break
            try:
                kind, value = receive.recv()
            except EOFError:  # the child died without a word (killed, out of memory)
                break
            if kind == "state":
                states[0] = value
            else:
                finished, error = True, (value if kind == "error" else None)
                break
    finally:
        if child.is_alive():
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except OSError:
                child.kill()
        child.join()
        receive.close()
    if error is not None:
        raise error
    return states[0], finished
