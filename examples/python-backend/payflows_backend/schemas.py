"""The processes' messages as JSON Schema (schemas/messages/<process>.json), checked with jsonschema.

Each file's x-payflows names, per workflow type, the $defs of its input, queries' answers, updates'
arguments and answers: a message is checked against the definition found there, so this code names
workflow types and message names, never a $defs name of its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource


class MessageRejected(Exception):
    """A message that does not match its schema: what, where in it, and why."""

    def __init__(self, what: str, definition: str, path: str, reason: str) -> None:
        super().__init__(f"{what} does not match {definition}: {path or '(the message)'}: {reason}")
        self.what, self.definition, self.path, self.reason = what, definition, path, reason


class MessageSchemas:
    def __init__(self, directory: Path) -> None:
        self._docs: dict[str, dict[str, Any]] = {}
        files = sorted(directory.glob("*.json"))
        if not files:
            raise FileNotFoundError(f"no message schemas in {directory}: run `npm run schemas` in the payflows repository")
        for file in files:
            self._docs[file.stem] = json.loads(file.read_text())
        self._registry = Registry().with_resources(
            (doc["$id"], Resource.from_contents(doc)) for doc in self._docs.values()
        )

    def workflow(self, process: str, workflow_type: str) -> dict[str, Any]:
        doc = self._docs.get(process)
        if doc is None:
            raise KeyError(f"no schema for process {process!r}; there are {sorted(self._docs)}")
        entry = doc.get("x-payflows", {}).get("workflows", {}).get(workflow_type)
        if entry is None:
            raise KeyError(f"{process}.json describes no workflow type {workflow_type!r}")
        return entry

    def pointer(self, process: str, workflow_type: str, *path: str | int) -> str:
        """The $defs pointer at `path` in the workflow's x-payflows entry, e.g. ("queries", "state", "answer")."""
        node: Any = self.workflow(process, workflow_type)
        for step in path:
            try:
                node = node[step]
            except (KeyError, IndexError) as err:
                raise KeyError(f"{process}.json: {workflow_type} has no {'/'.join(map(str, path))}") from err
        return node

    def check(self, process: str, pointer: str, instance: Any, what: str) -> str:
        """Checks `instance` against `pointer` (#/$defs/Name) of `process`.json; answers the definition's name."""
        definition = f"{process}.json{pointer}"
        validator = Draft202012Validator({"$ref": self._docs[process]["$id"] + pointer}, registry=self._registry)
        first = best_match(validator.iter_errors(instance))
        if first is not None:
            raise MessageRejected(what, definition, "/".join(map(str, first.absolute_path)), first.message)
        return pointer.rsplit("/", 1)[-1]
