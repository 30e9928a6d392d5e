"""Bad input, generated: a card is either valid or a ``ValidationError`` naming a field.

Whatever validates is stored and read back exactly. Example counts are kept small so the
file runs in seconds; the strategies aim at the edges (unicode, NUL, sizes, junk types,
out-of-range times, NaN/inf) rather than at volume.
"""

from __future__ import annotations

import json
import math
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from graphmem import Memory
from graphmem.errors import ValidationError
from graphmem.models import MAX_TEXT, Card
from graphmem.timeutil import MAX_MS, MIN_MS
from ingestion.loaders import load_cards, load_conversation, parse_card

FAST = settings(max_examples=60, deadline=None)
# Cards are drawn near every field's edges and kept when they validate, so some draws
# filter out many inputs (seed 10253383441503345960509775440891007986 kept 7 of 57 and
# failed the filter_too_much health check): the examples that run are what matters.
STORE = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
)
INT64 = 2**63 - 1
#: Epoch numbers below this are read as seconds (graphmem.timeutil), so stored ms in
#: 1966-1973 are ambiguous: see test_early_1970s_timestamps_survive_a_round_trip.
CUTOFF = 100_000_000_000
unambiguous_ms = st.one_of(st.integers(CUTOFF, MAX_MS), st.integers(MIN_MS, -CUTOFF))

# -- strategies ------------------------------------------------------------------------

#: Text people and attackers actually send: scripts, bidi controls, emoji sequences,
#: combining marks, quotes and query syntax.
SPECIMENS = [
    "مرحبا بالعالم",
    "שלום",
    "\u202eevil\u202c",
    "👩\u200d👩\u200d👧 family",
    "e\u0301",
    "İstanbul",
    "ß",
    "ﬁ",
    "\u00a0nbsp\u2003em",
    "'",
    '"',
    "\\",
    "`",
    "$param",
    '"}) MATCH (n) DETACH DELETE n //',
    '@fact:{*} | -x ~y "',
    "%",
    "*",
    "' OR 1=1 --",
]
# Hypothesis' default alphabet already leaves out surrogates (Cs), which no UTF-8 store
# can hold; NUL is drawn on purpose where the store is not involved.
any_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(SPECIMENS),
    st.lists(st.sampled_from(SPECIMENS), min_size=1, max_size=4).map(" ".join),
)
store_text = any_text.filter(lambda s: "\x00" not in s)
junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=10)
    | st.binary(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
timestamps = st.one_of(
    st.integers(),
    st.floats(),
    st.datetimes(),
    st.dates(),
    st.text(max_size=30),
    st.sampled_from(
        [
            "2024-03-20T10:15:00Z",
            "0001-01-01T00:00:00+05:00",
            "nan",
            "-inf",
            "1e400",
            "9999-12-31T23:59:59-01:00",
            "",
            " ",
            "1710929700",
        ]
    ),
)
scores = st.one_of(st.floats(), st.integers(-3, 3), st.sampled_from(["0.5", "high", None]))

CARD_FIELDS = list(Card.model_fields)


def attempt(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """The result of ``fn``, or the ``ValidationError`` it raised (any other error fails)."""
    try:
        return fn(*args, **kwargs)
    except ValidationError as exc:
        return exc


@st.composite
def card_inputs(draw: st.DrawFn) -> dict[str, Any]:
    """A card-shaped mapping where any field may hold the wrong thing."""
    data: dict[str, Any] = {
        "user_id": draw(st.one_of(st.just("u1"), any_text, junk)),
        "fact": draw(st.one_of(any_text, junk, st.just("x" * (MAX_TEXT + 1)))),
    }
    for name in draw(st.lists(st.sampled_from(CARD_FIELDS), max_size=5, unique=True)):
        if name in {"timestamp", "valid_from", "valid_to", "last_accessed"}:
            data[name] = draw(timestamps)
        elif name in {"confidence", "importance", "emotion", "reward"}:
            data[name] = draw(scores)
        elif name == "source":
            data[name] = draw(
                st.one_of(
                    junk,
                    st.fixed_dictionaries(
                        {},
                        optional={
                            "session_id": any_text,
                            "turn": st.integers(),
                            "text": any_text,
                            "span": st.tuples(st.integers(-2, 50), st.integers(-2, 50)),
                            "session_date": timestamps,
                        },
                    ),
                )
            )
        else:
            data[name] = draw(st.one_of(any_text, junk, st.lists(any_text, max_size=3)))
    if draw(st.booleans()):
        data[draw(st.text(min_size=1, max_size=8))] = draw(junk)  # unknown key
    return data


@st.composite
def valid_cards(draw: st.DrawFn, user_id: str) -> Card:
    """Cards that validate, with every field drawn near its edges."""
    fact = draw(store_text.filter(lambda s: s.strip()))
    text = draw(st.one_of(st.none(), store_text))
    span = None
    if text and draw(st.booleans()):
        start = draw(st.integers(0, len(text)))
        span = (start, draw(st.integers(start, len(text))))
    source = draw(
        st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {
                    "session_id": st.one_of(st.none(), store_text.filter(lambda s: s.strip())),
                    "document": st.one_of(st.none(), store_text),
                    "turn": st.one_of(st.none(), st.integers(0, INT64)),
                    "speaker": st.one_of(st.none(), store_text),
                    "text": st.just(text),
                    "span": st.just(span),
                    "session_date": st.one_of(st.none(), unambiguous_ms),
                }
            ),
        )
    )
    unit = st.floats(0.0, 1.0)
    data = {
        "user_id": user_id,
        "fact": fact,
        "backstory": draw(store_text),
        "person": draw(st.one_of(st.just("me"), store_text.filter(lambda s: s.strip()))),
        "relationship": draw(st.one_of(st.none(), store_text)),
        "timestamp": draw(unambiguous_ms),
        "tags": draw(st.lists(store_text.filter(lambda s: 0 < len(s.strip()) <= 64), max_size=4)),
        "confidence": draw(unit),
        "importance": draw(unit),
        "emotion": draw(unit),
        "reward": draw(st.floats(-1.0, 1.0)),
        "source": source,
        "access_count": draw(st.integers(0, INT64)),
        "category": draw(st.sampled_from(["work", "life", "preference", "other"])),
    }
    if source is not None and all(source[k] is None for k in ("session_id", "document", "text")):
        source = data["source"] = None  # see test_provenance_without_a_container_is_kept
    try:
        return Card(**data)
    except ValidationError:
        assume(False)  # e.g. a blank person after whitespace folding
        raise


