"""What graphmem knows of each language, behind one interface.

Like spaCy's ``spacy/lang/<code>/`` folders, each language graphmem reads is one module
here (``en``, ``zh``) exporting a ``LANGUAGE``: its script, its searchable words (the
lexical channel's tokeniser), its stop words, and the words it names people by. Nothing
outside this package branches on a language code: extraction and recall ask
``detect(text)`` which language a text is in, ``language(code)`` for what is known of it,
and ``terms(text)`` for the searchable words of any text, mixed scripts included. Adding
a language is adding a module and listing it in ``_MODULES``.

A text in a language without a module is still kept (as said) and searchable: its words
are lower-cased runs of letters, and ``detect`` names its script's usual language
(``SCRIPTS``), so the ingest report can say what it could not read.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache

#: The language modules, in the order their scripts are tried for a run of text. A
#: module exports its ``LANGUAGE``, or ``LANGUAGES`` when one reader serves several
#: (``latin``: French, Spanish, Portuguese, German, Italian).
_MODULES = ("zh", "en", "tl", "latin", "hi", "ms")

#: Scripts without a language module: the language a text in them most likely is,
#: (first character of the range, last), so the report names it. Data, not branches.
SCRIPTS: tuple[tuple[str, str, str], ...] = (
    ("ja", "\u3040", "\u30ff"),  # hiragana, katakana
    ("ko", "\uac00", "\ud7af"),  # hangul syllables
    ("ko", "\u1100", "\u11ff"),  # hangul jamo
    ("ru", "\u0400", "\u04ff"),  # cyrillic
    ("el", "\u0370", "\u03ff"),  # greek
    ("he", "\u0590", "\u05ff"),  # hebrew
    ("ar", "\u0600", "\u06ff"),  # arabic
    ("hi", "\u0900", "\u097f"),  # devanagari
    ("bn", "\u0980", "\u09ff"),  # bengali
    ("ta", "\u0b80", "\u0bff"),  # tamil
    ("th", "\u0e00", "\u0e7f"),  # thai
)

#: Function words of Latin-script languages graphmem has no module for: a Latin text
#: whose words are mostly these is not English (kept as said, reported by code).
LATIN_FUNCTION_WORDS: Mapping[str, frozenset[str]] = {
    "es": frozenset("el la los las que de y en un una es por con para del al muy pero mi".split()),
    "fr": frozenset(
        """le la les des et est un une du que pour dans pas avec je mon ma au il elle on à
        sur c'est j'ai ça très mais""".split()
    ),
    "de": frozenset("der die das und ist nicht ein eine ich mit zu den von auf für mein".split()),
    "pt": frozenset("o a os as que de e em um uma não com para do da meu minha é".split()),
    "it": frozenset("il lo la gli le che di e è un una non con per del della mio".split()),
    "tl": frozenset("ang ng mga sa na ako ko siya ay hindi at si kami po".split()),
}

UNKNOWN = "und"

#: English readings of family and partner words: said alone ("我婆婆", "ma mère"), such
#: a word still names one person, the user's; a work or service word alone ("医生",
#: "la doctora") names no one.
FAMILY = frozenset(
    """mother father sister brother sibling son daughter child wife husband partner
    boyfriend girlfriend fiancé fiancée spouse cousin aunt uncle niece nephew grandmother
    grandfather grandson granddaughter mother-in-law father-in-law sister-in-law
    brother-in-law daughter-in-law son-in-law stepmother stepfather godmother
    godfather""".split()
)


def months_numbered(*names: str) -> dict[str, int]:
    """A language's ``Language.months`` from its month names in calendar order, a slash
    between a month's spellings.

    >>> months_numbered("janvier", "février/fevrier/févr")["fevrier"]
    2
    """
    return {spelled: i for i, name in enumerate(names, 1) for spelled in name.split("/")}


@dataclass(frozen=True)
class Named:
    """A person a sentence names by relationship: the name as said (or the relationship
    word, "妈妈", when unnamed), the relationship in the user's words, ``mine`` when the
    user's own, other names said for them (a nickname, "我妈" for "妈妈"), and where
    in the sentence they are named. ``about``: whether the sentence is theirs; one
    known by a title ("王老师请全组吃了烤鸭") is named in it, the news may be the user's."""

    name: str
    relationship: str
    mine: bool
    aliases: tuple[str, ...] = ()
    start: int = 0
    about: bool = True


class Naming:
    """The people a reader finds in one sentence, never two over the same words (the
    first reading of a span stands); ``people`` in the order said."""

    def __init__(self) -> None:
        self._found: list[Named] = []
        self._taken: list[tuple[int, int]] = []

    def add(
        self, name: str, relationship: str, start: int, end: int, aliases: tuple[str, ...] = ()
    ) -> None:
        if any(s < end and start < e for s, e in self._taken):
            return
        self._taken.append((start, end))
        self._found.append(Named(name, relationship, True, aliases, start=start))

    def people(self) -> list[Named]:
        return sorted(self._found, key=lambda n: n.start)


