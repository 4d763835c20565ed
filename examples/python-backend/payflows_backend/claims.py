"""Personal values go to the processes by claim reference: the codec server's POST /claims stores one
(sealed as every payflows claim is) and answers its reference, which is all a message carries."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from .settings import SettingsError, check_codec_server_url


class ClaimRefused(Exception):
    pass


def put_value(codec_server: str, token: str, value: str, subject: str | None = None) -> dict[str, Any]:
    """Stores a personal value (an SSN...) and answers its ClaimRef; the value never enters a message."""
    try:
        # The token and the value go with the call: refused before it over http:// to another machine.
        codec_server = check_codec_server_url(codec_server)
    except SettingsError as err:
        raise ClaimRefused(str(err)) from err
    body: dict[str, Any] = {"kind": "value", "value": value}
    if subject:
        body["subject"] = subject
    req = urllib.request.Request(
        f"{codec_server}/claims",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "authorization": f"Bearer {token}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.loads(res.read())
    except urllib.error.HTTPError as err:
        detail = err.read().decode("utf-8", "replace")
        raise ClaimRefused(f"POST {codec_server}/claims answered {err.code}: {detail}") from err
