"""Sweeps over the random hub model on one machine or a ``dask.distributed`` cluster
(docs/sweeps.md): the grid and its task (:mod:`.grid`), the resumable results file
(:mod:`.table`), the engine (:mod:`.engine`) and the summary (:mod:`.report`)."""

from .engine import SweepResult, run_tasks, sweep
from .grid import (INVARIANTS, KEY, invariant_columns, random_hub_grid, random_hub_task,
                   row_columns, solve_invariants)
from .report import summarize_sweep
from .table import ResultsFile, cell_text, parse_cell, read_rows

__all__ = [
    "sweep",
    "run_tasks",
    "SweepResult",
    "random_hub_grid",
    "random_hub_task",
    "row_columns",
    "invariant_columns",
    "solve_invariants",
    "INVARIANTS",
    "KEY",
    "ResultsFile",
    "read_rows",
    "cell_text",
    "parse_cell",
    "summarize_sweep",
]