@dataclass(frozen=True)
class Language:
    """What graphmem knows of one language.

    ``script`` is a regex character class of the characters that make a run of this
    language; ``words`` turns such a run into searchable words (BM25 terms);
    ``extracts`` says whether ingestion reads claims from its text (a spaCy pipeline or
    rules), else its turns are kept as said; ``relationships`` maps the words people are
    named by to their English reading ("妹妹": "sister"; a person keeps the word said);
    ``function_words`` help ``detect`` tell it from other languages of its script.
    """

    code: str
    name: str
    script: str
    words: Callable[[str], list[str]]
    stop_words: frozenset[str] = frozenset()
    extracts: bool = False
    relationships: Mapping[str, str] = field(default_factory=dict)
    #: the possessives that make a relationship word the user's ("meine", "minha"): in a
    #: language that has them, a word that names no family member ("gestora", "chefin")
    #: names the user's person in a text only after one ("quem é minha gestora?"); a
    #: family word ("tía") names one alone
    possessives: tuple[str, ...] = ()
    #: relationship words English has too, in another sense ("chef" is a cook in
    #: English), and their reading in this language: read so only after one of its
    #: ``possessives`` or its words for an ended relationship ("mein chef", "ehemaliger
    #: chef"), never alone
    owned_relationships: Mapping[str, str] = field(default_factory=dict)
    #: the kinds of pet ("猫": "cat"), read as a pet's relationship to the user
    pets: Mapping[str, str] = field(default_factory=dict)
    function_words: frozenset[str] = frozenset()
    #: a language users mix into English chat ("mi hermana lena", French with English
    #: words): its turns are also read for people by the English readers, and kept in
    #: pieces as English is (not cut into sentences by whom they are about)
    mixed_with_english: bool = False
    #: the people a sentence names by relationship, where the language's turns are kept
    #: as said (English is read by spaCy in ``ingestion.extract`` instead); called with
    #: the sentence and the turn's text before it (what a "叫可樂" names was said there)
    people_in: Callable[[str, str], list[Named]] | None = None
    #: names a sentence says with no relationship word, as a tagger reads them: those
    #: it gives as the user's own ("我叫谭小雨"), and others, people the user speaks of
    #: though the sentence is not theirs for it ("陈凯还在怪我")
    names_in: Callable[[str], tuple[list[str], list[str]]] | None = None
    #: claims a sentence makes, as (attribute, regex with a ``value`` group, or without
    #: one for an attribute that holds no value now): the attributes of
    #: ``graphmem.algorithms.conflicts`` ("location", "employer"), so a newer value
    #: supersedes an older one in any language
    claims: tuple[tuple[str, str], ...] = ()
    #: its claim rules read the first person only ("moro em", "ich wohne", "rehti
    #: hoon"), so what they read is the user's whoever else the sentence names: a turn
    #: kept whole is one card, and may be named for a friend in it ("tô vegana há um
    #: mês. comecei por causa da minha amiga bia")
    claims_are_the_users: bool = False
    #: a claim's slot by meaning, for what no rule reads ("the alder took me on, sous
    #: chef not head chef": employer): example sentences per attribute, and near misses
    #: under "" ("work was brutal today"); ``graphmem.algorithms.slots`` compares a
    #: card's vector with theirs
    slot_examples: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: what a question asks the value of: (regex, attributes), as ``recall.temporal``
    asks: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: a question asking for a number ("how many", "多少"), and a number as written
    #: ("12", "seven", "七"): regexes (``recall.engine`` shows the card that has one)
    #: a yes/no question on whether something still holds ("am i still prediabetic?",
    #: "我还在吃素吗"): a regex (``recall.temporal.first_in_time``)
    still_question: str = ""
    #: how a message says it corrects what was said before ("correction from last time",
    #: "我上次说错了"): a regex (``recall.temporal.corrections_first``)
    corrects: str = ""
    number_question: str = ""
    number: str = ""
    #: a question asking a name ("what's our dog's name?", "叫什么"), and a text that gives
    #: one ("her name is Penny", "named biscuit"): regexes (``recall.engine`` shows the
    #: card of a turn that gives it)
    name_question: str = ""
    naming: str = ""
    #: a question asking someone's surname ("what's my mum's surname now?", "姓什么"),
    #: and a text that says one changed or was ("she'll be sandra mcleod instead of
    #: sandra paterson", "officially mrs adeyemi", "she took his name", "改姓"): regexes
    surname_question: str = ""
    surname_given: str = ""
    #: words by which a question says what kind of answer it wants ("name", "叫什么"),
    #: never part of the answer: not what a passage must speak of (``recall.engine``)
    answer_kind_words: frozenset[str] = frozenset()
    #: how a sentence that leans on the one before it starts ("It won the Pulitzer",
    #: "他说..."): a regex; such a sentence is kept with the one it leans on
    #: (``ingestion.said``), so a piece names what it speaks of
    leans_back: str = ""
    #: words by which a question points at what was said ("what did I say", "what did
    #: you tell me about ..."), never what was said: not searched for (``recall.engine``)
    speech_words: frozenset[str] = frozenset()
    #: a question about what the assistant said or suggested ("what did you recommend?",
    #: "你推荐的那本书"): a regex (``recall.engine`` ranks the assistant's turns first)
    asks_the_assistant: str = ""
    #: a question asking a thing by its name or kind ("what book", "which app", "where
    #: did you say to go", "那部剧", "哪家店"), and how a reply suggests one ("try", "I'd
    #: recommend", "推荐"): regexes (``recall.engine`` ranks replies that name one first)
    thing_question: str = ""
    suggesting: str = ""
    #: what makes a clause the one that asks ("where", "哪"): a regex (``recall.temporal``
    #: reads "danny started at google, where do i work?" in its asking clause)
    question_words: str = ""
    #: a question asking who someone is, or what they are to the user ("who's my boss
    #: now?", "what's theo to me now?", "我现在的男朋友是谁？")
    who_question: str = ""
    #: what, right before a relationship word, makes it someone else's relative
    #: ("阿凱的" in "阿凱的媽媽"): a regex matched at the end of the text before it
    someone_elses: str = ""
    #: words by which a speaker means themself, in scripts without spaces ("我")
    first_person: tuple[str, ...] = ()
    #: words by which a speaker means someone else ("她"): a claim whose clause has one
    #: and no ``first_person`` word is theirs, not the user's ("她和男朋友在萧山买了房")
    third_person: tuple[str, ...] = ()
    #: words that make what a clause goes on to claim a supposition or a plan, anywhere
    #: in it before the claim, in scripts without spaces ("要不我们搬到深圳去", "如果我们明年
    #: 搬到深圳"): the clause claims nothing
    supposing: tuple[str, ...] = ()
    #: how a question in a language with spaces says "I" or "my" ("je", "j'", "mon"; a
    #: verb that says it alone, "¿dónde vivo?"): a regex (``recall.temporal`` answers it
    #: with the user's own slot)
    asks_of_self: str = ""
    #: how a relationship that ended is said: before the word ("前" in "前领导", the
    #: first one is how graphmem says it), and the words that say it otherwise ("老婆"
    #: ends as "前妻")
    former_prefixes: tuple[str, ...] = ()
    ended_words: Mapping[str, str] = field(default_factory=dict)
    #: someone's move away, said right after their name ("王姐也要搬家了"): a regex
    #: matched at the text after it; a neighbour or a roommate who moves is a former one
    moves_away: str = ""
    #: a move to another place, of the user's home ("moved to denver", "搬到深圳"): a
    #: regex; said after the city a stay or an address named ("staying in toronto"), it
    #: leaves that city behind (``recall.engine``), where a move into a flat does not
    moves_to: str = ""
    #: where the speaker came from, said with a move or a new job ("movin outta pilsen",
    #: "moved from mandaluyong to bgc", "从板桥搬到松山"): a regex whose group ``before``
    #: starts at what was left; a card stating the new value then holds the old one too
    left_from: str = ""
    #: someone's leaving their job, said right after their name ("大伟也说要走 他拿了美团的
    #: offer"): a regex matched at the text after it; a coworker who leaves is a former one
    leaves_work: str = ""
    #: what the user calls their partner once engaged or married, by gender ("m", "f",
    #: unknown): ``graphmem.relationships.partner_word`` in this language's words
    partner_words: Mapping[str, Mapping[str | None, str]] = field(default_factory=dict)
    #: the user's own engagement or wedding said in this language ("她答应了", "我们领证了"),
    #: as (step, regex): ``graphmem.relationships.PARTNER_WORDS`` steps, or "ended" for a
    #: breakup said without a name ("on a rompu")
    partner_steps: tuple[tuple[str, str], ...] = ()
    #: time words and their English reading ("上周": "last week"), so one reader of
    #: temporal intent serves every language
    time_words: Mapping[str, str] = field(default_factory=dict)
    #: days and moments said before a claim ("今日攞咗锁匙", "昨天终于拿到钥匙"): they are
    #: no one else, so the claim is still only the speaker's
    moment_words: frozenset[str] = frozenset()
    #: time expressions with numbers and their English reading, as (regex, replacement)
    time_patterns: tuple[tuple[str, str], ...] = ()
    #: a text as the language's rules are written to read it ("佢係我同事", Cantonese as
    #: typed, is read as "他是我同事"), one character for one; None: as it is
    as_read: Callable[[str], str] | None = None
    #: the months' names (lower case) and their numbers ("marzo": 3), read only beside a
    #: day's number ("el 15 de marzo"): alone a month's name may be a word ("mai", "mac")
    months: Mapping[str, int] = field(default_factory=dict)

    def read(self, text: str) -> str:
        """``text`` as this language's rules read it (``as_read``)."""
        return self.as_read(text) if self.as_read else text


