"""Suite-wide settings (hypothesis runs derandomized, so every run draws the same examples)
and fixtures (the command line in process; Ctrl-C as a terminal delivers it)."""

import io
import signal

import pytest
from hypothesis import settings

settings.register_profile("deterministic", derandomize=True, print_blob=True)
settings.load_profile("deterministic")


@pytest.fixture
def run():
    """The command line in process: ``run(*argv)`` gives ``(exit code, stdout, stderr)``."""
    from theorem.cli import main

    def call(*argv):
        out, err = io.StringIO(), io.StringIO()
        code = main(list(argv), out=out, err=err)
        return code, out.getvalue(), err.getvalue()

    return call


@pytest.fixture
def terminal_sigint():
    """SIGINT handled as in a terminal's foreground job, for the duration of a test.

    A shell without job control starts background jobs with SIGINT ignored, and an ignored
    signal stays ignored in every process started from it: Python then installs no handler,
    so a suite run in the background (``.ci/run &``) never sees ``KeyboardInterrupt``, nor do
    the commands it starts. This installs Python's own handler here (a command started now
    gets SIGINT at its default again, as ``exec`` resets caught signals) and restores the
    previous one after the test.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
