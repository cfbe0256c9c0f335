"""A provider module that prints to stdout when imported (a badly behaved dependency), through a
buffered `print`, `os.write(1, ...)` and a child process: none of it may reach the protocol stream."""

from __future__ import annotations

import os
import subprocess
from typing import Any

from pydantic import BaseModel, ConfigDict

from sofia.providers.contract import Context, Implementation

print("noisy import via print")
os.write(1, b"noisy import via os.write\n")
subprocess.run(["sh", "-c", "echo noisy import via a subprocess"], stdin=subprocess.DEVNULL, check=False)


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")


def run(params: Params, ctx: Context) -> dict[str, Any]:
    return {"quiet": True}


IMPLEMENTATION = Implementation(params=Params, run=run)
