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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphmem.relationships import TITLES
from ingestion import cues
from ingestion.casing import well_cased

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

#: Parts of speech a name is never tagged as, even in lower-case chat.
_NOT_NAME_POS = frozenset(
    {"AUX", "ADP", "PART", "CCONJ", "SCONJ", "DET", "PRON", "NUM", "PUNCT", "SYM", "SPACE"}
)
#: Entity labels that say a word is no one's name.
_NOT_NAME_ENTS = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "QUANTITY", "PERCENT"})
_OWNERS = cues.OWNERS
#: Words that name someone as they are introduced: "a beagle named penny".
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
_NAMING = frozenset({"named", "called", "name", "nicknamed"})


@dataclass(frozen=True)
class Named:
    """A name said with a relationship (or a pet's kind): ``how`` says which reading."""

    name: str
    relationship: str
    pet: bool
    start: int  # character offsets of the whole phrase
    end: int
    how: str  # "after" (my sister rachel), "appos" (olga, my manager), "is" (x is my cat)


def spelled_out(word: str) -> str:
    """A relationship word as stored: chat shorthand spelled out ("gf" -> "girlfriend"),
    the user's own word otherwise.

    >>> spelled_out("GF"), spelled_out("best mate"), spelled_out("sister")
    ('girlfriend', 'best friend', 'sister')
    """
    low = " ".join(word.lower().split())
    return cues.SPELLED_OUT.get(low, low)


def _words() -> frozenset[str]:
    return cues.RELATIONSHIPS | frozenset(cues.SPELLED_OUT)


def _typo(word: str) -> str | None:
    """A relationship word typed with one slip ("frriend", "brohter"): long words only,
    so no short word is read as another."""
    if len(word) < 5 or not word.isalpha():
        return None
    close = difflib.get_close_matches(word, [w for w in _words() if len(w) >= 5], 1, 0.85)
    if not close or word in {close[0] + "s", close[0] + "es"}:
        return None  # "my friends, family and mentors": a plural, no slip
    return close[0]


def parenthesised(doc: Doc) -> list[Named]:
    """ "austin (coworker, not the city lol)": a name with its relationship in brackets."""
    out: list[Named] = []
    for token in doc:
        if token.text != "(" or token.i == 0 or token.i + 1 >= len(doc):
            continue
        name, word = doc[token.i - 1], doc[token.i + 1].lower_
        if word not in _words() or not name_token(name) or name.lower_ in _words():
            continue
        end = doc[token.i + 1]
        out.append(
            Named(
                _capitalised(name.text),
                spelled_out(word),
                False,
                name.idx,
                end.idx + len(end),
                "appos",
            )
        )
    return out


