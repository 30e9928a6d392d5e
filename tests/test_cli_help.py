"""Every `graphmem` command and group explains itself: `--help` works and says what the
command is for (its docstring's first line), and every option and argument is described."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from graphmem.cli import app

runner = CliRunner()


def commands(group: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Every command and group under ``group`` (typer's click objects), with the words
    that call it."""
    found: list[tuple[tuple[str, ...], Any]] = []
    for name, command in sorted(group.commands.items()):
        found.append(((*path, name), command))
        if hasattr(command, "commands"):  # a group
            found += commands(command, (*path, name))
    return found


ALL = commands(typer.main.get_command(app))


def words(text: str) -> str:
    """Text with the help renderer's line breaks, boxes and markup out of the way."""
    return " ".join(text.replace("│", " ").replace("*", "").split())


def test_the_tree_is_walked():
    names = {" ".join(path) for path, _ in ALL}
    assert {"remember", "recall", "ingest", "tasks", "tasks add", "session append"} <= names


@pytest.mark.parametrize(("path", "command"), ALL, ids=[" ".join(p) for p, _ in ALL])
def test_every_command_and_group_says_what_it_is_for(path: tuple[str, ...], command: Any):
    purpose = (command.help or "").strip().splitlines()[0] if command.help else ""
    assert purpose, f"`graphmem {' '.join(path)}` has no docstring"
    shown = runner.invoke(app, [*path, "--help"], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    assert words(purpose) in words(shown.output)
    undescribed = [
        p.name for p in command.params if p.name != "help" and not getattr(p, "help", None)
    ]
    assert not undescribed, f"`graphmem {' '.join(path)}`: {undescribed} have no help"
