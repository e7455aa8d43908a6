"""Mail accounts: settings, secrets sealed at rest, OAuth token exchange."""