# -- the Card model: valid or ValidationError(field), never anything else ----------------


@FAST
@given(card_inputs())
@example({"user_id": "u1", "fact": "x" * (MAX_TEXT + 1)})
@example({"user_id": "u1", "fact": "ok", "confidence": math.nan})
@example({"user_id": "u1", "fact": "ok", "reward": -math.inf})
@example({"user_id": "u1", "fact": "ok", "timestamp": "0001-01-01T00:00:00+05:00"})
@example({"user_id": "u1", "fact": {"nested": [{"junk": b"\x00"}]}})
@example({"user_id": "u1", "fact": "ok", ".": 1})  # the field named is the key "."
def test_a_card_is_valid_or_a_validation_error_naming_a_field(data: dict[str, Any]):
    card = attempt(Card, **data)
    if isinstance(card, ValidationError):
        assert isinstance(card.field, str)
        named = {*map(str, data), "input"}
        assert card.field in named or card.field.split(".")[0] in named  # a key may hold "."
        return
    assert card.user_id == data["user_id"].strip()
    assert 0 < len(card.fact) <= MAX_TEXT
    assert MIN_MS <= card.timestamp <= MAX_MS
    assert all(
        math.isfinite(v) for v in (card.confidence, card.importance, card.emotion, card.reward)
    )


@FAST
@given(st.integers(MAX_TEXT + 1, 3 * MAX_TEXT), st.sampled_from(["x", "é", "👩", "a b"]))
def test_text_over_the_limit_names_the_field(size: int, unit: str):
    with pytest.raises(ValidationError) as err:
        Card(user_id="u1", fact=(unit * size)[:size])
    assert err.value.field == "fact"
    with pytest.raises(ValidationError) as err:
        Card(user_id="u1", fact="ok", backstory="b" * size)
    assert err.value.field == "backstory"


@FAST
@given(timestamps)
def test_a_timestamp_is_in_years_1_to_9999_or_refused(value: Any):
    card = attempt(Card, user_id="u1", fact="ok", timestamp=value)
    if isinstance(card, ValidationError):
        assert card.field == "timestamp"
        return
    assert MIN_MS <= card.timestamp <= MAX_MS


@FAST
@given(
    st.sampled_from(["confidence", "importance", "emotion", "reward"]),
    st.sampled_from([math.nan, math.inf, -math.inf, 1.5, -1.5, "nan", "inf"]),
)
def test_nan_inf_and_out_of_range_scores_are_refused(name: str, value: Any):
    with pytest.raises(ValidationError) as err:
        Card(user_id="u1", fact="ok", **{name: value})
    assert err.value.field == name


# -- round trip: what you write is what you read ------------------------------------------


SCORES = ("confidence", "importance", "emotion", "reward")


def _stored_view(card: Card) -> dict[str, Any]:
    """A card minus what the store sets itself (version, write times); scores to the 15
    significant digits FalkorDB replies with (see test_scores_round_trip_exactly)."""
    data = card.model_dump(exclude={"version", "created_at", "updated_at"})
    return data | {name: float(f"{data[name]:.15g}") for name in SCORES}


