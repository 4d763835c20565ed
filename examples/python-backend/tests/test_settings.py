"""The TypeScript processes' refusals (src/temporal/plaintext.ts), in Python: plaintext to a Temporal not
on this machine unless TEMPORAL_TLS=false says so, an API key over TLS only, and the codec server's token
never over http:// to another machine. Run from examples/python-backend: python -m unittest discover -s tests"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path

from temporalio.service import TLSConfig

from payflows_backend.backend import kyc_value
from payflows_backend.claims import ClaimRefused, put_value
from payflows_backend.settings import SettingsError, codec_server_url, is_loopback, temporal_connection, temporal_tls

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


class ApiKey(unittest.TestCase):
    KEY = "token-0123456789"

    def test_an_api_key_is_the_connections_key_and_implies_tls(self) -> None:
        self.assertEqual(
            temporal_connection({"TEMPORAL_ADDRESS": "127.0.0.1:7233", "TEMPORAL_API_KEY": self.KEY}),
            {"api_key": self.KEY, "tls": True},
        )
        # With the deployment's CA and server name, as the TypeScript processes read them.
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        ca = Path(folder.name) / "ca.pem"
        ca.write_bytes(b"-----BEGIN CERTIFICATE-----\n")
        settings = temporal_connection(
            {"TEMPORAL_ADDRESS": "temporal:7233", "TEMPORAL_API_KEY": self.KEY, "TEMPORAL_TLS_SERVER_CA_CERT_PATH": str(ca), "TEMPORAL_TLS_SERVER_NAME": "temporal"}
        )
        self.assertEqual(settings["api_key"], self.KEY)
        self.assertIsInstance(settings["tls"], TLSConfig)
        self.assertEqual((settings["tls"].server_root_ca_cert, settings["tls"].domain), (b"-----BEGIN CERTIFICATE-----\n", "temporal"))
        # Off this machine too: the key is what says how to secure the connection.
        self.assertEqual(temporal_connection({"TEMPORAL_ADDRESS": "temporal.example.test:7233", "TEMPORAL_API_KEY": self.KEY})["tls"], True)

    def test_no_key_no_credentials(self) -> None:
        self.assertEqual(temporal_connection({"TEMPORAL_ADDRESS": "127.0.0.1:7233", "TEMPORAL_API_KEY": " "}), {"api_key": None, "tls": False})

    def test_an_api_key_with_tls_said_off_is_refused_naming_both_and_never_the_key(self) -> None:
        for address in ["127.0.0.1:7233", "temporal.internal:7233"]:
            with self.subTest(address=address), self.assertRaises(SettingsError) as caught:
                temporal_connection({"TEMPORAL_ADDRESS": address, "TEMPORAL_API_KEY": self.KEY, "TEMPORAL_TLS": "false"})
            message = str(caught.exception)
            self.assertIn("TEMPORAL_API_KEY", message)
            self.assertIn("TEMPORAL_TLS=false", message)
            self.assertNotIn(self.KEY, message)

    def first_bytes_a_server_reads(self, env: dict[str, str]) -> bytes:
        """What `python -m payflows_backend check` sends first to a listener on loopback, which then hangs up.
        In a process of its own, which leaves without the interpreter's teardown (see __main__): a client
        that connected in this one could abort it at exit (temporalio/sdk-python#300)."""
        listener = socket.create_server(("127.0.0.1", 0))
        self.addCleanup(listener.close)
        received: list[bytes] = []

        def accept() -> None:
            conn, _ = listener.accept()
            # One connection only: a retry is refused at once rather than left waiting in the backlog.
            listener.close()
            with conn:
                conn.settimeout(10)
                received.append(conn.recv(64))

        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        child_env = {
            "PATH": os.environ.get("PATH", ""),
            "PYTHONDONTWRITEBYTECODE": "1",
            "TEMPORAL_ADDRESS": f"127.0.0.1:{listener.getsockname()[1]}",
            "PAYLOAD_ENCRYPTION_KEY": base64.b64encode(os.urandom(32)).decode(),
            **env,
        }
        run = subprocess.run(
            [sys.executable, "-m", "payflows_backend", "check"],
            cwd=Path(__file__).resolve().parents[1], env=child_env, capture_output=True, text=True, timeout=60,
        )
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIs(json.loads(run.stdout)["ok"], False, "nothing answers like Temporal there")
        thread.join(10)
        return received[0]

    def test_the_key_goes_over_tls_only(self) -> None:
        # A TLS handshake record (0x16) first: the key, sent with the calls, cannot be in clear.
        self.assertEqual(self.first_bytes_a_server_reads({"TEMPORAL_API_KEY": self.KEY})[:1], b"\x16")
        # The same connection without a key, on loopback: plaintext HTTP/2, so the test can tell them apart.
        self.assertTrue(self.first_bytes_a_server_reads({}).startswith(b"PRI * HTTP/2.0"))

    def test_kyc_value_refuses_a_key_in_clear_before_storing_the_value(self) -> None:
        env = {"TEMPORAL_ADDRESS": "127.0.0.1:7233", "TEMPORAL_API_KEY": self.KEY, "TEMPORAL_TLS": "false", "CODEC_SERVER_URL": "http://127.0.0.1:9", "CODEC_SERVER_TOKEN": "t"}
        report = asyncio.run(kyc_value(env, KycValue.SCHEMAS, account_id="AC_1", field_id="ssn", value="078-05-1120"))
        self.assertEqual((report["ok"], report["sent"]), (False, False))
        self.assertIn("TEMPORAL_API_KEY", report["error"])
        self.assertNotIn(self.KEY, report["error"])


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
