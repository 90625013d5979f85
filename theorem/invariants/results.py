"""Result types of the invariants: a value with its witness and lower-bound certificate."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..digraphs.digraph import AttentionDigraph
from ..digraphs.hubs import HubExtension
from ..errors import TheoremError
from ..digraphs.trim import Trimmed
from ..sat.budget import anytime, reserve

__all__ = ["Certificate", "InvariantResult", "check_result", "unsat_certificate", "relabelled",
           "solved"]


@dataclass(frozen=True)
class Certificate:
    """What proves a lower bound: a bound theorem applied to a structure found in the input
    (``kind`` names the theorem, ``data`` holds the structure) or an UNSAT result."""

    kind: str
    statement: str
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class InvariantResult:
    """An invariant's value with ``lower_bound ≤ value = upper_bound``; ``optimal`` when the
    bounds meet. ``witness`` realizes ``upper_bound``; ``certificate`` proves ``lower_bound``;
    ``elapsed`` is wall-clock seconds."""

    name: str
    value: int
    lower_bound: int
    upper_bound: int
    optimal: bool
    witness: Any
    certificate: Certificate
    elapsed: float


#: How each invariant's value is read from its witness.
_SIZES = {"biclique_cover_number": lambda w: w.n_hubs, "hub_chromatic_index": lambda w: w.n_colors}


def check_result(result, name: str, digraph: AttentionDigraph, argument: str) -> InvariantResult:
    """``result`` checked as the result of ``name`` (``"biclique_cover_number"`` or
    ``"hub_chromatic_index"``) for ``digraph``, before a caller builds on it.

    Its witness is validated on ``digraph`` and must realize ``result.value``; its lower bound
    is taken on trust (:func:`~theorem.invariants.check_unsat_certificate` proves an UNSAT one
    again).

    Parameters
    ----------
    result : InvariantResult
    name : str
        The invariant it must be a result of.
    digraph : AttentionDigraph
    argument : str
        The caller's argument name, for the messages.

    Returns
    -------
    InvariantResult
        ``result`` itself.

    Raises
    ------
    TypeError
        When ``result`` is not an :class:`InvariantResult`.
    TheoremError
        When it is a result of another invariant, or of another digraph (its witness is not a
        hub extension of ``digraph``, or does not have ``result.value`` hubs or colors).

    Examples
    --------
    >>> from theorem.digraphs import transitive_tournament
    >>> from theorem.invariants import biclique_cover_number
    >>> b = biclique_cover_number(transitive_tournament(3))
    >>> check_result(b, "biclique_cover_number", transitive_tournament(3), "b").value
    2
    >>> check_result(b, "biclique_cover_number", transitive_tournament(4), "b")
    Traceback (most recent call last):
    ...
    theorem.errors.TheoremError: b is not a result for this digraph: edge (0, 3) is covered by no hub; add a hub or enlarge one
    """
    if not isinstance(result, InvariantResult):
        raise TypeError(f"{argument} must be an InvariantResult, not {type(result).__name__}")
    if result.name != name:
        raise TheoremError(f"{argument} must be a result of {name}, not of {result.name}")
    try:
        result.witness.validate(digraph)
    except TheoremError as exc:
        raise TheoremError(f"{argument} is not a result for this digraph: {exc}") from None
    if _SIZES[name](result.witness) != result.value:
        raise TheoremError(f"{argument} says {result.value} but its witness has "
                           f"{_SIZES[name](result.witness)}; pass an unmodified result")
    return result


def unsat_certificate(claim, solver: str, data: dict | None = None):
    """``refuted(k)`` for :func:`theorem.sat.search.descend`: the certificate that no
    ``claim(k)`` exists, from an UNSAT result of ``solver``, recording ``data``."""
    return lambda k: Certificate("unsat", f"no {claim(k)} ({solver})",
                                 {"k": k, "solver": solver, **(data or {})})


#: Certificate data that hold vertices, by the shape they are stored in.
_VERTEX_LISTS = ("vertices", "sequence")
_EDGE_LISTS = ("edges", "fooling_set")


def relabelled(certificate: Certificate | None, trimmed: Trimmed) -> Certificate | None:
    """A certificate found on ``trimmed.digraph``, in the original digraph's vertex numbers."""
    if trimmed.identity or certificate is None:
        return certificate
    v = trimmed.vertices
    data = dict(certificate.data)
    for key in _VERTEX_LISTS:
        if key in data:
            data[key] = v[np.asarray(data[key], dtype=np.int64)].tolist()
    for key in _EDGE_LISTS:
        if key in data:
            data[key] = v[np.asarray(data[key], dtype=np.int64).reshape(-1, 2)].tolist()
    if "weights" in data:
        w = np.asarray(data["weights"], dtype=np.int64).reshape(-1, 3)
        data["weights"] = np.column_stack([v[w[:, :2]], w[:, 2]]).tolist()
    if certificate.kind == "complete-subdigraph":  # its statement names the vertices
        from .biclique_cover import complete_subdigraph_certificate

        return complete_subdigraph_certificate(data["vertices"])
    return Certificate(certificate.kind, certificate.statement, data)


def solved(name: str, size, state, trimmed: Trimmed, start: float, deadline, search,
           begin: HubExtension, solver: str) -> InvariantResult:
    """The result of ``search(report, digraph, begin, deadline, solver)`` run under
    :func:`~theorem.sat.budget.anytime` on the trimmed digraph, against the trivial
    ``state = (witness, lower, certificate)``: the smaller witness and the larger lower bound
    of the two, mapped back to the original digraph and validated there. ``start`` is when
    the call began (``time.perf_counter()``)."""
    deadline = reserve(deadline, time.perf_counter() - start)
    found, _ = anytime(search, deadline, trimmed.digraph, begin, deadline, solver)
    witness, lower, certificate = state
    if found is not None:
        witness = min(witness, found[0], key=size)
        lower, certificate = max((lower, certificate), (found[1], found[2]), key=lambda lc: lc[0])
    witness, certificate = trimmed.extension(witness), relabelled(certificate, trimmed)
    witness.validate(trimmed.original)
    value = size(witness)
    return InvariantResult(name, value, lower, value, value == lower, witness, certificate,
                           time.perf_counter() - start)
