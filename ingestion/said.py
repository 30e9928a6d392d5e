"""Turns kept as said: what no extraction rule reads is still memory.

An assistant's reply, a turn in a language ingestion has no rules for, a user's turn the
rules found no claim in: each becomes cards holding its own words, attributed to who
said them, with the turn as provenance. Nothing is paraphrased, so nothing is lost or
changed: a card's fact is a span of its turn (after "<speaker> said: " for anyone but
the user). Long turns are cut at sentence ends into pieces of at most ``MAX_PIECE``
characters, so a recommendation in the fourth paragraph is a fact of its own.

A sentence in a language whose module reads people (``Language.people_in``: Chinese
kinship words, "我妹妹小雨对花生过敏") is about the person it names, who is learnt with
the relationship, so "我妹妹对什么过敏？" finds it as "what is my sister allergic to?" would.
Sentences in a row about the same person are one piece ("京都我們訂機票了！11月18號出發"
names the trip the day is of), and a sentence that leans on the one before ("她从小就这样")
stays with it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from graphmem import lang
from graphmem.lang import Named
from ingestion import cues

T = TypeVar("T")

#: A piece of a long turn: a few sentences, up to this many characters.
MAX_PIECE = 400
#: A sentence shorter than this many characters is kept with the one after it.
MIN_SENTENCE = 6
#: Sentence ends: Latin punctuation before a space (not a list's "1. "), CJK
#: punctuation, line breaks.
_SENTENCE_END = re.compile(
    r"(?<=[.!?…])(?<!^\d\.)(?<!\s\d\.)(?<!\s\d\d\.)\s+|(?<=[。！？；;!?])|\n+"
)
_PHATIC_STRIP = re.compile(r"[\W_]+", re.UNICODE)
#: Said by anyone, these alone are no memory ("ok", "哈哈", "谢谢").
_SMALL_TALK_ZH = frozenset(
    "好的 好 嗯 嗯嗯 哈哈 哈哈哈 谢谢 謝謝 谢谢你 晚安 早安 早 拜拜 再见 再見 好吧 是的 对 對 "
    "没事 沒事 不客气 不客氣 你好 您好 在吗 在嗎 ok 好滴 收到".split()
)


#: Sentence-final particles that leave small talk small ("你好呀", "好的啦").
_PARTICLES = "呀啊吧呢哦嘛啦哈~"


@dataclass(frozen=True)
class Piece:
    """A span of a turn's text to keep: ``text == turn_text[start:end]``."""

    text: str
    start: int
    end: int


def is_small_talk(text: str) -> bool:
    """A turn that carries nothing to remember: greetings, thanks, laughter, "ok", emoji.

    >>> is_small_talk("Thanks!"), is_small_talk("哈哈哈"), is_small_talk("👍")
    (True, True, True)
    >>> is_small_talk("我搬家了")
    False
    """
    bare = _PHATIC_STRIP.sub(" ", text).strip().lower()
    if not bare:
        return True
    if bare.rstrip(_PARTICLES) in _SMALL_TALK_ZH or cues.normalise(text) in cues.SMALL_TALK:
        return True
    return all(w in cues.SMALL_TALK or w in _SMALL_TALK_ZH for w in bare.split())  # "haha ok"


