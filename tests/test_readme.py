"""The README's command outputs, run: every ```text block that starts with
``$ transformer-dynamics ...`` is the command's output, as a newcomer will compare it.

A block may start anywhere in the output (the README leaves out the header line). Its lines
must then follow one another in the output, except that a line ``...`` stands for any number
of lines, and a trailing ``...`` or ``(...)`` on a line stands for the rest of that line.
Times (``0.05 s``, ``(19.0 s)``) match any time. Numbers match to the printed digits
(relative 1e-4), so a last-digit difference between CPUs does not fail the test, and a wrong
number does.
"""

import re
import shlex
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
TIME = re.compile(r"\(?\d+(?:\.\d+)? s\)?")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?%?")


def _blocks():
    """``(command line, expected lines)`` of each README output block."""
    found = []
    for block in re.findall(r"```text\n(.*?)```", README.read_text(), flags=re.DOTALL):
        lines = block.rstrip("\n").split("\n")
        if lines[0].startswith("$ transformer-dynamics "):
            found.append((lines[0][2:], lines[1:]))
    return found


def _tokens(line: str) -> list[str]:
    return TIME.sub("<time>", line).split()


def _same_token(expected: str, actual: str) -> bool:
    if NUMBER.fullmatch(expected) and NUMBER.fullmatch(actual):
        e, a = float(expected.rstrip("%")), float(actual.rstrip("%"))
        return abs(e - a) <= 1e-4 * max(abs(e), abs(a)) if e != a else True
    return expected == actual


def _line_matches(expected: str, actual: str) -> bool:
    want, have = _tokens(expected), _tokens(actual)
    if want and want[-1] in ("...", "(...)"):
        want = want[:-1]
        have = have[:len(want)]
    return len(want) == len(have) and all(map(_same_token, want, have))


def _match(expected: list[str], actual: list[str]) -> str | None:
    """None when ``expected`` matches ``actual``, else what did not match."""
    position, skipping = 0, True          # the block may start anywhere
    for line in expected:
        if line.strip() == "...":
            skipping = True
            continue
        while position < len(actual) and not _line_matches(line, actual[position]):
            if not skipping:
                return f"expected {line!r}, got {actual[position]!r}"
            position += 1
        if position == len(actual):
            return f"expected {line!r}, not in the output"
        position, skipping = position + 1, False
    return None


BLOCKS = _blocks()


def test_the_readme_shows_every_command():
    # a broken extraction would pass every check below
    shown = {shlex.split(command)[1] for command, _ in BLOCKS}
    assert {"verify", "spaces", "invariants", "simulate"} <= shown


@pytest.mark.parametrize("command, expected", BLOCKS, ids=[c for c, _ in BLOCKS])
def test_readme_output(run, command, expected):
    code, out, _ = run(*shlex.split(command)[1:])
    assert code == 0
    problem = _match(expected, out.splitlines())
    assert problem is None, f"{command}: {problem}"


def test_the_matcher_fails_on_a_wrong_number_and_a_missing_line():
    out = ["header", "a  1.08707  0.05 s", "b  2", "c  3"]
    assert _match(["a  1.08707  9.99 s", "b  2"], out) is None
    assert _match(["a  1.08707  0.05 s", "...", "c  3"], out) is None
    assert _match(["a  1.08807  0.05 s"], out) is not None      # a wrong number
    assert _match(["a  1.08707  0.05 s", "c  3"], out) is not None   # a line left out
    assert _match(["b  2 ..."], out) is None
