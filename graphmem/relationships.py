"""How a person relates to the user, and how that changes: one vocabulary for every layer.

Stored relationships are plain lowercase words ("sister", "manager", "best friend").
Three changes are spelled with a prefix and keep the old word in the ``KNOWS`` edge's
history:

- a role someone no longer holds: ``"former manager"`` (``former``);
- a partner after a breakup or divorce: ``"ex"`` (``ended``);
- someone who died: ``"late father"`` (``late``): still the user's father, so recall
  matches "my dad" to him (``graphmem.recall.mentions`` reads through ``late``).

Some roles have one holder at a time (``SINGLE_HOLDER``): when a new manager or a new
partner arrives, the previous one becomes former / ex.
"""

from __future__ import annotations

from graphmem import lang
from graphmem.recall.mentions import canonical_relationship

#: Nouns naming someone's relationship to the user ("my sister", "our neighbour").
WORDS = frozenset(
    {
        "my sister",
        "our neighbour",
        "mother",
        "mom",
        "mum",
        "father",
        "dad",
        "parent",
        "sister",
        "brother",
        "sibling",
        "son",
        "daughter",
        "kid",
        "child",
        "wife",
        "husband",
        "partner",
        "spouse",
        "fiancé",
        "fiancée",
        "fiance",
        "fiancee",
        "boyfriend",
        "girlfriend",
        "cousin",
        "aunt",
        "uncle",
        "niece",
        "nephew",
        "grandmother",
        "grandma",
        "grandfather",
        "grandpa",
        "granddaughter",
        "grandson",
        "mother-in-law",
        "father-in-law",
        "sister-in-law",
        "brother-in-law",
        "son-in-law",
        "daughter-in-law",
        "stepmother",
        "stepfather",
        "stepsister",
        "stepbrother",
        "twin",
        "friend",
        "best friend",
        "bestfriend",
        "roommate",
        "flatmate",
        "housemate",
        "neighbour",
        "neighbor",
        "ex",
        "classmate",
        "manager",
        "boss",
        "colleague",
        "coworker",
        "co-worker",
        "teammate",
        "team lead",
        "mentor",
        "mentee",
        "client",
        "supervisor",
        "matron",
        "head chef",
        "sous chef",
        "cofounder",
        "co-founder",
        "intern",
        "doctor",
        "dentist",
        "therapist",
        "coach",
        "teacher",
        "tutor",
        "landlord",
        "lawyer",
        "accountant",
        "trainer",
        "landlady",
        "stepmum",
        "stepmom",
        "stepdad",
        "stepson",
        "stepdaughter",
        "gran",
        "granny",
        "nan",
        "nana",
        "grandad",
        "granddad",
        "auntie",
        "godmother",
        "godfather",
        "godson",
        "goddaughter",
        "workmate",
        "work mate",
        "work friend",
        "school friend",
        "uni friend",
        "college friend",
        "childhood friend",
        "family friend",
        "buddy",
        "gym buddy",
        "running buddy",
        "pal",
        "bestie",
        "carer",
        "babysitter",
        "nanny",
        "vet",
        "physio",
        # medical and academic roles, said before or after a name ("my cardiologist dr
        # nguyen", "dr lavoie, my neurologist")
        "gp",
        "cardiologist",
        "neurologist",
        "dermatologist",
        "oncologist",
        "psychiatrist",
        "psychologist",
        "surgeon",
        "pediatrician",
        "paediatrician",
        "physiotherapist",
        "chiropractor",
        "optometrist",
        "dietitian",
        "nutritionist",
        "counselor",
        "counsellor",
        "lecturer",
        "advisor",
        "adviser",
        "headteacher",
        "principal",
        # who works for or with the user by trade ("my dispatcher carla", "my realtor")
        "dispatcher",
        "editor",
        "agent",
        "recruiter",
        "realtor",
        "hairdresser",
        "barber",
        "pastor",
        # who works for the user at home, on the farm, in the shop ("my helper rahim",
        # "ruben our hired hand")
        "helper",
        "hired hand",
        "ranch hand",
        "farmhand",
        "maid",
        "housekeeper",
        # who keeps the place the user works ("the new caretaker is also called reg")
        "caretaker",
        "janitor",
        "receptionist",
    }
)
#: Roles one person holds at a time, by canonical name (``canonical_relationship``).
SINGLE_HOLDER = frozenset(
    {
        "manager",
        "partner",
        "therapist",
        "landlord",
        "advisor",  # a co-advisor is another word
        # who heads where the user works or studies: a new one takes over
        "headteacher",
        "principal",
        "head nurse",
        "charge nurse",
    }
)
#: Roles whose kinds are the role ("regional manager" is a manager: one passes it on).
MANAGING = frozenset({"manager"})
#: Titles before a name ("Dr. Patel" is Patel): never part of the name. Chat in English
#: brings them from the languages mixed into it ("pak hendra", "mbak sri", "herr braun",
#: "maestra lupe") and from work ("chef arora", "director park").
TITLES = frozenset(
    {"dr", "mr", "mrs", "ms", "miss", "mx", "mister", "prof", "professor", "sir", "dame"}
    | {"herr", "monsieur", "madame", "mme", "señor", "señora", "doña"}
    | {"pak", "mbak", "profe", "maestra", "maestro", "chef", "director", "directora"}
    | {"encik", "puan", "alhaji", "alhaja", "doc", "engr"}
)
#: Titles that say only how one addresses someone ("Mr Park", "Pak Hendra"): the name
#: is kept with them, the way the user knows the person.
HONORIFICS = TITLES - {"dr", "doc", "prof", "professor"}
#: Kinship words said as a title before a name ("aunt keisha", "tita baby", "kuya jun"):
#: the name as the user knows the person, and who they likely are until a relationship
#: is said (many say "auntie" or "kuya" to someone who is no relative). Not "ate"
#: (Tagalog: older sister), an English word too ("i ate joy's fries").
KIN_TITLES = {
    "aunt": "aunt",
    "auntie": "aunt",
    "aunty": "aunt",
    "uncle": "uncle",
    "grandma": "grandmother",
    "grandpa": "grandfather",
    "granny": "grandmother",
    "tita": "aunt",
    "tito": "uncle",
    "lola": "grandmother",
    "lolo": "grandfather",
    "kuya": "older brother",
    "tía": "aunt",
    "tío": "uncle",
}
#: Titles said after a name ("shibu babu", "jiyeon unnie", "iyer sir", "sharma aunty"):
#: the name with its title is the way the user knows the person. Not the short ones
#: that follow other words as often ("da", "di", "ji", "bhai": "chhod di", "tinggal di",
#: "bore da", "kya bhai").
TITLES_AFTER = frozenset(
    {"dada", "didi", "babu", "bhaiya", "sahab", "saab"}
    | {"unnie", "eonni", "oppa", "hyung", "noona", "sunbae"}
    | {"aunty", "auntie", "uncle", "sir", "ma'am", "maam", "madam"}
)
#: A pattern for an optional title, with its dot, before a capitalised name.
TITLE_BEFORE_NAME = (
    "(?:(?:"
    + "|".join(sorted((t.capitalize() for t in TITLES), key=len, reverse=True))
    + r")\.?\s+)?"
)
#: Canonical roles whose end is a breakup: the old holder becomes an ``ex``.
ROMANTIC = frozenset({"partner"})
EX = "ex"