@STORE
@given(data=st.data())
def test_whatever_validates_round_trips_exactly(memory: Memory, data: st.DataObject):
    user_id = f"prop-{uuid.uuid4().hex[:10]}"
    card = data.draw(valid_cards(user_id))
    stored = memory.remember(card)
    assert _stored_view(stored) == _stored_view(card)
    assert _stored_view(memory.get(user_id, card.id)) == _stored_view(card)  # type: ignore[arg-type]
    assert stored.version == 1


@pytest.mark.xfail(
    strict=True,
    reason="FalkorDB replies with 15 significant digits: "
    "a score's 16th-17th digit is lost on read (the stored value is exact)",
)
def test_scores_round_trip_exactly(memory: Memory, user: str):
    card = Card(user_id=user, fact="a precise score", reward=0.3431623069994956)
    assert memory.remember(card).reward == 0.3431623069994956


def test_provenance_without_a_container_is_kept(memory: Memory, user: str):
    card = Card(
        user_id=user,
        fact="said in passing",
        source={"speaker": "Bob", "turn": 3, "extractor": "spacy-v1"},
    )
    assert memory.remember(card).source == card.source


@pytest.mark.parametrize(
    "when", ["1971-05-01T00:00:00Z", "1970-01-01T00:00:01Z", "1968-01-01T00:00:00Z"]
)
def test_early_1970s_timestamps_survive_a_round_trip(memory: Memory, user: str, when: str):
    card = Card(user_id=user, fact="born then", person="Dad", timestamp=when)
    assert Card.parse(card).timestamp == card.timestamp
    assert memory.remember(card).timestamp == card.timestamp


@pytest.mark.parametrize("field", ["fact", "backstory", "person", "relationship", "source.text"])
def test_nul_in_text_is_refused_or_stored_verbatim(memory: Memory, user: str, field: str):
    data: dict[str, Any] = {"user_id": user, "fact": "fact with a NUL"}
    value = "before\x00after"
    if field == "source.text":
        data["source"] = {"session_id": "s", "text": value}
    else:
        data[field] = value
    card = attempt(Card, **data)
    if isinstance(card, ValidationError):  # FalkorDB would end the query at the NUL
        assert card.field in {field, field.split(".", maxsplit=1)[0]}
        return
    assert _stored_view(memory.remember(card)) == _stored_view(card)


@pytest.mark.parametrize(
    "extra",
    [
        {"access_count": 2**63},
        {"source": {"session_id": "s", "turn": 2**63}},
        {"source": {"session_id": "s", "span": (0, 2**63)}},
    ],
)
def test_integers_beyond_int64_are_refused_or_kept(memory: Memory, user: str, extra: dict):
    card = attempt(Card, user_id=user, fact="a big number", **extra)
    if isinstance(card, ValidationError):  # FalkorDB would clamp it to 2**63-1
        assert card.field.split(".")[0] in extra
        return
    assert _stored_view(memory.remember(card)) == _stored_view(card)


# -- loaders: every malformed file is a ValidationError naming the spot --------------------


def _load(path: Path, kind: str) -> Any:
    return load_cards(path, "u1") if kind == "cards" else load_conversation(path)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    records=st.lists(st.one_of(card_inputs(), junk), min_size=1, max_size=3),
    kind=st.sampled_from(["cards", "conversation"]),
)
def test_loaders_yield_items_or_a_validation_error(tmp_path: Path, records: list[Any], kind: str):
    path = tmp_path / "in.jsonl"
    lines = [json.dumps(r, default=repr, allow_nan=True) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    items = attempt(_load, path, kind)
    if isinstance(items, ValidationError):
        assert items.field
        assert str(items).startswith("in.jsonl")
        return
    assert len(items) <= len(records)


@settings(max_examples=40, deadline=None)
@given(card_inputs())
def test_parse_card_is_a_card_of_the_user_or_a_validation_error(record: dict[str, Any]):
    card = attempt(parse_card, record, "u1", where="cards.jsonl line 1")
    if isinstance(card, ValidationError):
        assert card.field
        assert str(card).startswith("cards.jsonl line 1: ")
        return
    assert card.user_id == "u1"


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("bad-utf8.jsonl", b'{"fact": "\xff\xfe"}\n'),
        ("deep.json", b"[" * 100_000 + b"]" * 100_000),
        ("deep.jsonl", b'{"fact": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"),
        ("huge-int.jsonl", b'{"fact": "x", "timestamp": 1' + b"0" * 5000 + b"}\n"),
    ],
)
def test_unreadable_files_are_validation_errors(tmp_path: Path, name: str, content: bytes):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ValidationError, match=rf"^{name}"):
        load_cards(path, "u1")
