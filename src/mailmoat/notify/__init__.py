"""Notifications: pure rules (rules.py), signed links (signing.py), channels and dispatch."""
