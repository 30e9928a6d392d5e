"""French, Spanish, Portuguese, German, Italian: the people a sentence names, one reader
for five languages, each language a table of words.

Users write to an assistant in these languages, or mix them into English ("mi hermana
lena"), and graphmem keeps such turns as said (no spaCy pipeline reads them). The
grammar that names people is the same in all five, so one reader serves them, and a
language is its words (``Grammar``):

- a possessive, a relationship word, a name: "mon frère hugo", "mi hermana Lena",
  "minha prima Larissa", "meine Schwester Lena", "ma cheffe s'appelle Lise";
- a name, then who they are: "chez manon, ma meilleure amie";
- a name given: "un chat ... il s'appelle Gribouille", "se llama Thor" (a pet when a
  pet was spoken of just before, in the sentence or the turn);
- a relationship that ended: "mon ex Julien", "julien et moi c'est fini" (an ex), "mon
  ancienne cheffe" (a former boss); a new one: "je sors avec Inès" (a partner).

A person named keeps the relationship in English (the reading of the word said), what
graphmem's roles are written in; one named by the word alone ("mi mami", "ma tante") is
called by it, and that word is in ``Language.relationships`` so graphmem reads it
("tía": aunt). Work and service words alone ("mon médecin", "la doctora") are no person.

The user's own changes are claims, each language's rules as data (``Grammar.claims``):
a verb of living, moving or working in the first person and its place, an offer signed
with its start, a promotion, a diet. The verb's person says whose change it is ("timo
zieht nach berlin" is Timo's); a supposition or a plan is none.

>>> from graphmem.lang import claim
>>> claim("ja!! in altona, 2 zimmer, altbau"), claim("moro em pinheiros, aluguel absurdo")
(('location', 'altona'), ('location', 'pinheiros'))
>>> claim("hab die zusage!!! ab 1. juli bin ich bei nordlicht in hamburg")
('employer', 'nordlicht')
>>> claim("timo zieht gerade nach berlin"), claim("se eu conseguir a vaga, me mudo pra floripa")
(None, None)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from graphmem.lang import (
    CARS,
    FAMILY,
    LATIN_FUNCTION_WORDS,
    Language,
    Named,
    Naming,
    en,
    in_own_sentence,
    months_numbered,
)

#: Words these languages share with English ("cousin", "papa"; "chef", a cook in English,
#: a boss in French and German; "chat", a cat in French): English reads them alone, this
#: language after its own possessive or word for an ended relationship ("mein chef",
#: "ehemaliger chef"), and never as a pet's kind.
ENGLISH_TOO = frozenset(
    """cousin partner mama papa ex chef patron capo prof professor doctor coach manager
    parents padres chat cane""".split()
)
#: English readings of a partner: one that ended is an ex.
PARTNERS = frozenset("wife husband partner boyfriend girlfriend fiancé fiancée spouse".split())


@dataclass(frozen=True, eq=False)
class Grammar:
    """How one language names people: its words, as data. Patterns are written with
    ``{name}`` where a name stands."""

    code: str
    name: str
    #: possessives before a noun: the user's ("mon", "mi"), or the user's and others'
    mine: tuple[str, ...]
    #: relationship words (lower case) and their English reading
    relationships: Mapping[str, str]
    #: words that make the relationship after them one that ended ("ex", "ancienne")
    former: tuple[str, ...] = ()
    #: words between a possessive and a relationship word, or after it, saying nothing
    #: of who the person is ("petit", "aînée", "mayor", "nouvelle")
    adjectives: frozenset[str] = frozenset()
    #: how a name is given: "s'appelle", "se llama", "heißt"; and the pronouns that may
    #: come between who is named and it ("ma cheffe qui s'appelle", "mon collègue, il
    #: s'appelle")
    naming: tuple[str, ...] = ()
    pronouns: tuple[str, ...] = ()
    #: kinds of pet and their English reading
    pets: Mapping[str, str] = field(default_factory=dict)
    #: the user's breakup with someone named: "{name} et moi c'est fini"
    breakups: tuple[str, ...] = ()
    #: the user's new romance with someone named: "je sors avec {name}", "{name} me pediu
    #: em casamento" (the partner's step, engaged, is ``partner_steps``)
    dating: tuple[str, ...] = ()
    #: the user seeing someone not yet named, whom a name given next is:
    #: "estoy conociendo a alguien. se llama Bruno"
    someone_met: str = ""
    #: the user's own engagement or wedding, as ``Language.partner_steps``
    partner_steps: tuple[tuple[str, str], ...] = ()
    #: words that are never a name (beyond the language's function words)
    not_names: frozenset[str] = frozenset()
    #: titles before a name, which make the word after them a name in any case ("mein
    #: chef herr bremen", "o sr. santos"); the person is also called with them
    titles: tuple[str, ...] = ()
    #: kin words said before a name as a title ("onkel bruno", "tia rosa"): the
    #: person is also called so, and by that alone where the name is a pet's
    kin_titles: tuple[str, ...] = ()
    #: the verb "to be" as who someone is: "meine chefin ist frau dr. henning", "mira
    #: ist jetzt meine freundin"; the articles a name may take after it ("é a juliana")
    copulas: tuple[str, ...] = ()
    articles: tuple[str, ...] = ()
    #: words that may stand around the copula or a naming verb and say nothing of who
    #: ("jetzt", "offiziell", "auch", "agora", "oficialmente")
    adverbs: frozenset[str] = frozenset()
    #: how a question says "I" or "my" ("je", "j'", "mon"; a verb that says it alone,
    #: "¿dónde vivo?"): a regex, as ``Language.asks_of_self``
    me: str = ""
    #: what a question asks the value of, as ``Language.asks``: "j'habite où
    #: maintenant ?" asks a location, "je bosse où ?" an employer
    asks: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: the user's own changes a sentence claims, as ``Language.claims``: where they live
    #: ("moro em pinheiros", "ich wohne in altona"), where they work, their job, their
    #: diet; a plan, a supposition or someone else's change claims nothing
    claims: tuple[tuple[str, str], ...] = ()
    #: words of time a question asks by, and past tenses that say "used to" ("früher",
    #: "agora", "morava"), with their English reading (``Language.time_patterns``)
    time_words: Mapping[str, str] = field(default_factory=dict)
    #: a question whether something still holds ("eu ainda sou vegana?"), a regex
    still_question: str = ""
    #: a question about what the assistant said or suggested ("c'était quoi l'appli que tu
    #: m'as conseillée ?"), a regex, as ``Language.asks_the_assistant``
    asks_the_assistant: str = ""
    #: whether the language writes its nouns with a capital (German): a capital after
    #: "ist" is no sign of a name there ("mein Vater ist Rentner")
    capitalises_nouns: bool = False
    #: a move to another place, a regex, as ``Language.moves_to``
    moves_to: str = ""
    #: where the speaker came from, a regex with a group ``before``, as
    #: ``Language.left_from``
    left_from: str = ""
    #: the months' names, as ``Language.months``: full names, and short ones only where
    #: no word is written so (Portuguese "set", "out" are words)
    months: Mapping[str, int] = field(default_factory=dict)


#: what the questions of ``Grammar.asks`` ask: where one lives, where one works
_LIVES = ("location",)
_WORKS = ("employer", "job")
_JOB = ("job",)
_DIET = ("diet",)


def _asks_work(
    where: str, verbs: str, firm: str
) -> tuple[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]]:
    """Questions about work, as ``Grammar.asks``: where one works or for which firm asks
    the employer ("onde eu trabalho agora"), a verb of working else the job or employer
    ("je bosse comme quoi")."""
    return (
        (rf"(?i)^(?=.*\b(?:{where})\b).*\b(?:{verbs})\b|\b(?:{firm})\b", ("employer",)),
        (rf"(?i)^(?!.*\b(?:{where})\b)(?!.*\b(?:{firm})\b).*\b(?:{verbs})\b", _WORKS),
    )


#: a word of a claim's value: letters first ("vento software", "são josé")
_WORD = r"[^\W\d_][\w'’&-]*"


def _value(stops: str) -> str:
    """A claim's value: up to three words, none of them one of ``stops`` (a regex
    alternation of the words that end it: "nordlicht in hamburg" is "nordlicht")."""
    word = rf"(?!(?:{stops})\b){_WORD}"
    return rf"(?P<value>{word}(?:[ \t]+{word}){{0,2}})"


def _claims(not_yet: str, *rules: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    """Claim rules (attribute, pattern) each read in its own sentence, none where a word
    of ``not_yet`` makes the sentence a plan, a wish or a supposition."""
    return tuple((attribute, in_own_sentence(body, not_yet)) for attribute, body in rules)


# -- claims -------------------------------------------------------------------------

#: German: what ends a claim's value, what makes a sentence no change, what may stand
#: between the verb and the place ("ich wohne jetzt seit 2 jahren in ...")
_DE_STOPS = (
    "in|im|am|an|auf|bei|nach|mit|seit|ab|und|oder|aber|weil|denn|da|als|wie|für|von|vom|"
    "zum|zur|zu|jetzt|gerade|schon|noch|erst|bald|endlich|wieder|dann|auch|ja|nein|lol|"
    "haha|ist|war|bin|sind|hab|habe|hat|gezogen|umgezogen|angefangen|gewechselt|gekündigt|"
    "unterschrieben|gefunden|bekommen|gemietet|gekauft|an|der|die|das|den|dem|des|ein|eine|"
    "einer|einem|ner|nem|mein|meine|meinem|meiner|unser|unsere|ich|mich|mir|wir|uns|er|sie|"
    "es|heute|morgen|gestern|nähe|hier|dort|ganz|nicht|kein|keine|mehr"
)
_DE_NOT_YET = (
    "wenn|falls|würde|würden|wäre|wären|hätte|hätten|könnte|könnten|vielleicht|eventuell|"
    "evtl|überlege|überlegen|plane|planen|möchte|möchten|will|wollen|wollte|wollten|träume|"
    "denk|denke|irgendwann|ob|suche|suchen|bewerbe|beworben"
)
#: what says a home is someone else's: their verb of living or moving, their possessive
_DE_THEIRS = "wohnt|lebt|zieht|sitzt|hat|seine|seiner|seinem|ihre|ihrer|ihrem|deren|dessen"
_DE_SOON = (
    r"(?:(?:jetzt|nun|gerade|inzwischen|mittlerweile|schon|noch|hier|wieder|endlich|"
    r"offiziell|fest|seit\s+[\w.]+(?:\s+(?:jahren|jahr|monaten|monat|wochen|woche))?|"
    r"ab\s+[\w.]+(?:\s+[\w.]+)?)\s+)*"
)
#: the user as who was made something: "ich wurde", "bin ich"
_DE_I_WAS = r"(?:ich\s+wurde|(?:ich\s+)?bin|(?:wurde|bin)\s+ich)"
_DE_ARTICLE = r"(?:(?:der|die|dem|den|einer|einem|ner|nem|'ner)\s+)?"
_DE_JOBS = (
    r"controller(?:in)?|(?:software)?entwickler(?:in)?|ingenieur(?:in)?|lehrer(?:in)?|arzt|"
    r"ärztin|pfleger(?:in)?|krankenschwester|designer(?:in)?|berater(?:in)?|manager(?:in)?|"
    r"analyst(?:in)?|buchhalter(?:in)?|verkäufer(?:in)?|werkstudent(?:in)?|"
    r"praktikant(?:in)?|azubi|(?:team|projekt|abteilungs)?leiter(?:in)?|referent(?:in)?|"
    r"sachbearbeiter(?:in)?|programmierer(?:in)?|erzieher(?:in)?|jurist(?:in)?|anwalt|"
    r"anwältin|architekt(?:in)?|koch|köchin|head\s+of\s+\w+"
)
_DE_V = _value(_DE_STOPS)
#: how a job is signed for in German ("hab die zusage!!! und unterschrieben."): said in
#: the message, it makes "ab 1. juli bin ich bei nordlicht" the user's new employer
_DE_SIGNED = (
    r"zusage|vertrag|unterschrieben|unterschrift|gekündigt|kündigung|neue[nr]?\s+job|"
    r"neue\s+stelle|probezeit|arbeitgeber"
)
_DE_DIETS = (
    r"vegan|veganer(?:in)?|vegetarisch|vegetarier(?:in)?|pescetarier(?:in)?|pescetarisch|"
    r"flexitarier(?:in)?"
)


def _when_told(cue: str, pattern: str) -> str:
    """``pattern`` read only in a message that also says ``cue`` (a regex alternation)."""
    return rf"(?i)^(?=[\s\S]*?\b(?:{cue}))[\s\S]*?{pattern.removeprefix('(?i)')}"


_DE_CLAIMS = (
    *_claims(
        _DE_NOT_YET,
        # "ich wohne jetzt in altona", "wohnen wir seit 2 jahren in köln"
        (
            "location",
            r"(?:(?:ich\s+)?(?:wohne|wohn|lebe|leb)|wir\s+(?:wohnen|leben)|(?:wohne|wohn|lebe|leb)\s+ich|"
            rf"(?:wohnen|leben)\s+wir)\s+{_DE_SOON}(?:in|im)\s+(?:der\s+|dem\s+)?{_DE_V}",
        ),
        # "ich bin im juni nach hamburg gezogen", "sind wir endlich umgezogen nach altona"
        (
            "location",
            r"(?:(?:ich\s+)?bin|bin\s+ich|wir\s+sind|sind\s+wir)\s+(?:\S+\s+){0,4}?"
            rf"(?:nach|in|ins)\s+{_DE_V}\s+(?:gezogen|umgezogen)",
        ),
        (
            "location",
            r"(?:(?:ich\s+)?bin|bin\s+ich|wir\s+sind|sind\s+wir)\s+(?:\S+\s+){0,4}?"
            rf"(?:gezogen|umgezogen)\s+(?:nach|in|ins)\s+{_DE_V}",
        ),
        # "ich ziehe im juni nach hamburg"
        (
            "location",
            r"(?:(?:ich\s+)?ziehe|ich\s+zieh|wir\s+ziehen|(?:ziehe|zieh)\s+ich|ziehen\s+wir)\s+"
            rf"(?:\S+\s+){{0,3}}?(?:nach|in|ins)\s+{_DE_V}",
        ),
        (
            "location",
            r"(?:meine|unsere)\s+(?:neue\s+)?(?:wohnung|whg|wg|bude)\s+(?:ist\s+)?in\s+"
            rf"(?:der\s+|dem\s+)?{_DE_V}",
        ),
        # "ich arbeite seit märz bei siemens", "ich bin seit 5 jahren controller bei ner
        # versicherung"
        (
            "employer",
            r"(?:(?:ich\s+)?arbeite|arbeite\s+ich|ich\s+arbeit|wir\s+arbeiten)\s+"
            rf"{_DE_SOON}(?:bei|für)\s+{_DE_ARTICLE}{_DE_V}",
        ),
        (
            "employer",
            rf"(?:(?:ich\s+)?bin|bin\s+ich)\s+{_DE_SOON}(?:als\s+)?(?:[\w-]+\s+)?(?:{_DE_JOBS})\s+"
            rf"bei\s+{_DE_ARTICLE}{_DE_V}",
        ),
        # "hab die zusage von nordlicht", "ich fange im mai bei otto an", "hab bei otto
        # unterschrieben"
        (
            "employer",
            r"(?:(?:ich\s+)?(?:hab|habe)|hab\s+ich|habe\s+ich)\s+(?:\S+\s+){0,2}?"
            rf"(?:zusage|vertrag|neuen\s+job|neue\s+stelle)\s+(?:von|bei)\s+{_DE_ARTICLE}{_DE_V}",
        ),
        (
            "employer",
            r"(?:ich\s+(?:fange|fang|starte)|(?:fange|fang|starte)\s+ich)\s+(?:\S+\s+){0,3}?"
            rf"bei\s+{_DE_ARTICLE}{_DE_V}\s+(?:an|als)\b",
        ),
        (
            "employer",
            r"(?:(?:ich\s+)?(?:hab|habe)|hab\s+ich|habe\s+ich)\s+(?:\S+\s+){0,3}?"
            rf"bei\s+{_DE_ARTICLE}{_DE_V}\s+(?:angefangen|unterschrieben|gestartet|bekommen)",
        ),
        # "zum teamleiter befördert", "befördert als head of controlling"
        (
            "job",
            rf"{_DE_I_WAS}\s+(?:\S+\s+){{0,3}}?befördert\s+(?:worden\s+)?(?:zum|zur|als)\s+{_DE_V}",
        ),
        ("job", rf"{_DE_I_WAS}\s+(?:\S+\s+){{0,3}}?(?:zum|zur)\s+{_DE_V}\s+befördert"),
        # "ich bin jetzt teamleiterin" (a job at a place is the employer, read above)
        (
            "job",
            rf"(?:(?:ich\s+)?bin|bin\s+ich)\s+{_DE_SOON}(?:die\s+neue\s+|der\s+neue\s+)?"
            rf"(?P<value>(?:[\w-]+\s+)?(?:{_DE_JOBS}))\b",
        ),
        (
            "diet",
            r"(?:ich\s+bin|bin\s+ich|ich\s+lebe|lebe\s+ich|ich\s+esse|esse\s+ich)\s+"
            rf"{_DE_SOON}(?P<value>{_DE_DIETS})\b",
        ),
        # a job lost: no employer now ("mir wurde gekündigt", "ich wurde entlassen")
        (
            "employer",
            r"(?:ich\s+wurde|mir\s+wurde|wurde\s+ich|(?:ich\s+)?bin)\s+"
            r"(?:(?:heute|gestern|jetzt|leider|einfach|fristlos|betriebsbedingt)\s+)*"
            r"(?:gekündigt|entlassen|rausgeschmissen|gefeuert)\b",
        ),
    ),
    # a home said with no one living in it named: "sitz hier in ehrenfeld in der wohnung",
    # "in altona, 2 zimmer, altbau", "wohnung in eimsbüttel gefunden"; someone else's
    # said with a verb of theirs ("timo wohnt in pankow, 3 zimmer") is theirs
    *_claims(
        rf"{_DE_NOT_YET}|{_DE_THEIRS}",
        ("location", rf"in\s+{_DE_V}\s+in\s+(?:der|meiner|unserer)\s+(?:wohnung|whg|wg|bude)\b"),
        ("location", rf"in\s+{_DE_V}\s*,\s*(?:\d+|zwei|drei|vier|fünf)[\s-]*(?:zimmer|zi)\b"),
        ("location", rf"neue\s+(?:wohnung|whg|wg|bude)\s+in\s+(?:der\s+|dem\s+)?{_DE_V}"),
        (
            "location",
            r"(?:(?:ich\s+)?(?:hab|habe)|(?:hab|habe)\s+ich|wir\s+haben|haben\s+wir)\s+"
            r"(?:\S+\s+){0,3}?(?:wohnung|whg|wg|haus)\s+in\s+"
            rf"{_DE_V}\s+(?:gefunden|bekommen|gemietet|gekauft)",
        ),
    ),
    # the first day set, the contract told in the message: "ab 1. juli bin ich bei
    # nordlicht in hamburg"
    (
        "employer",
        _when_told(
            _DE_SIGNED,
            in_own_sentence(
                rf"ab\s+[\w.]+(?:\s+[\w.]+)?\s+(?:bin\s+ich|ich\s+bin)\s+bei\s+{_DE_ARTICLE}{_DE_V}",
                _DE_NOT_YET,
            ),
        ),
    ),
)

#: Portuguese (Brazilian chat: "tô", "a gente", "pra")
_PT_STOPS = (
    "em|no|na|nos|nas|num|numa|de|do|da|dos|das|pra|pro|para|com|e|mas|porque|que|perto|"
    "aqui|lá|ali|agora|hoje|ontem|semana|mês|ano|desde|há|faz|até|depois|antes|também|já|"
    "ainda|kkk+|rs|haha+|tá|é|foi|era|sou|tô|meu|minha|nosso|nossa|o|a|os|as|um|uma|eu|ele|"
    "ela|sem|tipo|mais|muito|bem|só|então|aí|enquanto|quando|onde|como|dia|casa|equipe|outra|outro|"
    "mesmo|mesma|remoto|remota|segunda|terça|quarta|quinta|sexta|sábado|domingo"
)
_PT_NOT_YET = (
    r"se\s+(?:eu|a\s+gente|nós|der|rolar|for|fosse|tudo)|caso|talvez|quem\s+sabe|pensando|"
    "pensei|penso|querendo|quero|queria|queremos|gostaria|sonho|planejando|plano|planos|"
    "vou|vamos|iria|seria|poderia|será"
)
_PT_SOON = (
    r"(?:(?:agora|hoje|atualmente|ainda|já|também|aqui|lá|oficialmente|faz\s+\S+\s+\S+|"
    r"há\s+\S+\s+\S+|desde\s+\S+)\s+)*"
)
_PT_JOBS = (
    r"dev|desenvolvedor[a]?|programador[a]?|engenheir[oa]|analista|designer|gerente|"
    r"professor[a]?|enfermeir[oa]|médic[oa]|advogad[oa]|contador[a]?|estagiári[oa]|"
    r"arquitet[oa]|coordenador[a]?|vendedor[a]?|tech\s+lead|cientista\s+de\s+dados|"
    r"dentista|psicólog[oa]|nutricionista|jornalista|técnic[oa]|assistente|consultor[a]?|"
    r"diretor[a]?|veterinári[oa]"
)
_PT_V = _value(_PT_STOPS)
_PT_IN = r"(?:na|no|numa|num|em|da|do|pela|pelo)"
_PT_DIETS = (
    r"vegan[oa]|vegetarian[oa]|pescetarian[oa]|pescatarian[oa]|ovolactovegetarian[oa]|"
    r"flexitarian[oa]"
)
#: what says a home is someone else's: their possessive ("o apê novo dela")
_PT_THEIRS = "dela|dele|delas|deles|seu|sua"
_PT_CLAIMS = (
    *_claims(
        _PT_NOT_YET,
        # "moro em pinheiros", "a gente mora no batel"
        (
            "location",
            r"(?:moro|moramos|(?:a\s+gente|ela\s+e\s+eu|ele\s+e\s+eu)\s+(?:mora|vive)|vivemos|"
            r"(?:tô|to|estou|estamos|a\s+gente\s+tá)\s+morando)\s+"
            rf"{_PT_SOON}(?:em|no|na|nos|nas|num|numa)\s+{_PT_V}",
        ),
        # "mudei pra curitiba" (not "mudei o cabelo pra ruivo")
        ("location", rf"(?:mudei|mudamos|a\s+gente\s+mudou)\s+(?:pra|para|pro)\s+{_PT_V}"),
        # "a gente se mudou semana passada, bairro batel", "me mudei pra curitiba"
        (
            "location",
            r"(?:me\s+mudei|nos\s+mudamos|a\s+gente\s+se\s+mudou|"
            r"(?:mudei|mudamos|a\s+gente\s+mudou)\s+de\s+(?:casa|cidade|apê|apartamento|estado|país))"
            rf"\b[^.!?]*?\b(?:pra|para|pro|em|no|na|bairro)\s+{_PT_V}",
        ),
        # a home rented or bought: "aluguei um apê em pinheiros", "compramos uma casa no batel"
        (
            "location",
            r"(?:aluguei|alugamos|comprei|compramos|achei|achamos|a\s+gente\s+(?:alugou|comprou))\s+"
            rf"(?:um|uma|o|a)\s+(?:apê|apartamento|ap|casa|kitnet|studio)\s+(?:\S+\s+)?(?:em|no|na)\s+{_PT_V}",
        ),
        # "trabalho numa agência", "sou dev numa fintech aqui"
        (
            "employer",
            r"(?:trabalho|trabalhamos|(?:tô|to|estou|estamos|a\s+gente\s+tá)\s+trabalhando)\s+"
            rf"{_PT_SOON}(?:na|no|numa|num|em|pra|para)\s+"
            rf"(?:a\s+|o\s+)?{_PT_V}",
        ),
        ("employer", rf"sou\s+(?:{_PT_JOBS})(?:\s+[\w-]+)?\s+{_PT_IN}\s+{_PT_V}"),
        # a job got and started: "consegui uma vaga na vento", "vaga remota na vento
        # software, dev backend pleno, começo dia 5 de maio"
        (
            "employer",
            r"(?:consegui|aceitei|assinei|peguei)\s+(?:a\s+|uma\s+|o\s+)?"
            rf"(?:vaga|emprego|proposta|oferta|contrato)\s+(?:[\w-]+\s+){{0,2}}?{_PT_IN}\s+{_PT_V}",
        ),
        (
            "employer",
            rf"(?:vaga|emprego|proposta|oferta|contrato)\s+(?:[\w-]+\s+){{0,2}}?{_PT_IN}\s+{_PT_V}"
            r"(?=[^.!?]*\b(?:começo|comecei|entro|entrei|assinei|aceitei)\b)",
        ),
        (
            "employer",
            r"(?:comecei\s+a\s+(?:trabalhar|trampar)|fui\s+contratad[oa])\s+"
            rf"(?:na|no|numa|num|pela|pelo)\s+{_PT_V}",
        ),
        ("job", rf"(?:me\s+promoveram|fui\s+promovid[oa])\s+(?:pra|para|a)\s+{_PT_V}"),
        # a job lost: no employer now
        (
            "employer",
            r"(?:fui\s+demitid[oa]|me\s+demitiram|fui\s+mandad[oa]\s+embora|"
            r"perdi\s+(?:o\s+|meu\s+)emprego)\b",
        ),
        (
            "diet",
            rf"(?:sou|tô|estou|virei|fiquei|me\s+tornei)\s+{_PT_SOON}(?P<value>{_PT_DIETS})\b",
        ),
    ),
    # a new home said: "do apê novo em curitiba", "nossa casa nova no batel"
    *_claims(
        rf"{_PT_NOT_YET}|{_PT_THEIRS}",
        (
            "location",
            r"(?:(?:meu|minha|nosso|nossa)\s+(?:nov[oa]\s+)?(?:apê|apartamento|ap|casa|kitnet)|"
            rf"(?:apê|apartamento|ap|casa|kitnet)\s+nov[oa])\s+(?:em|no|na)\s+{_PT_V}",
        ),
    ),
)

#: Spanish
_ES_STOPS = (
    "en|el|la|los|las|un|una|de|del|al|a|con|para|por|y|e|o|pero|que|porque|cerca|aquí|"
    "allí|ahora|hoy|ayer|desde|hace|hasta|después|antes|también|ya|todavía|jaja+|es|fue|"
    "era|soy|estoy|mi|mis|nuestro|nuestra|yo|casa|remoto|lunes|martes|miércoles|jueves|"
    "viernes|sábado|domingo"
)
_ES_NOT_YET = (
    r"si|quizás|quizas|quizá|tal\s+vez|pienso|pensando|pensé|quiero|quería|quisiera|"
    "gustaría|ojalá|planeo|planeando|voy|vamos|iría|sería|podría"
)
_ES_SOON = (
    r"(?:(?:ahora|ya|todavía|actualmente|también|oficialmente|desde\s+\S+|hace\s+\S+\s+\S+)\s+)*"
)
_ES_V = _value(_ES_STOPS)
_ES_DIETS = r"vegan[oa]|vegetarian[oa]|pescetarian[oa]|pescatarian[oa]|flexitarian[oa]"
_ES_CLAIMS = _claims(
    _ES_NOT_YET,
    ("location", rf"(?:vivo|vivimos|(?:estoy|estamos)\s+viviendo)\s+{_ES_SOON}en\s+{_ES_V}"),
    # "me compré un vocho", "me pillé una transit custom"... a car by its make or model
    (
        "car",
        r"(?:compr[ée]|compramos|saqu[ée]|me\s+compr[ée]|me\s+pill[ée])\s+(?:un|una|el|la|mi)\s+"
        rf"(?:nuevo\s+|nueva\s+)?(?P<value>(?:{CARS})\b)",
    ),
    # "soy alérgica al maní", "me salió alergia a los mariscos"
    (
        "allergy",
        r"(?:al[ée]rgic[oa]s?|alergia)\s+(?:al|a\s+la|a\s+los|a\s+las|a)\s+"
        rf"(?P<value>{_WORD}(?:\s+de\s+{_WORD})?)",
    ),
    (
        "location",
        r"(?:me\s+mudé|nos\s+mudamos|(?:me\s+fui|nos\s+fuimos|me\s+vine|nos\s+vinimos)\s+a\s+vivir)\s+"
        rf"(?:\S+\s+){{0,3}}?(?:a|al|en|para)\s+(?:la\s+|el\s+)?{_ES_V}",
    ),
    (
        "location",
        r"(?:alquilé|alquilamos|rento|rentamos|compré|compramos|encontré|encontramos)\s+"
        r"(?:un|una|el|la)\s+(?:piso|depa|depto|departamento|apartamento|casa|estudio)\s+"
        rf"(?:\S+\s+)?en\s+{_ES_V}",
    ),
    (
        "location",
        r"(?:mi|nuestro|nuestra)\s+(?:nuevo\s+|nueva\s+)?(?:piso|depa|depto|departamento|"
        rf"apartamento|casa)\s+(?:nuevo\s+|nueva\s+)?en\s+{_ES_V}",
    ),
    (
        "employer",
        rf"(?:trabajo|trabajamos|(?:estoy|estamos)\s+trabajando)\s+{_ES_SOON}(?:en|para)\s+"
        rf"(?:la\s+|el\s+)?{_ES_V}",
    ),
    (
        "employer",
        r"(?:(?:empecé|empiezo|entré)\s+a\s+trabajar|me\s+contrataron|me\s+contrató)\s+"
        rf"(?:\S+\s+){{0,2}}?(?:en|con|para)\s+(?:la\s+|el\s+)?{_ES_V}",
    ),
    (
        "employer",
        r"(?:acepté|firmé)\s+(?:la\s+|una\s+|el\s+)?(?:oferta|propuesta|contrato|puesto)\s+"
        rf"(?:\S+\s+){{0,2}}?(?:de|en|con|para)\s+(?:la\s+|el\s+)?{_ES_V}",
    ),
    (
        "job",
        rf"(?:me\s+ascendieron|me\s+promovieron|me\s+promocionaron)\s+(?:a|como)\s+{_ES_V}",
    ),
    ("employer", r"(?:me\s+despidieron|me\s+echaron|perdí\s+(?:el|mi)\s+(?:trabajo|curro))\b"),
    ("diet", rf"(?:soy|estoy|me\s+hice|me\s+volví)\s+{_ES_SOON}(?P<value>{_ES_DIETS})\b"),
)

#: French
_FR_STOPS = (
    "à|a|au|aux|en|dans|sur|le|la|les|un|une|de|du|des|avec|pour|par|et|ou|mais|que|qui|"
    "car|près|ici|là|maintenant|aujourd'hui|hier|depuis|jusqu'à|après|avant|aussi|déjà|"
    "encore|mdr|lol|est|était|suis|mon|ma|mes|notre|nos|je|on|nous|chez|moi|lundi|mardi|"
    "mercredi|jeudi|vendredi|samedi|dimanche"
)
_FR_NOT_YET = (
    r"si|peut-être|peut-etre|pense|pensais|envisage|aimerais|voudrais|veux|voulais|rêve|"
    "compte|serait|pourrais|pourrait|irais"
)
_FR_SOON = (
    r"(?:(?:maintenant|désormais|encore|toujours|déjà|aussi|actuellement|enfin|officiellement|"
    r"depuis\s+\S+(?:\s+(?:ans|mois|semaines))?)\s+)*"
)
_FR_V = _value(_FR_STOPS)
_FR_AT = r"(?:à|a|au|aux|en|dans|sur)\s+(?:le\s+|la\s+|l['’])?"
_FR_DIETS = (
    r"végane?|vegane?|végétarienne?|vegetarienne?|végétarien|pescétarienne?|"
    r"pescetarienne?|flexitarienne?"
)
_FR_CLAIMS = _claims(
    _FR_NOT_YET,
    (
        "location",
        r"(?:j['’]habite|je\s+vis|on\s+(?:habite|vit)|nous\s+(?:habitons|vivons))\s+"
        rf"{_FR_SOON}{_FR_AT}{_FR_V}",
    ),
    (
        "location",
        r"(?:j['’]ai|je\s+suis|on\s+a|on\s+s['’]est|nous\s+avons|nous\s+sommes)\s+"
        r"(?:\S+\s+){0,2}?(?:déménagé|emménagé|installée?s?|partie?s?\s+vivre)\s+"
        rf"(?:\S+\s+){{0,2}}?{_FR_AT}{_FR_V}",
    ),
    # a home said to be one's own: "l'appart de la croix-rousse est à nous deux"
    (
        "location",
        r"(?:l['’]|mon\s+|notre\s+)(?:appart|appartement|studio|maison)\s+(?:de|à|a|dans|sur)\s+"
        rf"(?:la\s+|le\s+|l['’])?{_FR_V}\s+est\s+à\s+(?:moi|nous)\b",
    ),
    # a home found or rented: "j'ai trouvé un studio à villeurbanne"
    (
        "location",
        r"(?:j['’]ai|on\s+a|nous\s+avons)\s+(?:enfin\s+)?(?:trouvé|loué|acheté|pris|signé\s+pour)\s+"
        r"(?:un|une|notre|mon|ma)\s+(?:petit\s+|petite\s+|nouvel\s+|nouveau\s+|nouvelle\s+)?"
        rf"(?:appart|appartement|studio|logement|maison|t\d|f\d)\s+{_FR_AT}{_FR_V}",
    ),
    (
        "location",
        r"(?:(?:mon|notre)\s+(?:nouvel\s+|nouveau\s+)?(?:appart|appartement|studio|logement)|"
        rf"(?:ma|notre)\s+(?:nouvelle\s+)?(?:maison|coloc))\s+{_FR_AT}{_FR_V}",
    ),
    (
        "employer",
        rf"(?:je\s+(?:travaille|bosse|taffe)|on\s+(?:travaille|bosse))\s+{_FR_SOON}"
        rf"(?:chez|pour)\s+{_FR_V}",
    ),
    # "j'ai signé chez atelier tilleul", "j'ai commencé lundi chez decathlon"
    (
        "employer",
        r"(?:j['’]ai\s+signé|je\s+signe|j['’]ai\s+commencé|je\s+commence|"
        r"j['’]ai\s+été\s+embauchée?|je\s+suis\s+embauchée?|je\s+rejoins|j['’]ai\s+rejoint|"
        r"j['’]ai\s+accepté\s+(?:le\s+poste|l['’]offre|la\s+proposition))\s+"
        rf"(?:\S+\s+){{0,2}}?chez\s+{_FR_V}",
    ),
    (
        "job",
        r"(?:je\s+suis|j['’]ai\s+été)\s+promue?\s+(?:au\s+poste\s+de\s+|comme\s+)?"
        rf"{_FR_V}",
    ),
    (
        "employer",
        r"(?:j['’]ai\s+été\s+licenciée?|je\s+me\s+suis\s+fait\s+virer|"
        r"j['’]ai\s+perdu\s+mon\s+(?:boulot|travail|job|taf))\b",
    ),
    (
        "diet",
        rf"(?:je\s+suis|je\s+suis\s+devenue?|on\s+est)\s+{_FR_SOON}(?P<value>{_FR_DIETS})\b",
    ),
    # "du coup j'ai pris un kangoo d'occase", "on a acheté une clio"
    (
        "car",
        r"(?:j['’]ai|on\s+a|nous\s+avons)\s+(?:\S+\s+){0,2}?(?:pris|acheté|achete|eu)\s+"
        rf"(?:un|une|mon|ma|notre)\s+(?:nouvelle?\s+|nouvel\s+)?(?P<value>(?:{CARS})\b)",
    ),
    # "l'allergiste a confirmé: allergie aux noix de cajou", "je suis allergique au lait"
    (
        "allergy",
        r"(?:(?:je\s+suis|j['’]ai\s+une?)\s+(?:\S+\s+){0,2}?)?(?:allergique|allergie)\s+"
        rf"(?:aux|au|à\s+la|à\s+l['’]|à)\s*(?P<value>{_WORD}(?:\s+de\s+{_WORD})?)",
    ),
)

#: Italian
_IT_STOPS = (
    "a|ad|in|al|allo|alla|ai|agli|alle|nel|nella|nei|nelle|da|dal|dalla|di|del|della|con|"
    "per|e|ed|o|ma|che|perché|vicino|qui|qua|lì|là|ora|adesso|oggi|ieri|fino|dopo|prima|"
    "anche|già|ancora|è|era|sono|mio|mia|miei|nostro|nostra|io|noi|casa|il|lo|la|i|gli|le|"
    "un|uno|una|lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica"
)
_IT_NOT_YET = (
    "se|magari|forse|penso|pensando|pensavo|vorrei|voglio|volevo|sogno|sarebbe|potrei|andrei"
)
_IT_SOON = r"(?:(?:ora|adesso|già|ancora|anche|attualmente|ufficialmente)\s+)*"
_IT_V = _value(_IT_STOPS)
_IT_AT = r"(?:a|ad|in|al|nel|nella|vicino\s+a)"
_IT_DIETS = r"vegan[oa]?|vegetarian[oa]|pescetarian[oa]|flexitarian[oa]"
_IT_CLAIMS = _claims(
    _IT_NOT_YET,
    ("location", rf"(?:abito|abitiamo|vivo|viviamo)\s+{_IT_SOON}{_IT_AT}\s+{_IT_V}"),
    (
        "location",
        r"(?:mi\s+sono\s+trasferit[oa]|ci\s+siamo\s+trasferit[ie]|ho\s+traslocato|"
        r"abbiamo\s+traslocato|sono\s+andat[oa]\s+a\s+vivere|siamo\s+andat[ie]\s+a\s+vivere)"
        rf"\s+(?:\S+\s+){{0,2}}?{_IT_AT}\s+{_IT_V}",
    ),
    (
        "location",
        r"(?:ho|abbiamo)\s+(?:trovato|preso|affittato|comprato)\s+(?:casa|un\s+appartamento|"
        rf"un\s+monolocale|un\s+bilocale)\s+{_IT_AT}\s+{_IT_V}",
    ),
    (
        "employer",
        rf"(?:lavoro|lavoriamo)\s+{_IT_SOON}(?:da|per|presso|alla|al|in|nella|nel)\s+{_IT_V}",
    ),
    (
        "employer",
        r"(?:ho\s+firmato\s+con|sono\s+stat[oa]\s+assunt[oa]|mi\s+hanno\s+assunt[oa]|"
        r"ho\s+iniziato\s+a\s+lavorare|ho\s+cominciato\s+a\s+lavorare)\s+"
        rf"(?:(?:da|presso|in|alla|al|nella|nel)\s+)?{_IT_V}",
    ),
    (
        "job",
        rf"(?:mi\s+hanno\s+promoss[oa]|sono\s+stat[oa]\s+promoss[oa])\s+(?:a\s+|come\s+)?{_IT_V}",
    ),
    (
        "employer",
        r"(?:mi\s+hanno\s+licenziat[oa]|sono\s+stat[oa]\s+licenziat[oa]|"
        r"ho\s+perso\s+il\s+(?:lavoro|posto))\b",
    ),
    ("diet", rf"(?:sono|sono\s+diventat[oa])\s+{_IT_SOON}(?P<value>{_IT_DIETS})\b"),
)

#: The city one stays in, a move not made ("wir bleiben in hamburg", "decidi ficar em
#: curitiba", "nos quedamos en sevilla", "on reste à lyon", "restiamo a torino"): the
#: ``city`` beside the home, as English reads "staying in toronto"; and the questions
#: that ask it ("in welcher stadt wohne ich?"), each before the one asking the home
_STAYS: dict[str, tuple[tuple[str, str], ...]] = {
    "de": _claims(
        _DE_NOT_YET,
        (
            "city",
            r"(?:(?:ich\s+)?bleibe|ich\s+bleib|wir\s+bleiben|bleibe\s+ich|bleiben\s+wir)\s+"
            rf"{_DE_SOON}(?:also\s+|doch\s+)?in\s+{_DE_V}",
        ),
    ),
    "pt": _claims(
        _PT_NOT_YET,
        (
            "city",
            r"(?:decidi|decidimos|resolvi|resolvemos|a\s+gente\s+decidiu)\s+"
            rf"(?:ficar|continuar)\s+(?:em|no|na)\s+(?!casa\b){_PT_V}",
        ),
    ),
    "es": _claims(
        _ES_NOT_YET,
        (
            "city",
            r"(?:me\s+quedo|nos\s+quedamos|decid[ií]\s+quedarme|decidimos\s+quedarnos)\s+"
            rf"en\s+{_ES_V}",
        ),
    ),
    "fr": _claims(
        _FR_NOT_YET,
        (
            "city",
            r"(?:je\s+reste|on\s+reste|nous\s+restons|(?:j['’]ai|on\s+a|nous\s+avons)\s+"
            rf"décidé\s+de\s+rester)\s+(?:à|a)\s+(?!la\b|le\b|l['’]|la\s+maison\b){_FR_V}",
        ),
    ),
    "it": _claims(
        _IT_NOT_YET,
        (
            "city",
            r"(?:resto|restiamo|rimango|rimaniamo|(?:ho|abbiamo)\s+deciso\s+di\s+"
            rf"(?:restare|rimanere))\s+a\s+(?!casa\b){_IT_V}",
        ),
    ),
}
_CITY = ("city", "location")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


FRENCH = Grammar(
    left_from=r"(?i)\b(?:quitt[ée]|(?:d[ée]m[ée]nag[ée]s?|partis?|parties?)\s+d[eu]|bye\s+bye)\s+"
    r"(?:(?:la|le|mon|ma)\s+)?(?P<before>[\w'’-]+(?:\s+[\w'’-]+)?)",
    months=months_numbered(
        "janvier/janv",
        "février/fevrier/févr",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet/juil",
        "août/aout",
        "septembre",
        "octobre",
        "novembre",
        "décembre/decembre/déc",
    ),
    asks_the_assistant=(
        r"(?i)\b(?:tu|vous)\s+(?:m|nous)['’](?:as|avais|avez|aviez)\s+(?:\w+\s+)?"
        r"(?:conseill|recommand|suggér|propos|dit|donn|parl)\w*"
    ),
    code="fr",
    name="French",
    mine=("mon", "ma", "mes", "notre", "nos"),
    relationships={
        "mère": "mother",
        "maman": "mother",
        "père": "father",
        "papa": "father",
        "parents": "parent",
        "sœur": "sister",
        "soeur": "sister",
        "frère": "brother",
        "frérot": "brother",
        "fils": "son",
        "fille": "daughter",
        "femme": "wife",
        "épouse": "wife",
        "mari": "husband",
        "époux": "husband",
        "copain": "boyfriend",
        "copine": "girlfriend",
        "petit ami": "boyfriend",
        "petite amie": "girlfriend",
        "mec": "boyfriend",
        "meuf": "girlfriend",
        # Quebec: "mon chum mathieu", "elle est ma blonde maintenant"
        "chum": "boyfriend",
        "blonde": "girlfriend",
        "compagnon": "partner",
        "compagne": "partner",
        "conjoint": "partner",
        "conjointe": "partner",
        "fiancé": "fiancé",
        "fiancée": "fiancée",
        "cousin": "cousin",
        "cousine": "cousin",
        "tante": "aunt",
        "tata": "aunt",
        "oncle": "uncle",
        "tonton": "uncle",
        "nièce": "niece",
        "neveu": "nephew",
        "grand-mère": "grandmother",
        "mamie": "grandmother",
        "grand-père": "grandfather",
        "papi": "grandfather",
        "papy": "grandfather",
        "belle-mère": "mother-in-law",
        "beau-père": "father-in-law",
        "belle-sœur": "sister-in-law",
        "beau-frère": "brother-in-law",
        "meilleure amie": "best friend",
        "meilleur ami": "best friend",
        "meilleure pote": "best friend",
        "meilleur pote": "best friend",
        "amie": "friend",
        "ami": "friend",
        "pote": "friend",
        "copine de fac": "friend",
        "colocataire": "roommate",
        "coloc": "roommate",
        "voisin": "neighbour",
        "voisine": "neighbour",
        "collègue": "coworker",
        "chef": "boss",
        "cheffe": "boss",
        "patron": "boss",
        "patronne": "boss",
        "manager": "manager",
        "responsable": "manager",
        "associé": "business partner",
        "associée": "business partner",
        "prof": "teacher",
        "professeur": "teacher",
        "directeur de recherche": "supervisor",
        "directrice de recherche": "supervisor",
        "directeur de thèse": "supervisor",
        "directrice de thèse": "supervisor",
        "superviseur": "supervisor",
        "superviseure": "supervisor",
        "médecin": "doctor",
        "docteur": "doctor",
        "psy": "therapist",
        "coach": "coach",
        "proprio": "landlord",
        "propriétaire": "landlord",
        "ex": "ex",
    },
    former=("ex", "ex-", "ancien", "ancienne"),
    adjectives=_words("petit petite grand grande aîné aînée cadet cadette nouveau nouvelle nouvel"),
    pronouns=("qui", "il", "elle"),
    naming=("s'appelle", "s’appelle", "se nomme", "nommé", "nommée", "appelé", "appelée"),
    pets={
        "chat": "cat",
        "chatte": "cat",
        "chaton": "cat",
        "chien": "dog",
        "chienne": "dog",
        "chiot": "dog",
        "lapin": "rabbit",
        "perroquet": "parrot",
    },
    breakups=(
        r"\b{name}\s+et\s+moi,?\s+c'est\s+(?:fini|terminé)",
        r"\b(?:j'ai|on\s+a|nous\s+avons)\s+rompu\s+avec\s+{name}",
        r"\b{name}\s+(?:m'a\s+quittée?|et\s+moi\s+(?:on\s+a\s+rompu|on\s+a\s+cassé|"
        r"on\s+s'est\s+séparée?s|on\s+s'est\s+laissée?s))",
        r"\b(?:j'ai|on\s+a)\s+cassé\s+avec\s+{name}",
        r"\bje\s+(?:suis\s+séparée?|me\s+suis\s+séparée?)\s+de\s+{name}",
    ),
    someone_met=(
        r"\b(?:je\s+vois|je\s+fréquente|j'ai\s+rencontré|je\s+sors\s+avec)\s+"
        r"(?:quelqu'un|un\s+mec|une\s+fille|un\s+gars|un\s+homme|une\s+femme)\b"
    ),
    dating=(
        r"\bje\s+sors\s+avec\s+{name}",
        r"\bavec\s+{name},?\s+on\s+se\s+(?:voit|fréquente)\s+depuis",
        r"\b{name}\s+et\s+moi,?\s+on\s+(?:se\s+voit|sort\s+ensemble)",
        r"\b{name}\s+m['’]a\s+demandée?\s+en\s+mariage",
        # Quebec: "c'est officiel avec sofia", said of the one the user now dates
        r"\bc['’]est\s+officiel\s+avec\s+{name}",
    ),
    partner_steps=(
        ("ended", r"\b(?:on\s+a|nous\s+avons)\s+rompu\b|\bc'est\s+fini\s+entre\s+nous\b"),
        (
            "engaged",
            r"\bon\s+s'est\s+fiancés\b|\bnous\s+nous\s+sommes\s+fiancés\b"
            r"|\bm['’]a\s+demandée?\s+en\s+mariage\b",
        ),
        (
            "married",
            r"\bon\s+s'est\s+mariés\b|\bnous\s+nous\s+sommes\s+mariés\b"
            r"|\bje\s+me\s+suis\s+mariée?\b",
        ),
    ),
    titles=("monsieur", "madame", "mademoiselle", "mme", "mlle", "dr", "docteure"),
    kin_titles=("tante", "tata", "oncle", "tonton", "mamie", "papi", "papy"),
    copulas=("est", "c'est", "était"),
    articles=("le", "la", "l'"),
    adverbs=_words("maintenant désormais officiellement aussi enfin toujours"),
    me=r"(?i)\b(?:je|moi|mon|ma|mes|notre|nos)\b|\b[jm]['’]",
    asks=(
        (
            r"(?i)\bquelle\s+ville\b",
            _CITY,
        ),
        (
            r"(?i)\b(?:habite|habitais|habité|vis|vivais|vécu|habitons|vivons|déménagé|"
            r"emménagé|quartier|ville)\b|\badresse\b",
            _LIVES,
        ),
        *_asks_work(
            "où",
            r"travaille|travaillais|travaillé|bosse|bossais|bossé|taffe|quel(?:le)?\s+(?:boulot|taf)",
            r"quel(?:le)?\s+(?:boîte|entreprise|société)|employeur",
        ),
        (r"(?i)\b(?:poste|métier|profession)\b", _JOB),
        (r"(?i)\b(?:végane?|vegane?|végétarien\w*|pescétarien\w*|régime|viande)\b", _DIET),
        (r"(?i)\b(?:voiture|bagnole|caisse|conduis|conduisais)\b", ("car",)),
        (r"(?i)\ballergi", ("allergy",)),
    ),
    claims=(*_FR_CLAIMS, *_STAYS["fr"]),
    moves_to=r"(?i)\b(?:déménagé|démenagé)\s+(?:à|a|au|en)\b",
    time_words={
        "maintenant": "now",
        "actuellement": "currently",
        "actuel": "current",
        "actuelle": "current",
        "en ce moment": "at the moment",
        "toujours": "still",
        "encore": "still",
        "avant": "before",
        "auparavant": "previously",
        "autrefois": "in the past",
        "habitais": "used to live",
        "vivais": "used to live",
        "travaillais": "used to work",
        "bossais": "used to work",
    },
    still_question=r"(?i)\b(?:toujours|encore)\b",
    not_names=_words(
        """bon bref enfin alors donc puis ensuite aussi encore toujours jamais déjà juste
        oui non ouais ah bah ben coucou salut merci ok lol mdr ptdr hier demain aujourd'hui
        ce soir matin midi là ici chez avec pour sans sur sous vers par de du des le la
        les un une qui que quoi il elle on ils elles est a était sont fait dit va vient
        lui moi toi eux ça ce cela voici voilà"""
    ),
)

SPANISH = Grammar(
    left_from=r"(?i)\b(?:me\s+(?:mud[ée]|fui)|nos\s+(?:mudamos|fuimos)|sal[íi]|dej[ée])\s+(?:del?\s+)?"
    r"(?:(?:la|el|mi)\s+)?(?P<before>[\w'’-]+(?:\s+[\w'’-]+)?)",
    months=months_numbered(
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre/setiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ),
    asks_the_assistant=(
        r"(?i)\b(?:me|nos)\s+(?:recomendaste|sugeriste|dijiste|diste|aconsejaste|pasaste|"
        r"habías\s+recomendado|has\s+recomendado)\b"
    ),
    code="es",
    name="Spanish",
    mine=("mi", "mis", "nuestro", "nuestra", "nuestros", "nuestras"),
    relationships={
        "madre": "mother",
        "mamá": "mother",
        "mama": "mother",
        "mami": "mother",
        "padre": "father",
        "papá": "father",
        "papi": "father",
        "padres": "parent",
        "hermana": "sister",
        "hermano": "brother",
        "hermanita": "sister",
        "hermanito": "brother",
        "hijo": "son",
        "hija": "daughter",
        "esposa": "wife",
        "mujer": "wife",
        "esposo": "husband",
        "marido": "husband",
        "novio": "boyfriend",
        "novia": "girlfriend",
        "pareja": "partner",
        "prometido": "fiancé",
        "prometida": "fiancée",
        "primo": "cousin",
        "prima": "cousin",
        "tía": "aunt",
        "tia": "aunt",
        "tío": "uncle",
        "tio": "uncle",
        "sobrina": "niece",
        "sobrino": "nephew",
        "abuela": "grandmother",
        "abuelita": "grandmother",
        "abuelo": "grandfather",
        "abuelito": "grandfather",
        "suegra": "mother-in-law",
        "suegro": "father-in-law",
        "cuñada": "sister-in-law",
        "cuñado": "brother-in-law",
        "madrina": "godmother",
        "padrino": "godfather",
        "mejor amiga": "best friend",
        "mejor amigo": "best friend",
        "amiga": "friend",
        "amigo": "friend",
        "compañera de piso": "roommate",
        "compañero de piso": "roommate",
        "roomie": "roommate",
        "vecina": "neighbour",
        "vecino": "neighbour",
        "compañera de trabajo": "coworker",
        "compañero de trabajo": "coworker",
        "colega": "coworker",
        "jefa": "boss",
        "jefe": "boss",
        "socia": "business partner",
        "socio": "business partner",
        "profesora": "teacher",
        "profesor": "teacher",
        "profe": "teacher",
        "doctora": "doctor",
        "doctor": "doctor",
        "médica": "doctor",
        "médico": "doctor",
        "entrenador": "coach",
        "entrenadora": "coach",
        "casero": "landlord",
        "casera": "landlord",
        "ex": "ex",
    },
    former=("ex", "ex-", "antigua", "antiguo"),
    adjectives=_words("mayor menor pequeña pequeño chiquita chiquito nueva nuevo querida querido"),
    pronouns=("que",),
    naming=("se llama", "llamada", "llamado"),
    pets={
        "gato": "cat",
        "gata": "cat",
        "gatito": "cat",
        "gatita": "cat",
        "perro": "dog",
        "perra": "dog",
        "perrito": "dog",
        "perrita": "dog",
        "galgo": "dog",
        "galga": "dog",
        "conejo": "rabbit",
    },
    breakups=(
        r"\b{name}\s+y\s+yo\s+(?:terminamos|cortamos|rompimos|nos\s+separamos|ya\s+no\s+estamos)",
        r"\b(?:terminé|corté|rompí)\s+con\s+{name}",
        r"\bme\s+(?:separé|divorcié)\s+de\s+{name}",
    ),
    someone_met=(
        r"\b(?:conociendo|conocido|conoc[ií]|saliendo\s+con|viendo)\s+(?:a\s+)?"
        r"(?:alguien|un\s+chico|una\s+chica|un\s+tipo|un\s+hombre|una\s+mujer)\b"
    ),
    dating=(
        r"\b(?:estoy\s+saliendo|salgo)\s+con\s+{name}",
        r"\b{name}\s+y\s+yo\s+(?:ya\s+)?(?:estamos\s+saliendo|somos\s+novios|vamos\s+en\s+serio)",
        r"\b{name}\s+me\s+pidi[óo]\s+(?:matrimonio|casamiento|la\s+mano)",
    ),
    partner_steps=(
        ("ended", r"\b(?:rompimos|cortamos|nos\s+separamos)\b|\bya\s+no\s+estamos\s+juntos\b"),
        (
            "engaged",
            r"\bnos\s+comprometimos\b|\bme\s+pidió\s+matrimonio\b|\bnos\s+vamos\s+a\s+casar\b",
        ),
        ("married", r"\bnos\s+casamos\b|\bya\s+estamos\s+casados\b|\bme\s+casé\b"),
    ),
    titles=("señor", "señora", "señorita", "sr", "sra", "srta", "don", "doña", "dr", "dra"),
    kin_titles=("tía", "tia", "tío", "tio", "abuela", "abuelo", "abuelita", "abuelito"),
    copulas=("es", "era"),
    articles=("el", "la"),
    adverbs=_words("ahora ya oficialmente también tambien finalmente por fin hace"),
    me=r"(?i)\b(?:yo|mi|mis|me|nosotros|nuestro|nuestra|vivo|vivía|trabajo|trabajaba|tengo|tenía|tenia)\b",
    asks=(
        (
            r"(?i)\bqu[eé]\s+ciudad\b",
            _CITY,
        ),
        (
            r"(?i)\b(?:vivo|vivía|viví|vivimos|mudé|mudamos|barrio|ciudad)\b|\bdirecci[oó]n\b",
            _LIVES,
        ),
        # a number to call: "cual era mi numero del curro" (the work phone, not the work)
        (r"(?i)\b(?:n[uú]mero|m[oó]vil|celular|tel[eé]fono)\b", ("phone",)),
        *_asks_work("d[oó]nde", "trabajo|trabajaba|trabajé|trabajamos|curro|empleo", "empresa"),
        (r"(?i)\b(?:puesto|cargo|profesión)\b", _JOB),
        (r"(?i)\b(?:vegan[oa]|vegetarian[oa]|pescetarian[oa]|dieta|carne)\b", _DIET),
        (r"(?i)\b(?:carro|coche|auto|manejo|manejaba|nave|furgo|furgoneta)\b", ("car",)),
        (r"(?i)\bal[ée]rgi", ("allergy",)),
    ),
    claims=(*_ES_CLAIMS, *_STAYS["es"]),
    moves_to=r"(?i)\b(?:me\s+mudé|me\s+mude|nos\s+mudamos)\s+a\b",
    time_words={
        "ahora": "now",
        "ahorita": "now",
        "actualmente": "currently",
        "actual": "current",
        "hoy en día": "nowadays",
        "todavía": "still",
        "aún": "still",
        "antes": "before",
        "anteriormente": "previously",
        "vivía": "used to live",
        "trabajaba": "used to work",
    },
    still_question=r"(?i)\b(?:todav[ií]a|a[uú]n|sigo)\b",
    not_names=_words(
        """bueno pues entonces también tambien todavía siempre nunca ya solo sí si no ay
        hola gracias ok lol jaja ayer mañana hoy esta este noche aquí allí con sin para por
        en de del el la los las un una que quien es está esta fue dice va viene él ella
        eso ese esa"""
    ),
)

PORTUGUESE = Grammar(
    left_from=r"(?i)\b(?:sa[íi]|sa[íi]mos|mudei|mudamos|deixei)\s+d[aoe]s?\s+(?P<before>[\w'’-]+(?:\s+[\w'’-]+)?)",
    months=months_numbered(
        "janeiro",
        "fevereiro",
        "março/marco",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ),
    asks_the_assistant=(
        r"(?i)\b(?:você|vc|tu)\s+(?:me\s+|nos\s+)?(?:recomendou|sugeriu|indicou|passou|"
        r"falou|disse|deu|recomendaste|sugeriste)\b"
    ),
    code="pt",
    name="Portuguese",
    mine=("meu", "minha", "meus", "minhas", "nosso", "nossa", "nossos", "nossas"),
    relationships={
        "mãe": "mother",
        "mamãe": "mother",
        "pai": "father",
        "papai": "father",
        "pais": "parent",
        "irmã": "sister",
        "irmão": "brother",
        "filho": "son",
        "filha": "daughter",
        "esposa": "wife",
        "mulher": "wife",
        "marido": "husband",
        "esposo": "husband",
        "namorado": "boyfriend",
        "namorada": "girlfriend",
        "noivo": "fiancé",
        "noiva": "fiancée",
        "primo": "cousin",
        "prima": "cousin",
        "tia": "aunt",
        "tio": "uncle",
        "sobrinha": "niece",
        "sobrinho": "nephew",
        "avó": "grandmother",
        "vó": "grandmother",
        "avô": "grandfather",
        "vô": "grandfather",
        "sogra": "mother-in-law",
        "sogro": "father-in-law",
        "cunhada": "sister-in-law",
        "cunhado": "brother-in-law",
        "madrinha": "godmother",
        "padrinho": "godfather",
        "melhor amiga": "best friend",
        "melhor amigo": "best friend",
        "amiga": "friend",
        "amigo": "friend",
        "colega de quarto": "roommate",
        "vizinha": "neighbour",
        "vizinho": "neighbour",
        "colega de trabalho": "coworker",
        "colega": "coworker",
        "chefe": "boss",
        "gestora": "manager",
        "gestor": "manager",
        "sócia": "business partner",
        "sócio": "business partner",
        "professora": "teacher",
        "professor": "teacher",
        "médica": "doctor",
        "médico": "doctor",
        "ex": "ex",
    },
    former=("ex", "ex-", "antiga", "antigo"),
    adjectives=_words("mais velha velho nova novo caçula pequena pequeno querida querido"),
    pronouns=("que", "ele", "ela"),
    naming=("se chama", "chama-se", "chama", "chamada", "chamado"),
    pets={
        "gato": "cat",
        "gata": "cat",
        "gatinho": "cat",
        "gatinha": "cat",
        "cachorro": "dog",
        "cachorra": "dog",
        "cachorrinho": "dog",
        "cadela": "dog",
    },
    breakups=(
        r"\b{name}\s+e\s+eu\s+(?:terminamos|nos\s+separamos)",
        r"\bterminei\s+com\s+{name}",
        r"\bme\s+separei\s+d[oae]\s+{name}",
    ),
    someone_met=(
        r"\b(?:conhecendo|saindo\s+com|ficando\s+com)\s+"
        r"(?:alguém|um\s+cara|uma\s+menina|uma\s+garota|um\s+rapaz|uma\s+mulher)\b"
    ),
    dating=(
        r"\b(?:estou|tô|to)\s+(?:namorando|saindo)\s+(?:com\s+)?(?:[oa]\s+)?{name}",
        r"\b{name}\s+e\s+eu\s+estamos\s+(?:namorando|saindo)",
        r"\b{name}\s+me\s+pediu\s+em\s+casamento",
    ),
    partner_steps=(
        ("ended", r"\bterminamos\s+o\s+namoro\b|\ba\s+gente\s+terminou\b|\bnos\s+separamos\b"),
        ("engaged", r"\bficamos\s+noivos\b|\bme\s+pediu\s+em\s+casamento\b"),
        ("married", r"\b(?:nos\s+)?casamos\b|\bcasei\b"),
    ),
    titles=("senhor", "senhora", "sr", "sra", "srta", "dona", "dr", "dra"),
    kin_titles=("tia", "tio", "vó", "vô", "vovó", "vovô"),
    copulas=("é", "era"),
    articles=("o", "a"),
    adverbs=_words("agora já oficialmente também tambem finalmente"),
    me=r"(?i)\b(?:eu|meu|minha|meus|minhas|me|nosso|nossa|moro|morava|trabalho|trabalhava)\b",
    asks=(
        (
            r"(?i)\b(?:qual|que)\s+cidade\b",
            _CITY,
        ),
        (
            r"(?i)\b(?:moro|morava|morei|moramos|vivo|vivia|mudei|mudamos|bairro|cidade)\b"
            r"|\bendereço\b",
            _LIVES,
        ),
        *_asks_work("onde", "trabalho|trabalhava|trabalhei|trabalhamos|emprego", "empresa"),
        (r"(?i)\b(?:cargo|função|profissão)\b", _JOB),
        (r"(?i)\b(?:vegan[oa]|vegetarian[oa]|pescetarian[oa]|dieta|carne)\b", _DIET),
    ),
    claims=(*_PT_CLAIMS, *_STAYS["pt"]),
    moves_to=r"(?i)\b(?:mudei|mudamos|a\s+gente\s+mudou)\s+(?:pra|para|pro)\b",
    time_words={
        "agora": "now",
        "atualmente": "currently",
        "atual": "current",
        "hoje em dia": "nowadays",
        "ainda": "still",
        "antes": "before",
        "antigamente": "in the past",
        "anteriormente": "previously",
        "morava": "used to live",
        "trabalhava": "used to work",
    },
    still_question=r"(?i)\bainda\b",
    not_names=_words(
        """bom então também ainda sempre nunca já só sim não ai oi olá obrigada obrigado ok
        kkk ontem amanhã hoje noite aqui ali com sem para por em de do da o a os as um uma
        que quem é está foi diz vai vem ele ela você isso esse essa este esta aquele
        aquela"""
    ),
)

GERMAN = Grammar(
    months=months_numbered(
        "januar/jänner",
        "februar",
        "märz/maerz",
        "april",
        "mai",
        "juni",
        "juli",
        "august",
        "september",
        "oktober",
        "november",
        "dezember",
    ),
    asks_the_assistant=(
        r"(?i)\b(?:hast|hattest)\s+du\s+(?:mir|uns)\b[^?.!]*?\b(?:empfohlen|vorgeschlagen|"
        r"gesagt|geraten|gegeben|genannt)\b|\bdu\s+(?:hast|hattest)\s+mir\b"
    ),
    code="de",
    name="German",
    mine=(
        "mein",
        "meine",
        "meinen",
        "meinem",
        "meiner",
        "unser",
        "unsere",
        "unseren",
        "unserem",
        "unserer",
    ),
    relationships={
        "mutter": "mother",
        "mama": "mother",
        "mutti": "mother",
        "vater": "father",
        "papa": "father",
        "eltern": "parent",
        "schwester": "sister",
        "bruder": "brother",
        "sohn": "son",
        "tochter": "daughter",
        "frau": "wife",
        "ehefrau": "wife",
        "mann": "husband",
        "ehemann": "husband",
        "freund": "boyfriend",
        "freundin": "girlfriend",
        "partner": "partner",
        "partnerin": "partner",
        "verlobter": "fiancé",
        "verlobte": "fiancée",
        "cousin": "cousin",
        "cousine": "cousin",
        "kusine": "cousin",
        "tante": "aunt",
        "onkel": "uncle",
        "nichte": "niece",
        "neffe": "nephew",
        "oma": "grandmother",
        "großmutter": "grandmother",
        "opa": "grandfather",
        "großvater": "grandfather",
        "schwiegermutter": "mother-in-law",
        "schwiegervater": "father-in-law",
        "schwägerin": "sister-in-law",
        "schwager": "brother-in-law",
        "beste freundin": "best friend",
        "bester freund": "best friend",
        "besten freund": "best friend",
        "mitbewohnerin": "roommate",
        "mitbewohner": "roommate",
        "nachbarin": "neighbour",
        "nachbar": "neighbour",
        "kumpel": "friend",
        "kollegin": "coworker",
        "kollege": "coworker",
        "kollegen": "coworker",
        "chefin": "boss",
        "chef": "boss",
        "vorgesetzte": "boss",
        "vorgesetzter": "boss",
        "ärztin": "doctor",
        "arzt": "doctor",
        "lehrerin": "teacher",
        "lehrer": "teacher",
        "vermieterin": "landlord",
        "vermieter": "landlord",
        "ex": "ex",
    },
    former=("ex", "ex-", "ehemalige", "ehemaliger", "ehemaligen", "alte", "alter"),
    adjectives=_words(
        """kleine kleiner kleinen große großer großen ältere älterer jüngere jüngerer neue
        neuer neuen"""
    ),
    pronouns=("die", "der", "er", "sie"),
    naming=("heißt", "heisst", "namens"),
    pets={
        "katze": "cat",
        "kater": "cat",
        "kätzchen": "cat",
        "hund": "dog",
        "hündin": "dog",
        "welpe": "dog",
        "kaninchen": "rabbit",
    },
    breakups=(
        r"\b{name}\s+und\s+ich\s+(?:haben\s+(?:uns\s+getrennt|schluss\s+gemacht)"
        r"|sind\s+nicht\s+mehr\s+zusammen)",
        r"\b{name}\s+hat\s+(?:mit\s+mir\s+)?schluss\s+gemacht",
        r"\b(?:ich\s+habe|hab)\s+mit\s+{name}\s+schluss\s+gemacht",
        r"\bich\s+habe\s+mich\s+von\s+{name}\s+getrennt",
    ),
    someone_met=r"\bjemanden\s+kennengelernt\b|\bdate\s+(?:jemanden|einen|eine)\b",
    dating=(
        r"\bich\s+(?:date|treffe\s+mich\s+mit)\s+{name}",
        r"\b(?:ich\s+bin|bin)\s+mit\s+{name}\s+zusammen",
        r"\b{name}\s+und\s+ich\s+sind\s+zusammen",
        r"\b{name}\s+hat\s+mir\s+(?:einen\s+)?(?:heirats)?antrag\s+gemacht",
    ),
    partner_steps=(
        ("ended", r"\bwir\s+haben\s+uns\s+getrennt\b|\bschluss\s+gemacht\b"),
        (
            "engaged",
            r"\bwir\s+haben\s+uns\s+verlobt\b|\bwir\s+sind\s+verlobt\b"
            r"|\bhat\s+mir\s+(?:einen\s+)?(?:heirats)?antrag\s+gemacht\b",
        ),
        (
            "married",
            r"\b(?:wir|ich)\s+haben?\s+geheiratet\b|\bwir\s+sind\s+verheiratet\b",
        ),
    ),
    titles=("herr", "frau", "dr", "prof"),
    kin_titles=("onkel", "tante", "oma", "opa"),
    copulas=("ist", "war"),
    articles=("der", "die"),
    adverbs=_words("jetzt nun offiziell auch endlich mittlerweile inzwischen seit kurzem"),
    capitalises_nouns=True,
    me=r"(?i)\b(?:ich|mich|mir|mein|meine|meinen|meinem|meiner|wir|unser|unsere)\b",
    asks=(
        (
            r"(?i)\bwelche[rnms]?\s+stadt\b",
            _CITY,
        ),
        (
            r"(?i)\b(?:wohne|wohnte|wohnen|gewohnt|gezogen|umgezogen|stadtteil|viertel)\b"
            r"|\badresse\b",
            _LIVES,
        ),
        *_asks_work("wo", "arbeite|arbeitete|arbeiten|gearbeitet|job|stelle", "firma|arbeitgeber"),
        (r"(?i)\b(?:beruf|position)\b", _JOB),
        (r"(?i)\b(?:vegan\w*|vegetari\w*|pescetari\w*|ernährung|fleisch)\b", _DIET),
    ),
    claims=(*_DE_CLAIMS, *_STAYS["de"]),
    moves_to=(
        r"(?i)\b(?:gezogen|umgezogen)\s+nach\b|\bnach\s+\S+(?:\s+\S+)?\s+(?:gezogen|umgezogen)\b"
    ),
    time_words={
        "jetzt": "now",
        "derzeit": "currently",
        "momentan": "currently",
        "aktuell": "currently",
        "zurzeit": "currently",
        "mittlerweile": "by now",
        "inzwischen": "by now",
        "noch": "still",
        "nicht mehr": "anymore",
        "früher": "before",
        "vorher": "before",
        "davor": "before",
        "damals": "back then",
        "ursprünglich": "originally",
        "wohnte": "used to live",
        "arbeitete": "used to work",
    },
    still_question=r"(?i)\bnoch\b|\bnicht\s+mehr\b",
    not_names=_words(
        """also naja na ja nein doch noch schon immer nie auch nur mal hallo danke ok lol
        gestern morgen heute abend hier dort mit ohne für von zu bei der die das den dem
        ein eine ist war hat sagt kommt geht er sie es wer dies dieser diese dann da so
        wo wie was warum"""
    ),
)

ITALIAN = Grammar(
    months=months_numbered(
        "gennaio",
        "febbraio",
        "marzo",
        "aprile",
        "maggio",
        "giugno",
        "luglio",
        "agosto",
        "settembre",
        "ottobre",
        "novembre",
        "dicembre",
    ),
    asks_the_assistant=(
        r"(?i)\b(?:mi|ci)\s+(?:hai|avevi)\s+(?:\w+\s+)?(?:consigliato|suggerito|detto|dato|"
        r"raccomandato)\b"
    ),
    code="it",
    name="Italian",
    mine=("mio", "mia", "miei", "mie", "nostro", "nostra", "nostri", "nostre"),
    relationships={
        "madre": "mother",
        "mamma": "mother",
        "padre": "father",
        "papà": "father",
        "babbo": "father",
        "genitori": "parent",
        "sorella": "sister",
        "fratello": "brother",
        "figlio": "son",
        "figlia": "daughter",
        "moglie": "wife",
        "marito": "husband",
        "ragazzo": "boyfriend",
        "ragazza": "girlfriend",
        "fidanzato": "boyfriend",
        "fidanzata": "girlfriend",
        "compagno": "partner",
        "compagna": "partner",
        "cugino": "cousin",
        "cugina": "cousin",
        "zia": "aunt",
        "zio": "uncle",
        "nipote": "niece",
        "nonna": "grandmother",
        "nonno": "grandfather",
        "suocera": "mother-in-law",
        "suocero": "father-in-law",
        "cognata": "sister-in-law",
        "cognato": "brother-in-law",
        "migliore amica": "best friend",
        "migliore amico": "best friend",
        "amica": "friend",
        "amico": "friend",
        "coinquilina": "roommate",
        "coinquilino": "roommate",
        "vicina": "neighbour",
        "vicino": "neighbour",
        "collega": "coworker",
        "capa": "boss",
        "capo": "boss",
        "socia": "business partner",
        "socio": "business partner",
        "professoressa": "teacher",
        "professore": "teacher",
        "dottoressa": "doctor",
        "dottore": "doctor",
        "medico": "doctor",
        "ex": "ex",
    },
    former=("ex", "ex-", "vecchia", "vecchio"),
    adjectives=_words("piccola piccolo grande maggiore minore nuova nuovo cara caro"),
    pronouns=("che", "lui", "lei"),
    naming=("si chiama", "chiamata", "chiamato"),
    pets={
        "gatto": "cat",
        "gatta": "cat",
        "gattino": "cat",
        "gattina": "cat",
        "cane": "dog",
        "cagnolino": "dog",
        "cagnolina": "dog",
        "cucciolo": "dog",
        "coniglio": "rabbit",
    },
    breakups=(
        r"\b{name}\s+e\s+io\s+(?:ci\s+siamo\s+lasciati|abbiamo\s+rotto)",
        r"\b(?:ho\s+lasciato|mi\s+ha\s+lasciata?)\s+{name}",
        r"\bho\s+rotto\s+con\s+{name}",
    ),
    dating=(
        r"\b(?:esco|sto\s+uscendo|sto)\s+con\s+{name}",
        r"\b{name}\s+e\s+io\s+(?:stiamo\s+insieme|usciamo)",
        r"\b{name}\s+mi\s+ha\s+chiesto\s+di\s+sposarl[oa]",
    ),
    partner_steps=(
        ("ended", r"\bci\s+siamo\s+lasciati\b|\babbiamo\s+rotto\b"),
        ("engaged", r"\bci\s+siamo\s+fidanzati\b|\bmi\s+ha\s+chiesto\s+di\s+sposarl[oa]\b"),
        ("married", r"\bci\s+siamo\s+sposati\b|\bmi\s+sono\s+sposat[oa]\b"),
    ),
    titles=("signor", "signore", "signora", "signorina", "sig", "sig.ra", "dott", "dr"),
    kin_titles=("zia", "zio", "nonna", "nonno"),
    copulas=("è", "era"),
    articles=("il", "la", "lo"),
    adverbs=_words("ora adesso ufficialmente anche finalmente"),
    me=r"(?i)\b(?:io|mio|mia|miei|mie|mi|noi|nostro|nostra|abito|abitavo|lavoro|lavoravo)\b",
    asks=(
        (
            r"(?i)\b(?:quale|che)\s+città",
            _CITY,
        ),
        (
            r"(?i)\b(?:abito|abitavo|abitiamo|vivo|vivevo|trasferit[oa]|quartiere|città)\b"
            r"|\bindirizzo\b",
            _LIVES,
        ),
        *_asks_work("dove", "lavoro|lavoravo|lavoriamo", "azienda|ditta"),
        (r"(?i)\b(?:ruolo|posizione|mestiere|professione)\b", _JOB),
        (r"(?i)\b(?:vegan[oa]?|vegetarian[oa]|pescetarian[oa]|dieta|carne)\b", _DIET),
    ),
    claims=(*_IT_CLAIMS, *_STAYS["it"]),
    moves_to=r"(?i)\btrasferit[oaie]\s+a\b",
    time_words={
        "ora": "now",
        "adesso": "now",
        "attualmente": "currently",
        "attuale": "current",
        "ancora": "still",
        "prima": "before",
        "abitavo": "used to live",
        "vivevo": "used to live",
        "lavoravo": "used to work",
    },
    still_question=r"(?i)\bancora\b",
    not_names=_words(
        """allora quindi poi anche ancora sempre mai già solo sì si no ciao grazie ok lol
        ieri domani oggi stasera qui lì con senza per di del della il lo la gli le un una
        che chi è era ha dice va viene"""
    ),
)

GRAMMARS: tuple[Grammar, ...] = (FRENCH, SPANISH, PORTUGUESE, GERMAN, ITALIAN)


@cache
def words_of_no_name() -> frozenset[str]:
    """The adverbs, copulas, articles and pronouns of every Latin-script grammar, lower
    case: in chat that mixes languages, the word after "ma blonde" in "elle est ma blonde
    maintenant" is no one's name."""
    return frozenset(
        w.lower()
        for g in GRAMMARS
        for w in (*g.adverbs, *g.copulas, *g.articles, *g.pronouns)
        if " " not in w
    ) - {"lei", "ela", "fin"}  # names too ("my coworker lei")


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


