"""The service commands through typer's CliRunner: export, import, serve's safety check."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from graphmem.cli import app

runner = CliRunner()


def gm(home: Path, *args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, ["--home", str(home), *args], env=env)


def test_export_then_import_as_another_user(home: Path, tmp_path: Path):
    assert (
        gm(
            home,
            "remember",
            "Alice is allergic to peanuts",
            "--user",
            "alice",
            "--person",
            "Alice",
            "--relationship",
            "sister",
        ).exit_code
        == 0
    )
    assert gm(home, "tasks", "add", "Plan dinner", "--user", "alice").exit_code == 0
    dump = tmp_path / "alice.jsonl"
    exported = gm(home, "export", "--user", "alice", str(dump))
    assert exported.exit_code == 0, exported.output
    kinds = [json.loads(line)["type"] for line in dump.read_text().splitlines()]
    assert kinds == ["header", "user", "person", "card", "task"]
    assert not (tmp_path / "alice.jsonl.partial").exists()

    imported = gm(home, "import", str(dump), "--user", "bob")
    assert imported.exit_code == 0, imported.output
    assert "imported into bob: 1 user, 1 person, 1 card, 1 task" in imported.output
    again = gm(home, "import", str(dump), "--user", "bob")
    assert again.exit_code == 0
    listed = json.loads(gm(home, "list", "--user", "bob", "--json").stdout)
    assert [(c["fact"], c["person"], c["relationship"]) for c in listed] == [
        ("Alice is allergic to peanuts", "Alice", "sister")
    ]


def test_export_to_stdout_with_embeddings(home: Path):
    gm(home, "remember", "I like tea", "--user", "carol")
    result = gm(home, "export", "--user", "carol", "-", "--with-embeddings")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records[0]["embeddings"] is True
    assert records[0]["dimension"] == 384
    card = next(r for r in records if r["type"] == "card")
    assert len(card["embedding"]) == 384


def test_import_of_a_malformed_file_names_the_line(home: Path, tmp_path: Path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"type": "header", "format": "graphmem-export", "version": 1, "user_id": "dave"}\n{oops\n',
        encoding="utf-8",
    )
    result = gm(home, "import", str(bad))
    assert result.exit_code == 2
    assert "line 2: not JSON" in result.output


def test_serve_refuses_a_public_address_without_keys(home: Path):
    result = gm(home, "serve", "--host", "0.0.0.0", env={"GRAPHMEM_API_KEYS": ""})
    assert result.exit_code == 2
    assert "refusing to serve 0.0.0.0 without API keys" in result.output
