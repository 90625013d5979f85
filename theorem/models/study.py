"""The paper's question asked of a pretrained model: ``b``, ``χ_hub`` and ``χ'`` of every
head's attention digraph on a corpus, beside null models of the same shape."""

from __future__ import annotations

import collections
import math
import numbers
import time
from collections.abc import Iterable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

import numpy as np

from manifolds.validation import as_count

from ..digraphs.attention import AttentionRule
from ..digraphs.digraph import AttentionDigraph
from ..digraphs.null_models import matched_random_hub, random_in_degree_digraph
from ..errors import ModelError
from ..invariants.profile import InvariantProfile, invariant_profile
from ..sat.budget import deadline_after
from ..workers import worker_pool
from .attention import sentence_attention
from .loading import PretrainedModel

__all__ = ["HeadRecord", "AttentionStudy", "attention_study", "ratio_bounds", "summarize"]

#: The null models, by the key they have in records and reports.
NULL_MODELS = ("in_degree", "random_hub")


def ratio_bounds(profile) -> tuple[float, float]:
    """The interval ``χ'/χ_hub`` is proved to lie in: ``[χ'_lo / χ_hub_hi, χ'_hi / χ_hub_lo]``
    (``nan`` for a digraph without edges, where both are 0).

    Parameters
    ----------
    profile : InvariantProfile or dict
        A profile, or its :meth:`~theorem.invariants.InvariantProfile.to_json` form (as a
        saved study holds it).

    Returns
    -------
    (float, float)
        Equal when both invariants are proved.

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite
    >>> from theorem.invariants import invariant_profile
    >>> ratio_bounds(invariant_profile(complete_bipartite(3, 4)))
    (4.0, 4.0)
    """
    profile = profile if isinstance(profile, dict) else profile.to_json()
    hub, chromatic = profile["chi_hub"], profile["chi_prime"]
    if hub["upper_bound"] == 0:
        return (np.nan, np.nan)
    return (chromatic["lower_bound"] / hub["upper_bound"],
            chromatic["upper_bound"] / hub["lower_bound"])


@dataclass(frozen=True)
class HeadRecord:
    """One head on one sentence: its digraph, its invariant profile and its null models'.

    Parameters
    ----------
    sentence : int
    layer : int
    head : int
    digraph : AttentionDigraph
    profile : InvariantProfile
    null : dict of str to tuple of InvariantProfile
        ``"in_degree"``: random digraphs with the same in-degrees
        (:func:`~theorem.digraphs.random_in_degree_digraph`); ``"random_hub"``: random hub
        extensions with as many hubs as the head dimension and the same expected density
        (:func:`~theorem.digraphs.matched_random_hub`).

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite
    >>> from theorem.invariants import invariant_profile
    >>> g = complete_bipartite(2, 3)
    >>> r = HeadRecord(0, 1, 2, g, invariant_profile(g), {"in_degree": (), "random_hub": ()})
    >>> r.to_json()["b"]["value"], r.to_json()["chi_prime"]["value"]
    (1, 3)
    """

    sentence: int
    layer: int
    head: int
    digraph: AttentionDigraph
    profile: InvariantProfile
    null: dict

    def to_json(self) -> dict:
        """The record as a JSON-ready dict (the digraph's edges are left out; its tokens and
        edge count are in the profile).

        Returns
        -------
        dict
            ``sentence``, ``layer``, ``head``, ``dropped_self_attention``, the profile's keys
            (:meth:`~theorem.invariants.InvariantProfile.to_json`) and ``null``.

        Examples
        --------
        >>> from theorem.digraphs import AttentionDigraph
        >>> from theorem.invariants import invariant_profile
        >>> g = AttentionDigraph(2, [(0, 1)])
        >>> HeadRecord(0, 0, 0, g, invariant_profile(g), {"in_degree": ()}).to_json()["tokens"]
        2
        """
        return {"sentence": self.sentence, "layer": self.layer, "head": self.head,
                "dropped_self_attention": self.digraph.n_dropped_loops,
                **self.profile.to_json(),
                "null": {k: [p.to_json() for p in v] for k, v in self.null.items()}}


