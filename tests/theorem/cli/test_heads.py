"""``transformer-dynamics heads``: its JSON, its table, its exit codes and bad input."""

import json

import pytest

from ..transformer.helpers import ATTENTION


def test_json_of_the_complete_bipartite_example(run):
    code, out, err = run("heads", "--family", "complete-bipartite", "--n", "3", "--m", "4", "--json")
    report = json.loads(out)
    assert code == 0 and err == ""
    assert {"hub_heads", "bilinear_heads", "universal_rank", "token_heads"} <= set(report)
    assert (report["command"], report["d"], report["exit_code"]) == ("heads", 7, 0)
    hub, bilinear = report["hub_heads"], report["bilinear_heads"]
    assert (hub["functions"], hub["hubs"], hub["ranks"], hub["parameters"]) == (1, 1, [1], 14)
    assert hub["verified"] == {"token_set": True, "continuum": True}
    assert (bilinear["functions"], bilinear["ranks"], bilinear["parameters"]) == (4, [3, 3, 3, 3], 196)
    assert bilinear["verified"] and not bilinear["strict_maxima"]
    assert report["universal_rank"]["rank"] == 1
    token = report["token_heads"]
    assert token["hub"]["key_dims"] == [1] and token["one_head"]["key_dim"] == 1
    eps = [row["epsilon"] for row in token["hub"]["epsilon"]]
    assert eps == sorted(eps, reverse=True) and all(
        row["epsilon"] <= row["bound"] * (1 + 1e-9) for row in token["hub"]["epsilon"])


def test_table_lists_the_three_constructions(run):
    code, out, err = run("heads", "--family", "transitive-tournament", "--n", "4", "--d", "6")
    assert code == 0
    assert "tokens orthonormal in R^6" in out
    for row in ("hub-feature functions", "bilinear, K = I", "one function, rank_R(M)"):
        assert row in out
    assert "every construction verified" in out and "computing" in err


def test_time_limit_leaves_the_continuum_unverified_with_exit_code_3(run):
    code, out, _ = run("heads", "--digraph", str(ATTENTION / "s5_L2_H0.json"), "--time-limit", "2",
                       "--json")
    report = json.loads(out)
    assert code == 3 and report["hub_heads"]["verified"]["continuum"] is None
    assert report["digraph"] == {"n": 29, "edges": 179}


@pytest.mark.parametrize("argv, message", [
    (["--family", "cycle", "--n", "5", "--d", "3"], "give d ≥ 5"),
    (["--family", "cycle", "--n", "5", "--time-limit", "0"], "--time-limit"),
    (["--family", "cycle"], "needs --n"),
    (["--n", "5"], "one of the arguments --digraph --family is required"),
])
def test_bad_input_is_one_line_with_exit_code_2(run, argv, message):
    code, out, err = run("heads", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("transformer-dynamics: error:") and message in err
