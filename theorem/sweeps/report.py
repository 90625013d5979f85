"""Summary statistics of a sweep's rows, per grid cell ``(n, p, N)``.

docs/sweeps.md#reading-the-results.
"""

from __future__ import annotations

import numpy as np

from ..errors import SweepError
from .grid import INVARIANTS

__all__ = ["summarize_sweep"]


def summarize_sweep(rows) -> list[dict]:
    """Per ``(hubs, p, N)``: the number of rows, the mean planted hub count, and per invariant
    the mean, median, 10 % and 90 % quantiles of its value and the share proved optimal.

    The value of an unproved invariant is its upper bound (the best witness found); the
    share proved says how many rows that concerns.

    Parameters
    ----------
    rows : iterable of dict
        Rows of a sweep (:class:`.engine.SweepResult` ``rows``, or :func:`.table.read_rows`).

    Raises
    ------
    SweepError
        No rows, rows without the random hub columns, or a row with an empty one.

    Returns
    -------
    list of dict
        Sorted by ``(hubs, p, N)``; keys ``hubs``, ``p``, ``N``, ``rows``, ``planted_hubs``,
        and per invariant ``X`` present in the rows a dict ``X`` with ``mean``, ``median``,
        ``q10``, ``q90``, ``optimal`` (a share in ``[0, 1]``).

    Examples
    --------
    >>> rows = [{"N": 10, "hubs": 2, "p": 0.5, "seed": s, "planted_hubs": 2, "b": b,
    ...          "b_optimal": True} for s, b in enumerate([2, 2, 1, 2])]
    >>> cell = summarize_sweep(rows)[0]
    >>> cell["rows"], cell["b"]["median"], cell["b"]["optimal"]
    (4, 2.0, 1.0)
    """
    rows = list(rows)
    if not rows:
        raise SweepError("the sweep has no rows yet; run it (or let it finish) first")
    needed = ["N", "hubs", "p", "planted_hubs"]
    missing = [c for c in needed if c not in rows[0]]
    if missing:
        raise SweepError(f"these rows are not a random hub sweep's: no column {missing[0]} "
                         f"(they have {sorted(rows[0])[:8]}…)")
    bad = next((r for r in rows if any(r[c] is None for c in needed)), None)
    if bad is not None:
        raise SweepError(f"a row has an empty cell among {needed}: {bad}; the file is damaged")
    names = [n for n in INVARIANTS if n in rows[0]]
    cells: dict = {}
    for row in rows:
        cells.setdefault((row["hubs"], row["p"], row["N"]), []).append(row)
    summary = []
    for (hubs, p, n), group in sorted(cells.items()):
        entry = {"hubs": hubs, "p": p, "N": n, "rows": len(group),
                 "planted_hubs": float(np.mean([r["planted_hubs"] for r in group]))}
        for name in names:
            values = np.array([r[name] for r in group], dtype=float)
            entry[name] = {"mean": float(values.mean()), "median": float(np.median(values)),
                           "q10": float(np.quantile(values, 0.1)),
                           "q90": float(np.quantile(values, 0.9)),
                           "optimal": float(np.mean([bool(r[f"{name}_optimal"]) for r in group]))}
        summary.append(entry)
    return summary
