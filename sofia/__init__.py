"""sofia: compact, structured, read-only workspace context for LLM coding agents."""

__version__ = "0.1.0"
