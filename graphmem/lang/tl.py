"""Tagalog and Taglish: the people a sentence names, read by the language's own markers.

Filipino users chat in Taglish ("si paolo (bf ko, 4 yrs na kami) nagaaya mag tagaytay",
"ate ko si joy, nag resign na sya"), which graphmem keeps as said (no spaCy pipeline
reads it). Two markers of the grammar name people whatever the words around them: the
personal article ``si`` / ``ni`` / ``kay`` before a name, and the possessive after a noun
("ate ko": my older sister, "head nurse namin": our head nurse). A relationship is the
kinship word's English reading ("ate": older sister), or the English word said
("bf ko": boyfriend), so "who is my sister?" finds Joy. Titles of address ("sir arnel",
"ma'am tess") are no part of a name; kinship titles ("kuya marco") say the relationship.

Latin words are searched as English is: a Taglish text shares its script, and
``detect`` tells it by its function words.
"""

from __future__ import annotations

import re

from graphmem.lang import Language, Named, Naming, en, in_own_sentence, months_numbered

#: Kinship words and their English reading: as a title before a name ("kuya marco") or
#: with a possessive ("tita ko"), they say who the person is to the user.
KIN: dict[str, str] = {
    "nanay": "mother",
    "inay": "mother",
    "mama": "mother",
    "mommy": "mother",
    "mami": "mother",
    "tatay": "father",
    "itay": "father",
    "papa": "father",
    "daddy": "father",
    "ate": "older sister",
    "kuya": "older brother",
    "lola": "grandmother",
    "lolo": "grandfather",
    "tita": "aunt",
    "tito": "uncle",
    "pinsan": "cousin",
    "asawa": "spouse",
    "misis": "wife",
    "mister": "husband",
    "anak": "child",
    "apo": "grandchild",
    "bunso": "youngest sibling",
    "kapatid": "sibling",
    "jowa": "partner",
    "kaibigan": "friend",
    "katrabaho": "coworker",
    "amo": "boss",
    "biyenan": "parent-in-law",
    "bayaw": "brother-in-law",
    "hipag": "sister-in-law",
    "ninang": "godmother",
    "ninong": "godfather",
}
#: Kinship words said as a title before a name ("kuya marco", "tita baby"); "mama" and
#: "papa" are said alone ("si mama umiyak").
KIN_TITLES = frozenset({"kuya", "ate", "tita", "tito", "lola", "lolo", "ninang", "ninong"})
#: English relationship words Taglish uses as they are ("bf ko", "my bestfriend kaye").
ENGLISH: dict[str, str] = {
    "bf": "boyfriend",
    "gf": "girlfriend",
    "boyfriend": "boyfriend",
    "girlfriend": "girlfriend",
    "fiance": "fiancé",
    "fiancé": "fiancé",
    "fiancee": "fiancée",
    "husband": "husband",
    "hubby": "husband",
    "wife": "wife",
    "bestfriend": "best friend",
    "best friend": "best friend",
    "bff": "best friend",
    "bestie": "best friend",
    "friend": "friend",
    "officemate": "coworker",
    "coworker": "coworker",
    "classmate": "classmate",
    "roommate": "roommate",
    "boss": "boss",
    "manager": "manager",
    "supervisor": "supervisor",
    "team lead": "team lead",
    "tl": "team lead",
    "lead": "lead",
    "head nurse": "head nurse",
    "charge nurse": "charge nurse",
    "landlady": "landlady",
    "landlord": "landlord",
    "sister": "sister",
    "brother": "brother",
    "cousin": "cousin",
    "mom": "mother",
    "dad": "father",
    "principal": "principal",
    "co-teacher": "coworker",
    "coteacher": "coworker",
    "co-worker": "coworker",
    "teacher": "teacher",
    "adviser": "adviser",
}
#: Kinds of pet ("pusa": cat), said before the name the pet was given.
PETS: dict[str, str] = {"pusa": "cat", "aso": "dog", "kuting": "cat", "tuta": "dog"}
#: Titles of address before a name, not part of it ("sir arnel", "ma'am tess").
TITLES = frozenset({"sir", "ma'am", "maam", "mam", "miss", "mr", "mrs", "ms", "dr", "doc", "atty"})
#: Words after a personal article that are no name ("si sya", "kay ako").
NOT_NAMES = frozenset(
    """na ba pa ko mo nya niya siya sya ako kami tayo sila ang ng sa yung ay din rin lang
    naman pala daw raw po talaga at o the a an ko'y ka kayo namin natin nila""".split()
)
#: Possessives after a noun: whose the person is ("ate ko": mine; "namin": ours); with a
#: linker ("kong", "naming") before what follows.
POSSESSIVES = ("ko", "namin", "natin")
_MINE = f"(?:{'|'.join((*POSSESSIVES, 'kong', 'naming'))})"
#: Personal articles: the word after one is a name ("si joy", "kay mama").
ARTICLES = ("si", "ni", "kay")
_ARTICLES = "|".join(ARTICLES)
#: Function words that make a Latin text Tagalog (``graphmem.lang.detect``).
FUNCTION_WORDS = frozenset("ang ng mga sa na ako ko siya ay hindi at si kami po".split())


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_KIN_TITLE = _alternation(list(KIN_TITLES))
_ROLE = _alternation([*KIN, *ENGLISH])
_TITLE = _alternation(list(TITLES))
_NAME = r"(?P<name>[a-zñ][\w'-]*)"
#: "si kuya marco", "si ma'am tess", "si paolo", "kay mama"
_ARTICLE = re.compile(
    rf"(?i)\b(?:{_ARTICLES})\s+(?:(?P<kin>{_KIN_TITLE})\s+)?(?:(?:{_TITLE})\.?\s+)?{_NAME}"
)
#: Words of place or time between a role and its holder ("manager ko dito si ma'am carla").
_WHERE = r"(?:dito|doon|dun|ngayon|now|pala|naman)"
#: Particles a name is followed by before what is said of it ("si migs pala, ...").
_PARTICLE = r"(?:\s+(?:pala|naman|nga|daw|raw))?"
#: "ate ko si joy", "head nurse namin, si sir arnel", "bagong head nurse namin si ..."
_ROLE_THEN_NAME = re.compile(
    rf"(?i)\b(?:bagong\s+)?(?P<role>{_ROLE})\s+{_MINE}(?:\s+{_WHERE})?\s*,?\s*(?:ay\s+)?"
    rf"(?:{_ARTICLES})\s+(?:(?:{_TITLE})\.?\s+)?{_NAME}"
)
#: "may bago na kaming principal, si sir ramos": ours before the role ("kaming", "aming")
_OURS_THEN_NAME = re.compile(
    rf"(?i)\b(?:ka?ming|aking|naming)\s+(?:bagong\s+)?(?P<role>{_ROLE})\s*,?\s*(?:ay\s+)?"
    rf"(?:{_ARTICLES})\s+(?:(?:{_TITLE})\.?\s+)?{_NAME}"
)
_PET_KIND = _alternation([*PETS, "cat", "dog"])
#: "si paolo (bf ko", "si ma'am tess namin (head nurse)", "si mingming (cat namin)": the
#: role (or pet) in brackets after; "si mark, asawa ko,": between commas, with its possessive
_BRACKETED_ROLE = re.compile(
    rf"(?i){_PARTICLE}\s*(?:{_MINE}\s*)?"
    rf"(?:\(\s*(?P<role>{_ROLE}|{_PET_KIND})\b|,\s*(?:\w+\s+)?(?P<said>{_ROLE})\s+{_MINE}\b)"
)
#: "tita ko", "mama namin": someone named by the word alone
_ROLE_MINE = re.compile(rf"(?i)\b(?P<role>{_ROLE})\s+{_MINE}\b")
#: "my bestfriend kaye", "our tita baby"
_MY_ROLE_NAME = re.compile(rf"(?i)\b(?:my|our)\s+(?P<role>{_ROLE})\s+{_NAME}")
#: "nag adopt kami ng pusa ..., pinangalanan namin ... na mingming"
_PET = re.compile(
    rf"(?i)\b(?P<kind>{_PET_KIND})\b[^.!?]{{0,80}}?"
    rf"\b(?:pinangalanan|pangalan|named|tinawag)\b[^.!?]{{0,40}}?\b(?:na|si|ay)\s+{_NAME}"
)