#: A name: a word of letters (an apostrophe or hyphen inside), with a title before it.
_NAME = r"(?P<name>[^\W\d_][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*)"
#: Titles every one of these languages writes before a name.
_TITLES = ("dr", "dra", "dre", "prof")


@dataclass(frozen=True)
class _Patterns:
    named: re.Pattern[str]
    apposition: re.Pattern[str]
    #: "meine chefin ist die cfo frau dr. henning", "minha gestora agora é a juliana"
    role_is: re.Pattern[str]
    #: "mira ist jetzt offiziell meine freundin"
    is_role: re.Pattern[str]
    #: "ich hab jetzt nen hund 🐶 Bruno, ein mischling"
    pet_named: re.Pattern[str]
    given: re.Pattern[str]
    pet_kind: re.Pattern[str]
    person: re.Pattern[str]
    breakups: tuple[re.Pattern[str], ...]
    dating: tuple[re.Pattern[str], ...]
    someone_met: re.Pattern[str]


@cache
def _patterns(grammar: Grammar) -> _Patterns:
    mine = _alternation(grammar.mine)
    rel = _alternation(grammar.relationships)
    # lazy: "petite amie" is a word of its own before "petite" is an adjective
    adjective = rf"(?:(?:{_alternation(grammar.adjectives)})\s+)??" if grammar.adjectives else ""
    after = rf"(?:\s+(?:{_alternation(grammar.adjectives)})\b)?" if grammar.adjectives else ""
    former = rf"(?:(?P<former>{_alternation(grammar.former)})\s*)??" if grammar.former else ""
    naming = _alternation(grammar.naming)
    pronoun = rf"(?:(?:{_alternation(grammar.pronouns)})\s+)?" if grammar.pronouns else ""
    role = rf"\b(?P<mine>{mine})\s+{adjective}{former}{adjective}(?P<rel>{rel})(?![\w-]){after}"
    adverbs = rf"(?:(?:{_alternation(grammar.adverbs)})\s+)*" if grammar.adverbs else ""
    title = rf"(?P<title>(?:(?:{_alternation({*grammar.titles, *_TITLES})})\.?\s+){{1,2}})"
    article = rf"(?:(?:{_alternation(grammar.articles)})\s+)?" if grammar.articles else ""
    copula = rf"(?:{_alternation(grammar.copulas)})" if grammar.copulas else r"(?!)"
    articles = _alternation(grammar.articles) or "(?!)"
    return _Patterns(
        # "mon frère hugo", "ma cheffe s'appelle Lise", "mi hermana mayor, Lena", "mein
        # onkel heißt auch bruno", "meu chefe o sr. santos"
        named=re.compile(
            rf"(?i){role}(?:\s*,?\s*{pronoun}(?P<naming>{naming})\s+{adverbs}|\s*,?\s*)"
            rf"(?:(?:{article}{title})?{_NAME})?"
        ),
        # "manon, ma meilleure amie"
        apposition=re.compile(rf"(?i){title}?{_NAME}\s*,\s*{role}"),
        # a name after the copula: capitalised, or titled with up to two words before
        # the title ("die cfo frau dr. henning")
        role_is=re.compile(
            rf"(?i){role}\s+{adverbs}{copula}\s+{adverbs}{article}"
            rf"(?:(?P<between>(?:[^\W\d_]+\s+){{0,2}}?){title})?{_NAME}(?![\w'’-])"
        ),
        # the subject of the copula, at a clause's start (or after an article, capitalised)
        is_role=re.compile(
            rf"(?i)(?P<lead>^\s*|[.!?:;]\s*|\b(?P<art>{articles})\s+)?"
            rf"{title}?{_NAME}\s+{copula}\s+{adverbs}{role}"
        ),
        pet_named=re.compile(
            rf"(?i)\b(?P<kind>{_alternation(grammar.pets) or '(?!)'})(?:\s*[^\w\s,.!?]+)*\s*,?\s*"
            rf"{_NAME}(?=\s*(?:[,.!?;]|$))"
        ),
        # "il s'appelle Gribouille", "se llama Thor", "chama paçoca"
        given=re.compile(rf"(?i)\b(?:{naming})\s+{adverbs}{_NAME}"),
        pet_kind=re.compile(rf"(?i)\b(?P<kind>{_alternation(grammar.pets)})\b"),
        person=re.compile(rf"(?i)\b(?:{rel})\b"),
        breakups=tuple(re.compile("(?i)" + p.format(name=_NAME)) for p in grammar.breakups),
        dating=tuple(re.compile("(?i)" + p.format(name=_NAME)) for p in grammar.dating),
        someone_met=re.compile(f"(?i){grammar.someone_met or '(?!)'}"),
    )


