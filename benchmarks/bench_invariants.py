"""Exact invariants: the targets of the invariants issue, and our solver against plain SAT.

Run: ``python benchmarks/bench_invariants.py [--time-limit S] [--seeds K] [--quick]``
(``--families``, ``--chi-hub``, ``--random-hub``, ``--bounds``, ``--covers``, ``--descent``,
``--search``, ``--lp [--long M]`` or ``--attention`` for one table only; ``--attention
--time-limit 10 [--every K] [--synthetic M] [--workers W] [--data DIR]``: ``M`` digraphs of
30–64 tokens, real attention of the corpus through all-MiniLM-L6-v2 with the ``models``
extra, else the synthetic stand-in).
Prints markdown tables, recorded in docs/benchmarks.md.

* ``b`` on the random hub model, easy (40, 10, 0.3) and hard (40, 20, 0.5) regimes: bounds,
  whether proved, time.
* The lower bounds on the hard regime side by side: greedy fooling set, the local search's,
  and the fractional biclique cover (LP value and its weighted-fooling-set bound).
* Upper bounds on ``b`` side by side (``--covers``): the greedy cover, the local search
  descending from it, and a SAT descent given the same time, on the hard regime and the
  29-token heads of layer 0.
* The local descent for ``b`` (``--descent``): one search of 2,000 moves a size against
  8 × 1,000 side by side, from the greedy cover, on the hard regime and the 29-token heads
  (covers reached, time), and moves a second.
* ``b`` on complete digraphs N = 3..35 (Sperner lower bound and construction), and side by side
  a plain SAT descent (same CNF, no fooling-set symmetry breaking, no structural bounds,
  starting from the greedy cover) on the small ones: the ratio of times.
* ``χ_hub`` on random-model digraphs with N ≤ 12 and on complete digraphs / transitive
  tournaments of growing N (the largest N proved within the limit).
* ``χ'`` with its coloring on a random digraph with 10^5 edges.
* The column generation of the fractional biclique cover (``--lp``): the library's, the
  dual form as one HiGHS model re-solved by dual simplex from its last basis (``highspy``),
  against the same rounds on the primal form re-solved by primal simplex, and with scipy's
  ``linprog`` solving each restricted LP afresh, on the kernels of the shared set's 29-token
  heads, the hard regime and ``--long M`` real heads of 30–64 tokens (time, ``b*``, bound;
  ratios).
* The local search for covers by difunctional relations (``--search``): one search at a time
  against 8 side by side, the same seconds each, for a cover at the skew-sequence bound on
  real attention heads (found, time to find, moves a second).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from theorem import (  # noqa: E402
    AttentionDigraph,
    biclique_cover_number,
    block_local,
    chromatic_index,
    complete_bipartite,
    complete_digraph,
    directed_cycle,
    fooling_set,
    fractional_biclique_cover,
    hub_chromatic_index,
    local_search_cover,
    local_search_difunctional_cover,
    random_hub_extension,
    real_rank,
    sliding_window,
    strided,
    transitive_tournament,
)
from theorem.digraphs import Kernel, Trimmed, attention_digraph  # noqa: E402
from theorem.errors import TooManyBicliquesError  # noqa: E402
from theorem.invariants.fractional_cover import MAX_BICLIQUES, maximal_bicliques  # noqa: E402
from theorem.invariants import hub_pareto_front  # noqa: E402
from theorem.invariants.greedy import greedy_cover  # noqa: E402
from theorem.sat import biclique_cover_cnf  # noqa: E402
from theorem.sat import solve_within  # noqa: E402
from theorem.workers import limit_threads  # noqa: E402


def plain_sat_b(g, time_limit):
    """Reference: descend from the greedy cover with the bare CNF (no symmetry breaking)."""
    deadline = time.monotonic() + time_limit
    k = len(greedy_cover(g))
    while k > 1:
        clauses, _ = biclique_cover_cnf(g, k - 1)
        ok, _ = solve_within(clauses, deadline)
        if ok is None:
            return None
        if not ok:
            return k
        k -= 1
    return k


FAMILIES = [
    ("transitive_tournament(3)", transitive_tournament(3)),
    ("complete_bipartite(3, 4)", complete_bipartite(3, 4)),
    ("transitive_tournament(8)", transitive_tournament(8)),
    ("complete_digraph(8)", complete_digraph(8)),
    ("directed_cycle(8)", directed_cycle(8)),
    ("sliding_window(10, 3)", sliding_window(10, 3)),
    ("strided(10, 3)", strided(10, 3)),
    ("block_local(9, 3)", block_local(9, 3)),
]


def families_table(limit=30.0):
    """What the library proves on the named families (docs/digraphs.md)."""
    print("| digraph | edges | b (certificate) | χ_hub (certificate) | χ' | "
          "Pareto front (hubs, colors) | real rank |")
    print("|---|---|---|---|---|---|---|")
    for name, g in FAMILIES:
        b = biclique_cover_number(g, time_limit=limit)
        h = hub_chromatic_index(g, time_limit=limit)
        front = hub_pareto_front(g, time_limit=limit)

        def show(r):
            bounds = "" if r.optimal else f" (bounds {r.lower_bound}..{r.upper_bound})"
            return f"{r.value} ({r.certificate.kind}){bounds}"

        pairs = ", ".join(f"({n}, {c})" for n, c in front.pairs())
        print(f"| `{name}` | {g.n_edges} | {show(b)} | {show(h)} | "
              f"{chromatic_index(g).value} | {pairs}{'' if front.optimal else ' (incomplete)'}"
              f" | {real_rank(g)} |")


def random_hub_table(n_seeds, limit):
    """b on the random hub model: the easy regime (3 seeds) and the hard one."""
    print("### b on the random hub model\n")
    print("| N, hubs, p | seed | planted | b | bounds | proved | certificate | time (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for params, seeds in (((40, 10, 0.3), range(3)), ((40, 20, 0.5), range(n_seeds))):
        times = []
        for seed in seeds:
            g, planted = random_hub_extension(*params, rng=seed)
            r = biclique_cover_number(g, time_limit=limit)
            times.append(r.elapsed)
            print(f"| {params} | {seed} | {planted.n_hubs} | {r.value} | "
                  f"[{r.lower_bound}, {r.upper_bound}] | {'yes' if r.optimal else 'no'} | "
                  f"{r.certificate.kind} | {r.elapsed:.2f} |", flush=True)
        print(f"| {params} | median | | | | | | {statistics.median(times):.2f} |")


def covers_table(n_seeds, data):
    """Upper bounds on b side by side: the greedy cover, the local search descending from it
    as biclique_cover_number runs it (2,000 moves a size, no time limit), and a SAT descent
    from the greedy cover (the maximal encoding, fooling set pinned) given the same time."""
    import json

    from theorem.invariants.biclique_cover import _local_descent, _maximal_cover_cnf

    print("\n### Upper bounds on b: greedy, local search, SAT in the same time\n")
    print("| digraph | N | edges | greedy | local search | time (s) | SAT, same time | "
          "local / SAT |")
    print("|---|---|---|---|---|---|---|---|")
    digraphs = [(f"random_hub_extension(40, 20, 0.5), seed {seed}",
                 random_hub_extension(40, 20, 0.5, rng=seed)[0]) for seed in range(n_seeds)]
    index = json.loads((Path(data) / "index.json").read_text())["digraphs"]
    digraphs += [(entry["file"][:-5], AttentionDigraph.read(Path(data) / entry["file"]))
                 for entry in index if entry["sentence"] == 5 and entry["layer"] == 0]
    sizes = []
    for name, g in digraphs:
        greedy = greedy_cover(g)
        fooling = fooling_set(g)
        start = time.perf_counter()
        local, _ = _local_descent(g, greedy, len(fooling), None, lambda cover: None)
        spent = time.perf_counter() - start
        deadline, sat = time.monotonic() + spent, len(greedy)
        while sat > len(fooling):
            encoded = _maximal_cover_cnf(g, sat - 1, fooling)
            ok, _ = (None, None) if encoded is None else solve_within(encoded[0], deadline)
            if not ok:
                break
            sat -= 1
        sizes.append((len(local), sat))
        print(f"| {name} | {g.n} | {g.n_edges} | {len(greedy)} | {len(local)} | {spent:.2f} | "
              f"{sat} | {len(local) / sat:.2f} |", flush=True)
    better = sum(a < b for a, b in sizes)
    print(f"| smaller by the local search | | | | {better} of {len(sizes)} | | | |")


def descent_table(n_seeds, data):
    """The local descent of biclique_cover_number from the greedy cover, one search of 2,000
    moves a size (its setting before the searches ran side by side) against
    DESCENT_TRIES × DESCENT_ITERATIONS side by side, no time limit: the covers reached and
    the time, on the hard regime and the shared set's 29-token heads; then moves a second."""
    import json

    from theorem.invariants.biclique_cover import (DESCENT_ITERATIONS, DESCENT_TRIES,
                                                   _local_descent)

    configs = ((1, 2000), (DESCENT_TRIES, DESCENT_ITERATIONS))
    digraphs = [random_hub_extension(40, 20, 0.5, rng=seed)[0] for seed in range(n_seeds)]
    index = json.loads((Path(data) / "index.json").read_text())["digraphs"]
    digraphs += [AttentionDigraph.read(Path(data) / entry["file"])
                 for entry in index if entry["sentence"] == 5]
    print(f"\n### The local descent for b: 1 search × 2,000 moves against {DESCENT_TRIES} × "
          f"{DESCENT_ITERATIONS:,} side by side ({len(digraphs)} digraphs, kernels)\n")
    print("| set | digraphs | searches × moves | smaller covers | larger covers | sum of covers | "
          "time (s) | time ratio |")
    print("|---|---|---|---|---|---|---|---|")
    results = {config: [] for config in configs}
    kernels = [Kernel.of(g, unions=True).digraph for g in digraphs]
    for g in kernels:
        greedy, fooling = greedy_cover(g), fooling_set(g, iterations=0)
        for tries, moves in configs:
            start = time.perf_counter()
            cover, _ = _local_descent(g, greedy, len(fooling), None, lambda cover: None,
                                      tries=tries, iterations=moves)
            results[tries, moves].append((len(cover), time.perf_counter() - start))
    parts = (("hard regime", slice(0, n_seeds)), ("s5, 29 tokens", slice(n_seeds, None)))
    for label, part in parts:
        base = results[configs[0]][part]
        for config in configs:
            rows = results[config][part]
            smaller = sum(a[0] < b[0] for a, b in zip(rows, base))
            larger = sum(a[0] > b[0] for a, b in zip(rows, base))
            spent = sum(t for _, t in rows)
            print(f"| {label} | {len(rows)} | {config[0]} × {config[1]:,} | {smaller} | "
                  f"{larger} | {sum(c for c, _ in rows)} | {spent:.1f} | "
                  f"{spent / sum(t for _, t in base):.2f} |", flush=True)
    print("\n| searches | moves a second (all searches), median over the digraphs | ratio |")
    print("|---|---|---|")
    rates = {}
    for tries in (1, DESCENT_TRIES):
        per = []
        for g in kernels:       # 200 moves at 2 bicliques (no cover ends them early)
            start = time.perf_counter()
            local_search_cover(g, 2, rng=0, tries=tries, iterations=200)
            per.append(200 * tries / (time.perf_counter() - start))
        rates[tries] = statistics.median(per)
        print(f"| {tries} | {rates[tries]:,.0f} | {rates[tries] / rates[1]:.1f}× |")