#: The user's own engagement or wedding: (step, regex), as ``Language.partner_steps``.
PARTNER_STEPS: tuple[tuple[str, str], ...] = (
    ("engaged", r"(?i)\bengaged\s+na\s+(?:ako|ko|kami)\b|\bfianc[eé]e?\s+ko\s+na\b"),
    ("married", r"(?i)\bkasal\s+na\s+(?:kami|ako)\b|\bmrs\.?\s+\w+\s+\w+\s+na\s+ko\b"),
)


def people_in(sentence: str, before: str = "") -> list[Named]:
    """People a Taglish sentence names, in order, with their relationship in English.

    >>> [(n.name, n.relationship) for n in people_in("si paolo (bf ko, 4 yrs na kami)")]
    [('Paolo', 'boyfriend')]
    >>> [(n.name, n.relationship) for n in people_in("tsaka ate ko si joy, nag resign na sya")]
    [('Joy', 'older sister')]
    >>> [(n.name, n.relationship) for n in people_in("si mark, asawa ko, nagluto")]
    [('Mark', 'spouse')]
    >>> [(n.name, n.relationship) for n in people_in("si ma'am tess namin (head nurse) ang strict")]
    [('Tess', 'head nurse')]
    >>> [(n.name, n.relationship) for n in people_in("yung bagong head nurse namin, si sir arnel")]
    [('Arnel', 'head nurse')]
    >>> [(n.name, n.relationship) for n in people_in("si mama umiyak, si kuya marco nag-facetime")]
    [('Mama', 'mother'), ('Marco', 'older brother')]
    >>> [(n.name, n.relationship) for n in people_in("sa bahay ng tita ko. ngayon lang")]
    [('Tita', 'aunt')]
    >>> [(n.name, n.relationship) for n in people_in("my bestfriend kaye naman lilipat sa dubai")]
    [('Kaye', 'best friend')]
    >>> adopted = "nag adopt kami ng pusa, pinangalanan namin na mingming"
    >>> [(n.name, n.relationship) for n in people_in(adopted)]
    [('Mingming', 'cat')]
    >>> said = "nag-resign yung TL namin si Ma'am Grace. Yung manager ko dito si Ma'am Carla"
    >>> [(n.name, n.relationship) for n in people_in(said)]
    [('Grace', 'team lead'), ('Carla', 'manager')]
    >>> [(n.name, n.relationship) for n in people_in("si Migs pala, college friend ko, lumipat")]
    [('Migs', 'friend')]
    >>> said = "may bago na kaming principal, si sir ramos. si mingming (cat namin) ayaw"
    >>> [(n.name, n.relationship) for n in people_in(said)]
    [('Ramos', 'principal'), ('Mingming', 'cat')]
    >>> people_in("si paolo nagaaya mag tagaytay")  # a name alone says no relationship
    []
    """
    found = Naming()

    def add(name: str, relationship: str, start: int, end: int) -> None:
        found.add(_cased(name), relationship, start, end)

    for m in _PET.finditer(sentence):
        if _is_name(m["name"]):
            kind = m["kind"].lower()
            add(m["name"], PETS.get(kind, kind), m.start(), m.end())
    for m in [*_ROLE_THEN_NAME.finditer(sentence), *_OURS_THEN_NAME.finditer(sentence)]:
        if _is_name(m["name"]):
            add(m["name"], _reading(m["role"]), m.start(), m.end())
    for m in _MY_ROLE_NAME.finditer(sentence):
        if _is_name(m["name"]):
            add(m["name"], _reading(m["role"]), m.start(), m.end())
    for m in _ARTICLE.finditer(sentence):
        name = m["name"]
        if name.lower() in KIN and not m["kin"]:  # "si mama": called by the word
            add(name, KIN[name.lower()], m.start(), m.end())
        elif _is_name(name) and (role := _role_after(sentence, m, m["kin"])):
            said = _BRACKETED_ROLE.match(sentence, m.end())  # the role's words are taken
            add(name, role, m.start(), said.end() if said and not m["kin"] else m.end())
    for m in _ROLE_MINE.finditer(sentence):
        if m["role"].lower() in KIN:
            add(m["role"], KIN[m["role"].lower()], m.start(), m.end())
    return found.people()


