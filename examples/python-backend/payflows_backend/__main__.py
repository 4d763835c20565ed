"""`python -m payflows_backend <command>`: each command prints one JSON report on stdout.

  check                     connects to Temporal with these settings and reads the namespace
  vectors [FILE]            the codec against schemas/payload-vectors.json
  encode | decode           payloads on stdin ({"payloads": [...]}, Temporal's JSON form) through the codec
  onboarding USER_REF CC    starts an onboarding as workflows/onboarding/client.ts does and reads its state
  kyc-value ACCOUNT FIELD   hands the value on stdin in by claim reference (KYC's submitValue update)

Settings come from the environment, with the names the payflows processes use: TEMPORAL_ADDRESS,
TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, PAYLOAD_ENCRYPTION_KEY, PAYLOAD_PREVIOUS_KEYS, and for
claims CODEC_SERVER_URL and CODEC_SERVER_TOKEN; PAYFLOWS_SCHEMAS is the folder of the message schemas.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from .backend import check, kyc_value, onboarding
from .codec import CodecError, codec_from_env, payload_from_json, payload_to_json
from .vectors import check_vectors

REPO = Path(__file__).resolve().parents[3]
USAGE = __doc__ or ""


def emit(report: dict[str, Any]) -> int:
    print(json.dumps(report, indent=2, default=str))
    return 0 if report.get("ok") else 1


async def run(argv: list[str]) -> int:
    env = dict(os.environ)
    command, args = (argv[0], argv[1:]) if argv else ("", [])
    if command == "vectors":
        file = Path(args[0]) if args else REPO / "schemas" / "payload-vectors.json"
        return emit({"file": str(file), **check_vectors(json.loads(file.read_text()))})
    if command in ("encode", "decode"):
        codec = codec_from_env(env)
        body = json.load(sys.stdin)
        payloads = [payload_from_json(p) for p in body.get("payloads", [])]
        try:
            out = await getattr(codec, command)(payloads)
        except CodecError as err:
            return emit({"ok": False, "error": str(err)})
        return emit({"ok": True, "payloads": [payload_to_json(p) for p in out]})
    if command == "check" and not args:
        return emit(await check(env))
    schemas = Path(env.get("PAYFLOWS_SCHEMAS", REPO / "schemas" / "messages"))
    if command == "onboarding" and len(args) == 2:
        return emit(await onboarding(env, schemas, user_ref=args[0], country=args[1]))
    if command == "kyc-value" and len(args) == 2:
        return emit(await kyc_value(env, schemas, account_id=args[0], field_id=args[1], value=sys.stdin.read()))
    print(USAGE, file=sys.stderr)
    return 2


def main() -> int:
    try:
        return asyncio.run(run(sys.argv[1:]))
    except Exception as err:  # one JSON report whatever failed: a missing setting, no schemas, no server
        return emit({"ok": False, "error": f"{type(err).__name__}: {err}"})


if __name__ == "__main__":
    code = main()
    # Leave without the interpreter's teardown: the Temporal client's Rust threads can outlive it,
    # and a process that connected then dies at exit now and then with SIGSEGV or SIGABRT after its
    # report is printed (temporalio/sdk-python#300, still open). Nothing is left to clean up here.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
