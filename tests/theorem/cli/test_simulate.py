"""``transformer-dynamics simulate``: table, JSON, checks, exit codes, figure."""

import json

import numpy as np
import pytest

from laws import SelfAttention, count_clusters, integrate
from manifolds import Sphere


def test_simulate_json_matches_the_library(run):
    args = ("simulate", "--tokens", "12", "--systems", "3", "--t-final", "12", "--dt", "0.1",
            "--record-every", "10", "--seed", "4", "--json")
    code, out, err = run(*args)
    report = json.loads(out)
    assert code == 0 and err == "" and report["passed"] is True
    assert report["seed"] == 4 and "version" in report and report["clock"] == "physical"
    x0 = Sphere(2).random_point(36, rng=4).reshape(3, 12, 3)
    traj = integrate(SelfAttention(1.0), x0, t_final=12, dt=0.1, record_every=10)
    assert report["times"] == traj.times.tolist()
    assert report["clusters"] == count_clusters(traj.points).tolist()
    assert report["clusters"][-1] == [1, 1, 1]
    assert all(c is not None for c in report["collapse_time"])


def test_simulate_table_progress_and_usa_energy_check(run):
    code, out, err = run("simulate", "--tokens", "8", "--systems", "2", "--t-final", "2",
                         "--normalization", "mean", "--space", "sphere:4")
    assert code == 0
    assert "USA (mean)" in out and "check USA energy non-decreasing" in out
    assert "all checks passed" in out and "100%" in err


def test_simulate_rescaled_clock_for_large_beta(run):
    code, out, _ = run("simulate", "--tokens", "6", "--systems", "1", "--t-final", "1",
                       "--normalization", "mean", "--beta", "1000", "--clock", "rescaled", "--json")
    report = json.loads(out)
    assert code == 0 and report["clock"] == "rescaled" and report["energy_name"] == "e^-beta E_beta"
    assert np.isfinite(report["final_energy"]).all()


@pytest.mark.parametrize("argv,message", [
    (("--space", "projective:2"), "use sphere:D"),
    (("--normalization", "mean", "--beta", "1000"), "rescaled"),
])
def test_simulate_bad_input_exits_2(run, argv, message):
    code, out, err = run("simulate", "--t-final", "1", *argv)
    assert code == 2 and out == "" and message in err


def test_simulate_plot(run, tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    path = tmp_path / "clusters.png"
    code, out, _ = run("simulate", "--tokens", "6", "--systems", "2", "--t-final", "2",
                       "--plot", str(path))
    assert code == 0 and path.stat().st_size > 0 and f"figure: {path}" in out
