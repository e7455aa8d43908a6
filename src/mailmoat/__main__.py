"""`python -m mailmoat`: the same command as `mailmoat`."""

from mailmoat.cli import main

main()
