"""A readable profile of one user, rendered from the graph.

Sections: who the user is, preferences and constraints, the people in their life (with
the relationship now, and what it was), what memory knows by theme (the abstractions),
recent events, open tasks. Nothing here is stored prose: every line is a card (or a task)
as the graph holds it, and links to it. A value that changed shows its current card with
the superseded ones as "(was: ...)"; a superseded card never gets a line of its own.

``build`` is a plain function over plain data (the same memory gives the same text);
``gather`` reads that data from a store, as memory held it at a time when asked
(``graphmem.history``). ``polish`` hands the text to a langchain-core chat model for
smoother wording, keeps the result only if every reference survived, and marks it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from pydantic import Field

from graphmem.cards import person_key
from graphmem.history import as_known, believed
from graphmem.models import ASSISTANT, SAID, SELF, Category, Model, Status
from graphmem.store.base import GraphStore
from graphmem.tasks import Task
from graphmem.timeutil import to_iso

#: Lines per section; the rest is counted in ``Profile.left_out``.
LIMITS = {"identity": 25, "preferences": 25, "people": 20, "themes": 15, "events": 10, "tasks": 20}
#: Lines under each person.
PERSON_LINES = 5
#: Order of the user's own facts in "who the user is".
_IDENTITY_ORDER = [Category.LIFE, Category.WORK, Category.HEALTH, Category.EMOTION, Category.OTHER]
_CATEGORY_ORDER = {c.value: i for i, c in enumerate(Category)}
#: Sections that take a card by its category, before it is placed by person.
_BY_CATEGORY = {
    Category.EVENT.value: "events",
    Category.PREFERENCE.value: "preferences",
    Category.CONSTRAINT.value: "preferences",
}


class Was(Model):
    """A value a card replaced: the superseded card, and until when it held."""

    card_id: str
    fact: str
    until: int | None = Field(None, description="When it stopped being true (epoch ms).")


class Line(Model):
    """One current card, with the values it replaced (newest first)."""

    card_id: str
    fact: str
    person: str
    relationship: str | None = None
    category: str
    timestamp: int
    was: list[Was] = Field(default_factory=list)


class PersonEntry(Model):
    """Someone in the user's life: how they relate now, how they did before, their cards."""

    name: str
    relationship: str | None = None
    was: list[str] = Field(default_factory=list, description="Earlier relationships, latest first.")
    card_id: str = Field(description="The newest current card about them.")
    cards: int
    lines: list[Line] = Field(default_factory=list)


class Theme(Model):
    """An abstraction: a summary of cards that belong together."""

    id: str
    summary: str
    representative: str
    card_ids: list[str]
    category: str
    tags: list[str] = Field(default_factory=list)
    created_at: int | None = None
    updated_at: int | None = None


class OpenTask(Model):
    """A task still to do, what holds it up and the cards it relies on."""

    id: str
    subject: str
    status: str
    blocked_by: list[str] = Field(default_factory=list, description="Open blockers' subjects.")
    cites: list[str] = Field(default_factory=list)


class Polish(Model):
    """The profile reworded by a chat model (every reference kept), and which model."""

    text: str
    by: str


class Profile(Model):
    """What memory holds about one user, by section; ``markdown()`` renders it."""

    user_id: str
    as_of: int | None = Field(None, description="Rendered as memory held it then (epoch ms).")
    known_at: int | None = None
    cards: int = Field(0, description="Current cards the profile is made from.")
    identity: list[Line] = Field(default_factory=list)
    preferences: list[Line] = Field(default_factory=list)
    people: list[PersonEntry] = Field(default_factory=list)
    themes: list[Theme] = Field(default_factory=list)
    events: list[Line] = Field(default_factory=list)
    tasks: list[OpenTask] = Field(default_factory=list)
    left_out: dict[str, int] = Field(
        default_factory=dict, description="Lines past each section's limit."
    )
    polished: Polish | None = None
    polish_error: str | None = None

    def markdown(self) -> str:
        """The deterministic rendering (``graphmem.profile.render``)."""
        return render(self)

    @property
    def text(self) -> str:
        """The polished text when an LLM polished it, else the deterministic one."""
        return self.polished.text if self.polished is not None else self.markdown()


# -- from plain data -----------------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """What a profile is made from: card states, supersession edges, people, abstractions."""

    cards: Sequence[Mapping[str, Any]]
    older: Mapping[str, Sequence[str]]
    people: Sequence[Mapping[str, Any]]
    abstractions: Sequence[Mapping[str, Any]]


