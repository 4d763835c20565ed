"""What a backend does with the processes: start one and read its state, hand a value in by claim
reference. Every message is checked against its JSON Schema before it is sent and after it is read."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time
from pathlib import Path
from typing import Any

import temporalio.api.workflowservice.v1
import temporalio.converter
from temporalio.client import Client, WorkflowUpdateFailedError
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.exceptions import ApplicationError

from .claims import ClaimRefused, put_value
from .codec import codec_from_env
from .schemas import MessageRejected, MessageSchemas
from .settings import SettingsError, check_codec_server_url, temporal_connection


async def connect(env: dict[str, str]) -> Client:
    # Failures' messages and stack traces travel encrypted in their encoded attributes
    # (docs/payload-format.md), as the TypeScript side writes them.
    converter = dataclasses.replace(
        temporalio.converter.DataConverter.default,
        payload_codec=codec_from_env(env),
        failure_converter_class=temporalio.converter.DefaultFailureConverterWithEncodedAttributes,
    )
    address = env.get("TEMPORAL_ADDRESS")
    if not address:
        raise ValueError("TEMPORAL_ADDRESS is not set: the host:port of the deployment's Temporal frontend")
    return await Client.connect(
        address, namespace=env.get("TEMPORAL_NAMESPACE", "default"), data_converter=converter, **temporal_connection(env)
    )


async def check(env: dict[str, str]) -> dict[str, Any]:
    """Whether the settings reach Temporal: connects and reads the namespace it was given."""
    client = await connect(env)
    described = await client.workflow_service.describe_namespace(
        temporalio.api.workflowservice.v1.DescribeNamespaceRequest(namespace=client.namespace)
    )
    return {"ok": True, "namespace": described.namespace_info.name, "address": env.get("TEMPORAL_ADDRESS")}


def workflow_id(schemas: MessageSchemas, process: str, workflow_type: str, fields: dict[str, Any]) -> str:
    """The id from the schema's template ({field} from the input), checked against its pattern."""
    scheme = schemas.workflow(process, workflow_type)["workflowId"]
    wid = scheme["template"].format(**fields)
    if not re.search(scheme["pattern"], wid):
        raise ValueError(f"{wid} does not match {process}.json's workflow id pattern {scheme['pattern']}")
    return wid


def refused(err: MessageRejected) -> dict[str, Any]:
    return {
        "ok": False,
        "sent": False,
        "refused": {"what": err.what, "definition": err.definition, "path": err.path, "reason": err.reason},
    }


async def onboarding(env: dict[str, str], schema_dir: Path, user_ref: str, country: str) -> dict[str, Any]:
    schemas = MessageSchemas(schema_dir)
    wf = "onboardingWorkflow"
    sent = {"userRef": user_ref, "country": country}
    validated: list[str] = []
    try:
        validated.append(schemas.check("onboarding", schemas.pointer("onboarding", wf, "input"), sent, "the input"))
    except MessageRejected as err:
        return refused(err)
    wid = workflow_id(schemas, "onboarding", wf, sent)
    client = await connect(env)
    # As workflows/onboarding/client.ts: one onboarding per user; only a failed one may run again.
    handle = await client.start_workflow(
        wf,
        sent,
        id=wid,
        task_queue=env.get("TEMPORAL_TASK_QUEUE", "payflows"),
        id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
        id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
    )
    answer = schemas.pointer("onboarding", wf, "queries", "state", "answer")
    deadline = time.monotonic() + 60
    while True:
        state = await handle.query("state")
        validated.append(schemas.check("onboarding", answer, state, "the state query's answer"))
        if state.get("stage") != "CREATING_USER" or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.5)
    return {
        "ok": True,
        "workflowId": wid,
        "runId": handle.result_run_id,
        "sent": sent,
        "state": state,
        "validated": sorted(set(validated)),
    }


async def kyc_value(env: dict[str, str], schema_dir: Path, account_id: str, field_id: str, value: str) -> dict[str, Any]:
    schemas = MessageSchemas(schema_dir)
    wf = "kycWorkflow"
    value = value.strip()
    if not value:
        return {"ok": False, "sent": False, "error": "a value is required on standard input"}
    codec_server, token = env.get("CODEC_SERVER_URL"), env.get("CODEC_SERVER_TOKEN")
    if not codec_server or not token:
        return {"ok": False, "sent": False, "error": "set CODEC_SERVER_URL and CODEC_SERVER_TOKEN: claims are stored through the codec server"}
    # Both connections' settings before the value is stored: one refused after it would leave a claim behind.
    try:
        codec_server, _ = check_codec_server_url(codec_server), temporal_connection(env)
    except SettingsError as err:
        return {"ok": False, "sent": False, "error": str(err)}
    wid = workflow_id(schemas, "kyc", wf, {"accountId": account_id})
    args = schemas.pointer("kyc", wf, "updates", "submitValue", "args", 0)
    answer = schemas.pointer("kyc", wf, "updates", "submitValue", "answer")
    # Checked before the value is stored: a submission the schema refuses leaves no claim behind
    # (there is no delete route; it would wait for the retention sweep). The placeholder has the
    # shape of the reference POST /claims answers, so only the field and the value's size decide.
    placeholder = {
        "ref": "local:" + "0" * 64,
        "size": max(len(value.encode("utf-8")), 1),
        "contentType": "text/plain; charset=utf-8",
        "sha256": "0" * 64,
        "keyed": True,
    }
    try:
        schemas.check("kyc", args, {"fieldId": field_id, "value": placeholder}, "the submitValue argument")
    except MessageRejected as err:
        return refused(err)
    try:
        ref = put_value(codec_server, token, value, subject=account_id)
    except ClaimRefused as err:
        return {"ok": False, "sent": False, "error": str(err)}
    submission = {"fieldId": field_id, "value": ref}
    validated: list[str] = []
    try:
        validated.append(schemas.check("kyc", args, submission, "the submitValue argument"))
    except MessageRejected as err:
        return {**refused(err), "claim": ref}
    client = await connect(env)
    try:
        field = await client.get_workflow_handle(wid).execute_update("submitValue", submission)
    except WorkflowUpdateFailedError as err:
        cause = err.cause
        return {
            "ok": False,
            "sent": True,
            "claim": ref,
            "failure": {
                "type": cause.type if isinstance(cause, ApplicationError) else type(cause).__name__,
                "message": str(cause),
                "details": list(cause.details) if isinstance(cause, ApplicationError) else [],
            },
        }
    validated.append(schemas.check("kyc", answer, field, "the submitValue answer"))
    return {"ok": True, "workflowId": wid, "claim": ref, "answer": field, "validated": validated}
