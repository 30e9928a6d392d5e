"""The card model: the five fields, timestamps, validation that names the field."""

from datetime import UTC, datetime

import pytest

from graphmem import SELF, Card, ValidationError
from graphmem.models import Person


def test_the_five_fields_and_their_normal_forms():
    card = Card(
        user_id="u1",
        fact="  Alice is allergic   to peanuts ",
        backstory="mentioned while planning a birthday dinner",
        person="Alice",
        relationship="Sister",
        timestamp="2024-03-20T10:15:00Z",
    )
    assert card.fact == "Alice is allergic to peanuts"
    assert card.relationship == "sister"
    assert card.timestamp == 1_710_929_700_000
    assert card.valid_from == card.timestamp
    assert card.status == "active"
    assert card.id == card.identity[:32]


@pytest.mark.parametrize(
    "value",
    [
        "2024-03-20T10:15:00Z",
        "2024-03-20T11:15:00+01:00",
        datetime(2024, 3, 20, 10, 15, tzinfo=UTC),
        datetime(2024, 3, 20, 10, 15),
        1_710_929_700,
        1_710_929_700_000,
        "1710929700",
    ],
)
def test_timestamps_in_any_common_form_become_utc_epoch_ms(value):
    assert Card(user_id="u", fact="x", timestamp=value).timestamp == 1_710_929_700_000


def test_first_person_facts_are_about_the_user():
    card = Card(user_id="u", fact="I live in Paris", person="I")
    assert (card.person, card.relationship) == (SELF, "self")


def test_same_content_same_id_and_different_users_differ():
    a = Card(user_id="u1", fact="likes tea", timestamp=1)
    assert Card(user_id="u1", fact="likes  tea", timestamp=1).id == a.id
    assert Card(user_id="u2", fact="likes tea", timestamp=1).id != a.id


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"fact": ""}, "fact"),
        ({"fact": "   "}, "fact"),
        ({"fact": "x", "timestamp": "not a date"}, "timestamp"),
        ({"fact": "x", "timestamp": 10**20}, "timestamp"),
        ({"fact": "x", "confidence": float("nan")}, "confidence"),
        ({"fact": "x", "importance": 1.5}, "importance"),
        ({"fact": "x", "status": "deleted"}, "status"),
        ({"fact": "x", "colour": "red"}, "colour"),
        ({"fact": "x", "source": {"text": "ab", "span": [0, 9]}}, "source"),
        ({"fact": "x", "tags": "not-a-list"}, "tags"),
    ],
)
def test_invalid_input_names_the_field(data, field):
    with pytest.raises(ValidationError) as caught:
        Card(user_id="u", **data)
    assert caught.value.field == field
    assert field in str(caught.value)


def test_parse_prefixes_the_record_location():
    with pytest.raises(ValidationError, match=r"cards\[3\]\.fact") as caught:
        Card.parse({"user_id": "u", "fact": ""}, where="cards[3]")
    assert caught.value.field == "cards[3].fact"


def test_user_ids_with_control_characters_are_rejected():
    with pytest.raises(ValidationError) as caught:
        Card(user_id="a\x00b", fact="x")
    assert caught.value.field == "user_id"


def test_a_built_card_is_trusted_but_a_copy_is_validated_again():
    card = Card(user_id="ada", fact="Alice likes jazz", person="Alice")
    assert Card.parse(card) is card  # remember_many does not validate it twice

    renamed = card.model_copy(update={"fact": "Alice likes blues"})  # skips validators
    assert Card.parse(renamed).content_hash != card.content_hash
    with pytest.raises(ValidationError, match="confidence"):
        Card.parse(card.model_copy(update={"confidence": 7.0}))


@pytest.mark.parametrize("name", ["\x01Alice", "Al\x01ice", "Bob\x7f", "\x1b[31mEve"])
def test_a_name_with_control_characters_is_refused(name):
    with pytest.raises(ValidationError) as info:
        Card(user_id="u1", fact="likes tea", person=name)
    assert info.value.field == "person"
    with pytest.raises(ValidationError) as info:
        Person.parse({"user_id": "u1", "name": "Alice", "aliases": [name]})
    assert info.value.field == "aliases.0"


def test_whitespace_in_a_name_is_collapsed_not_refused():
    assert Card(user_id="u1", fact="likes tea", person="\tAlice\n Smith").person == "Alice Smith"


def test_a_tag_is_measured_as_stored_lower_cased():
    """Tags are stored lower-cased, and "İ" lower-cases to two characters: a tag of 64
    that grows past 64 is refused when written, so every stored card reads back."""
    tag = "İstanbul " + "x" * 55
    assert len(tag) == 64
    with pytest.raises(ValidationError, match="once lower-cased"):
        Card(user_id="u1", fact="moved to istanbul", tags=[tag])
    assert Card(user_id="u1", fact="moved to istanbul", tags=["İstanbul"]).tags == ["i̇stanbul"]
