"""Conflict detection: which cards about the same person contradict each other.

Pipeline: ``attribute_of`` reads an (attribute, value) pair out of a fact with a few
documented patterns; ``candidate_pairs`` proposes pairs *within one person's cards*
(vector neighbours plus cards sharing an attribute, a bounded window each, never all
pairs); ``resolve`` turns the pairs into decisions; ``detect_conflicts`` does all three.

Decisions (``Memory`` writes them back):

- ``Supersede(newer, older)``: ``(newer)-[:SUPERSEDES]->(older)``, older -> superseded.
- ``Conflict(a, b, needs_revision)``: ``(a)-[:CONFLICTS_WITH {reason}]->(b)`` and
  ``needs_revision`` set on the listed cards.

Rules for two cards with the same person and the same attribute but different values:

- said within ``same_time_ms`` of each other (default one hour, one conversation): a
  true contradiction, ``Conflict`` and both need revision;
- the older card is more confident by at least ``confidence_margin`` (default 0.3):
  the older one stands, ``Conflict`` with only the newer one needing revision;
- otherwise the newer card supersedes the older one.

Multi-valued attributes (allergies) accumulate: they only conflict with their own
negation ("allergic to peanuts" / "not allergic to peanuts"). Same value = duplicate,
never a conflict. An optional chat model (``adjudicate_with_llm``) can judge pairs the
patterns cannot read; it falls back to the rule decision on any failure.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from graphmem import lang, llm
from graphmem.algorithms.cardview import CardLike, is_active, normalise_rows
from graphmem.algorithms.clustering import top_k_neighbours
from graphmem.lang.en import STOP_WORDS as _EN_STOP_WORDS
from graphmem.models import ASSISTANT_SPEAKERS, TURN
from graphmem.relationships import SINGLE_HOLDER, TITLE_BEFORE_NAME, WORDS, role
from graphmem.timeutil import to_iso

HOUR_MS = 3_600_000

#: Attributes a person has one value of at a time. ``likes:``/``eats:``/``drinks:``
#: keys (one per object, value "yes"/"no") are single-valued as well.
SINGLE_VALUED = frozenset(
    {
        "location",
        "city",
        "employer",
        "job",
        "partner",
        "birthday",
        "diet",
        "age",
        "smokes",
        "car",
        "name",
        "preferred name",
        "reply language",
        "alive",
        "email",
        "phone",
        "hometown",
    }
)
#: Attributes that accumulate (several values are fine); only a negation conflicts.
MULTI_VALUED = frozenset({"allergy"})
_POLAR_PREFIXES = ("likes:", "activity:", "condition:")
#: The user, as a person key.
SELF_KEY = "me"


def _key(name: str) -> str:
    """A person as a key: case and spacing do not matter (``graphmem.cards.person_key``)."""
    return " ".join(str(name).lower().split())


# -- attribute extraction ---------------------------------------------------------------

#: Words before a home that describe it, not its owner or another time: "our 3 bed",
#: "a 4 bed duplex", never "my sister's flat" or "my old place".
_NOT_A_HOME_NAME = (
    r"(?:old|previous|former|last|first|childhood|native|home|family|holiday|summer|beach|lake|dream|"
    r"future|new|own|little|tiny|big|small|current|rental|shared|whole|entire|happy|safe|"
    r"work|friend|parent|grandparent|mum|mom|dad|folk|inlaw|in-law|"
    r"their|his|her|its|the|a|an|this|that|"
    + "|".join(sorted((re.escape(w) for w in WORDS if " " not in w), key=len, reverse=True))
    + r")(?:s|'s|s')?"  # "my sisters place", as typed
)
_DESCRIBING = rf"(?!{_NOT_A_HOME_NAME}\b)[\w-]+(?<!'s)"
#: What a street is called after its name ("3 riverside close", "1140 shady oak ct").
_STREET_KEYS = (
    "close", "road", "rd", "street", "st", "avenue", "ave", "lane", "ln", "drive", "dr",
    "court", "ct", "way", "crescent", "cres", "boulevard", "blvd", "terrace", "grove",
    "circle", "cir", "parkway", "pkwy", "place", "pl",
)  # fmt: skip
_STREET = f"(?:{'|'.join(_STREET_KEYS)})"
#: Homes a person has ("a 2 bed unit", "the condo"): a place in one is where they live.
_HOMES = (  # "a 1br", "2bhk" as chat writes them, digits and kind in one word
    r"(?:\d(?:\.\d)?)?(?:flat|apartment|apt|house|place|home|condo|studio|unit|townhouse|bungalow|cottage|"
    r"duplex|weatherboard|villa|loft|maisonette|bedsit|brownstone|rowhouse|hdb|bed|bedroom|br|"
    r"semi|officetel|"
    r"bd|bhk)"
)
_HOME_KEYS = (
    "flat", "apartment", "apt", "house", "place", "home", "condo", "studio", "unit", "townho",
    "bed", "br", "bd", "duplex", "bhk", "weatherboard", "villa", "loft", "maisonette",
    "bedsit", "brownstone", "rowhouse", "hdb", "semi", "officetel",
)  # fmt: skip
_STOP_WORDS = (
    "since|from|until|till|because|but|and|or|now|anymore|any more|these days|nowadays|"
    "for|at|with|in|last|this|next|ago|recently|again|when|where|who|which|though|as of|"
    "after|before|every|each|so|very|too|a lot|to|as|instead|because|while|since|during|"
    "on|near|around|about|by|over|from|into|then|if|once|twice|three times|most|whenever|"
    "yesterday|today|tonight|tomorrow|lol|haha|lmao|omg|tho|done|here|there|"
    # a day as chat shortens it: "keys to a 1br in bridgeport sat"
    "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thurs|fri|sat|"
    # a verb after the value starts what is said of it: "last shift at bella is friday"
    "is|was|will|are|were"
)
# A value runs up to punctuation, the end, or a word that starts a qualifier clause.
#: "joined the game dev club", "joined coeliac uk, the membership card came": a pastime
#: or a membership, not an employer.
_NOT_A_CLUB = (
    r"(?!\s+(?:\S+\s+){0,4}?(?:club|team|group|gym|class|league|choir|society|community|"
    r"crew|squad|course|meetup|circle|chat|discord|server|book club|court|membership|member|"
    r"charity|charities|association|union|church|waiting list|waitlist)s?\b)"
)
#: An emoji ends a value as punctuation does ("i do like a custard cream tho 😞 what ...")
_EMOJI = "\u2600-\u27bf\U0001f300-\U0001faff"
_VAL = (
    rf"(?P<value>[^,.;:!?()\[\]\"{_EMOJI}]+?)"
    rf"(?=\s*(?:[,.;:!?()\[\]\"{_EMOJI}]|$)|\s+(?:{_STOP_WORDS})\b|\s+\d+\s+(?:day|week|month|year)s?\b)"
)
#: What follows "married" when it names no partner: a time ("getting married next spring")
_NO_PARTNER = (
    r"(?!(?:next|last|this|in|on|at|for|yesterday|today|tomorrow|tonight|soon|someday|\d+)\b)"
)
#: Who offers the user a job and is no employer: a person, or a word starting the sentence
_NOT_AN_OFFERER = (
    r"(?!(?:i|you|he|she|they|we|it|my|his|her|their|our|your|the|a|an|this|that|someone|"
    r"somebody|everyone|nobody|also|then|today|yesterday|finally|just|so|and|but|if|when|"
    r"once|after|mum|mom|dad|boss)\b)"
)
_DATE_VAL = r"(?P<value>[a-z0-9][a-z0-9 ,/-]*?)(?=\s*(?:[.;!?()]|$))"
_BE = r"(?:is|am|are|'m|'s|was|(?:have|has|'ve)\s+been)"
#: "is" and "am" as chat types them, fused without the apostrophe: "shes an er nurse",
#: "hes a mechanic", "im pescatarian now"
_BE_TYPED = r"(?<=\bhe)s|(?<=\bshe)s|(?<=\bi)m"
_INLINE_NEG = r"(?:(?P<neg>not|no longer|never)\s+)?"

#: Job head nouns for "X is a <job>" (the last word of the value must be one of these;
#: "works as a X" takes any X).
_JOB_TEXT = """
    accountant actor actress analyst architect artist assistant attorney baker barista
    bartender carpenter cashier ceo cfo chef chemist cleaner clerk coach consultant cook
    cto dentist designer developer director doctor driver economist editor electrician
    engineer entrepreneur farmer firefighter freelancer gardener hairdresser historian
    journalist judge lawyer lecturer librarian manager mechanic musician nurse officer
    painter paramedic pharmacist photographer physician physicist pilot plumber
    policeman policewoman professor programmer psychologist receptionist researcher
    salesman saleswoman scientist secretary singer surgeon teacher technician therapist
    translator tutor vet veterinarian waiter waitress writer student intern founder
    midwife hygienist sonographer radiographer physiotherapist physio optometrist
    dietitian nutritionist counsellor counselor caregiver carer nanny paralegal auditor
    bookkeeper welder machinist butcher florist tailor courier janitor pastor priest
    soldier detective lifeguard instructor trainer supervisor coordinator administrator
    recruiter realtor banker teller dev carrier barman barmaid leader lead picker operator
    guard dispatcher associate
