"""The command line: the README's main job, its JSON and its exit codes."""

import json
import subprocess
import sys

import numpy as np

from manifolds import check_admissible, parse_space


def test_spaces_json_is_one_object_with_checked_embeddings(run):
    code, out, err = run("spaces", "--json", "--n-points", "5", "--seed", "3",
                         "--space", "sphere:2", "--space", "grassmannian:4,2")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert report["seed"] == 3 and report["passed"] is True and "version" in report
    assert [r["space"] for r in report["spaces"]] == ["sphere:2", "grassmannian:4,2"]
    for r in report["spaces"]:
        space = parse_space(r["space"])
        emb = check_admissible(np.array(r["points"]), space)
        # exact: JSON round-trips floats, and both separations come from the same distance
        # function on the same pairs
        assert emb.separation == r["separation"] and r["n_points"] == 5
        assert r["injectivity_radius"] == space.injectivity_radius


def test_spaces_table_defaults(run):
    code, out, err = run("spaces", "--n-points", "4")
    assert code == 0
    for spec in ("sphere:2", "projective:2", "grassmannian:4,2"):
        assert spec in out
    assert "all checks passed" in out and "1/2 tr(u^T v)" in out
    assert "embedding 4 points on sphere:2" in err  # progress on standard error


def test_bad_input_exits_2_with_a_message(run):
    code, out, err = run("spaces", "--space", "torus:2")
    assert code == 2 and out == ""
    assert "sphere:D, projective:D or grassmannian:N,K" in err


def test_console_script_version_and_help(run):
    result = subprocess.run([sys.executable, "-m", "theorem.cli", "--version"],
                            capture_output=True, text=True, check=True)
    assert result.stdout.startswith("transformer-dynamics ")
    result = subprocess.run([sys.executable, "-m", "theorem.cli", "--help"],
                            capture_output=True, text=True, check=True)
    assert "spaces" in result.stdout


def test_invariants_json_for_the_paper_example(run):
    code, out, err = run("invariants", "--family", "complete-bipartite", "--n", "3", "--m", "4",
                         "--json")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert report["biclique_cover_number"]["value"] == 1
    assert report["hub_chromatic_index"]["value"] == 1
    assert report["chromatic_index"]["value"] == 4
    assert report["pareto_front"] == [[1, 1]] and report["real_rank"] == 1
    assert "version" in report and report["seed"] == 0
    from theorem.digraphs import AttentionDigraph
    from theorem.digraphs import HubExtension
    g = AttentionDigraph.from_json(report["digraph"])
    HubExtension.from_json(report["hub_chromatic_index"]["witness"]).validate(g)


def test_invariants_table_from_a_file(run, tmp_path):
    path = tmp_path / "t3.txt"
    path.write_text("# the paper's transitive tournament\n0 1\n0 2\n1 2\n")
    code, out, err = run("invariants", "--digraph", str(path))
    assert code == 0
    assert "biclique_cover_number  2" in out and "all invariants proved optimal" in out
    assert "computing" in err


def test_invariants_exit_codes(run):
    assert run("invariants", "--family", "strided", "--n", "5")[0] == 2      # needs --m
    assert run("invariants", "--family", "random-hub", "--n", "5")[0] == 2   # needs --hubs/--p
    assert run("invariants", "--digraph", "/nonexistent/file.txt")[0] == 2
    assert run("invariants", "--family", "cycle", "--n", "4", "--time-limit", "-1")[0] == 2
    code, out, _ = run("invariants", "--family", "random-hub", "--n", "40", "--hubs", "20",
                       "--p", "0.5", "--time-limit", "2", "--json")
    assert code == 3
    report = json.loads(out)
    assert report["optimal"] is False and report["planted_hubs"] <= 20
    b = report["biclique_cover_number"]
    assert b["lower_bound"] <= b["value"] == b["upper_bound"]
