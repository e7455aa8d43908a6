"""`python -m mailmoat`: the same command as the `mailmoat` console script."""

from mailmoat.entrypoints.cli.main import app

app(prog_name="mailmoat")