_PREFIXES = ("former ", "late ", "ex-", "ex ")


def _english(relationship: str) -> str:
    """The relationship lower-cased, a word of another language read in English
    ("前领导" -> "former boss"): roles are known by their English names."""
    word = " ".join(relationship.lower().split())
    return lang.relationship_in_english(word) or word


def role(relationship: str | None) -> str | None:
    """The canonical role of a relationship, prefixes read through.

    >>> role("Boss"), role("former manager"), role("late father"), role("ex-wife")
    ('manager', 'manager', 'father', 'partner')
    >>> role("regional manager"), role("tennis partner")  # a kind of manager is one
    ('manager', 'tennis partner')
    """
    if not relationship:
        return None
    word = _english(relationship)
    for prefix in _PREFIXES:
        if word.startswith(prefix) and len(word) > len(prefix):
            word = word[len(prefix) :]
            break
    canonical = canonical_relationship(word)
    head = canonical_relationship(word.split()[-1])
    if canonical == word and " " in word and "'" not in word and head in MANAGING:
        return head
    return canonical


def is_single_holder(relationship: str | None) -> bool:
    """True for roles held by one person at a time (a current manager, a partner).

    >>> is_single_holder("boss"), is_single_holder("girlfriend"), is_single_holder("friend")
    (True, True, False)
    >>> is_single_holder("former manager")
    False
    """
    return is_current(relationship) and role(relationship) in SINGLE_HOLDER


