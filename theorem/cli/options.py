"""The options every command shares: the digraph (``--digraph FILE`` or ``--family NAME --n
N [--m M]``) and the output (``--json``, ``--progress``)."""

from __future__ import annotations

import argparse
import math

from ..digraphs.digraph import AttentionDigraph
from ..digraphs.families import FAMILIES, named_family
from ..digraphs.random_hub import random_hub_extension
from ..errors import TheoremError

__all__ = ["digraph_arguments", "output_arguments", "digraph_from", "seed",
           "positive_int", "positive_float", "real"]


def _number(text: str, kind, test, wanted: str):
    """``kind(text)`` when ``test`` holds of it, else the argparse error naming ``wanted``."""
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not test(value):
        raise argparse.ArgumentTypeError(f"must be {wanted}, got {text!r}")
    return value


def _describe(options: list[str]) -> str:
    return "describes" if len(options) == 1 else "describe"


def seed(text: str) -> int:
    """An argparse type: a random seed, an integer ``≥ 0`` (what numpy accepts).

    Parameters
    ----------
    text : str

    Returns
    -------
    int

    Raises
    ------
    argparse.ArgumentTypeError
        For anything else; argparse reports it (exit code 2).

    Examples
    --------
    >>> seed("7")
    7
    >>> seed("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be an integer ≥ 0, got '-1'
    """
    return _number(text, int, lambda v: v >= 0, "an integer ≥ 0")


def positive_int(text: str) -> int:
    """An argparse type: an integer ``≥ 1`` (a count).

    Parameters
    ----------
    text : str

    Returns
    -------
    int

    Raises
    ------
    argparse.ArgumentTypeError
        For anything else (``0``, ``-3``, ``1e9``, ``2.5``).

    Examples
    --------
    >>> positive_int("12")
    12
    >>> positive_int("1e9")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be an integer ≥ 1, got '1e9'
    """
    return _number(text, int, lambda v: v >= 1, "an integer ≥ 1")


def positive_float(text: str) -> float:
    """An argparse type: a finite number ``> 0`` (a step, a horizon, a threshold).

    Parameters
    ----------
    text : str

    Returns
    -------
    float

    Raises
    ------
    argparse.ArgumentTypeError
        For ``0``, negative numbers, ``nan`` and ``inf``.

    Examples
    --------
    >>> positive_float("0.05")
    0.05
    >>> positive_float("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a finite number > 0, got 'nan'
    """
    return _number(text, float, lambda v: math.isfinite(v) and v > 0, "a finite number > 0")


def real(text: str) -> float:
    """An argparse type: a finite number (``nan`` and ``inf`` refused).

    Parameters
    ----------
    text : str

    Returns
    -------
    float

    Raises
    ------
    argparse.ArgumentTypeError
        For ``nan``, ``inf`` and what is not a number.

    Examples
    --------
    >>> real("-2.5")
    -2.5
    """
    return _number(text, float, math.isfinite, "a finite number")


def digraph_from(args, err=None):
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
    err : file-like, optional
        Where a note goes when the file repeats edges (they are dropped; the note says how
        many).

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
    family_only = [f"--{name}" for name in ("n", "m", "hubs", "p")
                   if getattr(args, name) is not None]
    if args.digraph:
        if family_only:
            raise TheoremError(f"{', '.join(family_only)} {_describe(family_only)} a --family; "
                               "with --digraph FILE leave them out (the file gives the digraph)")
        digraph = AttentionDigraph.read(args.digraph, drop_loops=args.drop_loops)
        if digraph.n_duplicate_edges and err is not None:
            print(f"note: {args.digraph}: {digraph.n_duplicate_edges} duplicate edge"
                  f"{'s' if digraph.n_duplicate_edges > 1 else ''} dropped", file=err)
        return digraph, None
    if args.family is None:
        raise TheoremError(f"{', '.join(family_only)} {_describe(family_only)} a digraph family; add "
                           "--family NAME (or give --digraph FILE instead)")
    if args.family != "random-hub" and (args.hubs is not None or args.p is not None):
        raise TheoremError(f"--hubs and --p are options of --family random-hub, not of "
                           f"--family {args.family}")
    if args.drop_loops:
        raise TheoremError("--drop-loops applies to --digraph FILE; the families have no loops")
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
    parser.add_argument("--n", type=positive_int, help="vertices (complete-bipartite: |A|)")
    parser.add_argument("--m", type=positive_int, help="second parameter: B, W, S or BLOCK")
    parser.add_argument("--hubs", type=positive_int, help="random-hub: number of hubs")
    parser.add_argument("--p", type=real, help="random-hub: join probability")
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
