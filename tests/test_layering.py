"""The package layering of docs/conventions.md#architecture, checked on the source (every
import statement, relative ones resolved) and, for the top-level packages, at run time:

* manifolds imports neither laws nor theorem; laws does not import theorem;
* theorem.digraphs, theorem.invariants and theorem.sat import no geometry (neither laws nor
  manifolds, except its argument checks, manifolds.validation) and neither covers nor cli;
* theorem.covers imports no cli and not theorem.transformer (Section 3), which imports no cli,
  no drawing and no models; theorem.sweeps imports no geometry (but manifolds.validation)
  and dask only where a client is used; theorem.models (the models extra) imports no geometry, no
  covers and no cli, and nothing imports torch or transformers at import time (only
  theorem.models, lazily, when a model is loaded);
* nothing outside manifolds calls a private method of a space.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: What each package (or sub-package) may not import, and the exceptions.
RULES = {
    "manifolds": ({"laws", "theorem"}, set()),
    "laws": ({"theorem"}, set()),
    "theorem.digraphs": ({"laws", "manifolds", "theorem.covers", "theorem.cli", "theorem.drawing"},
                         {"manifolds.validation"}),
    "theorem.invariants": ({"laws", "manifolds", "theorem.covers", "theorem.cli",
                            "theorem.drawing"}, {"manifolds.validation"}),
    "theorem.sat": ({"laws", "manifolds", "theorem.covers", "theorem.cli", "theorem.drawing",
                     "theorem.invariants"}, {"manifolds.validation"}),
    "theorem.covers": ({"theorem.cli", "theorem.models", "theorem.transformer", "torch",
                        "transformers"}, set()),
    # Section 3 builds on the covers and the laws; nothing below it imports it
    "theorem.transformer": ({"theorem.cli", "theorem.models", "theorem.drawing", "torch",
                             "transformers"}, set()),
    # sweeps: combinatorics only; dask.distributed only inside the functions that use a client
    "theorem.sweeps": ({"laws", "manifolds", "theorem.covers", "theorem.cli", "theorem.drawing",
                        "theorem.models", "theorem.transformer", "torch", "transformers"},
                       {"manifolds.validation"}),
    # the attention of pretrained models (models extra): torch only through its lazy import
    "theorem.models": ({"laws", "manifolds", "theorem.covers", "theorem.cli", "theorem.drawing",
                        "torch", "transformers"}, {"manifolds.validation"}),
}
for _combinatorics in ("theorem.digraphs", "theorem.invariants", "theorem.sat"):
    RULES[_combinatorics][0].update({"theorem.models", "theorem.transformer", "torch",
                                     "transformers"})


def _modules(package: str):
    """``(module name, path)`` of every module of ``package``, sub-packages included."""
    folder = ROOT / package.replace(".", "/")
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def _imports(module: str, path: Path):
    """Every module ``module`` imports, as absolute names (``from . import x`` gives
    ``package.x``)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[:len(base) - node.level + 1] if node.level else []
            prefix = ".".join(base + ([node.module] if node.module else []))
            yield from (f"{prefix}.{a.name}" for a in node.names)


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("package", sorted(RULES))
def test_no_forbidden_imports(package):
    forbidden, allowed = RULES[package]
    for module, path in _modules(package):
        for name in _imports(module, path):
            if any(_inside(name, a) for a in allowed):
                continue
            bad = [f for f in forbidden if _inside(name, f)]
            assert not bad, f"{module} imports {name}"


@pytest.mark.parametrize("package,forbidden", [("manifolds", ["laws", "theorem"]), ("laws", ["theorem"])])
def test_no_upward_imports_at_run_time(package, forbidden):
    code = f"import sys, {package}; print(sorted(m for m in {forbidden!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_importing_the_library_and_its_cli_does_not_import_torch_or_dask():
    code = ("import sys, theorem, theorem.cli, theorem.models; print(sorted(m for m in "
            "('torch', 'transformers', 'dask', 'distributed') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def _private_space_calls(path: Path):
    """``obj._method(...)`` calls where ``obj`` names a space (``space``, ``self.space``, …)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr.startswith("_") and not node.func.attr.startswith("__")):
            owner = ast.unparse(node.func.value)
            if owner.split(".")[-1] in {"space", "sp", "manifold"}:
                yield f"{path.relative_to(ROOT)}:{node.lineno}: {owner}.{node.func.attr}"


@pytest.mark.parametrize("package", ["laws", "theorem"])
def test_no_private_method_of_a_space_outside_manifolds(package):
    calls = [c for _, path in _modules(package) for c in _private_space_calls(path)]
    assert not calls, calls
