"""The random hub grid: one task per ``(N, n, p, seed)``, and the task that solves one.

docs/sweeps.md. A grid point is a dict ``{"N": N, "hubs": n, "p": p, "seed": s}``; the task
:func:`random_hub_task` draws ``random_hub_extension(N, n, p, rng=s)`` and computes the chosen
invariants within its time limit, returning one row (a dict) with every invariant's value,
bounds, ``optimal`` flag and time, and the planted hub count.
"""

from __future__ import annotations

import itertools
import numbers
import time

from manifolds.validation import as_integer, as_positive, as_probability

from ..digraphs.random_hub import random_hub_extension
from ..errors import SweepError
from ..invariants.biclique_cover import biclique_cover_number
from ..invariants.edge_coloring import chromatic_index
from ..invariants.hub_chromatic import hub_chromatic_index

__all__ = ["INVARIANTS", "KEY", "random_hub_grid", "random_hub_task", "row_columns",
           "invariant_columns", "solve_invariants"]

#: The invariants a sweep can record, by column prefix.
INVARIANTS = ("b", "chi_hub", "chi_prime")

#: The columns naming a grid point (a row's key).
KEY = ("N", "hubs", "p", "seed")


def _values(values, name: str, check) -> list:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        values = [values]
    values = [check(v, name) for v in values]
    if not values:
        raise SweepError(f"{name} is empty; give at least one value")
    if len(set(values)) < len(values):
        raise SweepError(f"{name} repeats a value: {values}; give each value once")
    return values


def random_hub_grid(N, hubs, p, seeds) -> list[dict]:
    """The points ``(N, n, p, seed)`` of a random hub sweep, in grid order.

    Parameters
    ----------
    N : int or sequence of int
        Vertices, each at least 2.
    hubs : int or sequence of int
        Hubs ``n``, each at least 1.
    p : float or sequence of float
        Join probabilities, each in ``[0, 1]``.
    seeds : int or sequence of int
        A count ``K`` (the seeds ``0..K-1``) or the seeds themselves (each ``≥ 0``).

    Returns
    -------
    list of dict
        ``{"N", "hubs", "p", "seed"}`` for every combination, ``N`` slowest, seed fastest.

    Raises
    ------
    SweepError
        A value out of range (``p`` outside ``[0, 1]``, ``n < 1``, ``N < 2``, a negative
        seed, a count below 1), a list empty or with a repeated value.
    TypeError
        A value is not a number of the right kind.

    Examples
    --------
    >>> points = random_hub_grid([10, 20], 4, [0.2, 0.4], 2)
    >>> len(points), points[0], points[-1]
    (8, {'N': 10, 'hubs': 4, 'p': 0.2, 'seed': 0}, {'N': 20, 'hubs': 4, 'p': 0.4, 'seed': 1})
    >>> random_hub_grid(10, 4, 1.5, 2)
    Traceback (most recent call last):
        ...
    theorem.errors.SweepError: p must be a probability in [0, 1], got 1.5
    """
    ns = _values(N, "N", lambda v, name: as_integer(v, name, minimum=2, error=SweepError))
    hs = _values(hubs, "hubs", lambda v, name: as_integer(v, name, minimum=1, error=SweepError))
    ps = _values(p, "p", lambda v, name: as_probability(v, name, error=SweepError))
    if isinstance(seeds, numbers.Integral) and not isinstance(seeds, bool):
        seeds = list(range(as_integer(seeds, "seeds", minimum=1, error=SweepError)))
    ss = _values(seeds, "seeds", lambda v, name: as_integer(v, "a seed", minimum=0,
                                                            error=SweepError))
    return [{"N": n, "hubs": h, "p": q, "seed": s}
            for n, h, q, s in itertools.product(ns, hs, ps, ss)]


def _check_invariants(invariants) -> tuple[str, ...]:
    if isinstance(invariants, str):
        invariants = [invariants]
    invariants = tuple(invariants)
    unknown = [i for i in invariants if i not in INVARIANTS]
    if unknown or not invariants or len(set(invariants)) < len(invariants):
        raise SweepError(f"invariants must be distinct names among {', '.join(INVARIANTS)}, "
                         f"got {list(invariants)}")
    return tuple(i for i in INVARIANTS if i in invariants)


def invariant_columns(invariants=INVARIANTS) -> list[str]:
    """The columns :func:`solve_invariants` fills: per invariant ``X``: ``X`` (the best value
    found: the upper bound), ``X_lower``, ``X_upper``, ``X_optimal``, ``X_seconds``.

    Parameters
    ----------
    invariants : sequence of str
        Among :data:`INVARIANTS`.

    Returns
    -------
    list of str

    Raises
    ------
    SweepError
        An unknown or repeated invariant, or none.

    Examples
    --------
    >>> invariant_columns(["b"])
    ['b', 'b_lower', 'b_upper', 'b_optimal', 'b_seconds']
    """
    return [f"{name}{part}" for name in _check_invariants(invariants)
            for part in ("", "_lower", "_upper", "_optimal", "_seconds")]


