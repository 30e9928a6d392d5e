"""Every use of a chat model goes through here: its name, the text of a reply, and asking
with bounded retries until the reply parses.

graphmem never needs a language model; where one is passed (``llm=``, any langchain-core
chat model) it adjudicates conflicts, summarises abstractions or extracts facts, and each
of those falls back to its rule-based path when the model fails. Three habits live here
once, so every use reads replies the same way and names the model the same way:

- ``model_name``: how a model is named in provenance and decisions (``decided_by``
  is ``llm/<name>``);
- ``reply_text``: the text of a reply, whether a string, a message, or a message whose
  content is a list of blocks (``[{"type": "text", "text": ...}]``);
- ``ask``: invoke, parse, retry a bounded number of times; the last error is raised so
  the caller can fall back and say why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tenacity import Retrying, stop_after_attempt, wait_fixed

T = TypeVar("T")


def model_name(llm: Any) -> str:
    """A readable name of a chat model, for provenance and decisions.

    >>> from langchain_core.language_models.fake_chat_models import FakeListChatModel
    >>> model_name(FakeListChatModel(responses=["hi"]))
    'fake-list-chat-model'
    """
    for attr in ("model_name", "model", "model_id"):
        value = getattr(llm, attr, None)
        if isinstance(value, str) and value:
            return value
    return str(getattr(llm, "_llm_type", type(llm).__name__))


def decided_by(llm: Any) -> str:
    """The ``decided_by`` of a decision a chat model made: ``llm/<name>``."""
    return f"llm/{model_name(llm)}"[:128]


def reply_text(reply: Any) -> str:
    """The text of a chat model's reply: a string, a message's content, or its text blocks.

    >>> from langchain_core.messages import AIMessage
    >>> blocks = [{"type": "text", "text": "A"}, {"type": "text", "text": "B"}]
    >>> reply_text(AIMessage(content=blocks))
    'AB'
    >>> reply_text("plain")
    'plain'
    """
    content = getattr(reply, "content", reply)
    if isinstance(content, list):
        return "".join(
            str(part.get("text", "")) if isinstance(part, dict) else str(part) for part in content
        )
    return str(content)


def ask(
    llm: Any,
    messages: Sequence[Any],
    parse: Callable[[str], T],
    *,
    attempts: int = 2,
    wait_s: float = 0.0,
) -> T:
    """Invoke ``llm`` and ``parse`` the reply's text, up to ``attempts`` times; the last
    error (the model's, or ``parse``'s) is raised.

    >>> from langchain_core.language_models.fake_chat_models import FakeListChatModel
    >>> ask(FakeListChatModel(responses=["nope", "42"]), ["how many?"], int)
    42
    """
    for attempt in Retrying(
        stop=stop_after_attempt(max(1, attempts)), wait=wait_fixed(wait_s), reraise=True
    ):
        with attempt:
            return parse(reply_text(llm.invoke(list(messages))))
    raise AssertionError("unreachable: Retrying re-raises the last error")


__all__ = ["ask", "decided_by", "model_name", "reply_text"]
