"""The codec on schemas/payload-vectors.json: every refusal the file holds is refused, each for its reason."""

from __future__ import annotations

import base64
import json
import unittest
import zlib
from pathlib import Path

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from temporalio.api.common.v1 import Payload

from payflows_backend.codec import CodecError, EncryptionCodec, payload_from_json
from payflows_backend.vectors import check_vectors

VECTORS = json.loads((Path(__file__).resolve().parents[3] / "schemas" / "payload-vectors.json").read_text())


class Vectors(unittest.TestCase):
    def test_every_check_passes(self) -> None:
        report = check_vectors(VECTORS)
        self.assertTrue(report["ok"], json.dumps(report, indent=2))

    def test_each_refusal_for_its_reason(self) -> None:
        keys = {name: base64.b64decode(k["key"]) for name, k in VECTORS["keys"].items()}
        codec = EncryptionCodec(keys["current"], [keys["previous"]])
        why = {
            "one bit of the ciphertext altered": "does not authenticate",
            "a key id no key given has": "which this process does not have",
            "data shorter than a nonce and a tag": "too short to hold a nonce and a tag",
            "a compression no reader knows": "compressed with 'zstd'",
            "the compression mark removed": "does not authenticate",
        }
        self.assertEqual([r["name"] for r in VECTORS["refused"]], list(why))
        for r in VECTORS["refused"]:
            with self.subTest(r["name"]), self.assertRaises(CodecError) as caught:
                codec.decode_one(payload_from_json(r["encrypted"]))
            self.assertIn(why[r["name"]], str(caught.exception))

    def test_short_data_is_refused_at_every_length_below_nonce_and_tag(self) -> None:
        good = payload_from_json(VECTORS["vectors"][0]["encrypted"])
        codec = EncryptionCodec(base64.b64decode(VECTORS["keys"]["current"]["key"]))
        for length in (0, 5, 11, 12, 27):
            short = type(good)()
            short.CopyFrom(good)
            short.data = good.data[:length]
            with self.subTest(length=length), self.assertRaises(CodecError) as caught:
                codec.decode_one(short)
            self.assertIn(f"is {length} bytes", str(caught.exception))

    def test_a_compressed_payload_that_opens_past_its_limit_is_refused(self) -> None:
        key = base64.b64decode(VECTORS["keys"]["current"]["key"])
        codec = EncryptionCodec(key)
        packer = zlib.compressobj(wbits=-15)
        bomb = packer.compress(bytes(17 * 1024 * 1024)) + packer.flush()
        nonce = bytes(12)
        sealed = AESGCM(key).encrypt(nonce, bomb, b"deflate-raw")
        payload = Payload(
            metadata={"encoding": b"binary/encrypted", "encryption-key-id": codec.key_id.encode(), "compression": b"deflate-raw"},
            data=nonce + sealed,
        )
        with self.assertRaises(CodecError) as caught:
            codec.decode_one(payload)
        self.assertIn("does not decompress whole", str(caught.exception))

    def test_large_payloads_are_compressed_and_small_ones_are_not(self) -> None:
        codec = EncryptionCodec(base64.b64decode(VECTORS["keys"]["current"]["key"]))
        large = Payload(metadata={"encoding": b"json/plain"}, data=json.dumps(list(range(3000))).encode())
        small = Payload(metadata={"encoding": b"json/plain"}, data=b'"kyc:AC_1"')
        sealed_large, sealed_small = codec.encode_one(large), codec.encode_one(small)
        self.assertEqual(sealed_large.metadata["compression"], b"deflate-raw")
        self.assertLess(len(sealed_large.data), len(large.data))
        self.assertNotIn("compression", sealed_small.metadata)
        self.assertEqual(codec.decode_one(sealed_large), large)
        self.assertEqual(codec.decode_one(sealed_small), small)


if __name__ == "__main__":
    unittest.main()
