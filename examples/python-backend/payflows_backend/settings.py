"""How this backend reaches Temporal and the codec server, with the TypeScript processes' refusals
(src/temporal/plaintext.ts): plaintext to a Temporal not on this machine only when TEMPORAL_TLS=false
asks for it by name, an API key (TEMPORAL_API_KEY) over TLS only, and the codec server's token never
over http:// to another machine. Errors name the variable, never its value."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from temporalio.service import TLSConfig


class SettingsError(Exception):
    pass


# Read strictly, as src/temporal/plaintext.ts isLoopback reads it: a host of letters, digits, dots
# and hyphens (or a bracketed IPv6 address), then at most a port of digits. Anything else is not
# loopback: in localhost:7233@evil.example the connection would go to evil.example.
HOST_AND_PORT = re.compile(r"(?:\[([^\[\]]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?")


def _v6_loopback(text: str) -> bool:
    try:
        return ipaddress.IPv6Address(text) == ipaddress.IPv6Address("::1")
    except ValueError:
        return False


def is_loopback(address: str) -> bool:
    """`host:port`, `[v6]:port` or a bare host on this machine's loopback (localhost, ::1 however written, 127.x)."""
    if ":" in address and _v6_loopback(address):
        return True
    parts = HOST_AND_PORT.fullmatch(address)
    if not parts or (parts.group(3) is not None and int(parts.group(3)) > 65535):
        return False
    v6, host = parts.group(1), parts.group(2)
    if v6 is not None:
        return _v6_loopback(v6)
    host = host.lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.IPv4Address(host).is_loopback
    except ValueError:
        return False


def _setting(env: dict[str, str], name: str) -> str:
    return (env.get(name) or "").strip()


def temporal_api_key(env: dict[str, str]) -> str | None:
    """Client.connect's `api_key`: TEMPORAL_API_KEY, a token for a Temporal server that authorizes (the
    namespace's writer role), sent as `Authorization: Bearer …`. It implies TLS; TEMPORAL_TLS=false with it
    is refused, since the key would travel in clear."""
    key = _setting(env, "TEMPORAL_API_KEY")
    if key and _setting(env, "TEMPORAL_TLS") == "false":
        raise SettingsError(
            "TEMPORAL_API_KEY is set but TLS is off (TEMPORAL_TLS=false): the key would travel in clear. "
            "Remove TEMPORAL_TLS=false (an API key implies TLS), or the key"
        )
    return key or None


def temporal_connection(env: dict[str, str]) -> dict[str, Any]:
    """Client.connect's `tls` and `api_key` from the settings, or a SettingsError before anything connects."""
    return {"api_key": temporal_api_key(env), "tls": temporal_tls(env)}


def temporal_tls(env: dict[str, str]) -> bool | TLSConfig:
    """Client.connect's `tls`: TLS as the TypeScript processes configure it (TEMPORAL_TLS, TEMPORAL_TLS_*_PATH,
    implied by TEMPORAL_API_KEY), and plaintext only on loopback or with TEMPORAL_TLS=false."""
    implied = temporal_api_key(env) is not None
    ca, cert, key = (_setting(env, f"TEMPORAL_TLS_{n}_PATH") for n in ("SERVER_CA_CERT", "CLIENT_CERT", "CLIENT_KEY"))
    if ca or cert or key:
        if bool(cert) != bool(key):
            raise SettingsError("TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH go together: set both for mTLS, or neither")
        read = lambda name, path: _read(name, path) if path else None  # noqa: E731
        return TLSConfig(
            server_root_ca_cert=read("TEMPORAL_TLS_SERVER_CA_CERT_PATH", ca),
            client_cert=read("TEMPORAL_TLS_CLIENT_CERT_PATH", cert),
            client_private_key=read("TEMPORAL_TLS_CLIENT_KEY_PATH", key),
            domain=_setting(env, "TEMPORAL_TLS_SERVER_NAME") or None,
        )
    said = _setting(env, "TEMPORAL_TLS")
    if said == "true" or implied:
        return TLSConfig(domain=_setting(env, "TEMPORAL_TLS_SERVER_NAME") or None) if _setting(env, "TEMPORAL_TLS_SERVER_NAME") else True
    if said == "false" or is_loopback(_setting(env, "TEMPORAL_ADDRESS")):
        return False
    raise SettingsError(
        "TEMPORAL_ADDRESS is not on this machine (localhost, ::1 or 127.x), and nothing says how to secure the connection: "
        "set TEMPORAL_TLS=true (with TEMPORAL_TLS_SERVER_CA_CERT_PATH where its certificate is not publicly trusted), "
        "or TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH; or TEMPORAL_TLS=false to connect in plaintext over a network you trust"
    )


def _read(name: str, path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise SettingsError(f"{name}: {err.strerror}") from err


def check_codec_server_url(url: str) -> str:
    """The URL without a trailing slash, when the token may go there: https://, or http:// to this machine.
    TEMPORAL_TLS=false does not cover it: the token is another credential, and it decrypts every payload."""
    parts = urlsplit(url.strip())
    try:
        host = parts.hostname or ""
    except ValueError:
        host = ""
    scheme = parts.scheme.lower()
    if scheme == "https" and host or scheme == "http" and is_loopback(f"[{host}]" if ":" in host else host):
        return url.strip().rstrip("/")
    raise SettingsError(
        "CODEC_SERVER_URL must be https://, or http:// to this machine (localhost, ::1 or 127.x): "
        "CODEC_SERVER_TOKEN goes with each call, and over http:// to another machine it would travel in clear; "
        "put TLS in front of the codec server and give its https:// address"
    )


def codec_server_url(env: dict[str, str]) -> str:
    return check_codec_server_url(_setting(env, "CODEC_SERVER_URL"))
