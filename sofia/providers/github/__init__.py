"""GitHub providers: CI runs, pull requests and branch cleanup, all read through the real `gh` CLI."""