"""
JOB_WORDS = frozenset(_JOB_TEXT.split())
_JOBS = "|".join(sorted(JOB_WORDS))

_DIETS = "vegetarian|vegan|pescatarian|pescetarian|carnivore|keto|gluten-free|omnivore"
#: Conditions one is said to be, found or gone ("prediabetic", "not anaemic anymore")
_CONDITION_KEYS = (
    "prediabetic", "pre-diabetic", "diabetic", "anaemic", "anemic", "coeliac", "celiac",
    "lactose intolerant", "lactose-intolerant", "asthmatic", "epileptic", "hypertensive",
)  # fmt: skip
_CONDITIONS = "|".join(re.escape(c) for c in _CONDITION_KEYS)


@dataclass(frozen=True)
class _Rule:
    attribute: str  # "likes:" style prefixes take the object into the key
    pattern: re.Pattern[str]
    possessive_ok: bool = False  # "Alice's favourite..." is about Alice herself
    polarity: str | None = None  # for polar keys: "yes" or "no" before negation
    proper: bool = False  # the value must be capitalised in the fact (a place, a name)
    fixed: str | None = None  # the value, whatever matched ("eat everything": omnivore)
    job_word: bool = False  # the value must end in a job noun ("is a nurse", not "is a mess")
    keys: tuple[str, ...] = ()  # words one of which the fact must contain (a cheap pre-check)
    negate: bool = False  # the rule reads an ending ("handed in my notice at Acme")


def _rule(attribute: str, pattern: str, **kw: Any) -> _Rule:
    return _Rule(attribute, re.compile(pattern), **kw)


#: Things people name (a name change supersedes the old name); synonyms share a key.
_NAMEABLE = {
    "company": "company",
    "startup": "company",
    "business": "company",
    "firm": "company",
    "band": "band",
    "group": "band",
    "podcast": "podcast",
    "blog": "blog",
    "channel": "channel",
    "shop": "shop",
    "store": "shop",
    "restaurant": "restaurant",
    "cafe": "restaurant",
    "project": "project",
    "team": "team",
    "newsletter": "newsletter",
}
_THING = "(?P<thing>" + "|".join(_NAMEABLE) + ")"
#: Preferences over one pick (a seat, a meal): a new preferred one replaces the old.
_EXCLUSIVE = (
    "seat|meal|room|bed|table|slot|shift|time|day|airline|hotel|side|language|format|"
    "font|theme|editor|browser|ide|os|phone|laptop"
)
_PREFER = (
    r"(?:prefers?|preferring|likes?|loves?|always\s+(?:prefers?|likes?|book|books|get|gets|"
    r"take|takes|want|wants|choose|chooses)|(?:would|'d)\s+rather\s+have)"
)
#: Planned events with one date at a time ("the wedding is set for June 14").
_EVENT_WORDS = (
    "wedding|party|appointment|interview|surgery|operation|flight|exam|concert|meeting|"
    "launch|graduation|birthday party|housewarming|move|holiday|vacation|trip|dinner"
)
_EVENTS = rf"(?:{_EVENT_WORDS})"
_EVENT_KEYS = tuple(_EVENT_WORDS.split("|"))
_GOING = r"(?:flying|going|travell?ing|heading|driving|off)"
#: "going to <verb>" is the future, not a trip.
_NOT_A_VERB = (
    r"(?!(?:be|do|have|get|make|try|start|see|take|give|buy|call|ask|need|keep|help|stay|"
    r"work|visit|meet|cook|look|learn|spend|pick|finish|tell|move|find|use|put|bring|watch|"
    r"write|read|play|run|go|let|say|think|miss|sleep|eat|drink|book|pay|plan|talk|"
    r"stop|quit|leave|sign|apply|check|wait|throw|host|celebrate|ask)\b)"
)
#: What cancels or ends a plan or an activity ("the Lisbon trip is off").
_ENDED = r"(?:cancell?ed|called\s+off|off|over|postponed\s+indefinitely|scrapped)"


#: Car makes and models: "bought a Tesla Model 3" says what the user drives now.
_CAR_MAKES = lang.CARS
#: Things people do as a pastime, by the verb ("I swim three times a week", "Grandma
#: bakes the best scones"), keyed as the -ing form so "I stopped swimming" meets "I swim".
_HOBBIES = {
    "swim": "swimming",
    "run": "running",
    "jog": "jogging",
    "cycle": "cycling",
    "bike": "biking",
    "hike": "hiking",
    "climb": "climbing",
    "boulder": "bouldering",
    "surf": "surfing",
    "ski": "skiing",
    "skate": "skating",
    "dance": "dancing",
    "paint": "painting",
    "draw": "drawing",
    "knit": "knitting",
    "sew": "sewing",
    "bake": "baking",
    "cook": "cooking",
    "garden": "gardening",
    "sing": "singing",
    "row": "rowing",
    "fish": "fishing",
    "sail": "sailing",
    "golf": "golfing",
    "box": "boxing",
    "meditate": "meditating",
    "crochet": "crocheting",
}


def _forms(base: str) -> tuple[str, ...]:
    gerund = _HOBBIES[base]
    third = f"{base}es" if base.endswith(("sh", "x", "s")) else f"{base}s"
    return (base, third, gerund)


_HOBBY_FORMS = "|".join(sorted({f for b in _HOBBIES for f in _forms(b)}, key=len, reverse=True))
#: Words before a pastime verb that are not who does it ("went hiking" is an outing,
#: "to swim" a wish or a lesson).
_NOT_A_DOER = (
    "(?:to|went|go|goes|going|gone|and|or|but|then|also|love|loves|like|likes|enjoy|enjoys|"
    # a noun's determiner or preposition: "surrounded by boxes", "the fish", "my paints"
    "by|of|with|from|the|a|an|my|our|his|her|their|your|some|no|"
    "hate|hates|want|wants|wanted|try|tried|learn|learning|learned|started|stopped|quit|"
    "let|lets|can|could|should|would|will|might|must)"
)
#: Any form of a pastime verb, to its key ("swims", "swam" -> "swimming").
_HOBBY_KEY = {form: _HOBBIES[base] for base in _HOBBIES for form in _forms(base)}


def _polar(attribute: str, pattern: str, polarity: str = "yes", **kw: Any) -> _Rule:
    return _Rule(attribute, re.compile(pattern), polarity=polarity, **kw)


#: Checked in order; the first rule that matches wins. Each row: attribute, pattern.
#: ``activity:`` keys (things one does, eats, drinks, plans, attends) end in the head
#: noun of their object, so "I play the violin" and "I stopped playing violin", "I'm
#: flying to Tokyo" and "the Tokyo trip got cancelled" share a key.
RULES: tuple[_Rule, ...] = (
    _rule(
        "favourite",
        rf"\bfavou?rite\s+(?P<thing>[a-z][a-z ]*?)\s+(?:is|are|was)\s+{_VAL}",
        possessive_ok=True,
        keys=("favourite", "favorite"),
    ),
    _rule(
        "name", rf"\bmy\s+(?:real\s+|full\s+|first\s+)?name\s+(?:is|'s)\s+{_VAL}", keys=("name",)
    ),
    _rule(
        "preferred name",
        rf"\b(?:(?:please\s+)?call\s+me|i\s+go\s+by|everyone\s+calls\s+me)\s+{_VAL}",
        keys=("call me", "go by", "calls me"),
    ),
    _rule(
        "name",
        r"^(?:(?:hi|hello|hey|oh)[!,. ]+)*(?:i'm|i am|im|this is)\s+"
        r"(?P<value>[a-z][a-z'-]+)(?=\s*(?:[,.!]|$|\s+by the way|\s+here))",
        proper=True,
        keys=("i'm", "i am", "im ", "this is"),
    ),
    _rule(
        "name:",
        rf"\b(?:renamed|renaming)\s+(?:the\s+|my\s+|our\s+)?{_THING}\s+(?:to|as)\s+{_VAL}",
        keys=("renam",),
    ),
    _rule(
        "name:",
        rf"\b(?:changed|changing)\s+(?:the\s+|my\s+|our\s+)?{_THING}(?:'s)?\s+name\s+"
        rf"to\s+{_VAL}",
        keys=("name",),
    ),
    _rule(
        "name:",
        rf"\b(?:my|our|the)\s+(?:new\s+)?{_THING}\s+is\s+(?:now\s+)?(?:called|named)\s+{_VAL}",
        keys=("called", "named"),
    ),
    _rule(
        "name:",
        rf"\ban?\s+(?:new\s+)?{_THING}\s+(?:called|named)\s+{_VAL}",
        keys=("called", "named"),
    ),
    _rule(
        "birthday",
        rf"\bbirthday\s+is\s+(?:on\s+)?{_DATE_VAL}",
        possessive_ok=True,
        keys=("birthday",),
    ),
    _rule("birthday", rf"\bborn\s+on\s+{_DATE_VAL}", keys=("born",)),
    _polar(
        "alive",
        r"\b(?P<value>passed away|died|passed on|is no longer with us)\b",
        "no",
        keys=("passed", "died", "no longer with us"),
    ),
    _rule("allergy", rf"\ballergic\s+to\s+{_VAL}", keys=("allergic",)),
    _polar(  # a condition found, or gone: "my doctor says im prediabetic", "diagnosed with
        # gout", "not prediabetic anymore"
        "condition:",
        rf"(?:\b(?:{_BE}|became|become|being)|{_BE_TYPED})\s+"
        rf"{_INLINE_NEG}(?:now\s+|officially\s+|technically\s+|borderline\s+)?"
        rf"(?P<value>{_CONDITIONS})\b",
        keys=_CONDITION_KEYS,
    ),
    _polar(
        "condition:",
        rf"\b(?P<neg>not|no\s+longer)\s+(?P<value>{_CONDITIONS})\b",
        keys=_CONDITION_KEYS,
    ),
    _polar("condition:", rf"\bdiagnosed\s+with\s+{_VAL}", keys=("diagnosed",)),
    _polar(  # "its confirmed I've got coeliac disease"
        "condition:",
        rf"\b(?:i've|ive|i\s+have|i)\s+got\s+(?:type\s+[12]\s+)?(?P<value>{_CONDITIONS}|diabetes)"
        r"(?:\s+disease)?\b",
        keys=("got",),
    ),
    _rule(
        "partner",
        rf"\b(?:married\s+to|engaged\s+to|dating|in\s+a\s+relationship\s+with|"
        rf"married)\s+{_NO_PARTNER}{_VAL}",
        keys=("married", "engaged", "dating", "relationship"),
    ),
    _rule(
        "location",
        rf"\b(?:lives?|living|resides?|residing|renting|rents?)\s+in\s+"
        rf"(?!(?:a|an|the|my|our)\s+(?:[\w-]+\s+){{0,2}}?{_HOMES}\s+in\b){_VAL}",
        keys=("live", "living", "resid", "rent"),
    ),
    _rule(
        "location",
        rf"\b(?:moved|moves|moving|relocated|relocating)\s+"
        rf"(?:from\s+.+?\s+)?(?:back\s+)?(?:to|into(?!\s+(?:a|an|the|my|our|his|her|their)\b))"
        rf"\s+{_VAL}",
        keys=("mov", "relocat"),
    ),
    _rule(  # a move on a day set, said in the present: "i move to muizenberg on saturday"
        "location",
        rf"(?<!\bwhen )(?<!\bif )\b(?:i|we)\s+move\s+(?:back\s+)?to\s+{_VAL}"
        rf"(?=\s+(?:on|next|this|tomorrow|tmrw|in\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*)\b)",
        keys=("mov",),
    ),
    _rule(  # Indian English "shifted to pune", never to a shift or a team
        "location",
        rf"\b(?:shifted|shifting)\s+(?:back\s+)?to\s+(?!(?:a|an|the|my|our|night|nights|day|"
        rf"days|another|new|remote|wfh|work|office|team)\b){_VAL}",
        keys=("shift",),
    ),
    _rule("location", rf"\bbased\s+in\s+{_VAL}", keys=("based",)),
    # Where one comes from, which no move changes: "born and bred in braunstone me",
    # "whitby born and bred", "grew up in el paso", "originally from nagpur"
    _rule(
        "hometown",
        r"\b(?:(?:born\s+and\s+(?:bred|raised)|grew\s+up(?:\s+together)?|raised)\s+in|originally\s+from|"
        r"(?:my\s+)?home\s*town\s+(?:is|was))\s+"
        r"(?P<value>[a-z][\w'-]*(?:\s+(?!(?:me|and|but|so|with|since|till|until)\b)[a-z][\w'-]*)?)\b",
        keys=("born", "grew", "raised", "originally", "hometown", "home town"),
    ),
    # "anyway im from nyeri, back home we sleep at 8pm" (not "from work", "from a farm")
    _rule(
        "hometown",
        r"\b(?:i'm|i am|im)\s+(?:originally\s+)?from\s+"
        r"(?P<value>(?!(?:the|a|an|my|our|his|her|work|home|school|here|there|now|today|"
        r"yesterday|uni|college)\b)[a-z][\w'-]*)\b",
        keys=("from",),
    ),
    # a place said, then "that's where i grew up": "braai at my boets place in paarl this
    # arvo, thats where i grew up", "xmas at mums in geelong this yr, back to where i grew up"
    _rule(
        "hometown",
        r"\bin\s+(?P<value>[a-z][\w'-]*)(?:\s+[a-z][\w'-]*){0,3}?[,\s]+"
        r"(?:that'?s|which\s+is|back\s+to|back)\s+where\s+i\s+grew\s+up\b",
        keys=("grew",),
    ),
    # home as where one is from: "home in ennis for the weekend", "my cousin's wedding
    # back home in ibadan" (not "our new home in arroios", "home in time", "home in bed")
    _rule(
        "hometown",
        r"(?<!\bnew\s)(?<!\bmy\s)(?<!\bour\s)(?<!\bthe\s)(?<!\ba\s)(?<!\bfirst\s)"
        r"\b(?:back\s+)?home\s+in\s+(?P<value>(?!(?:time|bed|lockdown|quarantine|isolation|"
        r"one|pieces?|tears|hospital)\b)[a-z][\w'-]*)\b",
        keys=("home",),
    ),
    # home for the holidays: "ill go home to wrocław for christmas", "going home to puebla
    # to see mi mamá"
    _rule(
        "hometown",
        r"\b(?:go|going|goin|went|head|heading|fly|flying)\s+(?:back\s+)?home\s+to\s+"
        r"(?P<value>(?!(?:rest|sleep|relax|change|eat|shower|nap|chill|crash|pack|study|work|"
        r"cook|feed|walk|see|visit)\b)[a-z][\w'-]*)\s+"
        r"(?:for\s+(?:christmas|xmas|the\s+holidays|holidays|easter|thanksgiving|new\s+year|"
        r"the\s+weekend|a\s+week|diwali|eid|chuseok)|to\s+see\s+(?:my|mi|me|our)|over)\b",
        keys=("home",),
    ),
    _rule(
        "hometown",
        r"(?:^|[,.;:!?]\s*|\b(?:no|actually|im|i'm)\s+)"
        r"(?P<value>(?!(?:i|im|i'm|and|was|were|been|me|my|we)\b)[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)"
        r"\s+born\s+and\s+(?:bred|raised)\b",
        keys=("born",),
    ),
    _rule(
        "location",
        rf"\b(?:i'm|i am|we're|we are|im)\s+(?:now\s+|still\s+)?(?:living\s+|settled\s+)?"
        rf"in\s+{_VAL}",
        proper=True,
        keys=("i'm", "i am", "we're", "we are", "im "),
    ),
    _rule(
        "location",
        rf"\b(?:(?:my|our)\s+(?:own\s+|new\s+)?|new\s+)(?:{_HOMES}|pg|dorm|hostel)\s+"
        rf"in\s+(?!(?:mind|order|progress|the|a|an|my|our)\b){_VAL}",
        keys=(*_HOME_KEYS, "pg", "dorm", "hostel"),
    ),
    _rule(  # a home described on the way: "rent is 2.4m a year for our 3 bed in gbagada",
        # "we split a 2 bed duplex in the annex", "we've been in this house in scottsdale"
        "location",
        rf"(?:\b(?:my|our)\s+|\b(?:rented|renting|split|splitting|share|sharing|bought|"
        rf"buying)\s+(?:a|an|the|our|my)\s+|\b(?:been|lived|living)\s+in\s+"
        rf"(?:this|the)\s+)(?:{_DESCRIBING}\s+){{0,3}}?{_HOMES}\s+in\s+"
        rf"(?!(?:mind|order|progress|a|an|my|our)\b)(?:the\s+)?{_VAL}",
        keys=_HOME_KEYS,
    ),
    _rule(  # a home named before its kind: "our brunswick place is a 1 bed", "my
        # koramangala flat", "42 years in the headingley house"
        "location",
        rf"(?:\b(?:my|our)|\byears\s+in\s+the)\s+(?P<value>(?!{_NOT_A_HOME_NAME}\b)[a-z][\w-]*)"
        rf"\s+(?:house|flat|apartment|place|condo|townhouse|bungalow)\b"
        rf"(?!\s+(?:in|at|on|near|by|with)\b)",
        keys=_HOME_KEYS,
    ),
    _rule(  # a home named before its kind: "got the keys to the maple grove townhouse",
        # "my lease at hilltop commons is up in march"
        "location",
        rf"\bkeys\s+to\s+(?:the|our|my)\s+(?!(?:new|old|little|tiny|big|first|own|rental)\b)"
        rf"(?P<value>[\w'-]+(?:\s+[\w'-]+)?)\s+{_HOMES}\b",
        keys=("keys to",),
    ),
    _rule("location", rf"\b(?:my|our)\s+lease\s+(?:at|on)\s+{_VAL}", keys=("lease",)),
    _rule(  # a home got, said indirectly: "got the keys to a flat in X", "settled into
        # the condo in X", "i have a studio in X now"
        "location",
        rf"\b(?:settled\s+into|moved\s+into|keys\s+to|closed\s+on|got|have|found|bought|rent|"
        rf"rents|rented|"
        rf"(?:lives?|living)\s+in)\s+"
        rf"(?:a|an|the|our|my)\s+(?:[\w-]+\s+){{0,3}}?{_HOMES}\s+in\s+(?!mind\b){_VAL}",
        keys=_HOME_KEYS,
    ),
    _rule(  # a home got, described after the keys or the move in the same sentence: "got
        # the keys on the 15th, its a little 1.5 room villa in mangwon-dong", "got the keys to
        # the new place yesterday, a little semi in rhiwbina", or right after it, counted or
        # by its kind: "we moved!!! 3 bedroom townhouse in missouri city", "i signed a
        # lease!! studio in palms"
        "location",
        rf"\b(?:keys|moved|moving|lease)\b(?:[^.!?]|(?<=\d)\.(?=\d))*?"
        rf"(?:\b(?:a|an)\s+|[!.]+\s*(?=\d|{_HOMES}\b))"
        rf"(?:[\w.-]+\s+){{0,3}}?{_HOMES}\s+in\s+(?!mind\b){_VAL}",
        keys=("keys", "moved", "moving", "lease"),
    ),
    _rule(  # a street address said of a home: "got the keys on monday, 3 Riverside Close,
        # Otley", "the condo ... 1140 shady oak ct in kettering"
        "location",
        rf"\b(?:keys|moved|moving|address|live|living|{_HOMES})\b[^.!?]*?(?<![\w.-])"
        rf"(?P<value>\d{{1,5}}[a-z]?\s+(?:[a-z][\w'-]*\s+){{1,3}}?{_STREET}\b"
        rf"(?:,?\s+(?!{_STOP_WORDS}\b)[a-z][\w'-]*(?=\s*(?:[,.;:!?]|$)))?)",
        keys=_STREET_KEYS,
    ),
    # The city one lives in, beside the home (``location``: "moved into our place in
    # leslieville"), said where a home is a street or a flat: a decision to stay ("told
    # the recruiter no thanks, staying in toronto") and an address's town ("1140 shady
    # oak ct in kettering"). A newer home in the city supersedes no city.
    _rule(
        "city",
        # not "i stay in pj", where chat says it of home ("i stay kat bangsar south")
        rf"\b(?:staying|to\s+stay|remain|remaining)\s+(?:here\s+|put\s+)?in\s+"
        rf"(?!(?:a|an|the|my|our|his|her|their|bed|touch|contact|shape|line|school|tonight)\b)"
        rf"{_VAL}",
        keys=("stay", "remain"),
    ),
    _rule(
        "city",
        rf"\b{_HOMES}s?\b[^.!?]*?\s[\w'-]+\s+{_STREET}\.?\s+in\s+{_VAL}",
        keys=_HOME_KEYS,
    ),
    # How to reach someone, known by the value's shape wherever it is said ("Megan set up
    # my new email yesterday, greg@x.com"; "new number since I moved. its 0412 558 903").
    _rule("email", r"(?<![\w.+-])(?P<value>[\w.%+-]+@[\w-]+(?:\.[\w-]+)+)", keys=("@",)),
    _rule(
        "phone",
        # seven digits or more, in groups as countries write them ("0412 558 903",
        # "07700 900123", "+44 7700 900123", "555-1234"), no date ("2024-03-05")
        r"(?<![\w.+-])(?=\+?\(?(?:\d[ ()-]{0,2}){7})"
        r"(?P<value>\+?\(?\d{2,5}\)?(?:[ -]?\d{3,6}){1,2})(?![\w.-]*\d)",
        # and as other languages say it: "ya tengo el numero del curro, el 634 218 890"
        keys=(
            "number",
            "phone",
            "mobile",
            "cell",
            "whatsapp",
            "numero",
            "número",
            "móvil",
            "movil",
            "celular",
            "teléfono",
            "telefono",
            "telefone",
            "téléphone",
            "portable",
            "handy",
            "nummer",
        ),
    ),
    _rule("employer", rf"\b(?:works?|working)\s+(?:at|for)\s+{_VAL}", keys=("work",)),
    _rule(  # "ive been at ridgeline distribution almost 4 yrs"
        "employer",
        r"\b(?:i've|ive|i\s+have)\s+been\s+(?:at|with)\s+(?P<value>[\w'&-]+(?:\s+[\w'&-]+){0,3}?)"
        r"(?=,?\s+(?:for\s+)?(?:almost|nearly|about|over|like|just\s+over)?\s*\d+\+?\s*"
        r"(?:yrs?|years?|months?)\b)",
        keys=("been at", "been with"),
    ),
    _rule(  # a job got, said indirectly: "got an offer as a hygienist at X", "got the X job"
        "employer",
        rf"\b(?:got|landed|have|received|took)\s+(?:an?\s+|the\s+)?(?:job\s+)?offer\s+"
        rf"(?:as\s+an?\s+[\w -]+?\s+)?(?:at|from|with)\s+{_VAL}",
        keys=("offer",),
    ),
    _rule(  # "accepted the sous chef job at X", "got a nursing position with X"
        "employer",
        rf"\b(?:got|landed|accepted|took|taking|accepting|offered)\s+(?:an?\s+|the\s+)?"
        rf"(?:[\w-]+\s+){{0,3}}?(?:job|position|role|post)[!.\s]*\s(?:at|with)\s+{_VAL}",
        keys=("job", "position", "role", "post"),
    ),
    _rule(
        "employer",
        r"\b(?:got|landed|accepted|took)\s+the\s+(?!(?:new|dream|first|second|other|same|"
        r"full-time|part-time|full|part|big|whole)\b)(?P<value>[\w'&-]+(?:\s+[\w'&-]+)?)"
        r"\s+(?:job|position|role)\b(?!\s+(?:at|with)\b)",  # "the sous chef job at X": X
        keys=("job", "position", "role"),
    ),
    _rule(
        "employer",
        rf"\b(?:employed\s+(?:by|at)|joined{_NOT_A_CLUB}|(?:job|position|role|office)\s+at|"
        rf"start(?:s|ed|ing)?\s+(?:working\s+|work\s+)?(?:as\s+(?:an?\s+)?[\w -]+?\s+)?at(?!\s+\d)|"
        rf"(?:first|1st)\s+(?:(?:\d+|two|three|few|couple\s+of)\s+)?(?:day|week|month)s?\s+at|"
        # "week 3 at moth & oak", "second week at stripe": weeks into a job begun (a
        # place it names, not "at the gym", "at home")
        rf"(?:(?:second|third|2nd|3rd)\s+(?:week|month)|(?:week|month)\s+\d{{1,2}})\s+at"
        rf"(?!\s+(?:the|home|work|my|school|uni|university|college)\b)|"
        rf"hired\s+(?:by|at)|signed\s+(?:on\s+)?with(?!\s+(?:a|an|my|our|him|her|them|the\s+"
        rf"(?:agency|agent|realtor|landlord|lawyer|bank|lender|seller|buyer)s?)\b)(?:\s+the)?)"
        rf"\s+{_VAL}",
        keys=("employed", "joined", " at ", "hired", "signed"),
    ),
    _rule(  # where one does one's shifts: "a mental shift at doyle's", "did a double at
        # pickwell today"
        "employer",
        r"(?<!\blast\s)(?<!\bfinal\s)\b(?:shift|shifts|double|doubles)\s+(?:rn\s+|today\s+|tonight\s+)?at\s+"
        rf"(?!(?:home|work|night|the\s+moment|least|\d)\b)(?:the\s+)?{_VAL}",
        keys=("shift", "double"),
    ),
    _rule(  # the job named by what it is: "got offered head barman at kavanagh's"
        "employer",
        rf"\b(?:got|been|was|were|i'm|im|am)\s+(?:just\s+|finally\s+|officially\s+)?offered\s+"
        rf"(?:the\s+|an?\s+)?(?:[\w-]+\s+){{0,3}}?(?:{_JOBS})\s+(?:at|with)\s+{_VAL}",
        keys=("offered",),
    ),
    _rule(
        "employer",
        rf"\baccepted\s+(?:an?\s+|the\s+)?(?:new\s+)?(?:job|offer|position|role)\s+"
        rf"(?:at|from|with)\s+{_VAL}",
        keys=("accepted",),
    ),
    _rule(  # the employer first: "keystone called today and offered me the dispatcher
        # job", "tanjong medical centre offered me staff nurse ..., start august 5"
        "employer",
        rf"(?:^|[.!?;:,]\s*|\b(?:and|so|but)\s+)(?P<value>{_NOT_AN_OFFERER}[\w'&-]+"
        r"(?:\s+[\w'&-]+){0,2}?)\s+(?:(?:called|rang|phoned|emailed|texted)\s+"
        r"(?:me\s+)?(?:[\w-]+\s+){0,2}?and\s+|just\s+|finally\s+|officially\s+)?offered\s+me\s+"
        r"(?:(?:an?|the)\s+)?(?:(?:[\w-]+\s+){0,3}?(?:job|position|role|post)\b|"
        r"[^.!?;]*\bstart(?:s|ing)?\b)",
        keys=("offered me",),
    ),
    _rule(
        "employer",
        rf"\b(?:(?:handed|handing|gave|giving)\s+in\s+(?:my\s+)?notice\s+(?:at|to)|"
        rf"resigned\s+from|(?:quit|left|leaving|quitting)\s+(?:my\s+)?job\s+(?:at|with)|"
        rf"(?:last|final)\s+(?:day|shift)\s+(?:at|with))\s+{_VAL}",
        keys=("notice", "resigned", "job", "last", "final"),
        negate=True,
    ),
    _rule(  # "quit the warehouse job", "left my job at the bakery" said the other way round
        "employer",
        r"\b(?:quit|left|leaving|quitting|lost)\s+(?:my|the|that)\s+"
        r"(?P<value>(?!new\b|old\b|current\b)[\w'&-]+(?:\s+[\w'&-]+)?)\s+job\b",
        keys=("job",),
        negate=True,
    ),
    _rule(  # "got laid off yesterday", "made redundant friday", "lost my job": no employer
        "employer",
        r"\b(?:(?:got|been|was|were|just|i'm|im|am)\s+|(?=lost\s))(?P<value>laid\s+off|"
        r"let\s+go|made\s+redundant|fired|sacked|lost\s+my\s+job)\b",
        fixed="none",
        keys=("laid off", "let go", "redundant", "fired", "sacked", "lost my job"),
    ),
    _rule("job", rf"\b(?:works?|working)\s+as\s+(?:an?\s+)?{_VAL}", keys=("work",)),
    _rule(
        "date:",
        rf"\b(?P<thing>{_EVENTS})\s+(?:is|was|'s)\s+(?:now\s+)?(?:set\s+for|scheduled\s+for|"
        rf"planned\s+for|booked\s+for|on|in)\s+{_VAL}",
        keys=_EVENT_KEYS,
    ),
    _rule(
        "date:",
        rf"\b(?:postponed|rescheduled|moved|pushed(?:\s+back)?|brought\s+forward)\s+"
        rf"(?:the\s+|our\s+|my\s+)?(?P<thing>{_EVENTS})\s+(?:back\s+)?(?:to|until|till)\s+{_VAL}",
        keys=("postpone", "reschedul", "moved", "pushed", "brought"),
    ),
    _rule("job", rf"\bpromoted\s+to\s+(?:an?\s+)?{_VAL}", keys=("promoted",)),
    _rule(  # "bank offered me branch operations manager, but at the wuse 2 branch"
        "job",
        rf"\boffered\s+me\s+(?:the\s+|an?\s+)?(?:(?:role|position|post)\s+of\s+)?"
        rf"(?P<value>(?:[\w-]+\s+){{0,3}}?(?:{_JOBS}))\b",
        keys=("offered me",),
    ),
    _rule(
        "job",
        rf"\b(?:teach|teaches|teaching|lectures?\s+in)\s+(?!(?:me|him|her|them|us|you|my|his|"
        rf"their|our|your|a\s+class|at|on|in|for)\b){_VAL}",
        keys=("teach", "lecture"),
    ),
    _rule(
        "diet",
        rf"(?:\b(?:{_BE}|became|become|being|went|gone|going|turned)|{_BE_TYPED})\s+{_INLINE_NEG}"
        rf"(?:now\s+|an?\s+|strictly\s+|fully\s+|completely\s+)?(?P<value>{_DIETS})\b",
        keys=(
            "vegetarian",
            "vegan",
            "pescatarian",
            "pescetarian",
            "carnivore",
            "keto",
            "gluten-free",
            "omnivore",
        ),
    ),
    _rule("diet", r"\b(?:follows?|on)\s+an?\s+(?P<value>[a-z-]+)\s+diet\b", keys=("diet",)),
    _rule(
        "diet",
        r"\beat\s+(?:pretty\s+much\s+|basically\s+|just\s+about\s+)?"
        r"(?P<value>everything|anything)\b",
        fixed="omnivore",
        keys=("everything", "anything"),
    ),
    _rule(
        "job",
        rf"(?:\b(?:{_BE}|became)|{_BE_TYPED})\s+{_INLINE_NEG}(?:now\s+)?an?\s+{_VAL}",
        job_word=True,
        keys=(" a ", " an "),
    ),
    _rule(  # where the job is, when no rule before read the job: "a relationship manager
        # at the ikeja branch" (after "I'm a nurse at St Mary's": the job, so a promotion
        # replaces it), or said as who one is: "im arjun, backend dev at flipkart"
        "employer",
        rf"(?:(?<!\bas\s)\ban?\s+|(?:^|[,.;!?{_EMOJI}]\s*|\b(?:i'm|im|i am)\s+)(?!an?\b))"
        # (not someone's work said with a verb of it: "hafiz kerja engineer at petronas")
        r"(?:(?!(?:he|she|hes|shes|they|my|his|her|their|our|is|was|and|kerja|keje|bekerja)\b)"
        rf"[\w-]+\s+){{0,2}}?"
        rf"(?:{_JOBS})\s+(?:at|for|with)\s+"
        rf"(?!\d|(?:home|night|work|"
        rf"the\s+moment|least|first|last|heart)\b){_VAL}",
        keys=(" at ", " for ", " with "),
    ),
    _rule("age", r"\b(?P<value>\d{1,3})\s+years?\s+old\b", keys=("year",)),
    _rule("age", r"\bturned\s+(?P<value>\d{1,3})\b", keys=("turned",)),
    _rule(
        "age",
        r"\b(?:i'm|i am|im)\s+(?P<value>\d{1,3})\b"
        r"(?!\s*(?:%|percent|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|k\b|kg|lbs?))",
        keys=("i'm", "i am", "im "),
    ),
    _rule(
        "reply language",
        r"\b(?:reply|replies|answer|answers|respond|write|talk|speak)\s+(?:to\s+me\s+)?"
        r"in\s+(?P<value>[a-z]+)\b",
        proper=True,
        keys=(" in ",),
    ),
    _rule(
        "preferred ",
        rf"\b{_PREFER}\s+(?:an?\s+|the\s+)?(?P<value>[a-z-]+)\s+(?P<thing>{_EXCLUSIVE})s?\b",
        keys=(
            "seat",
            "meal",
            "room",
            "bed",
            "table",
            "slot",
            "shift",
            "time",
            "day",
            "airline",
            "hotel",
            "side",
            "language",
            "format",
            "font",
            "theme",
            "editor",
            "browser",
            "ide",
            "os",
            "phone",
            "laptop",
        ),
    ),
    _polar(  # "smoke-free", "nicotine free 3 months": stopped
        "smokes",
        r"\b(?P<value>smoke|smoking|vape|vaping|nicotine)[- ]free\b",
        polarity="no",
        keys=("free",),
    ),
    _polar(  # "3 months no smoking", "day 3 of no vape", "a non-smoker now", "off the smokes"
        "smokes",
        r"(?:(?P<neg>\bnon-?|\bno\s+|\boff\s+(?:the\s+)?|\bwithout\s+(?:the\s+|a\s+)?)|\b)"
        r"(?P<value>smokes|smoke|smoking|smoker|vapes|vape|vaping|vaped|vaper)\b",
        keys=("smok", "vap"),
    ),
    _polar(
        "activity:",
        rf"\b(?:quit|quitting|gave\s+up|give\s+up|giving\s+up|stopped|dropped\s+out\s+of|"
        rf"dropped|cancell?ed|left|retired\s+from|skipped)\s+{_VAL}",
        "no",
        keys=(
            "quit",
            "gave up",
            "give up",
            "giving up",
            "stopped",
            "dropped",
            "cancel",
            "left",
            "retired",
            "skipped",
        ),
    ),
    _polar(
        "activity:",
        rf"^(?:the\s+|my\s+|our\s+)?(?P<value>[a-z][a-z' -]*?)\s+(?:trip|plan|plans|visit|"
        rf"class|classes|membership|booking|wedding|party|holiday|vacation)?\s*"
        rf"(?:is|are|was|were|got|has\s+been|have\s+been)\s+(?:now\s+)?{_ENDED}\b",
        "no",
        keys=("cancel", "called off", " off", " over", "scrapped"),
    ),
    _polar(
        "activity:",
        rf"\b{_GOING}\s+to\s+{_NOT_A_VERB}{_VAL}",
        keys=("flying", "going", "travel", "heading", "driving", "off to"),
    ),
    _polar(
        "activity:",
        rf"\b(?:trip|journey|holiday|vacation)\s+to\s+{_VAL}",
        keys=("trip", "journey", "holiday", "vacation"),
    ),
    _polar(  # a plan replaced: "lisbon is off, we're doing edinburgh instead"
        "activity:",
        r"\b(?:doing|going\s+to|heading\s+to|off\s+to|flying\s+to|booked|picked|chose|"
        r"switched\s+to)\s+(?P<value>[a-z][\w' -]*?)\s+instead\b",
        keys=("instead",),
    ),
    _polar("activity:", rf"\btraining\s+for\s+{_VAL}", keys=("training",)),
    _polar(
        "activity:",
        rf"\b(?:plays?|playing|practi[cs]es?|practi[cs]ing)\s+{_VAL}",
        keys=("play", "practi"),
    ),
    _polar(
        "activity:", rf"\b(?:studying|studies|study|majoring\s+in)\s+{_VAL}", keys=("stud", "major")
    ),
    _polar("activity:", rf"\b(?:go|goes)\s+to\s+{_NOT_A_VERB}{_VAL}", keys=("go to", "goes to")),
    _polar("activity:", rf"\b(?:eats?|eating)\s+{_VAL}", keys=("eat",)),
    _polar("activity:", rf"\b(?:drinks?|drinking)\s+{_VAL}", keys=("drink",)),
    _rule(
        "likes:",
        rf"\b(?:hates?|hated|dislikes?|detests?|loathes?|can't\s+stand|"
        rf"cannot\s+stand)\s+{_VAL}",
        polarity="no",
        keys=("hate", "dislike", "detest", "loath", "stand"),
    ),
    _rule(
        "likes:",
        rf"\b(?:likes?|loves?|enjoys?|adores?|prefers?|is\s+into|is\s+fond\s+of|"
        rf"is\s+a\s+fan\s+of|come\s+to\s+(?:love|like|enjoy))\s+(?!\d){_VAL}",
        polarity="yes",
        keys=("like", "love", "enjoy", "ador", "prefer", "into", "fond", "fan of", "come to"),
    ),
    _rule("car", rf"\bdrives?\s+an?\s+(?!lot\b|bit\b|ton\b){_VAL}", keys=("drive",)),
    _rule(
        "car",
        rf"\b(?:bought|buying|got|getting|leased|leasing|picked\s+up|took|take|"
        rf"swap(?:ped)?\s+(?:the|my|our)\s+[\w-]+\s+for)\s+(?:an?\s+|my\s+|the\s+)?"
        rf"(?:new\s+|used\s+|second-hand\s+)?(?P<value>(?:(?:19|20)\d\d\s+)?(?:{_CAR_MAKES})\b"
        rf"[^,.;:!?()]*?)(?=\s*(?:[,.;:!?()]|$)|\s+(?:{_STOP_WORDS})\b)",
        keys=tuple(_CAR_MAKES.split("|")),
    ),
    _polar(
        "activity:",
        rf"\b(?!{_NOT_A_DOER}\b)[a-z]+\s+(?:now\s+|still\s+|also\s+|usually\s+|often\s+|"
        rf"really\s+|regularly\s+|sometimes\s+)?(?:go\s+|goes\s+)?"
        rf"(?P<value>{_HOBBY_FORMS})\b"
        rf"(?!\s+(?:a|an|the(?!\s+best)|my|our|his|her|their|it|that|this|for|to|up|out|into)\b)",
        keys=tuple(sorted(_HOBBY_KEY)),
    ),
)

_ALL_KEYS = tuple(sorted({key for rule in RULES for key in rule.keys}))

#: What a home is said after when it is the one left: "moved out of my flat in X".
_LEFT_FROM = re.compile(r"\bout\s+of\s+$")
#: Words before a claim that make it a wish, a plan or a hypothesis, not a change.
_HYPOTHETICAL = re.compile(
    r"\b(?:if|would|could|might|maybe|wanna|wish|'d\s+love|thinking\s+(?:of|about)|"
    r"want\s+to|wants\s+to|hoping\s+to|hope\s+to|planning\s+to|plan\s+to|considering)\b"
    r"|'d\b"
)
#: Negation in the few words before the verb: "doesn't (really) like", "no longer lives".
_NEG_BEFORE = re.compile(
    r"(?:\bno\s+longer|\bnot|\bcannot|n't|\bnever|\bstopped|\bquit|\bused\s+to|\bno\s+more|"
    r"\b(?:havent|hasnt|dont|doesnt|didnt|cant|wont|isnt|arent|wasnt|aint))"
    r"\s+(?:\w+\s+){0,2}$"
)
# "would like to", "looks like": not a preference.
#: Who or how, right before a bare "like" that is a verb ("i really like", "we both like",
#: "dont like"); without one it is chat's filler or a comparison ("like a bodyguard",
#: "like you said", "like half my counts")
_LIKE_AS_A_VERB = re.compile(
    r"\b(?:i|we|you|they|people|kids|really|do|dont|don't|did|didnt|didn't|does|doesnt|"
    r"doesn't|not|never|also|still|"
    r"actually|genuinely|totally|both|all|always|to|kinda|sorta|def|definitely)\s+$"
)
_LIKE_NOT_PREFERENCE = re.compile(
    r"(?:\bwould|'d|\blooks?|\blooked|\bseems?|\bsounds?|\bfeels?|\bfelt|\bjust|\bmuch)\s+$"
)
# "Alice's brother lives in Rome" is not about Alice (pronouns like "she's" are fine).
_OTHER_POSSESSOR = re.compile(r"\b(?!(?:he|she|it|that|who|there|what|where|here)'s\b)\w+'s\s+\w+")
#: A value that starts a clause of its own is none: "the area we live in is so quiet".
#: what a rule's value cannot be: a verb, or how one does it ("trying to eat better")
_NOT_A_VALUE = re.compile(
    r"(?:is|was|are|were|has|have|had|will|would|gets?|got)\b"
    r"|(?:better|worse|healthier|healthy|clean|well|badly|properly|right|less|more|out)$"
)
#: A time, which is never where one lives nor what one does ("moved into the new place
#: in june", "play every tuesday night", "a trip for october instead")
_TIMES = (
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|may|"
    r"june|july|august|september|october|november|december|mondays?|tuesdays?|wednesdays?|"
    r"thursdays?|fridays?|saturdays?|sundays?|spring|summer|autumn|fall|winter|easter|"
    r"christmas|weekends?|weekdays?|nights?|mornings?|evenings?|afternoons?|days?|weeks?|"
    r"months?|years?|hours?|hrs?|minutes?|mins?|seconds?|tonight|today|tomorrow|\d[\d:.-]*"
)
#: What "in" names that is no place: a time or a state of mind ("living in fear")
_NOT_A_PLACE = re.compile(
    rf"(?:{_TIMES}|fear|hope|denial|peace|sin|luxury|limbo|chaos|comfort|the moment|"
    r"the past|the future)$"
)
#: The head of an activity's object that names no activity: a time, chat's fillers, a
#: word that stands for something said elsewhere ("i cant study rn", "he just stopped
#: lmao", "i stopped the fasting thing")
_NOT_AN_ACTIVITY = re.compile(
    rf"(?:{_TIMES}|rn|lol|lmao|btw|tbh|idk|af|omg|haha|thing|things|stuff|way|much|lot|bit|"
    r"go|know|back|got|tip|tips|handed)$"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
#: A place named after it is described ("a freight brokerage called keystone freight")
_CALLED = re.compile(
    r"[^,.;!?]*?\b(?:called|named)\s+(?!(?:me|us|him|her|them|today|yesterday|back|and|to|"
    r"this|last|on|in|at|about)\b)(?P<name>[\w'&-]+(?:\s+[\w'&-]+)?)"
)
_LEADING = re.compile(r"^(?:the|a|an|my|his|her|their|our|some|to)\s+")
#: Where the clause a claim sits in starts: what precedes says who makes it.
_CLAUSE_START = re.compile(r".*(?:[.!?;,:]|\band\b|\bbut\b|\bso\b)\s*", re.DOTALL)
#: The user as the subject ("me and Luis are doing it" too).
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|i'll|i'd|we|we're|we've|weve|me|us)\b")
#: Someone else as the subject: a third person, or a person noun ("my mate", "the
#: therapist", "half my mates").
_SOMEONE_ELSE = re.compile(
    r"\b(?:he|she|they|he's|she's|they're|hes|shes|theyre|his|her|their|everyone|everybody|"
    r"someone|"
    r"people|mates?|friends?|boy|girl|guy|kids?|"
    + "|".join(sorted({w for w in WORDS if " " not in w} | JOB_WORDS, key=len, reverse=True))
    + r")s?\b"
)


#: the verbs claims start with, in the third person ("pip hates", "kayla works"): the
#: user writes "i hate", or "hate", never "hates"
_THIRD_PERSON_VERBS = frozenset(
    "hates loves likes dislikes enjoys prefers adores detests loathes works lives teaches "
    "studies plays drinks eats smokes vapes drives owns rents runs goes moves joins starts "
    "quits leaves stays trains cooks bakes paints swims writes reads sings dances".split()
)
#: verbs a claim's clause states it by, before the words a rule reads ("got a job at")
_CLAIM_VERBS = frozenset(
    "got gets landed started starts accepted took joined signed moved moves quit left "
    "bought rented found".split()
)
#: what opens a clause as a cry, not as who did something ("yesss just got the job")
_INTERJECTION = re.compile(
    r"(?:y+e+s+|y+a+y+|w+o+h+o+|w+o+w+|o+h+|a+h+|o+m+g+|l+o+l+|(?:h+a+)+|ok+|okay|bro|dude|"
    r"guys|update|news|well|anyway|btw|ugh+|phew|sooo*|man|girl)$"
)
#: words that open a clause without being its subject ("finally got the keys to ...")
_NOT_A_SUBJECT = frozenset(
    "just finally also now so ok okay then still officially honestly literally actually "
    "really totally already recently today yesterday lol omg yeah yes well oh anyway".split()
)


def _not_the_users(text: str, start: int) -> bool:
    """Is the claim that starts at ``start`` someone else's, or only imagined? Read in
    its own clause: "half my mates have moved to Melbourne", "the therapist is a 25 year
    old", "pip hates the stairs", "if I moved to Vancouver I'd make more"; "moved!! I
    have a studio in St Johns" and "just started at Acme" (no subject written) are the
    user's."""
    clause = _CLAUSE_START.sub("", text[:start])
    if _HYPOTHETICAL.search(clause):
        return True
    near = " ".join(clause.split()[-4:])  # the user writes "i have", never "has"
    if re.search(r"\bhas\b", near) and not _FIRST_PERSON.search(near):
        return True  # "... i think my friend jean said her husband ron has just been"
    if _FIRST_PERSON.search(clause):
        return False
    said = clause.split()
    verb = next((i for i, word in enumerate(said) if word in _CLAIM_VERBS), None)
    if verb is not None:  # "also nadia just got a job at ...": who is before the verb
        said = said[:verb]
        if not said:
            return False
    subject = [word for word in said if word not in _NOT_A_SUBJECT]
    claimed = (text[start:].split(maxsplit=1) or [""])[0]  # the claim's first word
    # a third person's verb after one word, or after none ("a guy called dan, teaches
    # geography"): the user writes "i teach" or "teach", never "teaches"; and one word
    # then "just", "also" is who did it ("nadia just got a job at google toronto")
    return (
        bool(_SOMEONE_ELSE.search(clause))
        or (len(subject) <= 1 and claimed in _THIRD_PERSON_VERBS)
        or (
            len(subject) == 1
            and said[-1] != subject[0]
            and subject[0].isalpha()
            and not _INTERJECTION.match(subject[0])
        )
        or (  # "winter quarter started at seattle central": a noun phrase did it
            (verb is not None or claimed in _CLAIM_VERBS)
            and len(subject) >= 2
            and said[-1] == subject[-1]
            and subject[-1] not in _EN_STOP_WORDS  # "trying to quit the durries": no noun
            and not subject[-1].endswith("ing")
            and all(w.isalpha() and not _INTERJECTION.match(w) for w in subject)
        )
    )


