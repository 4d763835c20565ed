"""Proves the codec on schemas/payload-vectors.json, as docs/payload-format.md says an implementation must."""

from __future__ import annotations

import base64
from typing import Any

from temporalio.api.common.v1 import Payload

from .codec import CodecError, EncryptionCodec, key_id_of, payload_from_json


def _same(a: Payload, b: Payload) -> bool:
    return dict(a.metadata) == dict(b.metadata) and a.data == b.data


def check_vectors(doc: dict[str, Any]) -> dict[str, Any]:
    """A report: each check by name with ok and, when it failed, why. `ok` only when every check passed."""
    checks: list[dict[str, Any]] = []

    def record(name: str, ok: bool, why: str = "") -> None:
        checks.append({"name": name, "ok": ok, **({"why": why} if why and not ok else {})})

    keys = {name: base64.b64decode(k["key"]) for name, k in doc["keys"].items()}
    for name, k in doc["keys"].items():
        got = key_id_of(keys[name])
        record(f"key id of {name}", got == k["keyId"], f"computed {got}, the file says {k['keyId']}")

    def reader(writer: str) -> EncryptionCodec:
        # Every key given, the writing one first: one vector was written under the previous key.
        return EncryptionCodec(keys[writer], [k for n, k in keys.items() if n != writer])

    for v in doc["vectors"]:
        plain = payload_from_json(v["plain"])
        try:
            got = reader("current").decode_one(payload_from_json(v["encrypted"]))
            record(f"decrypts: {v['name']}", _same(got, plain), f"decrypted to {got!r}, expected {plain!r}")
        except CodecError as err:
            record(f"decrypts: {v['name']}", False, str(err))
        iv = base64.b64decode(v["iv"])
        sealed = EncryptionCodec(keys[v["key"]], nonce=lambda iv=iv: iv).encode_one(plain)
        again = reader(v["key"]).decode_one(sealed)
        record(f"encrypts and reads back: {v['name']}", _same(again, plain), "what it encrypted does not read back")
        expected_id = doc["keys"][v["key"]]["keyId"]
        # Compressed exactly when the vector is: then its length is the DEFLATE output's, which may differ by implementation.
        marked = "compression" in v["encrypted"]["metadata"]
        record(
            f"writes the key id and layout: {v['name']}",
            sealed.metadata["encryption-key-id"].decode() == expected_id
            and sealed.data[:12] == iv
            and ("compression" in sealed.metadata) == marked
            and (marked or len(sealed.data) == 12 + len(plain.SerializeToString()) + 16),
            "key id, nonce, compression mark or length differ from the spec",
        )

    for r in doc["refused"]:
        try:
            reader(r["key"]).decode_one(payload_from_json(r["encrypted"]))
            record(f"refuses: {r['name']}", False, "it was decrypted")
        except CodecError as err:
            checks.append({"name": f"refuses: {r['name']}", "ok": True, "error": str(err)})

    return {"ok": all(c["ok"] for c in checks), "checks": checks}
