"""mailmoat: an attention firewall for email."""

__version__ = "0.1.0"
