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
    """The digraph named by ``--digraph FILE`` or ``--family NAME --n N [--m M]``."""
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
    """The digraph options every command shares: ``--digraph FILE`` or ``--family NAME --n N
    [--m M]`` (``random-hub`` with ``--hubs``, ``--p``), and ``--drop-loops``."""
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
    """``--json`` (exactly one object on standard output) and ``--progress``."""
    parser.add_argument("--json", action="store_true",
                        help="print exactly one JSON object on standard output")
    parser.add_argument("--progress", action="store_true",
                        help="with --json, still report progress on standard error")


def time_limit_from(args) -> float:
    """``--time-limit``, checked: a positive, finite number of seconds (the budget of the
    whole command), else :class:`TheoremError`."""
    try:
        deadline_after(args.time_limit)
    except TheoremError:
        raise TheoremError(f"--time-limit must be a positive, finite number of seconds, "
                           f"got {args.time_limit}") from None
    return args.time_limit