@cache
def _not_names(grammar: Grammar) -> frozenset[str]:
    return (
        grammar.not_names
        | LATIN_FUNCTION_WORDS.get(grammar.code, frozenset())
        | frozenset(grammar.mine)
        | frozenset(w for words in grammar.relationships for w in words.split())
        | frozenset(grammar.pets)
        | frozenset(grammar.adjectives)
        | frozenset(grammar.former)
        | frozenset(grammar.pronouns)
        | frozenset(grammar.adverbs)
        | frozenset(grammar.copulas)
        | frozenset(grammar.articles)
        | frozenset(t for t in grammar.titles)
    )


def _is_name(grammar: Grammar, word: str | None) -> bool:
    """A word that may be a name: two letters or more, no word of the language's own."""
    return word is not None and len(word) > 1 and word.lower() not in _not_names(grammar)


def _cased(name: str) -> str:
    return name[:1].upper() + name[1:]


def _reading(grammar: Grammar, word: str, former: str | None) -> str:
    """The English reading of a relationship word, ended when ``former`` says so ("mon
    ex Julien": an ex; "mon ancienne cheffe": a former boss)."""
    english = grammar.relationships[" ".join(word.lower().split())]
    if not former or english == "ex":
        return english
    return "ex" if english in PARTNERS else f"former {english}"