def _norm_value(value: str) -> str:
    value = re.sub(r"\s+", " ", value.strip().lower())
    previous = None
    while previous != value:
        previous, value = value, _LEADING.sub("", value)
    return value.strip(" '\"-")


_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_RE = re.compile(r"\b(" + "|".join(m[:3] for m in _MONTHS) + r")[a-z]*\.?\b")


def _norm_date(value: str) -> str:
    """A birthday is a day of the year: "March 3, 1990" and "3 march" -> "march 3"."""
    iso = re.search(r"\b\d{4}-(\d{1,2})-(\d{1,2})\b", value)
    if iso and 1 <= int(iso.group(1)) <= 12 and 1 <= int(iso.group(2)) <= 31:
        return f"{_MONTHS[int(iso.group(1)) - 1]} {int(iso.group(2))}"
    month = _MONTH_RE.search(value)
    day = re.search(r"\b([0-3]?\d)(?:st|nd|rd|th)?\b(?!\d)", value)
    if month is None or day is None or not 1 <= int(day.group(1)) <= 31:
        return value
    full = next(m for m in _MONTHS if m.startswith(month.group(1)))
    return f"{full} {int(day.group(1))}"


_QUANTITY = re.compile(
    r"^(?:\d+|a|an|one|two|three|four|five|a few|a couple of|several|some|lots of|a lot of)\s+"
    r"(?:(?:cups?|glass(?:es)?|bottles?|pints?|cans?|slices?|pieces?|bowls?|plates?|shots?|"
    r"mugs?)\s+of\s+)?"
)
_PLAN_NOUNS = (
    "trip",
    "plan",
    "plans",
    "visit",
    "class",
    "classes",
    "lesson",
    "lessons",
    "membership",
    "school",
    "course",
    "degree",
    "program",
    "programme",
    "booking",
    "subscription",
    "team",
    "club",
)


