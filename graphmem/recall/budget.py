"""Token budgets for prompt context.

Tokens are estimated, not counted with a model's tokenizer (graphmem does not know
which model reads the context): ``max(ceil(chars / 4), ceil(words * 4 / 3))``. For
English both rules of thumb are slight overestimates for GPT/Llama-style BPE
tokenizers, so staying under the estimate keeps the real count under budget.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def estimate_tokens(text: str) -> int:
    """Estimated tokens of ``text`` (an upper bound for typical English).

    >>> estimate_tokens("Alice is allergic to peanuts")
    7
    >>> estimate_tokens("")
    0
    """
    if not text:
        return 0
    return max(math.ceil(len(text) / 4), math.ceil(len(text.split()) * 4 / 3))


def pack(lines: Iterable[str], budget: int, *, header: str = "") -> list[str]:
    """Take lines in order while the whole block (header + lines) stays within budget.

    A line that does not fit is skipped; a later, shorter one may still fit.

    >>> pack(["a" * 40, "b" * 400, "c" * 8], budget=14)
    ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'cccccccc']
    """
    taken: list[str] = []
    used = estimate_tokens(header)
    for line in lines:
        cost = estimate_tokens(line)
        if used + cost <= budget:
            taken.append(line)
            used += cost
    return taken
