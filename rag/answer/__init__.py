"""Answering: SQL guard, the three engines, the router, answer composition and chart specs."""
