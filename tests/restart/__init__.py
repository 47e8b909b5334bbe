"""Stopping and starting the real server (``python -m app serve``) on the same database."""
