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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from graphmem.lang import FAMILY, LATIN_FUNCTION_WORDS, Language, Named, Naming, en

#: Words these languages share with English ("cousin", "papa"): English reads them.
ENGLISH_TOO = frozenset({"cousin", "partner", "mama", "papa", "ex"})
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
    #: the user's new romance with someone named: "je sors avec {name}"
    dating: tuple[str, ...] = ()
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
    #: whether the language writes its nouns with a capital (German): a capital after
    #: "ist" is no sign of a name there ("mein Vater ist Rentner")
    capitalises_nouns: bool = False


#: what the questions of ``Grammar.asks`` ask: where one lives, where one works
_LIVES = ("location",)
_WORKS = ("employer", "job")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


FRENCH = Grammar(
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
        r"\b{name}\s+(?:m'a\s+quittée?|et\s+moi\s+(?:on\s+a\s+rompu|on\s+s'est\s+séparés))",
        r"\bje\s+(?:suis\s+séparée?|me\s+suis\s+séparée?)\s+de\s+{name}",
    ),
    dating=(
        r"\bje\s+sors\s+avec\s+{name}",
        r"\bavec\s+{name},?\s+on\s+se\s+(?:voit|fréquente)\s+depuis",
        r"\b{name}\s+et\s+moi,?\s+on\s+(?:se\s+voit|sort\s+ensemble)",
    ),
    partner_steps=(
        ("ended", r"\b(?:on\s+a|nous\s+avons)\s+rompu\b|\bc'est\s+fini\s+entre\s+nous\b"),
        ("engaged", r"\bon\s+s'est\s+fiancés\b|\bnous\s+nous\s+sommes\s+fiancés\b"),
        ("married", r"\bon\s+s'est\s+mariés\b|\bnous\s+nous\s+sommes\s+mariés\b"),
    ),
    titles=("monsieur", "madame", "mademoiselle", "mme", "mlle", "dr", "docteure"),
    kin_titles=("tante", "tata", "oncle", "tonton", "mamie", "papi", "papy"),
    copulas=("est", "c'est", "était"),
    articles=("le", "la", "l'"),
    adverbs=_words("maintenant désormais officiellement aussi enfin toujours"),
    me=r"(?i)\b(?:je|moi|mon|ma|mes|notre|nos)\b|\b[jm]['’]",
    asks=(
        (r"(?i)\b(?:habite|habitais|vis|vivais|habitons|vivons)\b|\badresse\b", _LIVES),
        (
            r"(?i)\b(?:travaille|travaillais|bosse|bossais|taffe)\b"
            r"|\bquel(?:le)?\s+(?:boîte|entreprise|société|employeur|boulot|taf)\b",
            _WORKS,
        ),
    ),
    not_names=_words(
        """bon bref enfin alors donc puis ensuite aussi encore toujours jamais déjà juste
        oui non ouais ah bah ben coucou salut merci ok lol mdr ptdr hier demain aujourd'hui
        ce soir matin midi là ici chez avec pour sans sur sous vers par de du des le la
        les un une qui que quoi il elle on ils elles est a était sont fait dit va vient
        lui moi toi eux ça ce cela voici voilà"""
    ),
)

