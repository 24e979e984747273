"""The package's layering, read from the source: every import, module level or inside a
function, counts (a lazy import is still a dependency).

- no cycle between phoneworld's packages (`phoneworld.<package>`, top-level modules
  count as packages of their own);
- the runtime, the server and the env never import the compiler (infer, codegen, task
  synthesis), directly or through what they import;
- the view-hierarchy model (`ui`) stands on nothing else of phoneworld's;
- the library never imports `rl`.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import networkx as nx
import pytest

import phoneworld

ROOT = Path(phoneworld.__file__).resolve().parent
COMPILER = ("phoneworld.infer", "phoneworld.codegen", "phoneworld.compiler",
            "phoneworld.build", "phoneworld.tasks.synthesize")
RUNNERS = ("runtime", "serve", "env")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(tree: ast.AST, top_only: bool):
    """The import statements that can run: not under `if TYPE_CHECKING`; with `top_only`,
    not inside functions either."""
    stack = list(ast.iter_child_nodes(tree))
    while stack:
        node = stack.pop()
        if _is_type_checking(node):
            continue
        if top_only and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


@cache
def sources() -> dict[str, tuple[ast.AST, bool]]:
    """Every module of phoneworld -> (its syntax tree, whether it is a package)."""
    return {_module(p): (ast.parse(p.read_bytes(), str(p)), p.name == "__init__.py")
            for p in sorted(ROOT.rglob("*.py"))}


def _targets(mod: str, is_package: bool, node: ast.AST, known) -> set[str]:
    """Graph nodes an import statement reaches. `m` is a module with all its code (its
    functions may be called), `m@top` only its top level: what importing a submodule
    runs of the packages above it."""
    names: list[tuple[str, bool]] = []  # (module name, whole module?)
    if isinstance(node, ast.Import):
        names = [(a.name, True) for a in node.names]
    else:
        base = _resolve(mod, is_package, node)
        for a in node.names:
            sub = f"{base}.{a.name}"
            # `from pkg import sub` imports the module; `from pkg import name` reads an
            # attribute of pkg, which may run the package's own code (a lazy __getattr__).
            names.append((sub, True) if sub in known else (base, True))
    out = set()
    for name, _ in names:
        if name in known:
            out.add(name)
        parent = name.rpartition(".")[0]
        while parent:
            if parent in known:
                out.add(parent + "@top")
            parent = parent.rpartition(".")[0]
    return out


@cache
def module_graph() -> nx.DiGraph:
    """Modules -> the modules whose code they can run by importing (see `_targets`)."""
    known = sources()
    g = nx.DiGraph()
    for mod, (tree, is_package) in known.items():
        for top_only, node_name in ((False, mod), (True, mod + "@top")):
            g.add_node(node_name)
            for node in _imports(tree, top_only):
                for t in _targets(mod, is_package, node, known):
                    if t.split("@")[0] != mod:
                        g.add_edge(node_name, t)
    return g


def modules() -> dict[str, set[str]]:
    """Every module -> the names its import statements name (modules, or names in them)."""
    out: dict[str, set[str]] = {}
    for mod, (tree, is_package) in sources().items():
        deps: set[str] = set()
        for node in _imports(tree, top_only=False):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
            else:
                base = _resolve(mod, is_package, node)
                deps.add(base)
                deps.update(f"{base}.{a.name}" for a in node.names)
        out[mod] = deps
    return out


def _package(mod: str) -> str:
    parts = mod.split("@")[0].split(".")
    return parts[1] if len(parts) > 1 else "phoneworld"


def package_graph() -> nx.DiGraph:
    g = nx.DiGraph()
    for a, b in module_graph().edges:
        pa, pb = _package(a), _package(b)
        if pa != pb and pb != "phoneworld":
            g.add_edge(pa, pb, via=f"{a} -> {b}")
    return g


def test_the_import_graph_is_read():
    # The walker sees the imports that matter; if it saw nothing, every rule would pass.
    g = module_graph()
    assert g.has_edge("phoneworld.ui.hierarchy", "phoneworld.ui.node")
    assert g.has_edge("phoneworld.compiler", "phoneworld.infer.app")
    assert g.has_edge("phoneworld.cli", "phoneworld.compiler")  # an import inside a function
    assert not g.has_edge("phoneworld.cli@top", "phoneworld.compiler")
    assert g.has_edge("phoneworld.infer.app", "phoneworld.infer@top")  # a package's own code
    assert not g.has_edge("phoneworld.infer.app", "phoneworld.infer")
    # a package's lazy attributes (`from phoneworld.tasks import synthesize_tasks`) count
    assert g.has_edge("phoneworld.tasks", "phoneworld.tasks.synthesize")
    assert not g.has_edge("phoneworld.tasks@top", "phoneworld.tasks.synthesize")
    assert package_graph().has_edge("compiler", "infer")


def test_no_cycle_between_packages():
    g = package_graph()
    cycles = sorted(sorted(c) for c in nx.simple_cycles(g))
    if cycles:
        edges = [g.edges[a, b]["via"] for c in cycles
                 for a, b in zip(c, c[1:] + c[:1], strict=True) if g.has_edge(a, b)]
        pytest.fail(f"cycles between packages: {cycles}; through {sorted(set(edges))}")


@pytest.mark.parametrize("package", RUNNERS)
def test_runners_never_reach_the_compiler(package):
    g = module_graph()
    bad = []
    for mod in sorted(n for n in g if _package(n) == package and "@" not in n):
        for reached in sorted(nx.descendants(g, mod)):
            if reached.split("@")[0].startswith(COMPILER):
                path = nx.shortest_path(g, mod, reached)
                bad.append(" -> ".join(path))
                break
    assert not bad, "runtime/serve/env reach the compiler:\n" + "\n".join(bad)


LEAVES = {"phoneworld@top", "phoneworld.limits", "phoneworld.limits@top", "phoneworld.errors",
          "phoneworld.errors@top"}
"""Modules every stage may use that stand on nothing else: errors and the limits."""


def test_ui_stands_on_nothing_else():
    g = module_graph()
    assert not [b for leaf in LEAVES if leaf in g for b in g.successors(leaf)
                if b not in LEAVES]
    bad = [f"{a} -> {b}" for a, b in g.edges
           if _package(a) == "ui" and _package(b) != "ui" and b not in LEAVES]
    assert not bad


def test_the_library_never_imports_rl():
    bad = sorted(f"{mod}: {d}" for mod, deps in modules().items() for d in deps
                 if d == "rl" or d.startswith("rl."))
    assert not bad


def test_gestures_use_the_machines_public_surface():
    tree = sources()["phoneworld.runtime.gestures"][0]
    private = sorted({f"m.{n.attr}" for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                      and isinstance(n.value, ast.Name) and n.value.id == "m"
                      and n.attr.startswith("_")})
    assert not private
    # the walker does see attribute use: the public surface is there
    assert any(isinstance(n, ast.Attribute) and n.attr == "fire" for n in ast.walk(tree))


def test_codegen_only_serialises():
    """Codegen turns a bundle into bytes: it may read the spec's types and emit it, and
    nothing that works values out (inference, the runtime, tasks)."""
    g = package_graph()
    assert set(g.successors("codegen")) <= {"spec", "errors"}, sorted(g.successors("codegen"))
