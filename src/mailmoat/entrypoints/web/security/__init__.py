"""Who may ask what: sign-in and sessions (auth.py), the CSRF guard (auth.py), the
Content-Security-Policy (csp.py) and login throttling (throttle.py, a pure decision).

May import: store/ (sessions, users) and core/. Never routes.
"""
