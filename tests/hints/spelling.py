"""The command line's spelling of one command, for tests that compare an in-process result with
what `sf` prints."""

from __future__ import annotations

import argparse

from sofia.cli import arguments
from sofia.cli.spelling import CommandLine
from sofia.providers.registry import command_entries


def command_line(*path: str) -> CommandLine:
    """The spelling of `sf PATH...`, from the arguments its parser is built with (as `sf` builds them)."""
    entries = command_entries(path)
    assert entries, path
    parser = argparse.ArgumentParser()
    specs = arguments.add_model_arguments(parser, entries[0].cli_params)
    for mode in entries[1:]:
        specs += arguments.add_mode_arguments(parser, mode.cli_params, mode.mode_flag, specs)
    return CommandLine(specs)
