"""The `graphmem` command line; each module adds one group of commands to ``app``."""

from graphmem.cli import agent, cards, history, ingest, profile, recall, server, service, tasks
from graphmem.cli import consolidate as consolidate  # registers consolidate, feedback
from graphmem.cli.app import app


def main() -> None:
    app()


__all__ = [
    "agent",
    "app",
    "cards",
    "history",
    "ingest",
    "main",
    "profile",
    "recall",
    "server",
    "service",
    "tasks",
]
