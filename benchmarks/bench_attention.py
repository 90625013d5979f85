"""Attention digraphs of a pretrained model: how fast the study runs and how much it proves.

Run: ``python benchmarks/bench_attention.py [--every K] [--max-tokens T] [--solve-limit S]
[--null K] [--rule R] [--workers W] [--out FILE] [--plot DIR]`` (needs the ``models`` extra).
Studies every K-th sentence of the project's corpus (``theorem/models/corpus.txt``), or of
those with at most T word pieces, with all-MiniLM-L6-v2 and
prints, in markdown, the heads × sentences analysed per second (the solves in ``--workers``
processes, one by default), the share of the real digraphs and of each null model's proved
within ``--solve-limit`` (the CLI's default, 0.5 s, unless given), by length of the sentence,
and the model's own time (forward passes) beside it. ``--out`` keeps the study's JSON, from
which docs/attention.md's tables are made; ``--plot`` draws the study's figures
(:func:`theorem.drawing.draw_attention_study`). Recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from theorem.models import (  # noqa: E402
    attention_study,
    load_model,
    read_corpus,
    sentence_attention,
    summarize,
)


BINS = [(8, 20), (21, 35), (36, 50), (51, 64), (0, 10 ** 6)]


def _label(lo: int, hi: int) -> str:
    return "all" if hi == 10 ** 6 else f"{lo}–{hi}"


def _number(value) -> str:
    return "-" if value is None else f"{value:.3g}"


def _pair(lo, hi) -> str:
    return _number(lo) if _number(lo) == _number(hi) else f"{_number(lo)}–{_number(hi)}"


def _by_length(report: dict):
    """``(kind, label, profiles)`` for the real digraphs and each null model, by length."""
    records = report["records"]
    for kind in ["real"] + [k for k in ("in_degree", "random_hub") if records[0]["null"][k]]:
        profiles = records if kind == "real" else [p for r in records for p in r["null"][kind]]
        for lo, hi in BINS:
            chosen = [p for p in profiles if lo <= p["tokens"] <= hi]
            if chosen:
                yield kind, _label(lo, hi), chosen


def proof_table(report: dict) -> None:
    """Share proved and median time, by sentence length, of the real digraphs and each null
    model's."""
    print("| digraphs | tokens | b proved | χ_hub proved | all proved | median s |")
    print("|---|---|---|---|---|---|")
    for kind, label, chosen in _by_length(report):
        s = summarize(chosen, report["head_dim"])
        seconds = np.median([p["b"]["seconds"] + p["chi_hub"]["seconds"] for p in chosen])
        print(f"| {kind} ({len(chosen)}) | {label} | {s['b']['proved']:.0%} | "
              f"{s['chi_hub']['proved']:.0%} | {s['all_proved']:.0%} | {seconds:.2f} |")


def answer_table(report: dict) -> None:
    """The paper's question by sentence length (:func:`theorem.models.summarize` of the
    digraphs with an edge): medians of b, χ_hub, χ' and the ratio χ'/χ_hub, the shares with
    χ' ≥ 2χ_hub proved and refuted and with b = 1, and the count with b proved above the
    head dimension."""
    dim = report["head_dim"]
    print(f"| digraphs | tokens | b | χ_hub | χ' | χ'/χ_hub | χ' ≥ 2χ_hub proved / refuted | "
          f"b = 1 | b > {dim} proved |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind, label, chosen in _by_length(report):
        chosen = [p for p in chosen if p["edges"]]
        if not chosen:
            continue
        s = summarize(chosen, dim)
        twice = s["ratio_at_least_2"]
        print(f"| {kind} ({len(chosen)}) | {label} | {_pair(*s['b']['median'])} "
              f"| {_pair(*s['chi_hub']['median'])} | {_pair(*s['chi_prime']['median'])} "
              f"| {_pair(*s['ratio'])} | {twice['proved']:.0%} / {twice['refuted']:.0%} "
              f"| {s['one_hub']:.0%} | {s['b_above_head_dim']['proved']} |")


def head_table(report: dict) -> None:
    """One row per head: its medians over the sentences (the study's ``per_head``)."""
    print("| layer | head | tokens | edges | b | χ_hub | χ' | rank | χ'/χ_hub | χ' ≥ 2χ_hub "
          "proved | all proved |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for h in report["per_head"]:
        s = h["real"]
        print(f"| {h['layer']} | {h['head']} | {_number(s['tokens'])} | {_number(s['edges'])} | "
              f"{_pair(*s['b']['median'])} | {_pair(*s['chi_hub']['median'])} | "
              f"{_pair(*s['chi_prime']['median'])} | {_number(s['real_rank'])} | "
              f"{_pair(*s['ratio'])} | "
              f"{s['ratio_at_least_2']['proved']:.0%} | {s['all_proved']:.0%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="every K-th sentence")
    parser.add_argument("--solve-limit", type=float, default=0.5)
    parser.add_argument("--null", type=int, default=1)
    parser.add_argument("--rule", default="top-mass:0.9")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-tokens", type=int, help="only sentences of at most T word pieces")
    parser.add_argument("--out", help="write the study's JSON here")
    parser.add_argument("--plot", help="write the figures in this folder")
    parser.add_argument("--report", help="print the tables of a saved --out FILE, computing "
                                         "nothing")
    args = parser.parse_args()
    if args.report:
        report = json.loads(Path(args.report).read_text())
        proof_table(report)
        print()
        answer_table(report)
        print()
        head_table(report)
        return
    model = load_model("minilm")
    sentences = [s for s in read_corpus() if args.max_tokens is None
                 or len(model.tokenizer.tokenize(s)) <= args.max_tokens][::args.every]
    start = time.perf_counter()
    for text in sentences:
        sentence_attention(model, text)
    forward = time.perf_counter() - start
    study = attention_study(model, sentences, rule=args.rule, null=args.null,
                            solve_limit=args.solve_limit, workers=args.workers)
    report = study.to_json()
    if args.out:
        Path(args.out).write_text(json.dumps(report))
    if args.plot:
        from theorem.drawing import draw_attention_study

        Path(args.plot).mkdir(parents=True, exist_ok=True)
        draw_attention_study(study, model, args.plot)
    records = report["records"]
    print(f"{len(sentences)} sentences × {len(study.layers) * len(study.heads)} heads, rule "
          f"{study.rule}, solve limit {args.solve_limit:g} s, null {args.null}, workers "
          f"{args.workers}: {study.seconds:.0f} s, {len(records) / study.seconds:.2f} digraphs/s "
          f"({len(records) * (1 + 2 * args.null) / study.seconds:.2f} profiles/s with the null "
          f"models); the model's forward passes alone: {forward:.1f} s\n")
    proof_table(report)
    print()
    answer_table(report)


if __name__ == "__main__":
    main()
