"""Person resolution: many mentions ("Alice", "Alice Smith", "my sister") -> one person.

A plain-data algorithm. The registry holds the people known for one user; ``Memory`` fills
it from the store's Person nodes (``from_people``) and writes it back (``to_people``).

Rules, in order of trust:
- a name or alias equal to the mention (case-insensitive) is that person, certainly;
- "Alice" and "Alice Smith" are the same person when only one known person fits
  (the first name matches and no surname contradicts it);
- "my sister" alone is the one person known as the sister;
- anything short of that ("Al" vs "Alice", "Alice Smith" vs "Alice Jones", two known
  sisters) is returned as *candidates* with ``certain=False`` and never merged.
A relationship is never overwritten by a passing mention; ``correct`` changes it and keeps
the old one in ``relationship_history``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from graphmem.models import Person

#: Similarity (difflib ratio) above which two different names are worth a review.
NEAR_MATCH = 0.7


@dataclass(frozen=True)
class Resolution:
    """The outcome of resolving one mention.

    ``name`` is the canonical name to use (the mention itself when nobody known is
    certainly meant), ``candidates`` the known people it might be instead.
    """

    name: str | None
    relationship: str | None
    certain: bool
    candidates: list[str] = field(default_factory=list)


@dataclass
class PersonRecord:
    """One known person: canonical name, aliases, relationship and its history."""

    name: str
    relationship: str | None = None
    aliases: list[str] = field(default_factory=list)
    relationship_history: list[str] = field(default_factory=list)

    def names(self) -> list[str]:
        return [self.name, *self.aliases]


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _parts(name: str) -> list[str]:
    return _key(name).split()


def _same_person(mention: str, known: str) -> bool:
    """True when one name extends the other: "Alice" / "Alice Smith" (not "Alice Jones")."""
    a, b = _parts(mention), _parts(known)
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) < len(long_) and long_[: len(short)] == short


def _near(mention: str, known: str) -> bool:
    a, b = _key(mention), _key(known)
    first_a, first_b = a.split()[0], b.split()[0]
    if first_a != first_b and (first_a.startswith(first_b) or first_b.startswith(first_a)):
        return True  # "Al" / "Alice"
    if first_a == first_b and a != b:
        return True  # "Alice Smith" / "Alice Jones"
    return difflib.SequenceMatcher(None, a, b).ratio() >= NEAR_MATCH


class PersonRegistry:
    """The people known for one user, and how mentions map to them.

    Examples:
        >>> reg = PersonRegistry()
        >>> reg.observe("Alice", "sister").name
        'Alice'
        >>> reg.resolve("Alice Smith")
        Resolution(name='Alice', relationship='sister', certain=True, candidates=[])
        >>> reg.resolve(None, relationship="sister").name
        'Alice'
        >>> reg.resolve("Al")
        Resolution(name='Al', relationship=None, certain=False, candidates=['Alice'])
    """

    def __init__(self, records: Iterable[PersonRecord] = ()) -> None:
        self._records: dict[str, PersonRecord] = {}
        self._pattern: tuple[int, re.Pattern[str] | None] | None = None
        for record in records:
            self._records[_key(record.name)] = record

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[PersonRecord]:
        return iter(self._records.values())

    def names_pattern(self) -> re.Pattern[str] | None:
        """One regex matching any known name or alias as whole words (longest first).

        Cached until a name or alias is added.
        """
        names = [n for r in self._records.values() for n in r.names()]
        if self._pattern is None or self._pattern[0] != len(names):
            alternatives = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
            self._pattern = (len(names), re.compile(rf"\b(?:{alternatives})\b") if names else None)
        return self._pattern[1]

    def get(self, name: str) -> PersonRecord | None:
        """The record whose canonical name or alias is exactly ``name``."""
        key = _key(name)
        if key in self._records:
            return self._records[key]
        for record in self._records.values():
            if any(_key(alias) == key for alias in record.aliases):
                return record
        return None

    def by_relationship(self, relationship: str) -> list[PersonRecord]:
        rel = _key(relationship)
        return [r for r in self._records.values() if r.relationship and _key(r.relationship) == rel]

    def resolve(self, mention: str | None, relationship: str | None = None) -> Resolution:
        """Map a mention (a name, or None with a relationship: "my sister") to a person.

        Pure: nothing is recorded; use ``observe`` for that.
        """
        relationship = _key(relationship) if relationship else None
        if not mention:
            if not relationship:
                return Resolution(None, None, certain=False)
            found = self.by_relationship(relationship)
            if len(found) == 1:
                return Resolution(found[0].name, found[0].relationship, certain=True)
            return Resolution(
                None, relationship, certain=False, candidates=sorted(r.name for r in found)
            )
        exact = self.get(mention)
        if exact is not None:
            return Resolution(exact.name, exact.relationship or relationship, certain=True)
        extends = [
            r for r in self._records.values() if any(_same_person(mention, n) for n in r.names())
        ]
        if relationship:  # "my sister Alice Smith": the sister Alice, not the cousin Alice
            fitting = [
                r for r in extends if r.relationship is None or _key(r.relationship) == relationship
            ]
            extends = fitting or extends
        if len(extends) == 1 and not self._contradicted(mention, extends[0]):
            record = extends[0]
            return Resolution(record.name, record.relationship or relationship, certain=True)
        near = [
            r.name
            for r in self._records.values()
            if r in extends or any(_near(mention, n) for n in r.names())
        ]
        return Resolution(
            " ".join(mention.split()), relationship, certain=False, candidates=sorted(set(near))
        )

    @staticmethod
    def _contradicted(mention: str, record: PersonRecord) -> bool:
        """A known full name with another surname rules the match out ("Alice Jones")."""
        parts = _parts(mention)
        for name in record.names():
            known = _parts(name)
            if len(known) > 1 and len(parts) > 1 and known[: len(parts)] != parts[: len(known)]:
                return True
        return False

    def observe(self, mention: str, relationship: str | None = None) -> Resolution:
        """Record a mention: add a new person, or an alias / missing relationship to a known one.

        A relationship that disagrees with the known one is not applied (it may be another
        person, or a slip): the resolution comes back uncertain, for review or ``correct``.
        """
        mention = " ".join(mention.split())
        relationship = _key(relationship) if relationship else None
        res = self.resolve(mention, relationship)
        if not res.certain:
            self._records.setdefault(_key(mention), PersonRecord(mention, relationship))
            return res
        record = self.get(res.name) if res.name else None
        assert record is not None
        if _key(mention) not in {_key(n) for n in record.names()}:
            record.aliases.append(mention)
        if relationship and record.relationship is None:
            record.relationship = relationship
        elif relationship and _key(record.relationship or "") != relationship:
            return Resolution(
                record.name, record.relationship, certain=False, candidates=[record.name]
            )
        return Resolution(record.name, record.relationship, certain=True)

    def correct(self, name: str, relationship: str) -> Resolution:
        """Apply a correction ("Alice is my cousin, not my sister"), keeping the old value.

        Examples:
            >>> reg = PersonRegistry()
            >>> _ = reg.observe("Alice", "sister")
            >>> reg.correct("Alice", "cousin")
            Resolution(name='Alice', relationship='cousin', certain=True, candidates=[])
            >>> reg.get("Alice").relationship_history
            ['sister']
        """
        relationship = _key(relationship)
        record = self.get(name)
        if record is None:
            res = self.resolve(name)
            record = self.get(res.name) if res.certain and res.name else None
        if record is None:
            record = PersonRecord(" ".join(name.split()), relationship)
            self._records[_key(record.name)] = record
        elif record.relationship != relationship:
            if record.relationship:
                record.relationship_history.append(record.relationship)
            record.relationship = relationship
        return Resolution(record.name, record.relationship, certain=True)

    @classmethod
    def from_people(cls, people: Iterable[Person]) -> PersonRegistry:
        """Build a registry from stored Person nodes."""
        return cls(
            PersonRecord(p.name, p.relationship, list(p.aliases), list(p.relationship_history))
            for p in people
        )

    def to_people(self, user_id: str) -> list[Person]:
        """The registry as Person models for ``user_id``, sorted by name."""
        return [
            Person(
                user_id=user_id,
                name=r.name,
                relationship=r.relationship,
                aliases=list(r.aliases),
                relationship_history=list(r.relationship_history),
            )
            for r in sorted(self._records.values(), key=lambda r: _key(r.name))
        ]

    def dump(self) -> list[dict[str, Any]]:
        """Plain JSON-able data, for checkpoints."""
        return [
            {
                "name": r.name,
                "relationship": r.relationship,
                "aliases": list(r.aliases),
                "relationship_history": list(r.relationship_history),
            }
            for r in self._records.values()
        ]

    @classmethod
    def load(cls, data: Iterable[dict[str, Any]]) -> PersonRegistry:
        """The inverse of ``dump``."""
        return cls(
            PersonRecord(
                str(d["name"]),
                d.get("relationship"),
                [str(a) for a in d.get("aliases") or []],
                [str(h) for h in d.get("relationship_history") or []],
            )
            for d in data
        )
