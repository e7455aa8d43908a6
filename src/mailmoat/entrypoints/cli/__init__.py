"""`mailmoat` command groups, one module per group."""
