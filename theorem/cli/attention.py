"""``transformer-dynamics attention``: ``b``, ``χ_hub``, ``χ'`` and the real rank of every head
of a pretrained transformer on a corpus, beside null models (the ``models`` extra)."""

from __future__ import annotations

import argparse
from pathlib import Path

from laws.drawing import check_figure_path

from ..digraphs.attention import AttentionRule
from ..models import CORPUS, attention_study, load_model, read_corpus
from .output import library_version, progress_bar, table, write_json

__all__ = ["run", "indices"]


def indices(text: str) -> list[int]:
    """An argparse type: a comma-separated list of integers ``≥ 0`` (``--layers 0,2,5``).

    Parameters
    ----------
    text : str

    Returns
    -------
    list of int

    Raises
    ------
    ArgumentTypeError
        (argparse's) For anything else.

    Examples
    --------
    >>> indices("0,2, 5")
    [0, 2, 5]
    """
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        values = None
    if not values or any(v < 0 for v in values):
        raise argparse.ArgumentTypeError(
            f"must be integers ≥ 0 separated by commas, got {text!r}")
    return values


def _bounds(summary: dict) -> str:
    """A median ``[lo, hi]`` as one number when equal, else ``lo–hi``."""
    lo, hi = summary["median"]
    return _interval(lo, hi)


def _interval(lo: float | None, hi: float | None, digits: int = 3) -> str:
    """``lo`` when it prints as ``hi``, else ``lo-hi``; ``-`` when undefined."""
    if lo is None or hi is None:
        return "-"
    fmt = lambda v: f"{v:.{digits}g}"  # noqa: E731
    return fmt(lo) if fmt(lo) == fmt(hi) else f"{fmt(lo)}-{fmt(hi)}"


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{share:.0%}"


def _exact(result) -> str:
    return (str(result.value) if result.optimal
            else f"[{result.lower_bound}, {result.upper_bound}]")


def run(args, out, err) -> int:
    """Run ``transformer-dynamics attention``: the invariants of every head of a model on a
    corpus (:func:`~theorem.models.attention_study`), per digraph and per head, with null
    models; figures with ``--plot``.

    Prints, on ``out``, one row per sentence, layer and head (tokens, edges, ``b``, ``χ_hub``,
    ``χ'`` and ``rank_R(M)``, each exact or ``[lower, upper]``), then one row per head (the
    medians over the sentences, the median ratio ``χ'/χ_hub``, and the null models'), then the
    answers (docs/attention.md); or with ``--json`` one JSON object. Progress (a bar) goes to
    ``err``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the ``attention`` command (``main``'s parser).
    out : file-like
    err : file-like

    Returns
    -------
    int
        0 when every real digraph's invariants are proved, 3 when the time limit left one
        bounded.

    Examples
    --------
    ``main(["attention", "--text", "Tokens drift together.", "--layers", "0", "--json"])``
    studies the 12 heads of layer 0 on one sentence (``tests/theorem/cli/test_attention.py``
    runs it when the ``models`` extra is installed). A malformed rule is bad input, refused
    before the model is loaded:

    >>> import io
    >>> from theorem.cli import main
    >>> err = io.StringIO()
    >>> main(["attention", "--rule", "top-k:0"], out=io.StringIO(), err=err)
    2
    >>> print(err.getvalue(), end="")
    transformer-dynamics: error: top-k needs an integer k ≥ 1, got 0
    """
    sentences = [args.text] if args.text is not None else read_corpus(args.corpus or CORPUS)
    rule = AttentionRule.parse(args.rule)
    folder = _figure_folder(args.plot) if args.plot else None     # before any computation
    show = not args.json or args.progress
    model = load_model(args.model)       # no progress line first: bad input stays one line
    study = attention_study(
        model, sentences, rule=rule, layers=args.layers, heads=args.heads,
        drop_special=not args.keep_special, null=args.null, time_limit=args.time_limit,
        solve_limit=args.solve_limit, seed=args.seed, workers=args.workers,
        progress=progress_bar(err, "attention") if show else None)
    if args.json:
        write_json({"command": "attention", "version": library_version(), "seed": args.seed,
                    **study.to_json()}, out)
        out.write("\n")
    else:
        _tables(study, len(sentences), out)
    if folder is not None:
        from ..drawing import draw_attention_study

        for path in draw_attention_study(study, model, folder):
            print(f"wrote {path}", file=err)
    return 0 if study.optimal else 3