def read(grammar: Grammar, sentence: str, before: str = "") -> list[Named]:
    """The people a sentence in ``grammar``'s language names, in order (``before``: the
    turn's text before it, where a pet given a name was spoken of).

    >>> def people(text, before=""):
    ...     return [(n.name, n.relationship) for n in read(FRENCH, text, before)]
    >>> people("mon frère Hugo descend de grenoble samedi, avec mon petit frère, léo.")
    [('Hugo', 'brother'), ('frère', 'frère')]
    >>> people("oui oui je suis chez Manon, ma meilleure amie.")
    [('Manon', 'best friend')]
    >>> people("super. ma cheffe s'appelle Lise, elle est cash mais juste")
    [('Lise', 'boss')]
    >>> people("un tigré de 2 ans, il s'appelle Gribouille.", "j'ai adopté un chat !!!")
    [('Gribouille', 'cat')]
    >>> people("et mon nouveau collègue, il s'appelle Paul.", "j'ai adopté un chat !!!")
    [('Paul', 'coworker')]
    >>> people("bon. julien et moi c'est fini. 4 ans.")
    [('Julien', 'ex')]
    >>> people("ma mère adore les chats, mon ancienne cheffe aussi")
    [('mère', 'mère')]
    >>> people("je vois quelqu'un depuis un mois. il s'appelle Théo, il est prof")
    [('Théo', 'partner')]
    >>> [(n.name, n.relationship) for n in read(SPANISH, "he adoptado una galga!! se llama Canela")]
    [('Canela', 'dog')]
    >>> [(n.name, n.relationship) for n in read(SPANISH, "con mi hermana mayor Lena y mi tía")]
    [('Lena', 'sister'), ('tía', 'tía')]
    >>> [(n.name, n.relationship) for n in read(GERMAN, "meine Schwester Lena kommt")]
    [('Lena', 'sister')]

    Typed in lower case, a title says a name, the copula who holds a role:

    >>> [(n.name, n.aliases) for n in read(GERMAN, "mein chef herr bremen hält mich klein")]
    [('Bremen', ('Herr Bremen',))]
    >>> people("bref. inès est officiellement ma copine"), people("lui c'est mon frère")
    ([('Inès', 'girlfriend')], [('frère', 'frère')])
    """
    rx = _patterns(grammar)
    found = Naming()
    for patterns, relationship in ((rx.breakups, "ex"), (rx.dating, "partner")):
        for pattern in patterns:
            for m in pattern.finditer(sentence):
                if _is_name(grammar, m["name"]):
                    found.add(_cased(m["name"]), relationship, m.start("name"), m.end("name"))
    for m in rx.apposition.finditer(sentence):  # capitalised: "les chats, ma mère" is no one
        if _is_name(grammar, m["name"]) and m["name"][:1].isupper():
            found.add(
                _cased(m["name"]), _reading(grammar, m["rel"], m["former"]), m.start(), m.end()
            )
    for m in rx.role_is.finditer(sentence):
        # a capital says a name where nouns have none; a title says it in any case
        cased = m["name"][:1].isupper() and not grammar.capitalises_nouns
        if _is_name(grammar, m["name"]) and (m["title"] or (cased and not m["between"])):
            relationship = _reading(grammar, m["rel"], m["former"])
            _add(found, grammar, m, relationship, (m.start(), m.end()))
    for m in rx.is_role.finditer(sentence):
        # lower case at a clause's start ("kleines update: mira ist jetzt meine
        # freundin"); after an article, capitalised ("o problema é meu chefe" is no one)
        lead = m["lead"] is not None and (m["art"] is None or m["name"][:1].isupper())
        if _is_name(grammar, m["name"]) and (m["title"] or lead):
            relationship = _reading(grammar, m["rel"], m["former"])
            _add(found, grammar, m, relationship, (m.start("name"), m.end()))
    for m in rx.named.finditer(sentence):
        relationship = _reading(grammar, m["rel"], m["former"])
        name = m["name"]
        # a lower-case word right after the relationship may be a verb ("ma mère adore",
        # "minha mãe adorou."): a name when given ("s'appelle"), titled ("herr bremen")
        # or capitalised, as typed or as the conversation writes it elsewhere
        # (``ingestion.casing``)
        if _is_name(grammar, name) and (m["naming"] or m["title"] or name[:1].isupper()):
            _add(found, grammar, m, relationship, (m.start(), m.end()))
        elif relationship in FAMILY and not m["former"]:
            word = " ".join(m["rel"].lower().split())
            found.add(word, word, m.start(), m.start("rel") + len(m["rel"]))
    if grammar.pets:
        for m in rx.pet_named.finditer(sentence):  # "nen hund 🐶 Bruno, ein mischling"
            if _is_name(grammar, m["name"]) and m["name"][:1].isupper():
                pet = grammar.pets[m["kind"].lower()]
                found.add(_cased(m["name"]), pet, m.start("name"), m.end("name"))
    for m in rx.given.finditer(sentence):
        said = before + " " + sentence[: m.start()]
        kind = _last(rx.pet_kind, said) if grammar.pets else None
        met = _last(rx.someone_met, said)  # "estoy conociendo a alguien. se llama Bruno"
        person = _last(rx.person, said)  # "un chat ... mon collègue, il s'appelle Paul"
        last = max((x for x in (kind, met, person) if x), key=lambda x: x.start(), default=None)
        if last is None or last is person or not _is_name(grammar, m["name"]):
            continue
        if last is kind and kind is not None:
            pet = grammar.pets[kind["kind"].lower()]
            found.add(_cased(m["name"]), pet, m.start("name"), m.end("name"))
        else:
            found.add(_cased(m["name"]), "partner", m.start("name"), m.end("name"))
    return found.people()