def build(
    user_id: str,
    snapshot: Snapshot,
    tasks: Sequence[Task] = (),
    *,
    at: int,
    as_of: int | None = None,
    known_at: int | None = None,
    limits: Mapping[str, int] | None = LIMITS,
) -> Profile:
    """The profile of ``user_id`` from ``snapshot``, as it stands at ``at`` (epoch ms).

    A card is current when it is active and valid at ``at``; the superseded cards reached
    from it through ``snapshot.older`` (newer -> older ids) are its "was" values. At a
    past ``as_of`` a card superseded since counts too, for the time it was valid (as
    ``recall`` counts it): "where did I live in 2023, by what memory knows now".
    ``limits``: lines per section (None: every line).
    """
    by_id = {c["id"]: c for c in snapshot.cards}
    # Strategies are what worked for the agent, not facts about the user: reflections
    # of their own (graphmem.reflections), not part of the profile.
    current = [
        c
        for c in snapshot.cards
        if (as_of is not None or c.get("status") == Status.ACTIVE.value)
        and believed(c, at)
        and c.get("category") != Category.STRATEGY.value
    ]
    sections: dict[str, list[Line]] = {"identity": [], "preferences": [], "events": []}
    about: dict[str, list[Line]] = {}
    for card in current:
        line = line_of(card, snapshot, by_id)
        section = _BY_CATEGORY.get(line.category)
        if section is None:  # words kept as said are memory, not who the user is
            said = SAID in (card.get("tags") or ()) and not card.get("claim")
            section = "identity" if line.person == SELF and not said else None
        if section is None:
            about.setdefault(person_key(line.person), []).append(line)
        else:
            sections[section].append(line)
    left_out: dict[str, int] = {}

    def _limit(items: list[Any], section: str, left_out: dict[str, int]) -> list[Any]:
        limit = None if limits is None else limits.get(section)
        if limit is not None and len(items) > limit:
            left_out[section] = len(items) - limit
            return items[:limit]
        return items

    identity = _limit(sorted(sections["identity"], key=_identity_order), "identity", left_out)
    preferences = _limit(
        sorted(sections["preferences"], key=_preference_order), "preferences", left_out
    )
    events = _limit(
        sorted(sections["events"], key=lambda ln: (-ln.timestamp, ln.card_id)), "events", left_out
    )
    people = _limit(_people(snapshot.people, current, about, as_of), "people", left_out)
    themes = _limit(_themes(snapshot.abstractions, current), "themes", left_out)
    open_tasks = _limit(_open_tasks(tasks, known_at), "tasks", left_out)
    return Profile(
        user_id=user_id,
        as_of=as_of,
        known_at=known_at,
        cards=len(current),
        identity=identity,
        preferences=preferences,
        people=people,
        themes=themes,
        events=events,
        tasks=open_tasks,
        left_out=left_out,
    )


def line_of(
    card: Mapping[str, Any],
    snapshot: Snapshot,
    by_id: Mapping[str, Mapping[str, Any]] | None = None,
) -> Line:
    """A card's line: the card, with the superseded values behind it."""
    by_id = by_id if by_id is not None else {c["id"]: c for c in snapshot.cards}
    was = _was(card["id"], snapshot.older, by_id)
    return Line(
        card_id=card["id"],
        fact=card["fact"],
        person=card.get("person") or SELF,
        relationship=card.get("relationship"),
        category=card.get("category") or Category.OTHER.value,
        timestamp=card.get("timestamp") or 0,
        was=was,
    )


def _was(
    card_id: str, older: Mapping[str, Sequence[str]], by_id: Mapping[str, Mapping[str, Any]]
) -> list[Was]:
    """The superseded cards behind ``card_id`` (its chain, transitively), newest first."""
    seen: set[str] = {card_id}
    found: list[Mapping[str, Any]] = []
    todo = list(older.get(card_id, ()))
    while todo:
        other = todo.pop()
        if other in seen or other not in by_id:
            continue
        seen.add(other)
        card = by_id[other]
        if card.get("status") == Status.SUPERSEDED.value:
            found.append(card)
            todo.extend(older.get(other, ()))
    found.sort(key=lambda c: (-(c.get("timestamp") or 0), c["id"]))
    return [Was(card_id=c["id"], fact=c["fact"], until=c.get("valid_to")) for c in found]


def _identity_order(line: Line) -> tuple[Any, ...]:
    rank = {c.value: i for i, c in enumerate(_IDENTITY_ORDER)}
    return (rank.get(line.category, len(rank)), -line.timestamp, line.card_id)


def _preference_order(line: Line) -> tuple[Any, ...]:
    return (
        line.category != Category.CONSTRAINT.value,
        line.person != SELF,
        -line.timestamp,
        line.card_id,
    )


