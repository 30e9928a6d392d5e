"""What crosses the wire to FalkorDB: parameters as text, replies read back as plain data."""

from __future__ import annotations

import pytest
from falkordb.helpers import stringify_param_value
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem import Memory, ValidationError
from graphmem.recall.vector import wire_vector
from graphmem.store.falkordb import _literal, _params_header
from graphmem.write import _batches

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
)
keys = st.text(min_size=1).filter(lambda k: "`" not in k)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner),
        st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1),
        st.dictionaries(keys, inner),
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(values)
def test_parameters_are_written_as_the_falkordb_client_writes_them(value):
    assert _literal(value) == stringify_param_value(value)


@pytest.mark.parametrize("key", ["", "a`b"])
def test_map_keys_falkordb_cannot_parse_are_refused(key):
    with pytest.raises(ValueError, match="map key"):
        _literal({key: 1})


def test_vectors_travel_with_8_decimals():
    vector = [0.123456789123, -0.5, 1e-12]
    assert wire_vector(vector) == [0.12345679, -0.5, 0.0]
    # one fixed format for the whole vector, exact for 8 decimals
    assert _literal(wire_vector(vector)) == "[0.12345679,-0.50000000,0.00000000]"
    assert _literal(wire_vector([1.0, -0.99999999])) == "[1.00000000,-0.99999999]"


falkordb_only = pytest.mark.parametrize("memory", ["falkordb"], indirect=True)


@falkordb_only
def test_replies_read_back_as_plain_python(memory: Memory):
    row = memory._store.execute(
        "RETURN 1 AS i, 2.5 AS f, 'x' AS s, true AS b, null AS n, [1, 'a', [2.0]] AS l, "
        "{k: 'v', m: {n: 1}} AS m, vecf32([0.5, 0.25]) AS v"
    )[0]
    assert row == {
        "i": 1,
        "f": 2.5,
        "s": "x",
        "b": True,
        "n": None,
        "l": [1, "a", [2.0]],
        "m": {"k": "v", "m": {"n": 1}},
        "v": [0.5, 0.25],
    }


@falkordb_only
def test_nodes_in_a_reply_still_read_back(memory: Memory):
    memory._store.execute("CREATE (:WireProbe {name: 'p'})", write=True)
    row = memory._store.execute("MATCH (p:WireProbe) RETURN p")[0]
    assert row["p"] is not None
    memory._store.execute("MATCH (p:WireProbe) DELETE p", write=True)


@given(st.integers(0, 2000), st.integers(1, 300))
def test_remember_many_batches_keep_every_card_and_end_short(count, size):
    batches = list(_batches(list(range(count)), size))
    assert [i for b in batches for i in b] == list(range(count))
    assert all(0 < len(b) <= size for b in batches)
    if count > size:  # the write nothing overlaps is at most half a batch (or 32 cards)
        assert len(batches[-1]) <= max(32, size // 2 + 1)


@falkordb_only
def test_a_json_columns_map_arrives_as_columns(memory: Memory):
    row = memory._store.execute(
        "RETURN 'x' AS id, toJSON({a: 1, b: 2.5, c: null, d: 1735928118507}) AS json_columns"
    )[0]
    assert row == {"id": "x", "a": 1, "b": 2.5, "c": None, "d": 1735928118507}


def test_a_nul_in_any_parameter_is_refused_before_the_query_is_cut_short():
    """FalkorDB reads the query as a C string: a NUL would end it mid-parameter."""
    with pytest.raises(ValidationError) as info:
        _params_header({"user_id": "u1", "filters": {"session_id": "s\x00"}})
    assert info.value.field == "filters"
    assert _params_header({"user_id": "u1"}) == 'CYPHER `user_id`="u1" '