def _head(value: str) -> str:
    """The object of an activity, as its key: "two cups of coffee" -> "coffee",
    "my PureGym membership" -> "puregym", "the Berlin marathon" -> "marathon"; how often
    is left out and a plural is its singular ("three coffees a day" -> "coffee"), so
    "I quit coffee" meets it.

    >>> _head("two cups of coffee"), _head("puregym membership"), _head("berlin marathon")
    ('coffee', 'puregym', 'marathon')
    >>> _head("three coffees a day"), _head("the drums"), _head("dance classes")
    ('coffee', 'drum', 'dance')
    """
    value = _HOW_OFTEN.sub("", _QUANTITY.sub("", value))
    words = value.split()
    while len(words) > 1 and words[-1] in _PLAN_NOUNS:
        words.pop()
    return _singular(words[-1]) if words else value


_HOW_OFTEN = re.compile(
    r"\s+(?:a|an|per|each|every|twice\s+a|once\s+a)\s+"
    r"(?:day|week|month|year|morning|night|evening|weekend)\b.*$"
)


def _singular(word: str) -> str:
    """ "coffees" -> "coffee", "classes" -> "class", "matches" -> "match"; words that
    only end in s ("tennis", "chess", "bus") stay."""
    if len(word) < 4 or not word.endswith("s") or word.endswith(("ss", "us", "is", "ics")):
        return word
    if word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    return word[:-1]


