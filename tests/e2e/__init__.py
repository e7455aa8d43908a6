"""End-to-end tests: real Chromium driving the web app, and whole flows from mail arriving to an
action executed."""
