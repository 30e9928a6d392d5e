"""Many generated requests per operation and mode: the long run of
``tests/test_http_schemathesis.py`` (which ``make test`` runs with a few), 4-5 minutes
on a 2-core machine."""

from __future__ import annotations

import pytest

from tests.test_http_schemathesis import api, run_every_operation

# skipped before the service (a module fixture) is made
pytestmark = [
    pytest.mark.stress,
    pytest.mark.skipif(
        "'stress' not in (config.option.markexpr or '')",
        reason="stress run: use `make stress` (pytest -m stress tests/stress)",
    ),
]
__all__ = ["api"]  # the service under test, a module fixture


def test_many_generated_requests_get_no_server_error(api):
    assert run_every_operation(api, examples=60) > 40
