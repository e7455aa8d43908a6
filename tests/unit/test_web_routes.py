"""The web routes' one convention: a module per resource under entrypoints/web/routes, each with
two module-level routers, `pages` (HTML, out of the OpenAPI schema) and `api` (JSON under
/api), built nowhere else (no `*_router()` factories); app.RESOURCES lists every module and
the app serves exactly their routes, over one ActionService."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType

from fastapi import APIRouter
from fastapi.routing import APIRoute

from mailmoat.entrypoints.web import app as web_app
from mailmoat.entrypoints.web import routes
from mailmoat.store import Store

ROUTES_DIR = Path(routes.__file__).parent
SHARED = {"__init__", "common"}  # helpers, not resources
APP_OWN = {"/favicon.ico", "/healthz", "/openapi.json"}  # the app's own, outside any resource


def all_routes(routes: list) -> list[APIRoute]:  # type: ignore[type-arg]
    """Every APIRoute, including those in included routers (however FastAPI nests them)."""
    found: list[APIRoute] = []
    for route in routes:
        if isinstance(route, APIRoute):
            found.append(route)
        nested = getattr(route, "original_router", None)
        if nested is not None:
            found.extend(all_routes(nested.routes))
    return found


def route_modules(folder: Path) -> set[str]:
    return {p.stem for p in folder.glob("*.py")} - SHARED


def router_factories(source: str) -> list[str]:
    """Functions that build a router: `APIRouter(` called inside a def, or a def whose
    return annotation names APIRouter."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        returns = ast.unparse(node.returns) if node.returns else ""
        builds = any(isinstance(c, ast.Call) and ast.unparse(c.func).endswith("APIRouter")
                     for c in ast.walk(node))
        if "APIRouter" in returns or builds:
            found.append(node.name)
    return found


def convention_breaks(module: ModuleType) -> list[str]:
    name = module.__name__.rsplit(".", 1)[-1]
    out = []
    for attr in ("pages", "api"):
        if not isinstance(getattr(module, attr, None), APIRouter):
            out.append(f"{name}.{attr} is not a module-level APIRouter")
    pages, api = getattr(module, "pages", None), getattr(module, "api", None)
    if isinstance(pages, APIRouter):
        for route in pages.routes:
            assert isinstance(route, APIRoute)
            if route.path.startswith("/api/") or route.include_in_schema:
                out.append(f"{name}.pages serves {route.path} (API or in the schema)")
    if isinstance(api, APIRouter):
        for route in api.routes:
            assert isinstance(route, APIRoute)
            if not route.path.startswith("/api/"):
                out.append(f"{name}.api serves {route.path} outside /api")
    return out + [f"{name}.{f} builds a router" for f in
                  router_factories(Path(str(module.__file__)).read_text())]


def test_every_route_module_is_a_listed_resource() -> None:
    listed = {m.__name__.rsplit(".", 1)[-1] for m in web_app.RESOURCES}
    assert listed == route_modules(ROUTES_DIR)
    assert len(web_app.RESOURCES) == len(listed)  # none listed twice


def test_every_resource_has_module_level_pages_and_api_routers_and_no_factories() -> None:
    breaks = [b for m in web_app.RESOURCES for b in convention_breaks(m)]
    assert breaks == []
    assert router_factories((ROUTES_DIR / "common.py").read_text()) == []
    assert router_factories(Path(web_app.__file__).read_text()) == []


def test_the_app_serves_exactly_the_resources_routes(store: Store) -> None:
    app = web_app.create_app(store)
    served = {(m, r.path) for r in all_routes(app.routes) if r.path not in APP_OWN
              for m in r.methods}
    declared = {(m, r.path) for module in web_app.RESOURCES
                for router in (module.pages, module.api) for r in router.routes
                if isinstance(r, APIRoute) for m in r.methods}
    assert served == declared and len(served) >= 60
    # One ActionService: the approvals, triage and action routes all use app.state.actions.
    assert app.state.approvals.service is app.state.actions
    assert app.state.triage.service is app.state.actions


def test_the_checks_catch_a_module_that_breaks_the_convention(tmp_path: Path) -> None:
    """Plant each kind of break and watch the checks report it."""
    (tmp_path / "common.py").write_text("")
    (tmp_path / "extra.py").write_text(
        "from fastapi import APIRouter\n"
        "def extra_router() -> APIRouter:\n"
        "    router = APIRouter()\n"
        "    return router\n")
    assert route_modules(tmp_path) == {"extra"}
    assert router_factories((tmp_path / "extra.py").read_text()) == ["extra_router"]
    assert router_factories("def make():\n    return fastapi.APIRouter(prefix='/x')\n") == [
        "make"]

    broken = ModuleType("mailmoat.entrypoints.web.routes.broken")
    broken.__file__ = str(tmp_path / "common.py")
    broken.pages = APIRouter()  # type: ignore[attr-defined]
    broken.pages.add_api_route("/api/x", lambda: {})  # type: ignore[attr-defined]
    assert convention_breaks(broken) == [
        "broken.api is not a module-level APIRouter",
        "broken.pages serves /api/x (API or in the schema)"]
