"""Time limits that hold: deadlines, shares of a budget, and anytime work in a child process.

A solve with a time limit must return within it (plus a small overrun) on any input it
accepts, with the best bounds found so far. Pure-Python loops can check a deadline, but a
BLAS product, a LAPACK factorization or a SAT call cannot be interrupted. So every solve with
a deadline runs its search in a forked child process (:func:`anytime`): the child reports each
improvement through a pipe, the parent keeps the last report, and at the deadline the
parent kills the child's whole process group (SAT solvers the child started included) and
returns what it has. The parent itself only does work linear in the input (the trivial
witnesses and the final validation), and keeps time for it (:func:`reserve`). SAT calls
(:func:`theorem.sat.solve_within`) are such children too.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from typing import Any, Callable

from manifolds.validation import as_positive

from ..errors import TheoremError

__all__ = ["deadline_after", "past", "share", "reserve", "anytime", "Resumable", "POLL_SLICE"]

#: True inside a child started by :func:`anytime`: nested children then stay in the outermost
#: child's process group (killed with it) instead of leading their own.
_IN_CHILD = False


def deadline_after(time_limit) -> float | None:
    """The deadline ``time_limit`` seconds from now, on the ``time.monotonic()`` clock.

    Every solve with a ``time_limit`` turns it into a deadline once, at its start, and hands
    the deadline down (docs/conventions.md#exact-answers: a limit yields bounds, never a
    guess).

    Parameters
    ----------
    time_limit : float or None
        Seconds, positive and finite; ``None`` for no limit.

    Returns
    -------
    float or None
        ``time.monotonic() + time_limit``, or ``None`` for no limit.

    Raises
    ------
    TypeError
        ``time_limit`` is not a real number.
    TheoremError
        ``time_limit`` is not a positive, finite number of seconds.

    Examples
    --------
    >>> import time
    >>> deadline_after(None) is None
    True
    >>> deadline_after(60) > time.monotonic()
    True
    >>> deadline_after(0)
    Traceback (most recent call last):
    ...
    theorem.errors.TheoremError: time_limit (seconds) must be finite and positive, got 0.0
    """
    if time_limit is None:
        return None
    return time.monotonic() + as_positive(time_limit, "time_limit (seconds)",
                                          error=TheoremError)


def past(deadline: float | None) -> bool:
    """Whether ``deadline`` has passed.

    Parameters
    ----------
    deadline : float or None
        A ``time.monotonic()`` time (:func:`deadline_after`), or ``None`` for no limit.

    Returns
    -------
    bool
        ``True`` once ``time.monotonic() >= deadline``; never for ``None``.

    Examples
    --------
    >>> import time
    >>> past(None), past(time.monotonic() - 1), past(deadline_after(60))
    (False, True, False)
    """
    return deadline is not None and time.monotonic() >= deadline


def share(deadline: float | None, fraction: float, cap: float | None = None) -> float | None:
    """The deadline of a step allowed ``fraction`` of the time left before ``deadline``.

    The step ends at ``now + fraction · (deadline − now)`` (``now`` once the deadline has
    passed), and at the latest ``cap`` seconds from now when ``cap`` is given.

    Parameters
    ----------
    deadline : float or None
        The caller's ``time.monotonic()`` deadline, or ``None`` for no limit.
    fraction : float
        Share of the time left, in ``[0, 1]``.
    cap : float, optional
        At most this many seconds for the step.

    Returns
    -------
    float or None
        The step's ``time.monotonic()`` deadline; ``None`` (no limit) when neither
        ``deadline`` nor ``cap`` is given.

    Examples
    --------
    >>> import time
    >>> share(None, 0.5) is None
    True
    >>> 0 < share(None, 0.5, cap=2.0) - time.monotonic() <= 2.0
    True
    >>> deadline = deadline_after(60)
    >>> share(deadline, 0.5) < deadline
    True
    """
    now = time.monotonic()
    end = math.inf if deadline is None else now + fraction * max(deadline - now, 0.0)
    if cap is not None:
        end = min(end, now + cap)
    return None if math.isinf(end) else end


def reserve(deadline: float | None, spent: float, factor: float = 2.0) -> float | None:
    """The deadline of a search, moved earlier to keep time for the work that follows it.

    ``spent`` is what the caller's own linear work (trivial witnesses) took, and about as
    much follows the search (receiving its result, mapping it back, validating it): moving
    ``deadline`` earlier by ``factor × spent`` lets the whole call end by ``deadline`` on
    inputs of any size. Self-calibrating: no machine speed is assumed.

    Parameters
    ----------
    deadline : float or None
        The call's ``time.monotonic()`` deadline, or ``None`` for no limit.
    spent : float
        Seconds the caller's own work has taken so far.
    factor : float
        How many times ``spent`` to keep back.

    Returns
    -------
    float or None
        ``deadline − factor · spent``, or ``None`` for no limit.

    Examples
    --------
    >>> reserve(100.0, 1.5)
    97.0
    >>> reserve(None, 1.5) is None
    True
    """
    return None if deadline is None else deadline - factor * spent


#: The longest a blocking wait lasts in one call (seconds), here and in the sweep engine: how
#: soon the main thread notices a Ctrl-C whose signal the kernel handed to another thread
#: (BLAS threads, a pool's manager thread: none of them block SIGINT), or that landed just
#: before it went to sleep; either way no system call of the main thread is interrupted.
POLL_SLICE = 0.1


def _child(send, work, args) -> None:
    """The forked child: run ``work``, send its reports and how it ended, exit at once."""
    global _IN_CHILD
    code = 0
    try:
        if not _IN_CHILD:  # the outermost child leads a process group: one kill ends it all
            os.setpgid(0, 0)
        _IN_CHILD = True
        work(lambda state: send.send(("state", state)), *args)
        send.send(("done", None))
    except BaseException as exc:  # handed to the parent, which raises it
        code = 1
        try:
            send.send(("error", exc))
        except Exception:
            send.send(("error", TheoremError(f"the search failed: {exc!r}")))
    finally:
        send.close()
        os._exit(code)  # no atexit handlers, no flushing of the parent's buffers


def anytime(work: Callable[..., None], deadline: float | None, *args) -> tuple[Any, bool]:
    """Run the anytime computation ``work(report, *args)`` until it returns or ``deadline``
    passes, and keep the last state it reported.

    ``work`` calls ``report(state)`` with each improved state (picklable). With a deadline it
    runs in a forked child process (``os.fork``: usable from daemonic pool workers too),
    killed when the deadline passes; the outermost such child leads a process group, so that
    everything it started (SAT solvers, nested searches) is killed with it. Without a
    deadline it runs in process. POSIX only (``os.fork``).

    Parameters
    ----------
    work : callable
        ``work(report, *args)``; its return value is ignored.
    deadline : float or None
        A ``time.monotonic()`` deadline (:func:`deadline_after`), or ``None`` to run in
        process without a limit.
    *args
        Passed on to ``work`` (inherited by the child, not pickled).

    Returns
    -------
    state : object or None
        The last state reported, or ``None`` when none was.
    finished : bool
        Whether ``work`` returned before the deadline (``False``: it was killed, or died).

    Raises
    ------
    Exception
        Whatever ``work`` raised, raised again here (from a child, one that cannot be
        pickled arrives as a :class:`TheoremError` naming it).

    Examples
    --------
    >>> def count(report, upto):
    ...     for i in range(upto):
    ...         report(i)
    >>> anytime(count, None, 3)                        # in process
    (2, True)
    >>> anytime(count, deadline_after(60), 3)          # in a forked child
    (2, True)
    >>> import time
    >>> def stuck(report):
    ...     time.sleep(60)
    >>> anytime(stuck, deadline_after(0.2))            # the child is killed at the deadline
    (None, False)
    """
    states: list = [None]
    if deadline is None:
        work(lambda state: states.__setitem__(0, state), *args)
        return states[0], True
    pid, receive, leader = _fork(work, args)
    try:
        finished, error = _collect(receive, deadline, states)
    finally:
        _kill(pid, leader)
        receive.close()
    if error is not None:
        raise error
    return states[0], finished


class Resumable:
    """The computation ``work(report, *args)`` in a forked child that a deadline pauses
    instead of killing: each :meth:`run` goes on from where the last one stopped.

    The child is started by the first :meth:`run` and stopped (``SIGSTOP``) when that run's
    deadline passes; the next run continues it (``SIGCONT``), so that an uninterruptible
    computation — a SAT call — is spread over several calls without losing or redoing any
    work, and without ever running past a deadline. A stopped child holds its memory but no
    processor. It stays in the process group of the outermost :func:`anytime` child when
    there is one (killed with it), and :meth:`close` kills it.

    Parameters
    ----------
    work : callable
        ``work(report, *args)``, as for :func:`anytime`.
    *args
        Passed on to ``work`` (inherited by the child, not pickled).

    Examples
    --------
    >>> import time
    >>> def count(report, upto):
    ...     for i in range(upto):
    ...         time.sleep(0.01)
    ...         report(i)
    >>> with Resumable(count, 50) as child:
    ...     first = child.run(deadline_after(0.05))
    ...     last = child.run(deadline_after(60))
    >>> first[1], first[0] < 49, last
    (False, True, (49, True))
    """

    def __init__(self, work: Callable[..., None], *args):
        self._work, self._args = work, args
        self._states: list = [None]
        self._child = None               # (pid, receive, leader) once started
        self._ended: tuple | None = None  # (finished, error) once the child ended
        self._reaped = False

    def run(self, deadline: float | None) -> tuple[Any, bool]:
        """Run (or continue) the child until it ends or ``deadline`` passes; when this
        returns, the child has ended or is stopped.

        Parameters
        ----------
        deadline : float or None
            A ``time.monotonic()`` deadline; ``None`` to run until the child ends.

        Returns
        -------
        state : object or None
            The last state reported so far (by this run or an earlier one).
        finished : bool
            Whether ``work`` has returned.

        Raises
        ------
        Exception
            Whatever ``work`` raised, as :func:`anytime` raises it.

        Examples
        --------
        >>> def count(report, upto):
        ...     for i in range(upto):
        ...         report(i)
        >>> child = Resumable(count, 3)
        >>> child.run(None), child.run(None)        # an ended child keeps its answer
        ((2, True), (2, True))
        """
        if self._ended is None:
            if self._child is None:
                self._child = _fork(self._work, self._args)
            else:
                os.kill(self._child[0], signal.SIGCONT)
            pid, receive, _ = self._child
            ended = _collect(receive, math.inf if deadline is None else deadline,
                             self._states)
            if not ended[0]:
                os.kill(pid, signal.SIGSTOP)
                _, status = os.waitpid(pid, os.WUNTRACED)     # stopped, or ended meanwhile
                if not os.WIFSTOPPED(status):
                    self._reaped = True
                    ended = _collect(receive, math.inf, self._states)   # what it sent last
            if ended[0] or self._reaped:
                self._ended = ended
                self.close()
        if self._ended is not None and self._ended[1] is not None:
            raise self._ended[1]
        return self._states[0], self._ended is not None and self._ended[0]

    def close(self) -> None:
        """Kill the child, if it still runs or waits; later runs return what it reported
        before, unfinished.

        Examples
        --------
        >>> import time
        >>> def forever(report):
        ...     while True:
        ...         time.sleep(0.01)
        >>> child = Resumable(forever)
        >>> child.run(deadline_after(0.05))
        (None, False)
        >>> child.close()
        >>> child.run(None)                         # not started again
        (None, False)
        """
        if self._child is not None:
            pid, receive, leader = self._child
            self._child = None
            if not self._reaped:
                _kill(pid, leader)
            receive.close()
            if self._ended is None:
                self._ended = (False, None)

    def __enter__(self) -> "Resumable":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _fork(work, args):
    """Start ``work(report, *args)`` in a forked child (:func:`_child`); returns its pid, the
    end of the pipe its reports arrive on, and whether it leads a process group."""
    receive, send = multiprocessing.Pipe(duplex=False)
    leader = not _IN_CHILD
    # Ctrl-C is the parent's to handle, and it kills the child on its way out: SIGINT stays
    # blocked across the fork, until the child ignores it and the parent is back in charge
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except BaseException:  # no child (EAGAIN, ENOMEM): SIGINT must not stay blocked here,
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)    # nor in what this starts next
        receive.close()
        send.close()
        raise
    if pid == 0:  # pragma: no cover (the child exits inside)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        receive.close()
        _child(send, work, args)
    send.close()
    if leader:  # before any kill can be asked for: the group must exist to be killed
        try:
            os.setpgid(pid, pid)
        except OSError:  # the child did it first, or has exited
            pass
    try:
        # a Ctrl-C that came during the fork is raised here: the caller's cleanup kills it
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    except BaseException:
        _kill(pid, leader)
        receive.close()
        raise
    return pid, receive, leader


def _collect(receive, deadline: float, states: list) -> tuple[bool, BaseException | None]:
    """Keep the child's reports in ``states[0]`` until it ends or ``deadline`` passes;
    returns ``(finished, error)``: ``finished`` when ``work`` returned or raised."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False, None
        # wait in short slices: a Ctrl-C that the kernel hands to another thread (BLAS
        # threads do not block SIGINT) does not end a long poll, only the next bytecode
        if not receive.poll(min(left, POLL_SLICE)):
            continue
        try:
            kind, value = receive.recv()
        except EOFError:  # the child died without a word (killed, out of memory)
            return False, None
        if kind == "state":
            states[0] = value
        else:
            return True, (value if kind == "error" else None)


def _kill(pid: int, leader: bool) -> None:
    """Kill the child (its whole process group when it leads one) and wait for it."""
    try:
        if leader:
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except OSError:  # already gone
        pass
    os.waitpid(pid, 0)