def _role_after(sentence: str, m: re.Match[str], kin: str | None) -> str | None:
    """The relationship of "si <name>": its kinship title, else a role in brackets."""
    if kin:
        return KIN[kin.lower()]
    bracketed = _BRACKETED_ROLE.match(sentence, m.end())
    return _reading(bracketed["role"] or bracketed["said"]) if bracketed else None


def _reading(role: str) -> str:
    word = " ".join(role.lower().split())
    return KIN.get(word) or PETS.get(word) or ENGLISH.get(word, word)


def _is_name(word: str) -> bool:
    lowered = word.lower()
    return lowered not in NOT_NAMES and lowered not in KIN and lowered not in ENGLISH


def _cased(name: str) -> str:
    return name[:1].upper() + name[1:]


#: Words that make a sentence a plan, a wish or a supposition ("lilipat na sya sa
#: dubai": a move to come; "kung lumipat ako sa UK": if I moved), not a change.
NOT_YET = "kung|sana|baka|gusto|plano|balak|lilipat|titira|if|might|maybe"
#: A claim's value: up to three words, none of them a time or what else the clause says
#: ("sa tampines, with an auntie", "sa pasig last week").
_NOT_VALUE = (
    r"(?!(?:last|next|this|kahapon|nung|noong|ngayon|lang|na|pa|with|kasama|tapos|pero|"
    r"and|kasi|for|para)\b)"
)
_VALUE = rf"(?P<value>[a-z0-9][\w'-]*(?:\s+{_NOT_VALUE}[a-z0-9][\w'-]*){{0,2}})"