def _tables(study, n_sentences: int, out) -> None:
    """The three tables of the text output: per digraph, per head, over all digraphs."""
    overall = study.overall()
    print(f"transformer-dynamics {library_version()}: attention digraphs of {study.model} "
          f"({len(study.layers)} layers × {len(study.heads)} heads, head dimension "
          f"{study.head_dim}) on {n_sentences} sentence{'s' * (n_sentences > 1)}, rule "
          f"{study.rule}, special tokens {'kept' if study.drop_special is False else 'dropped'}"
          f", {study.seconds:.0f} s\n", file=out)
    print(table(
        ["sentence", "layer", "head", "tokens", "edges", "b", "chi_hub", "chi'", "rank_R"],
        [[str(r.sentence), str(r.layer), str(r.head), str(r.profile.tokens),
          str(r.profile.edges), _exact(r.profile.biclique_cover),
          _exact(r.profile.hub_chromatic), _exact(r.profile.chromatic),
          "-" if r.profile.real_rank is None else str(r.profile.real_rank)]
         for r in study.records]), file=out)
    nulls = [k for k in ("in_degree", "random_hub") if k in overall]
    print("\nper head: medians over the sentences (lo-hi: the median of the lower and of the "
          "upper bounds); null: the same of the null models", file=out)
    print(table(
        ["layer", "head", "tokens", "edges", "b", "chi_hub", "chi'", "rank_R", "chi'/chi_hub",
         "proved", "one hub"] + [f"{k}: b, chi_hub, ratio" for k in nulls],
        [[str(layer), str(head), _number(s["real"]["tokens"]), _number(s["real"]["edges"]),
          _bounds(s["real"]["b"]), _bounds(s["real"]["chi_hub"]), _bounds(s["real"]["chi_prime"]),
          _number(s["real"]["real_rank"]), _interval(*s["real"]["ratio"]),
          f"{s['real']['all_proved']:.0%}", f"{s['real']['one_hub']:.0%}"]
         + [f"{_bounds(s[k]['b'])}, {_bounds(s[k]['chi_hub'])}, {_interval(*s[k]['ratio'])}"
            for k in nulls]
         for (layer, head), s in study.per_head().items()]), file=out)
    print("\nover all digraphs:", file=out)
    for name, s in overall.items():
        twice = s["ratio_at_least_2"]
        print(f"  {name:>10}: {s['digraphs']} digraphs, all three invariants proved on "
              f"{s['all_proved']:.0%} (b {s['b']['proved']:.0%}, chi_hub "
              f"{s['chi_hub']['proved']:.0%}); of the {s['digraphs'] - s['edgeless']} with an "
              f"edge, chi' >= 2 chi_hub proved on {_percent(twice['proved'])}, refuted on "
              f"{_percent(twice['refuted'])}; one hub (b = 1) on {s['one_hub']:.0%}; b "
              f"above the head dimension {study.head_dim}: {s['b_above_head_dim']['proved']} "
              f"proved, {s['b_above_head_dim']['possible']} possible", file=out)
    print(f"\n{'every real digraph proved' if study.optimal else 'TIME LIMIT: some bounds only'}",
          file=out)


def _figure_folder(text: str) -> Path:
    """The folder of ``--plot``, made, with matplotlib present and able to write PNGs there
    (checked before the study, so that a bad folder fails at once)."""
    folder = Path(text)
    folder.mkdir(parents=True, exist_ok=True)
    check_figure_path(folder / "ratio_grid.png")
    return folder
