"""Section 3: what each way of realizing a digraph's attention costs, and what checking it costs.

Run: ``python benchmarks/bench_transformer.py [--time-limit S] [--data DIR] [--real K]
[--plot DIR]``. For the paper's two examples, ``complete_digraph(N)`` and
``transitive_tournament(N)`` for N = 4, 8, 16, a sliding window, two random hub digraphs and
``--real`` (default 12) attention digraphs of the shared set — chosen at evenly spaced
quantiles of their density, from the sparsest to the densest; without the set (``--data``,
default ``../shared/data/attention-digraphs``), the four copies beside the tests — it runs
:func:`theorem.transformer.head_costs` and prints, in markdown:

* the cost table: ``b``, ``χ_hub``, ``χ'``, ``rank_R(M)``; the hub heads (functions, hubs,
  parameters), the bilinear ``K = I`` heads (functions, parameters) and the one head (key
  dimension, parameters), each verified;
* what the checks cost side by side: the token-set heads, the bilinear cover (closed-form
  certificates) and the hub functions' density cover on ``S^{d−1}`` (finite-difference
  Hessians), with the ratio of the last two.

``--plot DIR`` draws the dynamics figure of docs/transformer.md. Recorded in
docs/transformer.md and docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from theorem.digraphs import (  # noqa: E402
    AttentionDigraph,
    complete_bipartite,
    complete_digraph,
    random_hub_extension,
    sliding_window,
    transitive_tournament,
)
from theorem.transformer import attention_heads, head_costs, head_dynamics  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
COPIES = ROOT / "tests" / "theorem" / "invariants" / "attention"


def suite(data: Path, real: int):
    """``(name, digraph)``: the families, then ``real`` attention digraphs by density."""
    out = [("transitive tournament T3", transitive_tournament(3)),
           ("complete bipartite K3,4", complete_bipartite(3, 4))]
    out += [(f"complete digraph {n}", complete_digraph(n)) for n in (4, 8, 16)]
    out += [(f"transitive tournament {n}", transitive_tournament(n)) for n in (4, 8, 16)]
    out += [("sliding window 16, w 3", sliding_window(16, 3))]
    out += [(f"random hub {n},{h},{p} seed 0", random_hub_extension(n, h, p, rng=0)[0])
            for n, h, p in ((12, 4, 0.4), (20, 6, 0.3))]
    folder = data if (data / "index.json").exists() else COPIES
    entries = json.loads((folder / "index.json").read_text())["digraphs"]
    entries = [e for e in entries if (folder / e["file"]).exists()]
    entries.sort(key=lambda e: (e["edges"] / (e["tokens"] * (e["tokens"] - 1)), e["file"]))
    count = min(real, len(entries))
    picks = sorted({round(i * (len(entries) - 1) / max(count - 1, 1)) for i in range(count)})
    for i in picks:
        e = entries[i]
        out.append((f"{e['file'][:-5]} ({e['tokens']} tokens)", AttentionDigraph.read(folder / e["file"])))
    return out, folder


def _bound(result) -> str:
    return str(result.value) if result.optimal else f"[{result.lower_bound}, {result.upper_bound}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="seconds per digraph (head_costs' time_limit, default 60)")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "attention-digraphs")
    parser.add_argument("--real", type=int, default=12, help="real attention digraphs (default 12)")
    parser.add_argument("--plot", type=Path, help="folder for the dynamics figure")
    args = parser.parse_args()
    digraphs, folder = suite(args.data, args.real)
    print(f"real attention digraphs from {folder}\n")
    print("| digraph | N | edges | density | b | χ_hub | χ' | rank_R(M) | hub heads (hubs) | "
          "parameters | bilinear heads | parameters | one head: key dim | parameters | verified |")
    print("|" + "---|" * 15)
    timing = []
    for name, g in digraphs:
        costs = head_costs(g, time_limit=args.time_limit)
        p = costs.profile
        density = g.n_edges / (g.n * (g.n - 1))
        print(f"| {name} | {g.n} | {g.n_edges} | {density:.2f} | {_bound(p.biclique_cover)} | "
              f"{_bound(p.hub_chromatic)} | {p.chromatic.value} | {p.real_rank} | "
              f"{costs.hub_heads.n_heads} ({costs.hub_heads.extension.n_hubs}) | "
              f"{costs.hub_heads.n_parameters} | {len(costs.bilinear_ranks)} | "
              f"{len(costs.bilinear_ranks) * costs.d ** 2} | {costs.one_head.key_dims[0]} | "
              f"{costs.one_head.n_parameters} | {'yes' if costs.verified else 'NO'} |", flush=True)
        timing.append((name, g, costs.seconds))
    print("\n| digraph | N | edges | invariants (s) | token-set heads (s) | bilinear cover (s) | "
          "hub density cover on S^(d−1) (s) | continuum / bilinear |")
    print("|" + "---|" * 8)
    for name, g, s in timing:
        ratio = s["continuum"] / s["bilinear"] if s["bilinear"] > 0 else float("inf")
        print(f"| {name} | {g.n} | {g.n_edges} | {s['invariants']:.3f} | {s['token_set']:.4f} | "
              f"{s['bilinear']:.4f} | {s['continuum']:.2f} | {ratio:.0f}× |")
    if args.plot:
        from theorem.drawing import draw_head_dynamics
        from theorem.invariants import hub_chromatic_index

        args.plot.mkdir(parents=True, exist_ok=True)
        g = AttentionDigraph.read(COPIES / "s0_L3_H0.json")
        ext = hub_chromatic_index(g, time_limit=30).witness
        for idle, stem in ((True, "dynamics"), (False, "dynamics_idle_uniform")):
            result = head_dynamics(attention_heads(g, ext, g.n, idle_to_self=idle), 8.0,
                                   t_final=0.25, dt=0.005, rng=0)
            draw_head_dynamics(result, path=args.plot / f"{stem}.png")
            print(f"\n{stem}: others/attended pull {result.others_ratio:.3g}, checks "
                  f"{'passed' if result.report().passed else 'FAILED'}")


if __name__ == "__main__":
    main()