def solve_invariants(digraph, invariants=INVARIANTS, time_limit: float = 10.0) -> dict:
    """The chosen invariants of one digraph within ``time_limit``, as row cells.

    ``χ'`` (polynomial) first, then ``b`` with half of what is left when ``χ_hub`` is also
    asked for (all of it otherwise), then ``χ_hub`` given ``b``'s result with the rest. An
    invariant the limit leaves unproved keeps both bounds and ``optimal = False``.

    Parameters
    ----------
    digraph : AttentionDigraph
    invariants : sequence of str
        Among :data:`INVARIANTS`.
    time_limit : float
        Seconds for all of them.

    Returns
    -------
    dict
        One value per :func:`invariant_columns` column.

    Raises
    ------
    SweepError
        An unknown invariant, or ``time_limit`` not a positive, finite number of seconds.

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> cells = solve_invariants(transitive_tournament(3), ["b", "chi_prime"])
    >>> cells["b"], cells["b_optimal"], cells["chi_prime"]
    (2, True, 2)
    """
    invariants = _check_invariants(invariants)
    time_limit = as_positive(time_limit, "time_limit (seconds)", error=SweepError)
    start = time.monotonic()
    results = {}
    if "chi_prime" in invariants:
        results["chi_prime"] = chromatic_index(digraph)
    if "b" in invariants or "chi_hub" in invariants:
        left = time_limit - (time.monotonic() - start)
        share = left / 2 if "chi_hub" in invariants else left
        results["b"] = biclique_cover_number(digraph, time_limit=max(share, 1e-3))
    if "chi_hub" in invariants:
        left = time_limit - (time.monotonic() - start)
        results["chi_hub"] = hub_chromatic_index(digraph, time_limit=max(left, 1e-3),
                                                 biclique_cover=results["b"])
    cells = {}
    for name in invariants:
        r = results[name]
        cells.update({name: r.value, f"{name}_lower": r.lower_bound,
                      f"{name}_upper": r.upper_bound, f"{name}_optimal": r.optimal,
                      f"{name}_seconds": round(r.elapsed, 4)})
    return cells


def row_columns(invariants=INVARIANTS) -> list[str]:
    """The columns of a random hub sweep's rows, in order.

    The key (:data:`KEY`), ``planted_hubs`` and ``edges``, the invariants' columns
    (:func:`invariant_columns`) and ``seconds`` (the whole task).

    Parameters
    ----------
    invariants : sequence of str
        Among :data:`INVARIANTS`.

    Returns
    -------
    list of str

    Raises
    ------
    SweepError
        An unknown or repeated invariant, or none.

    Examples
    --------
    >>> row_columns(["chi_prime"])
    ['N', 'hubs', 'p', 'seed', 'planted_hubs', 'edges', 'chi_prime', 'chi_prime_lower', 'chi_prime_upper', 'chi_prime_optimal', 'chi_prime_seconds', 'seconds']
    """
    return [*KEY, "planted_hubs", "edges", *invariant_columns(invariants), "seconds"]


def random_hub_task(point: dict, invariants=INVARIANTS, time_limit: float = 10.0) -> dict:
    """Solve one grid point: draw the random hub digraph and compute its invariants
    (:func:`solve_invariants`); the row is recorded even when the limit leaves an invariant
    unproved.

    Parameters
    ----------
    point : dict
        ``{"N", "hubs", "p", "seed"}`` (:func:`random_hub_grid`).
    invariants : sequence of str
        Among :data:`INVARIANTS`.
    time_limit : float
        Seconds for the whole task.

    Returns
    -------
    dict
        One value per :func:`row_columns` column.

    Raises
    ------
    SweepError
        An unknown invariant, or ``time_limit`` not a positive, finite number of seconds.

    Examples
    --------
    >>> row = random_hub_task({"N": 8, "hubs": 2, "p": 0.5, "seed": 0}, time_limit=10)
    >>> row["b"] <= row["planted_hubs"], row["b_optimal"], row["chi_hub"] <= row["b"]
    (True, True, True)
    """
    start = time.monotonic()
    digraph, planted = random_hub_extension(point["N"], point["hubs"], point["p"],
                                            rng=point["seed"])
    row = {**{k: point[k] for k in KEY}, "planted_hubs": planted.n_hubs,
           "edges": digraph.n_edges, **solve_invariants(digraph, invariants, time_limit),
           "seconds": round(time.monotonic() - start, 4)}
    return {c: row[c] for c in row_columns(invariants)}
