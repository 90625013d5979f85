"""Every command against a table of bad inputs: one line on standard error, no traceback, the
documented exit code (docs/conventions.md#command-line), within a few seconds each."""

import os
import signal
import time

import pytest

from theorem.cli import main as cli_main

#: (arguments, exit code, a fragment of the one line on standard error)
CASES = [
    # arguments argparse refuses
    (["bogus"], 2, "invalid choice: 'bogus'"),
    (["spaces", "--seed", "-1"], 2, "--seed: must be an integer ≥ 0, got '-1'"),
    (["verify", "--seed", "-1"], 2, "--seed: must be an integer ≥ 0"),
    (["simulate", "--seed", "-1"], 2, "--seed: must be an integer ≥ 0"),
    (["figures", "--out", "never-made", "--seed", "-1"], 2, "--seed: must be an integer ≥ 0"),
    (["invariants", "--family", "random-hub", "--n", "5", "--hubs", "2", "--p", "0.5",
      "--seed", "-1"], 2, "--seed: must be an integer ≥ 0"),
    (["spaces", "--n-points", "1e9"], 2, "--n-points: must be an integer ≥ 1, got '1e9'"),
    (["spaces", "--n-points", "0"], 2, "--n-points: must be an integer ≥ 1"),
    (["spaces", "--n-points", "1000000000"], 2, "is above 1024 (MAX_COVER_VERTICES"),
    (["simulate", "--tokens", "1e9"], 2, "--tokens: must be an integer ≥ 1"),
    (["simulate", "--systems", "1e9"], 2, "--systems: must be an integer ≥ 1"),
    (["simulate", "--tokens", "0"], 2, "--tokens: must be an integer ≥ 1"),
    (["simulate", "--record-every", "0"], 2, "--record-every: must be an integer ≥ 1"),
    (["invariants", "--family", "transitive-tournament", "--n", "1e9"], 2,
     "--n: must be an integer ≥ 1, got '1e9'"),
    (["simulate", "--threshold", "nan"], 2, "--threshold: must be a finite number > 0"),
    (["simulate", "--threshold", "-1"], 2, "--threshold: must be a finite number > 0"),
    (["simulate", "--eps", "-1"], 2, "--eps: must be a finite number > 0"),
    (["simulate", "--eps", "nan"], 2, "--eps: must be a finite number > 0"),
    (["simulate", "--dt", "0"], 2, "--dt: must be a finite number > 0"),
    (["simulate", "--dt", "100", "--t-final", "1"], 2, "is longer than the horizon"),
    (["simulate", "--t-final", "inf"], 2, "--t-final: must be a finite number > 0"),
    (["simulate", "--beta", "nan"], 2, "--beta: must be a finite number"),
    (["invariants", "--family", "cycle", "--n", "4", "--time-limit", "abc"], 2,
     "--time-limit: must be a finite number > 0"),
    *[([*command, "--time-limit", limit], 2, "--time-limit: must be a finite number > 0")
      for command in (["invariants", "--family", "cycle", "--n", "4"], ["verify"])
      for limit in ("0", "-1", "nan", "inf")],
    # options the rest of the command line makes meaningless
    (["invariants", "--family", "cycle", "--n", "5", "--hubs", "3"], 2,
     "--hubs and --p are options of --family random-hub"),
    (["invariants", "--digraph", "DIGRAPH", "--n", "5"], 2, "--n describes a --family"),
    (["verify", "--n", "5"], 2, "--n describes a digraph family; add --family NAME"),
    (["invariants", "--family", "cycle", "--n", "4", "--drop-loops"], 2,
     "--drop-loops applies to --digraph FILE"),
    # sizes beyond what a run can hold
    (["simulate", "--tokens", "5000"], 2, "attention weights per step"),
    (["simulate", "--plot", "out.txt"], 2, "matplotlib does not write '.txt' files; use one of"),
    (["simulate", "--plot", "/nonexistent/folder/out.png"], 2, "folder"),
    # errors the library raises for the input
    (["spaces", "--space", "torus:2"], 2, "sphere:D, projective:D or grassmannian:N,K"),
    (["invariants", "--digraph", "/nonexistent/file.txt"], 2, "No such file"),
    (["invariants", "--digraph", "BINARY"], 2, "not a text file"),
    (["verify", "--digraph", "HUGE_ID"], 2, "above the limit of 1048576 (MAX_VERTICES"),
    (["verify", "--digraph", "FAR_ID"], 2, "MAX_COVER_VERTICES"),
    (["invariants", "--family", "transitive-tournament", "--n", "1000000000"], 2,
     "MAX_DENSE_VERTICES"),
    (["invariants", "--family", "strided", "--n", "5"], 2, "needs --m"),
    (["invariants", "--family", "cycle", "--n", "5", "--m", "2"], 2, "leave out m (--m)"),
    (["invariants", "--family", "cycle", "--n", "1"], 2, "n must be at least 2"),
    (["simulate", "--space", "projective:2"], 2, "use sphere:D"),
]