def pieces(text: str, *, by_sentence: bool = False, leans_back: str = "") -> list[Piece]:
    """The turn cut into pieces at sentence ends: every sentence on its own when
    ``by_sentence``, else consecutive sentences joined up to ``MAX_PIECE`` characters.
    A sentence matching ``leans_back`` ("她从小就这样") is not a piece of its own: it
    stays with the sentence it speaks of. Small-talk sentences are left out; offsets
    are exact.

    >>> [p.text for p in pieces("我搬到深圳了！哈哈。你觉得呢？", by_sentence=True)]
    ['我搬到深圳了！', '你觉得呢？']
    >>> said = "小雨对芒果过敏。她从小就这样。"
    >>> [p.text for p in pieces(said, by_sentence=True, leans_back="^她")]
    ['小雨对芒果过敏。她从小就这样。']
    >>> t = "Try Monet. " * 60
    >>> [len(p.text) <= MAX_PIECE for p in pieces(t)] == [True] * len(pieces(t))
    True

    A sentence longer than a piece is cut into even parts, after a comma where one is
    near, so that no part is a stray tail ("... the healthy lunchbox thing hard."):

    >>> long = "so i need ideas, " + "the kids are fussy and " * 17 + "the school is strict."
    >>> [len(p.text) for p in pieces(long)]
    [213, 215]
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.end() > start:
            spans.append((start, m.start() if m.start() > start else m.end()))
        start = m.end()
    spans.append((start, len(text)))
    spans = [(s, e) for s, e in (_trimmed(text, s, e) for s, e in spans) if e > s]
    spans = [(s, e) for s, e in spans if not is_small_talk(text[s:e])]
    spans = _joined(spans, lambda last, _: last[1] - last[0] < MIN_SENTENCE)  # "还行吧。"

    def fits(last: tuple[int, int], span: tuple[int, int]) -> bool:
        return span[1] - last[0] <= MAX_PIECE

    if not by_sentence:
        spans = _joined(spans, fits)
    elif leans_back:
        leans = re.compile(leans_back)
        spans = _joined(
            spans, lambda last, span: fits(last, span) and bool(leans.match(text[slice(*span)]))
        )
    out: list[Piece] = []
    for s, e in spans:  # a sentence longer than a piece: cut into even parts (no tail of
        while e - s > MAX_PIECE:  # two words), after a comma, else at a space, else anywhere
            size = math.ceil((e - s) / math.ceil((e - s) / MAX_PIECE))
            cut = text.rfind(", ", s + size // 2, s + size) + 1
            cut = cut if cut > s else text.rfind(" ", s + size // 2, s + size)
            cut = cut if cut > s else s + size
            out.append(Piece(text[s:cut].strip(), *_trimmed(text, s, cut)))
            s = _trimmed(text, cut, e)[0]
        if e > s:
            out.append(Piece(text[s:e], s, e))
    return out


def _joined(
    spans: list[tuple[int, int]], joins: Callable[[tuple[int, int], tuple[int, int]], bool]
) -> list[tuple[int, int]]:
    """Consecutive spans merged where ``joins(the piece so far, the next span)``: a
    sentence too short to say anything, one that leans on the one before, or one that
    still fits the piece."""
    out: list[tuple[int, int]] = []
    for span in spans:
        if out and joins(out[-1], span):
            out[-1] = (out[-1][0], span[1])
        else:
            out.append(span)
    return out


def joined_while_about(text: str, said_of: list[tuple[Piece, T]]) -> list[tuple[Piece, T]]:
    """Consecutive pieces about the same one joined, up to ``MAX_PIECE`` characters:
    "然後京都我們訂機票了！11月18號出發" is one claim of the user's, not two fragments.

    >>> t = "我去買筆記本。京都我們訂機票了！小雨对花生过敏。"
    >>> said_of = list(zip(pieces(t, by_sentence=True), ["me", "me", "Yu"]))
    >>> [(p.text, who) for p, who in joined_while_about(t, said_of)]
    [('我去買筆記本。京都我們訂機票了！', 'me'), ('小雨对花生过敏。', 'Yu')]
    """
    out: list[tuple[Piece, T]] = []
    for piece, who in said_of:
        if out and who == out[-1][1] and piece.end - out[-1][0].start <= MAX_PIECE:
            start = out[-1][0].start
            out[-1] = (Piece(text[start : piece.end], start, piece.end), who)
        else:
            out.append((piece, who))
    return out


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def people_in(text: str, code: str, before: str = "") -> list[Named]:
    """The people a sentence in language ``code`` names by relationship (its module's
    ``people_in``; none for a language without one); ``before``: the turn's text before
    the sentence ("我們收養了一隻狗！！" before "叫可樂" names a dog)."""
    known = lang.language(code)
    return known.people_in(text, before) if known is not None and known.people_in else []


def names_in(text: str, code: str) -> tuple[list[str], list[str]]:
    """The names a sentence in language ``code`` gives as the user's own, and the names it
    says with no relationship word (its module's ``names_in``; none for a language
    without one)."""
    known = lang.language(code)
    return known.names_in(text) if known is not None and known.names_in else ([], [])