@lru_cache(maxsize=65_536)
def attribute_of(fact: str, mine: bool = False) -> tuple[str, str] | None:
    """Read ``(attribute, value)`` from a fact, or None when no pattern fits.

    Values are lower-cased without leading articles; a negated single value reads
    ``"not <value>"``; preferences read ``("likes:<object>", "yes" | "no")``, activities
    ``("activity:<head noun>", "yes" | "no")``. ``mine``: the fact is the user's own
    words about themself, so a claim with someone else as its subject, or a hypothetical
    one, is not read (``_not_the_users``).

    Examples:
        >>> attribute_of("Alice moved to Berlin in 2024")
        ('location', 'berlin')
        >>> attribute_of("Bob doesn't like spicy food")
        ('likes:spicy food', 'no')
        >>> attribute_of("Her favourite colour is green.")
        ('favourite colour', 'green')
        >>> attribute_of("Alice's brother lives in Rome") is None
        True
        >>> attribute_of("I quit coffee last month"), attribute_of("I drink two cups of coffee")
        (('activity:coffee', 'no'), ('activity:coffee', 'yes'))
        >>> attribute_of("The Tokyo trip got cancelled"), attribute_of("I'm flying to Tokyo")
        (('activity:tokyo', 'no'), ('activity:tokyo', 'yes'))
        >>> attribute_of("I'm going to try the new place") is None
        True
        >>> attribute_of("We renamed the company to Lumen")
        ('name:company', 'lumen')
        >>> attribute_of("I'm building a startup called Brightly")
        ('name:company', 'brightly')
        >>> attribute_of("When I fly I always prefer a window seat")
        ('preferred seat', 'window')
        >>> attribute_of("You can answer in English from now on")
        ('reply language', 'english')
        >>> attribute_of("我搬到深圳了！"), attribute_of("我住在上海。")
        (('location', '深圳'), ('location', '上海'))
        >>> attribute_of("I'm in a meeting") is None
        True
        >>> attribute_of("Hi! I'm Maya, by the way."), attribute_of("Please call me Bobby")
        (('name', 'maya'), ('preferred name', 'bobby'))
        >>> attribute_of("I eat pretty much everything"), attribute_of("I went vegan in March")
        (('diet', 'omnivore'), ('diet', 'vegan'))
    """
    original = fact.replace("\u2019", "'").strip()
    text = original.lower()
    same_length = len(text) == len(original)
    present = {key for key in _ALL_KEYS if key in text}
    for rule in RULES:
        if rule.keys and present.isdisjoint(rule.keys):
            continue
        for match in rule.pattern.finditer(text):
            prefix = text[: match.start()]
            if not rule.possessive_ok and _OTHER_POSSESSOR.search(prefix):
                continue
            if mine and _not_the_users(text, match.start()):
                continue
            if rule.attribute == "likes:" and (
                _LIKE_NOT_PREFERENCE.search(prefix)
                or (match.group(0).startswith("like ") and not _LIKE_AS_A_VERB.search(prefix))
            ):
                continue
            if rule.attribute == "location" and _LEFT_FROM.search(prefix):
                continue  # "moved everything out of my flat in belgrave": where they were
            if not rule.attribute.startswith(_POLAR_PREFIXES) and _HYPOTHETICAL.search(
                re.split(r"[.;!?]", prefix)[-1]
            ):
                continue  # "if we got a flat in leith", "i'd love to work at google"
            if rule.job_word and "as" not in match.group(0).split()[:2]:
                words = match.group("value").split()
                if not words or words[-1] not in JOB_WORDS:
                    continue
            if rule.proper and same_length and not original[match.start("value")].isupper():
                continue
            negated = bool(match.groupdict().get("neg")) or bool(_NEG_BEFORE.search(prefix))
            negated = negated != rule.negate
            value = _norm_value(match.group("value"))
            if not value or _NOT_A_VALUE.match(value) or value in _EN_STOP_WORDS:
                continue  # "im IN", "enjoy him": a function word names nothing
            attribute = rule.attribute
            if attribute in {"location", "hometown"} and _NOT_A_PLACE.match(value):
                continue
            if attribute == "employer" and (called := _CALLED.match(text, match.end("value"))):
                value = _norm_value(called["name"])  # "the boba place ... called tea rex"
            if rule.fixed is not None:
                value = rule.fixed
            if attribute == "birthday":
                value = _norm_date(value)
            if attribute == "favourite":
                attribute = f"favourite {_norm_value(match.group('thing'))}"
            elif attribute == "name:":
                attribute = f"name:{_NAMEABLE[match.group('thing')]}"
            elif attribute == "preferred ":
                attribute = f"preferred {match.group('thing')}"
            elif attribute == "date:":
                attribute = f"date:{match.group('thing')}"
            elif attribute == "activity:":
                value = _head(value)
                value = _HOBBY_KEY.get(value, value)
                if value in _EN_STOP_WORDS or _NOT_AN_ACTIVITY.match(value):
                    continue
            if rule.polarity is not None:
                yes = (rule.polarity == "yes") != negated
                if attribute.endswith(":"):
                    return f"{attribute}{value}", "yes" if yes else "no"
                return attribute, "yes" if yes else "no"
            return attribute, f"not {value}" if negated else value
    return lang.claim(original, mine)  # the claim rules other languages keep as data


