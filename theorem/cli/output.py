"""What every command prints with: the version, strict JSON, tables, a progress bar."""

from __future__ import annotations

import json
from importlib.metadata import PackageNotFoundError, version

import numpy as np

__all__ = ["library_version", "write_json", "table", "progress_bar"]


def library_version() -> str:
    """The installed distribution's version (``"unknown"`` when run from a bare checkout)."""
    try:
        return version("transformer-dynamics")
    except PackageNotFoundError:
        return "unknown"


def _strict(value):
    """``value`` with every NaN or infinite float replaced by ``None`` (strict JSON has neither)."""
    if isinstance(value, dict):
        return {k: _strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if np.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    return value


def write_json(obj, out) -> None:
    """One strict JSON object (no NaN/Infinity tokens) on ``out``, newline-terminated."""
    try:  # the C encoder, in one piece (json.dump encodes in Python, chunk by chunk)
        text = json.dumps(obj, allow_nan=False)
    except (TypeError, ValueError):  # numpy scalars, NaN or infinities: make it strict first
        text = json.dumps(_strict(obj), allow_nan=False)
    out.write(text)


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def progress_bar(err, label: str):
    """A callback ``(done, total)`` drawing a bar on ``err`` (ends the line when done)."""
    shown = [-1]

    def report(done, total):
        width = 30
        filled = int(width * done / total)
        percent = int(100 * done / total)
        if percent == shown[0] and done != total:
            return
        shown[0] = percent
        err.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {percent:3d}%")
        if done == total:
            err.write("\n")
        err.flush()
    return report
