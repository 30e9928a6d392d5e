"""graphmem as a service: the HTTP API (FastAPI), its API keys and its request logs."""

from graphmem.service.auth import ApiKeys, check_bind
from graphmem.service.http import ServiceSettings, create_app

__all__ = ["ApiKeys", "ServiceSettings", "check_bind", "create_app"]