def bounds_table(n_seeds):
    """Lower bounds on b in the hard regime: greedy and searched fooling sets, the LP."""
    print("\n### Lower bounds on b, hard regime (40, 20, 0.5)\n")
    print("| seed | greedy fooling set | local search (s) | maximal bicliques | b* (LP) | "
          "weighted bound | LP (s) |")
    print("|---|---|---|---|---|---|---|")
    for seed in range(n_seeds):
        g, _ = random_hub_extension(40, 20, 0.5, rng=seed)
        start = time.perf_counter()
        searched = fooling_set(g, patience=3000)
        t_search = time.perf_counter() - start
        start = time.perf_counter()
        try:
            f = fractional_biclique_cover(g)
            lp = (f"| {f.n_bicliques} | {f.value:.3f} | {f.bound} | "
                  f"{time.perf_counter() - start:.1f} |")
        except TooManyBicliquesError:
            lp = f"| > {MAX_BICLIQUES} | — | — | {time.perf_counter() - start:.1f} |"
        print(f"| {seed} | {len(fooling_set(g, iterations=0))} | {len(searched)} "
              f"({t_search:.2f}) {lp}", flush=True)


def _reference_column_generation(g, solver):
    """``b*`` by the rounds of ``fractional_biclique_cover`` (its starting columns, its
    pricing, the 200 most violated maximal bicliques a round), each restricted LP in its
    primal form ``min Σ x`` over the columns priced so far, solved by ``solver``:
    ``"primal"``, one ``highspy`` model re-solved by primal simplex from its last basis (as
    the library did before it solved the dual form); ``"linprog"``, scipy's ``linprog``
    afresh (HiGHS, its default method; as the library did before ``highspy``). The
    references for ``lp_table``, which runs the library first (its model keeps HiGHS's
    banner off standard output)."""
    import highspy
    from scipy import sparse
    from scipy.optimize import linprog

    from theorem.invariants.fractional_cover import _biclique_weights, _starting_columns

    sources, targets = maximal_bicliques(g, limit=MAX_BICLIQUES)
    e = g.edges
    edge_id = np.full((g.n, g.n), -1, dtype=np.int64)
    edge_id[e[:, 0], e[:, 1]] = np.arange(len(e))
    if solver == "primal":               # linprog's rounds build nothing here
        lp = highspy.Highs()
        lp.setOptionValue("output_flag", False)
        lp.setOptionValue("threads", 1)
        lp.setOptionValue("simplex_strategy", 4)
        lp.addRows(len(e), np.ones(len(e)), np.full(len(e), highspy.kHighsInf), 0,
                   np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
    blocks = []
    new = _starting_columns(sources, targets, (), g.adjacency.astype(bool))
    while True:
        c, a, b = np.nonzero(sources[new][:, :, None] & targets[new][:, None, :])
        blocks.append(sparse.csc_matrix((np.ones(len(c)), (edge_id[a, b], c)),
                                        shape=(len(e), len(new))))
        if solver == "linprog":
            res = linprog(np.ones(sum(m.shape[1] for m in blocks)),
                          A_ub=-sparse.hstack(blocks), b_ub=-np.ones(len(e)),
                          bounds=(0, None), method="highs")
            value, duals = res.fun, -res.ineqlin.marginals
        else:
            m = blocks[-1]
            lp.addCols(m.shape[1], np.ones(m.shape[1]), np.zeros(m.shape[1]),
                       np.full(m.shape[1], highspy.kHighsInf), m.nnz,
                       m.indptr[:-1].astype(np.int32), m.indices.astype(np.int32), m.data)
            lp.run()
            value = lp.getInfo().objective_function_value
            duals = np.asarray(lp.getSolution().row_dual)
        y = np.zeros((g.n, g.n))
        y[e[:, 0], e[:, 1]] = np.clip(duals, 0.0, None)
        priced = _biclique_weights(sources, targets, y)
        violated = np.flatnonzero(priced > 1 + 1e-9)
        if not len(violated):
            return value
        new = violated[np.argsort(-priced[violated], kind="stable")[:200]]


def lp_table(n_seeds, data, n_long):
    """The fractional biclique cover: the library's column generation against the same
    rounds on the primal form, re-solved by primal simplex and by ``linprog`` afresh."""
    print("\n### The fractional biclique cover: the dual form by dual simplex, against the "
          "primal form\n")
    digraphs = [(f"`{path.stem}`", Kernel.of(Trimmed.of(AttentionDigraph.read(path)).digraph,
                                             unions=True).digraph)
                for path in sorted(Path(data).glob("s5_*.json"))]
    digraphs += [(f"hard regime, seed {seed}", random_hub_extension(40, 20, 0.5, rng=seed)[0])
                 for seed in range(n_seeds)]
    long = (long_attention(n_long) or []) if n_long else []
    digraphs += [(f"{name} ({g.n} tokens)", Kernel.of(Trimmed.of(g).digraph, unions=True).digraph)
                 for name, g in long]
    print("| digraph | maximal bicliques | b* | bound | library (s) | primal form (s) | ratio | "
          "linprog afresh (s) | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    totals = {}
    for name, g in digraphs:
        start = time.perf_counter()
        try:
            f = fractional_biclique_cover(g)
        except TooManyBicliquesError:
            print(f"| {name} | > {MAX_BICLIQUES} |" + " — |" * 7, flush=True)
            continue
        times = [time.perf_counter() - start]
        for solver in ("primal", "linprog"):
            start = time.perf_counter()
            value = _reference_column_generation(g, solver)
            times.append(time.perf_counter() - start)
            if abs(value - f.value) > 1e-6:
                raise SystemExit(f"{name}: the LPs disagree, b* = {f.value} against {value} "
                                 f"({solver})")
        group = ("hard-regime seeds" if name.startswith("hard") else
                 "heads of 30–64 tokens" if name.startswith("corpus") else "29-token heads")
        totals.setdefault(group, []).append(times)
        ours, primal, afresh = times
        print(f"| {name} | {f.n_bicliques} | {f.value:.3f} | {f.bound} | {ours:.2f} | "
              f"{primal:.2f} | {primal / max(ours, 1e-9):.1f}× | {afresh:.2f} | "
              f"{afresh / max(ours, 1e-9):.1f}× |", flush=True)
    for group, rows in totals.items():
        ours, primal, afresh = map(sum, zip(*rows))
        ratios = [[r[t] / max(r[0], 1e-9) for r in rows] for t in (1, 2)]
        print(f"| **all {len(rows)} {group}** | | | | {ours:.1f} | {primal:.1f} | "
              f"{primal / ours:.1f}× (median {statistics.median(ratios[0]):.1f}×) | "
              f"{afresh:.1f} | {afresh / ours:.1f}× "
              f"(median {statistics.median(ratios[1]):.1f}×) |")


def chi_hub_table():
    """χ_hub on random-model digraphs and on complete digraphs / transitive tournaments."""
    print("\n### χ_hub\n")
    print("| digraph | χ_hub | bounds | proved | certificate | time (s) |")
    print("|---|---|---|---|---|---|")
    for n in (6, 8, 10, 12):
        g, _ = random_hub_extension(n, 4, 0.5, rng=n)
        r = hub_chromatic_index(g, time_limit=30)
        print(f"| random_hub_extension({n}, 4, 0.5), {g.n_edges} edges | {r.value} | "
              f"[{r.lower_bound}, {r.upper_bound}] | {'yes' if r.optimal else 'no'} | "
              f"{r.certificate.kind} | {r.elapsed:.2f} |")
    for name, family in (("complete_digraph", complete_digraph),
                         ("transitive_tournament", transitive_tournament)):
        for n in (3, 4, 5, 8, 9, 16, 17, 31, 32, 33, 64):
            r = hub_chromatic_index(family(n), time_limit=30)
            print(f"| {name}({n}) | {r.value} | [{r.lower_bound}, {r.upper_bound}] | "
                  f"{'yes' if r.optimal else 'no'} | {r.certificate.kind} | {r.elapsed:.3f} |")


DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "attention-digraphs"


def synthetic_attention(n_tokens, rng, dim=16):
    """An attention-like digraph on ``n_tokens`` tokens (a stand-in for longer sentences
    until real attention of 30–64 tokens is available): Gaussian token vectors and query /
    key maps in ``R^dim``, logits ``⟨W_q x_b, W_k x_a⟩ / √dim`` at an inverse temperature
    drawn from ``[0.2, 2.5]`` (which spreads the densities over the shared set's range),
    softmax over keys, then the shared set's rule (top-mass 0.9,
    :func:`theorem.digraphs.attention_digraph`)."""
    x = rng.standard_normal((n_tokens, dim))
    q, k = (x @ rng.standard_normal((dim, dim)) / np.sqrt(dim) for _ in range(2))
    logits = rng.uniform(0.2, 2.5) * (q @ k.T) / np.sqrt(dim)
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    return attention_digraph(weights / weights.sum(axis=1, keepdims=True), rule="top-mass:0.9")


def long_attention(count, lo=30, hi=64):
    """``count`` real attention digraphs of ``lo``–``hi`` tokens: every layer and head of the
    project's corpus sentences of that many word pieces (``theorem/models/corpus.txt``)
    through all-MiniLM-L6-v2, with the shared set's settings (top-mass 0.9, special tokens
    dropped), ``count`` of them at evenly spaced positions of the list (sentence, layer,
    head). ``None`` without the models extra."""
    try:
        from theorem.models import load_model, read_corpus, sentence_attention
        model = load_model("minilm")
    except ImportError:
        return None
    chosen = []
    for i, text in enumerate(read_corpus()):
        attention = sentence_attention(model, text)
        if lo <= int((~attention.special).sum()) <= hi:
            digraphs = attention.digraphs()
            chosen += [(f"corpus {i} L{layer} H{head}", digraphs[layer, head])
                       for layer in range(digraphs.shape[0]) for head in range(digraphs.shape[1])]
    picks = np.unique(np.linspace(0, len(chosen) - 1, min(count, len(chosen))).round().astype(int))
    return [chosen[k] for k in picks]


def _solve_attention(task):
    """Both invariants of one digraph, each within ``limit`` seconds (χ_hub given b)."""
    name, g, limit = task
    b = biclique_cover_number(g, time_limit=limit)
    h = hub_chromatic_index(g, time_limit=limit, biclique_cover=b)
    return name, g.n, g.n_edges, chromatic_index(g).value, [
        (r.lower_bound, r.upper_bound, r.elapsed, r.certificate.kind) for r in (b, h)]


def attention_table(limit, every, workers, synthetic, data=DATA):
    """Share proved, times and gaps of b and χ_hub on the shared attention digraphs (one in
    ``every``) and on ``synthetic`` attention-like digraphs of 30–64 tokens."""
    import json
    from multiprocessing import Pool

    data = Path(data)
    index = json.loads((data / "index.json").read_text())["digraphs"][::every] if every else []
    sets = {"shared set (all-MiniLM-L6-v2, 13–29 tokens)":
            [(d["file"], AttentionDigraph.read(data / d["file"]), limit) for d in index]}
    long = long_attention(synthetic) if synthetic else []
    if long is not None:
        sets["corpus through all-MiniLM-L6-v2, 30–64 tokens"] = [
            (name, g, limit) for name, g in long]
    else:      # without the models extra: the stand-in generator, said so in the label
        rng = np.random.default_rng(0)
        sizes = rng.integers(30, 65, size=synthetic)
        sets["synthetic attention (no models extra), 30–64 tokens"] = [
            (f"synthetic {i}", synthetic_attention(int(t), rng), limit)
            for i, t in enumerate(sizes)]
    print(f"\n### b and χ_hub on attention digraphs ({limit:g} s per invariant, "
          f"{workers} workers)\n")
    print("| set | digraphs | density (median, max) | invariant | proved | median time (s) "
          "| worst time (s) | mean gap | worst gap | proved or 1 apart |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    rows = []
    for label, tasks in sets.items():
        if not tasks:
            continue
        # one BLAS thread a worker, whatever the cores: the budget is one core each
        with Pool(workers, initializer=limit_threads, initargs=(1,)) as pool:
            results = pool.map(_solve_attention, tasks, chunksize=1)
        density = [e / (n * (n - 1)) for _, n, e, _, _ in results]
        for k, invariant in enumerate(("b", "χ_hub")):
            bounds = [r[4][k] for r in results]
            gaps = [up - low for low, up, _, _ in bounds]
            times = [t for _, _, t, _ in bounds]
            proved = sum(gap == 0 for gap in gaps)
            print(f"| {label} | {len(results)} | {statistics.median(density):.2f}, "
                  f"{max(density):.2f} | {invariant} | {proved} ({proved / len(results):.1%}) "
                  f"| {statistics.median(times):.2f} | {max(times):.2f} | "
                  f"{statistics.mean(gaps):.2f} | {max(gaps)} | {sum(gap <= 1 for gap in gaps)} |")
        ratios = [chi / h[1] for _, _, _, chi, (_, h) in results]
        both = [chi / h[1] for _, _, _, chi, (_, h) in results if h[0] == h[1]]
        print(f"| {label} | χ' / χ_hub | {statistics.median(ratios):.1f} median, "
              f"{min(ratios):.1f}–{max(ratios):.1f} (upper bound of χ_hub); "
              f"{statistics.median(both) if both else float('nan'):.1f} median where χ_hub is "
              "proved | | | | | | | |")
        rows.extend((label, *r) for r in results)
    print("\nNot proved:\n")
    print("| set | digraph | N | edges | χ' | b bounds | χ_hub bounds |")
    print("|---|---|---|---|---|---|---|")
    for label, name, n, e, chi, ((bl, bu, _, _), (hl, hu, _, _)) in rows:
        if bl < bu or hl < hu:
            print(f"| {label.split(' (')[0]} | {name} | {n} | {e} | {chi} | [{bl}, {bu}] "
                  f"| [{hl}, {hu}] |")


def search_table(budget, data=DATA):
    """Covers at the skew-sequence bound of real heads by the local search: one search at a
    time (restarted with a new seed after :data:`FINAL_ITERATIONS` moves) against
    :data:`DESCENT_TRIES` side by side, ``budget`` seconds each, on every fourth head of the
    18- and 17-token sentences (s2, s3) and every eighth of the 29-token one (s5)."""
    import json

    from theorem.invariants.hub_chromatic import DESCENT_TRIES, FINAL_ITERATIONS
    from theorem.invariants.transitive import log2_ceil, skew_sequence

    data = Path(data)
    index = json.loads((data / "index.json").read_text())["digraphs"]
    names = [d["file"] for d in index if d["file"][:2] in ("s2", "s3")][::4]
    names += [d["file"] for d in index if d["file"][:2] == "s5"][::8]
    print(f"\n### Local search at the skew bound: 1 search against {DESCENT_TRIES} side by side "
          f"({budget:g} s each, {len(names)} heads)\n")
    print("| searches | heads covered at the bound | median time to cover (s) | moves a second "
          "(all searches) | ratio of moves |")
    print("|---|---|---|---|---|")
    rows = []
    for tries in (1, DESCENT_TRIES):
        found, times, moves, seconds = 0, [], 0, 0.0
        for name in names:
            g = Kernel.of(AttentionDigraph.read(data / name), unions=False).digraph
            h = log2_ceil(len(skew_sequence(g)))
            start = time.perf_counter()
            deadline, seed = time.monotonic() + budget, 0
            while time.monotonic() < deadline:
                cover = local_search_difunctional_cover(g, h, rng=seed, tries=tries,
                                                        iterations=FINAL_ITERATIONS,
                                                        deadline=deadline)
                if cover is not None:
                    found += 1
                    times.append(time.perf_counter() - start)
                    break
                seed += 1
            # moves a second, measured apart: 200 moves at h − 1 (no cover ends them early)
            timed = time.perf_counter()
            local_search_difunctional_cover(g, max(h - 1, 1), rng=0, tries=tries,
                                            iterations=200)
            seconds += time.perf_counter() - timed
            moves += 200 * tries
        rows.append((tries, found, times, moves / seconds))
    for tries, found, times, rate in rows:
        median = f"{statistics.median(times):.2f}" if times else "—"
        print(f"| {tries} | {found} of {len(names)} | {median} | {rate:,.0f} | "
              f"{rate / rows[0][3]:.1f}× |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--families", action="store_true",
                        help="only the table of the named families")
    parser.add_argument("--chi-hub", action="store_true", help="only the χ_hub table")
    parser.add_argument("--random-hub", action="store_true",
                        help="only the table of b on the random hub model")
    parser.add_argument("--bounds", action="store_true",
                        help="only the table of lower bounds on b in the hard regime")
    parser.add_argument("--covers", action="store_true",
                        help="only the table of upper bounds on b: greedy, local search, SAT")
    parser.add_argument("--descent", action="store_true",
                        help="only the table of the local descent for b: 1 search against "
                             "several side by side")
    parser.add_argument("--lp", action="store_true",
                        help="only the table of the fractional cover's column generation "
                             "against the primal form and linprog afresh each round")
    parser.add_argument("--long", type=int, default=12, metavar="M",
                        help="--lp: also M real attention heads of 30–64 tokens (models extra)")
    parser.add_argument("--attention", action="store_true",
                        help="only the table of b and χ_hub on attention digraphs")
    parser.add_argument("--search", type=float, metavar="SECONDS",
                        help="only the table of the local search for difunctional covers, "
                             "SECONDS per head and variant")
    parser.add_argument("--every", type=int, default=1,
                        help="with --attention: one shared digraph in EVERY (0: none)")
    parser.add_argument("--synthetic", type=int, default=60,
                        help="with --attention: digraphs of 30–64 tokens, real attention of "
                             "the corpus (models extra) or, without it, synthetic")
    parser.add_argument("--data", default=str(DATA),
                        help="with --attention: the folder of the shared attention digraphs")
    parser.add_argument("--workers", type=int, default=2,
                        help="with --attention: processes, one core each")
    args = parser.parse_args(argv)
    if args.search is not None and not args.search > 0:
        parser.error(f"--search needs a positive number of seconds, got {args.search}")
    if args.long < 0:
        parser.error(f"--long needs a number of heads, 0 or more, got {args.long}")
    limit = args.time_limit
    if args.attention:
        attention_table(limit, args.every, args.workers, args.synthetic, args.data)
        return
    if args.search:
        search_table(args.search, args.data)
        return
    if args.lp:
        lp_table(args.seeds, args.data, args.long)
        return
    if args.covers:
        covers_table(args.seeds, args.data)
        return
    if args.descent:
        descent_table(args.seeds, args.data)
        return
    if args.families:
        families_table()
        return
    if args.chi_hub:
        chi_hub_table()
        return
    if not args.bounds:
        random_hub_table(args.seeds, limit)
    if args.random_hub:
        return
    bounds_table(args.seeds)
    if args.bounds:
        return
    covers_table(args.seeds, args.data)

    print("\n### b on complete digraphs\n")
    print("| N | b | proved | certificate | time (s) | plain SAT (s) | plain / ours |")
    print("|---|---|---|---|---|---|---|")
    for n in (range(3, 12) if args.quick else range(3, 36)):
        g = complete_digraph(n)
        r = biclique_cover_number(g, time_limit=30)
        ref = ""
        if n <= 9:
            start = time.perf_counter()
            plain = plain_sat_b(g, 30.0)
            t = time.perf_counter() - start
            ref = (f"{t:.2f} | {t / max(r.elapsed, 1e-6):.0f}×" if plain is not None
                   else "> 30 | —")
        print(f"| {n} | {r.value} | {'yes' if r.optimal else 'no'} | {r.certificate.kind} | "
              f"{r.elapsed:.3f} | {ref or '— | —'} |")

    chi_hub_table()

    print("\n### χ' with its König coloring\n")
    rng = np.random.default_rng(0)
    e = rng.integers(2000, size=(130_000, 2))
    e = np.unique(e[e[:, 0] != e[:, 1]], axis=0)[:100_000]
    g = AttentionDigraph(2000, e)
    r = chromatic_index(g)
    print("| edges | χ' | proved | time (s) |\n|---|---|---|---|")
    print(f"| {g.n_edges} | {r.value} | {'yes' if r.optimal else 'no'} | {r.elapsed:.2f} |")


if __name__ == "__main__":
    main()
