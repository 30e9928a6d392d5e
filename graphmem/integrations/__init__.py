"""Integrations with agent frameworks; each lives in its own module and imports its
framework only when used (``graphmem.integrations.langchain``). ``tools`` holds the
user-scoped memory tools they all expose."""