def is_current(relationship: str | None) -> bool:
    """False for a relationship that has ended (former, ex) or a person who died (late).

    >>> is_current("manager"), is_current("former manager"), is_current("ex")
    (True, False, False)
    """
    if not relationship:
        return False
    word = _english(relationship)
    return word != EX and not word.startswith(_PREFIXES)


def ended(relationship: str) -> str:
    """What a relationship becomes when it ends: "former manager"; for a partner "ex",
    with the word the user had for them ("ex-girlfriend").

    >>> ended("boss"), ended("girlfriend"), ended("roommate"), ended("ex"), ended("partner")
    ('former manager', 'ex-girlfriend', 'former roommate', 'ex', 'ex')
    >>> ended("领导"), ended("老婆")  # in the user's words
    ('前领导', '前妻')
    """
    canonical = role(relationship) or relationship
    if not is_current(relationship):
        return relationship
    if (own := lang.ended_in_own_words(relationship)) is not None:
        return own  # "领导" ends as "前领导"
    if canonical in ROMANTIC:
        word = " ".join(relationship.lower().split())
        return f"ex-{word}" if word in _PARTNERS - {"partner", "spouse"} else EX
    return f"former {canonical}"


def late(relationship: str | None) -> str | None:
    """The relationship to someone who died: "late father" (None stays None).

    >>> late("dad"), late("late mother"), late(None)
    ('late father', 'late mother', None)
    """
    if not relationship:
        return None
    word = " ".join(relationship.lower().split())
    if word.startswith("late "):
        return word
    return f"late {canonical_relationship(word)}"


_MALE_PARTNERS = frozenset({"husband", "boyfriend", "fiance", "fiancé"})
_FEMALE_PARTNERS = frozenset({"wife", "girlfriend", "fiancee", "fiancée"})
_PARTNERS = _MALE_PARTNERS | _FEMALE_PARTNERS | {"partner", "spouse"}
#: What a partner is called at each step, by gender ("m", "f", unknown).
PARTNER_WORDS = {
    "engaged": {"m": "fiancé", "f": "fiancée", None: "fiancé"},
    "married": {"m": "husband", "f": "wife", None: "spouse"},
}


def partner_word(step: str, gender: str | None, like: str | None = None) -> str:
    """What the user's partner is called once engaged or married, in the language of
    ``like`` (the word the user has for them now) when a language module knows it.

    >>> partner_word("engaged", "f"), partner_word("married", "m")
    ('fiancée', 'husband')
    >>> partner_word("engaged", "f", like="女朋友")
    '未婚妻'
    """
    if like and (own := lang.partner_in_own_words(step, gender, like)) is not None:
        return own
    words = PARTNER_WORDS[step]
    return words.get(gender, words[None])


def partner_stage(relationship: str | None) -> int | None:
    """How far along a partner word is: dating 0, engaged 1, married 2 (None: no partner
    word). "my wife" said of the one girlfriend a user has is her, a step on.

    >>> partner_stage("girlfriend"), partner_stage("Fiancée"), partner_stage("spouse")
    (0, 1, 2)
    >>> partner_stage("ex-wife"), partner_stage("tennis partner"), partner_stage("未婚妻")
    (None, None, 1)
    """
    word = _english(relationship or "")
    if word not in _PARTNERS:
        return None
    return 2 if word in {"wife", "husband", "spouse"} else 1 if word.startswith("fianc") else 0


def partner_gender(relationship: str | None) -> str | None:
    """ "m" or "f" when the partner word tells ("boyfriend"), else None."""
    word = _english(relationship or "").removeprefix("ex-")
    return "m" if word in _MALE_PARTNERS else "f" if word in _FEMALE_PARTNERS else None


