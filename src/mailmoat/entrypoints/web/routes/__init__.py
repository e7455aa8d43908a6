"""The web app's routes, one module per resource. Each module has two module-level routers:
`pages` (server-rendered HTML, out of the OpenAPI schema) and `api` (JSON under /api), either
of which may be empty; app.RESOURCES lists every module and create_app includes both routers
of each (tests/unit/test_web_routes.py holds every module to this). `common` holds what
they share: rendering, the redirect back with a notice code, the session cookie, the
signed-in person as a dependency and the app's one ActionService.

May import: entrypoints.web (security, views, actions), services/, the feature packages,
store/, core/.
"""