@cache
def languages() -> tuple[Language, ...]:
    """Every language with a module, in ``_MODULES`` order."""
    modules = [importlib.import_module(f"graphmem.lang.{m}") for m in _MODULES]
    return tuple(k for m in modules for k in getattr(m, "LANGUAGES", None) or (m.LANGUAGE,))


def language(code: str) -> Language | None:
    """The language module for ``code`` ("en", "zh"), or None when graphmem has none."""
    return next((lang for lang in languages() if lang.code == code), None)


@cache
def _runs() -> re.Pattern[str]:
    """One alternation group per language's script, then any other run of letters."""
    groups = "|".join(f"(?P<{lang.code}>[{lang.script}]+)" for lang in languages())
    return re.compile(rf"{groups}|(?P<other>[^\W_]+)")


_WORD = re.compile(r"\w[\w']*")


def terms(text: str) -> list[str]:
    """The searchable words of ``text``, whatever its languages: each run of a known
    script goes to its language's tokeniser, anything else is lower-cased words.

    >>> terms("When did Melanie paint the sunrise?")
    ['melani', 'paint', 'sunris']
    >>> terms("我妹妹对花生过敏")
    ['我妹', '妹妹', '妹对', '对花', '花生', '生过', '过敏']
    >>> terms("今天meeting好累")
    ['今天', 'meet', '好累']

    Laughter and crying, as chat types them in any language, say nothing to search by:
    "whos my bf now ㅋㅋ" asks no card that ends in "ㅋㅋ".

    >>> terms("whos my bf now ㅋㅋ lol hahaha"), terms("哈哈哈 笑死")
    (['whos', 'bf'], ['笑死'])
    """
    out: list[str] = []
    for m in _runs().finditer(text.replace("’", "'")):
        code = m.lastgroup
        if code == "other":
            out.extend(w.lower() for w in _WORD.findall(m.group()))
            continue
        lang = language(code or "")
        if lang is not None:
            out.extend(lang.words(m.group()))
    return [word for word in out if not _LAUGHTER.match(word)]


#: Laughter and crying as chat types them: "lol", "lmao", "hahaha", "hehe", Korean jamo
#: alone ("ㅋㅋㅋ", "ㅠㅠ"), Chinese "哈哈", "呵呵".
_LAUGHTER = re.compile(
    r"(?i)^(?:l+o+l+z?|lmf?a+o+|rofl|(?:h+[aeiu]+){2,}h*|[\u3131-\u318e]+|[哈呵嘿嘻]+)$"
)


#: Car makes and the models people name without their make ("picked up a 2017 hilux",
#: "j'ai pris un kangoo", "swap the myvi for alza"), as a regex alternation: the same
#: words in every language that writes them in Latin letters. Models that are words too
#: (golf, polo, jazz, ranger, civic, outback, mustang, city) are left out.
CARS = (
    "tesla|toyota|honda|ford|bmw|audi|volkswagen|vw|volvo|nissan|mazda|subaru|kia|hyundai|"
    "mercedes|porsche|jeep|chevrolet|chevy|fiat|renault|peugeot|skoda|lexus|"
    "polestar|rivian|dacia|citroen|citroën|jaguar|land rover|range rover|mitsubishi|suzuki|"
    "opel|vauxhall|perodua|proton|byd|dodge|gmc|buick|cadillac|chrysler|acura|infiniti|"
    "cupra|alfa romeo|isuzu|mahindra|maruti|geely|saab|holden|"
    "hilux|corolla|camry|rav4|prius|yaris|landcruiser|land cruiser|prado|commodore|estima|"
    "sienta|altis|cr-v|hr-v|passat|tiguan|forester|impreza|navara|qashqai|cx-5|mx-5|miata|"
    "model 3|model y|f-150|wrangler|i30|tucson|sportage|myvi|alza|axia|bezza|x50|x70|"
    "kangoo|clio|twingo|megane|mégane|2cv|fiesta|octavia|"
    "sandero|duster|tsuru|vocho|sentra|berlingo|transit custom"
)


def _script_of(char: str) -> str | None:
    for code, first, last in SCRIPTS:
        if first <= char <= last:
            return code
    return None


def detect(text: str) -> str:
    """The language ``text`` is mostly in: a module's code ("en", "zh"), the usual
    language of another script ("ja", "ru", ...), a Latin-script language told by its
    function words ("es", ...), or ``"und"`` when there are no letters.

    Counted per word for alphabetic scripts and per character for Chinese, so
    "今天meeting好累，my boss又改deadline了" is Chinese with English words in it.

    >>> detect("I moved to Lisbon last week"), detect("我搬到深圳了")
    ('en', 'zh')
    >>> detect("me mudé a Lisboa la semana pasada con mi hermana")
    'es'
    >>> detect("今天meeting好累，my boss又改deadline了"), detect("😂😂")
    ('zh', 'und')
    >>> detect("Привет, как дела?")
    'ru'
    """
    counts: Counter[str] = Counter()
    latin_words: list[str] = []
    for m in _runs().finditer(text):
        code = m.lastgroup or "other"
        run = m.group()
        if code == "other":
            script = _script_of(run[0])
            if script is not None:
                counts[script] += 1
            elif unicodedata.category(run[0]).startswith("L") or run[0].isalpha():
                latin_words.extend(w.lower() for w in _WORD.findall(run))
            continue
        lang = language(code)
        if lang is not None and lang.code != "en":
            counts[lang.code] += len(run)  # a Han character is about a word
        elif lang is not None:
            latin_words.extend(w.lower() for w in _WORD.findall(run))
    if latin_words:
        counts[_latin_language(latin_words)] += len(latin_words)
    if not counts:
        return UNKNOWN
    return counts.most_common(1)[0][0]


