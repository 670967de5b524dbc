"""The layout shows the design: which part may import which, read from the code's own imports.

    config   settings, root URLs, WSGI              -> web (its URLs)
    league   the club's data and its validation     -> nothing of ours
    ratings  methods, engine, services, reads       -> league's models and validation
    web      pages, admin, import, commands         -> league, ratings
    tools    generator and benchmark                -> league, ratings, web

The rating methods and the league's validation are pure Python (no Django), and only the service
functions reach the recompute engines (of matchdays, and of games played against deals).

Features are sorted one way. In web, each feature is a package with its views, tables, forms and
admin inside (web/league/, web/players/, web/deals/, web/seasons/, ...); what several of them share
sits below them all (web/pages/, the page cache in web/page_cache/ and web's top-level modules), and
the places Django finds by name (web/urls.py, the admin's registry web/admin/__init__.py, the
management commands) put them together. A feature is a package, not a prefix: no three modules side by side share one.
"""

import ast
from collections import Counter
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


def test_ratings_takes_only_the_leagues_models_validation_result_record_check_and_history():
    taken = {t for name, imported in GRAPH.items() if part_of(name) == "ratings" for t in ours(imported)}
    rules = {"league.models", "league.validation", "league.placings", "league.results", "league.checked"}
    rules.add("league.history")  # its services record what they wrote
    rules.add("league.services")  # a revert puts back players and pages through their writers
    rules.add("league.bgstats")  # an app's file read as plays, for its import
    assert {t for t in taken if part_of(t) == "league"} <= rules


PURE = (
    "ratings.methods",
    "ratings.odds",
    "league.validation",
    "league.placings",
    "league.results",
    "league.checked",
    "league.bgstats",
)


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


# web's packages that are not features: what the features share, and the folders Django looks in.
BELOW_PACKAGES = {"pages", "page_cache"}
DJANGO_PACKAGES = {"management", "templatetags"}
FEATURES = {
    path.parent.name
    for path in (ROOT / "web").glob("*/__init__.py")
    if path.parent.name not in BELOW_PACKAGES | DJANGO_PACKAGES
}
# Django finds these by name (the URLconf, the commands), so they import the features to put them
# together, as the admin's registry (web/admin/__init__.py) does within the admin.
ROOTS = ("web.urls", "web.management.")


def feature_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "web" and len(parts) > 1 and parts[1] in FEATURES else None


def below_the_features(module: str) -> bool:
    return part_of(module) == "web" and feature_of(module) is None and not module.startswith(ROOTS)


def test_no_feature_imports_another_features_views():
    """What one feature's page shows of another's is in a module of that feature's beside its views
    (web/deals/sections.py) or below them all (web/pages/), never taken from its views."""
    wrong = sorted(
        f"{name} imports {target}"
        for name, imported in GRAPH.items()
        if feature_of(name)
        for target in ours(imported)
        if feature_of(target) not in (None, feature_of(name)) and target.split(".")[2:3] == ["views"]
    )
    assert wrong == []


def test_what_sits_below_the_features_imports_none_of_them():
    wrong = sorted(
        f"{name} imports {target}"
        for name, imported in GRAPH.items()
        if below_the_features(name)
        for target in ours(imported)
        if feature_of(target)
    )
    assert wrong == []


def test_what_sits_below_the_features_serves_more_than_one():
    """A module below the features that only one feature imports belongs in that feature."""
    users = {name: set() for name in GRAPH if below_the_features(name)}
    for name, imported in GRAPH.items():
        for target in ours(imported) & users.keys():
            if target != name:
                users[target].add(feature_of(name) or "below, tools or a root")
    assert sorted(name for name, used in users.items() if len(used) == 1 and used <= FEATURES) == []


def test_the_features_import_each_other_without_a_cycle():
    """The league's pages show a deal game's sections, and the admin's registry gathers every feature's
    admin: never the other way round too."""
    edges = {feature: set() for feature in FEATURES}
    for name, imported in GRAPH.items():
        if mine := feature_of(name):
            edges[mine].update(feature_of(t) for t in ours(imported) if feature_of(t) not in (None, mine))
    done = set()

    def visit(feature, path):
        assert feature not in path, f"import cycle: {' -> '.join([*path, feature])}"
        if feature not in done:
            for target in edges[feature]:
                visit(target, [*path, feature])
            done.add(feature)

    for feature in sorted(FEATURES):
        visit(feature, [])


def test_a_feature_is_a_package_not_a_prefix():
    """Three modules side by side named `deal_engine`, `deal_selectors`, `deal_services` are a
    package (`deals/`). Management commands apart: Django finds them only in one folder."""
    prefixes = Counter(
        (path.parent, path.stem.split("_")[0])
        for path in modules().values()
        if "_" in path.stem.strip("_") and path.parent.parts[-2:] != ("management", "commands")
    )
    assert sorted(f"{folder.relative_to(ROOT)}/{prefix}_*" for (folder, prefix), n in prefixes.items() if n > 2) == []


def defined_classes(tree: ast.AST):
    """The classes a module defines, at its top level or in a function: not those inside a class
    (a table's or a form's Meta)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            yield node.name
        else:
            yield from defined_classes(node)


SAME_NAME_BY_DESIGN = {"Command"}  # Django finds a management command by this name, one per module


def test_each_class_name_means_one_thing():
    defined = Counter(name for path in modules().values() for name in defined_classes(ast.parse(path.read_text())))
    assert sorted(name for name, n in defined.items() if n > 1 and name not in SAME_NAME_BY_DESIGN) == []


def test_the_walks_see_the_features_and_the_classes_they_check():
    """A guard against a walk that finds nothing and so passes everything."""
    assert {"league", "players", "deals", "seasons", "nights", "odds", "entry", "methods", "admin"} <= FEATURES
    assert "web.deals.sections" in GRAPH["web.league.views"] and feature_of("web.deals.sections") == "deals"
    assert "web.league.views" in GRAPH["web.urls"] and not below_the_features("web.urls")
    assert "web.pages.access" in GRAPH["web.context_processors"] and below_the_features("web.context_processors")
    assert below_the_features("web.pages.sections") and not below_the_features("web.league.views")
    assert not below_the_features("web.management.commands.seed_deals")
    defined = Counter(name for path in modules().values() for name in defined_classes(ast.parse(path.read_text())))
    assert defined["SiteTable"] == 1 and defined["Command"] > 5 and "Meta" not in defined


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