SPANISH = Grammar(
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
        "conejo": "rabbit",
    },
    breakups=(
        r"\b{name}\s+y\s+yo\s+(?:terminamos|cortamos|rompimos|nos\s+separamos|ya\s+no\s+estamos)",
        r"\b(?:terminé|corté|rompí)\s+con\s+{name}",
        r"\bme\s+(?:separé|divorcié)\s+de\s+{name}",
    ),
    dating=(
        r"\b(?:estoy\s+saliendo|salgo)\s+con\s+{name}",
        r"\b{name}\s+y\s+yo\s+(?:estamos\s+saliendo|somos\s+novios)",
    ),
    partner_steps=(
        ("ended", r"\b(?:rompimos|cortamos|nos\s+separamos)\b|\bya\s+no\s+estamos\s+juntos\b"),
        (
            "engaged",
            r"\bnos\s+comprometimos\b|\bme\s+pidió\s+matrimonio\b|\bnos\s+vamos\s+a\s+casar\b",
        ),
        ("married", r"\bnos\s+casamos\b|\bya\s+estamos\s+casados\b"),
    ),
    titles=("señor", "señora", "señorita", "sr", "sra", "srta", "don", "doña", "dr", "dra"),
    kin_titles=("tía", "tia", "tío", "tio", "abuela", "abuelo", "abuelita", "abuelito"),
    copulas=("es", "era"),
    articles=("el", "la"),
    adverbs=_words("ahora ya oficialmente también tambien finalmente por fin"),
    me=r"(?i)\b(?:yo|mi|mis|me|nosotros|nuestro|nuestra|vivo|vivía|trabajo|trabajaba)\b",
    asks=(
        (r"(?i)\b(?:vivo|vivía|vivimos)\b|\bdirecci[oó]n\b", _LIVES),
        (r"(?i)\b(?:trabajo|trabajaba|trabajamos)\b|\bqu[eé]\s+empresa\b", _WORKS),
    ),
    not_names=_words(
        """bueno pues entonces también tambien todavía siempre nunca ya solo sí si no ay
        hola gracias ok lol jaja ayer mañana hoy esta este noche aquí allí con sin para por
        en de del el la los las un una que quien es está esta fue dice va viene él ella
        eso ese esa"""
    ),
)

PORTUGUESE = Grammar(
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
    dating=(
        r"\b(?:estou|tô|to)\s+(?:namorando|saindo)\s+(?:com\s+)?(?:[oa]\s+)?{name}",
        r"\b{name}\s+e\s+eu\s+estamos\s+(?:namorando|saindo)",
    ),
    partner_steps=(
        ("ended", r"\bterminamos\s+o\s+namoro\b|\ba\s+gente\s+terminou\b|\bnos\s+separamos\b"),
        ("engaged", r"\bficamos\s+noivos\b|\bme\s+pediu\s+em\s+casamento\b"),
        ("married", r"\b(?:nos\s+)?casamos\b"),
    ),
    titles=("senhor", "senhora", "sr", "sra", "srta", "dona", "dr", "dra"),
    kin_titles=("tia", "tio", "vó", "vô", "vovó", "vovô"),
    copulas=("é", "era"),
    articles=("o", "a"),
    adverbs=_words("agora já oficialmente também tambem finalmente"),
    me=r"(?i)\b(?:eu|meu|minha|meus|minhas|me|nosso|nossa|moro|morava|trabalho|trabalhava)\b",
    asks=(
        (r"(?i)\b(?:moro|morava|moramos|vivo|vivia)\b|\bendereço\b", _LIVES),
        (r"(?i)\b(?:trabalho|trabalhava|trabalhamos)\b|\bque\s+empresa\b", _WORKS),
    ),
    not_names=_words(
        """bom então também ainda sempre nunca já só sim não ai oi olá obrigada obrigado ok
        kkk ontem amanhã hoje noite aqui ali com sem para por em de do da o a os as um uma
        que quem é está foi diz vai vem ele ela você isso esse essa este esta aquele
        aquela"""
    ),
)