def relationship_phrase(tokens: Doc, i: int) -> tuple[int, str, bool] | None:
    """The relationship (or pet) phrase ending at token ``i`` and owned by my/our:
    (index of its first token, the word as stored, whether it is a pet)."""
    for width in (3, 2, 1):
        start = i - width + 1
        if start < 0:
            continue
        phrase = " ".join(t.lower_ for t in tokens[start : i + 1])
        phrase = phrase.replace(" - ", "-")
        pet = phrase in cues.PETS or phrase in cues.PET_KINDS
        if not pet and phrase not in _words():
            if width > 1 or not (typo := _typo(phrase)):
                continue
            phrase = typo  # "my frriend nadia"
        if tokens[start].lower_ in _OWNERS:
            continue  # "our neighbour" is listed whole: the noun alone is read below
        if phrase in cues.SELF_OWNED:  # "the missus (barb)": no "my" needed
            return start, spelled_out(phrase), False
        if (  # "wife is funke btw": chat drops the "my" before who someone is
            not pet
            and tokens[start].is_sent_start
            and i + 1 < len(tokens)
            and tokens[i + 1].lemma_ == "be"
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
        word = cues.PET_KINDS.get(phrase, phrase) if pet else spelled_out(phrase)
        return start, word, pet
    return None


def name_token(token: Token) -> bool:
    """Whether a token can be a person's (or a pet's) name as typed in chat: letters,
    not a function word, a filler, a date or a number (a word spaCy read as a place is a
    name where only a name goes: "my labmate dallas")."""
    text = token.text
    if not text.isalpha() or len(text) < 2 or token.pos_ in _NOT_NAME_POS:
        return False
    if len(text) > 2 and text.isupper():
        return False  # "LOL", shouted
    if token.is_lower and _well_cased(token.doc):
        return False  # a writer who capitalises names wrote this one in lower case: a word
    low = token.lower_
    if (
        low in cues.NAME_STOP_WORDS
        or low in cues.RELATIONSHIPS
        or low in cues.SPELLED_OUT
        or low in cues.PETS
        or low in cues.LEADING_FILLERS
        or low in cues.NOT_PEOPLE
        or low in cues.CHAT_FILLERS
        or low in TITLES
    ):
        return False
    if token.ent_type_ in _NOT_NAME_ENTS:
        return False
    if token.pos_ == "VERB" and token.ent_type_ != "PERSON":
        return False
    return token.pos_ != "ADV"


def _well_cased(doc: Doc) -> bool:
    """Whether the turn's writer capitalises sentence starts (then names too)."""
    cased = doc.user_data.get("well_cased")
    if cased is None:
        cased = doc.user_data["well_cased"] = well_cased(doc.text)
    return bool(cased)


def _name_at(doc: Doc, i: int) -> tuple[str, int] | None:
    """The name starting at token ``i`` (a title skipped, a surname kept when the parse
    joins it): (name, index after it)."""
    title = None
    if i < len(doc) and doc[i].lower_.rstrip(".") in TITLES:
        title = doc[i].text.rstrip(".")
        i += 1
        if i < len(doc) and doc[i].text == ".":
            i += 1
    if i >= len(doc) or not name_token(doc[i]):
        return None
    first = doc[i]
    end = i + 1
    if end < len(doc):
        nxt = doc[end]
        joined = (first.head is nxt or nxt.head is first) and nxt.dep_ in {
            "compound",
            "flat",
            "appos",
            "nsubj",
            "ROOT",
            "dobj",
            "pobj",
        }
        if (nxt.pos_ == "PROPN" or first.dep_ == "compound") and joined and name_token(nxt):
            end += 1
    name = " ".join(t.text for t in doc[i:end])
    if title is not None and end - i == 1:  # "mr pryce": the name the user knows him by
        name = f"{title} {name}"
    return name, end


def _capitalised(name: str) -> str:
    words = name.split()
    return " ".join(w if any(c.isupper() for c in w) else w[:1].upper() + w[1:] for w in words)


def find(doc: Doc) -> list[Named]:
    """People and pets a turn names with their relationship to the speaker, in order.

    Names come back capitalised as a name is written ("rachel" -> "Rachel").
    """
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
        named = _after(doc, token) or _before(doc, token, owner, pet)
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
    if j < len(doc) and doc[j].text == ",":
        j += 1
    if j < len(doc) and doc[j].text in {"(", "-", "–"}:
        j += 1
    got = _name_at(doc, j)
    if got is not None and not (rel.dep_ in {"nsubj", "nsubjpass"} and rel.head.i == j):
        return got[0], j, got[1], "after"
    # "my regional manager is mr danjuma now": the name the noun is said to be
    if rel.dep_ == "nsubj" and rel.head.lemma_ == "be" and rel.head.i == j:
        negated = any(c.dep_ == "neg" for c in rel.head.children)
        got = _name_at(doc, j + 1)
        said = doc[j + 1] if j + 1 < len(doc) else None  # "is due", "is sick": no names
        if got is not None and not negated and said is not None and said.pos_ != "ADJ":
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
        if doc[k].lower_ in _NAMING and doc[k].lower_ != "name":
            named = _name_at(doc, k + 1)
            if named is not None:
                return named[0], k + 1, named[1], "after"
    return None


def _before(doc: Doc, rel: Token, owner: int, pet: bool) -> tuple[str, int, int, str] | None:
    """ "olga, my new manager", "marmalade our cat", "haggis is my cat": the name the
    relationship noun is in apposition to, or the subject it is said of."""
    head = rel.head
    if rel.dep_ == "appos" and head.i < owner and name_token(head):
        return head.text, head.i, head.i + 1, "appos"
    negated = any(c.dep_ == "neg" or c.lower_ in {"longer", "anymore"} for c in head.subtree)
    if rel.dep_ == "attr" and head.lemma_ == "be" and not negated:
        subject = next((c for c in head.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
        if subject is not None and name_token(subject):
            return subject.text, subject.i, subject.i + 1, "is"
    before = owner - 1  # "marmalade our cat has been off his food", "mochi, our cat,"
    if before > 0 and doc[before].text == ",":
        before -= 1
    if (
        before >= 0
        and name_token(doc[before])
        and doc[before].dep_ != "ROOT"
        and (doc[before].pos_ == "PROPN" or (pet and doc[before].pos_ == "NOUN"))
        and (before == 0 or not doc[before - 1].is_alpha or doc[before - 1].pos_ == "CCONJ")
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
    if token.dep_ in {"amod", "compound", "attr"} or token.pos_ not in {"NOUN", "PROPN"}:
        return None  # "a very dad thing", "i've been a stay at home dad"
    before = doc[token.i - 1] if token.i > 0 else None
    if before is not None and (
        before.lower_ in _NOT_OWN_BEFORE
        or before.lower_ in _OWNERS
        or before.tag_ == "POS"
        or before.pos_ in {"ADJ", "DET", "NOUN", "PROPN"}
    ):
        return None
    return token.i, spelled_out(token.lower_), False


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
    greyhound named noodle", "we adopted a beagle. her name is penny"): (name, kind)."""
    kind = None
    for token in doc:
        if token.lemma_.lower() not in cues.ADOPTING:
            continue
        subject = {c.lower_ for c in token.children if c.dep_ in _SUBJECT_DEPS}
        if not subject & {"i", "we"}:
            continue
        for child in token.children:
            word = child.lower_
            if child.dep_ == "dobj" and (word in cues.PETS or word in cues.PET_KINDS):
                kind = cues.PET_KINDS.get(word, word)
                break
        if kind is not None:
            break
    if kind is None:
        return []
    for token in doc:
        after = token.i + 1
        if token.lower_ in {"named", "called"} or (
            token.lower_ == "name"
            and after < len(doc)
            and doc[after].lemma_ == "be"
            and any(c.lower_ in {"her", "his", "its"} for c in token.children)
        ):
            at = after + 1 if token.lower_ == "name" else after
            got = _name_at(doc, at)
            if got is not None:
                return [(_capitalised(got[0]), kind)]
    return []


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
        got = _name_at(doc, at)
        if got is None:
            continue
        relationship = _introduced_before(doc, token.i, pronoun)
        if relationship is not None:
            out.append((_capitalised(got[0]), relationship))
    return out


def _naming_site(doc: Doc, token: Token) -> tuple[int, str | None] | None:
    """Where a name follows: "her name is <x>" (the pronoun kept) or "named her <x>"."""
    nxt = token.i + 1
    if token.lower_ == "name" and nxt < len(doc) and doc[nxt].lemma_ == "be":
        owner = next((c.lower_ for c in token.children if c.dep_ == "poss"), None)
        if owner in {"her", "his", "their"}:
            return nxt + 1, owner
    if token.lower_ in {"named", "called"} and nxt < len(doc) and doc[nxt].lower_ in {"her", "him"}:
        return nxt + 1, doc[nxt].lower_
    return None


def _introduced_before(doc: Doc, at: int, pronoun: str | None) -> str | None:
    """The relationship of the nearest someone the speaker introduced before token ``at``."""
    for token in reversed(doc[max(0, at - 25) : at]):
        verb = token.head
        subject = {c.lower_ for c in verb.children if c.dep_ in _SUBJECT_DEPS}
        if token.dep_ not in {"dobj", "attr", "pobj"} or not subject & {"i", "we"}:
            continue
        words = [c.lower_ for c in token.lefts if c.dep_ in {"compound", "amod"}]
        phrase = " ".join([*words[-1:], token.lower_])
        if phrase in cues.NEWBORN or token.lower_ in cues.NEWBORN:
            return cues.NEWBORN.get(phrase) or cues.NEWBORN[token.lower_]
        if token.lower_ in cues.DATING_OBJECTS and verb.lemma_.lower() in cues.DATING:
            return {"her": "girlfriend", "his": "boyfriend", "him": "boyfriend"}.get(
                pronoun or "", "partner"
            )
        if token.lower_ in _words():
            return spelled_out(token.lower_)
    return None
