"""An agent's default limits, apart from the client registry so the CLI can show them
without loading the store."""

DEFAULT_RATE_PER_MINUTE = 60
DEFAULT_DAILY_PROPOSALS = 100
