"""``transformer-dynamics figures``: the paper's examples and a density cover, as PNGs."""

from __future__ import annotations

from manifolds import Sphere

from ..covers import construct_density_cover, verify_density_cover
from ..digraphs import complete_bipartite, random_hub_extension, transitive_tournament
from ..invariants import hub_chromatic_index

__all__ = ["run"]


def run(args, out, err) -> int:
    """Run ``transformer-dynamics figures``: PNGs of the paper's examples and of a verified
    density cover (needs the ``plot`` extra).

    Checks that matplotlib is installed before anything else (without it, an
    ``ImportError`` says how to install the plot extra, and no folder is created). Writes, in
    the folder ``--out`` (created if needed), the transitive tournament on 3 vertices and the
    complete bipartite digraph ``3 × 4``, each beside a colored hub extension with ``χ_hub``
    colors (:func:`~theorem.drawing.draw_hub_extension`), and the weights of a
    density cover of a random hub digraph over ``S^2``, verified first
    (:func:`~theorem.drawing.draw_density_cover`). Lists the files written on ``out``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the ``figures`` command: ``out`` (the folder) and ``seed``.
    out : file-like
        Text stream for the list of files and the verdict.
    err : file-like
        Unused (the command reports no progress).

    Returns
    -------
    int
        0 when the density cover drawn was verified, 1 when its verification failed.

    Examples
    --------
    A folder that cannot be created is bad input (exit code 2):

    >>> import io, os, tempfile
    >>> from theorem.cli import main
    >>> err = io.StringIO()
    >>> with tempfile.NamedTemporaryFile() as file:        # a file, not a folder
    ...     main(["figures", "--out", os.path.join(file.name, "pngs")],
    ...          out=io.StringIO(), err=err)
    2
    >>> err.getvalue().startswith("transformer-dynamics: error:")
    True
    """
    from pathlib import Path

    from laws.drawing import check_figure_path, require_pyplot
    from theorem.drawing import draw_density_cover, draw_hub_extension

    require_pyplot()                          # no matplotlib: fail before creating anything
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {name: check_figure_path(folder / f"{name}.png")
             for name in ("tournament3_hubs", "bipartite3x4_hubs", "density_cover_s2")}
    for name, g in (("tournament3_hubs", transitive_tournament(3)),
                    ("bipartite3x4_hubs", complete_bipartite(3, 4))):
        draw_hub_extension(g, hub_chromatic_index(g).witness, path=paths[name])
    g, _ = random_hub_extension(12, 4, 0.4, rng=args.seed)
    cover = construct_density_cover(g, Sphere(2), "colors", rng=args.seed)
    report = verify_density_cover(cover, rng=args.seed)
    draw_density_cover(cover, path=paths["density_cover_s2"])
    written = list(paths.values())
    for path in written:
        print(f"wrote {path}", file=out)
    print(f"density cover of random-hub 12,4,0.4 (seed {args.seed}) on sphere:2: "
          f"{'verified' if report.passed else 'VERIFICATION FAILED'}", file=out)
    return 0 if report.passed else 1
