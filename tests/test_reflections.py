"""Reflections: a user's memory as a Markdown folder; exporting again rewrites what changed."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from graphmem import Memory, ValidationError
from graphmem.cli import app

HOBBIES = [
    "I enjoy hiking in the mountains",
    "I love rock climbing",
    "I go trail running on weekends",
    "I like camping outdoors in the mountains",
    "I enjoy mountain biking",
]
FOOD = [
    "I love Italian food, especially pasta",
    "My favourite dish is pizza",
    "I enjoy cooking Thai curry",
    "I like spicy Indian food",
]
STRATEGY = "When the search tool returns nothing, retry with the city name only"


def front_matter(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


@pytest.fixture(scope="module")
def kim(memory: Memory) -> str:
    """Two clusters of interests, a strategy that worked, a move; consolidated."""
    user = f"kim-{uuid.uuid4().hex[:8]}"
    rows = [
        {"fact": f, "timestamp": f"2025-05-{i + 1:02d}", "tags": ["interests"]}
        for i, f in enumerate(HOBBIES + FOOD)
    ]
    rows += [
        {"fact": "I live in Paris", "timestamp": "2023-01-10", "category": "life"},
        {"fact": "I moved to Berlin", "timestamp": "2024-02-01", "category": "life"},
        {
            "fact": STRATEGY,
            "category": "strategy",
            "tags": ["tool:search", "error:empty"],
            "backstory": "The search for 'cafes near Alexanderplatz, Berlin' found nothing.",
            "timestamp": "2025-05-20",
        },
    ]
    memory.remember_many([{**row, "user_id": user} for row in rows])
    memory.consolidate(user, ("conflicts", "abstraction"))
    return user


def test_the_folder_has_the_profile_a_file_per_theme_and_strategy(
    memory: Memory, kim: str, tmp_path: Path
):
    report = memory.export_markdown(kim, tmp_path / "kim")
    root = tmp_path / "kim"
    themes = sorted((root / "themes").glob("*.md"))
    strategies = sorted((root / "strategies").glob("*.md"))
    assert len(themes) == 2
    assert len(strategies) == 1
    assert sorted(report.written) == sorted(
        ["profile.md", *(str(p.relative_to(root)) for p in themes + strategies)]
    )
    by_fact = {c.fact: c for c in memory.cards(kim, status=None)}
    members = {}
    for path in themes:
        meta = front_matter(path)
        assert set(meta) == {
            "id",
            "kind",
            "category",
            "tags",
            "created",
            "updated",
            "cards",
            "representative",
        }
        assert (meta["kind"], meta["category"], meta["tags"]) == ("theme", "other", ["interests"])
        assert meta["created"].startswith("20")
        members[frozenset(meta["cards"])] = path
    assert set(members) == {
        frozenset(by_fact[f].id for f in HOBBIES),
        frozenset(by_fact[f].id for f in FOOD),
    }
    hiking = members[frozenset(by_fact[f].id for f in HOBBIES)].read_text(encoding="utf-8")
    for fact in HOBBIES:
        assert f"- {fact} [{by_fact[fact].id[:8]}]" in hiking
    strategy = front_matter(strategies[0])
    assert (strategy["kind"], strategy["cards"], strategy["tags"]) == (
        "strategy",
        [by_fact[STRATEGY].id],
        ["error:empty", "tool:search"],
    )
    assert "found nothing" in strategies[0].read_text(encoding="utf-8")
    profile = (root / "profile.md").read_text(encoding="utf-8")
    assert profile == memory.profile(kim).markdown()
    assert "(was: I live in Paris until 2024-02-01" in profile


def test_exporting_again_rewrites_only_what_changed(memory: Memory, kim: str, tmp_path: Path):
    root = tmp_path / "again"
    first = memory.export_markdown(kim, root)
    files = len(first.written)
    same = memory.export_markdown(kim, root)
    assert (same.written, same.unchanged, same.removed) == ([], files, [])

    strategy = next(c for c in memory.cards(kim) if c.fact == STRATEGY)
    memory.feedback(kim, strategy.id, "up")
    [strategy_file] = [w for w in first.written if w.startswith("strategies/")]
    after_feedback = memory.export_markdown(kim, root)
    assert (after_feedback.written, after_feedback.removed) == ([strategy_file], [])

    memory.forget(kim, strategy.id)
    after_forget = memory.export_markdown(kim, root)
    assert (after_forget.written, after_forget.removed) == ([], [strategy_file])
    assert not (root / strategy_file).exists()
    memory.restore(kim, strategy.id)


def test_a_folder_that_is_not_this_users_export_is_refused(
    memory: Memory, kim: str, tmp_path: Path
):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ValidationError, match="not empty"):
        memory.export_markdown(kim, tmp_path)
    memory.export_markdown(kim, tmp_path / "kim")
    with pytest.raises(ValidationError, match="another user"):
        memory.export_markdown(f"{kim}-other", tmp_path / "kim")
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_cli_export_markdown(home: Path, tmp_path: Path):
    runner = CliRunner()
    gm = ["--home", str(home)]
    runner.invoke(app, [*gm, "remember", "I live in Lisbon", "--user", "ada"])
    folder = tmp_path / "ada"
    done = runner.invoke(app, [*gm, "export", str(folder), "--user", "ada", "--format", "markdown"])
    assert done.exit_code == 0, done.output
    assert "1 written, 0 unchanged, 0 removed" in " ".join(done.output.split())
    assert "I live in Lisbon" in (folder / "profile.md").read_text(encoding="utf-8")
    bad = runner.invoke(app, [*gm, "export", str(folder), "--user", "ada", "--format", "pdf"])
    assert bad.exit_code == 2
