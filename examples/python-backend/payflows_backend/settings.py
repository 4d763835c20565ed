"""How this backend reaches Temporal and the codec server, with the TypeScript processes' refusals
(src/temporal/plaintext.ts): plaintext to a Temporal not on this machine only when TEMPORAL_TLS=false
asks for it by name, and the codec server's token never over http:// to another machine. Errors name
the variable, never its value."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from urllib.parse import urlsplit

from temporalio.service import TLSConfig


class SettingsError(Exception):
    pass


def is_loopback(address: str) -> bool:
    """`host:port`, `[v6]:port` or a bare host on this machine's loopback (localhost, ::1, 127.x)."""
    bracketed = re.fullmatch(r"\[([^\]]+)\](?::\d+)?", address)
    if bracketed:
        host = bracketed.group(1)
    elif address.count(":") == 1:
        host = address.split(":")[0]
    else:
        host = address
    host = host.lower()
    if host in ("localhost", "::1"):
        return True
    try:
        return ipaddress.IPv4Address(host).is_loopback
    except ValueError:
        return False


def _setting(env: dict[str, str], name: str) -> str:
    return (env.get(name) or "").strip()


def temporal_tls(env: dict[str, str]) -> bool | TLSConfig:
    """Client.connect's `tls`: TLS as the TypeScript processes configure it (TEMPORAL_TLS, TEMPORAL_TLS_*_PATH),
    and plaintext only on loopback or with TEMPORAL_TLS=false."""
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
    if said == "true":
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
