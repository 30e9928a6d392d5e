"""The `graphmem` command line; each module adds one group of commands to ``app``."""

from graphmem.cli import cards, recall, server
from graphmem.cli.app import app


def main() -> None:
    app()


__all__ = ["app", "cards", "main", "recall", "server"]
