"""The `mailmoat` command: one typer app (main.py) and one module per command group, each
exposing `app = typer.Typer(...)` (or plain command functions) that main.py registers. One
shared Console and one actor helper (common.py). Modules parse, call a service, print.

May import: services/, the feature packages, store/, core/, and entrypoints.web (`up`).
"""
