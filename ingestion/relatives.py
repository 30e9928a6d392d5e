"""People named with their relationship, read from spaCy's tokens rather than capitals.

People type to an assistant in lower case ("my gf riley", "our dog rusty", "my new
manager started, olga", "haggis is my cat"), where a pattern that wants a capital finds
no name. Here a relationship noun owned by "my"/"our" is found by its words (the
vocabulary is data: ``graphmem.relationships.WORDS``, ``cues.PETS``, ``cues.SPELLED_OUT``),
and the name is the token the parse attaches to it or that follows it: an apposition, the
subject of "<name> is my <word>", the word after "named"/"called", or a name typed right
after the noun. A candidate is a name when it is a word (letters) the parse does not read
as a function word, a date or a number, and that no word list knows as something else.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphmem import lang
from graphmem.lang import hi, latin, tl
from graphmem.relationships import HONORIFICS, KIN_TITLES, TITLES, TITLES_AFTER, partner_word
from ingestion import cues
from ingestion.casing import well_cased
from ingestion.lexicon import is_word

if TYPE_CHECKING:
    from collections.abc import Callable

    from spacy.tokens import Doc, Span, Token

#: Function words and chat fillers, never a name ("everybody", "lol").
_NO_NAME_WORDS = cues.CHAT_FILLERS | cues.NAME_STOP_WORDS
#: Parts of speech a name is never tagged as, even in lower-case chat.
_NOT_NAME_POS = frozenset(
    {"AUX", "ADP", "PART", "CCONJ", "SCONJ", "DET", "PRON", "NUM", "PUNCT", "SYM", "SPACE"}
)
#: Entity labels that say a word is no one's name.
_NOT_NAME_ENTS = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "QUANTITY", "PERCENT"})
_OWNERS = cues.OWNERS
#: Words that name someone as they are introduced: "a beagle named penny".
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
#: Subjects that are the user: "i", "we", and chat's "me" in a pair ("me and rhonda got a
#: house in canyon"), which never stands as a subject otherwise.
USER_SUBJECTS = frozenset({"i", "we", "me"})
_NAMING = frozenset({"named", "called", "name", "nicknamed"})
#: Months that are given names too, read as names where only a name goes ("we named her
#: june"), though the tagger reads a date.
_MONTHS_AS_NAMES = frozenset({"april", "may", "june", "august"})


#: Relationship nouns written with hyphens ("sister-in-law", "co-worker"): one token
#: each (``ingestion.extract.load_nlp``); typed with spaces, the words of one phrase.
HYPHENATED = frozenset(w for w in cues.RELATIONSHIPS | frozenset(cues.SPELLED_OUT) if "-" in w)
_SPACED = {w.replace("-", " "): w for w in HYPHENATED}


@dataclass(frozen=True)
class Named:
    """A name said with a relationship (or a pet's kind): ``how`` says which reading."""

    name: str
    relationship: str
    pet: bool
    start: int  # character offsets of the whole phrase
    end: int
    how: str  # "after" (my sister rachel), "appos" (olga, my manager), "is" (x is my cat),
    # "as" (got okonkwo as my new advisor)


def spelled_out(word: str) -> str:
    """A relationship word as stored: chat shorthand spelled out ("gf" -> "girlfriend"),
    the user's own word otherwise.

    >>> spelled_out("GF"), spelled_out("best mate"), spelled_out("sister")
    ('girlfriend', 'best friend', 'sister')
    """
    low = " ".join(word.lower().split())
    return cues.SPELLED_OUT.get(low) or _SPACED.get(low) or _mixed().get(low, low)


@functools.cache
def _mixed() -> dict[str, str]:
    """Relationship words of the languages people mix into English ("my suegra", "mi
    hija sofia", "my oma"), each with its English reading (``Language.relationships``):
    family words, where the language has possessives; its work words ("colega", "amie")
    name someone only after its own possessive, and "Amie" is a name in English."""
    return {
        word: english
        for language in lang.languages()
        if language.mixed_with_english
        for word, english in language.relationships.items()
        if word not in cues.RELATIONSHIPS and word not in cues.SPELLED_OUT
        if english in lang.FAMILY or not language.possessives
    }


@functools.cache
def _words() -> frozenset[str]:
    return (
        cues.RELATIONSHIPS | frozenset(cues.SPELLED_OUT) | frozenset(_SPACED) | frozenset(_mixed())
    )


def _compound(phrase: str) -> str | None:
    """A relationship word typed open or with a hyphen ("step mom", "god-mother": the
    stepmom, the godmother), or one that ended, said with "ex" ("ex-wife", "ex wife"):
    the word as stored; None for any other phrase."""
    closed = phrase.replace("-", "").replace(" ", "")
    if closed in _words() and " " not in spelled_out(closed):
        return closed
    head, _, rest = phrase.replace("-", " ").partition(" ")
    if head == "ex" and rest in _words() and rest not in _OWNERS:
        return f"ex-{spelled_out(rest)}"
    return None


def _longer_ahead(tokens: Doc, start: int, i: int) -> bool:
    """Whether the phrase ending at ``i`` goes on as a longer one ("my sister in law":
    at "sister", the sister-in-law is still to come; "my head chef": not a head)."""
    for ahead in (2, 1):
        if i + ahead < len(tokens):
            longer = " ".join(t.lower_ for t in tokens[start : i + ahead + 1])
            if longer in _SPACED or longer in _words():
                return True
    return False


@functools.cache
def _slipped_from() -> list[str]:
    """The words a slip is read as one of: English relationship words of five letters
    or more (not a mixed language's, not one typed with spaces)."""
    english = cues.RELATIONSHIPS | frozenset(cues.SPELLED_OUT)
    return sorted(w for w in english if len(w) >= 5)


@functools.lru_cache(maxsize=8192)
def _typo(word: str) -> str | None:
    """A relationship word typed with one slip ("frriend", "brohter"): long words only,
    so no short word is read as another, and no word the dictionary knows ("my midlife
    crisis" is no midwife's)."""
    if len(word) < 5 or not word.isalpha() or is_word(word):
        return None
    close = difflib.get_close_matches(word, _slipped_from(), 1, 0.85)
    if not close or word in {close[0] + "s", close[0] + "es"}:
        return None  # "my friends, family and mentors": a plural, no slip
    return close[0]


#: owners that make a bracketed relationship someone else's ("emeka (her fiance)"), or
#: a first day at work ("her first week at google")
THEIRS = frozenset({"her", "his", "their"})


def parenthesised(doc: Doc) -> list[Named]:
    """ "austin (coworker, not the city lol)", "riya (choti behen)", "paolo (bf ko, 4 yrs
    na kami)": a name with its relationship in brackets, among their first words. "mr
    adebayo (the partner, my boss)" is the user's boss; "emeka (her fiance)" is someone
    else's, and no relationship of the user's.

    >>> from ingestion.extract import load_nlp
    >>> [(n.name, n.relationship) for n in parenthesised(load_nlp()(
    ...     "mr adebayo (the partner, my boss) no dey rate anybody. emeka (her fiance) came"))]
    [('Adebayo', 'boss')]

    Read once per doc (kept in ``doc.user_data``): ``find`` and the extractor both ask.
    """
    cached = doc.user_data.get("relatives.parenthesised")
    if cached is None:
        cached = doc.user_data["relatives.parenthesised"] = _parenthesised(doc)
    return list(cached)


def _parenthesised(doc: Doc) -> list[Named]:
    out: list[Named] = []
    words = [t.lower_ for t in doc]
    for token in doc:
        if token.text != "(" or token.i == 0 or token.i + 1 >= len(doc):
            continue
        name = doc[token.i - 1]
        if name.lower_ in cues.OWNERS_AFTER and token.i > 1:
            name = doc[token.i - 2]  # "si ma'am tess namin (head nurse)"
        if not name_token(name) or name.lower_ in _words():
            continue
        inside = range(token.i + 1, min(token.i + 4, len(doc)))
        closing = next((k for k in inside if doc[k].text in {")", ","}), inside.stop)
        bracket = range(token.i + 1, min(token.i + 8, len(doc)))
        shut = next((k for k in bracket if doc[k].text == ")"), bracket.stop)
        mine = next(  # "(the partner, my boss)": the word after "my" says who to the user
            (k + 1 for k in range(token.i + 1, shut - 1) if words[k] in _OWNERS - {"me"}),
            None,
        )
        found = None
        if mine is not None and mine > token.i + 1 and words[mine] in _words():
            found, closing = (mine, words[mine]), token.i + 1
        elif mine is not None and _said_to_me(doc[mine:shut]):
            found, closing = (shut - 1, doc[mine:shut].text.lower()), token.i + 1
        for k in range(token.i + 1, closing):
            if words[k] in THEIRS or doc[k].tag_ == "POS":
                break  # "(her fiance)", "(kayla's sister)": another's
            if k + 1 < closing and f"{words[k]} {words[k + 1]}" in _words():
                found = (k + 1, f"{words[k]} {words[k + 1]}")  # "(head nurse)"
                break
            if words[k] in _words():
                found = (k, words[k])
                break
        if found is None:
            continue
        end = doc[found[0]]
        out.append(
            Named(
                _capitalised(name.text),
                spelled_out(found[1]),
                False,
                name.idx,
                end.idx + len(end),
                "appos",
            )
        )
    return out


def _said_to_me(words: Span) -> bool:
    """A role closing a bracket after "my", whatever its words: "gaz (my station
    officer)", "memphis (our drummer)", "chotu (mera helper)": one or two nouns, no
    pet, no function word."""
    return (
        0 < len(words) <= 2
        and all(t.is_alpha and t.pos_ in {"NOUN", "PROPN"} and not t.is_stop for t in words)
        and not is_pet_word(words[-1].lower_)
        and words[-1].lower_ not in cues.PERSONAL_NOUNS
    )


def relationship_phrase(tokens: Doc, i: int) -> tuple[int, str, bool] | None:
    """The relationship (or pet) phrase ending at token ``i`` and owned by my/our:
    (index of its first token, the word as stored, whether it is a pet)."""
    if _birth_order(tokens, i):
        return i, "child", False
    for width in (3, 2, 1):
        start = i - width + 1
        if start < 0:
            continue
        phrase = " ".join(t.lower_ for t in tokens[start : i + 1])
        phrase = phrase.replace(" - ", "-")
        pet = is_pet_word(phrase)
        if not pet and phrase not in _words():
            typed = _compound(phrase) if width > 1 else _typo(phrase)
            if typed is None:
                continue
            phrase = typed  # "my frriend nadia", "my step mom linda", "my ex-wife leanne"
        if tokens[start].lower_ in _OWNERS:
            continue  # "our neighbour" is listed whole: the noun alone is read below
        if _longer_ahead(tokens, start, i):
            return None
        if not pet and (
            (i + 1 < len(tokens) and tokens[i + 1].lower_ in cues.OWNERS_AFTER)
            or (  # an honorific before a name ("si kuya marco"), not "si mama" said alone
                start > 0
                and tokens[start - 1].lower_ in cues.NAME_MARKERS
                and phrase not in cues.KIN_NAMES
            )
        ):
            return start, spelled_out(phrase), False  # "ate ko si joy", "si kuya marco"
        if phrase in cues.SELF_OWNED:  # "the missus (barb)": no "my" needed
            return start, spelled_out(phrase), False
        if not pet and _of_mine(tokens, i):  # "buddy of mine big lou"
            return start, spelled_out(phrase), False
        if (  # "wife is funke btw", "coworker phoenix has been covering": chat drops
            not pet  # the "my" before who someone is, at the start of a sentence
            and tokens[start].is_sent_start
            and i + 1 < len(tokens)
            and (
                tokens[i + 1].lemma_ == "be"
                or tokens[i + 1].text == "("  # "mama (darlene) is worried sick"
                or (  # a name, then an English verb form ("has", "will")
                    tokens[i + 1].pos_ == "PROPN"
                    and tokens[i + 1].dep_ in _SUBJECT_DEPS
                    and i + 2 < len(tokens)
                    and tokens[i + 2].tag_ in {"VBZ", "MD"}
                )
            )
        ):
            return start, spelled_out(phrase), False
        j = start - 1  # "my new manager", "our wee brother", "my best mate"
        while j >= 0 and j >= start - 3 and tokens[j].lower_ not in _OWNERS:
            t = tokens[j]
            if t.pos_ not in {"ADJ", "ADV"} and t.lower_ not in cues.RELATIONSHIP_MODIFIERS:
                break
            j -= 1
        if j < 0 or tokens[j].lower_ not in _OWNERS:
            continue
        if tokens[j].lower_ == "me" and j > 0 and tokens[j - 1].lemma_.lower() in cues.GIVING:
            continue  # "made me gf flashcards": "me" given to, not "me mam" ("rang me mam")
        word = cues.PET_KINDS.get(phrase, phrase) if pet else spelled_out(phrase)
        return start, word, pet
    return None


def _of_mine(tokens: Doc, i: int) -> bool:
    """Whether "of mine" (or "of ours") follows token ``i``: "a buddy of mine, lou"."""
    return (
        i + 2 < len(tokens)
        and tokens[i + 1].lower_ == "of"
        and tokens[i + 2].lower_ in {"mine", "ours"}
    )


def _birth_order(tokens: Doc, i: int) -> bool:
    """A child named by birth order, right after my / our: "our first is daniel", "my
    youngest, leo", "my eldest maya" (``cues.BIRTH_ORDER``); "my first car" is a car."""
    token = tokens[i]
    if i == 0 or tokens[i - 1].lower_ not in _OWNERS:
        return False
    if token.lower_ in cues.BIRTH_ORDER_BEFORE_NAME:
        return token.dep_ != "amod" or token.head.pos_ == "PROPN"
    return token.lower_ in cues.BIRTH_ORDER and token.dep_ != "amod"


def name_token(token: Token) -> bool:
    """Whether a token can be a person's (or a pet's) name as typed in chat: letters,
    not a function word, a filler, a date or a number (a word spaCy read as a place is a
    name where only a name goes: "my labmate dallas")."""
    text = token.text
    if not _lettered(text) or len(text) < 2 or token.pos_ in _NOT_NAME_POS:
        return False
    if len(text) > 2 and text.isupper():
        return False  # "LOL", shouted
    if token.is_lower and _well_cased(token.doc):
        return False  # a writer who capitalises names wrote this one in lower case: a word
    if _known_other(token.lower_):
        return False
    if token.ent_type_ in _NOT_NAME_ENTS:
        return False
    if token.pos_ == "VERB" and token.ent_type_ != "PERSON":
        return False
    if token.is_lower and _typed_verb(token.lower_):
        return False  # "she's comin", "begum kehti hai": no one called Comin or Kehti
    return token.pos_ != "ADV"


def _typed_verb(low: str) -> bool:
    """A verb as chat types it: without its g ("stressin") or a romanised Hindi or Urdu
    participle ("kehti")."""
    return _g_dropped(low) or low in hi.PARTICIPLES


def _g_dropped(low: str) -> bool:
    """A verb typed without its final g ("stressin", "workin"): the word with it is an
    English word. No name is ("kevin", "austin", "erin" give no word).

    >>> _g_dropped("stressin"), _g_dropped("comin"), _g_dropped("kevin"), _g_dropped("austin")
    (True, True, False, False)
    """
    if not low.endswith("in") or len(low) < 5:
        return False
    return is_word(low + "g") or (len(low) >= 7 and is_word(low[:-2]))  # "stress", not "just"


def _known_other(low: str) -> bool:
    """A word some list knows as something other than a name (a function word, a
    relationship, a pet word, a filler, a title)."""
    return (
        low in cues.NAME_STOP_WORDS
        or low in cues.RELATIONSHIPS
        or low in cues.SPELLED_OUT
        or low in cues.PETS
        or low in cues.LEADING_FILLERS
        or low in cues.NOT_PEOPLE
        or low in cues.CHAT_FILLERS
        or low in TITLES
        or low in latin.words_of_no_name()
    )


def _unknown_word(token: Token) -> bool:
    """A word no dictionary and no list of function words knows ("segun"): where only a
    name goes ("my cousin segun just left"), a name, whatever the tagger made of it (an
    auxiliary, a verb: it never saw the name)."""
    text = token.text
    return (
        _lettered(text)
        and len(text) > 2
        and not token.is_stop
        and not (token.is_lower and _well_cased(token.doc))
        and not _known_other(token.lower_)
        and token.ent_type_ not in _NOT_NAME_ENTS
        and not (is_word(text) or is_word(token.lemma_))
        and not any(  # "texted": a verb form of a word the dictionary has
            text.lower().endswith(end) and is_word(text[: -len(end)] + back)
            for end, back in (("ed", ""), ("d", ""), ("ing", ""), ("ing", "e"))
        )
    )


#: A French or Italian word elided before a vowel ("m'a", "l'hôpital", "qu'il"), not
#: a name with an apostrophe in it ("o'neill", "D'Angelo").
_ELIDED = re.compile(r"^(?:[cdjlmnstCDJLMNST]|[qQ]u)['’](?![A-Z])")


def _lettered(text: str) -> bool:
    """Letters, and an apostrophe inside a name ("za'atar", "o'neill"), in a script
    with spaces: in "boss david 成日 last minute call meeting" the Chinese word (成日,
    "always") is read by the Chinese readers, and is no part of a name here."""
    inner = text[1:-1].replace("'", "").replace("’", "")
    return (
        not _ELIDED.match(text)
        and text[:1].isalpha()
        and text[-1:].isalpha()
        and (inner.isalpha() or not inner)
        and not lang.script_without_spaces(text)
    )


def _well_cased(doc: Doc) -> bool:
    """Whether the turn's writer capitalises sentence starts (then names too)."""
    cased = doc.user_data.get("well_cased")
    if cased is None:
        cased = doc.user_data["well_cased"] = well_cased(doc.text)
    return bool(cased)


def _name_at(doc: Doc, i: int, slot: bool = False) -> tuple[str, int] | None:
    """The name starting at token ``i`` (a title skipped): (name, index after it), one
    word or words typed with hyphens ("min-ji"); the word after it is left out (joined
    where the parse links them, "kunal canada" was a name). In a ``slot`` where only a
    name goes ("my little brother sho"), a word the tagger took for a bare verb is a
    name too."""
    title = None
    if i < len(doc) and doc[i].lower_.rstrip(".") in TITLES:
        title = doc[i].text.rstrip(".")
        i += 1
        if i < len(doc) and doc[i].text == ".":
            i += 1
    if i >= len(doc) or not (
        name_token(doc[i])
        or (
            slot
            and (
                _bare_verb_name(doc[i])
                or _unknown_word(doc[i])
                or doc[i].lower_ in _MONTHS_AS_NAMES
            )
        )
    ):
        return None
    if doc[i].is_lower and _g_dropped(doc[i].lower_):
        return None  # "mum is stressin": a verb typed without its g, in any slot
    end = i + 1
    while (  # "min-ji": a name typed with a hyphen is one name
        end + 1 < len(doc)
        and doc[end].text == "-"
        and not doc[end - 1].whitespace_
        and not doc[end].whitespace_
        and doc[end + 1].is_alpha
    ):
        end += 2
    if end == i + 1 and _surname(doc, i):
        end += 1
    name = " ".join(t.text for t in doc[i:end]).replace(" - ", "-")
    given = _given_after(doc, end) if title is not None and end - i == 1 else None
    if given is not None:  # "mrs whitfield, gemma, seems lovely": Gemma Whitfield
        return f"{given} {name}", end
    if title is not None and end - i == 1:  # "mr pryce": the name the user knows him by
        name = f"{title} {name}"
    return name, end


def _given_after(doc: Doc, at: int) -> str | None:
    """A given name set off by commas right after a titled surname ("mrs whitfield,
    gemma, seems lovely"), not one of a list ("mr pryce, sarah, and tom")."""
    if at + 3 >= len(doc) or doc[at].text != "," or doc[at + 2].text != ",":
        return None
    given, after = doc[at + 1], doc[at + 3]
    set_off = (  # the parse sets it beside the surname: "gemma" is a word, and her name
        given.dep_ == "appos"
        and given.head.i == at - 1
        and given.is_alpha
        and given.lower_ not in _words() | cues.PERSON_NOUNS | cues.NAME_STOP_WORDS
    )
    if not set_off and not (name_token(given) and _evidenced(given)):
        return None
    if after.pos_ in {"CCONJ", "PROPN"} or (name_token(after) and _evidenced(after)):
        return None
    return _capitalised(given.text)


def _surname(doc: Doc, i: int) -> bool:
    """Whether the word after the name at ``i`` is its surname: of the same person
    entity ("Sneha Iyer"), or, typed in lower case, a word no dictionary knows after a
    name typed so too ("ab mera manager sneha iyer hai"); "rachel smith" stays Rachel,
    "kunal canada" Kunal."""
    if i + 1 >= len(doc) or not doc[i].whitespace_:
        return False
    first, after = doc[i], doc[i + 1]
    if after.ent_type_ == "PERSON" and after.ent_iob_ == "I" and first.ent_type_ == "PERSON":
        return after.text[:1].isupper()
    return (
        first.is_lower
        and after.is_lower
        and after.is_alpha  # "segun japa'd": a verb the writer made up
        and _unknown_word(after)
        and _unknown_word(first)
    )


def _bare_verb_name(token: Token) -> bool:
    """An unknown lower-case name the tagger read as a bare verb ("sho"): no verb form
    it would have as a verb (no -ed, -ing, -s), no word the lists know."""
    if token.pos_ != "VERB" or token.tag_ not in {"VB", "VBP"} or not token.is_alpha:
        return False
    if any(
        c.dep_ in {"dobj", "prep", "xcomp", "ccomp", "prt", "aux", "neg"} for c in token.children
    ):
        return False  # "my boss hate me": a verb with what it does
    low = token.lower_
    return low == token.lemma_.lower() and not (
        low in cues.NAME_STOP_WORDS or low in cues.CHAT_FILLERS or low in _words()
    )


def _capitalised(name: str) -> str:
    words = name.split()
    return " ".join(w if any(c.isupper() for c in w) else w[:1].upper() + w[1:] for w in words)


def find(doc: Doc) -> list[Named]:
    """People and pets a turn names with their relationship to the speaker, in order.

    Names come back capitalised as a name is written ("rachel" -> "Rachel"). Read once
    per doc (kept in ``doc.user_data``): several readers ask.
    """
    cached = doc.user_data.get("relatives.find")
    if cached is None:
        found = _find(doc)
        found += [n for n in own_group(doc) if n.name not in {f.name for f in found}]
        taken = {w for n in found for w in n.name.casefold().split()}
        taken |= {w for n in parenthesised(doc) for w in n.name.casefold().split()}
        found += [n for n in linked(doc) if not set(n.name.casefold().split()) & taken]
        found = [n for n in found if not _of_no_one(doc, n) and not _verb_as_typed(doc, n)]
        cached = doc.user_data["relatives.find"] = found
    return list(cached)


#: Relationship words that are someone's only with an owner before them: alone, "ex" is
#: where one worked ("ex crestline", "ex-google") and "oga" a title ("passengers call me
#: 'oga emeka'"), where "my ex jake" and "my oga mr okafor" are the user's people.
_OWNED_ONLY = frozenset({"ex", "oga"})


def _verb_as_typed(doc: Doc, named: Named) -> bool:
    """A one-word name typed in lower case that is a verb as chat types it: "mum is
    stressin" names no Stressin, "begum kehti hai" no Kehti."""
    low = named.name.lower()
    return " " not in low and low in doc.text[named.start : named.end] and _typed_verb(low)


def _of_no_one(doc: Doc, named: Named) -> bool:
    """A name after one of ``_OWNED_ONLY`` with no one's before it: no relative."""
    owners = _OWNERS | _THEIR | {"your", "ur"}
    words = doc.text[named.start : named.end].lower().split()
    if named.how != "after" or not words or words[0] in owners:
        return False
    if words[0] not in _OWNED_ONLY and not words[0].startswith("ex-"):
        return False
    before = doc.text[: named.start].lower().split()[-1:]
    return not (before and before[0] in owners)


def own_group(doc: Doc) -> list[Named]:
    """The user's own people named after a group noun ("my kids ella and sam", "my
    twins ollie and rosie", "our parents, sue and graham"): each has the group's
    relationship (``cues.GROUPS``); two names at least, each with evidence it is one."""
    out: list[Named] = []
    for rel in doc:
        relation = cues.GROUPS.get(rel.lower_) if rel.tag_ in {"NNS", "NNPS"} else None
        if relation is None or rel.i == 0 or doc[rel.i - 1].lower_ not in _OWNERS:
            continue
        k = rel.i + 2 if rel.i + 1 < len(doc) and doc[rel.i + 1].text == "," else rel.i + 1
        token: Token | None = doc[k] if k < len(doc) else None
        names: list[Token] = []
        while token is not None and (token.pos_ == "PROPN" or _evidenced(token)):
            linked = token.head.i == rel.i or rel.head.i == token.i
            if not (linked or (names and token.dep_ == "conj")) or not name_token(token):
                break
            names.append(token)
            token = next((c for c in token.children if c.dep_ == "conj"), None)
        if len(names) < 2:
            continue
        for name in names:
            out.append(
                Named(
                    _capitalised(name.text),
                    relation,
                    False,
                    doc[rel.i - 1].idx,
                    name.idx + len(name),
                    "appos",
                )
            )
    return out


def _find(doc: Doc) -> list[Named]:
    found: list[Named] = []
    taken: set[int] = set()
    for token in doc:
        phrase = relationship_phrase(doc, token.i)
        if phrase is None:
            continue
        start, word, pet = phrase
        owner = start - 1
        while owner >= 0 and doc[owner].lower_ not in _OWNERS:
            owner -= 1
        owner = max(owner, start - 1)  # a self-owned phrase starts with its owner word
        head = doc[start] if token.i in {t.i for t in doc[start].subtree} else token
        named = _after(doc, token) or _before(doc, head, owner, pet)  # "sister in law"
        if named is None:
            continue
        name, lo, hi, how = named
        if any(k in taken for k in range(lo, hi)):
            continue
        taken.update(range(lo, hi))
        span_lo, span_hi = min(lo, owner), max(hi, token.i + 1)
        found.append(
            Named(
                _capitalised(name),
                word,
                pet,
                doc[span_lo].idx,
                doc[span_hi - 1].idx + len(doc[span_hi - 1]),
                how,
            )
        )
    return found


def _after(doc: Doc, rel: Token) -> tuple[str, int, int, str] | None:
    """ "my sister rachel", "my boss, priya", "my new TA is called sydney", "my manager
    is gonna be someone named priyanka": the name after the relationship noun (not the
    verb it is the subject of: "my mum screamed")."""
    i = rel.i
    j = i + 1
    if _of_mine(doc, i):  # "buddy of mine big lou": a name, with evidence, after "mine"
        k = i + 4 if i + 3 < len(doc) and doc[i + 3].text == "," else i + 3
        got = _name_at(doc, k) if k < len(doc) and _evidenced(doc[k]) else None
        return (got[0], k, got[1], "after") if got is not None else None
    if j < len(doc) and doc[j].lower_ in cues.OWNERS_AFTER:
        j += 1  # "ate ko si joy"
    if j + 1 < len(doc) and doc[j].lower_ == "na" and doc[j + 1].lower_ not in tl.NOT_NAMES:
        j += 1  # Pidgin's "is": "my boss na mrs okonkwo"
    if j < len(doc) and doc[j].lower_ in cues.NAME_MARKERS:
        j += 1
    if j < len(doc) and doc[j].text == ",":
        j += 1
    if j < len(doc) and doc[j].text in {"(", "-", "–"}:
        j += 1
    got = _name_at(doc, j, slot=j == i + 1)
    said_of = rel.dep_ in {"nsubj", "nsubjpass"} and rel.head.i == j  # "my mum screamed"
    if got is not None and (not said_of or doc[j].pos_ == "PROPN" or _unknown_word(doc[j])):
        return got[0], j, got[1], "after"
    # "my regional manager is mr danjuma now": the name the noun is said to be
    if rel.dep_ == "nsubj" and rel.head.lemma_ == "be" and rel.head.i == j:
        negated = any(c.dep_ == "neg" for c in rel.head.children)
        got = _name_at(doc, j + 1)
        said = doc[j + 1] if j + 1 < len(doc) else None  # "is due", "is sick": no names
        if got is not None and not negated and said is not None and _evidenced(said):
            return got[0], j + 1, got[1], "is"
    # "my new manager started, olga": a verb or two, then the name after a comma
    k = i + 1
    while k < len(doc) and k <= i + 3 and doc[k].pos_ in {"VERB", "AUX", "ADV"}:
        k += 1
    if i + 1 < k < len(doc) - 1 and doc[k].text == ",":
        got = _name_at(doc, k + 1)
        if got is not None and doc[k + 1].dep_ not in _SUBJECT_DEPS:
            return got[0], k + 1, got[1], "after"
    # "... is called sydney", "... is someone named priyanka": naming within 6 words
    for k in range(i + 1, min(i + 8, len(doc) - 1)):
        if doc[k].lower_ in {".", "!", "?", ";"}:
            break
        if doc[k].lower_ in _NAMING and doc[k].lower_ != "name" and _names_rel(doc[k], rel):
            named = _name_called(doc, k)
            if named is not None:
                return named[0], k + 1, named[1], "after"
    return None


#: Words of when something was said between a name and its apposition ("dr nguyen
#: yesterday, my cardiologist"), whatever entity the parse makes them part of.
_TIME_WORDS = frozenset({"yesterday", "today", "tonight", "tomorrow", "earlier", "recently"})


def _names_rel(naming: Token, rel: Token) -> bool:
    """Whether "named"/"called" names the relationship noun: said of it ("my new TA is
    called sydney"), or of the someone it is said to be ("my manager is gonna be someone
    named priyanka"), not of whom it does something to ("my sister is dating a guy named
    rob": Rob is no sister)."""
    if naming.head.i == rel.i:
        return True
    verb = naming.head.head if naming.head.dep_ in {"attr", "oprd"} else naming
    while not any(c.dep_ in _SUBJECT_DEPS for c in verb.children) and verb.dep_ == "xcomp":
        verb = verb.head  # "is gonna be": the subject is the going's
    return any(c.i == rel.i for c in verb.children if c.dep_ in _SUBJECT_DEPS)


def _before(doc: Doc, rel: Token, owner: int, pet: bool) -> tuple[str, int, int, str] | None:
    """ "olga, my new manager", "marmalade our cat", "haggis is my cat": the name the
    relationship noun is in apposition to, or the subject it is said of."""
    head = rel.head
    if (
        rel.dep_ == "appos"
        and head.i < owner
        and name_token(head)
        and head.tag_ != "NNS"  # "her students, my mama": no name, someone's people
        and not any(c.dep_ in {"poss", "det"} for c in head.children)
    ):
        return head.text, head.i, head.i + 1, "appos"
    after = doc[rel.i + 1] if rel.i + 1 < len(doc) else None
    if after is not None and after.lower_ in cues.COPULAS_AFTER and owner >= 1 and not pet:
        name = doc[owner - 1]  # "ab ananya meri wife hai": the name, the owner, the noun, "is"
        if doc[owner].lower_ in _OWNERS and (name_token(name) or _unknown_word(name)):
            return name.text, name.i, name.i + 1, "is"
    negated = any(c.dep_ == "neg" or c.lower_ in {"longer", "anymore"} for c in head.subtree)
    if rel.dep_ == "attr" and head.lemma_ == "be" and not negated:
        subject = next((c for c in head.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
        if subject is not None and name_token(subject):
            return subject.text, subject.i, subject.i + 1, "is"
    at = rel.left_edge.i - 1  # before "my new advisor"
    if at >= 1 and doc[at].lower_ == "as" and not pet and name_token(doc[at - 1]):
        name = doc[at - 1]  # "got dr okonkwo as my new advisor", "hired maria as our nanny"
        titled = at >= 2 and doc[at - 2].lower_.rstrip(".") in TITLES
        if titled or name.pos_ == "PROPN" or _unknown_word(name):
            return name.text, name.i, name.i + 1, "as"
    before = owner - 1  # "marmalade our cat has been off his food", "mochi, our cat,"
    if before > 0 and doc[before].text == ",":
        before -= 1
    comma = before < owner - 1
    while (
        comma
        and before > 1
        and (doc[before].ent_type_ in {"DATE", "TIME"} or doc[before].lower_ in _TIME_WORDS)
    ):
        before -= 1  # "dr nguyen yesterday, my cardiologist"
    titled = before > 0 and doc[before - 1].lower_.rstrip(".") in TITLES
    if (
        before >= 0
        and name_token(doc[before])
        and (doc[before].dep_ != "ROOT" or titled)
        and (doc[before].pos_ == "PROPN" or (pet and doc[before].pos_ == "NOUN"))
        and (
            before == 0
            or not doc[before - 1].is_alpha
            or doc[before - 1].pos_ == "CCONJ"
            # "a checkup with dr nguyen, my cardiologist", "tell encik hisham my boss" (not
            # "gave mrs lee my cat": a pet after a name is given, not named)
            or (titled and (comma or not pet))
        )
    ):
        return doc[before].text, before, before + 1, "appos"
    return None


#: Words before a kinship word that make it someone else's or no one's ("her mum", "a
#: very dad thing").
_NOT_OWN_BEFORE = frozenset(
    {"her", "his", "their", "your", "a", "an", "the", "this", "that", "every", "any", "no"}
)


def _called_by_the_word(doc: Doc, token: Token) -> tuple[int, str, bool] | None:
    """A kinship word said bare, as a name ("mum would be happier", "stopping at mum's"):
    the speaker's own, unless another owner, an article or a noun comes before it, or it
    describes a thing or the speaker ("a very dad thing", "a stay at home dad")."""
    before = doc[token.i - 1] if token.i > 0 else None
    if before is not None and before.lower_ in cues.NAME_MARKERS:
        return token.i, spelled_out(token.lower_), False  # "si mama umiyak"
    if token.lower_ in _PARTICLE_KIN and before is not None and not _english(before):
        return None
    if before is not None and before.lower_ in cues.KIN_NAMES and before.lower_ != token.lower_:
        return token.i, spelled_out(token.lower_), False  # "mummy papa bhi phone karte hain"
    if token.dep_ in {"amod", "compound", "attr"} or token.pos_ not in {"NOUN", "PROPN"}:
        return None  # "a very dad thing", "i've been a stay at home dad"
    if before is not None and (
        before.lower_ in _NOT_OWN_BEFORE
        or before.lower_ in _OWNERS
        or before.tag_ == "POS"
        or before.pos_ in {"ADJ", "DET", "NOUN", "PROPN"}
    ):
        return None
    return token.i, spelled_out(token.lower_), False


def _called_after_marker(doc: Doc, token: Token) -> bool:
    """ "si mama medyo tampo pa": a kinship word after a personal article is the name
    the person is called by; what follows is said of them, no name."""
    return (
        token.lower_ in cues.KIN_NAMES - tl.KIN_TITLES
        and token.i > 0
        and doc[token.i - 1].lower_ in cues.NAME_MARKERS
    )


#: kinship words that are particles too ("tampo pa", "ok na ma"): bare, only after an
#: English word or at a sentence's start ("told ma", "pa said no")
_PARTICLE_KIN = frozenset({"pa", "ma"})


def _english(token: Token) -> bool:
    return token.is_punct or token.is_sent_start or is_word(token.text)


def own_relative_at(doc: Doc, i: int) -> str | None:
    """The relationship when token ``i`` is one of the speaker's own people said by the
    word ("my sister", "our neighbour", "mum" said bare), not a pet; None otherwise."""
    token = doc[i]
    phrase = relationship_phrase(doc, i)
    if phrase is None and token.lower_ in cues.KIN_NAMES:
        phrase = _called_by_the_word(doc, token)
    return None if phrase is None or phrase[2] else phrase[1]


#: Titles that only ever come before a name ("mr park", "herr braun"), unlike "miss" (i
#: miss home), "sir" (yes sir) or "chef" (a chef knife).
_ADDRESS = frozenset(
    {"mr", "mrs", "ms", "mx", "mister", "herr", "monsieur", "mme", "señor", "señora", "doña"}
    | {"pak", "mbak", "encik", "puan", "alhaji", "alhaja"}
)
#: Titles written short, with a period that ends no sentence ("Dr. Patel").
_ABBREVIATED = frozenset({"dr", "mr", "mrs", "ms", "mx", "prof", "mme"})
#: Titles that say what someone is to the user when nothing else does ("dr patel said my
#: blood pressure was high": Patel, a doctor).
TITLED_ROLES = {
    "dr": "doctor",
    "doc": "doctor",
    "doctor": "doctor",
    "prof": "professor",
    "professor": "professor",
    "coach": "coach",
    "pastor": "pastor",
}
#: Titles that are words too ("the doc says", "le doc insiste"): the name after them
#: must be written as one (a capital, or a person to spaCy), not just tagged a noun.
_TITLES_AS_WORDS = frozenset({"doc", "coach", "pastor"})


def titled(doc: Doc) -> list[tuple[str, str | None, str]]:
    """Names said after a title: (name, the role the title tells or None, the name as
    said with its title). "Dr. Patel", "dr lavoie", "prof hollis" are a doctor and a
    professor; "mr park", "pak hendra", "chef arora" are someone known by a title of
    address (``relationships.HONORIFICS``). The name must read as one (a proper noun or
    a person to spaCy, capitalised, or after a title of address a word no dictionary
    knows): "dr appointment", "chef knife", "doctor hoke" (Hindi: being a doctor) name
    no one."""
    found: list[tuple[str, str | None, str]] = _titled_after(doc)
    for token in doc[:-1]:
        title = token.lower_.rstrip(".")
        role = TITLED_ROLES.get(title) or KIN_TITLES.get(title)
        if role is None and title not in HONORIFICS:
            continue
        at = token.i + 1
        if doc[at].text == "." and at + 1 < len(doc):
            if title not in _ABBREVIATED:
                continue  # "hotel mein sous chef. agar main ...": the sentence ended
            at += 1
        name = doc[at]
        written = name.ent_type_ == "PERSON" or name.text[:1].isupper()
        proper = written or (name.pos_ == "PROPN" and title not in _TITLES_AS_WORDS)
        addressed = title in _ADDRESS and token.pos_ != "VERB"
        if not (
            (proper and name_token(name))
            or ((role is None or title in KIN_TITLES) and _unknown_word(name))
            or (addressed and name_token(name))  # "herr braun", "mr park": "braun" is a word
        ):
            continue
        if role is None and {t.lower_ for t in name.sent} & cues.RENAMING:
            continue  # "rachel is officially mrs adeyemi now": a new name, read as one
        end = at + 2 if _surname(doc, at) else at + 1  # "profe arturo salas"
        bare = _capitalised(doc[at:end].text)
        as_said = f"{_capitalised(token.text.rstrip('.'))} {bare}"
        given = _given_after(doc, end) if role is None and end == at + 1 else None
        found.append((f"{given} {bare}" if given else bare, role, as_said))  # "mrs w, gemma"
    return found


def _titled_after(doc: Doc) -> list[tuple[str, str | None, str]]:
    """Names said before a title (``relationships.TITLES_AFTER``): "shibu babu wants the
    rent", "jiyeon unnie quit", "iyer sir is retiring". The name reads as one (a proper
    noun, a person to spaCy, or a word no dictionary knows) and no name follows the
    title (then the title is part of a longer name)."""
    found: list[tuple[str, str | None, str]] = []
    for token in doc[1:]:
        if token.lower_ not in TITLES_AFTER:
            continue
        name = doc[token.i - 1]
        after = doc[token.i + 1] if token.i + 1 < len(doc) else None
        if after is not None and (after.pos_ == "PROPN" or after.text[:1].isupper()):
            continue
        proper = name.ent_type_ == "PERSON" or name.pos_ == "PROPN" or name.text[:1].isupper()
        if not ((proper and name_token(name)) or _unknown_word(name)):
            continue
        bare = _capitalised(name.text)
        found.append((bare, None, f"{bare} {token.text}"))
    return found


def unnamed_kin(doc: Doc, named: list[Named]) -> list[tuple[str, str]]:
    """Relatives people call by the word itself, said without a name ("my mum", "mi
    abuela"): (the word as typed, the relationship), for those no name was given."""
    out: list[tuple[str, str]] = []
    for token in doc:
        if token.lower_ not in cues.KIN_NAMES:
            continue
        phrase = relationship_phrase(doc, token.i) or _called_by_the_word(doc, token)
        if phrase is None or phrase[2] or any(n.start <= token.idx < n.end for n in named):
            continue
        before = doc[max(0, phrase[0] - 3) : token.i]
        if any(t.lower_ in cues.ENDED_MODIFIERS | {"late"} for t in before):
            continue  # "my late mum": named later, if at all
        out.append((token.lower_, phrase[1]))
    return out


def adopted(doc: Doc) -> list[tuple[str, str]]:
    """Pets the speaker says they got, named in the turn ("i adopted a dog!! a retired
    greyhound named noodle", "we adopted a beagle. her name is penny", "we have a dog,
    waffles, shes a cavoodle", "adopted a second dog. pickles. beagle mix."): (name,
    kind). The pet is what the verb got, or, where chat defeats the parse ("got a cat
    lol": the cat its subject), a pet word a few words after it."""
    kind = None
    pet: Token | None = None
    for token in doc:
        if token.lemma_.lower() not in cues.ADOPTING:
            continue
        subject = {c.lower_ for c in token.children if c.dep_ in _SUBJECT_DEPS}
        if subject and not subject & USER_SUBJECTS:
            continue  # no subject: chat drops the "we" ("also were getting a DOG")
        got_pet = [c for c in token.children if c.dep_ == "dobj" and is_pet_word(c.lower_)]
        if not got_pet:  # "got a cat lol", "adopted a dog 🐶 kelpie cross": the parse errs
            got_pet = [
                t
                for t in doc[token.i + 1 : min(token.i + 5, token.sent.end)]
                if is_pet_word(t.lower_) and doc[t.i - 1].lower_ in {"a", "an", "another", "second"}
            ]
        for child in got_pet[:1]:
            word = child.lower_
            kind, pet = cues.PET_KINDS.get(word, word), child
            named = next((c for c in child.rights if c.dep_ == "appos"), None)
            if named is not None and doc[named.i - 1].text == ",":  # "a dog, waffles"
                got = _name_at(doc, named.i)
                if got is not None:
                    return [(_capitalised(got[0]), kind)]
        if kind is not None:
            break
    if kind is None or pet is None:
        return []
    alone = _said_alone_after(doc, pet)
    if alone is not None:
        return [(_capitalised(alone.text), kind)]
    for token in doc:
        after = token.i + 1
        owners = {c.lower_ for c in token.children if c.dep_ == "poss"}
        if token.lower_ in {"named", "called"} or (
            token.lower_ == "name"
            and after < len(doc)
            and doc[after].lemma_ == "be"
            and (owners & {"her", "his", "its"} or not owners)  # "shes 2, name is nugget"
        ):
            at = after + 1 if token.lower_ == "name" else after
            if at < len(doc) and doc[at].lower_ in {"her", "him", "it"}:
                at += 1  # "we named her mochi"
            got = _name_at(doc, at)
            if got is not None:
                return [(_capitalised(got[0]), kind)]
    return []


def is_pet_word(word: str | None) -> bool:
    """A word for a kind of pet ("dog", "westie", "puppy"), lower case.

    >>> is_pet_word("westie"), is_pet_word("puppy"), is_pet_word("sister")
    (True, True, False)
    """
    return word in cues.PETS or word in cues.PET_KINDS


def _said_words(sentence: Span) -> list[Token]:
    """The words of a sentence, its punctuation and spaces left out."""
    return [t for t in sentence if not (t.is_punct or t.is_space)]


def _said_alone_after(doc: Doc, pet: Token) -> Token | None:
    """ "adopted a second dog. pickles. beagle mix.": the pet's sentence ends with it, and
    the next sentence is one word, its name."""
    end = pet.sent.end
    if end - pet.i > 2 or end >= len(doc):  # the pet word, then at most a full stop
        return None
    nxt = next((sent for sent in doc.sents if sent.start == end), None)
    if nxt is None:
        return None
    words = _said_words(nxt)
    if len(words) != 1 or not _named_next(words[0]):
        return None
    return words[0]


def described_pets(doc: Doc) -> list[tuple[str, str]]:
    """Pets named at the start of a sentence and described as one, after the turn spoke
    of a pet of the speaker's ("my dog is giving me the look. diesel, hes a pit mix",
    "adopté una perrita!! coco, a little chihuahua mix"), or right after the sentence that
    ends with the pet ("we adopted a kitten! mochi, 8 weeks old"): (name, kind). A pet the turn
    gives someone else ("her dog") names none of the speaker's."""
    said = [
        t
        for t in doc
        if is_pet_word(t.lower_)
        and not any(
            w.lower_ in _NOT_OWN_BEFORE - {"a", "an", "the"} or w.tag_ == "POS"
            for w in doc[max(0, t.i - 3) : t.i]
        )
    ]
    out: list[tuple[str, str]] = []
    for sent in doc.sents:
        first = sent[0]
        k = first.i + 2
        if not said or said[0].i > first.i or k + 1 >= sent.end or doc[k - 1].text != ",":
            continue
        last = [t for t in doc[: first.i] if t.is_alpha]
        if last and last[-1] in said and _named_next(first):  # "we adopt kucing! oyen, ..."
            kind = last[-1].lower_
            out.append((_capitalised(first.text), cues.PET_KINDS.get(kind, kind)))
            continue
        if not name_token(first) or not (first.pos_ == "PROPN" or _unknown_word(first)):
            continue
        if doc[k].lower_ in {"he", "she", "it"}:  # "diesel, hes a pit mix"
            k += 2 if doc[k + 1].lemma_ == "be" or doc[k + 1].lower_ == "s" else 1
        if k >= sent.end or doc[k].lower_ not in {"a", "an"}:
            continue
        kinds = [t.lower_ for t in doc[k + 1 : min(k + 5, sent.end)] if is_pet_word(t.lower_)]
        if kinds:
            out.append((_capitalised(first.text), cues.PET_KINDS.get(kinds[0], kinds[0])))
    return out


#: A pet shown to the assistant: "meet reggie!!", "say hi to mochi".
_MEET = re.compile(r"^\W*(?i:meet|say hi to|say hello to)\s+(?P<name>[^\W\d_]+)\s*[!.,]")
#: Emoji that say a pet is meant.
_PET_EMOJI = {"🐕": "dog", "🐶": "dog", "🐩": "dog", "🐈": "cat", "🐱": "cat", "🐇": "rabbit"}


def token_at(doc: Doc, idx: int) -> Token | None:
    """The token that starts at character ``idx`` of the text, if one does."""
    return next((t for t in doc if t.idx == idx), None)


def met_pets(doc: Doc) -> list[tuple[str, str]]:
    """A pet the user shows off at the start of a turn that says what kind it is and
    speaks of no person ("meet reggie!! 4 year old ex-racer from the greyhound trust"):
    (name, kind)."""
    m = _MEET.match(doc.text)
    if m is None:
        return []
    token = token_at(doc, m.start("name"))
    if token is None or not _lettered(token.text) or _known_other(token.lower_):
        return []
    if any(t.lower_ in cues.RELATIONSHIPS and doc[t.i + 1 :][:1].text != "-" for t in doc):
        return []  # "meet my sister's dog ...": whose, and who, is unclear ("ex-racer" is none)
    kinds = [cues.PET_KINDS.get(t.lower_, t.lower_) for t in doc if t.lower_ in cues.PETS]
    kinds += [cues.PET_KINDS[t.lower_] for t in doc if t.lower_ in cues.PET_KINDS]
    kinds += [kind for emoji, kind in _PET_EMOJI.items() if emoji in doc.text]
    return [(_capitalised(token.text), kinds[0])] if kinds else []


def _named_next(first: Token) -> bool:
    """A sentence's first word, before a comma, that names what the sentence before
    ended with: a word of letters no list knows, read as a name or a noun (spaCy may
    take a lower-case pet's name for a time)."""
    return (
        _lettered(first.text)
        and len(first.text) > 1
        and first.pos_ in {"PROPN", "NOUN"}
        and not _known_other(first.lower_)
        and not (first.is_lower and _well_cased(first.doc))
    )


def introduced(doc: Doc) -> list[tuple[str, str]]:
    """Someone the speaker introduces, then names ("we got a new apprentice, his name is
    darwin"; "ive been seeing someone. her name is mel"; "we have a baby girl!!! we named
    her tiwatope"): (name, relationship). What they are comes from the noun introduced
    by the speaker's own verb: a relationship word, a new partner (``cues.DATING``), a
    newborn (``cues.NEWBORN``)."""
    out: list[tuple[str, str]] = []
    for token in doc:
        site = _naming_site(doc, token)
        if site is None:
            continue
        at, pronoun = site
        got = _name_at(doc, at, slot=True)
        if got is None:
            continue
        ours = {c.lower_ for c in token.children if c.dep_ in _SUBJECT_DEPS} & {"we", "i"}
        relationship = _introduced_before(doc, token.i, pronoun, bool(ours))
        if relationship is not None:
            out.append((_capitalised(got[0]), relationship))
    return out + _dating(doc) + _asked_to_be(doc)


#: Whose partner the speaker is asked to be gives the asker's gender ("his girlfriend":
#: he is her boyfriend), and the word the step: asked to be a wife or a husband is a
#: proposal ("fiancé").
_ASKER_GENDER = {"his": "m", "her": "f"}
_ASKED_AS = {"girlfriend": "dating", "boyfriend": "dating", "wife": "engaged", "husband": "engaged"}


def _asked_to_be(doc: Doc) -> list[tuple[str, str]]:
    """Someone who asked the speaker to be their partner, as done: "and brian asked me
    officially to be his girlfriend lol" (not "if he asks me to be his girlfriend").

    >>> from ingestion.extract import load_nlp
    >>> _asked_to_be(load_nlp()("and brian asked me officially to be his girlfriend lol"))
    [('Brian', 'boyfriend')]
    """
    out: list[tuple[str, str]] = []
    for word in doc:
        owner = next((c.lower_ for c in word.children if c.dep_ == "poss"), "")
        gender, step = _ASKER_GENDER.get(owner), _ASKED_AS.get(word.lower_)
        be = word.head
        ask = be.head
        if gender is None or step is None:
            continue
        if word.dep_ != "attr" or be.lemma_ != "be" or be.dep_ != "xcomp":
            continue
        if ask.lemma_.lower() != "ask" or ask.tag_ != "VBD":
            continue
        if not any(c.dep_ == "dobj" and c.lower_ == "me" for c in ask.children):
            continue
        if any(c.dep_ == "neg" or c.lower_ in cues.NOT_YET for c in ask.children):
            continue
        subject = next((c for c in ask.children if c.dep_ in _SUBJECT_DEPS), None)
        got = _name_at(doc, subject.i) if subject is not None else None
        if got is not None:
            becomes = _PARTNER_BY_GENDER[gender] if step == "dating" else partner_word(step, gender)
            out.append((_capitalised(got[0]), becomes))
    return out


def called(doc: Doc) -> list[tuple[str, str | None]]:
    """Someone met in passing and named as they are introduced: "met this guy named kevin
    at the gym", "a preceptor called tom whos been there 20 yrs", "some fella called
    marcus". The naming word describes the person noun right before it
    (``cues.PERSON_NOUNS``, a man or a woman, a relationship or a role word); "a guy
    called the police" names no one, nor does "a book called atomic habits". Who they
    are to the speaker: a role held for the speaker ("a preceptor", "my landlord", not
    "her landlord"), or "my" relationship word ("my coworker named X"; "a senior
    dispatcher named lorraine" may be anyone's); a man, a woman or a guy says nothing.

    >>> from ingestion.extract import load_nlp
    >>> nlp = load_nlp()
    >>> called(nlp("met this guy named kevin at the gym")), called(nlp("a guy called the police"))
    ([('Kevin', None)], [])
    >>> called(nlp("sat me with a preceptor called tom whos been there 20 yrs"))
    [('Tom', 'preceptor')]
    >>> called(nlp("her landlord, some lady named rita, is strict"))
    [('Rita', None)]

    A man or a guy said to be someone takes that role: "new sup is some dude named
    delgado", "some guy named rick, ops manager", "my new manager is called rachel".

    >>> called(nlp("new sup is some dude named delgado starts mon"))
    [('Delgado', 'supervisor')]
    >>> called(nlp("my new manager on ICU is called rachel okafor and shes sound"))
    [('Rachel Okafor', 'manager')]
    """
    out: list[tuple[str, str | None]] = []
    for token in doc[1:-1]:
        if not _naming(token.lower_):
            continue
        noun, nxt = doc[token.i - 1], doc[token.i + 1]
        head = token.head
        if token.dep_ == "acl" and head.i < token.i - 1 and _person_noun(head.lower_):
            between = doc[head.i + 1 : token.i]  # "a young man from church named travis"
            if all(w.dep_ in {"prep", "pobj", "det", "amod", "compound"} for w in between):
                noun = head
        describes = token.dep_ == "acl" and token.head.i == noun.i
        said_of = noun.head.i == token.i and nxt.dep_ == "oprd"  # "some fella called marcus"
        if not (describes or said_of) and any(c.dep_ == "oprd" for c in token.children):
            # "my manager is called rachel": the one named is the passive subject
            noun = next((c for c in token.lefts if c.dep_ == "nsubjpass"), noun)
            describes = noun.head.i == token.i and noun.dep_ == "nsubjpass"
        if not (describes or said_of):
            continue
        if not _person_noun(noun.lower_):
            continue
        person, noun = noun, _said_to_be(noun)
        got = _name_called(doc, token.i)
        if got is not None:
            name = _capitalised(got[0])
        elif _given_name(nxt):  # "tom": a word, and the tagger's number
            name = _capitalised(nxt.text)
        else:
            continue
        # what a man or a guy is said to be is the speaker's, unless someone else's ("ward
        # 7 are getting a new manager, some fella called marcus")
        out.append((name, _role_held(noun, noun is not person and not _gotten(noun))))
    return out


def _role_held(noun: Token, said_to_be: bool) -> str | None:
    """The role or relationship word ``noun`` names for the speaker: a role held for
    them ("a preceptor"), "my" relationship word, or one a man or a guy is ``said_to_be``
    ("new sup is some dude ..."); None when it is someone else's ("her landlord")."""
    owners = {c.lower_ for c in noun.children if c.dep_ == "poss"}
    mine = bool(owners) and owners <= _OWNERS
    word = spelled_out(noun.lower_)
    role = word in cues.ROLE_NOUNS or ((mine or said_to_be) and word in cues.RELATIONSHIPS)
    return word if role and (mine or not owners) else None


#: Words that introduce someone not named yet: "this guy mateo", "some bloke lewis".
_SOMEONE_DETS = frozenset({"this", "that", "some", "a", "one"})


def named_after_a_guy(doc: Doc) -> list[tuple[str, str | None]]:
    """Someone introduced by a man-or-woman noun and named right after it, no "named"
    between: "ive been seeing this guy mateo" (a new partner: dating said as going on),
    "landlord is this old guy ray" (the role the guy is said to be), "weve got this new
    bloke lewis" (a person, no more). The parse of such phrases is unreliable ("guy" the
    subject of "mateo"), so the words decide.

    >>> from ingestion.extract import load_nlp
    >>> nlp = load_nlp()
    >>> named_after_a_guy(nlp("dont judge me 🙈 ive been seeing this guy mateo, hes in my class"))
    [('Mateo', 'boyfriend')]
    >>> named_after_a_guy(nlp("landlord is this old guy ray who calls everyone kiddo"))
    [('Ray', 'landlord')]
    >>> named_after_a_guy(nlp("i saw this guy Jorge at the store"))  # seen, no dating
    [('Jorge', None)]
    >>> named_after_a_guy(nlp("she joined a girl scout troop")), named_after_a_guy(nlp("guy thing"))
    ([], [])
    """
    out: list[tuple[str, str | None]] = []
    for noun in doc[1:-1]:
        gender = cues.GENDERED_NOUNS.get(noun.lower_)
        if gender is None and noun.lower_ not in cues.SOMEONE_NOUNS:
            continue
        nxt = doc[noun.i + 1]
        who = noun.i + 2 < len(doc) and doc[noun.i + 2].lower_ in {"who", "whos", "who's"}
        if not name_token(nxt) or not (
            nxt.pos_ == "PROPN" or nxt.text[:1].isupper() or _unknown_word(nxt) or who
        ):
            continue  # "a guy thing", "a girl scout"; "this old guy ray who ..." is a name
        if noun.i + 2 < len(doc) and doc[noun.i + 2].tag_ == "POS":
            continue  # "this guy mateo's ..."
        det = next(
            (w for w in reversed(doc[max(0, noun.i - 3) : noun.i]) if w.lower_ in _SOMEONE_DETS),
            None,
        )
        if det is None or any(w.pos_ not in {"ADJ", "DET"} for w in doc[det.i + 1 : noun.i]):
            continue
        got = _name_at(doc, nxt.i)
        if got is None:
            continue
        out.append((_capitalised(got[0]), _what_the_guy_is(doc, det, gender)))
    return out


def _what_the_guy_is(doc: Doc, det: Token, gender: str | None) -> str | None:
    """Before "this guy": dating said as going on ("been seeing", "dating"), a partner;
    "<role> is", the role (not someone else's: "her landlord is ...")."""
    before = doc[max(0, det.i - 3) : det.i]
    if any(
        (w.lemma_.lower() == "see" and w.tag_ == "VBG") or w.lemma_.lower() == "date"
        for w in before
    ):
        return _PARTNER_BY_GENDER.get(gender or "", "partner")
    if det.i >= 2 and doc[det.i - 1].lemma_ == "be":
        return _role_held(doc[det.i - 2], said_to_be=True)
    return None


def _name_called(doc: Doc, naming: int) -> tuple[str, int] | None:
    """The name right after a naming word ("named", "called"): (name, index after it),
    with the surname the parse joins to it ("is called rachel okafor": a word a
    dictionary knows, then the name "called" names)."""
    got = _name_at(doc, naming + 1, slot=True)
    if got is None or got[1] >= len(doc):
        return got
    last = doc[got[1]]
    if last.dep_ == "oprd" and doc[got[1] - 1].head.i == last.i and _given_name(last):
        return f"{got[0]} {last.text}", got[1] + 1
    return got


def names_the_user(subject: Token) -> bool:
    """Whether a subject takes the user in, itself or joined to it by "and" ("dan and i",
    "me and rhonda"); an "i" or "me" deeper in its phrase is another clause's ("umma
    called asking when im graduating, umma and appa live in torrance") or an object ("the
    guy who sold me the truck")."""
    joined = [subject]
    for token in joined:
        joined += [c for c in token.children if c.dep_ == "conj"]
    return any(t.lower_ in USER_SUBJECTS for t in joined)


def _gotten(noun: Token) -> bool:
    """Whether a noun is the object of a verb whose subject is someone other than the
    speaker ("ward 7 are getting a new manager")."""
    if noun.dep_ not in {"dobj", "pobj"}:
        return False
    verb = noun.head.head if noun.dep_ == "pobj" else noun.head
    subjects = {c.lower_ for c in verb.children if c.dep_ in _SUBJECT_DEPS}
    return bool(subjects - USER_SUBJECTS)


def _said_to_be(noun: Token) -> Token:
    """The role or relationship word a person noun is said to be, or the noun itself:
    "new sup is some dude" (the subject of "is"), "the agent, a guy" (what it is in
    apposition to), "some guy named rick, ops manager" (its apposition)."""
    if noun.lower_ in cues.ROLE_NOUNS or noun.lower_ in _words():
        return noun
    head = noun.head
    if noun.dep_ == "attr" and head.lemma_ == "be":
        said = [c for c in head.children if c.dep_ in _SUBJECT_DEPS]
    elif noun.dep_ == "appos":
        said = [head]
    else:
        said = [c for c in noun.subtree if c.dep_ == "appos" and c.head.i != noun.i]
        said += [c for c in noun.children if c.dep_ == "appos"]
    return next((c for c in said if c.lower_ in cues.ROLE_NOUNS or c.lower_ in _words()), noun)


def _person_noun(word: str) -> bool:
    """A word for a person: someone, a guy, a preceptor, a neighbour."""
    return (
        (word in cues.PERSON_NOUNS and word != "name")
        or word in cues.GENDERED_NOUNS
        or word in cues.RELATIONSHIPS
        or word in cues.ROLE_NOUNS
        or word in cues.SOMEONE_NOUNS
    )


def _given_name(token: Token) -> bool:
    """Where only a name goes (right after "called"), a word of letters that is no
    function word, filler or title, even one a dictionary knows ("tom", "rose")."""
    return (
        token.is_alpha
        and len(token.text) >= 2
        and token.pos_ not in _NOT_NAME_POS - {"NUM"}
        and not _known_other(token.lower_)
        and not (token.is_lower and _well_cased(token.doc))
    )


#: Who a new partner is, by the noun the user introduces them with ("a guy named alex").
_PARTNER_BY_GENDER = {"m": "boyfriend", "f": "girlfriend"}


def _dating(doc: Doc) -> list[tuple[str, str]]:
    """Someone the speaker is dating, named beside the noun that introduces them: "i'm
    dating a guy named alex", "i started seeing this girl, sam" (``cues.DATING``;
    meeting someone is no dating)."""
    out: list[tuple[str, str]] = []
    for token in doc:
        if token.lower_ not in cues.DATING_OBJECTS or token.dep_ != "dobj":
            continue
        verb = token.head
        if verb.lemma_.lower() not in cues.DATING - {"meet"}:
            continue
        said = verb.head if verb.dep_ == "xcomp" else verb  # "i started seeing ..."
        subject = {c.lower_ for c in said.children if c.dep_ in _SUBJECT_DEPS}
        if subject - USER_SUBJECTS or any(c.dep_ == "neg" for c in said.children):
            continue
        for child in token.rights:
            if child.dep_ == "acl" and _naming(child.lower_):
                got = _name_at(doc, child.i + 1)
            elif child.dep_ == "appos":
                got = _name_at(doc, child.i)
            else:
                continue
            if got is not None:
                gender = cues.GENDERED_NOUNS.get(token.lower_)
                relationship = _PARTNER_BY_GENDER.get(gender or "", "partner")
                out.append((_capitalised(got[0]), relationship))
                break
    return out


def _naming_site(doc: Doc, token: Token) -> tuple[int, str | None] | None:
    """Where a name follows: "her name is <x>" (the pronoun kept) or "named her <x>"."""
    nxt = token.i + 1
    if token.lower_ in {"name", "names"} and nxt < len(doc):
        owner = next((c.lower_ for c in token.children if c.dep_ == "poss"), None)
        if owner is None and token.i > 0:  # "her names shannon": the parse may lose "her"
            owner = doc[token.i - 1].lower_
        if owner in {"her", "his", "their"}:
            if doc[nxt].lemma_ == "be":
                return nxt + 1, owner
            if token.lower_ == "names" or _unknown_word(doc[nxt]):  # "her name jas"
                return nxt, owner
    if _naming(token.lower_) and nxt < len(doc) and doc[nxt].lower_ in {"her", "him"}:
        return nxt + 1, doc[nxt].lower_
    return None


@functools.lru_cache(maxsize=4096)
def _naming(word: str) -> bool:
    """ "named", "called", or one typed with a slip ("we naed her tiwatope")."""
    return word in {"named", "called"} or (
        len(word) >= 4 and bool(difflib.get_close_matches(word, ["named", "called"], 1, 0.85))
    )


def _introduced_before(doc: Doc, at: int, pronoun: str | None, ours: bool = False) -> str | None:
    """The relationship of the nearest someone the speaker introduced before token ``at``
    ("there's this guy. his name is julián ... we've been dating": the dating says what
    he is). A newborn the speaker names (``ours``: "baby boy came on feb 16! we named
    him aadhav") is theirs without "our"."""
    for token in reversed(doc[max(0, at - 25) : at]):
        verb = token.head
        subject = {c.lower_ for c in verb.children if c.dep_ in _SUBJECT_DEPS | {"expl"}}
        if token.dep_ == "attr" and subject == {"there"} and token.lower_ in cues.DATING_OBJECTS:
            dating = any(  # "we met" alone is no dating
                t.lemma_.lower() in cues.DATING - {"meet"}
                and {c.lower_ for c in t.children if c.dep_ in _SUBJECT_DEPS} & {"i", "we"}
                for t in doc
            )
            if dating:
                return {"her": "girlfriend", "his": "boyfriend", "him": "boyfriend"}.get(
                    pronoun or "", "partner"
                )
            continue
        words = [c.lower_ for c in token.lefts if c.dep_ in {"compound", "amod"}]
        phrase = " ".join([*words[-1:], token.lower_])
        owned = any(c.dep_ == "poss" and c.lower_ in _OWNERS for c in token.children)
        if (
            phrase in cues.NEWBORN
            and (  # "baby girl born friday ... we named her june"
                (token.dep_ in _SUBJECT_DEPS and (owned or ours)) or (ours and phrase[:4] == "baby")
            )
        ):
            return cues.NEWBORN[phrase]  # "our baby boy arrived! his name is noah"
        if token.dep_ not in {"dobj", "attr", "pobj"} or (subject and not subject & {"i", "we"}):
            continue  # chat drops the "i": "been seeing this girl"
        if phrase in cues.NEWBORN or token.lower_ in cues.NEWBORN:
            return cues.NEWBORN.get(phrase) or cues.NEWBORN[token.lower_]
        if token.lower_ in cues.DATING_OBJECTS and verb.lemma_.lower() in cues.DATING:
            return {"her": "girlfriend", "his": "boyfriend", "him": "boyfriend"}.get(
                pronoun or "", "partner"
            )
        if token.lower_ in _words():
            return spelled_out(token.lower_)
    return None


@dataclass(frozen=True)
class Referent:
    """Someone the speaker spoke of by relationship and has not named yet ("my mom",
    "my cat", "the twins"): who a name said next is ("her name is min-ji")."""

    relationship: str
    pet: bool
    plural: bool = False


#: Pronouns that point back to someone: "her name is ...", "how old is she?".
_BACK = frozenset({"she", "he", "they", "her", "him", "them", "his", "their", "its", "it"})
_HER, _HIS = frozenset({"her", "she"}), frozenset({"his", "he", "him"})


def _referent_word(words: list[str], i: int) -> tuple[int, Referent] | None:
    """The relationship, pet or group word ending at ``words[i]`` (lower case), with the
    index it starts at: "department head", "cat", "twins", "rabbits"."""
    word = words[i]
    if i > 0 and f"{words[i - 1]} {word}" in _words():
        return i - 1, Referent(spelled_out(f"{words[i - 1]} {word}"), False)
    if word in cues.GROUPS:
        return i, Referent(cues.GROUPS[word], False, plural=True)
    for single, plural in ((word, False), (word.removesuffix("s"), True)):
        if is_pet_word(single):
            return i, Referent(cues.PET_KINDS.get(single, single), True, plural)
    if word in _words() and word not in cues.SELF_OWNED:
        return i, Referent(spelled_out(word), False)
    return None


def _owned(words: list[str], start: int, owners: frozenset[str]) -> bool:
    """Whether an owner word comes before ``words[start]``, past up to two modifiers
    ("my little brother", "your older son")."""
    j = start - 1
    while j >= 0 and j >= start - 3 and words[j] not in owners:
        if words[j] not in cues.RELATIONSHIP_MODIFIERS and not words[j].endswith("est"):
            return False
        j -= 1
    return j >= 0 and words[j] in owners


def referents(doc: Doc, owners: frozenset[str] = _OWNERS) -> list[tuple[Token, Referent]]:
    """The relationship, pet and group nouns a turn owns ("my mom", "our cat"; "the
    twins", a group, with any owner), with their tokens, in order."""
    words = [t.lower_ for t in doc]
    out: list[tuple[Token, Referent]] = []
    for token in doc:
        if token.pos_ not in {"NOUN", "PROPN"}:
            continue
        got = _referent_word(words, token.i)
        if got is None:
            continue
        start, ref = got
        group_owners = owners | {"the"} if ref.plural else owners
        if _owned(words, start, group_owners):
            out.append((token, ref))
    return out


_WORD_RE = re.compile(r"[\w'-]+")


def asked_about(text: str) -> tuple[Referent | None, bool]:
    """What an assistant's turn says of the user's people: the last of them it names as
    the user's ("your son", "the twins"), and whether its last question points back with a
    pronoun ("how old is she?"). No parse: the assistant's words are only looked up."""
    words = [w.lower() for w in _WORD_RE.findall(text)]
    found: Referent | None = None
    for i in range(len(words)):
        got = _referent_word(words, i)
        if got is not None and _owned(
            words, got[0], frozenset({"your", "the"} if got[1].plural else {"your"})
        ):
            found = got[1]
    questions = [q for q in re.split(r"(?<=[.!?])\s+", text) if q.rstrip().endswith("?")]
    back = bool(questions) and bool({w.lower() for w in _WORD_RE.findall(questions[-1])} & _BACK)
    return found, back


def _fits(ref: Referent, pronoun: str) -> bool:
    """Whether a pronoun can stand for the referent: "her" for a mum, not for a brother."""
    if ref.plural:
        return pronoun in {"their", "they", "them"}
    if pronoun in _HER:
        return ref.relationship not in cues.MALE_RELATIONSHIPS
    if pronoun in _HIS:
        return ref.relationship not in cues.FEMALE_RELATIONSHIPS
    return ref.pet and pronoun in {"its", "it"}


def _person_word(token: Token) -> bool:
    low = token.lower_
    return (
        low in _words()
        or low in cues.PETS
        or low in cues.PERSON_NOUNS
        or low in cues.GROUPS
        or token.ent_type_ == "PERSON"
    )


def named_referents(doc: Doc, carried: Referent | None = None) -> list[tuple[str, Referent]]:
    """Names given to someone spoken of by relationship: "my cat ... her name is
    biscuit", "the teacher is named joan", "the teacher is this older guy named hal",
    "my grandma's name was ximena", and "her name is min-ji" when the turn before spoke
    of the user's mom (``carried``). The name goes to the nearest such someone the parse
    and the pronoun allow; never past another person between them."""
    owned = referents(doc, _OWNERS | {"the"})
    by_token = {t.i: r for t, r in owned}
    out: list[tuple[str, Referent]] = []
    for token in doc:
        nxt = token.i + 1
        ref: Referent | None = None
        if token.lower_ == "name" and nxt < len(doc) and doc[nxt].lemma_ == "be":
            owner = next((c for c in token.children if c.dep_ == "poss"), None)
            if owner is None:
                continue
            if owner.lower_ in _BACK:
                before = next((t for t in reversed(doc[: token.i]) if _person_word(t)), None)
                ref = by_token.get(before.i) if before is not None else carried
                if ref is not None and not _fits(ref, owner.lower_):
                    ref = None
            else:  # "my grandma's name was ximena"
                ref = by_token.get(owner.i)
            at = nxt + 1
        elif token.lower_ in {"named", "called"}:
            if nxt < len(doc) and doc[nxt].lower_ in {"her", "him"}:
                continue  # "we named her tiwatope": ``introduced``
            ref = _named_of(token, by_token)
            at = nxt
        else:
            continue
        got = _name_at(doc, at) if ref is not None and not ref.plural else None
        if got is not None and ref is not None:
            out.append((_capitalised(got[0]), ref))
    return out


def _named_of(named: Token, by_token: dict[int, Referent]) -> Referent | None:
    """Who "named"/"called" names, by the parse: the noun it describes ("my cat named
    x"), its passive subject ("the teacher is named joan"), or the subject of the "is"
    whose complement it describes ("the teacher is this older guy named hal")."""
    head = named.head
    if named.dep_ == "acl" and head.i in by_token:
        return by_token[head.i]
    subject = next((c for c in named.children if c.dep_ in _SUBJECT_DEPS), None)
    if subject is not None:
        return by_token.get(subject.i)
    if named.dep_ == "acl" and head.dep_ == "attr" and head.head.lemma_ == "be":
        subject = next((c for c in head.head.children if c.dep_ in _SUBJECT_DEPS), None)
        if subject is not None:
            return by_token.get(subject.i)
    return None


def answered(doc: Doc, ref: Referent) -> list[str]:
    """Names a turn gives in answer to a question about someone spoken of by relationship
    ("how old are the twins?" "two and a half. ollie and rosie."; "how old is he?" "hiro,
    he's 15"; "mai is 6"; "kai is 14 and ruby is 10"): a sentence of names alone, or names
    opening the sentence, each said with a number or followed by a pronoun. One name for
    one person; for a group, one or more."""
    for piece in _pieces(doc)[:3]:
        names = _listed(piece)
        if names and (ref.plural or len(names) == 1):
            return [_capitalised(n) for n in names]
    if not ref.plural and not any(t.lower_ in _words() for t in doc):
        for piece in _pieces(doc)[:3]:
            if (name := _described(piece)) is not None:
                return [_capitalised(name)]
    return []


def _described(piece: Span) -> str | None:
    """A name opening a sentence that says what they are, in a turn that speaks of no one
    by relationship: "tyler is a music major" (not "sam is a mess, but mum is fine")."""
    tokens = [t for t in piece if not t.is_space]
    if len(tokens) < 3 or not _answer_name(tokens[0]) or tokens[1].lemma_ != "be":
        return None
    return tokens[0].text if tokens[2].lower_ in {"a", "an"} else None


def _pieces(doc: Doc) -> list[Span]:
    """The turn cut at every full stop, even where the parser joins sentences ("two and
    a half. ollie and rosie.")."""
    out: list[Span] = []
    start = 0
    for token in doc:
        if token.is_sent_start and token.i > start:
            out.append(doc[start : token.i])
            start = token.i
        if token.text in {".", "!", "?", ";"}:
            out.append(doc[start : token.i + 1])
            start = token.i + 1
    if start < len(doc):
        out.append(doc[start:])
    return out


def _listed(sent: Span) -> list[str]:
    """The names a sentence is made of, or opens with: "ollie and rosie", "hiro, he's
    15", "ella is 9 sam is 6"."""
    tokens = [t for t in sent if not t.is_space]
    names: list[Token] = []
    counted = False
    i = 0
    while i < len(tokens):
        t = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if names and t.lower_ in {"and", ",", "&"} and nxt is not None and _answer_name(nxt):
            i += 1
            continue
        if not _answer_name(t):
            break
        after = tokens[i + 2] if i + 2 < len(tokens) else None
        if nxt is not None and nxt.lemma_ == "be":  # "mai is 6"
            if after is None or not after.like_num:
                break
            names.append(t)
            counted = True
            i += 3
            continue
        names.append(t)
        i += 1
    rest = tokens[i:]
    if not names or (counted and len(names) != sum(1 for t in tokens[:i] if t.like_num)):
        return []
    if counted or (rest and rest[0].text == "," and len(rest) > 1 and rest[1].lower_ in _BACK):
        return [t.text for t in names]  # each said with its number; "hiro, he's 15"
    if (not rest or rest[0].text in {".", "!", ";"}) and _written_as_names(names):
        return [t.text for t in names]  # a sentence of names
    return []


def _written_as_names(names: list[Token]) -> bool:
    """Words alone are names when written as names (by the user, or as the conversation
    capitalises them elsewhere), not merely as a sentence's first word, or when the
    entity tagger says so ("good!", "nervous.", "books!!" are no names; "Pita and
    Za'atar." are)."""
    if all(t.ent_type_ == "PERSON" for t in names):
        return True
    if not all(t.text[:1].isupper() and not t.text.isupper() for t in names):
        return False
    return any(not t.is_sent_start for t in names) or not _well_cased(names[0].doc)


def _answer_name(token: Token) -> bool:
    """A name as an answer gives it: a name token, or a proper noun the entity tagger
    took for a quantity ("sam is 6")."""
    return name_token(token) or (
        token.pos_ == "PROPN"
        and token.text.isalpha()
        and token.ent_type_ in {"QUANTITY", "CARDINAL"}
    )


@dataclass(frozen=True)
class SaidOf:
    """ "pepper needs to go out. shes my schnauzer": who a pronoun's "is my <word>" is
    said of, by the name it points back to."""

    name: str
    relationship: str
    pet: bool
    ended: bool


def said_of_pronoun(doc: Doc) -> list[SaidOf]:
    """ "<name> ... she's my <relationship>": the relationship is the name's, the last
    name the turn gave before the pronoun ("tanya and me, its official. she's my
    girlfriend"; "camille moved out. she's officially my former roommate"), unless a
    person named by a word comes between (then the pronoun may be theirs) or the pronoun
    cannot stand for the word ("he's my sister")."""
    out: list[SaidOf] = []
    for token in doc:
        said = token
        if token.dep_ == "compound" and token.head.lower_ in cues.CHAT_FILLERS:
            said = token.head  # "my former roommate lol": the parse hangs it on "lol"
        if said.dep_ != "attr" or not _is_be(said.head):
            continue
        phrase = relationship_phrase(doc, token.i)
        if phrase is None:
            continue
        verb = said.head
        subject = next((c for c in verb.children if c.dep_ in _SUBJECT_DEPS), None)
        if subject is None or subject.lower_ not in _HER | _HIS:
            continue
        if any(c.dep_ == "neg" or c.lower_ in {"longer", "anymore"} for c in verb.children):
            continue
        start, word, pet = phrase
        if not _fits(Referent(word, pet), subject.lower_):
            continue
        before = _pointed_back(doc, subject.i, pet)
        if before is None:
            continue
        typed = {t.lower_ for t in doc[max(0, start - 3) : token.i]}
        out.append(SaidOf(_capitalised(before.text), word, pet, bool(typed & cues.ENDED_MODIFIERS)))
    return out


def _is_be(token: Token) -> bool:
    """ "is", and the "s" of "shes" typed without its apostrophe."""
    return token.lemma_ == "be" or token.lower_ in {"s", "'s", "’s"}


def _pointed_back(doc: Doc, at: int, pet: bool = False) -> Token | None:
    """The name a pronoun at ``at`` points back to: the last name before it in the turn,
    if no relationship word, person word or other pronoun for someone comes between. A
    subject's, or for a pet also an object's in the pronoun's own sentence ("walking
    with Sadie every morning, she is our golden retriever")."""
    deps = _SUBJECT_DEPS | {"ROOT", "conj"}
    for token in reversed(doc[:at]):
        low = token.lower_
        if low in _BACK and low not in {"it", "its"}:
            return None  # another "she": whoever it is, not for this rule
        if _person_word(token) and token.ent_type_ != "PERSON":
            return None
        own = pet and token.sent == doc[at].sent and token.dep_ in {"pobj", "dobj"}
        if (
            name_token(token)
            and (token.dep_ in deps or own)
            and (token.pos_ == "PROPN" or token.is_title)
        ):
            return token
    return None


def taught(doc: Doc, relationship: str, lesson: str | None = None) -> str:
    """A teaching role named by what the turn's class or lesson is of ("first
    watercolor class was today. the teacher is named joan": "watercolor teacher"), or
    else by ``lesson``, what an earlier turn of the session said one was of ("i started
    violin lessons" ... "my teacher is irina"); the role alone when neither says.

    >>> from ingestion.extract import load_nlp
    >>> taught(load_nlp()("first cycling lesson was on sunday"), "instructor")
    'cycling instructor'
    >>> taught(load_nlp()("my teacher is irina"), "teacher", lesson="violin")
    'violin teacher'
    """
    if relationship not in cues.TEACHING:
        return relationship
    kind = lesson_of(doc) or lesson
    return f"{kind} {relationship}" if kind else relationship


def lesson_of(doc: Doc) -> str | None:
    """What the class or the lessons a text speaks of are of ("violin lessons": violin).

    >>> from ingestion.extract import load_nlp
    >>> nlp = load_nlp()
    >>> lesson_of(nlp("i started violin lessons 3 weeks ago")), lesson_of(nlp("class was fun"))
    ('violin', None)
    """
    for token in doc:
        if token.lower_ not in cues.LESSONS:
            continue
        kinds = [c for c in token.lefts if c.dep_ in {"compound", "amod"} and c.pos_ == "NOUN"]
        if len(kinds) == 1 and kinds[0].is_alpha:
            return kinds[0].lower_
    return None


def married_to(doc: Doc) -> list[tuple[str, str, str]]:
    """A relative of the user's who married or is marrying someone, and whom ("our
    daughter amy got married yesterday!! to a fella named kevin whitfield", "my sister
    rachel is getting married in april!! to tunde"): (the relative's relationship word,
    the partner's name, the partner as a partner word: "husband", "wife" or "partner",
    by the noun that introduced them)."""
    out: list[tuple[str, str, str]] = []
    for token in doc:
        if cues.PARTNER_STEPS.get(token.lemma_.lower()) != "married":
            continue
        relative = next(
            (
                phrase
                for t in doc[max(0, token.i - 6) : token.i]
                if (phrase := relationship_phrase(doc, t.i)) is not None and not phrase[2]
            ),
            None,
        )
        if relative is None:
            continue
        partner = _married_whom(doc, token.i)
        if partner is not None:
            out.append((relative[1], *partner))
    return out


def _married_whom(doc: Doc, at: int) -> tuple[str, str] | None:
    """ "... to <name>" or "... to a <man/woman> named <name>" within a few words after
    the marrying word, crossing the "!!" chat puts between."""
    for k in range(at + 1, min(at + 12, len(doc) - 1)):
        if doc[k].lower_ != "to":
            continue
        said = "partner"
        if doc[k + 1].lower_ in {"her", "his"} and doc[k + 2].lower_ in cues.PARTNER_SAID:
            gender = cues.GENDERED_NOUNS.get(doc[k + 2].lower_)  # "to her fella tariq"
            said, k = {"m": "husband", "f": "wife"}.get(gender or "", "partner"), k + 2
        got = _name_at(doc, k + 1)
        if got is not None and doc[k + 1].lower_ not in cues.GENDERED_NOUNS:
            return _capitalised(got[0]), said
        for j in range(k + 1, min(k + 5, len(doc) - 1)):
            if doc[j].lower_ in {"named", "called"}:
                named = _name_at(doc, j + 1)
                nouns = [cues.GENDERED_NOUNS.get(t.lower_) for t in doc[k + 1 : j]]
                gender = next((g for g in nouns if g), None)
                word = {"m": "husband", "f": "wife"}.get(gender or "", "partner")
                return (_capitalised(named[0]), word) if named is not None else None
        return None
    return None


#: Partner words that may stand beside a birth the user announces ("my wife linh").
_PARTNER_WORDS = frozenset(
    {"wife", "husband", "partner", "girlfriend", "boyfriend", "gf", "bf", "fiancé", "fiancée"}
)


def born(doc: Doc) -> list[tuple[str, str]]:
    """Babies the user announces by name ("LEO TRAN was born jan 14!! ... he does not
    believe in sleep"; "shes here. eleni grace, born 3:12am"): (name, son / daughter as
    the turn's pronoun says, else child). Not when the sentence names another relative
    the baby may be of ("my sister's baby ella was born")."""
    out: list[tuple[str, str]] = []
    for token in doc:
        if token.lower_ != "born":
            continue
        if token.dep_ == "acl":
            head: Token | None = token.head
        else:
            head = next((c for c in token.children if c.dep_ == "nsubjpass"), None)
        if head is None:
            continue
        start = head.i
        while start > 0 and doc[start - 1].dep_ in {"compound", "amod", "flat"}:
            start -= 1
        parts = list(doc[start : head.i + 1])
        if not parts or not all(_baby_name(t) for t in parts):
            continue
        sentence = token.sent
        if any(t.lower_ in _words() and t.lower_ not in _PARTNER_WORDS for t in sentence):
            continue
        pronouns = [t.lower_ for t in doc if t.lower_ in _HER | _HIS]
        gender = "f" if pronouns and pronouns[0] in _HER else "m" if pronouns else None
        name = " ".join(t.text.capitalize() if t.text.isupper() else t.text for t in parts)
        out.append((_capitalised(name), {"m": "son", "f": "daughter"}.get(gender or "", "child")))
    return out


_BABY_OF = re.compile(
    rf"(?:\b(?i:my|our)\s+(?P<rel>{'|'.join(sorted(cues.BABY_OF, key=len, reverse=True))})"
    r"(?:\s+[A-Z][a-z'’-]+)?|(?<![\w'’])(?P<holder>[A-Z][a-z'’-]+))"
    r"\s+(?:(?i:just)\s+)?(?i:had|welcomed|gave\s+birth\s+to)\s+"
    r"(?:(?:(?i:the|their|her|his)\s+)?(?i:baby)\b[^.!?]{0,40}?\s+)?"
    r"(?:(?i:a|their|her|his)\s+)?(?:(?i:little|lil|beautiful|healthy|tiny|baby)\s+)*"
    r"(?P<kind>(?i:girl|boy|daughter|son))\b"
    r"(?:[^.!?]{0,40}?,\s+|\s+(?:(?i:called|named)\s+)?)"
    r"(?P<name>[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)?)(?=\s*[,.!?]|\s+[a-z\d]|\s*$)"
)


def born_to_relative(
    text: str, placed: Callable[[str], str | None] = lambda name: None
) -> list[tuple[str, str]]:
    """A relative's baby named as the birth is told ("Our daughter Jenny had a baby girl
    on May 16th, Lily Rose"), the relative said by a kin word or by a name ``placed``
    already: (name, what the baby is to the user, ``cues.BABY_OF``).

    >>> born_to_relative("Our daughter Jenny had a baby girl on May 16th, Lily Rose, 7 pounds")
    [('Lily Rose', 'granddaughter')]
    >>> born_to_relative("my sister had a baby boy yesterday, Theo!")
    [('Theo', 'nephew')]
    >>> said = "Claire had the baby on Sunday the 16th a little girl Isla seven pound two"
    >>> born_to_relative(said, {"Claire": "daughter"}.get)
    [('Isla', 'granddaughter')]
    """
    out = []
    for m in _BABY_OF.finditer(text):
        relation = m["rel"] or placed(m["holder"]) or ""
        if relation.lower() not in cues.BABY_OF:
            continue
        girl, boy = cues.BABY_OF[relation.lower()]
        out.append((m["name"], girl if m["kind"].lower() in {"girl", "daughter"} else boy))
    return out


_COUNTED = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
#: "(i'm a dad) with two kids, Ruby's 7 ... and Finn's 4", "we have 2 kids ruby (7) and
#: finn (4)": a group the speaker has, counted, then its members each with their age.
_KIDS_BY_AGE = re.compile(
    rf"\b(?i:my|our|have|with|got)\s+(?P<n>{'|'.join(_COUNTED)})\s+"
    rf"(?P<group>{'|'.join(cues.GROUPS)})\b(?P<rest>[^.!?]{{0,240}})"
)
_AGED = re.compile(
    r"(?<![\w'’])(?P<name>[A-Za-z][a-z'’-]+)(?:['’]s|\s+is)\s+\d{1,2}\b"
    r"|(?<![\w'’])(?P<bracketed>[A-Za-z][a-z'’-]+)\s*\(\d{1,2}\)"
)


def counted_group(text: str) -> list[tuple[str, str]]:
    """The members of a group the speaker counts, each given with an age ("i'm a stay at
    home dad with two kids, Ruby's 7 and in Year 3 ... and Finn's 4"): (name, the
    group's relationship, ``cues.GROUPS``), only when as many are named as counted.

    >>> counted_group("I'm a dad with two kids, Ruby's 7 and in Year 3 and Finn's 4 and home")
    [('Ruby', 'child'), ('Finn', 'child')]
    >>> counted_group("we have 2 kids ruby (7) and finn (4)"), counted_group("two kids, it's 7am")
    ([('Ruby', 'child'), ('Finn', 'child')], [])
    """
    out: list[tuple[str, str]] = []
    for m in _KIDS_BY_AGE.finditer(text):
        names = [
            a["name"] or a["bracketed"]
            for a in _AGED.finditer(m["rest"])
            if (a["name"] or a["bracketed"]).lower() not in _NOT_AGED
        ]
        if len(names) == _COUNTED[m["n"].lower()]:
            relation = cues.GROUPS[m["group"].lower()]
            out += [(_capitalised(name), relation) for name in names]
    return out


#: Words that stand before "'s 7" and name no one: "it's 7am", "she's 4".
_NOT_AGED = frozenset({"it", "he", "she", "that", "what", "who", "there", "one", "eldest"})


def asked_to_marry(span: Span) -> str | None:
    """Whom the speaker asked to marry them ("asked jess to marry me ... she said yes",
    "I asked Maria to marry me"), unless the answer was no.

    >>> from ingestion.extract import load_nlp
    >>> yes = load_nlp()("asked jess to marry me on sat. she said yes")
    >>> no = load_nlp()("I asked Ana to marry me, she said no")
    >>> asked_to_marry(yes[:]), asked_to_marry(no[:])
    ('Jess', None)
    """
    for token in span:
        if token.lemma_.lower() != "marry" or token.head.lemma_.lower() != "ask":
            continue
        if not any(c.lower_ in {"me", "us"} for c in token.children):
            continue
        asked = next((c for c in token.head.children if c.dep_ == "dobj"), None)
        if asked is None or not name_token(asked):
            continue
        if re.search(r"\bsaid\s+no\b|\bturned\s+me\s+down\b", span.doc.text, re.I):
            return None
        return _capitalised(asked.text)
    return None


def placed_after(doc: Doc) -> list[tuple[str, str]]:
    """Someone named, then placed by a sentence of its own that says only who they are
    ("ciarán's flying to melbourne in march btw. my brother."): (name, relationship)."""
    out: list[tuple[str, str]] = []
    for before, sentence in itertools.pairwise(doc.sents):
        words = _said_words(sentence)
        if len(words) != 2 or words[0].lower_ not in _OWNERS or words[1].lower_ not in _words():
            continue
        subject = next((t for t in before if t.dep_ in _SUBJECT_DEPS), None)
        if subject is not None and subject.pos_ == "PROPN" and name_token(subject):
            out.append((_capitalised(subject.text), spelled_out(words[1].lower_)))
    return out


#: Whom the user says they met before naming them ("met a girl. aoife.").
_MET = frozenset({"girl", "guy", "someone", "somebody", "woman", "man", "lady", "fella", "bloke"})


def met_then_named(doc: Doc) -> list[str]:
    """Someone the user met, named by the sentence after, alone ("ALSO. met a girl.
    aoife. she came in with her mates"): a person, so "she" has someone to be."""
    out: list[str] = []
    for before, sentence in itertools.pairwise(doc.sents):
        met = any(
            t.lemma_.lower() == "meet"
            and any(c.dep_ == "dobj" and c.lower_ in _MET for c in t.children)
            for t in before
        )
        words = _said_words(sentence)
        if met and len(words) == 1 and name_token(words[0]) and not is_word(words[0].text):
            out.append(_capitalised(words[0].text))
    return out


def speaking_subjects(doc: Doc) -> list[str]:
    """Names said right before saying or asking ("dre said he gon pick me up", "Tasha
    asked me"): a word no dictionary knows, where only someone goes, is someone, though
    no relationship is said; "if dom asked me" only supposes him."""
    return [
        _capitalised(t.text)
        for t in doc
        if t.dep_ == "nsubj"
        and not any(c.dep_ in ("det", "poss") for c in t.children)  # "the app said"
        and t.head.lemma_.lower() in cues.SPEAKING
        and not any(c.dep_ == "mark" and c.lower_ in ("if", "unless") for c in t.head.children)
        and t.head.i == t.i + 1
        and name_token(t)
        and _unknown_word(t)
    ]


def _baby_name(token: Token) -> bool:
    """A word of a newborn's name: a name token, or one typed in capitals ("LEO TRAN");
    never the word for the baby ("baby girl born friday")."""
    if token.lower_ in cues.NEWBORN or token.lower_ == "baby":
        return False
    return name_token(token) or (
        token.is_alpha and token.text.isupper() and token.pos_ == "PROPN" and len(token) > 1
    )


def the_appositive(doc: Doc) -> list[Named]:
    """ "the editor, elise, said she picked me", "the landlord, mr patel, came by": a
    relationship said with "the" and the name set off by commas as its apposition (a
    "the" with no name beside it says nobody's name)."""
    out: list[Named] = []
    for token in doc:
        if token.i < 1 or token.i + 3 >= len(doc) or doc[token.i + 1].text != ",":
            continue
        word = token.lower_
        if word not in _words() or word in cues.SELF_OWNED or doc[token.i - 1].lower_ != "the":
            continue
        got = _name_at(doc, token.i + 2)
        if got is None or got[1] >= len(doc) or doc[got[1]].text != ",":
            continue
        if doc[token.i + 2].dep_ != "appos" and doc[got[1] - 1].dep_ != "appos":
            continue
        end = doc[got[1] - 1]
        out.append(
            Named(
                _capitalised(got[0]),
                spelled_out(word),
                False,
                doc[token.i - 1].idx,
                end.idx + len(end),
                "appos",
            )
        )
    return out


def the_role_after(doc: Doc) -> list[Named]:
    """ "mr okafor the landlord seems sound", "sarah, the vet, said he's fine": a name (a
    proper noun to the tagger, or titled), then "the" and a relationship word, said of
    it. Set off by a comma, the role is set off after too: in "a flat on malplaquetstraße,
    the landlord didnt even ask" the landlord starts a clause of its own."""
    out: list[Named] = []
    for the in doc[1:-1]:
        role_at = the.i + 1
        word = doc[role_at].lower_
        if the.lower_ != "the" or word not in _words() or word in cues.SELF_OWNED:
            continue
        if role_at + 1 < len(doc) and doc[role_at + 1].pos_ in {"NOUN", "PROPN"}:
            continue  # "e dey bark the landlord goat": the word describes the goat
        end = the.i
        if doc[the.i - 1].text == ",":
            end = the.i - 1
            if role_at + 1 < len(doc) and doc[role_at + 1].text != ",":
                continue
        for start in (end - 2, end - 1):  # "mr okafor", "sarah"
            if start < 0:
                continue
            got = _name_at(doc, start)
            named = doc[end - 1].pos_ == "PROPN" or doc[start].lower_.rstrip(".") in TITLES
            if got is not None and got[1] == end and named:
                out.append(
                    Named(
                        _capitalised(got[0]),
                        spelled_out(word),
                        False,
                        doc[start].idx,
                        doc[the.i + 1].idx + len(doc[the.i + 1]),
                        "appos",
                    )
                )
                break
    return out


def _said_as_done(verb: Token) -> bool:
    """Is the verb said as done, not negated, planned or supposed ("if renee quit", "she
    might resign", "he didn't quit", "i'm thinking of quitting")?"""
    if {t.lower_ for t in verb.sent} & cues.NOT_YET:
        return False
    return not any(
        c.dep_ in {"neg", "aux", "mark"}
        and c.lower_ in cues.NOT_YET | {"not", "n't", "never", "if"}
        for c in verb.children
    )


def quit_work(doc: Doc, verbs: frozenset[str] = cues.QUITTING, going: bool = False) -> list[str]:
    """Names the turn says left their job ("renee quit. her last shift was last night",
    "arjun resigned"): the subject of a quitting verb (of ``verbs``) said as done, or as
    under way when ``going`` ("katrin is leaving"), not negated, planned or supposed ("if
    renee quit", "she might resign", "he didn't quit")."""
    out: list[str] = []
    tenses = {"VBD", "VBN", "VBG"} if going else {"VBD", "VBN"}
    for token in doc:
        if token.lemma_.lower() not in verbs or token.pos_ != "VERB":
            continue
        if token.tag_ not in tenses and not (token.tag_ == "VBP" and token.lower_ == "quit"):
            continue
        if not _said_as_done(token):
            continue
        subject = next((c for c in token.children if c.dep_ in _SUBJECT_DEPS), None)
        if subject is not None and name_token(subject) and subject.pos_ in {"PROPN", "NOUN"}:
            out.append(_capitalised(subject.text))
    return out


def took_over(doc: Doc) -> list[str]:
    """Names the turn says took a post over ("his son rhys has took over the firm",
    "sandra took over from mike"), said as done: the subject of "take over" or
    "replace", a name by its tag or because no dictionary knows it (chat's "rhys" comes
    out a verb)."""
    out: list[str] = []
    for token in doc:
        lemma = token.lemma_.lower()
        over = any(c.dep_ == "prt" and c.lower_ == "over" for c in token.children)
        if not ((lemma == "take" and over) or lemma == "replace"):
            continue
        if token.tag_ not in {"VBD", "VBN"}:
            continue
        if not _said_as_done(token):
            continue
        subject = next((c for c in token.children if c.dep_ in _SUBJECT_DEPS), None)
        if subject is not None and subject.pos_ == "NOUN":  # "his son Rhys has took over"
            subject = next((c for c in subject.children if c.dep_ == "appos"), subject)
        if subject is None or not _lettered(subject.text) or subject.pos_ == "PRON":
            continue
        if subject.pos_ == "PROPN" or subject.ent_type_ == "PERSON" or _unknown_word(subject):
            out.append(_capitalised(subject.text))
    return out


def left_work(doc: Doc) -> bool:
    """Whether the speaker says they left or lost their job, as done: "gave notice
    yesterday", "i quit taco bell", "i resigned", "quit my job today", "got laid off",
    "i was made redundant", "they let me go", "lost my job"; not "i quit smoking", "i'm
    giving notice next week", "if i quit", "im getting laid off next month"."""
    for token in doc:
        lemma = token.lemma_.lower()
        objects = [
            c for c in token.children if c.dep_ == "dobj" and c.lower_ not in cues.CHAT_FILLERS
        ]
        if _dismissed(token) or _let_go(token) or _lost_the_job(token, objects):
            if _said_as_done(token):
                return True
            continue
        if lemma in cues.QUITTING:
            left = _quit_work(doc, token.i)
        elif lemma in cues.NOTICE_GIVING:
            left = any(o.lemma_.lower() == "notice" for o in objects)
        else:
            continue
        if not left or token.pos_ != "VERB" or token.tag_ not in {"VBD", "VBN", "VBP"}:
            continue
        if token.tag_ == "VBP" and token.lower_ != "quit":
            continue  # "i quit" is said as done; "i give notice" is not
        if not _said_as_done(token):
            continue
        subjects = [c for c in token.children if c.dep_ in _SUBJECT_DEPS]
        if all(s.lower_ in {"i", "we"} for s in subjects):
            return True
    return False


def _dismissed(verb: Token) -> bool:
    """ "got laid off", "i was made redundant", "got fired": a dismissing verb
    (``cues.DISMISSED``) in the passive, done, of the speaker or of no one said."""
    lemma = verb.lemma_.lower()
    if lemma not in cues.DISMISSED or verb.tag_ != "VBN":
        return False
    needed = cues.DISMISSED[lemma]
    if needed is not None and not any(c.lower_ == needed for c in verb.children):
        return False
    if needed is None and any(c.dep_ == "prt" for c in verb.children):
        return False  # "got fired up about it"
    passive = [c for c in verb.children if c.dep_ == "auxpass"]
    subjects = {c.lower_ for c in verb.children if c.dep_ == "nsubjpass"}
    return (
        bool(passive)
        and all(a.tag_ in {"VBD", "VBZ", "VBN"} for a in passive)  # not "getting laid off"
        and subjects <= {"i", "we"}
    )


def _let_go(verb: Token) -> bool:
    """ "they let me go", "work let me go today"."""
    return (
        verb.lemma_.lower() == "let"
        and verb.tag_ == "VBD"
        and any(
            c.lemma_.lower() == "go" and any(s.lower_ == "me" for s in c.children)
            for c in verb.children
        )
    )


def _lost_the_job(verb: Token, objects: list[Token]) -> bool:
    """ "lost my job", "i lost my position"."""
    return (
        verb.lemma_.lower() == "lose"
        and verb.tag_ in {"VBD", "VBN"}
        and any(
            o.lower_ in cues.JOB_NOUNS and any(c.lower_ == "my" for c in o.children)
            for o in objects
        )
        and {c.lower_ for c in verb.children if c.dep_ in _SUBJECT_DEPS} <= {"i", "we"}
    )


def _quit_work(doc: Doc, at: int) -> bool:
    """What the quitting verb at ``at`` leaves, by the words right after it: nothing
    said ("i quit lol", "i resigned today"), a job ("quit my job"), a named place ("i
    quit Taco Bell") or a place of work ("i quit the cafe"); not a habit ("quit
    smoking", "quit sugar")."""
    k = at + 1
    while k < len(doc) and doc[k].lower_ in {"my", "the", "this", "that", "from", "at"}:
        k += 1
    if k >= len(doc):
        return True
    after = doc[k]
    return (
        after.is_punct
        or not after.is_alpha
        or after.lower_ in cues.CHAT_FILLERS | cues.JOB_NOUNS | cues.WORKPLACES
        or after.pos_ == "PROPN"
        or after.ent_type_ in {"ORG", "DATE", "TIME"}
    )


#: Entity labels of things that are no one, whatever slot they are in.
_THING_ENTS = frozenset(
    {"ORG", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE", "NORP"}
)
#: Where a name stands beside a relationship noun in the parse: "roommate vikram"
#: (the noun compounded into the name), "a college friend jordan" (the name in apposition).
_BESIDE = frozenset({"compound", "appos", "flat"})
#: Copula complements: "manager would be sandeep", "new manager is farah".
_PREDICATES = frozenset({"attr", "acomp", "oprd"})


def linked(doc: Doc) -> list[Named]:
    """People named beside a relationship noun in any of the usual configurations, owned
    by the speaker or by no one ("roommate vikram just got into google", "a college friend
    jordan", "sandeep, my manager, announced", "new manager is farah", "manager would be
    sandeep", "the GP Dr Patel rang", "new manager na kami, si tasha"), and people placed
    as the speaker's neighbours ("Devon next door": ``cues.PLACED``). The link is read from
    the dependency parse, with the comma-set apposition read by position where chat
    defeats the parser. A name needs evidence of being one (``_evidenced``): a capital
    (typed, or given back by ``ingestion.casing``), spaCy's PERSON, or a word no
    dictionary knows; "my manager is chill" names no one."""
    out: list[Named] = []
    for token in doc:
        found = _relationship_noun(doc, token)
        if found is None or _called_after_marker(doc, token):
            continue
        start, word = found
        candidates = _linked_candidates(doc, token, start)
        if doc.user_data.get("people only") and not any(c.dep_ == "poss" for c in token.children):
            # a language read for its people only ("son" may be French): a noun no one
            # owns names only whom a name marker introduces ("manager na kami, si tasha")
            candidates = [c for c in candidates if doc[c[0].i - 1].lower_ in cues.NAME_MARKERS]
        for name_token_, how in candidates:
            if _said_of_self(name_token_):
                break  # "Im Margaret Ellis, 71, retired infant teacher": the speaker
            got = _evidenced_name(doc, name_token_)
            if got is None:
                continue
            name, lo, hi = got
            first = min(lo, token.left_edge.i, start)
            last = max(hi, token.i + 1)
            end = doc[last - 1]
            out.append(
                Named(_capitalised(name), word, False, doc[first].idx, end.idx + len(end), how)
            )
            break
    out.extend(_placed(doc))
    return out


def _relationship_noun(doc: Doc, token: Token) -> tuple[int, str] | None:
    """A singular relationship noun (one or two words, "college friend") the speaker owns
    or no one does: (index of its first word, the word as stored). "her manager", "Ana's
    brother" are someone else's."""
    if token.pos_ not in {"NOUN", "PROPN"} or token.tag_ in {"NNS", "NNPS"}:
        return None
    low = token.lower_
    after = doc[token.i + 1].lower_ if token.i + 1 < len(doc) else ""
    if f"{low} {after}" in _words():
        return None  # "my head chef": read at "chef", not as a head(teacher) named Chef
    start, word = token.i, low
    before = doc[token.i - 1].lower_ if token.i > 0 else ""
    if before not in _OWNERS and f"{before} {low}" in _words():
        start, word = token.i - 1, f"{doc[token.i - 1].lower_} {low}"
    elif low not in _words() or low in cues.SELF_OWNED:
        return None
    owners = [c for c in token.children if c.dep_ == "poss"]
    if any(c.lower_ not in _OWNERS for c in owners):
        return None
    if start > 0 and (doc[start - 1].tag_ == "POS" or doc[start - 1].lower_ in {"'s", "’s"}):
        return None  # "chris's mum margaret": Chris's mother, parsed as Margaret's
    if start > 0 and _apostrophe_left_out(doc[start - 1]):
        return None  # "toms mum sandra": read as Tom's (``held_kin``)
    if any(
        t.lower_ in _NOT_OWN_BEFORE - {"a", "an", "the"} for t in doc[max(0, start - 3) : start]
    ):
        return None  # "his brother's car", "your son", "their landlord"
    return start, spelled_out(word)


def _linked_candidates(doc: Doc, rel: Token, start: int) -> list[tuple[Token, str]]:
    """Tokens the parse (or the position, for a comma-set apposition) links to the
    relationship noun ``rel`` as its name, with how: "after", "appos", "is"."""
    out: list[tuple[Token, str]] = []
    head = rel.head
    described = any(c.lower_ in {"a", "an"} for c in rel.children)  # "a doctor": what, not who
    if rel.dep_ == "compound" and head.i > rel.i:  # "roommate vikram", "the GP Dr Patel"
        while (
            head.lower_.rstrip(".") in TITLES and head.dep_ == "compound" and head.head.i > head.i
        ):
            head = head.head
        out.append((head, "after"))
        named = doc[rel.i + 1]  # "boss david 成日 last minute call meeting": where the head
        if named.i < head.i and named.dep_ == "compound" and named.head.i == head.i:
            out.append((named, "after"))  # is no name, the name compounded before it
    out += [(c, "after") for c in rel.rights if c.dep_ in _BESIDE]  # "a college friend jordan"
    nxt = rel.i + 1  # "the doctor Dr Patel rang", parsed apart: a person's name right after
    while nxt < len(doc) - 1 and doc[nxt].lower_.rstrip(".") in TITLES:
        nxt += 1
    if nxt < len(doc) and doc[nxt].ent_type_ == "PERSON" and doc[nxt].text[:1].isupper():
        out.append((doc[nxt], "after"))
    introduced = _introduced_new(doc, rel)
    if introduced is not None:
        out.append((introduced, "after"))
    pointed = any(c.dep_ == "poss" or c.lower_ == "the" for c in rel.children)
    if rel.dep_ == "appos" and head.i < rel.i and pointed:  # "olga, my manager"
        out.append((head, "appos"))
    negated = any(c.dep_ == "neg" or c.lower_ in {"longer", "anymore"} for c in head.children)
    if head.lemma_ == "be" and rel.dep_ in _SUBJECT_DEPS and not negated and not described:
        out += [
            (c, "is") for c in head.rights if c.dep_ in _PREDICATES
        ]  # "manager would be sandeep"
    for k in range(rel.i + 1, min(rel.i + 6, len(doc) - 1)):  # "new manager na kami, si tasha"
        if doc[k].text in {".", "!", "?", ";"} or doc[k].lower_ in _words():
            break
        if doc[k].lower_ in cues.NAME_MARKERS:
            out.append((doc[k + 1], "after"))
            break
    before = start - 1  # "sandeep, my manager, announced": set off by commas
    if before >= 2 and doc[before].lower_ in _OWNERS and doc[before - 1].text == ",":
        name = doc[before - 2]
        opens = name.i == name.sent.start or doc[name.i - 1].is_punct
        if opens and rel.i + 1 < len(doc) and doc[rel.i + 1].text == ",":
            out.append((name, "appos"))
    if before >= 1 and doc[before].lower_ in _OWNERS and _opens_as_a_name(doc[before - 1]):
        out.append((doc[before - 1], "appos"))  # "jonno my butty from school just got a job"
    return out


def _opens_as_a_name(token: Token) -> bool:
    """A sentence's first word, right before "my" and a relationship noun, that is a
    name: spaCy's PERSON, or, in chat typed in lower case, a word no dictionary knows
    that the conversation writes with a capital ("Jonno", as the assistant wrote him
    back); "update my sister ...", "ahh my boss is mad" open with no name. A title
    before the name is evidence of it, and a filler may open the sentence before them
    ("also mrs odhiambo our matron put me on nights")."""
    doc = token.doc
    first = token.i
    while first > 0 and doc[first - 1].lower_.rstrip(".") in TITLES:
        first -= 1
    titled = first < token.i
    if first > 0 and doc[first - 1].lower_ in cues.LEADING_FILLERS:
        first -= 1
    opens = first == token.sent.start or doc[first - 1].is_punct
    if not opens or token.pos_ == "PRON" or not _lettered(token.text):
        return False
    if token.lower_ in _NO_NAME_WORDS:
        return False
    recased = token.text[:1].isupper() and not _well_cased(doc)
    unknown = not (is_word(token.text) or is_word(token.lemma_))
    named = name_token(token) or _unknown_word(token)
    return token.ent_type_ == "PERSON" or (recased and unknown) or (titled and named)


def _introduced_new(doc: Doc, rel: Token) -> Token | None:
    """ "first week with the new head. mrs whitfield, gemma, seems lovely": a new holder
    of a role said at the end of a sentence, then named as the next sentence opens (its
    subject, or set off by a comma). Only a *new* one: "rang my mum. sarah said" names
    someone else."""
    if not any(c.lower_ in cues.NEW_MODIFIERS for c in rel.children):
        return None
    stop = rel.i + 1
    if stop + 1 >= len(doc) or doc[stop].text not in {".", "!", "...", "…"}:
        return None
    k = stop + 1
    while k < len(doc) - 1 and doc[k].lower_.rstrip(".") in TITLES:
        k += 1
    if doc[k].text == "." and k + 1 < len(doc):  # "mrs. whitfield"
        k += 1
    named = doc[k]
    subject = named.dep_ in _SUBJECT_DEPS or (k + 1 < len(doc) and doc[k + 1].text == ",")
    return named if subject else None


def _said_of_self(token: Token) -> bool:
    """The complement of "I am" ("Im Margaret Ellis"): the speaker's own name."""
    head = token.head
    return token.dep_ in _PREDICATES and any(
        c.dep_ in _SUBJECT_DEPS and c.lower_ in {"i", "we"} for c in head.children
    )


def _evidenced_name(doc: Doc, token: Token) -> tuple[str, int, int] | None:
    """The name at ``token`` (a title before it kept: "Dr Patel") when there is evidence
    it is one: (name, first index, index after it). The slot is one only a name goes in,
    so an organisation spaCy's small model sees in a lone name ("new manager is
    Ferdinand", ORG) does not veto it."""
    if not _evidenced(token, slot=True):
        return None
    at = token.i
    while at > 0 and (  # "Dr Patel", "Margaret Ellis": what the parse compounds into it
        doc[at - 1].lower_.rstrip(".") in TITLES
        or (
            doc[at - 1].dep_ == "compound"
            and doc[at - 1].head.i == token.i
            and doc[at - 1].lower_ not in _words()  # "appa ravi": the father, Ravi
            and _evidenced(doc[at - 1])
        )
    ):
        at -= 1
    got = _name_at(doc, at, slot=True)
    if got is None or got[1] <= token.i:  # "Maria Lopez": the words up to the one linked
        words = [t.text for t in doc[at : token.i + 1]]
        title = doc[at].lower_.rstrip(".") in TITLES
        got = (
            " ".join([w.rstrip(".") if title and k == 0 else w for k, w in enumerate(words)]),
            token.i + 1,
        )
    return got[0], at, got[1]


def _evidenced(token: Token, slot: bool = False) -> bool:
    """A name in a slot where names go, with evidence it is one: capitalised (as typed
    or as the conversation writes it), spaCy's PERSON, or a word no dictionary knows
    (tagged as anything: chat defeats the tagger, "sandeep" comes out an adverb). In a
    ``slot`` a relationship noun links, a thing's entity label vetoes only a name of
    several words ("Acme Corp"): the small model labels one in fourteen names ORG."""
    text = token.text
    if not _lettered(text) or len(text) < 2:
        return False
    if token.ent_type_ in _THING_ENTS and not (slot and _lone_entity(token)):
        return False
    if not name_token(token) and (
        not token.is_lower
        or is_word(text)
        or is_word(token.lemma_)
        or token.pos_ in _NOT_NAME_POS
        or token.lower_ in _NO_NAME_WORDS
    ):
        return False
    return (
        text[0].isupper()
        or token.ent_type_ == "PERSON"
        or not (is_word(text) or is_word(token.lemma_))
        or (slot and _titled_by_relationship(token))
    )


def _titled_by_relationship(token: Token) -> bool:
    """ "cousin ray moved", "neighbour regina moved": a proper noun the parse heads with a
    relationship noun before it, the subject of what follows; a name though the
    dictionary knows the word."""
    return (
        token.pos_ == "PROPN"
        and token.dep_ in _SUBJECT_DEPS
        and any(
            c.dep_ == "compound" and c.i == token.i - 1 and c.lower_ in _words()
            for c in token.children
        )
    )


def _lone_entity(token: Token) -> bool:
    """Whether the entity ``token`` is in is that one word."""
    return token.ent_iob_ == "B" and (
        token.i + 1 >= len(token.doc) or token.doc[token.i + 1].ent_iob_ != "I"
    )


def _placed(doc: Doc) -> list[Named]:
    """ "Devon next door, lovely lad", "Tash from the old team": someone placed where the
    speaker lives or knows them from (``cues.PLACED``), said right after the name (and
    its title: "jiyeon unnie from work"). A word that opens the sentence is a name only
    where no dictionary knows it: "Home from work" places no one."""
    out: list[Named] = []
    words = [t.lower_ for t in doc]
    for phrase, relationship in cues.PLACED.items():
        size = len(phrase.split())
        for k in range(1, len(doc) - size + 1):
            if " ".join(words[k : k + size]) != phrase:
                continue
            at = k - 1 if k < 2 or words[k - 1] not in TITLES_AFTER else k - 2
            name = doc[at]
            titled = at > 0 and words[at - 1].rstrip(".") in TITLES  # "herr braun"
            opens = at == name.sent.start or doc[at - 1].is_punct
            if opens and name.ent_type_ != "PERSON" and is_word(name.lower_):
                continue
            if name.pos_ == "PRON" or name.lower_ in _NO_NAME_WORDS:
                continue  # "a text to send everybody from church"
            evidenced = _evidenced(name, slot=True) and name.text[0].isupper()
            if not (evidenced or _unknown_word(name) or (titled and name_token(name))):
                continue
            got = _name_at(doc, at - 1 if titled else at, slot=True)
            if got is None:
                continue
            end = doc[k + size - 1]
            start = doc[at - 1 if titled else at]
            out.append(
                Named(
                    _capitalised(got[0]),
                    relationship,
                    False,
                    start.idx,
                    end.idx + len(end),
                    "after",
                )
            )
    return out


#: Dependencies that start a clause of its own inside another ("ruby was fine, kai was
#: on his phone": Ruby is not in the clause "his" is in).
_CLAUSES = frozenset({"ccomp", "advcl", "conj", "relcl", "parataxis", "xcomp", "acl", "csubj"})
_THIRD = frozenset({"he", "she", "him", "her", "his", "hers", "they", "them", "their"})


def owned_by_subject(doc: Doc) -> list[tuple[Token, str]]:
    """Whose a his/her is when its clause leaves no doubt: "ruby already picked her room",
    "kai was on his phone": (the subject, "m" or "f"). A clause that names anyone else
    ("ruby asked mel about her job") or has another pronoun says nothing."""
    out: list[tuple[Token, str]] = []
    for token in doc:
        gender = cues.POSSESSIVE_GENDER.get(token.lower_)
        if gender is None or token.dep_ != "poss":
            continue
        verb = token.head
        while verb.pos_ not in {"VERB", "AUX"} and verb.dep_ != "ROOT":
            verb = verb.head
        subjects = [c for c in verb.children if c.dep_ in _SUBJECT_DEPS]
        if len(subjects) != 1 or subjects[0].pos_ not in {"PROPN", "NOUN"}:
            continue
        subject = subjects[0]
        clause = [verb]
        for t in clause:
            clause.extend(c for c in t.children if c.dep_ not in _CLAUSES)
        others = [
            t
            for t in clause
            if t.i not in {subject.i, token.i}
            and (t.pos_ == "PROPN" or t.ent_type_ == "PERSON" or t.lower_ in _THIRD)
        ]
        if not others and (name_token(subject) or _unknown_word(subject)):
            out.append((subject, gender))
    return out


_FIRST_PERSON = frozenset({"i", "me", "my", "im", "i'm", "myself"})


def own_work(doc: Doc) -> list[str]:
    """What the speaker does for work, as they say it: "its for a dispatcher job", "i
    got an offer as a hygienist" (a relationship word is none: "as a kid")."""
    out: list[str] = []
    for token in doc:
        if token.lower_ in cues.JOB_NOUNS:
            kinds = [
                c
                for c in token.lefts
                if c.dep_ in {"compound", "amod"} and c.pos_ in {"NOUN", "ADJ"} and c.is_alpha
            ]
            if any(c.dep_ == "poss" and c.lower_ not in _OWNERS for c in token.children):
                continue  # "her nurse job"
        elif token.lower_ == "as" and token.dep_ == "prep":
            kinds = [
                c
                for c in token.children
                if c.dep_ == "pobj"
                and c.tag_ == "NN"
                and any(d.lower_ in {"a", "an"} for d in c.children)
            ]
        else:
            continue
        sentence = token.sent
        mine = any(t.lower_ in _FIRST_PERSON and t.dep_ != "poss" for t in sentence)
        others = any(  # "my sister got a nurse job": hers
            t.dep_ in _SUBJECT_DEPS and t.lower_ not in _FIRST_PERSON and t.pos_ != "PRON"
            for t in sentence
        ) or any(t.dep_ in _SUBJECT_DEPS and t.lower_ in _THIRD for t in sentence)
        trade = kinds[-1].lower_ if kinds else ""
        if trade and (mine or not others) and (trade not in _words() or trade in cues.TRADES):
            out.append(kinds[-1].lower_)
    return out


def same_work(doc: Doc, work: set[str]) -> list[str]:
    """People named as doing the speaker's own work (``work``, from ``own_work``): "a
    senior dispatcher named lorraine", "the other hygienist is a guy named santiago";
    their coworkers. Someone else's ("her hygienist") is not."""
    out: list[str] = []
    for token in doc:
        if not {token.lower_, token.lemma_.lower()} & work or token.pos_ != "NOUN":
            continue
        if any(c.dep_ == "poss" and c.lower_ not in _OWNERS for c in token.children):
            continue
        named = [c for c in token.rights if c.dep_ == "acl" and _naming(c.lower_)]
        other = any(c.lower_ == "other" for c in token.children)
        if other and token.dep_ in _SUBJECT_DEPS and token.head.lemma_ == "be":
            for said in token.head.rights:  # "... is a guy named santiago", "... is tom"
                if said.dep_ not in _PREDICATES:
                    continue
                named += [c for c in said.rights if c.dep_ == "acl" and _naming(c.lower_)]
                if said.pos_ == "PROPN" and (got := _name_at(doc, said.i)) is not None:
                    out.append(_capitalised(got[0]))
        for naming in named[:1]:
            if (got := _name_at(doc, naming.i + 1, slot=True)) is not None:
                out.append(_capitalised(got[0]))
    return out


#: How a clause that reports or wants hangs from its verb ("mike said she'd come"): its
#: subject is whoever is spoken of, not the one who speaks.
_REPORTED = frozenset({"ccomp", "xcomp", "parataxis"})


def named_by_pronoun(doc: Doc) -> list[tuple[Token, str]]:
    """Who a he or she points back to when its sentence leaves no doubt: "our first is
    daniel, he's 5", "daniel is confused but he keeps asking": (the name, "m" or "f").
    The name is the only one said before the pronoun, as a subject or what a subject is;
    no other third person is said before; and the pronoun does not sit in what the named
    one says or wants ("mike said she'd come" says nothing of Mike)."""
    out: list[tuple[Token, str]] = []
    for token in doc:
        gender = cues.SUBJECT_GENDER.get(token.lower_)
        if gender is None or token.dep_ not in _SUBJECT_DEPS:
            continue
        before = doc[token.sent.start : token.i]
        if any(t.lower_ in _THIRD for t in before):
            continue
        names = [
            t
            for t in before
            if (t.pos_ == "PROPN" or t.ent_type_ == "PERSON")
            and name_token(t)
            and not (t.dep_ in {"compound", "flat"} and t.head.i < token.i and t.head.i > t.i)
        ]
        if len(names) != 1 or names[0].dep_ not in _SUBJECT_DEPS | {"attr", "appos"}:
            continue
        name = names[0]
        verb, reported = token.head, False
        while verb.i not in {verb.head.i, name.head.i}:
            reported = reported or verb.dep_ in _REPORTED
            verb = verb.head
        if not (verb.i == name.head.i and reported):
            out.append((name, gender))
    return out


@dataclass(frozen=True)
class Held:
    """Someone named as another person's relative: "chris's mum margaret", "erik, his
    wife becca", "her son marcus jr". ``owner`` is the possessor as typed ("chris",
    "toms", "his"); ``pronoun`` whether it is a his/her/their that points back."""

    name: str
    relation: str
    owner: str
    pronoun: bool
    at: int  # token index of the owner word
    together: tuple[str, ...] = ()  # the names listed after a group noun ("parents")


#: Possessive pronouns that make a relative someone else's.
_THEIR = frozenset({"his", "her", "their"})


def _apostrophe_left_out(owner: Token) -> bool:
    """A possessor typed without its apostrophe before a relationship noun: "toms mum"
    (not a relationship word itself: "boss")."""
    return (
        owner.lower_.endswith("s")
        and owner.dep_ in {"poss", "compound"}
        and len(owner) > 3
        and owner.lower_ not in _words()
    )


def held_kin(doc: Doc) -> list[Held]:
    """Relatives of someone else named beside their relationship noun, read from the
    parse: the possessor before the noun (a name with 's, a name typed "toms", or
    his/her/their), the name joined to the noun (compound or apposition, on either
    side). Whose relative they are to the user is the reader's business."""
    out: list[Held] = []
    for rel in doc:
        group = cues.GROUPS.get(rel.lower_) if rel.tag_ in {"NNS", "NNPS"} else None
        if rel.pos_ not in {"NOUN", "PROPN"} or (rel.lower_ not in _words() and not group):
            continue
        j = rel.i - 1
        while j >= 0 and j >= rel.i - 2 and doc[j].pos_ == "ADJ":
            j -= 1  # "his little son felix"
        if j < 0:
            continue
        owner = doc[j]
        if owner.text in {"'s", "’s", "'", "’"} and j > 0:
            owner, typed = doc[j - 1], doc[j - 1].text
        elif owner.lower_ in _THEIR:
            typed = owner.lower_
        elif _apostrophe_left_out(owner):
            typed = owner.text  # "toms mum": the apostrophe left out
        else:
            continue
        k = rel.i + 1
        if k < len(doc) and doc[k].text == ",":
            k += 1
        if group is not None:  # "toms parents, sue and graham"
            out += _held_group(doc, rel, k, relation=group, typed=typed, at=owner.i)
            continue
        got = _name_at(doc, k, slot=k == rel.i + 1)
        if got is None or doc[k].ent_type_ in _THING_ENTS | {"GPE", "LOC"}:
            continue  # "his brother paris trip": a place
        span = doc[k : got[1]]
        joined = any(
            t.head.i == rel.i
            or rel.head.i == t.i
            or (t.head.i == rel.head.i and t.dep_ == "appos" and rel.dep_ != "ROOT")
            for t in span
        )
        if joined or (k == rel.i + 1 and doc[k].pos_ == "PROPN"):  # "his mum sue": a name
            name, end = got
            nxt = doc[end] if end < len(doc) else None
            if (  # "marcus jr": the word the parse joins to the name is part of it
                nxt is not None
                and nxt.pos_ == "PROPN"
                and name_token(nxt)
                and nxt.ent_type_ not in _THING_ENTS | {"GPE", "LOC"}
                and (nxt.head.i == end - 1 or doc[end - 1].head.i == nxt.i)
            ):
                name = f"{name} {nxt.text}"
            word = spelled_out(rel.lower_)
            out.append(Held(_capitalised(name), word, typed, typed in _THEIR, owner.i))
    return out


def _held_group(doc: Doc, rel: Token, k: int, *, relation: str, typed: str, at: int) -> list[Held]:
    """The names listed after someone else's group noun, set off by a comma and joined
    to it by the parse: "toms parents, sue and graham"."""
    if k == rel.i + 1 or k >= len(doc):
        return []
    names: list[str] = []
    token: Token | None = doc[k]
    while token is not None and token.ent_type_ not in _THING_ENTS | {"GPE", "LOC"}:
        got = _name_at(doc, token.i)
        linked = token.head.i == rel.i or (names and token.dep_ == "conj")
        if got is None or not linked:
            break
        names.append(_capitalised(got[0]))
        token = next((c for c in token.children if c.dep_ == "conj"), None)
    if len(names) < 2:
        return []
    return [Held(n, relation, typed, typed in _THEIR, at, tuple(names)) for n in names]