FILES = {"DIGRAPH": b"0 1\n0 2\n1 2\n", "BINARY": bytes(range(256)),
         "HUGE_ID": b"0 1000000000000\n", "FAR_ID": b"0 99999\n1 2\n"}


def _argv(argv, tmp_path):
    for name, content in FILES.items():
        (tmp_path / name).write_bytes(content)
    return [str(tmp_path / a) if a in FILES else a for a in argv]


@pytest.mark.parametrize("argv, code, message", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_is_one_line_and_its_exit_code(run, tmp_path, argv, code, message):
    start = time.perf_counter()
    got, out, err = run(*_argv(argv, tmp_path))
    assert got == code and out == ""
    assert err.count("\n") == 1 and err.startswith("transformer-dynamics: error: "), err
    assert message in err
    assert time.perf_counter() - start < 5


def test_an_internal_error_is_one_line_exit_4_and_debug_shows_it(run, monkeypatch):
    from theorem.cli import spaces

    def broken(args, out, err):
        raise RuntimeError("a bug")

    monkeypatch.setattr(spaces, "run", broken)
    code, out, err = run("spaces")
    assert code == 4 and out == "" and err.count("\n") == 1
    assert err.startswith("transformer-dynamics: internal error: RuntimeError: a bug")
    assert "--debug" in err
    with pytest.raises(RuntimeError, match="a bug"):
        cli_main(["--debug", "spaces"])


def test_ctrl_c_is_one_line_and_exit_130(run, monkeypatch):
    from theorem.cli import invariants

    def interrupted(args, out, err):
        raise KeyboardInterrupt

    monkeypatch.setattr(invariants, "run", interrupted)
    code, out, err = run("invariants", "--family", "cycle", "--n", "4")
    assert (code, out, err) == (130, "", "transformer-dynamics: interrupted\n")


def test_ctrl_c_reaches_the_parent_and_the_search_child_dies(tmp_path, terminal_sigint):
    # Ctrl-C signals the whole foreground process group; the search child ignores it and
    # the parent, interrupted within its 0.1 s wait slices, kills the child on its way out
    import threading

    from theorem.sat.budget import anytime

    pid_file = tmp_path / "child"

    def search(report):
        pid_file.write_text(str(os.getpid()))
        time.sleep(60)

    def ctrl_c():
        while not pid_file.exists():
            time.sleep(0.01)
        os.kill(int(pid_file.read_text()), signal.SIGINT)   # ignored by the child
        os.kill(os.getpid(), signal.SIGINT)                  # the parent's

    threading.Thread(target=ctrl_c, daemon=True).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        anytime(search, time.monotonic() + 30)
    assert time.monotonic() - start < 10
    child = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):                  # killed and reaped
        os.kill(child, 0)
