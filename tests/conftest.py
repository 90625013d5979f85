"""Suite-wide settings (hypothesis runs derandomized, so every run draws the same examples)
and fixtures (the command line in process)."""

import io

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
