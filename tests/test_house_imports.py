"""House rules of the imports (issue #26), over the project's modules (the apps, bridge, config):

- no module imports another module's underscore name (``from x import _y``, ``x._y``, or a
  private module ``x._y``): what two modules share is public, in the right module. Tests and
  benches may look inside (they are not checked); ``_`` is gettext's marker, not a name of the
  module that defines it;
- no import circle anywhere, not even within an app, not even through an import inside a
  function, and not even through a package's ``__init__``: the import graph of the project
  (grimp's, as import-linter reads it) with, for each ``from package import module``, an import of
  the package itself too (grimp counts only the module; Python runs the package's ``__init__``
  and reads its names, so a submodule that imports its own package that way and a package whose
  ``__init__`` imports the submodule are a circle) has no cycle (issue #38).
"""

import ast
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bridge", "core", "audit", "scoring", "rulings", "appeals", "national", "config")


def project_modules():
    """{module name: path} of every module of the project, migrations aside."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def private(name):
    return name.startswith("_") and not name.startswith("__") and name != "_"


def underscore_imports(name, path, modules):
    """(line, what) for each underscore name of another module that ``name`` imports."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    imported_modules = {}  # a local name -> the project module it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            if source.split(".")[0] not in PACKAGES:
                continue
            if any(private(part) for part in source.split(".")):
                found.append((node.lineno, source))
            for alias in node.names:
                if private(alias.name):
                    found.append((node.lineno, f"{source}.{alias.name}"))
                elif f"{source}.{alias.name}" in modules:
                    imported_modules[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in PACKAGES:
                    continue
                if any(private(part) for part in alias.name.split(".")):
                    found.append((node.lineno, alias.name))
                if alias.asname:
                    imported_modules[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in imported_modules
            and imported_modules[node.value.id] != name
        ):
            found.append((node.lineno, f"{imported_modules[node.value.id]}.{node.attr}"))
    return found


def test_no_module_imports_another_modules_underscore_name():
    modules = project_modules()
    offences = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for name, path in sorted(modules.items())
        for line, what in underscore_imports(name, path, modules)
    ]
    assert offences == []


def test_the_check_sees_each_way_of_reaching_a_private_name(tmp_path):
    path = tmp_path / "probe.py"
    path.write_text(
        "from appeals.services._common import refuse\n"
        "from rulings.views import _diagram\n"
        "from appeals import demo\n"
        "from django.utils.translation import gettext as _\n"
        "from bridge.messages import _\n"
        "demo._seat(1, 2)\n"
        "Ruling._meta\n"
    )
    found = underscore_imports("probe", path, {"appeals.demo": None})
    assert [what for _line, what in found] == [
        "appeals.services._common",
        "rulings.views._diagram",
        "appeals.demo._seat",
    ]


def cycles(graph):
    """The strongly connected groups of more than one module in ``graph`` (Tarjan's)."""
    index, low, on_stack, stack, groups = {}, {}, set(), [], []
    edges = {m: graph.find_modules_directly_imported_by(m) & graph.modules for m in graph.modules}

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in edges[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for module in sorted(graph.modules):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(groups)


def packages_imported_from(name, path):
    """(line, package) for each ``from <package> import ...`` in ``name`` (relative or absolute,
    inside a function too): what grimp leaves out when the names imported are modules."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            if source != name:
                found.append((node.lineno, source))
    return found


def with_package_imports(graph, modules):
    """``graph`` with an import of the package itself for every ``from package import ...``."""
    for name, path in modules.items():
        if name not in graph.modules:
            continue
        for _line, source in packages_imported_from(name, path):
            if source in graph.modules and not graph.direct_import_exists(importer=name, imported=source):
                graph.add_import(importer=name, imported=source)
    return graph


def test_no_import_circle_among_the_projects_modules():
    modules = project_modules()
    graph = with_package_imports(grimp.build_graph(*PACKAGES, cache_dir=None), modules)
    found = cycles(graph)
    details = [
        f"{a} -> {b} (line {', '.join(str(line) for line, source in packages_imported_from(a, modules[a]) if source == b) or ', '.join(str(d['line_number']) for d in graph.get_import_details(importer=a, imported=b))})"
        for group in found
        for a in group
        for b in sorted(graph.find_modules_directly_imported_by(a) & set(group))
    ]
    assert found == [], "\n".join(details)


def test_a_package_and_its_submodule_importing_it_are_a_circle(tmp_path):
    package = tmp_path / "a"
    package.mkdir()
    (package / "__init__.py").write_text("from a.one import f\n")
    (package / "one.py").write_text("def f():\n    from a import two\n")
    (package / "two.py").write_text("")
    (package / "three.py").write_text("from a.two import g\n")
    modules = {"a": package / "__init__.py", "a.one": package / "one.py", "a.two": package / "two.py"}
    modules["a.three"] = package / "three.py"
    graph = grimp.ImportGraph()
    for module in modules:
        graph.add_module(module)
    graph.add_import(importer="a", imported="a.one")
    graph.add_import(importer="a.one", imported="a.two")  # grimp's reading of "from a import two"
    graph.add_import(importer="a.three", imported="a.two")
    assert cycles(graph) == []
    assert cycles(with_package_imports(graph, modules)) == [["a", "a.one"]]


def test_the_circle_finder_finds_a_circle():
    graph = grimp.ImportGraph()
    for module in ("a", "a.one", "a.two", "a.three"):
        graph.add_module(module)
    graph.add_import(importer="a.one", imported="a.two")
    graph.add_import(importer="a.two", imported="a.one")
    graph.add_import(importer="a.three", imported="a.one")
    assert cycles(graph) == [["a.one", "a.two"]]