def _people(
    rows: Sequence[Mapping[str, Any]],
    current: Sequence[Mapping[str, Any]],
    about: Mapping[str, list[Line]],
    as_of: int | None,
) -> list[PersonEntry]:
    """People with at least one current card, most cards first."""
    cards_of: dict[str, list[Mapping[str, Any]]] = {}
    for card in current:
        cards_of.setdefault(person_key(card.get("person") or SELF), []).append(card)
    known = {row["key"]: row for row in rows}
    entries = []
    for key, cards in cards_of.items():
        if key == SELF or (
            key not in known and all(c.get("relationship") == ASSISTANT for c in cards)
        ):
            continue  # the user, or an assistant: what it said is not one of the user's people
        newest = max(cards, key=lambda c: (c.get("timestamp") or 0, c["id"]))
        row = known.get(key, {})
        relationship, was = _relationship(row, cards, as_of)
        lines = sorted(about.get(key, []), key=lambda ln: (-ln.timestamp, ln.card_id))
        entries.append(
            PersonEntry(
                name=row.get("name") or newest.get("person") or key,
                relationship=relationship or newest.get("relationship"),
                was=was,
                card_id=newest["id"],
                cards=len(cards),
                lines=lines[:PERSON_LINES],
            )
        )
    return sorted(entries, key=lambda e: (-e.cards, e.name.lower()))


def _relationship(
    row: Mapping[str, Any], cards: Sequence[Mapping[str, Any]], as_of: int | None
) -> tuple[str | None, list[str]]:
    """The relationship and the earlier ones (latest first). Now: the user's KNOWS edge.
    At a past time: what the person's cards then held said, the newest card last (the
    edge records when a relationship became true, not when graphmem learnt it)."""
    if as_of is None:
        relationship = row.get("relationship")
        history = list(row.get("history") or [])
    else:
        said = sorted(cards, key=lambda c: (c.get("timestamp") or 0, c["id"]))
        history = [c["relationship"] for c in said if c.get("relationship")]
        relationship = history.pop() if history else None
    earlier = list(dict.fromkeys(r for r in reversed(history) if r != relationship))
    return relationship, earlier


def _themes(rows: Sequence[Mapping[str, Any]], current: Sequence[Mapping[str, Any]]) -> list[Theme]:
    by_id = {c["id"]: c for c in current}
    themes = []
    for row in rows:
        members = sorted(m for m in row.get("members") or () if m in by_id)
        if not members or not row.get("summary"):
            continue
        cards = [by_id[m] for m in members]
        categories = Counter(c.get("category") or Category.OTHER.value for c in cards)
        category = min(categories, key=lambda c: (-categories[c], _CATEGORY_ORDER.get(c, 99)))
        tags = Counter(t for c in cards for t in c.get("tags") or ())
        representative = row.get("representative")
        themes.append(
            Theme(
                id=row["id"],
                summary=row["summary"],
                representative=representative if representative in by_id else members[0],
                card_ids=members,
                category=category,
                tags=sorted(tags, key=lambda t: (-tags[t], t))[:5],
                created_at=row.get("created_at"),
                updated_at=row.get("updated_at"),
            )
        )
    return sorted(themes, key=lambda t: (-len(t.card_ids), t.id))


def _open_tasks(tasks: Sequence[Task], known_at: int | None) -> list[OpenTask]:
    """Tasks open at ``known_at`` (now when None): made by then, not yet finished then."""
    open_ids: set[str] = set()
    for task in tasks:
        if known_at is None:
            if task.is_open:
                open_ids.add(task.id)
            continue
        finished = task.completed_at if task.completed_at is not None else task.updated_at
        if (task.created_at or 0) <= known_at and (
            task.is_open or (finished is not None and finished > known_at)
        ):
            open_ids.add(task.id)
    by_id = {t.id: t for t in tasks}
    return [
        OpenTask(
            id=task.id,
            subject=task.subject,
            status=task.status.value,
            blocked_by=[by_id[b].subject for b in task.blocked_by if b in open_ids],
            cites=list(task.cites),
        )
        for task in tasks
        if task.id in open_ids
    ]


# -- Markdown -------------------------------------------------------------------------------