def _add(
    found: Naming, grammar: Grammar, m: re.Match[str], relationship: str, span: tuple[int, int]
) -> None:
    """The person a match names, also called with the title said ("Herr Bremen", "Frau
    Dr. Henning") or the kin word said as one ("Onkel Bruno")."""
    name = _cased(m["name"])
    said = " ".join(m["title"].split()) if m["title"] else ""
    if not said and m["rel"].lower() in grammar.kin_titles and not m["former"]:
        said = m["rel"]
    title = " ".join(_cased(word) for word in said.split())
    found.add(name, relationship, *span, (f"{title} {name}",) if title else ())


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The last match of ``pattern`` in the last sentence or two of ``text``."""
    found = list(pattern.finditer(text[-160:]))
    return found[-1] if found else None


def _reader(grammar: Grammar) -> Callable[[str, str], list[Named]]:
    def people_in(sentence: str, before: str = "") -> list[Named]:
        return read(grammar, sentence, before)

    return people_in


def _of_self(grammar: Grammar) -> str:
    """How a question says "I" or "my" (``Grammar.me``), not where "my" is someone's:
    "wo wohnen meine eltern" asks where they live, not the user."""
    mine = _alternation(grammar.mine)
    someone = rf"(?:{mine})\s+(?:[\w-]+\s+)?(?:{_alternation(grammar.relationships)})\b"
    return rf"(?i)(?!{someone})(?:{grammar.me.removeprefix('(?i)')})"


def _language(grammar: Grammar) -> Language:
    return Language(
        code=grammar.code,
        name=grammar.name,
        script=en.LANGUAGE.script,
        words=en.words,
        stop_words=en.STOP_WORDS,
        extracts=False,
        relationships={
            word: english
            for word, english in grammar.relationships.items()
            if word != english and word not in ENGLISH_TOO
        },
        possessives=grammar.mine,
        # "la chispa (mi perra)": a dog, read in English wherever relationships are
        pets={word: kind for word, kind in grammar.pets.items() if word not in ENGLISH_TOO},
        owned_relationships={
            word: english
            for word, english in grammar.relationships.items()
            if word != english and word in ENGLISH_TOO
        },
        function_words=LATIN_FUNCTION_WORDS.get(grammar.code, frozenset()),
        people_in=_reader(grammar),
        mixed_with_english=True,
        partner_steps=grammar.partner_steps,
        # "ex-" first: how graphmem says an ended one ("ex-chefe")
        former_prefixes=tuple(
            dict.fromkeys(("ex-", "ex ", *(f"{w} " for w in grammar.former if w[-1].isalpha())))
        ),
        asks_of_self=_of_self(grammar),
        asks=grammar.asks,
        claims=grammar.claims,
        claims_are_the_users=True,
        moves_to=grammar.moves_to,
        months=grammar.months,
        left_from=grammar.left_from,
        still_question=grammar.still_question,
        asks_the_assistant=grammar.asks_the_assistant,
        # whole words only: "antes" is no part of "bastante"
        time_patterns=tuple(
            (rf"(?i)\b{re.escape(word)}\b", f" {english} ")
            for word, english in sorted(grammar.time_words.items(), key=lambda w: -len(w[0]))
        ),
    )


LANGUAGES: tuple[Language, ...] = tuple(_language(g) for g in GRAMMARS)
