"""The package layering of DESIGN.md §6: manifolds imports neither laws nor theorem; laws does
not import theorem. Checked on the source (every import statement) and at run time."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("package,forbidden", [("manifolds", {"laws", "theorem"}), ("laws", {"theorem"})])
def test_no_upward_imports(package, forbidden):
    for path in (ROOT / package).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"
    code = f"import sys, {package}; print(sorted(m for m in {sorted(forbidden)!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