# -- claims: an attribute of a subject -------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """What a card states: ``subject``'s ``attribute`` is ``value``.

    The subject is a person key: the card's person, or the user (``"me"``) when the card
    says how someone relates to the user ("Priya is my new manager": the user's
    manager is Priya). Two cards conflict only when their ``key`` is the same.
    """

    subject: str
    attribute: str
    value: str

    @property
    def key(self) -> str:
        return f"{self.subject}|{self.attribute}"


#: Role words, longest first; a hyphenated one also as chat types it ("sister in law").
_ROLE_WORDS = "|".join(
    sorted((re.escape(w).replace(r"\-", "[- ]") for w in WORDS), key=len, reverse=True)
)
_ROLE = rf"(?P<role>(?i:{_ROLE_WORDS}))"
_WHO = r"(?P<who>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2}|[Hh]e|[Ss]he|[Tt]hey)"
#: A name typed in lower case where only a name goes ("me and mark broke up"): one
#: word, no pronoun, possessive or article.
_TYPED_WHO = (
    r"(?<!my )(?<!our )(?<!his )(?<!her )(?<!their )(?<!the )(?<!a )"
    r"(?!(?:my|our|his|her|their|him|them|the|a|an|we|you|he|she|they|it)\b)"
    r"(?P<typed>[a-z][a-z'-]+)"
)
_AND = r"(?:and|n|&)"
#: A couple's end, said after who: "broke up", "have been separated", "r done btw".
_SPLIT = (
    r"\s+(?:have\s+|just\s+)?(?:been\s+)?(?:broke\s+up|split\s+up|split|separated|"
    r"got\s+divorced|are\s+divorced|divorced|are\s+getting\s+divorced"
    r"|(?:are\s+|r\s+)?(?:done|over|finished)(?=\s*(?:btw|lol|now|for\s+good|fr|[.!,;💔]|$)))"
)
#: A couple said after who, still together: "back together", "r official now",
#: "going steady", "engaged" (each a step: ``_ENGAGED``).
_TOGETHER = (
    r"\s+(?:are\s+|r\s+|'re\s+|were\s+)?(?:now\s+|finally\s+|officially\s+|so\s+|just\s+)?"
    r"(?:back\s+together|going\s+steady|official(?:ly)?\b|a\s+thing\s+now|(?:got\s+)?engaged|"
    r"dating|seeing\s+each\s+other|moving\s+in\s+together|moved\s+in\s+together|"
    r"got\s+a\s+place\s+together)"
)
_ENGAGED = re.compile(r"\bengaged\b", re.IGNORECASE)
_MY_ROLE = rf"(?i:my|our)\s+(?:(?i:new|current|actual|real)\s+)?{_ROLE}\b"
#: "Dr. Patel" is Patel (a title before the name is left out of ``who``).
_TITLED = rf"{TITLE_BEFORE_NAME}{_WHO}"
_ANYMORE = re.compile(r"^[^.;!?]*?\b(?:anymore|any more|any longer)\b", re.IGNORECASE)
#: (pattern, ended): how someone's relationship to the user is said, and whether it ends.
_IS = r"(?:\s+(?:is|was|are|has\s+been)|'s(?:\s+been)?|'re)"
_ISNT = r"(?:\s+(?:isn't|wasn't|aren't)|'s\s+not|'re\s+not)"
_RELATIONSHIP_RULES: tuple[tuple[re.Pattern[str], bool], ...] = tuple(
    (re.compile(rx), ended)
    for rx, ended in (
        (rf"\b{_WHO}{_IS}\s+(?i:no longer|not|not really)\s+{_MY_ROLE}", True),
        (rf"\b{_WHO}{_ISNT}\s+{_MY_ROLE}", True),
        (
            rf"\b{_WHO}{_IS}\s+(?:now\s+)?(?i:my|our)\s+(?i:former|ex|old)[- ]?{_ROLE}\b",
            True,
        ),
        (
            rf"\b{_WHO}(?:{_IS}|\s+has\s+become|\s+became)\s+"
            rf"(?:now\s+|officially\s+|finally\s+)?{_MY_ROLE}",
            False,
        ),
        (
            rf"\b{_MY_ROLE}(?:\s+(?:at|in|from|on)\s+[\w' -]+?)?{_IS}\s+(?:now\s+)?{_TITLED}",
            False,
        ),
        # "I switched therapists, I see Dr. Patel now"
        (
            rf"\b(?i:i)\s+(?:just\s+|finally\s+)?(?i:switched|changed)\s+{_ROLE}s?\b[^.;!?]*?"
            rf"\b(?i:i)\s+(?:now\s+)?(?i:see|have|go\s+to|use)\s+{_TITLED}",
            False,
        ),
        # "I see a therapist, Dr. Howard, every Tuesday", "I have a new dentist, Dr. Li"
        (
            rf"\b(?i:i)\s+(?:(?i:now|still|also)\s+)?(?i:see|have|visit|go\s+to|use)\s+"
            rf"(?i:a|an)\s+(?:(?i:new)\s+)?{_ROLE}\s*,?\s+(?:(?i:called|named)\s+)?{_TITLED}",
            False,
        ),
        (rf"\b(?i:i)\s+(?:now\s+)?(?:report|reports)\s+to\s+{_WHO}", False),
        (  # "Dan and I broke up", "connor and i broke up", "me n keisha done btw"
            rf"\b(?:{_WHO}|{_TYPED_WHO})\s+{_AND}\s+(?i:i|me){_SPLIT}",
            True,
        ),
        (  # "me and Jake broke up", "me and mark have been separated", as chat says it
            rf"\b(?i:me|i)\s+{_AND}\s+(?:{_WHO}|{_TYPED_WHO}){_SPLIT}",
            True,
        ),
        (  # "jade and i are back together", "sam n i r official now", "linda and i are
            # going steady": a partner, named ("we are engaged" is read as a step on)
            rf"\b(?:{_WHO}|{_TYPED_WHO})\s+{_AND}\s+(?i:i|me){_TOGETHER}",
            False,
        ),
        (rf"\b(?i:me|i)\s+{_AND}\s+(?:{_WHO}|{_TYPED_WHO}){_TOGETHER}", False),
        (rf"\b(?i:i)\s+(?:just\s+)?(?:broke\s+up|split\s+up|split)\s+with\s+{_WHO}", True),
        (
            rf"\b{_WHO}\s+(?:just\s+)?(?:broke\s+up\s+with|split\s+up\s+with|dumped)\s+(?i:me)\b",
            True,
        ),
        (rf"\b(?i:i)\s+(?:divorced|left|dumped)\s+{_WHO}", True),
        (
            r"\b(?P<who>(?i:we))\s+(?:have\s+|just\s+|finally\s+)?(?:been\s+)?(?:broke\s+up|split\s+up|"
            r"separated|got\s+divorced|are\s+divorced|are\s+getting\s+divorced)",
            True,
        ),
    )
)
#: One of these is in every sentence a ``_RELATIONSHIP_RULES`` pattern reads (a pre-check).
_RELATIONSHIP_KEYS = (
    "together",
    "steady",
    "official",
    "engaged",
    "dating",
    "each other",
    "a thing",
    "done",
    "over",
    "finished",
    "my ",
    "our ",
    "report",
    "broke",
    "split",
    "separat",
    "divorc",
    "dumped",
    "left",
    "switched",
    "changed",
    "see ",
    "have a",
    "visit",
    "go to",
    "use a",
)
_REPORTS_TO = re.compile(r"\breports?\s+to\b", re.IGNORECASE)
_BREAKUP = re.compile(
    r"\b(?:broke|split|separated|divorced|dumped|left|done|over|finished)\b", re.IGNORECASE
)
_PRONOUNS = frozenset({"he", "she", "they", "we"})


@dataclass(frozen=True)
class RelationshipStatement:
    """A sentence saying how someone relates to the user: ``who`` (as written: a name, or
    he/she/they/we to resolve), the ``role`` word ("boss"), and whether it ``ended``."""

    who: str
    role: str
    ended: bool

    @property
    def pronoun(self) -> bool:
        return self.who.lower() in _PRONOUNS


def read_relationship(fact: str) -> RelationshipStatement | None:
    """How someone relates to the user, if the fact says so.

    Examples:
        >>> read_relationship("Tom is no longer my manager")
        RelationshipStatement(who='Tom', role='manager', ended=True)
        >>> read_relationship("My new manager at Northwind is Sarah Kim")
        RelationshipStatement(who='Sarah Kim', role='manager', ended=False)
        >>> read_relationship("she's my boss now").who, read_relationship("We broke up").role
        ('she', 'partner')
        >>> read_relationship("me and Jake broke up")
        RelationshipStatement(who='Jake', role='partner', ended=True)
        >>> read_relationship("me and mark have been separated since last spring").who
        'Mark'
        >>> [read_relationship(s).who for s in ("so connor and i broke up", "me n keisha done")]
        ['Connor', 'Keisha']
        >>> read_relationship("my mate and i are done") is None
        True

    A couple still together, named, is the user's partner:

        >>> read_relationship("jade and i are back together!! we made a chore chart")
        RelationshipStatement(who='Jade', role='partner', ended=False)
        >>> [read_relationship(s).role for s in ("sam n i r official now", "Ana and I got engaged")]
        ['partner', 'fiancé']
        >>> read_relationship("My sister Nina is allergic to shellfish") is None
        True
    """
    text = fact.replace("\u2019", "'")
    low = text.lower()
    if not any(key in low for key in _RELATIONSHIP_KEYS):
        return None
    for pattern, ended in _RELATIONSHIP_RULES:
        match = pattern.search(text)
        if match is None:
            continue
        if _REPORTS_TO.search(match.group(0)):
            word = "manager"
        elif _BREAKUP.search(match.group(0)) or match.groupdict().get("role") is None:
            word = "fiancé" if _ENGAGED.search(match.group(0)) else "partner"
        else:
            word = match.group("role").lower()
            if "-".join(word.split()) in WORDS:  # "sister in law" is the sister-in-law
                word = "-".join(word.split())
        ended = ended or bool(_ANYMORE.search(text[match.end() :]))
        who = match.group("who") or match.group("typed").capitalize()
        return RelationshipStatement(who, word, ended)
    return None


def _relationship_claim(fact: str, person: str) -> Claim | None:
    """How someone relates to the user, as a claim on the user's role ("my manager")."""
    said = read_relationship(fact)
    if said is None:
        return None
    who = said.who
    if said.pronoun:
        if _key(person) == SELF_KEY:
            return None  # "she's my boss now" with nobody to point at
        who = person
    value = _key(who)
    word = role(said.role) or said.role
    return Claim(SELF_KEY, f"my {word}", f"not {value}" if said.ended else value)