def _latin_language(words: list[str]) -> str:
    """English unless another language's function words clearly outnumber English's."""
    english = language("en")
    hits = {"en": sum(w in english.function_words for w in words)} if english else {}
    for code, known in LATIN_FUNCTION_WORDS.items():
        hits[code] = sum(w in known for w in words)
    best = max(hits, key=lambda c: hits[c])
    if best != "en" and hits[best] >= 2 and hits[best] > 1.5 * hits.get("en", 0):
        return best
    return "en"


#: the value of an attribute said to hold none now (a job lost: no employer)
NO_VALUE = "none"


#: what ends a sentence: a full stop after a digit is none ("ab 1. juli", "5.2k")
_SENTENCE_END = r"(?:[!?]|(?<!\d)\.)"
_IN_SENTENCE = r"(?:[^.!?]|(?<=\d)\.)"


def in_own_sentence(body: str, not_yet: str) -> str:
    """A claim pattern read in its own sentence, and only when that sentence holds no
    word of ``not_yet`` (a regex alternation: what makes it a wish, a plan, a
    supposition or someone else's: "agar", "kung lumipat ako sa UK"), for the claim
    rules languages keep as data (``Language.claims``). A full stop after a digit ends
    no sentence: "ab 1. juli bin ich bei nordlicht" is one.

    >>> rule = in_own_sentence(r"bin ich bei (?P<value>[a-z]+)", "wenn")
    >>> re.search(rule, "zusage! ab 1. juli bin ich bei nordlicht.")["value"]
    'nordlicht'
    >>> re.search(rule, "wenn es klappt, ab 1. juli bin ich bei nordlicht") is None
    True
    """
    return (
        rf"(?i)(?:^|{_SENTENCE_END}\s*)(?!{_IN_SENTENCE}*\b(?:{not_yet})\b)"
        rf"{_IN_SENTENCE}*?\b{body}"
    )


def claim(text: str, mine: bool = False) -> tuple[str, str] | None:
    """(attribute, value) of the first claim a language's rules read in ``text``;
    ``mine``: the text is filed as the user's own, so a claim whose subject is someone
    the user names as theirs ("我表弟阿斌话下个月搬去深圳") is not read.

    >>> claim("我搬到深圳了！"), claim("我现在在腾讯上班")
    (('location', '深圳'), ('employer', '腾讯'))
    >>> claim("他很希望我搬去新竹"), claim("如果我去腾讯上班")  # a wish, a what-if
    (None, None)
    >>> claim("我拿到了网易的offer 下个月12号入职"), claim("收到了腾讯的offer 但是我还在考虑")
    (('employer', '网易'), None)
    >>> claim("小红书 下周一入职 对了我妹妹小雨下个月结婚"), claim("小雨下个月入职")
    (('employer', '小红书'), None)
    >>> claim("我们在滨江租了个两室一厅"), claim("想在郊区买个房子")
    (('location', '滨江'), None)
    >>> claim("我老婆佳佳是小学语文老师"), claim("这是老师说的")
    (('job', '小学语文老师'), None)

    A pattern without a ``value`` group says the attribute holds no value now (a job
    lost: "公司说我们组整个被裁了"), read as "none", as the English rules read it:

    >>> claim("小美下个月要搬走了 她和男朋友在萧山买了房"), claim("我和她在滨江租了个两室")
    (None, ('location', '滨江'))
    >>> claim("公司说我们组整个被裁了 给了N+1"), claim("有点担心被裁")
    (('employer', 'none'), None)
    >>> claim("lumipat na kami sa marikina nung sabado"), claim("kung lumipat ako sa UK")
    (('location', 'marikina'), None)
    >>> claim("周斌说要不我们搬到深圳去跟他们住"), claim("如果我们明年搬到深圳")  # supposed
    (None, None)
    >>> claim("仲有 我搬咗入西營盤喇!! 6月1號攞鎖匙"), claim("我们搬进了新家")  # Cantonese
    (('location', '西營盤'), None)
    >>> claim("另外我表弟阿斌话下个月搬去深圳", mine=True), claim("我跟我老婆搬到了深圳", mine=True)
    (None, ('location', '深圳'))
    """
    found = _claimed(text, mine)
    return found[1:] if found is not None else None


def users_claim(text: str) -> tuple[str, str] | None:
    """The claim ``claim`` reads in ``text`` when it can only be the user's (its
    language's rules read the first person: ``Language.claims_are_the_users``).

    >>> users_claim("e outra coisa, tô vegana há um mês. comecei por causa da minha amiga bia")
    ('diet', 'vegana')
    >>> users_claim("我老婆佳佳是小学语文老师") is None  # the wife's job, said by the user
    True
    >>> users_claim("钥匙拿到了！！滨江这边 离公司骑车十分钟 跟一个女生合租 她叫小美")
    ('location', '滨江')
    >>> users_claim("我的 manager 叫 Oliver 很 chill 然後我決定從板橋搬到松山")
    ('location', '松山')
    """
    found = _claimed(text)
    return found[1:] if found is not None and found[0] else None


def _claimed(text: str, mine: bool = False) -> tuple[bool, str, str] | None:
    """Whether it can only be the user's (``users_claim``), the attribute and the value
    of the first claim a language's rules read (``mine``: as ``claim``)."""
    said = text
    for known in languages():
        text = known.read(said)
        if not known.claims or not _claim_words(known.code).search(text):
            continue  # none of the words its rules are written with
        for attribute, pattern in known.claims:
            if m := _compiled(pattern).search(text):
                before = text[: m.start()]
                clause = _CLAUSE_BREAK.split(before)[-1]
                if _someone_elses(known, clause) or any(w in clause for w in known.supposing):
                    continue
                if mine and _theirs(known, clause):
                    continue
                value = m.groupdict().get("value")
                only_the_users = known.claims_are_the_users or (
                    bool(known.first_person)
                    and (_only_the_speaker(known, before) or _the_speakers(known, clause))
                )
                value = value.strip().lower() if value is not None else NO_VALUE
                return only_the_users, attribute, value
    return None


