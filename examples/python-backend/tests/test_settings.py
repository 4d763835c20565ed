"""The TypeScript processes' refusals (src/temporal/plaintext.ts), in Python: plaintext to a Temporal not
on this machine unless TEMPORAL_TLS=false says so, and the codec server's token never over http:// to
another machine. Run from examples/python-backend: python -m unittest discover -s tests"""

from __future__ import annotations

import asyncio
import unittest
from pathlib import Path

from payflows_backend.backend import kyc_value
from payflows_backend.claims import ClaimRefused, put_value
from payflows_backend.settings import SettingsError, codec_server_url, is_loopback, temporal_tls

REMOTE = ["temporal.example.test:7233", "10.0.0.5:7233", "temporal.example.test", "[2001:db8::1]:7233", "127.0.0.1.example.test:7233",
    # Read strictly, as src/temporal/plaintext.ts does: what is not plainly a loopback host and port is not loopback.
    "localhost:7233@evil.example.test", "127.0.0.1:99999", "[127.0.0.1]:7233", "::ffff:127.0.0.1", "localhost:", "localhost:7233/x"]
LOCAL = ["127.0.0.1:7233", "127.9.8.7:7233", "localhost:7233", "LOCALHOST", "[::1]:7233", "::1", "0:0:0:0:0:0:0:1", "[0:0:0:0:0:0:0:1]:7233"]


class TemporalConnection(unittest.TestCase):
    def test_plaintext_off_this_machine_is_refused_naming_the_variable_not_its_value(self) -> None:
        for address in REMOTE:
            with self.subTest(address=address), self.assertRaises(SettingsError) as caught:
                temporal_tls({"TEMPORAL_ADDRESS": address})
            message = str(caught.exception)
            for want in ("TEMPORAL_ADDRESS", "TEMPORAL_TLS=true", "TEMPORAL_TLS=false"):
                self.assertIn(want, message)
            self.assertNotIn(address, message)

    def test_plaintext_on_loopback_or_when_asked_for(self) -> None:
        for address in LOCAL:
            with self.subTest(address=address):
                self.assertIs(temporal_tls({"TEMPORAL_ADDRESS": address}), False)
        self.assertIs(temporal_tls({"TEMPORAL_ADDRESS": "temporal.internal:7233", "TEMPORAL_TLS": "false"}), False)

    def test_tls_when_asked_for(self) -> None:
        self.assertIs(temporal_tls({"TEMPORAL_ADDRESS": "temporal.example.test:7233", "TEMPORAL_TLS": "true"}), True)

    def test_loopback_is_what_the_typescript_side_calls_loopback(self) -> None:
        for address in LOCAL:
            self.assertTrue(is_loopback(address), address)
        for address in [*REMOTE, "0.0.0.0:7233", "[::1", "::ffff:127.0.0.1", "127.0.0.01:7233"]:
            self.assertFalse(is_loopback(address), address)


class CodecServerUrl(unittest.TestCase):
    REFUSED = [
        "http://codec.example.test:4030",
        "http://10.0.0.5:4030/",
        "HTTP://codec.example.test",
        "http://127.0.0.1.example.test:4030",
        "ftp://127.0.0.1:4030",
        "codec.example.test:4030",
        "http://localhost:4030@codec.example.test/",
    ]

    def test_the_token_never_goes_over_http_to_another_machine(self) -> None:
        for url in self.REFUSED:
            with self.subTest(url=url), self.assertRaises(SettingsError) as caught:
                # TEMPORAL_TLS=false is for Temporal's connection only: the token is another credential.
                codec_server_url({"CODEC_SERVER_URL": url, "TEMPORAL_TLS": "false"})
            for want in ("CODEC_SERVER_URL", "CODEC_SERVER_TOKEN", "https://"):
                self.assertIn(want, str(caught.exception))

    def test_https_anywhere_and_http_on_this_machine(self) -> None:
        for url in ["http://127.0.0.1:4030", "http://localhost:4030/", "http://[::1]:4030", "https://codec.example.test", "https://10.0.0.5:4030"]:
            with self.subTest(url=url):
                self.assertEqual(codec_server_url({"CODEC_SERVER_URL": url}), url.rstrip("/"))

    def test_put_value_refuses_before_sending(self) -> None:
        # Nothing listens there: a refusal that came after a request would be a connection error instead.
        with self.assertRaises(ClaimRefused) as caught:
            put_value("http://codec.example.test:4030", "tok-0123456789abcdef", "078-05-1120")
        self.assertIn("CODEC_SERVER_URL", str(caught.exception))


class KycValue(unittest.TestCase):
    SCHEMAS = Path(__file__).resolve().parents[3] / "schemas" / "messages"

    def run_kyc_value(self, env: dict[str, str]) -> dict:
        return asyncio.run(kyc_value(env, self.SCHEMAS, account_id="AC_1", field_id="ssn", value="078-05-1120"))

    def test_refuses_plaintext_to_a_remote_temporal_before_storing_the_value(self) -> None:
        # A claim stored and then refused at the connection would be left behind: neither happens.
        env = {"TEMPORAL_ADDRESS": "temporal.example.test:7233", "CODEC_SERVER_URL": "http://127.0.0.1:9", "CODEC_SERVER_TOKEN": "t"}
        report = self.run_kyc_value(env)
        self.assertEqual((report["ok"], report["sent"]), (False, False))
        self.assertIn("TEMPORAL_ADDRESS", report["error"])

    def test_refuses_the_token_over_http_to_another_machine(self) -> None:
        env = {"TEMPORAL_ADDRESS": "127.0.0.1:7233", "CODEC_SERVER_URL": "http://codec.example.test", "CODEC_SERVER_TOKEN": "t"}
        report = self.run_kyc_value(env)
        self.assertEqual((report["ok"], report["sent"]), (False, False))
        self.assertIn("CODEC_SERVER_URL", report["error"])


if __name__ == "__main__":
    unittest.main()