def card_claim(card: CardLike) -> Claim | None:
    """The claim a card makes (``claim_of``); a turn kept whole beside the cards read
    from its parts (``models.TURN``) makes only the claim said across its sentences
    ("also i got a job!!! at the boba place on colfax called tea rex"): the others are
    its parts'."""
    found = claim_of(card.fact, card.person)
    if TURN in card.tags and (
        found is None
        or any(claim_of(s, card.person) == found for s in _SENTENCE_END.split(card.fact))
    ):
        return None
    return found


@lru_cache(maxsize=65_536)
def claim_of(fact: str, person: str = SELF_KEY) -> Claim | None:
    """The claim a card makes, or None when no pattern reads one.

    Examples:
        >>> claim_of("Alice moved to Berlin", "Alice")
        Claim(subject='alice', attribute='location', value='berlin')
        >>> claim_of("Tom is no longer my manager", "Tom").key
        'me|my manager'
        >>> [claim_of(f, p).value for f, p in [("My new manager is Priya", "Priya"),
        ...     ("Tom is no longer my manager", "Tom"), ("She's my boss now", "Ines"),
        ...     ("Dan and I broke up last week", "me"), ("Greg isn't my manager anymore", "Greg")]]
        ['priya', 'not tom', 'ines', 'not dan', 'not greg']
    """
    if _key(person) in ASSISTANT_SPEAKERS:  # what an assistant said is no one's life
        return None
    found = _relationship_claim(fact, person)
    if found is not None:
        return found
    subject = _key(person)
    read = attribute_of(fact, mine=subject == SELF_KEY)
    if read is None:
        return None
    if subject != SELF_KEY and (
        read == lang.users_claim(fact) or _named_after(fact, subject, read) or _owned(fact, read[1])
    ):  # "tô vegana há um mês ... minha amiga bia": mine, named for Bia
        subject = SELF_KEY
    return Claim(subject, read[0], read[1])


def _owned(fact: str, value: str) -> bool:
    """Is the value said as the user's own, whoever the card is filed under? "emeka is
    saying ... my alief apartment is too small": my home, in his words.

    >>> _owned("emeka is saying my alief apartment is too small", "alief")
    True
    >>> _owned("emeka says his alief apartment is too small", "alief")
    False
    """
    return (
        bool(value) and re.search(rf"\b(?:my|our)\s+{re.escape(value)}\b", fact.lower()) is not None
    )


def _named_after(fact: str, person: str, read: tuple[str, str]) -> bool:
    """Is a card filed under ``person`` for naming them only after the user's own claim?
    "Shifted to Pune, 2bhk in baner with a college friend Jordan": no one but the
    speaker is before the verb, and Jordan comes after the place.

    >>> _named_after("Shifted to Pune, 2bhk with a college friend Jordan", "jordan",
    ...              ("location", "pune"))
    True
    >>> _named_after("Jordan shifted to Pune", "jordan", ("location", "pune"))
    False
    """
    text = fact.lower()
    named = text.find(person.split(maxsplit=1)[0])
    said = text.find(read[1].removeprefix("not "))
    return 0 <= said < named and attribute_of(fact, mine=True) == read


def is_single_valued(attribute: str) -> bool:
    """True when a person holds one value of ``attribute`` at a time."""
    if attribute.startswith("my "):
        return role(attribute[3:]) in SINGLE_HOLDER
    return (
        attribute in SINGLE_VALUED
        or attribute.startswith(("favourite ", "preferred ", "name:", "date:"))
        or attribute.startswith(_POLAR_PREFIXES)
    )


def values_conflict(attribute: str, a: str, b: str) -> bool:
    """Different values conflict on a single-valued attribute; a negation ("not tom")
    conflicts only with the value it negates, whatever the attribute."""
    if a == b:
        return False
    if a.startswith("not ") or b.startswith("not "):
        return a == f"not {b}" or b == f"not {a}"
    short, long_ = sorted((a.split(), b.split()), key=len)
    if long_[: len(short)] == short:
        return False  # "northwind" and "northwind traders": the same, said shorter
    if lang.script_without_spaces(a + b) and (a.startswith(b) or b.startswith(a)):
        return False  # "松山" and "松山那边", where words have no spaces between them
    return is_single_valued(attribute)


# -- decisions ---------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class CandidatePair:
    """Two cards of the same person worth comparing (``a < b``)."""

    a: str
    b: str
    similarity: float | None = None


@dataclass(frozen=True)
class Supersede:
    """``newer`` replaces ``older``: write SUPERSEDES, mark ``older`` superseded."""

    newer: str
    older: str
    attribute: str
    reason: str
    kind: str = "supersede"
    decided_by: str = "rules"  # or "llm/<model>" (graphmem.llm.decided_by)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.newer, self.older)


@dataclass(frozen=True)
class Conflict:
    """``a`` and ``b`` contradict: write CONFLICTS_WITH, flag ``needs_revision`` cards."""

    a: str
    b: str
    attribute: str
    needs_revision: tuple[str, ...]
    reason: str
    kind: str = "conflict"
    decided_by: str = "rules"  # or "llm/<model>" (graphmem.llm.decided_by)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.a, self.b)


Decision = Supersede | Conflict


def _person_key(card: CardLike) -> str:
    return _key(card.person)


def _day(ms: int) -> str:
    return (to_iso(ms) or "?")[:10]


def knn_within_person(
    cards: Sequence[CardLike],
    embeddings: Any,
    *,
    k: int = 10,
    min_similarity: float = 0.3,
    chunk_rows: int = 1024,
) -> dict[str, list[tuple[str, float]]]:
    """Top-``k`` cosine neighbours of each card among the *same person's* cards.

    ``embeddings[i]`` belongs to ``cards[i]``. Work is per person group and chunked, so
    the cost is the sum of squared group sizes, never the whole user squared.

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> cards = [CardView("a", person="Al"), CardView("b", person="Al"),
        ...          CardView("c", person="Bo")]
        >>> knn_within_person(cards, [[1, 0], [0.8, 0.6], [1, 0]], k=2)
        {'a': [('b', 0.8)], 'b': [('a', 0.8)], 'c': []}
    """
    matrix = normalise_rows(embeddings)
    if len(matrix) != len(cards):
        raise ValueError(f"{len(cards)} cards but {len(matrix)} embedding rows")
    groups: dict[str, list[int]] = defaultdict(list)
    for i, card in enumerate(cards):
        groups[_person_key(card)].append(i)
    result: dict[str, list[tuple[str, float]]] = {}
    for members in groups.values():
        rows = top_k_neighbours(
            matrix[members], k=k, min_similarity=min_similarity, chunk_rows=chunk_rows
        )
        for local, neighbours in enumerate(rows):
            result[str(cards[members[local]].id)] = [
                (str(cards[members[j]].id), round(sim, 4)) for j, sim in neighbours
            ]
    return result


def candidate_pairs(
    cards: Sequence[CardLike],
    neighbours: Mapping[str, Iterable[tuple[str, float]]] | None = None,
    *,
    window: int = 5,
) -> list[CandidatePair]:
    """Pairs of active cards that may contradict, sorted.

    Two sources, both bounded: each card's vector ``neighbours`` among the same person's
    cards (ids with cosine, e.g. from ``knn_within_person`` or the vector index), and,
    within the cards that make a claim on the same key (see ``claim_of``: a person's
    attribute, or one of the user's roles), each card with the ``window`` cards just
    before it in time.
    """
    by_id = {str(c.id): c for c in cards if is_active(c)}
    sims: dict[tuple[str, str], float | None] = {}
    for cid, near in (neighbours or {}).items():
        if cid not in by_id:
            continue
        for raw_id, sim in near:
            nid = str(raw_id)
            if nid == cid or nid not in by_id:
                continue
            if _person_key(by_id[cid]) != _person_key(by_id[nid]):
                continue
            key = (min(cid, nid), max(cid, nid))
            old = sims.get(key)
            sims[key] = float(sim) if old is None else max(old, float(sim))
    for bucket in claim_buckets(by_id.values()).values():
        for i, card in enumerate(bucket):
            for other in bucket[max(0, i - window) : i]:
                key = (min(str(card.id), str(other.id)), max(str(card.id), str(other.id)))
                sims.setdefault(key, None)
    return sorted(CandidatePair(a, b, s) for (a, b), s in sims.items())


def claim_buckets(cards: Iterable[CardLike]) -> dict[str, list[CardLike]]:
    """Cards by claim key, each bucket in time order (cards without a claim left out)."""
    buckets: dict[str, list[CardLike]] = defaultdict(list)
    for card in cards:
        found = card_claim(card)
        if found is not None:
            buckets[found.key].append(card)
    for bucket in buckets.values():
        bucket.sort(key=lambda c: (c.timestamp, str(c.id)))
    return dict(buckets)


#: Words that say a statement changes what was true before ("now", "moved", "new").
CHANGE_CUES = re.compile(
    r"\b(?:now|no longer|anymore|any more|new|moved|switched|changed|instead|these days|"
    r"nowadays|from now on|renamed|quit|stopped|gave up|cancell?ed|took over|actually|"
    r"broke up|divorced|left)\b",
    re.IGNORECASE,
)