@cache
def _claim_words(code: str) -> re.Pattern[str]:
    """The words a language's claim rules are written with, lower case, each cut where
    the rule lets it end ("wohnen?" -> "wohne"), and every character of a script without
    spaces: a text holding none of them is read by none of its rules (a cheap test
    before ~20 searches a language: ingest read every card with each)."""
    known = language(code)
    words: set[str] = set()
    for _, pattern in known.claims if known is not None else ():
        source = re.sub(r"\\[A-Za-z]|\(\?P?<\w+>|\(\?[a-zA-Z]+\)", " ", pattern).lower()
        for m in re.finditer(r"[^\W\d_]+", source):
            word = m.group()
            if script_without_spaces(word):
                words.update(ch for ch in word if script_without_spaces(ch))
                continue
            if source[m.end() : m.end() + 1] in ("?", "*", "{", "["):
                word = word[:-1]  # the last letter is optional or repeated
            if len(word) >= 3:
                words.add(word)
    english = language("en")
    words -= english.stop_words if english is not None else frozenset()
    han = "".join(sorted(w for w in words if script_without_spaces(w)))
    latin = "|".join(
        sorted((re.escape(w) for w in words if not script_without_spaces(w)), key=len, reverse=True)
    )
    alternatives = ([f"[{han}]"] if han else []) + ([rf"\b(?:{latin})\w?\b"] if latin else [])
    return re.compile("|".join(alternatives) or "(?!)", re.IGNORECASE)


def _only_the_speaker(known: Language, before: str) -> bool:
    """Does nothing but the speaker ("我们"), a moment and punctuation come before a
    claim, so no one else can be its subject ("钥匙拿到了！！滨江这边 ... 她叫小美", "今日攞咗
    锁匙🔑 天河棠下嘅一房一厅")?"""
    for word in sorted((*known.first_person, *known.moment_words), key=len, reverse=True):
        before = before.replace(word, "")
    return not re.sub(r"[\W\d_们們]", "", before)


def _the_speakers(known: Language, clause: str) -> bool:
    """Does the clause a claim is in say "I" and no one else ("然後我決定從板橋搬到松山",
    however many people the turn named before it; not "我同事小美下个月搬去台中")?"""
    return (
        any(w in clause for w in known.first_person)
        and not any(w in clause for w in known.third_person)
        and not any(w in clause for w in known.relationships)
    )


#: Where a clause starts in chat without spaces between words: punctuation, or a space
_CLAUSE_BREAK = re.compile(r"[，,。！？!?；;\s]")


def _theirs(known: Language, clause: str) -> bool:
    """Does ``clause`` (up to a claim) say the speaker only as whose someone is ("另外我
    表弟阿斌话", "我的同事"), so the someone does what follows, not the speaker ("我跟我老婆"
    is the speaker too)?"""
    owned = _owned_someone(known.code)
    if owned is None:
        return False
    said = owned.sub("", clause)
    return said != clause and not any(w in said for w in known.first_person)


@cache
def _owned_someone(code: str) -> re.Pattern[str] | None:
    """The speaker's word, then a relationship word of the language ("我表弟", "我的同事"),
    built once per language; None where it has no first person or no such words."""
    known = language(code)
    if known is None or not known.first_person or not known.relationships:
        return None
    whose = "|".join(map(re.escape, known.first_person))
    kin = "|".join(map(re.escape, sorted(known.relationships, key=len, reverse=True)))
    return re.compile(rf"(?:{whose})的?(?:{kin})")


def _someone_elses(known: Language, clause: str) -> bool:
    """Does ``clause`` (up to a claim) name someone else and not the speaker?"""
    return any(w in clause for w in known.third_person) and not any(
        w in clause for w in known.first_person
    )


def slot_examples() -> list[tuple[str, str, str]]:
    """(language code, attribute, sentence) of every language's slot examples ("" for
    near misses), in ``languages()`` order.

    >>> sorted({code for code, _, _ in slot_examples()})
    ['en', 'zh']
    """
    return [
        (known.code, a, sentence)
        for known in languages()
        for a, sentences in known.slot_examples.items()
        for sentence in sentences
    ]


def _any_language(text: str, pattern: Callable[[Language], str]) -> bool:
    """Does the regex some language keeps (``pattern`` of it; "" for none) match ``text``?"""
    return any((rx := pattern(known)) and _compiled(rx).search(text) for known in languages())


def asks_a_number(query: str) -> bool:
    """Does a question in any language ask how many, how much, how old...?

    >>> asks_a_number("how many people are in my book club?"), asks_a_number("我家有几口人")
    (True, True)
    >>> asks_a_number("wetin be my old number again?"), asks_a_number("my number one fan?")
    (True, False)
    """
    return _any_language(query, lambda k: k.number_question)


def corrects(text: str) -> bool:
    """Does a message in any language say it corrects what was said before?

    >>> corrects("eh correction from last time, the condo we sold already")
    True
    >>> corrects("哦不对不对，我上次说错了，是5月15号入职"), corrects("我们上次说好了")
    (True, False)
    """
    return _any_language(text, lambda k: k.corrects)


def asks_if_still(query: str) -> bool:
    """Does a question in any language ask whether something still holds?

    >>> asks_if_still("am i still doing intermittent fasting?"), asks_if_still("我还在吃素吗？")
    (True, True)
    >>> asks_if_still("what did i say i dont drink anymore?")  # asks what was said
    False
    >>> asks_if_still("did i get the motorcycle?")  # how a plan ended: the newest word on it
    True
    >>> asks_if_still("what happened to bruno?")  # the latest on him
    True
    """
    return _any_language(query, lambda k: k.still_question)


def asks_who(query: str) -> bool:
    """Does a question in any language ask who someone is?

    >>> asks_who("who's my girlfriend now?"), asks_who("我现在的男朋友是谁？")
    (True, True)
    >>> asks_who("what's theo to me now?"), asks_who("佳佳现在是我什么人")
    (True, True)
    >>> asks_who("ishita ab officially meri kya lagti hai lol")  # Hinglish
    True
    >>> asks_who("what's my wife's name?"), asks_who("whats my sister's new last name?")
    (True, False)
    >>> asks_who("whose dog is biscuit?"), asks_who("where does my sister live?")
    (False, False)
    """
    return _any_language(query, lambda k: k.who_question)


