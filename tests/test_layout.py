"""The layout shows the design: which part may import which, read from the code's own imports.

    config   settings, root URLs, WSGI              -> web (its URLs)
    league   the club's data and its validation     -> nothing of ours
    ratings  methods, engine, services, reads       -> league's models and validation
    web      pages, admin, import, commands         -> league, ratings
    tools    generator and benchmark                -> league, ratings, web

The rating methods and the league's validation are pure Python (no Django), and only the service
functions reach the recompute engines (of matchdays, and of games played against deals).
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("config", "league", "ratings", "web", "tools")
ALLOWED = {
    "config": {"web"},
    "league": set(),
    "ratings": {"league"},
    "web": {"league", "ratings"},
    "tools": {"league", "ratings", "web"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    found = {}
    for part in PARTS:
        for path in (ROOT / part).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


def imports_of(name: str, path: Path) -> set[str]:
    """Every module `name` imports, anywhere in it (functions too), relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)  # `from x import module`
    return found


def part_of(module: str) -> str | None:
    top = module.split(".")[0]
    return top if top in PARTS else None


GRAPH = {name: imports_of(name, path) for name, path in modules().items()}
KNOWN = set(GRAPH)


def ours(imported: set[str]) -> set[str]:
    """The project's own modules among `imported` (a `from x import name` counts as x)."""
    return {m for m in imported if m in KNOWN}


def test_every_part_imports_only_the_parts_below_it():
    wrong = sorted(
        f"{name} imports {target}"
        for name, imported in GRAPH.items()
        for target in ours(imported)
        if part_of(target) != part_of(name) and part_of(target) not in ALLOWED[part_of(name)]
    )
    assert wrong == []


def test_the_parts_import_each_other_without_a_cycle():
    edges = {part: set() for part in PARTS}
    for name, imported in GRAPH.items():
        edges[part_of(name)].update(part_of(t) for t in ours(imported) if part_of(t) != part_of(name))
    visiting, done = set(), set()

    def visit(part, path):
        assert part not in visiting, f"import cycle: {' -> '.join([*path, part])}"
        if part in done:
            return
        visiting.add(part)
        for target in edges[part]:
            visit(target, [*path, part])
        visiting.discard(part)
        done.add(part)

    for part in PARTS:
        visit(part, [])


def test_ratings_takes_only_the_leagues_models_validation_result_record_and_check():
    taken = {t for name, imported in GRAPH.items() if part_of(name) == "ratings" for t in ours(imported)}
    rules = {"league.models", "league.validation", "league.placings", "league.results", "league.checked"}
    assert {t for t in taken if part_of(t) == "league"} <= rules


PURE = ("ratings.methods", "ratings.odds", "league.validation", "league.placings", "league.results", "league.checked")


@pytest.mark.parametrize("package", PURE)
def test_the_rating_maths_the_checks_and_the_result_record_are_pure_python(package):
    for name, imported in GRAPH.items():
        if name == package or name.startswith(package + "."):
            assert not {m for m in imported if m.split(".")[0] == "django"}, name
            assert ours(imported) <= {m for m in KNOWN if m.startswith(PURE)}


def _services(name: str) -> bool:
    return name.startswith("ratings.services.") or name == "ratings.deals.services"


def test_only_the_service_functions_reach_the_engine():
    callers = {name for name, imported in GRAPH.items() if "ratings.engine" in imported}
    assert callers and all(name.startswith("ratings.services.") for name in callers), callers


def test_only_the_service_functions_reach_the_engine_of_games_played_against_deals():
    callers = {name for name, imported in GRAPH.items() if "ratings.deals.engine" in imported}
    assert callers and all(map(_services, callers)), callers


def test_the_walk_sees_the_imports_it_checks():
    """A guard against a walk that finds nothing and so passes everything."""
    assert "ratings.engine" in GRAPH["ratings.services.recompute"]
    assert "ratings.deals.engine" in GRAPH["ratings.deals.services"]
    assert "league.models" in GRAPH["ratings.engine"]
    assert "ratings.services.matchdays" in GRAPH["web.admin.matchdays"]
    assert "web.importing" in GRAPH["web.management.commands.import_results"]


def test_modules_and_functions_fit_in_a_head():
    """Split by concept before a module passes 400 lines or a function 60 (tests and migrations apart)."""
    too_long = []
    for name, path in modules().items():
        if part_of(name) == "config":
            continue
        source = path.read_text()
        if len(source.splitlines()) > 400:
            too_long.append(f"{name}: {len(source.splitlines())} lines")
        for node in ast.walk(ast.parse(source, str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                if node.end_lineno - start + 1 > 60:
                    too_long.append(f"{name}.{node.name}: {node.end_lineno - start + 1} lines")
    assert too_long == []
