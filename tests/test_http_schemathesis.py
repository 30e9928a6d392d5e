"""Property-based requests generated from the service's own OpenAPI schema.

Whatever schemathesis sends (random path users, junk bodies, wrong types), the service
answers with a 2xx/4xx and never a 500.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
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


def test_no_generated_request_gets_a_server_error(api):
    operations = [result.ok() for result in api.get_all_operations()]
    assert len(operations) > 20
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
        def answers_without_a_server_error(case):
            response = case.call(headers={"Authorization": f"Bearer {ADMIN}"})
            case.validate_response(response, checks=[not_a_server_error])

        answers_without_a_server_error()