def asks_the_assistant(query: str) -> bool:
    """Does a question in any language ask what the assistant said, suggested, gave?

    >>> asks_the_assistant("which app did you suggest for the pomodoro stuff?")
    True
    >>> asks_the_assistant("what did i tell you about my mom?")
    False
    >>> asks_the_assistant("whats that easy veggie recipe u gave me")  # chat's "u"
    True
    >>> asks_the_assistant("what u suggest to put on my brownies")  # "did" dropped
    True
    >>> asks_the_assistant("woh book ka naam kya tha jo tumne bataya tha")  # Hinglish
    True
    >>> asks_the_assistant("residency wali funny book kaunsi batayi thi tune")  # verb first
    True
    >>> asks_the_assistant("tu m'avais conseillé quel plat ?")
    True
    >>> asks_the_assistant("was hast du mir für kopenhagen empfohlen")
    True
    >>> asks_the_assistant("你推荐过什么书？"), asks_the_assistant("我跟你说过我妈妈的事吗？")
    (True, False)
    >>> asks_the_assistant("你上次说我跑步用什么app记录"), asks_the_assistant("你说呢？")
    (True, False)
    >>> asks_the_assistant("你给豆豆推荐过哪些绘本？"), asks_the_assistant("你说我该先买哪本字帖？")
    (True, True)
    >>> asks_the_assistant("你之前推介嗰本理財書叫咩")  # Cantonese "recommend"
    True
    >>> asks_the_assistant("你之前给我说做月子喝的啥子汤"), asks_the_assistant("我给你说 我好累")
    (True, False)
    """
    return _any_language(query, lambda k: k.asks_the_assistant)


#: A title as a reply sets it off, in any script: quoted, in bold, in Chinese title marks.
_TITLE = re.compile(
    r"\*\*[^*\n]{2,80}\*\*|《[^》\n]{1,40}》|「[^」\n]{1,40}」|“[^”\n]{2,80}”|‘[^’\n]{2,80}’"
    r"|\"[^\"\n]{2,80}\"|(?<!\w)'[^'\n]{2,80}'(?!\w)"
)


#: A list a reply sets out ("1. Standing hamstring stretch", "- Zotero"): items suggested.
_LISTED = re.compile(r"(?m)^\s*(?:\d+[.)]|[-*•])\s+\S")
#: A name inside a sentence, where Latin script capitalises only names ("Go to H Mart on
#: Robson Street", "the Lady Bird Johnson Wildflower Center"); not "I", not after an end.
_NAMED_INSIDE = re.compile(r"(?<![.!?:\n])(?<![.!?:]\s)(?<!^)(?<!\s\s)\b(?!I\b)[A-Z][\w'’-]*")


def asks_a_thing(query: str) -> bool:
    """Does a question in any language ask for a thing by its kind or its name ("which
    app", "what was that dog book", "where did u say to go", "那部剧叫什么")?

    >>> asks_a_thing("what was that dog book you told me about"), asks_a_thing("那部剧叫什么")
    (True, True)
    >>> asks_a_thing("what did you tell me about sleep?")
    False
    """
    return _any_language(query, lambda k: k.thing_question) or asks_a_name(query)


def suggests_something(text: str) -> bool:
    """Does a reply, in any language, name or suggest something: a title set off
    (``_TITLE``), or a suggesting word (``Language.suggesting``)?

    >>> suggests_something("For a great read, try 'The Other End of the Leash'.")
    True
    >>> suggests_something("What a good unnie! Leave her a little care sheet.")
    False
    >>> suggests_something("推荐你看《去有风的地方》"), suggests_something("It's the classic.")
    (True, False)
    >>> suggests_something("3. Standing hamstring stretch: heel on the truck step")
    True
    """
    return bool(
        _TITLE.search(text) or _LISTED.search(text) or _NAMED_INSIDE.search(text)
    ) or _any_language(text, lambda k: k.suggesting)


def asks_a_name(query: str) -> bool:
    """Does a question in any language ask what someone or something is called?

    >>> asks_a_name("what's our dog's name?"), asks_a_name("我家狗叫什么？"), asks_a_name("hi")
    (True, True, False)
    """
    return _any_language(query, lambda k: k.name_question)


def asks_here(clause: str) -> bool:
    """Is this a clause that asks, in any language (``Language.question_words``)?

    >>> asks_here("where do i work"), asks_here("我现在在哪个城市"), asks_here("danny moved")
    (True, True, False)
    """
    return _any_language(clause, lambda k: k.question_words)


def left_behind(text: str, value: str) -> bool:
    """Does a text say, in any language (``Language.left_from``), where its speaker
    came from, other than ``value``, the place or work it says they have now?

    >>> left_behind("movin outta pilsen too, got keys to a 1br in bridgeport", "bridgeport")
    True
    >>> left_behind("我決定從板橋搬到松山", "松山"), left_behind("got an offer from acme", "acme")
    (True, False)
    >>> left_behind("got a house in canyon. movin outta the georgia st apartment", "canyon")
    True
    >>> left_behind("moving out of the house tomorrow, new place in leeds", "leeds")
    False
    """
    value = value.casefold()
    if not value:
        return False
    for known in languages():
        if not known.left_from:
            continue
        for m in _compiled(known.left_from).finditer(text):
            before = m["before"].casefold()
            if not before.startswith(value) and not value.startswith(before.split()[0]):
                return True
    return False


def holds_a_name(text: str) -> bool:
    """Does a text say what someone or something is called?

    >>> holds_a_name("Her name is Penny, she's 4"), holds_a_name("We adopted a beagle")
    (True, False)
    """
    return _any_language(text, lambda k: k.naming)


def asks_a_surname(query: str) -> bool:
    """Does a question in any language ask someone's surname?

    >>> asks_a_surname("what was rachel's last name before the wedding?")
    True
    >>> asks_a_surname("what's my dog's name?"), asks_a_surname("我妈妈姓什么？")
    (False, True)
    """
    return _any_language(query, lambda k: k.surname_question)


def gives_a_surname(text: str) -> bool:
    """Does a text say what someone's surname is or became?

    >>> gives_a_surname("so rachel is officially mrs adeyemi now")
    True
    >>> gives_a_surname("shes Chloe Okafor now, she took his name")
    True
    >>> gives_a_surname("my sister rachel is getting married in april!!")
    False
    """
    return _any_language(text, lambda k: k.surname_given)


def holds_a_number(text: str) -> bool:
    """Does a text give a number, in digits or in words of any language?

    >>> holds_a_number("there are 7 of us"), holds_a_number("like a dozen"), holds_a_number("hi")
    (True, True, False)
    """
    return any(ch.isdigit() for ch in text) or _any_language(text, lambda k: k.number)


