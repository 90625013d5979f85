"""A local search replaced by a recorder, for the tests of the descents' schedules."""

import time


def recorded(monkeypatch, module, name, run, time_limit, found=None, found_at=None):
    """Runs ``run(deadline, report)`` with ``module.name`` (a local search) replaced by a
    recorder that gives up after 2 ms (or, on call ``found_at``, returns ``found``); returns
    the calls (their keyword arguments, and the size searched under ``"size"``), the result,
    the witnesses reported and the seconds taken."""
    calls = []

    def search(digraph, size, **kwargs):
        calls.append(dict(kwargs, size=size))
        time.sleep(0.002)
        return found if len(calls) == found_at else None

    monkeypatch.setattr(module, name, search)
    begin = time.monotonic()
    deadline = None if time_limit is None else begin + time_limit
    reported = []
    result = run(deadline, reported.append)
    return calls, result, reported, time.monotonic() - begin
