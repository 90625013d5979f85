"""``transformer-dynamics figures``: the paper's examples and a density cover, as PNGs."""

from __future__ import annotations

from manifolds import Sphere

from ..covers import construct_density_cover, verify_density_cover
from ..digraphs import complete_bipartite, random_hub_extension, transitive_tournament
from ..invariants import hub_chromatic_index

__all__ = ["run"]


def run(args, out, err) -> int:
    from pathlib import Path

    from theorem.drawing import draw_density_cover, draw_hub_extension

    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, g in (("tournament3", transitive_tournament(3)), ("bipartite3x4", complete_bipartite(3, 4))):
        path = folder / f"{name}_hubs.png"
        draw_hub_extension(g, hub_chromatic_index(g).witness, path=path)
        written.append(path)
    g, _ = random_hub_extension(12, 4, 0.4, rng=args.seed)
    cover = construct_density_cover(g, Sphere(2), "colors", rng=args.seed)
    report = verify_density_cover(cover, rng=args.seed)
    path = folder / "density_cover_s2.png"
    draw_density_cover(cover, path=path)
    written.append(path)
    for path in written:
        print(f"wrote {path}", file=out)
    print(f"density cover of random-hub 12,4,0.4 (seed {args.seed}) on sphere:2: "
          f"{'verified' if report.passed else 'VERIFICATION FAILED'}", file=out)
    return 0 if report.passed else 1
