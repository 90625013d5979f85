"""The options every command shares: the digraph (``--digraph FILE`` or ``--family NAME --n
N [--m M]``) and the output (``--json``, ``--progress``)."""

from __future__ import annotations

from ..digraphs.digraph import AttentionDigraph
from ..digraphs.families import FAMILIES, named_family
from ..digraphs.random_hub import random_hub_extension
from ..errors import TheoremError
from ..sat.budget import deadline_after

__all__ = ["digraph_arguments", "output_arguments", "digraph_from", "time_limit_from"]


def digraph_from(args):
    """The digraph the options name: ``--digraph FILE`` or ``--family NAME --n N [--m M]``.

    A file is read by :meth:`~theorem.digraphs.AttentionDigraph.read` (``--drop-loops``
    drops loops); a family is built by :func:`~theorem.digraphs.named_family`, or for
    ``random-hub`` by :func:`~theorem.digraphs.random_hub_extension` with ``--hubs``, ``--p``
    and ``--seed`` (docs/conventions.md#command-line).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed with :func:`digraph_arguments` (``digraph``, ``family``, ``n``, ``m``,
        ``hubs``, ``p``, ``drop_loops``), and ``seed`` for ``random-hub``.

    Returns
    -------
    digraph : AttentionDigraph
    planted : HubExtension or None
        The planted hub extension of a ``random-hub`` digraph, else ``None``.

    Raises
    ------
    TheoremError
        A family without ``--n``, or ``random-hub`` without ``--hubs`` and ``--p``; the
        errors of the reader and of the families (a bad file, a missing ``--m``, a size out
        of range) pass through.

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> digraph_arguments(parser, required=True)
    >>> digraph_from(parser.parse_args(["--family", "cycle", "--n", "4"]))
    (AttentionDigraph(n=4, n_edges=4), None)
    >>> args = parser.parse_args(["--family", "random-hub", "--n", "10", "--hubs", "3",
    ...                           "--p", "0.5"])
    >>> args.seed = 0
    >>> g, planted = digraph_from(args)
    >>> planted.validate(g); g.n
    10
    """
    if args.digraph:
        return AttentionDigraph.read(args.digraph, drop_loops=args.drop_loops), None
    if args.n is None:
        raise TheoremError(f"--family {args.family} needs --n N")
    if args.family == "random-hub":
        if args.hubs is None or args.p is None:
            raise TheoremError("--family random-hub needs --hubs H and --p P (and --seed)")
        return random_hub_extension(args.n, args.hubs, args.p, rng=args.seed)
    return named_family(args.family, args.n, args.m), None


def digraph_arguments(parser, *, required: bool) -> None:
    """Add the digraph options every command shares to ``parser``.

    ``--digraph FILE`` or ``--family NAME`` (mutually exclusive), ``--n N``, ``--m M``,
    ``--hubs H`` and ``--p P`` (``random-hub``), and ``--drop-loops``
    (docs/conventions.md#command-line). :func:`digraph_from` turns them into a digraph.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        Modified in place.
    required : bool
        Whether one of ``--digraph`` and ``--family`` must be given.

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> digraph_arguments(parser, required=True)
    >>> args = parser.parse_args(["--family", "strided", "--n", "8", "--m", "2"])
    >>> args.family, args.n, args.m, args.digraph, args.drop_loops
    ('strided', 8, 2, None, False)
    """
    source = parser.add_mutually_exclusive_group(required=required)
    source.add_argument("--digraph", metavar="FILE",
                        help="edge list ('u v' lines, '#' comments) or .json")
    source.add_argument("--family", choices=sorted(FAMILIES) + ["random-hub"])
    parser.add_argument("--n", type=int, help="vertices (complete-bipartite: |A|)")
    parser.add_argument("--m", type=int, help="second parameter: B, W, S or BLOCK")
    parser.add_argument("--hubs", type=int, help="random-hub: number of hubs")
    parser.add_argument("--p", type=float, help="random-hub: join probability")
    parser.add_argument("--drop-loops", action="store_true", help="drop loops read from --digraph")


def output_arguments(parser) -> None:
    """Add the output options to ``parser``: ``--json`` and ``--progress``.

    With ``--json`` standard output is exactly one JSON object; ``--progress`` still reports
    progress on standard error (docs/conventions.md#command-line).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        Modified in place.

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> output_arguments(parser)
    >>> parser.parse_args(["--json"])
    Namespace(json=True, progress=False)
    """
    parser.add_argument("--json", action="store_true",
                        help="print exactly one JSON object on standard output")
    parser.add_argument("--progress", action="store_true",
                        help="with --json, still report progress on standard error")


def time_limit_from(args) -> float:
    """The ``--time-limit`` option, checked: the wall-clock budget, in seconds, of the whole
    command (docs/conventions.md#command-line).

    Parameters
    ----------
    args : argparse.Namespace
        With ``time_limit``.

    Returns
    -------
    float
        ``args.time_limit``, unchanged.

    Raises
    ------
    TheoremError
        ``time_limit`` is not a positive, finite number of seconds (0, negative, NaN or
        infinite).

    Examples
    --------
    >>> from argparse import Namespace
    >>> time_limit_from(Namespace(time_limit=30.0))
    30.0
    >>> time_limit_from(Namespace(time_limit=float("inf")))
    Traceback (most recent call last):
    ...
    theorem.errors.TheoremError: --time-limit must be a positive, finite number of seconds, got inf
    """
    try:
        deadline_after(args.time_limit)
    except TheoremError:
        raise TheoremError(f"--time-limit must be a positive, finite number of seconds, "
                           f"got {args.time_limit}") from None
    return args.time_limit