#: Claims, as (attribute, pattern): where the user lives, said in Taglish ("nagre-rent
#: ako ng common room sa HDB flat sa tampines", "nakatira pa ako with mama and papa sa
#: project 4", "lumipat na kami sa pasig"); the sentence's last "sa" names the place, and
#: a move to come or supposed ("lilipat", "kung lumipat ako sa UK") claims nothing.
CLAIMS: tuple[tuple[str, str], ...] = (
    (
        "location",
        in_own_sentence(
            r"(?:nakatira|tumira|nagre-?rent|nag-?rent|umuupa|lumipat|nakalipat)\s+"
            rf"(?:na\s+|pa\s+)?(?:ako|kami|kmi)\b[^.!?]*\bsa\s+{_VALUE}",
            NOT_YET,
        ),
    ),
    (  # a home got: "kinuha na namin yung condo!! sa kapitolyo, pasig"
        "location",
        in_own_sentence(
            r"(?:kinuha|nakuha|binili|bumili|nabili)\s+(?:na\s+)?(?:namin|ko|kami|ako)\s+"
            r"(?:yung\s+|ang\s+|ng\s+)?(?:condo|bahay|unit|apartment|apt|house|townhouse)\b"
            rf"\W*sa\s+{_VALUE}",
            NOT_YET,
        ),
    ),
    (  # our home, where it is: "ang layo ng bahay namin sa marikina"
        "location",
        in_own_sentence(
            rf"\b(?:bahay|condo|apartment|unit|kwarto)\s+(?:namin|ko|natin)\s+sa\s+{_VALUE}",
            NOT_YET,
        ),
    ),
    (  # "allergic na daw ako sa shellfish"
        "allergy",
        in_own_sentence(
            rf"allergic\s+(?:na\s+)?(?:daw\s+|raw\s+)?(?:ako\s+)?sa\s+{_VALUE}", NOT_YET
        ),
    ),
)

LANGUAGE = Language(
    code="tl",
    name="Tagalog",
    months=months_numbered(
        "enero",
        "pebrero/febrero",
        "marso/marzo",
        "abril",
        "mayo",
        "hunyo/junio",
        "hulyo/julio",
        "agosto",
        "setyembre/septiembre",
        "oktubre/octubre",
        "nobyembre/noviembre",
        "disyembre/diciembre",
    ),
    script=en.LANGUAGE.script,
    words=en.words,
    stop_words=en.STOP_WORDS,
    extracts=False,
    pets=PETS,
    function_words=FUNCTION_WORDS,
    people_in=people_in,
    partner_steps=PARTNER_STEPS,
    name_question=r"(?i)\bpangalan\b",  # "ano pangalan ng aso namin"
    claims=CLAIMS,
    claims_are_the_users=True,
    # "saan ako nakatira dati", "saan ka nagtatrabaho ngayon"
    asks=(
        (r"(?i)\b(?:nakatira|tumira|titira|tira|lumipat|bahay)\b", ("location",)),
        # "saan na ko nagwowork", "saan ka nag-work": the English word only as Tagalog
        # says it ("how long is my drive to work" asks no workplace)
        (
            r"(?i)\b(?:nagtatrabaho|nagtrabaho|trabaho|nag-?\s?w?o?work|mag-?\s?work)\b"
            r"|\bsaan\b.*\bwork\b",
            ("employer", "job"),
        ),
    ),
    asks_of_self=r"(?i)\b(?:ako|ko|kami|namin)\b",
    time_patterns=(
        (r"(?i)\b(?:dati|noon|dati-rati|nung\s+una)\b", " before "),
        (r"(?i)\b(?:ngayon|ngaun|now)\b", " now "),
        (r"(?i)\bpa\s+rin\b", " still "),
    ),
)