def render(profile: Profile) -> str:
    """The profile as Markdown. Each line ends with a short reference (``[1a2b3c4d]``) to
    the card it shows; the definitions at the end give each reference's full id as its
    address in the HTTP API."""
    refs = References(profile.user_id, ids_in(profile), [t.id for t in profile.tasks])
    who = _escape(profile.user_id)
    out = [f"# Profile of {who}", "", _preamble(profile), ""]

    def section(title: str, lines: list[str], key: str) -> None:
        if not lines:
            return
        out.extend([f"## {title}", "", *lines])
        if profile.left_out.get(key):
            out.append(f"- … and {profile.left_out[key]} more")
        out.append("")

    section("Who they are", [fact_line(ln, refs) for ln in profile.identity], "identity")
    section(
        "Preferences and constraints",
        [fact_line(ln, refs, name_person=True) for ln in profile.preferences],
        "preferences",
    )
    people: list[str] = []
    for person in profile.people:
        people.append(_person_line(person, refs))
        people.extend(f"  {fact_line(ln, refs)}" for ln in person.lines)
    section("People", people, "people")
    section(
        "What memory knows, by theme",
        [f"- {_escape(t.summary)} {refs.card(t.representative)}" for t in profile.themes],
        "themes",
    )
    section(
        "Recent events",
        [
            f"- {(to_iso(ln.timestamp) or '')[:10]}: {fact_line(ln, refs, name_person=True)[2:]}"
            for ln in profile.events
        ],
        "events",
    )
    section("Open tasks", [_task_line(t, refs) for t in profile.tasks], "tasks")
    out.extend(refs.definitions())
    return "\n".join(out).rstrip() + "\n"


def _preamble(profile: Profile) -> str:
    counts = ", ".join(
        (
            _count(profile.cards, "current card"),
            _count(len(profile.people), "person", "people"),
            _count(len(profile.themes), "theme"),
            _count(len(profile.tasks), "open task"),
        )
    )
    when = ""
    if profile.as_of is not None:
        when = f" as memory held it on {_day(profile.as_of)}"
        if profile.known_at is not None and profile.known_at != profile.as_of:
            when += f" (by what it knew on {_day(profile.known_at)})"
    return (
        f"_Rendered from memory{when}: {counts}. Every line links to the card it comes from; "
        '"(was: …)" is a value that changed._'
    )


def fact_line(line: Line, refs: References, *, name_person: bool = False) -> str:
    text = _escape(line.fact)
    if name_person and line.person != SELF and line.person.lower() not in line.fact.lower():
        text = f"{_escape(line.person)}: {text}"  # the relationship now is under People
    if line.was:
        olds = "; ".join(
            f"{_escape(w.fact)}{f' until {_day(w.until)}' if w.until else ''} "
            f"{refs.card(w.card_id)}"
            for w in line.was
        )
        text += f" (was: {olds})"
    return f"- {text} {refs.card(line.card_id)}"


def _person_line(person: PersonEntry, refs: References) -> str:
    text = f"- **{_escape(person.name)}**"
    if person.relationship:
        text += f" — {_escape(person.relationship)}"
    if person.was:
        text += f" (was: {_escape(', '.join(person.was))})"
    return f"{text} · {_count(person.cards, 'card')} {refs.card(person.card_id)}"


def _task_line(task: OpenTask, refs: References) -> str:
    state = task.status.replace("_", " ")
    if task.blocked_by:
        state += f"; blocked by: {', '.join(task.blocked_by)}"
    cites = "".join(f" {refs.card(c)}" for c in task.cites)
    return f"- [ ] {_escape(task.subject)} ({_escape(state)}) {refs.task(task.id)}{cites}"


class References:
    """Short, unique labels for the ids a profile shows, and their definitions."""

    def __init__(self, user_id: str, card_ids: Iterable[str], task_ids: Iterable[str]) -> None:
        self.base = f"/v1/users/{quote(user_id, safe='')}"
        self.labels = short_labels([*card_ids, *task_ids])
        self.used: dict[tuple[str, str], None] = {}

    def card(self, card_id: str) -> str:
        self.used[("cards", card_id)] = None
        return f"[{_escape(self.labels[card_id])}]"

    def task(self, task_id: str) -> str:
        self.used[("tasks", task_id)] = None
        return f"[{_escape(self.labels[task_id])}]"

    def definitions(self) -> list[str]:
        return [
            f"[{_escape(self.labels[i])}]: {self.base}/{kind}/{quote(i, safe='')}"
            for kind, i in self.used
        ]