def _median(values) -> float | None:
    """The median of the finite ``values``; ``None`` when there is none (strict JSON)."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    return float(np.median(values)) if len(values) else None


def _share(flags) -> float | None:
    """The share of true ``flags``; ``None`` when there is none."""
    return float(np.mean(flags)) if len(flags) else None


def summarize(profiles, head_dim: int) -> dict:
    """Medians and shares over invariant profiles (one head on every sentence, a null
    model's, the digraphs of one length), as the study and its reports give them.

    Each invariant's median lower and upper bound (the true median lies between them), the
    share proved, the median ratio's interval (:func:`ratio_bounds`), and the shares of
    ``χ' ≥ 2χ_hub`` proved (``χ'_lo ≥ 2χ_hub_hi``) and refuted (``χ'_hi < 2χ_hub_lo``) — over
    the digraphs with an edge (``χ'/χ_hub`` is 0/0 on the others, counted in ``edgeless``);
    the share with one hub (``b = 1``) and the counts with ``b`` proved and possibly above
    ``head_dim``. A median or share over nothing is ``None`` (strict JSON).

    Parameters
    ----------
    profiles : sequence of dict
        :meth:`~theorem.invariants.InvariantProfile.to_json` forms (what the records of
        :meth:`AttentionStudy.to_json` hold).
    head_dim : int

    Returns
    -------
    dict
        ``digraphs``, ``tokens``, ``edges``, ``b``, ``chi_hub``, ``chi_prime`` (each
        ``{"median": [lower, upper], "proved": share}``), ``real_rank``,
        ``real_rank_missing``, ``ratio``, ``edgeless``, ``ratio_at_least_2``, ``one_hub``,
        ``b_above_head_dim``, ``all_proved``.

    Examples
    --------
    >>> from theorem.digraphs import complete_bipartite, transitive_tournament
    >>> from theorem.invariants import invariant_profile
    >>> s = summarize([invariant_profile(g).to_json() for g in
    ...                (complete_bipartite(3, 4), transitive_tournament(4))], head_dim=32)
    >>> s["chi_prime"], s["ratio"], s["ratio_at_least_2"]
    ({'median': [3.5, 3.5], 'proved': 1.0}, [2.75, 2.75], {'proved': 0.5, 'refuted': 0.5})
    """
    profiles = list(profiles)
    out = {"digraphs": len(profiles),
           "tokens": _median([p["tokens"] for p in profiles]),
           "edges": _median([p["edges"] for p in profiles])}
    for key in ("b", "chi_hub", "chi_prime"):
        results = [p[key] for p in profiles]
        out[key] = {"median": [_median([r["lower_bound"] for r in results]),
                               _median([r["upper_bound"] for r in results])],
                    "proved": _share([r["optimal"] for r in results])}
    ranks = [p["real_rank"] for p in profiles]
    out["real_rank"] = _median([np.nan if r is None else r for r in ranks])
    out["real_rank_missing"] = sum(r is None for r in ranks)
    ratios = np.array([ratio_bounds(p) for p in profiles]).reshape(-1, 2)
    out["ratio"] = [_median(ratios[:, 0]), _median(ratios[:, 1])]
    with_edges = [p for p in profiles if p["edges"]]
    out["edgeless"] = len(profiles) - len(with_edges)
    out["ratio_at_least_2"] = {
        "proved": _share([p["chi_prime"]["lower_bound"] >= 2 * p["chi_hub"]["upper_bound"]
                          for p in with_edges]),
        "refuted": _share([p["chi_prime"]["upper_bound"] < 2 * p["chi_hub"]["lower_bound"]
                           for p in with_edges])}
    out["one_hub"] = _share([p["b"]["upper_bound"] == 1 for p in profiles])
    out["b_above_head_dim"] = {
        "proved": sum(p["b"]["lower_bound"] > head_dim for p in profiles),
        "possible": sum(p["b"]["upper_bound"] > head_dim for p in profiles)}
    out["all_proved"] = _share([p["optimal"] for p in profiles])
    return out


def _null_summaries(records, head_dim: int) -> dict:
    """The :func:`summarize` of each null model's profiles over ``records``, for the null
    models they have."""
    return {k: summarize([p.to_json() for r in records for p in r.null.get(k, ())], head_dim)
            for k in NULL_MODELS if any(r.null.get(k) for r in records)}


@dataclass(frozen=True)
class AttentionStudy:
    """``b``, ``χ_hub``, ``χ'`` and ``rank_R(M)`` of every selected head of a model on every
    sentence of a corpus, with null models (docs/attention.md).

    Parameters
    ----------
    model : str
    rule : AttentionRule
    drop_special : bool
    head_dim : int
        The model's key/query dimension per head.
    layers : tuple of int
        The layers studied.
    heads : tuple of int
        The heads studied.
    sentences : tuple of str
    records : tuple of HeadRecord
        One per sentence, layer and head, in that order; none is dropped when unproved.
    seconds : float
        Wall-clock time of the whole study.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
    >>> from theorem.models import load_model
    >>> study = attention_study(load_model("minilm"), ["Tokens drift together."], layers=[0],
    ...                         heads=[0], null=0)
    >>> [(r.layer, r.head, r.profile.tokens) for r in study.records]
    [(0, 0, 5)]
    """

    model: str
    rule: AttentionRule
    drop_special: bool
    head_dim: int
    layers: tuple[int, ...]
    heads: tuple[int, ...]
    sentences: tuple[str, ...]
    records: tuple[HeadRecord, ...]
    seconds: float

    def per_head(self) -> dict:
        """The summary of each head over the sentences, keyed ``(layer, head)``: the real
        digraphs' and each null model's medians and shares (:func:`summarize`).

        Returns
        -------
        dict of (int, int) to dict

        Examples
        --------
        >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
        >>> from theorem.models import load_model
        >>> study = attention_study(load_model("minilm"), ["Tokens drift together."],
        ...                         layers=[0], heads=[0], null=0)
        >>> sorted(study.per_head())
        [(0, 0)]
        """
        out = {}
        for layer in self.layers:
            for head in self.heads:
                records = [r for r in self.records if (r.layer, r.head) == (layer, head)]
                out[layer, head] = {
                    "real": summarize([r.profile.to_json() for r in records], self.head_dim),
                    **_null_summaries(records, self.head_dim)}
        return out

    def overall(self) -> dict:
        """The summary over every record (real digraphs, then each null model).

        Returns
        -------
        dict of str to dict

        Examples
        --------
        >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
        >>> from theorem.models import load_model
        >>> study = attention_study(load_model("minilm"), ["Tokens drift together."],
        ...                         layers=[0], heads=[0], null=0)
        >>> sorted(study.overall())
        ['real']
        """
        return {"real": summarize([r.profile.to_json() for r in self.records], self.head_dim),
                **_null_summaries(self.records, self.head_dim)}

    @property
    def optimal(self) -> bool:
        """Whether every real digraph's ``b``, ``χ_hub`` and ``χ'`` are proved."""
        return all(r.profile.optimal for r in self.records)

    def to_json(self) -> dict:
        """The study as a JSON-ready dict: settings, ``overall``, ``per_head`` (a list, each
        with its ``layer`` and ``head``) and every record.

        Returns
        -------
        dict

        Examples
        --------
        >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
        >>> from theorem.models import load_model
        >>> study = attention_study(load_model("minilm"), ["Tokens drift together."],
        ...                         layers=[0], heads=[0], null=0)
        >>> sorted(study.to_json())[:3]
        ['drop_special', 'head_dim', 'heads']
        """
        return {"model": self.model, "rule": str(self.rule), "drop_special": self.drop_special,
                "head_dim": self.head_dim, "layers": list(self.layers),
                "heads": list(self.heads), "sentences": list(self.sentences),
                "seconds": round(self.seconds, 3), "optimal": self.optimal,
                "overall": self.overall(),
                "per_head": [{"layer": layer, "head": head, **summary}
                             for (layer, head), summary in self.per_head().items()],
                "records": [r.to_json() for r in self.records]}


def _selection(wanted, available: int, what: str) -> tuple[int, ...]:
    """The sorted distinct indices ``wanted`` (all of ``0..available-1`` for ``None``),
    checked."""
    if wanted is None:
        return tuple(range(available))
    if isinstance(wanted, str) or not isinstance(wanted, Iterable):
        raise TypeError(f"{what} must be a sequence of integers, not {type(wanted).__name__}")
    chosen = tuple(wanted)
    if any(isinstance(i, bool) or not isinstance(i, numbers.Integral) for i in chosen):
        raise TypeError(f"{what} must be integers, got {list(chosen)}")
    chosen = tuple(int(i) for i in chosen)
    bad = [i for i in chosen if not 0 <= i < available]
    if bad or not chosen:
        raise ModelError(f"{what} {bad or '(none)'} not in the model's 0..{available - 1}; "
                         f"choose {what} among them")
    return tuple(sorted(set(chosen)))


def _profiles(digraphs, solve_limit: float, deadline: float | None,
              left: float) -> list[InvariantProfile]:
    """The profiles of one record's digraphs (the real one, then its null models), in a
    worker: each within ``solve_limit``, or its share of what is left before ``deadline``
    when ``left`` records (per worker) still wait."""
    out = []
    for digraph in digraphs:
        limit = solve_limit
        if deadline is not None:
            share = (deadline - time.monotonic()) / (max(left, 1) * len(digraphs))
            limit = max(min(solve_limit, share), 1e-3)
        out.append(invariant_profile(digraph, time_limit=limit))
    return out


def _solve(tasks, solve_limit: float, deadline: float | None, workers: int,
           progress) -> list[HeadRecord]:
    """The records of ``tasks`` (sentence, layer, head, digraph, null digraphs), their
    profiles solved by ``workers`` spawned processes, at most two tasks ahead of each worker
    (so that Ctrl-C, which reaches the workers too, ends the study within one solve)."""
    # spawned (theorem.workers): the solves fork a child per SAT call, and forking a process
    # that holds torch costs tens of milliseconds a fork, which short time limits cannot afford
    records, pending = [], collections.deque()
    todo = iter(enumerate(tasks))
    with worker_pool(min(workers, len(tasks))) as pool:
        try:
            while True:
                while len(pending) < 2 * workers and (item := next(todo, None)) is not None:
                    i, (_, _, _, digraph, nulls) = item
                    pending.append(pool.submit(
                        _profiles, [digraph, *nulls["in_degree"], *nulls["random_hub"]],
                        solve_limit, deadline, (len(tasks) - i) / workers))
                if not pending:
                    break
                s, layer, head, digraph, nulls = tasks[len(records)]
                profile, *rest = pending.popleft().result()
                records.append(HeadRecord(s, layer, head, digraph, profile, {
                    "in_degree": tuple(rest[:len(nulls["in_degree"])]),
                    "random_hub": tuple(rest[len(nulls["in_degree"]):])}))
                if progress is not None:
                    progress(len(records), len(tasks))
        except BrokenProcessPool:
            raise ModelError(
                "the solver processes could not start: a script that calls attention_study "
                "must do so under `if __name__ == \"__main__\":` (they are spawned, and "
                "import the script)") from None
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return records


def attention_study(model: PretrainedModel, sentences, *, rule="top-mass:0.9",
                    layers=None, heads=None, drop_special: bool = True, null: int = 1,
                    time_limit: float | None = None, solve_limit: float = 0.5, seed: int = 0,
                    workers: int = 1, progress=None) -> AttentionStudy:
    """``b``, ``χ_hub``, ``χ'`` and ``rank_R(M)`` of every head's attention digraph on every
    sentence, and of ``null`` samples of each null model per digraph.

    Each digraph (:meth:`SentenceAttention.digraphs`) gets an
    :func:`~theorem.invariants.invariant_profile` within ``min(solve_limit, left / profiles
    left)`` seconds, where ``left`` is what remains of ``time_limit`` (which counts from the
    call: the model's forward passes and the workers' start, a few seconds, are in it); a
    digraph left unproved is kept with its bounds. Once the budget is spent, each digraph
    left still gets 1 ms a solve — the bounds found first (``χ' ≥`` the largest degree,
    the trivial bounds of ``b`` and ``χ_hub``; the rank may be missing), about 20 ms a
    profile — so a study never ends without every record.

    The solves run in ``workers`` processes started with ``spawn``
    (:func:`~theorem.workers.worker_pool`: each lowers its BLAS threads to its share of the
    cores): a script that calls this function must do so under
    ``if __name__ == "__main__":`` (the processes import it).

    Null models, for each digraph: ``null`` random digraphs with its in-degree sequence —
    each query keeps as many keys, chosen at random
    (:func:`~theorem.digraphs.random_in_degree_digraph`) — and ``null`` random hub
    extensions with as many hubs as the head dimension and the digraph's density
    (:func:`~theorem.digraphs.matched_random_hub`).

    Parameters
    ----------
    model : PretrainedModel
    sentences : sequence of str
    rule : AttentionRule or str
        ``"top-mass:0.9"`` by default (the shared set's rule).
    layers, heads : sequence of int, optional
        Which to study; all by default.
    drop_special : bool
        Leave ``[CLS]``/``[SEP]`` out and renormalize (default).
    null : int
        Samples of each null model per digraph (0 for none).
    time_limit : float, optional
        Seconds for the whole study; ``None`` for no limit (each profile still gets at most
        ``solve_limit``).
    solve_limit : float
        The most seconds one digraph's profile may take.
    seed : int
        Seeds the null models (one stream per record, drawn from ``(seed, sentence, layer,
        head)``, so a record's null models do not depend on which others were studied).
    workers : int
        Processes solving at once (default 1). They are fresh interpreters (``spawn``),
        which never import ``torch``: the SAT solves fork a child per call, and forking a
        process that holds ``torch`` costs more than short time limits allow.
    progress : callable, optional
        ``progress(done, total)`` after each record.

    Returns
    -------
    AttentionStudy

    Raises
    ------
    ModelError
        No sentence, a layer or head the model does not have, a text the model refuses,
        ``null``, ``seed`` or ``workers`` not a count, the solver processes unable to start.
    AttentionMatrixError
        A bad rule.
    TheoremError
        A bad ``time_limit`` (not positive and finite).
    TypeError
        ``sentences`` is a string or not a sequence; ``layers`` or ``heads`` hold
        non-integers; ``solve_limit`` is not a number.

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("transformers")  # the models extra
    >>> from theorem.models import load_model
    >>> study = attention_study(load_model("minilm"), ["Tokens drift together."], layers=[0],
    ...                         null=1, seed=3)
    >>> len(study.records), study.head_dim
    (12, 32)
    """
    start = time.monotonic()
    rule = AttentionRule.of(rule)
    deadline = deadline_after(time_limit)
    if isinstance(sentences, str) or not isinstance(sentences, Iterable):
        raise TypeError(f"sentences must be a sequence of str (one text each), not "
                        f"{type(sentences).__name__}")
    sentences = tuple(sentences)
    if not sentences:
        raise ModelError("no sentence to study; give --text or a --corpus with sentences")
    null = as_count(null, "null", error=ModelError)
    seed = as_count(seed, "seed", error=ModelError)
    workers = as_count(workers, "workers", error=ModelError)
    if workers < 1:
        raise ModelError(f"workers must be at least 1, got {workers}")
    if isinstance(solve_limit, bool) or not isinstance(solve_limit, numbers.Real):
        raise TypeError(f"solve_limit must be a number of seconds, not "
                        f"{type(solve_limit).__name__}")
    if not (math.isfinite(solve_limit) and solve_limit > 0):
        raise ModelError(f"solve_limit must be a positive number of seconds, got {solve_limit!r}")
    layers = _selection(layers, model.n_layers, "layers")
    heads = _selection(heads, model.n_heads, "heads")
    tasks = []
    for s, text in enumerate(sentences):
        digraphs = sentence_attention(model, text).digraphs(rule, drop_special=drop_special)
        for layer in layers:
            for head in heads:
                digraph = digraphs[layer, head]
                gen = np.random.default_rng([seed, s, layer, head])
                nulls = {"in_degree": [random_in_degree_digraph(digraph, rng=gen)
                                       for _ in range(null)],
                         "random_hub": [matched_random_hub(digraph, model.head_dim, rng=gen)[0]
                                        for _ in range(null)] if digraph.n >= 2 else []}
                tasks.append((s, layer, head, digraph, nulls))
    records = _solve(tasks, solve_limit, deadline, workers, progress)
    return AttentionStudy(model.name, rule, drop_special, model.head_dim, layers, heads,
                          sentences, tuple(records), time.monotonic() - start)
