"""The web app's routes, one module per resource, every router built the same way (a
module-level `router = APIRouter()`, or a `*_router(store)` factory where the routes need the
store at build time).

May import: entrypoints.web (security, views, actions), services/, the feature packages,
store/, core/.
"""
