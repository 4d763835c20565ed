"""The payload codec, written from docs/payload-format.md alone (no payflows code read).

AES-256-GCM over the protobuf serialization of each payload, compressed first (raw DEFLATE, marked in
the metadata and bound as associated data) when it is 4 KiB or more and shrinks; the key id (first 12 hex digits of the
SHA-256 of the raw key) travels in the metadata so that payloads written before a rotation still
open with a previous key.
"""

from __future__ import annotations

import base64
import hashlib
import os
import zlib
from typing import Callable, Iterable, Sequence

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from temporalio.api.common.v1 import Payload
from temporalio.converter import PayloadCodec

ENCODING = b"binary/encrypted"
NONCE_BYTES = 12
TAG_BYTES = 16
COMPRESSION = b"deflate-raw"
COMPRESS_FROM_BYTES = 4096
INFLATED_LIMIT_BYTES = 16 * 1024 * 1024


class CodecError(Exception):
    """A payload that cannot be read: no key for its key id, or bytes that do not authenticate."""


def key_id_of(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()[:12]


def key_from_base64(text: str, name: str) -> bytes:
    try:
        key = base64.b64decode(text.strip(), validate=True)
    except ValueError as err:
        raise CodecError(f"{name} is not base64: {err}") from err
    if len(key) != 32:
        raise CodecError(f"{name} must be base64 of 32 bytes (openssl rand -base64 32), got {len(key)} bytes")
    return key


class EncryptionCodec(PayloadCodec):
    """`key` writes every payload; it and `previous` read them. `nonce` is random except in the vector check."""

    def __init__(
        self,
        key: bytes,
        previous: Iterable[bytes] = (),
        nonce: Callable[[], bytes] = lambda: os.urandom(NONCE_BYTES),
    ) -> None:
        if len(key) != 32:
            raise CodecError(f"the payload key must be 32 bytes, got {len(key)}")
        self.key_id = key_id_of(key)
        self._key = AESGCM(key)
        self._keys: dict[str, AESGCM] = {}
        for k in [key, *previous]:
            self._keys.setdefault(key_id_of(k), AESGCM(k))
        self._nonce = nonce

    async def encode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [self.encode_one(p) for p in payloads]

    async def decode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [self.decode_one(p) for p in payloads]

    def encode_one(self, payload: Payload) -> Payload:
        nonce = self._nonce()
        serialized = payload.SerializeToString()
        packed = _deflate_raw(serialized) if len(serialized) >= COMPRESS_FROM_BYTES else None
        compressed = packed is not None and len(packed) < len(serialized)
        # AESGCM.encrypt answers ciphertext ‖ tag: the spec's data is nonce ‖ ciphertext ‖ tag.
        sealed = self._key.encrypt(nonce, packed if compressed else serialized, COMPRESSION if compressed else None)
        metadata = {"encoding": ENCODING, "encryption-key-id": self.key_id.encode()}
        if compressed:
            metadata["compression"] = COMPRESSION
        return Payload(metadata=metadata, data=nonce + sealed)

    def decode_one(self, payload: Payload) -> Payload:
        # Written before encryption, or by another converter: passed through unchanged.
        if payload.metadata.get("encoding") != ENCODING:
            return payload
        key_id = payload.metadata.get("encryption-key-id", b"").decode("utf-8", "replace")
        key = self._keys.get(key_id)
        if key is None:
            raise CodecError(
                f"payload encrypted with key {key_id or '(none)'}, which this process does not have; "
                "set PAYLOAD_ENCRYPTION_KEY (and PAYLOAD_PREVIOUS_KEYS after a rotation)"
            )
        compression = payload.metadata.get("compression")
        if compression is not None and compression != COMPRESSION:
            raise CodecError(
                f"payload encrypted with key {key_id} is compressed with {compression.decode('utf-8', 'replace')!r}, "
                "which this backend cannot read (only deflate-raw)"
            )
        data = payload.data
        if len(data) < NONCE_BYTES + TAG_BYTES:
            raise CodecError(f"payload encrypted with key {key_id} is {len(data)} bytes: too short to hold a nonce and a tag")
        try:
            plain = key.decrypt(data[:NONCE_BYTES], data[NONCE_BYTES:], compression)
        except InvalidTag as err:
            raise CodecError(f"payload encrypted with key {key_id} does not authenticate: it was altered") from err
        if compression is not None:
            plain = _inflate_raw(plain, key_id)
        inner = Payload()
        inner.ParseFromString(plain)
        return inner


def _deflate_raw(data: bytes) -> bytes:
    packer = zlib.compressobj(wbits=-15)
    return packer.compress(data) + packer.flush()


def _inflate_raw(data: bytes, key_id: str) -> bytes:
    unpacker = zlib.decompressobj(wbits=-15)
    try:
        plain = unpacker.decompress(data, INFLATED_LIMIT_BYTES)
    except zlib.error as err:
        raise CodecError(f"payload encrypted with key {key_id} authenticates but does not decompress: {err}") from err
    if unpacker.unconsumed_tail or not unpacker.eof:
        raise CodecError(
            f"payload encrypted with key {key_id} authenticates but does not decompress whole within {INFLATED_LIMIT_BYTES} bytes"
        )
    return plain


def codec_from_env(env: dict[str, str]) -> EncryptionCodec:
    """PAYLOAD_ENCRYPTION_KEY and PAYLOAD_PREVIOUS_KEYS, as every payflows process reads them."""
    key = env.get("PAYLOAD_ENCRYPTION_KEY")
    if not key:
        raise CodecError("PAYLOAD_ENCRYPTION_KEY is not set: give this backend the key of the deployment's workers")
    previous = [key_from_base64(k, "PAYLOAD_PREVIOUS_KEYS") for k in env.get("PAYLOAD_PREVIOUS_KEYS", "").split(",") if k.strip()]
    return EncryptionCodec(key_from_base64(key, "PAYLOAD_ENCRYPTION_KEY"), previous)


def payload_from_json(obj: dict) -> Payload:
    """Temporal's JSON form of a payload (metadata values and data in base64), as the vectors and the codec server write it."""
    return Payload(
        metadata={k: base64.b64decode(v) for k, v in (obj.get("metadata") or {}).items()},
        data=base64.b64decode(obj.get("data") or ""),
    )


def payload_to_json(payload: Payload) -> dict:
    return {
        "metadata": {k: base64.b64encode(v).decode() for k, v in payload.metadata.items()},
        "data": base64.b64encode(payload.data).decode(),
    }
