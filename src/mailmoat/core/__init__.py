"""Pure functions and value types. Nothing in here does I/O, reads a clock or touches a DB."""
