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
the old one in ``relationship_history``, and so do the changes people announce: ``relate``
("Priya is my new manager": a role held by one person at a time passes on, the previous
holder becomes "former manager"), ``end`` ("Tom is no longer my manager", "we broke up")
and ``died`` ("my late father"). ``name_user`` records what the user is called ("I'm
Maya"): a mention of that name is the user, never another person. ``things`` are names
seen as places, organisations or pets: never people.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from graphmem.models import SELF, Person
from graphmem.recall.mentions import canonical_relationship
from graphmem.relationships import (
    SINGLE_HOLDER,
    ended,
    is_current,
    late,
    partner_stage,
    role,
)

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
    #: when ``relationship`` was said (epoch ms of the turn), where known
    since: int | None = None

    def names(self) -> list[str]:
        return [self.name, *self.aliases]


#: Words after a first name that make it someone else's ("Marcus Jr" is the user's son).
_NAME_SUFFIXES = frozenset({"jr", "junior", "sr", "senior", "ii", "iii", "iv"})


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

    def __init__(
        self,
        records: Iterable[PersonRecord] = (),
        *,
        user_names: Iterable[str] = (),
        things: Iterable[str] = (),
    ) -> None:
        self._records: dict[str, PersonRecord] = {}
        self._pattern: tuple[int, re.Pattern[str] | None] | None = None
        #: what the user is called ("Maya", "M")
        self.user_names: list[str] = list(dict.fromkeys(user_names))
        #: names of places, organisations and pets seen so far (case-folded)
        self.things: set[str] = {_key(t) for t in things}
        for record in records:
            if record.name == SELF:
                self.user_names.extend(a for a in record.aliases if a not in self.user_names)
                continue
            self._records[_key(record.name)] = record

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[PersonRecord]:
        return iter(self._records.values())

    def names_pattern(self) -> re.Pattern[str] | None:
        """One regex matching any known name or alias as whole words (longest first).

        Cached until a name or alias is added.
        """
        names = [n for r in self._records.values() for n in r.names()] + self.user_names
        if self._pattern is None or self._pattern[0] != len(names):
            alternatives = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
            self._pattern = (len(names), re.compile(rf"\b(?:{alternatives})\b") if names else None)
        return self._pattern[1]

    def capitalised(self, text: str) -> str:
        """``text`` with the known names typed in lower case written as the names they
        are ("i broke up with jake": Jake), for readers that know a name by its capital;
        only letters change case.

        >>> reg = PersonRegistry()
        >>> _ = reg.observe("Jake", "boyfriend")
        >>> reg.capitalised("me and jake broke up, jakey")
        'me and Jake broke up, jakey'
        """
        names = [n for r in self._records.values() for n in r.names() if n[:1].isupper()]
        if not names:
            return text
        by_key = {_key(n): n for n in names}
        alternatives = "|".join(re.escape(n) for n in sorted(by_key, key=len, reverse=True))
        pattern = re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE)
        return pattern.sub(lambda m: by_key.get(_key(m.group()), m.group()), text)

    def is_user(self, name: str) -> bool:
        """True when ``name`` is what the user is called: a name they go by, or the first
        name of one ("Priya" for "Priya Raman")."""
        key = _key(name)
        words = key.replace(".", "").split()
        first = words[0] if words and not set(words) & _NAME_SUFFIXES else None
        return any(
            key in {_key(n), _key(n.split()[0])} or (" " not in _key(n) and first == _key(n))
            for n in self.user_names
            if n.split()
        )  # "Greg Hollis" for a user called "Greg": a full name whose first name is theirs

    def is_thing(self, name: str) -> bool:
        """True for a name seen as a place, an organisation or a pet (not a person)."""
        return _key(name) in self.things and _key(name) not in self._records

    def name_user(self, name: str) -> None:
        """The user said what they are called ("I'm Maya", "call me M").

        >>> reg = PersonRegistry()
        >>> reg.name_user("Maya")
        >>> reg.resolve("Maya")
        Resolution(name='me', relationship='self', certain=True, candidates=[])
        """
        name = " ".join(w[:1].upper() + w[1:] for w in name.split())  # "Priya raman"
        self._records.pop(_key(name), None)  # taken for someone else before: it was the user
        if " " in name:  # and "Priya", taken for someone before she said her surname
            self._records.pop(_key(name.split()[0]), None)
        else:  # "Jim McAllister, 71, retired welder", then greeted "Good evening, Jim"
            for key, record in list(self._records.items()):
                words = record.name.split()
                if len(words) > 1 and words[0] == name and record.relationship is None:
                    del self._records[key]
                    self.user_names.append(record.name)
        if not self.is_user(name):
            self.user_names.append(name)

    def mark_thing(self, name: str) -> None:
        """``name`` names a place, an organisation or a pet, not a person."""
        if _key(name) not in self._records and not self.is_user(name):
            self.things.add(_key(name))

    def unmake(self, name: str) -> None:
        """A name taken for a person turned out to be a place (or a thing): no one.

        >>> reg = PersonRegistry()
        >>> _ = reg.observe("Bandra")
        >>> reg.unmake("Bandra")
        >>> reg.get("Bandra") is None, reg.is_thing("Bandra")
        (True, True)
        """
        record = self._records.pop(_key(name), None)
        if record is not None:
            self.things.update(_key(n) for n in record.names())
            self._pattern = None

    def relationships(self) -> dict[str, str | None]:
        """Each record's relationship now, by record: what ``stamp`` compares with."""
        return {key: r.relationship for key, r in self._records.items()}

    def stamp(self, before: dict[str, str | None], when: int | None) -> None:
        """Relationships that changed since ``before`` (or are new) were said at ``when``:
        "what's Theo to me now?" is answered by the turn that made him a fiancé."""
        for key, record in self._records.items():
            if record.relationship is not None and before.get(key) != record.relationship:
                record.since = when

    def get(self, name: str) -> PersonRecord | None:
        """The record whose canonical name or alias is exactly ``name``."""
        key = _key(name)
        if key in self._records:
            return self._records[key]
        for record in self._records.values():
            if any(_key(alias) == key for alias in record.aliases):
                return record
        return None

    def former(self, relationship: str) -> PersonRecord | None:
        """The one person who held ``relationship``'s role and no longer does (an ex, a
        former manager), or None when no one or several did.

        >>> reg = PersonRegistry()
        >>> _ = reg.observe("Riley", "girlfriend")
        >>> _ = reg.end("Riley")
        >>> reg.former("girlfriend").name, reg.former("manager")
        ('Riley', None)
        """
        held = role(relationship)
        past = [
            r
            for r in self._records.values()
            if not is_current(r.relationship) and role(r.relationship) == held
        ]
        return past[0] if len(past) == 1 else None

    def by_relationship(self, relationship: str) -> list[PersonRecord]:
        """People known by this relationship or a synonym ("dad" finds the father; a
        late father still is one; a former manager is not the manager)."""
        rel = canonical_relationship(relationship)
        return [
            r
            for r in self._records.values()
            if r.relationship and canonical_relationship(r.relationship) == rel
        ]

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
        if self.is_user(mention):
            return Resolution(SELF, "self", certain=True)
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
        A role one person holds at a time, newly given, passes on (see ``relate``).
        """
        mention = " ".join(mention.split())
        relationship = _key(relationship) if relationship else None
        res = self.resolve(mention, relationship)
        if res.name == SELF:
            return res
        if not res.certain:
            if _key(mention) not in self._records and relationship:
                placeholder = self._placeholder(relationship)
                if placeholder is not None:  # "Mum", named at last: "my mum Sandra"
                    self._rename(placeholder, mention)
                    return Resolution(mention, placeholder.relationship, certain=True)
                self._pass_on(mention, relationship)
            self._records.setdefault(_key(mention), PersonRecord(mention, relationship))
            return res
        record = self.get(res.name) if res.name else None
        assert record is not None
        if _key(mention) not in {_key(n) for n in record.names()}:
            record.aliases.append(mention)
        if relationship and record.relationship is None:
            self._pass_on(record.name, relationship)
            record.relationship = relationship
        elif relationship and _key(record.relationship or "") != relationship:
            return Resolution(
                record.name, record.relationship, certain=False, candidates=[record.name]
            )
        return Resolution(record.name, record.relationship, certain=True)

    def _placeholder(self, relationship: str) -> PersonRecord | None:
        """The one person known only by their relationship word ("Mum") for this
        relationship, if any."""
        rel = canonical_relationship(relationship)
        held = [r for r in self.by_relationship(relationship) if r.relationship]
        found = [  # "Mum", or "my wife" as a card named her before her name was said
            r for r in held if canonical_relationship(_key(r.name).removeprefix("my ")) == rel
        ]
        return found[0] if len(found) == 1 and len(held) == 1 else None

    def rename(self, name: str, new: str) -> None:
        """A known person is now called ``new`` (a married surname): the same person,
        the names they had kept as aliases.

        >>> reg = PersonRegistry()
        >>> _ = reg.observe("Megan Hollis", "daughter")
        >>> reg.rename("Megan Hollis", "Megan Castillo")
        >>> reg.get("Megan Hollis").name, reg.get("Megan Castillo").aliases
        ('Megan Castillo', ['Megan Hollis'])
        """
        record = self.get(name)
        if record is not None and self.get(new) is None:
            self._rename(record, new)

    def alias(self, name: str, alias: str) -> None:
        """Another name a known person goes by ("Dr Feldman" for Feldman)."""
        record = self.get(name)
        if record is not None and self.get(alias) is None:
            record.aliases.append(" ".join(alias.split()))
            self._pattern = None

    def _rename(self, record: PersonRecord, name: str) -> None:
        """A person's name changes; the old one stays an alias."""
        self._records.pop(_key(record.name), None)
        if record.name not in record.aliases:
            record.aliases.append(record.name)
        record.aliases = [a for a in record.aliases if _key(a) != _key(name)]
        record.name = " ".join(name.split())
        self._records[_key(record.name)] = record
        self._pattern = None

    def refine(self, name: str, relationship: str) -> None:
        """The same relationship in a word that says more ("child" -> "son" once the
        conversation says "he"): no change, so nothing goes to the history.

        >>> reg = PersonRegistry()
        >>> _ = reg.observe("Kai", "child")
        >>> reg.refine("Kai", "son")
        >>> reg.get("Kai").relationship, reg.get("Kai").relationship_history
        ('son', [])
        """
        record = self.get(name)
        if record is not None:
            record.relationship = _key(relationship)

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

    def partners(self) -> list[PersonRecord]:
        """The people the user is with now (a current relationship whose role is
        partner: girlfriend, fiancé, wife, 老婆...)."""
        return [r for r in self if is_current(r.relationship) and role(r.relationship) == "partner"]

    def partner_as(self, relationship: str) -> Resolution | None:
        """The user's one partner, now called ``relationship`` when it is a step on
        ("my fiancé" said of the one boyfriend: he is the fiancé now, "boyfriend" kept in
        his history); None when the word is no partner word, when no one or several
        people are partners, or when it is no step on ("my girlfriend" said of a wife
        may be someone else; "my partner" of a boyfriend is him, as he was).

        >>> reg = PersonRegistry()
        >>> _ = reg.observe("Theo", "boyfriend")
        >>> reg.partner_as("fiancé").name, reg.get("Theo").relationship_history
        ('Theo', ['boyfriend'])
        >>> reg.partner_as("boyfriend") is None, reg.partner_as("sister") is None
        (True, True)
        """
        stage = partner_stage(relationship)
        if stage is None:
            return None
        held = [
            r
            for r in self._records.values()
            if is_current(r.relationship) and partner_stage(r.relationship) is not None
        ]
        if len(held) != 1 or (partner_stage(held[0].relationship) or 0) >= stage:
            return None
        return self.relate(held[0].name, relationship)

    def relate(self, name: str, relationship: str) -> Resolution:
        """Someone now holds a relationship ("Priya is my new manager", "he's my boss
        now"): set it, keeping the old one in the history. A role one person holds at a
        time (a manager, a partner) leaves whoever held it before: they become former /
        ex, with history.

        Examples:
            >>> reg = PersonRegistry()
            >>> _ = reg.observe("Tom", "manager")
            >>> reg.relate("Priya", "boss").relationship
            'boss'
            >>> reg.get("Tom").relationship, reg.get("Tom").relationship_history
            ('former manager', ['manager'])
        """
        relationship = _key(relationship)
        self._pass_on(name, relationship)
        record = self._record(name, relationship)
        if record.relationship != relationship:
            self._change(record, relationship)
        return Resolution(record.name, record.relationship, certain=True)

    def end(self, name: str, relationship: str | None = None) -> Resolution:
        """A relationship ended ("Tom is no longer my manager", "we broke up"): the person
        becomes former / ex, the old relationship kept in the history.

        >>> reg = PersonRegistry()
        >>> _ = reg.observe("Dan", "boyfriend")
        >>> reg.end("Dan").relationship, reg.get("Dan").relationship_history
        ('ex-boyfriend', ['boyfriend'])
        """
        record = self._record(name, None)
        current = record.relationship or (_key(relationship) if relationship else None)
        if current is not None and is_current(current):
            self._change(record, ended(current))
        return Resolution(record.name, record.relationship, certain=True)

    def died(self, name: str, relationship: str | None = None) -> Resolution:
        """Someone died ("my late father", "Grandma Rose passed away"): "late father".

        >>> reg = PersonRegistry()
        >>> _ = reg.observe("Robert", "dad")
        >>> reg.died("Robert").relationship, reg.get("Robert").relationship_history
        ('late father', ['dad'])
        """
        record = self._record(name, None)
        current = record.relationship or (_key(relationship) if relationship else None)
        if current is not None and not current.startswith("late "):
            self._change(record, late(current) or current)
        return Resolution(record.name, record.relationship, certain=True)

    def _pass_on(self, name: str, relationship: str) -> None:
        """A role one person holds at a time goes to ``name``: whoever held it is former."""
        held = role(relationship)
        if held not in SINGLE_HOLDER or not is_current(relationship):
            return
        for other in self._records.values():
            if (
                _key(other.name) != _key(name)
                and is_current(other.relationship)
                and role(other.relationship) == held
            ):
                self._change(other, ended(other.relationship or relationship))

    def _record(self, name: str, relationship: str | None) -> PersonRecord:
        record = self.get(name)
        if record is None:
            res = self.resolve(name)
            record = self.get(res.name) if res.certain and res.name else None
        if record is None:
            record = PersonRecord(" ".join(name.split()), relationship)
            self._records[_key(record.name)] = record
            self.things.discard(_key(record.name))
        return record

    @staticmethod
    def _change(record: PersonRecord, relationship: str) -> None:
        if record.relationship and record.relationship != relationship:
            record.relationship_history.append(record.relationship)
        record.relationship = relationship

    @classmethod
    def from_people(cls, people: Iterable[Person]) -> PersonRegistry:
        """Build a registry from stored Person nodes."""
        return cls(
            PersonRecord(p.name, p.relationship, list(p.aliases), list(p.relationship_history))
            for p in people
        )

    def to_people(self, user_id: str) -> list[Person]:
        """The registry as Person models for ``user_id``, sorted by name (the user first,
        with the names they go by, when they said any)."""
        me = [Person(user_id=user_id, name=SELF, relationship="self", aliases=self.user_names)]
        return (me if self.user_names else []) + [
            Person(
                user_id=user_id,
                name=r.name,
                relationship=r.relationship,
                aliases=list(r.aliases),
                relationship_history=list(r.relationship_history),
                since=r.since,
            )
            for r in sorted(self._records.values(), key=lambda r: _key(r.name))
        ]

    def dump(self) -> list[dict[str, Any]]:
        """Plain JSON-able data, for checkpoints."""
        me = [{"name": SELF, "aliases": list(self.user_names)}] if self.user_names else []
        return me + [
            {
                "name": r.name,
                "relationship": r.relationship,
                "aliases": list(r.aliases),
                "relationship_history": list(r.relationship_history),
                "since": r.since,
            }
            for r in self._records.values()
        ]

    @classmethod
    def load(cls, data: Iterable[dict[str, Any]]) -> PersonRegistry:
        """The inverse of ``dump``."""
        data = list(data)
        user = next((d for d in data if d.get("name") == SELF), {})
        return cls(
            (
                PersonRecord(
                    str(d["name"]),
                    d.get("relationship"),
                    [str(a) for a in d.get("aliases") or []],
                    [str(h) for h in d.get("relationship_history") or []],
                    d.get("since"),
                )
                for d in data
                if d.get("name") != SELF
            ),
            user_names=[str(a) for a in user.get("aliases") or []],
        )
