"""Property-based requests generated from the service's own OpenAPI schema.

Whatever schemathesis sends to any route (valid bodies, and in negative mode bodies that
break the schema: wrong types, missing fields, junk), the service answers 2xx or 4xx,
never a 5xx, and an error answer always has the one error shape. ``make test`` sends a
few cases per operation and mode; ``make stress`` many more
(``tests/stress/test_http_fuzz.py``).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from graphmem import Memory
from graphmem.service import ApiKeys, ServiceSettings, create_app
from tests.conftest import short_tmpdir

ADMIN = "schemathesis-admin-key"


@schemathesis.serializer("application/x-ndjson")
def _ndjson(ctx, value) -> bytes:
    """The import route takes JSON Lines: one generated value per line."""
    items = value if isinstance(value, list) else [value]
    return "\n".join(json.dumps(item) for item in items).encode()


@pytest.fixture(scope="module")
def api() -> Iterator[schemathesis.schemas.BaseSchema]:
    home = short_tmpdir()
    memory = Memory.open(home)
    app = create_app(memory, settings=ServiceSettings(api_keys=ApiKeys.parse({ADMIN: ["*"]})))
    yield schemathesis.openapi.from_asgi("/openapi.json", app)
    memory.close()
    shutil.rmtree(home, ignore_errors=True)


def answer_well(case) -> None:
    response = case.call(headers={"Authorization": f"Bearer {ADMIN}"})
    case.validate_response(response, checks=[not_a_server_error])
    content_type = response.headers.get("content-type") or [""]
    content_type = content_type[0] if isinstance(content_type, list) else content_type
    if response.status_code >= 400 and content_type.startswith("application/json"):
        body = response.json()
        assert {"error", "detail", "field", "request_id"} <= set(body), body
        assert isinstance(body["detail"], str), body


def run_every_operation(api, examples: int) -> int:
    operations = [result.ok() for result in api.get_all_operations()]
    for operation in operations:
        for mode in GenerationMode:

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
            def answers(case):
                answer_well(case)

            try:
                answers()
            except Unsatisfiable:  # nothing to break: no parameters, no body
                assert mode is GenerationMode.NEGATIVE, operation.label
    return len(operations)


def test_no_generated_request_gets_a_server_error(api):
    assert run_every_operation(api, examples=4) > 40