def someone_elses(holder: str, relation: str) -> str:
    """Another person's relative, said as the user says it when no kin word of the
    user's names them: the holder's relationship or name, then theirs. Family words are
    stored in their canonical form, partner words as said (a boyfriend is no spouse).

    >>> someone_elses("friend", "wife"), someone_elses("son", "mum")
    ("friend's wife", "son's mother")
    >>> someone_elses("Megan", "boyfriend")
    "Megan's boyfriend"
    """
    word = " ".join(relation.lower().split())
    kin = word if word in _PARTNERS else canonical_relationship(word)
    return f"{holder}'s {kin}"


#: Someone known through a relative: (relative's role, their relation) -> the user's.
_THROUGH = {
    ("partner", "mother"): "mother-in-law",
    ("partner", "father"): "father-in-law",
    ("partner", "sister"): "sister-in-law",
    ("partner", "brother"): "brother-in-law",
    ("sister", "son"): "nephew",
    ("sister", "daughter"): "niece",
    ("brother", "son"): "nephew",
    ("brother", "daughter"): "niece",
    ("son", "son"): "grandson",
    ("son", "daughter"): "granddaughter",
    ("daughter", "son"): "grandson",
    ("daughter", "daughter"): "granddaughter",
    ("granddaughter", "brother"): "grandson",
    ("granddaughter", "sister"): "granddaughter",
    ("grandson", "brother"): "grandson",
    ("grandson", "sister"): "granddaughter",
    ("mother", "mother"): "grandmother",
    ("mother", "father"): "grandfather",
    ("father", "mother"): "grandmother",
    ("father", "father"): "grandfather",
    ("mother", "sister"): "aunt",
    ("mother", "brother"): "uncle",
    ("father", "sister"): "aunt",
    ("father", "brother"): "uncle",
    ("aunt", "son"): "cousin",
    ("aunt", "daughter"): "cousin",
    ("uncle", "son"): "cousin",
    ("uncle", "daughter"): "cousin",
}
#: Holders whose other relatives the user knows as theirs, in the holder's words
#: ("girlfriend's son", "husband's cousin", "fiancé's mother": no in-law before a wedding).
_KNOWN_THROUGH = frozenset({"partner"})


#: A relative's husband or wife, as the user calls them: (his word, her word).
_PARTNER_THROUGH = {
    "sister": ("brother-in-law", "sister-in-law"),
    "brother": ("brother-in-law", "sister-in-law"),
    "daughter": ("son-in-law", "daughter-in-law"),
    "son": ("son-in-law", "daughter-in-law"),
    "mother": ("stepfather", "stepmother"),
    "father": ("stepfather", "stepmother"),
}


def through(relative: str | None, relation: str) -> str | None:
    """How someone relates to the user when known through a relative: the user's
    sister's husband is a brother-in-law, a partner's mother a mother-in-law.

    >>> through("sister", "husband"), through("brother", "wife"), through("wife", "mother")
    ('brother-in-law', 'sister-in-law', 'mother-in-law')
    >>> through("sister", "partner"), through("friend", "wife")
    ("sister's partner", None)
    >>> through("daughter", "husband"), through("mum", "husband")
    ('son-in-law', 'stepfather')
    >>> through("granddaughter", "brother"), through("husband", "mum")
    ('grandson', 'mother-in-law')
    >>> through("fiancé", "mum"), through("girlfriend", "son"), through("husband", "cousin")
    ("fiancé's mother", "girlfriend's son", "husband's cousin")
    """
    held = role(relative) if relative and is_current(relative) else None
    if relative is None or held is None:
        return None
    word = " ".join(relation.lower().split())
    by_gender = _PARTNER_THROUGH.get(held) if word in _PARTNERS else None
    if by_gender is not None:
        if word in _MALE_PARTNERS:
            return by_gender[0]
        if word in _FEMALE_PARTNERS:
            return by_gender[1]
        return someone_elses(held, "partner")
    kin = canonical_relationship(word)
    if held in _KNOWN_THROUGH:
        said = " ".join(relative.lower().split())
        if partner_stage(said) == 2 or said == held:
            return _THROUGH.get((held, kin)) or someone_elses(said, kin)
        return someone_elses(said, kin)  # "fiancé's mother": no in-law before a wedding
    return _THROUGH.get((held, kin))


__all__ = [
    "EX",
    "SINGLE_HOLDER",
    "WORDS",
    "ended",
    "is_current",
    "is_single_holder",
    "late",
    "partner_gender",
    "partner_word",
    "role",
    "someone_elses",
    "through",
]