def short_labels(ids: Iterable[str]) -> dict[str, str]:
    """A label per id: long (generated) ids by their first 8 characters, lengthened
    where two would read the same; short ids whole.

    Examples:
        >>> short_labels(["3f7999c324e70da680776122c24ad5b4", "home-city"])
        {'3f7999c324e70da680776122c24ad5b4': '3f7999c3', 'home-city': 'home-city'}
        >>> sorted(short_labels(["a" * 24 + "1", "a" * 24 + "2"]).values())
        ['aaaaaaaaaaaaaaaaaaaaaaaa1', 'aaaaaaaaaaaaaaaaaaaaaaaa2']
    """
    unique = sorted(set(ids))
    width = dict.fromkeys(unique, 8)
    while True:
        labels = {i: i if len(i) < 24 else i[: width[i]] for i in unique}
        seen = Counter(labels.values())
        clashing = [i for i in unique if seen[labels[i]] > 1 and len(labels[i]) < len(i)]
        if not clashing:
            return labels
        for i in clashing:
            width[i] += 4


def _escape(text: str) -> str:
    """Keep stored text from reading as Markdown links or HTML, or from steering a
    terminal (control characters are written as ``\\xNN``)."""
    text = text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text.replace("<", "&lt;"))


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _day(ms: int) -> str:
    return (to_iso(ms) or "")[:10]


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


# -- from the store ------------------------------------------------------------------------


def gather(
    store: GraphStore, user_id: str, *, as_of: int | None = None, known_at: int | None = None
) -> Snapshot:
    """Read what a profile needs; at ``as_of``, as memory held it by ``known_at``."""
    statuses = [Status.ACTIVE.value, Status.SUPERSEDED.value]
    if as_of is not None:
        statuses.append(Status.FORGOTTEN.value)  # forgotten since, maybe held then
    rows = store.run("profile_cards", {"user_id": user_id, "statuses": statuses})
    if known_at is not None:
        rows = as_known(store, user_id, rows, known_at)
    older: dict[str, list[str]] = {}
    for row in rows:
        for edge in row["older"] or ():
            if known_at is None or (edge.get("at") or 0) <= known_at:
                older.setdefault(row["card"]["id"], []).append(edge["id"])
    abstractions = [
        row
        for row in store.run("profile_abstractions", {"user_id": user_id})
        if known_at is None or (row.get("created_at") or 0) <= known_at
    ]
    return Snapshot(
        cards=[row["card"] for row in rows],
        older=older,
        people=store.run("profile_people", {"user_id": user_id}),
        abstractions=abstractions,
    )


# -- an optional LLM polish -----------------------------------------------------------------

_POLISH = (
    "You edit a profile of a person, written from their assistant's memory. Rewrite each "
    "section's bullet points as short, natural sentences in the third person. Keep every "
    "heading. Keep every bracketed reference such as [1a2b3c4d] right after the statement "
    "it supports, and keep each '(was: ...)' note with its statement. Add nothing that "
    "the profile does not say, drop nothing it says. Reply with the Markdown only."
)


def polish(profile: Profile, chat_model: Any, *, attempts: int = 2) -> Profile:
    """``profile`` with ``polished`` set to a chat model's rewording, when the reply keeps
    every reference; otherwise unchanged, with ``polish_error`` saying why."""
    from langchain_core.messages import HumanMessage, SystemMessage
    from tenacity import Retrying, stop_after_attempt, wait_none

    from graphmem.llm import model_name, reply_text

    text = profile.markdown()
    body, _, definitions = text.partition("\n[")
    definitions = f"[{definitions}" if definitions else ""
    labels = {line.split("]:", 1)[0] + "]" for line in definitions.splitlines() if "]:" in line}
    model = model_name(chat_model)
    try:
        for attempt in Retrying(
            stop=stop_after_attempt(max(1, attempts)), wait=wait_none(), reraise=True
        ):
            with attempt:
                reply = chat_model.invoke([SystemMessage(_POLISH), HumanMessage(body)])
                polished = reply_text(reply).strip()
                missing = sorted(label for label in labels if label not in polished)
                if not polished or missing:
                    raise ValueError(f"the reply lost references {missing[:5]}")
    except Exception as exc:
        return profile.model_copy(
            update={"polish_error": f"LLM polish failed ({type(exc).__name__}: {exc})"}
        )
    marked = (
        f"> Polished by llm/{model} from the rendered profile; the references are the "
        f"same.\n\n{polished}\n\n{definitions}"
    )
    return profile.model_copy(
        update={"polished": Polish(text=marked.rstrip() + "\n", by=f"llm/{model}")}
    )


def ids_in(profile: Profile) -> Iterable[str]:
    """Every card id a profile shows (lines, "was" values, people, themes, tasks)."""
    for line in [*profile.identity, *profile.preferences, *profile.events]:
        yield line.card_id
        yield from (w.card_id for w in line.was)
    for person in profile.people:
        yield person.card_id
        for line in person.lines:
            yield line.card_id
            yield from (w.card_id for w in line.was)
    for theme in profile.themes:
        yield theme.representative
    for task in profile.tasks:
        yield from task.cites
