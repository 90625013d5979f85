"""Every public function, class and method has the numpydoc sections the API reference
renders (docs/conventions.md#docstrings):

* **Parameters** names exactly the arguments of the signature (``self``/``cls`` aside), in
  order;
* **Returns** (or **Yields**) when the code returns a value;
* **Raises** names every exception the body raises itself (``raise Name(...)``);
* **Examples** holds a doctest (``>>>``) — the doctests run in this suite
  (``--doctest-modules``).

Public means: listed in the ``__all__`` of a module or package whose name has no leading
underscore, and, inside such a class, a method or property without one. Properties need a
docstring only; exception classes need a docstring that says when they are raised. A method
that overrides a documented one inherits its docstring (:func:`inspect.getdoc`).
"""

import ast
import importlib
import inspect
import pkgutil
import re
import textwrap

import pytest

PACKAGES = ("manifolds", "laws", "theorem")
SECTION = re.compile(r"^(\w[\w ]*)\n-{3,}\s*$", re.MULTILINE)
#: A parameter line of a numpydoc section: ``name : type`` or ``name`` (several names may
#: share one line, ``x, y : float``), at the section's own indentation.
ITEM = re.compile(r"^(\*{0,2}\w+(?:\s*,\s*\*{0,2}\w+)*)\s*(?::.*)?$")


def _public_objects():
    """``(qualified name, object)`` of every public function, class, method and property."""
    found = {}
    for top in PACKAGES:
        package = importlib.import_module(top)
        modules = [package] + [importlib.import_module(info.name)
                               for info in pkgutil.walk_packages(package.__path__, top + ".")
                               if not any(part.startswith("_") for part in info.name.split("."))]
        for module in modules:
            for name in getattr(module, "__all__", ()):
                obj = getattr(module, name)
                if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                    continue
                key = f"{obj.__module__}.{obj.__qualname__}"
                found[key] = obj
                if inspect.isclass(obj) and not issubclass(obj, BaseException):
                    for attr, value in vars(obj).items():
                        if not attr.startswith("_") and isinstance(
                                value, (property, classmethod, staticmethod)) or (
                                not attr.startswith("_") and inspect.isfunction(value)):
                            found[f"{key}.{attr}"] = getattr(obj, attr) if not isinstance(
                                value, property) else value
    return sorted(found.items())


OBJECTS = _public_objects()


def _sections(doc: str) -> dict[str, str]:
    """Section title -> body of a numpydoc docstring."""
    marks = list(SECTION.finditer(doc))
    return {m.group(1).strip(): doc[m.end():marks[i + 1].start() if i + 1 < len(marks)
                                    else len(doc)]
            for i, m in enumerate(marks)}


def _items(body: str) -> list[str]:
    """The names a Parameters/Raises section lists (lines at its least indentation)."""
    lines = [line for line in textwrap.dedent(body).splitlines() if line.strip()]
    names = []
    for line in lines:
        if line[0].isspace():
            continue
        match = ITEM.match(line.strip())
        if match:
            names += [n.strip() for n in match.group(1).split(",")]
    return names


def _function_node(func):
    """The ``def`` of ``func`` in its source, or None when the source is unavailable."""
    try:
        source = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError):
        return None
    node = ast.parse(source).body[0]
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _own_nodes(node):
    """The nodes of a function body, nested functions and classes excluded."""
    stack = list(node.body)
    while stack:
        child = stack.pop()
        yield child
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                  ast.Lambda)):
            stack.extend(ast.iter_child_nodes(child))


def _returns_value(func, node) -> bool:
    annotation = inspect.signature(func).return_annotation
    if annotation is not inspect.Signature.empty:
        return annotation not in (None, "None")
    return any(isinstance(n, ast.Return) and n.value is not None
               and not (isinstance(n.value, ast.Constant) and n.value.value is None)
               for n in _own_nodes(node))


def _raised(node) -> set[str]:
    """Exception names raised directly in the body (``raise Name(...)``/``raise Name``)."""
    names = set()
    for n in _own_nodes(node):
        if isinstance(n, ast.Raise) and n.exc is not None:
            exc = n.exc.func if isinstance(n.exc, ast.Call) else n.exc
            if isinstance(exc, ast.Name) and exc.id[0].isupper():
                names.add(exc.id)
            elif isinstance(exc, ast.Attribute):
                names.add(exc.attr)
    return names


def _parameters(func) -> list[str]:
    names = []
    for p in inspect.signature(func).parameters.values():
        if p.name in ("self", "cls"):
            continue
        prefix = {inspect.Parameter.VAR_POSITIONAL: "*",
                  inspect.Parameter.VAR_KEYWORD: "**"}.get(p.kind, "")
        names.append(prefix + p.name)
    return names


def _problems(key: str, obj) -> list[str]:
    doc = inspect.getdoc(obj)
    if not doc or not doc.strip():
        return ["no docstring"]
    if isinstance(obj, property) or (inspect.isclass(obj) and issubclass(obj, BaseException)):
        return []
    sections = _sections(doc)
    problems = []
    if inspect.isclass(obj):
        func, node = obj, None
        expected = _parameters(obj)
    else:
        func, node = obj, _function_node(obj)
        expected = _parameters(obj)
    documented = _items(sections.get("Parameters", ""))
    if [name.lstrip("*") for name in documented] != [name.lstrip("*") for name in expected]:
        problems.append(f"Parameters lists {documented}, the signature has {expected}")
    if node is not None:
        if _returns_value(func, node) and not ({"Returns", "Yields"} & sections.keys()):
            problems.append("no Returns section")
        missing = _raised(node) - set(_items(sections.get("Raises", "")))
        if missing:
            problems.append(f"Raises does not name {sorted(missing)}")
    if ">>>" not in sections.get("Examples", ""):
        problems.append("no Examples with a doctest")
    return problems


def test_there_are_public_objects():
    # The walk must find the public API: a broken walk would pass every check below.
    names = {key.rsplit(".", 1)[-1] for key, _ in OBJECTS}
    assert {"Sphere", "biclique_cover_number", "InteractionLaw", "construct_density_cover",
            "dist"} <= names
    assert len(OBJECTS) > 150


@pytest.mark.parametrize("key, obj", OBJECTS, ids=[key for key, _ in OBJECTS])
def test_numpydoc_sections(key, obj):
    problems = _problems(key, obj)
    assert not problems, f"{key}: " + "; ".join(problems)


def test_checker_catches_what_it_claims():
    def documented(x, *, rng=None):
        """Sum.

        Parameters
        ----------
        x : int
        rng : Generator, optional

        Returns
        -------
        int

        Raises
        ------
        ValueError
            When ``x`` is negative.

        Examples
        --------
        >>> 1
        1
        """
        if x < 0:
            raise ValueError("negative")
        return x

    def undocumented(x, y):
        """Sum.

        Parameters
        ----------
        x : int
        """
        if x < 0:
            raise TypeError("negative")
        return x + y

    assert _problems("documented", documented) == []
    assert _problems("undocumented", undocumented) == [
        "Parameters lists ['x'], the signature has ['x', 'y']", "no Returns section",
        "Raises does not name ['TypeError']", "no Examples with a doctest"]