def _in_order(
    one: CardLike, two: CardLike, value_one: str, value_two: str
) -> tuple[tuple[CardLike, str], tuple[CardLike, str]]:
    """(older, its value), (newer, its value): by time; at the very same time the card
    that says something changed ("now", "no longer") is the newer one."""
    pairs = sorted(
        [(one, value_one), (two, value_two)], key=lambda p: (p[0].timestamp, str(p[0].id))
    )
    (first, first_val), (second, second_val) = pairs
    if first.timestamp == second.timestamp:
        first_cue, second_cue = _changes(first.fact, first_val), _changes(second.fact, second_val)
        if first_cue and not second_cue:
            return (second, second_val), (first, first_val)
    return (first, first_val), (second, second_val)


def _changes(fact: str, value: str) -> bool:
    return value.startswith("not ") or bool(CHANGE_CUES.search(fact))


def _rule_decision(
    one: CardLike,
    two: CardLike,
    *,
    similarity: float | None,
    same_time_ms: int,
    confidence_margin: float,
) -> Decision | None:
    claim_one, claim_two = card_claim(one), card_claim(two)
    if claim_one is None or claim_two is None or claim_one.key != claim_two.key:
        return None
    attribute = claim_one.attribute
    if not values_conflict(attribute, claim_one.value, claim_two.value):
        return None
    (older, old_val), (newer, new_val) = _in_order(one, two, claim_one.value, claim_two.value)
    old_id, new_id = str(older.id), str(newer.id)
    sim = f"; similarity {similarity:.2f}" if similarity is not None else ""
    whose = "the user" if claim_one.subject == SELF_KEY and attribute.startswith("my ") else None
    what = (
        f"{attribute} of {whose or older.person}: {old_val!r} ({_day(older.timestamp)}) vs "
        f"{new_val!r} ({_day(newer.timestamp)}){sim}"
    )
    gap = newer.timestamp - older.timestamp
    if gap <= same_time_ms and not _changes(newer.fact, new_val):
        a, b = sorted((old_id, new_id))
        return Conflict(
            a,
            b,
            attribute,
            (a, b),
            f"contradiction at the same time ({gap // 60_000} min apart): {what}",
        )
    if older.confidence - newer.confidence >= confidence_margin:
        return Conflict(
            new_id,
            old_id,
            attribute,
            (new_id,),
            f"newer card is less confident ({newer.confidence:.2f} vs "
            f"{older.confidence:.2f}), older value kept: {what}",
        )
    if gap <= same_time_ms:
        return Supersede(new_id, old_id, attribute, f"said to have changed: {what}")
    return Supersede(new_id, old_id, attribute, f"newer value replaces older: {what}")


def resolve(
    pairs: Iterable[CandidatePair],
    cards: Sequence[CardLike],
    *,
    same_time_ms: int = HOUR_MS,
    confidence_margin: float = 0.3,
) -> list[Decision]:
    """Decide each candidate pair by the rules in the module docstring; sorted.

    When several newer cards supersede the same older card, only the earliest (its
    direct successor) is kept, so a chain Paris -> Berlin -> Rome stays a chain.
    """
    by_id = {str(c.id): c for c in cards}
    found: list[Decision] = []
    for pair in pairs:
        one, two = by_id.get(pair.a), by_id.get(pair.b)
        if one is None or two is None:
            continue
        decision = _rule_decision(
            one,
            two,
            similarity=pair.similarity,
            same_time_ms=same_time_ms,
            confidence_margin=confidence_margin,
        )
        if decision is not None:
            found.append(decision)
    return _direct_successors(found, by_id)


def decide_incoming(
    incoming: Sequence[CardLike],
    existing: Sequence[CardLike],
    *,
    window: int = 5,
    same_time_ms: int = HOUR_MS,
    confidence_margin: float = 0.3,
) -> list[Decision]:
    """What new cards change: each against the ``existing`` cards (and the other incoming
    ones) that make a claim on the same key, by the rules of ``resolve``.

    Only pairs with at least one incoming card are decided: the rest was settled when
    it was written (or is left to consolidation). This is the write-time half of
    conflict detection: the store reads the few cards with the same claim keys, this
    decides, and nothing waits for the next consolidation.

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> lyon = CardView("lyon", "I live in Lyon", timestamp=1_700_000_000_000)
        >>> tom = CardView("tom", "Tom is my manager", "Tom", timestamp=1_700_000_000_000)
        >>> moved = CardView("mtl", "I moved to Montreal", timestamp=1_720_000_000_000)
        >>> priya = CardView("pri", "My new manager is Priya", "Priya", timestamp=1_720_000_000_000)
        >>> [(d.newer, d.older) for d in decide_incoming([moved, priya], [lyon, tom])]
        [('mtl', 'lyon'), ('pri', 'tom')]
    """
    fresh = {str(c.id) for c in incoming}
    cards = {str(c.id): c for c in existing if is_active(c)}
    cards.update({str(c.id): c for c in incoming})
    pairs = [
        p
        for p in candidate_pairs(list(cards.values()), window=window)
        if p.a in fresh or p.b in fresh
    ]
    return resolve(
        pairs, list(cards.values()), same_time_ms=same_time_ms, confidence_margin=confidence_margin
    )


def _direct_successors(found: list[Decision], by_id: Mapping[str, CardLike]) -> list[Decision]:
    best: dict[str, Supersede] = {}
    others: dict[tuple[str, str, str], Decision] = {}
    for d in found:
        if isinstance(d, Supersede):
            current = best.get(d.older)
            rank = (by_id[d.newer].timestamp, d.newer)
            if current is None or rank < (by_id[current.newer].timestamp, current.newer):
                best[d.older] = d
        else:
            others[d.key] = d
    return sorted([*best.values(), *others.values()], key=lambda d: d.key)


def detect_conflicts(
    cards: Sequence[CardLike],
    embeddings: Any = None,
    *,
    k: int = 10,
    min_similarity: float = 0.3,
    window: int = 5,
    same_time_ms: int = HOUR_MS,
    confidence_margin: float = 0.3,
    chat_model: Any = None,
    llm_min_similarity: float = 0.75,
    llm_max_pairs: int = 20,
) -> list[Decision]:
    """Candidates (``knn_within_person`` when embeddings are given) + ``resolve``.

    With a ``chat_model``, up to ``llm_max_pairs`` close pairs (cosine >=
    ``llm_min_similarity``) that the patterns cannot read are judged by
    ``adjudicate_with_llm``.

    Examples:
        >>> from graphmem.algorithms.cardview import CardView
        >>> cards = [CardView("p", "Alice lives in Paris", "Alice", timestamp=1672531200000),
        ...          CardView("b", "Alice moved to Berlin", "Alice", timestamp=1704067200000)]
        >>> [(d.kind, d.newer, d.older) for d in detect_conflicts(cards)]
        [('supersede', 'b', 'p')]
    """
    active = [c for c in cards if is_active(c)]
    neighbours = None
    if embeddings is not None:
        matrix = normalise_rows(embeddings)
        if len(matrix) != len(cards):
            raise ValueError(f"{len(cards)} cards but {len(matrix)} embedding rows")
        keep = [i for i, c in enumerate(cards) if is_active(c)]
        neighbours = knn_within_person(active, matrix[keep], k=k, min_similarity=min_similarity)
    pairs = candidate_pairs(active, neighbours, window=window)
    decisions = resolve(
        pairs, active, same_time_ms=same_time_ms, confidence_margin=confidence_margin
    )
    if chat_model is not None:
        by_id = {str(c.id): c for c in active}
        unread = [
            p
            for p in pairs
            if p.similarity is not None
            and p.similarity >= llm_min_similarity
            and (card_claim(by_id[p.a]) is None or card_claim(by_id[p.b]) is None)
        ]
        unread.sort(key=lambda p: (-(p.similarity or 0.0), p.a, p.b))
        for pair in unread[:llm_max_pairs]:
            decision = adjudicate_with_llm(
                (by_id[pair.a], by_id[pair.b]),
                chat_model,
                similarity=pair.similarity,
                same_time_ms=same_time_ms,
                confidence_margin=confidence_margin,
            )
            if decision is not None:
                decisions.append(decision)
        decisions = _direct_successors(decisions, by_id)
    return decisions


# -- optional LLM adjudication -----------------------------------------------------------

_LLM_INSTRUCTIONS = """You check a personal memory store for contradictions.
Two memories about the same person are given with the date each was recorded.
Answer with one JSON object and nothing else:
{"verdict": "update" | "contradiction" | "compatible", "current": "A" | "B", "reason": "..."}
- "update": one memory replaces the other (the situation changed); "current" names the
  memory that is true now.
- "contradiction": both cannot be true and it is unclear which one is right.
- "compatible": both can be true (or they say the same thing)."""


def _llm_prompt(a: CardLike, b: CardLike) -> str:
    return (
        f"Person: {a.person}\nA ({_day(a.timestamp)}): {a.fact}\nB ({_day(b.timestamp)}): {b.fact}"
    )


def _parse_verdict(text: str) -> dict[str, str]:
    match = re.search(r"\{.*\}", text, flags=re.DOTALL)
    if match is None:
        raise ValueError("no JSON object in the reply")
    data = json.loads(match.group(0))
    verdict = str(data.get("verdict", "")).strip().lower()
    if verdict not in {"update", "contradiction", "compatible"}:
        raise ValueError(f"unknown verdict {verdict!r}")
    current = str(data.get("current", "")).strip().upper()
    return {
        "verdict": verdict,
        "current": current,
        "reason": str(data.get("reason", "")).strip()[:300],
    }


def adjudicate_with_llm(
    pair: tuple[CardLike, CardLike],
    chat_model: Any,
    *,
    similarity: float | None = None,
    attempts: int = 2,
    same_time_ms: int = HOUR_MS,
    confidence_margin: float = 0.3,
) -> Decision | None:
    """Ask a langchain-core chat model whether two cards contradict.

    The reply must be a JSON object (see ``_LLM_INSTRUCTIONS``); it is asked up to
    ``attempts`` times. On any failure (model error, garbage reply) the rule decision
    is returned with the failure named in its reason (None when the rules see nothing).
    """
    from langchain_core.messages import HumanMessage, SystemMessage

    one, two = sorted(pair, key=lambda c: (c.timestamp, str(c.id)))
    rule = _rule_decision(
        one,
        two,
        similarity=similarity,
        same_time_ms=same_time_ms,
        confidence_margin=confidence_margin,
    )
    messages = [SystemMessage(_LLM_INSTRUCTIONS), HumanMessage(_llm_prompt(one, two))]
    try:
        verdict = llm.ask(chat_model, messages, _parse_verdict, attempts=attempts)
    except Exception as exc:
        if rule is None:
            return None
        note = f" (LLM adjudication failed: {type(exc).__name__}: {exc}; rule decision kept)"
        return _with_reason(rule, rule.reason + note)
    attribute = rule.attribute if rule is not None else "llm"
    sim = f"; similarity {similarity:.2f}" if similarity is not None else ""
    said = f"LLM: {verdict['reason'] or verdict['verdict']}{sim}"
    by = llm.decided_by(chat_model)
    if verdict["verdict"] == "compatible":
        return None
    if verdict["verdict"] == "contradiction":
        a, b = sorted((str(one.id), str(two.id)))
        return Conflict(a, b, attribute, (a, b), f"contradiction per {said}", decided_by=by)
    current, old = (one, two) if verdict["current"] == "A" else (two, one)
    return Supersede(str(current.id), str(old.id), attribute, f"update per {said}", decided_by=by)


def _with_reason(decision: Decision, reason: str) -> Decision:
    return dataclasses.replace(decision, reason=reason)


__all__ = [
    "JOB_WORDS",
    "MULTI_VALUED",
    "RULES",
    "SINGLE_VALUED",
    "CandidatePair",
    "Claim",
    "Conflict",
    "Decision",
    "RelationshipStatement",
    "Supersede",
    "adjudicate_with_llm",
    "attribute_of",
    "candidate_pairs",
    "card_claim",
    "claim_of",
    "decide_incoming",
    "detect_conflicts",
    "is_single_valued",
    "knn_within_person",
    "read_relationship",
    "resolve",
    "values_conflict",
]
