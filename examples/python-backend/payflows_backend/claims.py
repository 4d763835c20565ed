"""Personal values go to the processes by claim reference: the codec server's POST /claims stores one
(sealed as every payflows claim is) and answers its reference, which is all a message carries."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any


class ClaimRefused(Exception):
    pass


def put_value(codec_server: str, token: str, value: str, subject: str | None = None) -> dict[str, Any]:
    """Stores a personal value (an SSN...) and answers its ClaimRef; the value never enters a message."""
    body: dict[str, Any] = {"kind": "value", "value": value}
    if subject:
        body["subject"] = subject
    req = urllib.request.Request(
        f"{codec_server.rstrip('/')}/claims",
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
