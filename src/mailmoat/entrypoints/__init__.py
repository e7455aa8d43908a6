"""Entry points: the CLI, the web app, jobs. Thin: parse, call a service, render."""
