"""The results file of a sweep: a CSV table appended one row at a time, so that an
interrupted sweep resumes where it stopped.

docs/sweeps.md#resuming. Each finished task's row is written as one line and flushed to disk
at once; a sweep killed while writing leaves at most a partial last line, which the next run
drops before it appends. The rows already there say which grid points are done.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from ..errors import SweepError

__all__ = ["ResultsFile", "read_rows"]


def _parse(value: str):
    """A CSV cell back to ``bool``, ``int``, ``float`` or ``str`` (empty: ``None``)."""
    if value == "":
        return None
    if value in ("True", "False"):
        return value == "True"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def read_rows(path) -> tuple[list[str], list[dict]]:
    """The header and the complete rows of a results file (a partial last line is left out).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    columns : list of str
    rows : list of dict
        Cells as ``bool``, ``int``, ``float`` or ``str``.

    Raises
    ------
    OSError
        The file cannot be read.
    SweepError
        The file has no header, or a row has another number of cells than the header.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
    >>> _ = path.write_text("N,b_optimal,p\\n10,True,0.25\\n20,Fal")
    >>> read_rows(path)
    (['N', 'b_optimal', 'p'], [{'N': 10, 'b_optimal': True, 'p': 0.25}])
    """
    text = Path(path).read_text(encoding="utf-8")
    complete = text[:text.rfind("\n") + 1]
    lines = list(csv.reader(io.StringIO(complete)))
    if not lines:
        raise SweepError(f"{path} has no header line; it is not a sweep's results file")
    columns = lines[0]
    rows = []
    for number, cells in enumerate(lines[1:], start=2):
        if len(cells) != len(columns):
            raise SweepError(f"{path}, line {number}: {len(cells)} cells for {len(columns)} "
                             "columns; the file is damaged or not a sweep's results file")
        rows.append({c: _parse(v) for c, v in zip(columns, cells)})
    return columns, rows


class ResultsFile:
    """A sweep's CSV results file, opened for appending rows.

    Opening an existing file checks its header against ``columns`` and drops a partial
    last line; :attr:`done` holds the keys of the rows already there.

    Parameters
    ----------
    path : str or path-like
        A ``.csv`` file (created with its header when absent).
    columns : list of str
        The columns, in order.
    key : sequence of str
        The columns naming a grid point.

    Raises
    ------
    SweepError
        ``path`` does not end with ``.csv``, or the file has another header (another sweep's
        results), or repeats a key.
    OSError
        The file cannot be read or written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
    >>> with ResultsFile(path, ["N", "seed", "b"], ["N", "seed"]) as results:
    ...     results.append({"N": 10, "seed": 0, "b": 3})
    >>> ResultsFile(path, ["N", "seed", "b"], ["N", "seed"]).done
    {(10, 0)}
    """

    def __init__(self, path, columns, key):
        self.path = Path(path)
        if self.path.suffix != ".csv":
            raise SweepError(f"{self.path}: the results file is a CSV table; give a path "
                             "ending with .csv")
        self.columns = list(columns)
        self.key = tuple(key)
        self.done: set = set()
        if self.path.exists() and self.path.stat().st_size:
            header, rows = read_rows(self.path)
            if header != self.columns:
                raise SweepError(
                    f"{self.path} holds another sweep's results (columns {header}); give "
                    "another --out, or the same invariants as the sweep that wrote it")
            for row in rows:
                k = tuple(row[c] for c in self.key)
                if k in self.done:
                    raise SweepError(f"{self.path} has the row {dict(zip(self.key, k))} twice")
                self.done.add(k)
            with open(self.path, "rb+") as f:       # drop a partial last line
                data = f.read()
                f.truncate(data.rfind(b"\n") + 1)
            self._file = open(self.path, "a", encoding="utf-8", newline="")
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "w", encoding="utf-8", newline="")
            self._write(self.columns)

    def _write(self, cells) -> None:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerow(cells)
        self._file.write(buffer.getvalue())         # one write a line
        self._file.flush()
        os.fsync(self._file.fileno())

    def append(self, row: dict) -> None:
        """Write ``row`` as one line, flushed to disk, and mark its key done.

        Parameters
        ----------
        row : dict
            One cell per column.

        Raises
        ------
        SweepError
            The row's key is already in the file.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
        >>> with ResultsFile(path, ["N", "b"], ["N"]) as results:
        ...     results.append({"N": 10, "b": 3})
        >>> path.read_text()
        'N,b\\n10,3\\n'
        """
        k = tuple(row[c] for c in self.key)
        if k in self.done:
            raise SweepError(f"the row {dict(zip(self.key, k))} is already in {self.path}")
        self._write([row[c] for c in self.columns])
        self.done.add(k)

    def close(self) -> None:
        """Close the file (the ``with`` statement does it on leaving).

        Examples
        --------
        >>> import tempfile, pathlib
        >>> results = ResultsFile(pathlib.Path(tempfile.mkdtemp()) / "r.csv", ["N"], ["N"])
        >>> results.close()
        >>> results.path.read_text()
        'N\\n'
        """
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