def asks(query: str) -> tuple[str, ...]:
    """The attributes a question in any language asks the value of (``Language.asks``).

    >>> asks("我现在住在哪里？"), asks("j'habite où maintenant ?"), asks("je bosse comme quoi")
    (('location',), ('location',), ('employer', 'job'))
    >>> asks("¿dónde trabajo ahora?"), asks("onde eu moro agora?"), asks("c'est quoi un bon film")
    (('employer',), ('location',), ())
    >>> asks("bei welcher firma arbeite ich"), asks("qual meu cargo atual")
    (('employer',), ('job',))
    >>> asks("eu ainda sou vegana?")  # Portuguese and Spanish alike: once
    ('diet',)
    >>> asks("main abhi kaha kaam karti hu?"), asks("meri behen kaha rehti hai")  # Hinglish
    (('employer', 'job'), ())
    """
    found = (
        a
        for known in languages()
        for pattern, attributes in known.asks
        if _compiled(pattern).search(query)
        for a in attributes
    )
    return tuple(dict.fromkeys(found))  # each once: "vegana" is Spanish and Portuguese


def speaks_of_self(text: str) -> bool:
    """True when a text in a language without spaces says "I" (English is read by the
    callers' own word patterns).

    >>> speaks_of_self("我妹妹对什么过敏？"), speaks_of_self("what is she allergic to?")
    (True, False)
    """
    return any(word in text for known in languages() for word in known.first_person)


def asks_of_self(query: str) -> bool:
    """Does a question in a language other than English say "I" or "my" (English is
    read by the callers' own word patterns)?

    >>> asks_of_self("j'habite où maintenant ?"), asks_of_self("¿dónde vivo ahora?")
    (True, True)
    >>> asks_of_self("elle habite où ?"), asks_of_self("我现在住在哪里？")
    (False, True)
    """
    return speaks_of_self(query) or _any_language(query, lambda k: k.asks_of_self)


def relationships_in(text: str) -> list[str]:
    """graphmem's names of the relationships a text in any language names by its own
    words ("我妹妹对什么过敏" -> sister), longest words first, each once.

    >>> relationships_in("我妹妹和我老公")
    ['sister', 'husband']
    >>> relationships_in("阿凱的媽媽叫什麼名字？")  # someone else's mother
    []
    >>> relationships_in("我的猫叫啥")  # a pet too
    ['cat']

    A work word of a language with possessives is the user's person after one; a word
    English has too ("chef", a cook) is read in that language only then:

    >>> relationships_in("quem é minha gestora?"), relationships_in("wer ist mein chef")
    (['manager'], ['boss'])
    >>> relationships_in("the chef at the gestora meeting"), relationships_in("my chef")
    ([], [])
    """
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    lowered = text.lower()
    for known in languages():
        for word, key, english in _longest_first(known.code):
            if key not in lowered:  # most words of most languages: no search needed
                continue
            at = _found_at(text, word)
            if at < 0 or any(s < at + len(word) and at < e for s, e in taken):
                continue
            if known.someone_elses and re.search(known.someone_elses + r"$", text[:at]):
                taken.append((at, at + len(word)))
                continue
            if _needs_possessive(known, word, english) and not _after_possessive(
                known.code, text[:at]
            ):
                continue
            taken.append((at, at + len(word)))
            found.append((at, english))
    return list(dict.fromkeys(rel for _, rel in sorted(found)))


def _needs_possessive(known: Language, word: str, english: str) -> bool:
    """Whether ``word`` names the user's person only after a possessive of ``known``:
    a word English has too, or a work word where the language has possessives."""
    return word in known.owned_relationships or bool(
        known.possessives and english not in FAMILY and word not in known.pets
    )


@cache
def _possessive_before(code: str) -> re.Pattern[str]:
    """A possessive of the language at the end of a text, and up to one word after it
    ("minha nova ", "meu ex-")."""
    known = language(code)
    words = "|".join(map(re.escape, known.possessives if known else ())) or "(?!)"
    return re.compile(rf"(?i)(?<!\w)(?:{words})\s+(?:[^\W\d_]+(?:\s+|-))?$")


def _after_possessive(code: str, before: str) -> bool:
    return _possessive_before(code).search(before[-40:]) is not None


@cache
def _longest_first(code: str) -> tuple[tuple[str, str, str], ...]:
    """A language's relationship and pet words, longest first, each with its lower case
    (what a text must hold for the word to be in it) and its English reading."""
    known = language(code)
    words = {**known.owned_relationships, **known.pets, **known.relationships} if known else {}
    return tuple((word, word.lower(), words[word]) for word in sorted(words, key=len, reverse=True))


def _found_at(text: str, word: str) -> int:
    """Where ``word`` is in ``text`` (-1 if not): anywhere for a word of a script without
    spaces ("妹妹"), as a whole word for a word of letters ("tía" is not in "tían")."""
    m = _whole_word(word).search(text)
    return m.start() if m else -1


def script_without_spaces(word: str) -> bool:
    """Is any of ``word`` written in a script with no spaces between words (Chinese)?"""
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in word)


@cache
def _relationship_words() -> dict[str, tuple[Language, str]]:
    """Every language's relationship words, with their language and English reading."""
    return {
        word: (known, english)
        for known in languages()
        for words in (known.pets, known.relationships)
        for word, english in words.items()
    }


def _own_word(word: str) -> tuple[Language, str, bool] | None:
    """(language, English reading, ended) of a relationship word a language module
    knows, an ended one read through its prefix ("前领导": former boss)."""
    word = " ".join(word.split())
    if (found := _relationship_words().get(word)) is not None:
        return found[0], found[1], False
    for known in languages():
        for prefix in known.former_prefixes:
            if word.startswith(prefix) and len(word) > len(prefix):
                rest = word[len(prefix) :]
                english = known.relationships.get(rest) or known.pets.get(rest)
                if english is None and prefix not in _ENGLISH_FORMER:  # "ehemaliger chef"
                    english = known.owned_relationships.get(rest)
                if english is not None:
                    return known, english, True
    return None


#: Prefixes of an ended relationship English writes too: "ex-chef" may be a cook's.
_ENGLISH_FORMER = frozenset({"ex-", "ex "})


def relationship_in_english(word: str) -> str | None:
    """The English reading of a relationship word some language module knows (None for
    any other word): what graphmem's vocabulary of roles is written in.

    >>> relationship_in_english("老婆"), relationship_in_english("前领导")
    ('wife', 'former boss')
    >>> relationship_in_english("前男友"), relationship_in_english("sister")
    ('ex-boyfriend', None)
    >>> relationship_in_english("chefin"), relationship_in_english("ehemaliger chef")
    ('boss', 'former boss')
    >>> relationship_in_english("ex-chefe"), relationship_in_english("antiga gestora")
    ('former boss', 'former manager')
    >>> relationship_in_english("chef"), relationship_in_english("ex-chef")  # a cook
    (None, None)
    """
    found = _own_word(word)
    if found is None:
        return None
    _, english, ended = found
    if not ended:
        return english
    return english if english.startswith(("ex", "former ")) else f"former {english}"


