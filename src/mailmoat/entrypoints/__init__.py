"""Entrypoints: the `mailmoat` CLI (cli/, one module per command group under one typer app in
cli/main.py), the web app (web/), the background jobs (jobs.py: huey in the embedded default;
queue.py: Dramatiq on RabbitMQ, workers and the scheduler past one machine) and the executor
worker process (worker.py). Thin: parse input, call a service or a feature package, render.

May import: services/, the feature packages, store/, core/. Nothing imports entrypoints.
"""
