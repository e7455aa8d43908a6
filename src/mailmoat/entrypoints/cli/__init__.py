"""The `mailmoat` command groups, one module each, under one typer app."""
