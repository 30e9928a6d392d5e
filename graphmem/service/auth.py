"""API keys: which users each key may read and write.

Keys come from configuration, never from a request: ``GRAPHMEM_API_KEYS`` holds JSON
(``{"key-of-alice": ["alice"], "admin-key": ["*"]}``), or ``GRAPHMEM_API_KEYS_FILE``
names a JSON or TOML file with the same mapping (TOML: ``"key-of-alice" = ["alice"]``,
optionally under a ``[keys]`` table). A key for user A asking for user B's routes gets
403 and never B's data; ``"*"`` grants every user.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.errors import ValidationError

if TYPE_CHECKING:
    from graphmem.config import Settings

ALL_USERS = "*"


@dataclass(frozen=True)
class ApiKeys:
    """The configured keys and the users each may access; empty = no authentication."""

    grants: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, data: object, *, where: str = "GRAPHMEM_API_KEYS") -> ApiKeys:
        """Validate a ``{key: [user, ...]}`` mapping (a ``keys`` table is unwrapped)."""
        if (
            isinstance(data, Mapping)
            and set(data) == {"keys"}
            and isinstance(data["keys"], Mapping)
        ):
            data = data["keys"]
        if not isinstance(data, Mapping):
            raise ValidationError(f"{where}: expected an object of key -> [users]", field=where)
        grants: dict[str, frozenset[str]] = {}
        for key, users in data.items():
            if not isinstance(key, str) or len(key) < 8:
                raise ValidationError(
                    f"{where}: API keys must be text of 8+ characters", field=where
                )
            if isinstance(users, str):
                users = [users]
            if (
                not isinstance(users, list)
                or not users
                or not all(isinstance(u, str) and u for u in users)
            ):
                raise ValidationError(
                    f'{where}: the users of a key must be a non-empty list of user ids (or "*")',
                    field=where,
                )
            grants[key] = frozenset(users)
        return cls(grants)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ApiKeys:
        """Keys from ``GRAPHMEM_API_KEYS`` (JSON) or ``GRAPHMEM_API_KEYS_FILE``; both: merged."""
        from graphmem.config import Settings

        return cls.from_settings(Settings.from_env(environ))

    @classmethod
    def from_settings(cls, settings: Settings) -> ApiKeys:
        """Keys from ``settings.api_keys`` (JSON) and ``settings.api_keys_file``, merged."""
        merged: dict[str, frozenset[str]] = {}
        if settings.api_keys_file is not None:
            merged |= cls.from_file(settings.api_keys_file).grants
        if settings.api_keys is not None:
            try:
                data = json.loads(settings.api_keys.get_secret_value())
            except json.JSONDecodeError as exc:
                raise ValidationError(
                    f"GRAPHMEM_API_KEYS is not JSON: {exc.msg}", field="GRAPHMEM_API_KEYS"
                ) from None
            merged |= cls.parse(data).grants
        return cls(merged)

    @classmethod
    def from_file(cls, path: Path) -> ApiKeys:
        """Keys from a ``.toml`` or JSON file."""
        text = path.read_text(encoding="utf-8")
        try:
            data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
            raise ValidationError(
                f"{path}: cannot read API keys: {exc}", field="GRAPHMEM_API_KEYS_FILE"
            ) from None
        return cls.parse(data, where=str(path))

    @property
    def enabled(self) -> bool:
        return bool(self.grants)

    def users_of(self, key: str) -> frozenset[str] | None:
        """The users ``key`` may access, or None for an unknown key (constant-time compare)."""
        found = None
        for known, users in self.grants.items():
            if hmac.compare_digest(known.encode(), key.encode()):
                found = users
        return found

    def allows(self, key: str, user_id: str) -> bool:
        users = self.users_of(key)
        return users is not None and (ALL_USERS in users or user_id in users)


def key_from_headers(authorization: str | None, x_api_key: str | None) -> str | None:
    """The key of a request: ``Authorization: Bearer <key>`` or ``X-API-Key: <key>``."""
    if authorization:
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            return token.strip()
    return x_api_key.strip() if x_api_key and x_api_key.strip() else None


def is_loopback(host: str) -> bool:
    """True for localhost / 127.0.0.0/8 / ::1: nobody else can connect.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class InsecureBindError(ValidationError):
    """Refusing to serve without API keys on an address others can reach."""


def check_bind(host: str, keys: ApiKeys, *, insecure_no_auth: bool = False) -> str | None:
    """Refuse an unauthenticated non-loopback bind; returns a warning to print, if any."""
    if keys.enabled:
        return None
    if is_loopback(host):
        return (
            f"no API keys configured: serving {host} without authentication "
            f"(loopback only; set GRAPHMEM_API_KEYS to require keys)"
        )
    if insecure_no_auth:
        return (
            f"no API keys configured and --insecure-no-auth given: anyone who can "
            f"reach {host} can read and write every user's memory"
        )
    raise InsecureBindError(
        f"refusing to serve {host} without API keys: set "
        f"GRAPHMEM_API_KEYS or GRAPHMEM_API_KEYS_FILE, bind 127.0.0.1, "
        f"or pass --insecure-no-auth",
        field="host",
    )


#: Names that reach a loopback bind from this machine; a browser page whose host name
#: is anything else (DNS rebinding: a name of the attacker's that resolves to 127.0.0.1)
#: must not be answered.
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

#: Binds that listen on every address: the names clients use cannot be known.
WILDCARD_BINDS = frozenset({"", "0.0.0.0", "::"})


def hosts_for_bind(host: str) -> frozenset[str] | None:
    """The ``Host`` names a server bound to ``host`` answers; None for any (a wildcard
    bind, which needs API keys or ``--insecure-no-auth``).

    >>> sorted(hosts_for_bind("127.0.0.1"))
    ['127.0.0.1', '::1', 'localhost']
    >>> sorted(hosts_for_bind("10.0.0.5")), hosts_for_bind("0.0.0.0")
    (['10.0.0.5'], None)
    """
    name = host.strip("[]").lower()
    if name in WILDCARD_BINDS:
        return None
    if is_loopback(name):
        return LOOPBACK_NAMES | {name}
    return frozenset({name})


def host_name(value: str) -> str:
    """The name part of a ``Host`` header or an origin's authority, lower-cased.

    >>> host_name("LocalHost:8420"), host_name("[::1]:8420"), host_name("::1")
    ('localhost', '::1', '::1')
    """
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    if value.count(":") > 1:  # a bare IPv6 address
        return value
    return value.partition(":")[0]
