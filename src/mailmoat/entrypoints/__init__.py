"""entrypoints: the thin shells (CLI, web, jobs) that parse input, call a service, render."""