GERMAN = Grammar(
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
    dating=(
        r"\bich\s+(?:date|treffe\s+mich\s+mit)\s+{name}",
        r"\b(?:ich\s+bin|bin)\s+mit\s+{name}\s+zusammen",
        r"\b{name}\s+und\s+ich\s+sind\s+zusammen",
    ),
    partner_steps=(
        ("ended", r"\bwir\s+haben\s+uns\s+getrennt\b|\bschluss\s+gemacht\b"),
        ("engaged", r"\bwir\s+haben\s+uns\s+verlobt\b|\bwir\s+sind\s+verlobt\b"),
        ("married", r"\bwir\s+haben\s+geheiratet\b|\bwir\s+sind\s+verheiratet\b"),
    ),
    titles=("herr", "frau", "dr", "prof"),
    kin_titles=("onkel", "tante", "oma", "opa"),
    copulas=("ist", "war"),
    articles=("der", "die"),
    adverbs=_words("jetzt nun offiziell auch endlich mittlerweile inzwischen seit kurzem"),
    capitalises_nouns=True,
    me=r"(?i)\b(?:ich|mich|mir|mein|meine|meinen|meinem|meiner|wir|unser|unsere)\b",
    asks=(
        (r"(?i)\b(?:wohne|wohnte|wohnen)\b|\badresse\b", _LIVES),
        (
            r"(?i)\b(?:arbeite|arbeitete|arbeiten)\b|\bwelche[rms]?\s+(?:firma|arbeitgeber)\b",
            _WORKS,
        ),
    ),
    not_names=_words(
        """also naja na ja nein doch noch schon immer nie auch nur mal hallo danke ok lol
        gestern morgen heute abend hier dort mit ohne für von zu bei der die das den dem
        ein eine ist war hat sagt kommt geht er sie es wer dies dieser diese dann da so
        wo wie was warum"""
    ),
)

ITALIAN = Grammar(
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
    ),
    partner_steps=(
        ("ended", r"\bci\s+siamo\s+lasciati\b|\babbiamo\s+rotto\b"),
        ("engaged", r"\bci\s+siamo\s+fidanzati\b|\bmi\s+ha\s+chiesto\s+di\s+sposarl[oa]\b"),
        ("married", r"\bci\s+siamo\s+sposati\b"),
    ),
    titles=("signor", "signore", "signora", "signorina", "sig", "sig.ra", "dott", "dr"),
    kin_titles=("zia", "zio", "nonna", "nonno"),
    copulas=("è", "era"),
    articles=("il", "la", "lo"),
    adverbs=_words("ora adesso ufficialmente anche finalmente"),
    me=r"(?i)\b(?:io|mio|mia|miei|mie|mi|noi|nostro|nostra|abito|abitavo|lavoro|lavoravo)\b",
    asks=(
        (r"(?i)\b(?:abito|abitavo|abitiamo|vivo|vivevo)\b|\bindirizzo\b", _LIVES),
        (r"(?i)\b(?:lavoro|lavoravo|lavoriamo)\b|\bquale\s+(?:azienda|ditta)\b", _WORKS),
    ),
    not_names=_words(
        """allora quindi poi anche ancora sempre mai già solo sì si no ciao grazie ok lol
        ieri domani oggi stasera qui lì con senza per di del della il lo la gli le un una
        che chi è era ha dice va viene"""
    ),
)

GRAMMARS: tuple[Grammar, ...] = (FRENCH, SPANISH, PORTUGUESE, GERMAN, ITALIAN)


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
            kind = _last(rx.pet_kind, said)
            person = _last(rx.person, said)  # "un chat ... mon collègue, il s'appelle Paul"
            if kind is None or (person is not None and person.start() > kind.start()):
                continue
            if _is_name(grammar, m["name"]):
                pet = grammar.pets[kind["kind"].lower()]
                found.add(_cased(m["name"]), pet, m.start("name"), m.end("name"))
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
            if english in FAMILY and word != english and word not in ENGLISH_TOO
        },
        function_words=LATIN_FUNCTION_WORDS.get(grammar.code, frozenset()),
        people_in=_reader(grammar),
        mixed_with_english=True,
        partner_steps=grammar.partner_steps,
        former_prefixes=("ex-",),
        asks_of_self=grammar.me,
        asks=grammar.asks,
    )


LANGUAGES: tuple[Language, ...] = tuple(_language(g) for g in GRAMMARS)