def ended_in_own_words(word: str) -> str | None:
    """How the user would say a relationship of their language once it ended ("领导" ->
    "前领导", "老婆" -> "前妻"); None for a word no language module knows.

    >>> ended_in_own_words("领导"), ended_in_own_words("男朋友"), ended_in_own_words("前男友")
    ('前领导', '前男友', '前男友')
    >>> ended_in_own_words("boss") is None
    True
    """
    found = _own_word(word)
    if found is None:
        return None
    known, english, ended = found
    if ended or english.startswith(("ex", "former ")):  # "前领导", "前男友" already ended
        return word
    prefix = known.former_prefixes[0] if known.former_prefixes else ""
    return known.ended_words.get(word, prefix + word)


def moves_town(text: str) -> bool:
    """Does a text say a move to another place, in any language (``Language.moves_to``)?

    >>> moves_town("we moved to denver in may"), moves_town("我搬到深圳了")
    (True, True)
    >>> moves_town("moved into our place in leslieville"), moves_town("钥匙拿到了")
    (False, False)
    """
    return _any_language(text, lambda k: k.moves_to)


def moves_away(code: str, after: str) -> bool:
    """Whether the text right after someone's name says they move away, in the language
    ``code`` (``Language.moves_away``).

    >>> moves_away("zh", "也要搬家了，她跟她女儿去海南了"), moves_away("zh", "说我搬家太累了")
    (True, False)
    """
    known = language(code)
    return bool(known and known.moves_away and _compiled(known.moves_away).match(after))


def leaves_work(code: str, after: str) -> bool:
    """Whether the text right after someone's name says they leave their job, in the
    language ``code`` (``Language.leaves_work``).

    >>> leaves_work("zh", "也说要走 他拿了美团的offer"), leaves_work("zh", "上个月离职了")
    (True, True)
    >>> leaves_work("zh", "说我加班太多了")
    False
    """
    known = language(code)
    return bool(known and known.leaves_work and _compiled(known.leaves_work).match(after))


def partner_in_own_words(step: str, gender: str | None, like: str) -> str | None:
    """What the partner is called at ``step`` in the language of ``like`` (the word the
    user has for them now): "女朋友" engaged is "未婚妻"; None for a word no module knows.

    >>> partner_in_own_words("engaged", "f", "女朋友")
    '未婚妻'
    >>> partner_in_own_words("married", "m", "男朋友")
    '老公'
    """
    found = _own_word(like)
    words = found[0].partner_words.get(step) if found is not None else None
    if not words:
        return None
    return words.get(gender, words[None])


def partner_step_in(text: str) -> str | None:
    """The step ("engaged", "married") of the user's own engagement or wedding a text
    in any language announces with a module's ``partner_steps``.

    >>> partner_step_in("她答应了!!!!!! 7月12号 深圳湾"), partner_step_in("我想去深圳求婚")
    ('engaged', None)
    >>> partner_step_in("琴晚我喺珠江边同阿敏求咗婚💍"), partner_step_in("我在計畫跟小瑜求婚")
    ('engaged', None)
    """
    for known in languages():
        read = known.read(text)
        for step, pattern in known.partner_steps:
            if _compiled(pattern).search(read):
                return step
    return None


@cache
def answer_kind_terms() -> frozenset[str]:
    """Every language's ``answer_kind_words`` as ``terms`` makes them.

    >>> sorted(answer_kind_terms())
    ['call', 'name', '什么', '叫什', '名字']
    """
    return frozenset(terms(" ".join(w for known in languages() for w in known.answer_kind_words)))


@cache
def month_names() -> Mapping[str, int]:
    """Every language's ``months``: a month's name, as any of them writes it, and its number.

    >>> names = month_names()
    >>> names["may"], names["marzo"], names["février"], names["agustus"]
    (5, 3, 2, 8)
    """
    return {name: number for known in languages() for name, number in known.months.items()}


@cache
def speech_terms() -> frozenset[str]:
    """Every language's ``speech_words`` as ``terms`` makes them.

    >>> sorted(speech_terms())
    ['mention', 'said', 'say', 'talk', 'tell', 'told']
    """
    return frozenset(terms(" ".join(w for known in languages() for w in known.speech_words)))


def in_english_time_words(text: str) -> str:
    """``text`` with every language's time words read in English ("上周我去了哪里" ->
    " last week 我去了哪里"), for the temporal intent reader.

    >>> in_english_time_words("我以前住在哪里？")
    '我 before 住在哪里？'
    >>> in_english_time_words("2023年我在哪里工作？")
    'in 2023 我在哪里工作？'

    A word of a spaced script is read whole: "primary" holds no Italian "prima" (before),
    "actually" no French "actuel".

    >>> in_english_time_words("what's my primary school?")
    "what's my primary school?"
    >>> in_english_time_words("main abhi kaha rehti hu")
    'main now kaha rehti hu'
    """
    for known in languages():
        for pattern, english in known.time_patterns:
            text = _compiled(pattern).sub(english, text)
        for word in sorted(known.time_words, key=len, reverse=True):
            if word in text:
                text = _whole_word(word).sub(f" {known.time_words[word]} ", text)
    return re.sub(r" +", " ", text).strip()


@cache
def _whole_word(word: str) -> re.Pattern[str]:
    """``word`` where it stands alone: between non-word characters when it is written
    in letters of a spaced script, anywhere when in Chinese characters (no spaces)."""
    if script_without_spaces(word):
        return re.compile(re.escape(word))
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def readable(code: str) -> bool:
    """True when ingestion reads claims from text in ``code`` (else it keeps it as said)."""
    lang = language(code)
    return lang is not None and lang.extracts


__all__ = [
    "FAMILY",
    "SCRIPTS",
    "UNKNOWN",
    "Language",
    "Named",
    "asks",
    "asks_a_number",
    "asks_of_self",
    "claim",
    "corrects",
    "detect",
    "ended_in_own_words",
    "holds_a_number",
    "in_english_time_words",
    "in_own_sentence",
    "language",
    "languages",
    "partner_in_own_words",
    "partner_step_in",
    "readable",
    "relationship_in_english",
    "relationships_in",
    "script_without_spaces",
    "speaks_of_self",
    "terms",
    "users_claim",
]
