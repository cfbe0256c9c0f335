"""When `sf mcp` cannot start (a bad flag or setting in the client's configuration), the user
looks at the client, not at a log: the client gets the reason as a JSON-RPC error on its
`initialize` (and on any other request), and stderr gets it too. Plain stdlib: nothing heavy runs.
"""

from __future__ import annotations

import json
import os
import select
import sys
import time

SERVER_ERROR = -32000
"""JSON-RPC's range for implementation-defined server errors: the server could not start."""
WAIT_SECONDS = 10.0
"""How long to wait for the client's first request before giving up."""


def explain(message: str, wait: float = WAIT_SECONDS) -> None:
    """Answer every request arriving within `wait` seconds (or until `initialize` is answered)
    with an error carrying `message`; never blocks past `wait`."""
    fd = sys.stdin.fileno()
    text = (
        f"sf mcp could not start: {message}. Fix the command in this client's MCP configuration "
        "(sf init writes a working entry; sf init --check tests it)"
    )
    deadline = time.monotonic() + wait
    pending = b""
    while (left := deadline - time.monotonic()) > 0:
        try:
            ready, _, _ = select.select([fd], [], [], left)
        except (OSError, ValueError):
            return
        if not ready:
            return
        chunk = os.read(fd, 65536)
        if not chunk:
            return
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if _answer(line, text):
                return


def _answer(line: bytes, text: str) -> bool:
    """Answer one line if it is a request; True once `initialize` has had its answer."""
    try:
        request = json.loads(line)
    except ValueError:
        return False
    if not isinstance(request, dict) or "id" not in request:
        return False
    reply = {"jsonrpc": "2.0", "id": request["id"], "error": {"code": SERVER_ERROR, "message": text}}
    try:
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    except (OSError, ValueError):
        return True
    return request.get("method") == "initialize"
