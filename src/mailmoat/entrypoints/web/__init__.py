"""The web app (docs/web.md): FastAPI over one store, behind sign-in, a CSRF guard and a
strict Content-Security-Policy.

app          create_app: wires the routers, the security guards and the shared state
routes/      one module per resource, each serving its page and its JSON
security/    sign-in and sessions, the CSRF guard, CSP, login throttling
views actions   what each page shows, and the state-changing actions pages and API share
approvals act_adapter draft_diff   the approvals and triage pages over act/
sanitize settings_forms lane_settings timefmt   mail HTML made safe, form checks, formatting
templates/ static/   Jinja templates, CSS, the service worker, the favicon

May import: services/, the feature packages, store/, core/. Never entrypoints.cli.
"""
