"""Shared plumbing for providers: running external programs safely, locating and driving ripgrep."""
