"""The word lists the non-LLM extractor relies on, in one place so they can be read and tuned.

Everything here is a documented heuristic, not a model: small talk to skip, relationship
nouns, and the cues behind a card's category, importance and emotional intensity.
"""

from __future__ import annotations

import re

from graphmem.lang import LATIN_FUNCTION_WORDS, tl
from graphmem.models import Category
from graphmem.relationships import WORDS

#: Whole sentences that carry no fact (compared after lowercasing and dropping punctuation).
SMALL_TALK = frozenset(
    {
        "ok",
        "okay",
        "k",
        "kk",
        "thanks",
        "thank you",
        "thanks a lot",
        "thank you so much",
        "thx",
        "ty",
        "cool",
        "nice",
        "great",
        "awesome",
        "sure",
        "yes",
        "yeah",
        "yep",
        "yup",
        "no",
        "nope",
        "haha",
        "hahaha",
        "lol",
        "lmao",
        "hehe",
        "sounds good",
        "sounds great",
        "sounds fun",
        "got it",
        "i see",
        "makes sense",
        "of course",
        "no problem",
        "no worries",
        "np",
        "you're welcome",
        "youre welcome",
        "bye",
        "goodbye",
        "see you",
        "see ya",
        "see you soon",
        "talk soon",
        "good night",
        "good morning",
        "good evening",
        "hi",
        "hello",
        "hey",
        "hi there",
        "hello there",
        "hey there",
        "how are you",
        "i'm fine",
        "im fine",
        "i'm good",
        "im good",
        "i'm doing well",
        "doing well",
        "not bad",
        "not much",
        "me too",
        "same",
        "same here",
        "alright",
        "all right",
        "right",
        "exactly",
        "wow",
        "oh",
        "hmm",
        "good to know",
        "love it",
        "perfect",
        "interesting",
        "that's great",
        "thats great",
        "that's nice",
        "that's cool",
        "that sounds great",
        "that sounds good",
        "good luck",
        "congrats",
        "congratulations",
        "take care",
        "have fun",
        "will do",
        "agreed",
        "indeed",
        "true",
    }
)

#: Words dropped from the start of a sentence before it becomes a fact ("Haha, I ...").
LEADING_FILLERS = frozenset(
    {
        "ok",
        "okay",
        "oh",
        "well",
        "haha",
        "hahaha",
        "lol",
        "yeah",
        "yes",
        "so",
        "hey",
        "hi",
        "hello",
        "um",
        "uh",
        "hmm",
        "anyway",
        "anyways",
        "btw",
        "also",
        "and",
        "but",
        "wow",
    }
)

#: Nouns naming someone's relationship to the speaker ("my sister", "our neighbour"); the
#: one list lives beside the rest of the relationship vocabulary.
RELATIONSHIPS = WORDS

#: Animals and common breeds: "Ji-woo's labrador, Socks" makes Socks a pet of Ji-woo, and a
#: fact about Socks a fact for Ji-woo (a pet is reached through its owner).
#: Nouns that say someone is a person ("Lily is my best friend", "Sam is a nurse"): a
#: proper noun said to be any other noun ("... is my favourite dish") is a thing.
PERSON_NOUNS = frozenset(
    """person people guy girl boy man woman kid child baby friend buddy pal mate neighbour
    neighbor colleague coworker boss manager teacher doctor nurse student classmate
    roommate partner name hero idol fan artist writer singer actor actress player coach
    mentor therapist lawyer engineer chef cook driver pilot one""".split()
)
#: People known by what they do for or with the speaker, met in passing ("a preceptor
#: called tom"): they name someone when named, and that is who they are to the speaker.
ROLE_NOUNS = frozenset(
    """preceptor tutor trainer instructor supervisor landlord landlady agent realtor
    mechanic plumber electrician dentist vet surgeon physio counsellor counselor
    nanny babysitter cleaner barber hairdresser recruiter client customer patient
    lodger tenant flatmate housemate intern apprentice trainee""".split()
)
#: Words for anyone at all ("some bloke called marcus"): they name someone, no role.
SOMEONE_NOUNS = frozenset("someone somebody dude chap lad lass bloke".split())
#: Verbs that give the speaker something ("made me gf flashcards", "got me a coffee"):
#: the "me" after them is who is given to, not chat's "my" ("me mam").
GIVING = frozenset("make get give buy send bring cook bake hand pass show lend".split())
#: Verbs whose object is a thing, never a person: what is eaten, drunk, ordered, bought.
CONSUMING_VERBS = frozenset(
    "eat have order cook bake drink buy taste try make grab devour finish share".split()
)
#: Words that are never a person's name, whatever spaCy tags them.
NOT_PEOPLE = frozenset(
    """hello hi hey well actually yeah yes no okay ok oh um uh hmm lol haha wow thanks
    thank sorry please anyway honestly basically literally btw omg
    lmao lmaoo lmaooo lmfao rn tbh ngl idk imo smh pls plz thx ty ikr nvm jk bruh
    tmrw tmr tmrrw tomoz tonite prob probs app""".split()
    # holidays, said where a name goes ("easter is next sunday")
    + """easter christmas xmas thanksgiving halloween diwali deepavali eid ramadan hanukkah
    passover navratri holi onam pongal""".split()
)
PETS = frozenset(
    {
        "dog",
        "cat",
        "puppy",
        "pup",
        "kitten",
        "rabbit",
        "bunny",
        "hamster",
        "guinea pig",
        "parrot",
        "budgie",
        "tortoise",
        "turtle",
        "horse",
        "pony",
        "ferret",
        "snake",
        "lizard",
        "gecko",
        "goldfish",
        "fish",
        "rat",
        "mouse",
        "chinchilla",
        "cockatiel",
        "labrador",
        "lab",
        "retriever",
        "staffy",
        "spaniel",
        "terrier",
        "poodle",
        "beagle",
        "collie",
        "border collie",
        "dachshund",
        "greyhound",
        "whippet",
        "pug",
        "husky",
        "corgi",
        "schnauzer",
        "sheepdog",
        "shepherd",
        "boxer",
        "rottweiler",
        "chihuahua",
        "cockapoo",
        "labradoodle",
        "westie",
        "yorkie",
        "maltese",
        "shih tzu",
        "frenchie",
        "bulldog",
        "lurcher",
        "pomeranian",
        "samoyed",
        "shiba",
        "aspin",
        "puspin",
        "tabby",
        "siamese",
        "ragdoll",
        "persian",
        "maine coon",
        "bengal",
        "sphynx",
        "moggy",
        "bearded dragon",
        "iguana",
        "chameleon",
        "axolotl",
        "hedgehog",
        "gerbil",
        "canary",
        "parakeet",
        "cockatoo",
        "tarantula",
        "cavoodle",
        "cavapoo",
        "goldendoodle",
        "pit mix",
    }
)

#: Countries (and the UK's nations): "visited Jordan" is a trip, whatever spaCy tags it.
COUNTRIES = frozenset(
    {
        "afghanistan",
        "albania",
        "algeria",
        "andorra",
        "angola",
        "argentina",
        "armenia",
        "australia",
        "austria",
        "azerbaijan",
        "bahamas",
        "bahrain",
        "bangladesh",
        "barbados",
        "belarus",
        "belgium",
        "belize",
        "benin",
        "bhutan",
        "bolivia",
        "bosnia",
        "botswana",
        "brazil",
        "brunei",
        "bulgaria",
        "burundi",
        "cambodia",
        "cameroon",
        "canada",
        "chad",
        "chile",
        "china",
        "colombia",
        "comoros",
        "congo",
        "croatia",
        "cuba",
        "cyprus",
        "czechia",
        "denmark",
        "djibouti",
        "dominica",
        "ecuador",
        "egypt",
        "eritrea",
        "estonia",
        "eswatini",
        "ethiopia",
        "fiji",
        "finland",
        "france",
        "gabon",
        "gambia",
        "georgia",
        "germany",
        "ghana",
        "greece",
        "grenada",
        "guatemala",
        "guinea",
        "guyana",
        "haiti",
        "honduras",
        "hungary",
        "iceland",
        "india",
        "indonesia",
        "iran",
        "iraq",
        "ireland",
        "israel",
        "italy",
        "jamaica",
        "japan",
        "jordan",
        "kazakhstan",
        "kenya",
        "kiribati",
        "kosovo",
        "kuwait",
        "kyrgyzstan",
        "laos",
        "latvia",
        "lebanon",
        "lesotho",
        "liberia",
        "libya",
        "liechtenstein",
        "lithuania",
        "luxembourg",
        "madagascar",
        "malawi",
        "malaysia",
        "maldives",
        "mali",
        "malta",
        "mauritania",
        "mauritius",
        "mexico",
        "micronesia",
        "moldova",
        "monaco",
        "mongolia",
        "montenegro",
        "morocco",
        "mozambique",
        "myanmar",
        "namibia",
        "nauru",
        "nepal",
        "netherlands",
        "nicaragua",
        "niger",
        "nigeria",
        "norway",
        "oman",
        "pakistan",
        "palau",
        "palestine",
        "panama",
        "paraguay",
        "peru",
        "philippines",
        "poland",
        "portugal",
        "qatar",
        "romania",
        "russia",
        "rwanda",
        "samoa",
        "senegal",
        "serbia",
        "seychelles",
        "singapore",
        "slovakia",
        "slovenia",
        "somalia",
        "spain",
        "sudan",
        "suriname",
        "sweden",
        "switzerland",
        "syria",
        "taiwan",
        "tajikistan",
        "tanzania",
        "thailand",
        "togo",
        "tonga",
        "tunisia",
        "turkey",
        "turkmenistan",
        "tuvalu",
        "uganda",
        "ukraine",
        "uruguay",
        "uzbekistan",
        "vanuatu",
        "vatican",
        "venezuela",
        "vietnam",
        "yemen",
        "zambia",
        "zimbabwe",
        "scotland",
        "wales",
        "england",
    }
)

#: Relationship words as chat shortens or says them, and how they are stored ("my gf
#: riley": a girlfriend). Also read as relationship nouns (``ingestion.relatives``).
SPELLED_OUT: dict[str, str] = {
    "gf": "girlfriend",
    "bf": "boyfriend",
    "hubby": "husband",
    "missus": "wife",
    "the missus": "wife",
    "the wife": "wife",
    "the hubby": "husband",
    "the old lady": "wife",
    "bff": "best friend",
    "sis": "sister",
    "bro": "brother",
    "bestfriend": "best friend",
    "best mate": "best friend",
    "ta": "teaching assistant",
    "mate": "mate",
    "labmate": "labmate",
    "lab mate": "labmate",
    "advisor": "advisor",
    "adviser": "advisor",
    "co-advisor": "co-advisor",
    "head": "headteacher",
    "headteacher": "headteacher",
    "head teacher": "headteacher",
    "head chef": "head chef",
    "executive chef": "head chef",
    "sous chef": "sous chef",
    "principal": "principal",
    "apprentice": "apprentice",
    "regional manager": "regional manager",
    "line manager": "manager",
    "gaffer": "boss",
    "oga": "boss",  # Nigerian English: "my oga Mr Okafor"
    "butty": "friend",
    "sup": "supervisor",
    "cuz": "cousin",
    "mom": "mom",
    "fiancé": "fiancé",
    "fiancée": "fiancée",
    # code-switched words typed in English chat (Spanish, Tagalog, Hindi)
    "novio": "boyfriend",
    "novia": "girlfriend",
    "esposo": "husband",
    "esposa": "wife",
    "marido": "husband",
    "hermana": "sister",
    "hermanita": "sister",
    "hermano": "brother",
    "hermanito": "brother",
    "prima": "cousin",
    "primo": "cousin",
    "mami": "mom",
    "mamá": "mom",
    "papi": "dad",
    "papá": "dad",
    "abuela": "grandmother",
    "abuelo": "grandfather",
    "tía": "aunt",
    "tio": "uncle",
    "tío": "uncle",
    "jefe": "boss",
    "jefa": "boss",
    "kuya": "brother",
    "ate": "sister",
    "bhai": "brother",
    "behen": "sister",
    "didi": "sister",
    "bhaiya": "brother",
    "dost": "friend",  # "mera dost aakash is moving to goa"
    "pati": "husband",
    "jiju": "brother-in-law",
    "bahu": "daughter-in-law",
    "sasur": "father-in-law",
    "mausi": "aunt",
    "padosi": "neighbour",
    # Afrikaans in South African English ("pieter (my boet)", "my ouma used to make that")
    "boet": "brother",
    "sussie": "sister",
    "ouma": "grandmother",
    "oupa": "grandfather",
    "mummy": "mother",
    "maw": "mother",  # Scots: "ma maw"
    "mama": "mama",
    "amma": "mother",
    "appa": "father",
    # Malay kin words in Manglish ("my abang faiz", "my mak ayah in ipoh")
    "abang": "brother",
    "kakak": "sister",
    "adik": "sibling",
    "mak": "mother",
    "ibu": "mother",
    "ayah": "father",
    "abah": "father",
    "suami": "husband",
    "isteri": "wife",
    "tunang": "fiancé",
    "sepupu": "cousin",
    "atuk": "grandfather",
    "nenek": "grandmother",
    # Korean kin in English chat ("my omma", "unnie said"), Swahili "shosho"
    "omma": "mother",
    "umma": "mother",
    "eomma": "mother",
    "unnie": "older sister",
    "noona": "older sister",
    "hyung": "older brother",
    "halmeoni": "grandmother",
    "halmoni": "grandmother",
    "harabeoji": "grandfather",
    "shosho": "grandmother",
    "ammi": "mother",
    # Urdu and Hindi kin in romanised chat ("abbu ko bhi sugar thi", "begum kehti hai")
    "abbu": "father",
    "abba": "father",
    "begum": "wife",
    "biwi": "wife",
    "beti": "daughter",
    "bhabhi": "sister-in-law",
    "chacha": "uncle",
    "chachi": "aunt",
    "khala": "aunt",
    "mamu": "uncle",
    "dadi": "grandmother",
    "nani": "grandmother",
    "mammy": "mother",
    "mam": "mother",
    "momma": "mother",
    "grannie": "grandmother",
    "nanna": "grandmother",
    "gramps": "grandfather",
    # roles people have at work or in a class, said as who someone is to the user
    "instructor": "instructor",
    "prof": "professor",
    "editor": "editor",
    "department head": "department head",
    "head nurse": "head nurse",
}
#: A relative's baby, by the relative and whether a girl or a boy: what the baby is to
#: the user ("our daughter jenny had a baby girl": a granddaughter).
BABY_OF: dict[str, tuple[str, str]] = {
    "daughter": ("granddaughter", "grandson"),
    "son": ("granddaughter", "grandson"),
    "daughter-in-law": ("granddaughter", "grandson"),
    "son-in-law": ("granddaughter", "grandson"),
    "sister": ("niece", "nephew"),
    "brother": ("niece", "nephew"),
    "granddaughter": ("great-granddaughter", "great-grandson"),
    "grandson": ("great-granddaughter", "great-grandson"),
}
#: Words that make a relationship noun the speaker's own ("my", "our"; "me" as Irish and
#: British chat says it, "me best mate"; "mi", "mera" in code-switched chat).
OWNERS = frozenset(
    """my our me mi mis nuestra nuestro mera meri mere mon ma mes notre nos meu minha
    meus minhas nosso nossa mein meine meinen meinem meiner unser unsere""".split()
)
#: Plural words for several of the user's people at once ("the twins", "my kids"),
#: and the relationship each of them has: "how old are the twins?" "ollie and rosie".
GROUPS: dict[str, str] = {
    "kids": "child",
    "children": "child",
    "twins": "child",
    "parents": "parent",
    "grandkids": "grandchild",
    "grandchildren": "grandchild",
}
#: Relationships that do not say whether a man or a woman, and the word for each once
#: the conversation does ("kai was on his phone": the child Kai is a son): (his, hers).
BY_GENDER: dict[str, tuple[str, str]] = {
    "child": ("son", "daughter"),
    "kid": ("son", "daughter"),
    "grandchild": ("grandson", "granddaughter"),
    "grandkid": ("grandson", "granddaughter"),
    "sibling": ("brother", "sister"),
    "parent": ("father", "mother"),
}
#: Children named by birth order ("our first is daniel", "my eldest maya"): words that
#: say "child" once owned (my, our). An ordinal must be the noun itself ("my first car" is
#: a car); a superlative may stand before the name.
BIRTH_ORDER = frozenset({"first", "second", "third", "firstborn"})
BIRTH_ORDER_BEFORE_NAME = frozenset({"eldest", "oldest", "youngest"})
#: Possessive pronouns and the gender they say of whom they belong to ("her room").
POSSESSIVE_GENDER = {"his": "m", "her": "f"}
#: Subject pronouns and the gender they say of whom they point back to ("daniel, he's 5").
SUBJECT_GENDER = {"he": "m", "she": "f"}
#: A group's relationship said of one of two by the other's gender ("toms parents, sue
#: and graham" with Sue his mum: Graham is his father): group word -> (her, his).
PAIRED: dict[str, tuple[str, str]] = {"parent": ("mother", "father")}
#: Nouns that introduce someone and say whether a man or a woman ("to a fella named
#: kevin"): "m" or "f".
GENDERED_NOUNS = {
    **dict.fromkeys(("guy", "man", "fella", "fellow", "bloke", "gentleman", "boy"), "m"),
    **dict.fromkeys(("girl", "woman", "lady", "gal"), "f"),
}
#: Verbs (lemmas) by which someone leaves their job ("renee quit"): a coworker or a
#: manager who did is a former one. Roles this ends, by ``relationships.role``.
QUITTING = frozenset({"quit", "resign"})
#: What only a person does to the user or of them, said right after their name ("dre said
#: he gon pick me up", "jalen asked me out"): a lower-case subject of one is a name.
SPEAKING = frozenset({"say", "ask", "text", "tell", "call", "invite", "message", "dm", "snap"})
#: Verbs (lemmas) by which someone leaves a post another is named to in the same turn
#: ("mr botha retired last week, now the new depot manager is mrs mokoena"): the one
#: who left held it.
LEAVING_A_POST = QUITTING | {"retire", "leave"}
#: Verbs (lemmas) by which the user gives notice ("gave notice yesterday", "handed in
#: my notice"): leaving their job, as quitting is.
NOTICE_GIVING = frozenset({"give", "hand", "put"})
#: Verbs (lemmas) by which the user loses their job, said in the passive ("got laid
#: off", "was made redundant", "got fired"), each with the word it needs after it (a
#: particle or a complement; None: none): losing the job leaves its people, as quitting.
DISMISSED: dict[str, str | None] = {"fire": None, "sack": None, "terminate": None, "axe": None}
DISMISSED |= {"lay": "off", "make": "redundant"}
#: Nouns of a job, and a kind said before them ("a dispatcher job"): the speaker's own
#: work, and whoever does the same where they work is a coworker.
JOB_NOUNS = frozenset({"job", "position", "role", "gig"})
#: Places people work at, left when quit: "i quit the cafe", "quit the firm".
WORKPLACES = frozenset(
    """cafe café restaurant bar pub shop store hospital school firm company agency bank
    office warehouse clinic salon factory depot hotel startup branch kitchen ward""".split()
)
#: Relationship words that are also a trade the user may practise ("as a teacher", "a
#: dispatcher job"); "as a kid", "as a friend" say no work.
TRADES = frozenset(
    """dispatcher editor agent recruiter realtor hairdresser barber pastor doctor
    dentist therapist coach teacher tutor lawyer accountant trainer nanny babysitter vet
    physio carer counsellor counselor lecturer surgeon nurse""".split()
)
#: The first stretch of work at a place ("first day tomorrow at keystone", "first week
#: at paysetu done"): a new job, which leaves the coworkers of the old one.
FIRST_AT_WORK = frozenset({"day", "week", "shift", "month"})
#: Where one works said as new, beside ``WORKPLACES`` ("first week at the new unit").
NEW_WORK = frozenset({"unit", "place", "team", "department", "site", "practice"})
#: How the first stretches are counted ("second week at stripe"): the job has begun.
EARLY_ORDINALS = frozenset({"first", "second", "third", "fourth"})
#: The last word of a street's name: after another word, a place, not a person ("on rye
#: Lane", "Baker Street"), though spaCy reads "Lane" a person.
STREET_WORDS = frozenset(
    {"lane", "street", "road", "avenue", "boulevard", "blvd", "crescent", "terrace", "highway"}
)
#: Where a capitalised word names a place or an organisation, not a person ("in Porto").
PLACE_PREPS = frozenset({"in", "at", "near", "around", "into", "outside", "across", "inside"})
#: What goes somewhere, said before "to" or "from" and a place ("a trip to Jeju", "the
#: move to Daegu", "flights from Abuja"): a name after them is a place, not someone.
TRAVEL_TO = frozenset(
    """trip trips flight flights move moving moved travel travelling traveling drive
    driving train bus ferry journey visit relocating relocation commute""".split()
)
#: Verbs (lemmas) that say a job has begun: "started at bondi bottle co", "joined stripe".
STARTED_AT = frozenset({"start", "join", "begin"})
#: Words that make a sentence a maybe, not news ("if my first day at ... goes well").
UNSURE = frozenset("if might may maybe could would whether hope hoping wish".split())
#: Roles (canonical) of the people the user works with or for: a new job, or quitting,
#: leaves them former ones ("gary my dispatcher", then "first week at panhandle done").
WORK_ROLES = frozenset(
    {
        "colleague",
        "manager",
        "teammate",
        "workmate",
        "team lead",
        "head nurse",
        "charge nurse",
        "matron",
        "head chef",
        "sous chef",
        "dispatcher",
    }
)
#: Who teaches the user something, and the words for what they teach: "first
#: watercolor class was today. the teacher is named joan": a watercolor teacher.
TEACHING = frozenset({"teacher", "instructor", "coach", "tutor", "trainer"})
LESSONS = frozenset({"class", "classes", "lesson", "lessons", "course"})
#: Relationships people call someone by as a name ("my mum": "Mum"): an unnamed one of
#: these is a person known by that word until a name is said.
KIN_NAMES = frozenset(
    """mom mum mommy mummy mama mami ma dad daddy papa papi pa grandma
    grandpa granny gran nana nan abuela abuelo lola lolo amma appa ammi omma umma eomma
    halmeoni halmoni harabeoji mam mammy momma grannie nanna gramps shosho ouma oupa
    maw abbu abba begum tía tia tío tio nonna nonno oma opa mamá papá""".split()
)
#: What a pet word says the animal is ("our beagle penny": a dog), the relationship a
#: pet is stored with: a pet is the user's, never a person.
PET_KINDS: dict[str, str] = {
    "puppy": "dog",
    "dug": "dog",  # Scots: "the dug's called skye"
    "pup": "dog",
    "labrador": "dog",
    "lab": "dog",
    "retriever": "dog",
    "golden retriever": "dog",
    "staffy": "dog",
    "spaniel": "dog",
    "terrier": "dog",
    "poodle": "dog",
    "beagle": "dog",
    "collie": "dog",
    "border collie": "dog",
    "dachshund": "dog",
    "kitten": "cat",
    "tabby": "cat",
    "bunny": "rabbit",
    "greyhound": "dog",
    "whippet": "dog",
    "pit": "dog",
    "pitbull": "dog",
    "heeler": "dog",
    "chihuahua": "dog",
    "husky": "dog",
    "corgi": "dog",
    "pug": "dog",
    "shepherd": "dog",
    "doggo": "dog",
    "pupper": "dog",
    "perrito": "dog",
    "perrita": "dog",
    "gatita": "cat",
    "perro": "dog",
    "gato": "cat",
    "gatito": "cat",
    "kitty": "cat",
    "westie": "dog",
    "yorkie": "dog",
    "maltese": "dog",
    "shih tzu": "dog",
    "frenchie": "dog",
    "bulldog": "dog",
    "cavapoo": "dog",
    "goldendoodle": "dog",
    "labradoodle": "dog",
    "cockapoo": "dog",
    "lurcher": "dog",
    "pomeranian": "dog",
    "samoyed": "dog",
    "shiba": "dog",
    "aspin": "dog",
    "puspin": "cat",
    "maine coon": "cat",
    "sphynx": "cat",
    "siamese": "cat",
    "ragdoll": "cat",
    "kucing": "cat",
    "anjing": "dog",
    "arnab": "rabbit",
}
#: Verbs (lemmas) by which someone gets (or has) a pet: "we adopted a beagle", "we have
#: a dog, waffles".
ADOPTING = frozenset({"adopt", "rescue", "get", "bring", "buy", "foster", "have"})
#: Words before a relationship noun that say it ended ("my old boss") or is new.
ENDED_MODIFIERS = frozenset({"former", "previous", "old", "ex"})
NEW_MODIFIERS = frozenset({"new", "now"})
#: Verbs (lemmas) of a partner's next step: an engagement, a wedding.
PARTNER_STEPS = {
    "propose": "engaged",
    "engage": "engaged",
    "engaged": "engaged",
    "marry": "married",
    "married": "married",
    "wed": "married",
}
#: Words that make a step a plan, a wish or a question, not news ("we wanna get married").
NOT_YET = frozenset(
    """if might may maybe could would wanna want wants plan planning plans gonna will 'll
    someday hope hoping should when whether going""".split()
)
#: Words of a sentence that says someone's name changed ("Megan Castillo now, she changed
#: her name"; "she'll be Sandra McLeod instead of Sandra Paterson").
RENAMING = frozenset({"now", "changed", "change", "instead", "anymore", "officially", "renamed"})
#: Words for someone's partner as chat says them after "her" or "his": "married ... to
#: her fella tariq".
PARTNER_SAID = frozenset(
    """partner husband wife boyfriend girlfriend fiance fiancé fiancee fiancée fella
    bloke man gf bf hubby missus""".split()
)
#: Verbs (lemmas) of a new romance, and who they are said of: "i've been seeing someone".
DATING = frozenset({"see", "date", "meet"})
DATING_OBJECTS = frozenset({"someone", "somebody", "guy", "girl", "man", "woman"})
#: A baby the speaker has, by what they call it: "we have a baby girl".
NEWBORN = {"baby girl": "daughter", "baby boy": "son", "daughter": "daughter", "son": "son"}
#: Lemmas of a move, and the relationships (canonical) a move ends: "we moved to leith"
#: leaves a roommate a former roommate.
MOVING = frozenset({"move", "relocate", "settle", "key", "shift"})
#: Words that make a proper name a place ("Laurel Falls", "St Boniface cardiac unit"): a
#: name with one of them is no person.
PLACE_WORDS = frozenset(
    """st saint mt mount lake falls cove bay beach river creek park trail canyon valley
    island hill hills street rd road avenue ave hospital clinic unit ward centre center
    church cathedral abbey station airport gardens harbour harbor cardiac vista heights
    terrace estates towers plaza court village manor""".split()
)
#: Kinds of place a name is given to ("the boba place on colfax called tea rex"): what
#: is called so there is no person.
NAMED_PLACES = frozenset(
    """place shop store cafe café restaurant bar pub company firm startup gym studio bakery
    spot club salon school clinic""".split()
)
#: Where someone lives or where the speaker knows them from, said right after their name,
#: and what that makes them to the speaker ("Devon next door", "tash from the old team").
PLACED = {
    "next door": "neighbour",
    "across the road": "neighbour",
    "across the street": "neighbour",
    "downstairs": "neighbour",
    "upstairs": "neighbour",
    "from downstairs": "neighbour",
    "from upstairs": "neighbour",
    "from next door": "neighbour",
    "from work": "coworker",
    "from the office": "coworker",
    "from my team": "coworker",
    "from the team": "coworker",
    "from old work": "former coworker",
    "from my old work": "former coworker",
    "from my old job": "former coworker",
    "from the old team": "former coworker",
    "from my old team": "former coworker",
    "from the old office": "former coworker",
    "from church": "friend",
}
LIVING_NEXT_TO = frozenset({"roommate", "neighbour", "landlord", "landlady"})
#: Who the user hires, at home or at work ("my helper rahim", "ruben our hired hand"):
#: their leaving or moving away ends it ("rahim end of month going back bangladesh").
HIRED = frozenset({"helper", "hired hand", "ranch hand", "farmhand", "maid", "housekeeper"})
#: What someone else's move away ends: living side by side, and working side by side
#: ("my coworker jinky is moving to calgary"); the user's own move leaves their job be.
LEFT_BY_MOVING_AWAY = LIVING_NEXT_TO | WORK_ROLES | HIRED
#: Chat fillers typed right after a noun ("my mum lol", "my boss tho"): never a name.
CHAT_FILLERS = frozenset(
    """lol lmao haha hahaha omg tho though btw rn tbh ngl idk imo fr smh pls plz ugh yay
    yep yup nope ok okay too again also either anyway today tonight yesterday tomorrow
    everyone everything nothing something someone somebody anyone stuff thing things
    bc cos cause coz hai hain tha thi ka ki ke ko ne se mein bhi aur na ab po si ang ng sa
    que es de la el tmrw tmr lmaoo lmfao thx ty ikr nvm jk bruh""".split()
)
#: Words a lower-case name is never (NLTK's English stop words and chat spellings of them).
NAME_STOP_WORDS = (
    frozenset(
        """i me my myself we our ours ourselves you your yours yourself he him his himself she
    her hers herself it its itself they them their theirs themselves what which who whom
    this that these those am is are was were be been being have has had having do does did
    doing a an the and but if or because as until while of at by for with about against
    between into through during before after above below to from up down in out on off
    over under again further then once here there when where why how all any both each
    few more most other some such no nor not only own same so than too very can will just
    should now im ive id ill dont didnt cant wont isnt wasnt hes shes theyre were its
    gonna wanna gotta kinda sorta new old""".split()
    )
    | frozenset(  # code-switched chat: possessives and markers around a name (Tagalog)
        """ko mo namin natin nila niya nya kami kayo si ni kay sina po naman na pa""".split()
    )
    | frozenset(  # code-switched chat: Hindi, Spanish and Tagalog function words and fillers
        """hai hain hoon ho tha thi the ka ki ke ko ne se mein pe par aur ya toh to bhi abhi
    bahut thoda bas yaar mera meri mere tera teri tum aap wo woh ye yeh kya kyun koi kuch
    sab nahi nahin haan achha accha theek ek kar karo diya gaya gayi gaye raha
    rahi hua hui hue paas saath liye baad kaun kab kahan kaha kaise
    karke aaya aayi aayega jaayega matlab phir fir jab tab
    pero que con para por muy mas más porque pues bien
    todo nada tambien también aqui aquí ahora jaja jajaja bueno dijo ay mijo mija en la el
    los las del
    lang din rin daw raw pala kasi yung iyong talaga sobra grabe syempre ganun""".split()
    )
    | frozenset(  # code-switched chat: Malay function words and fillers (Manglish; "Dan",
        # "Dia", "Wei", "Sana", "Masa", "Tanya", "Saya" are names too)
        """je la lah lagi baru dah sudah belum tak tidak nak mahu cakap dapat kena pun
    sini situ tu ni itu ini kami aku awak sikit banyak sangat dengan atau tapi sebab
    kalau lepas nanti tadi semalam esok boleh jangan mesti memang betul ok ke kot meh eh ah
    risau marah suka sakit penat pengsan balik pergi datang makan tidur masak beli tolong
   """.split()
    )
    | frozenset(  # Nigerian Pidgin and Scots in English chat: "mummy dey call me", "wee isla"
        """dey don wetin abeg sha oya una dem wan jare sef abi shey ehn wahala
    wee aye naw hasnae canny cannae dinnae didnae isnae wasnae fae awfy""".split()
    )
    | frozenset(  # thanks and greetings of other languages, said at a message's end
        # ("ok going to futsal tonight to clear my head, obrigado")
        """obrigado obrigada gracias merci danke grazie arigato arigatou shukriya dhanyavaad
    dhanyawad salamat asante dankie gomawo kamsahamnida cheers ta hola ciao salut namaste
    habari sawubona kumusta annyeong oi tchau adios adiós""".split()
    )
    | frozenset(  # function words of other Latin-script languages: "con mi mami en julio"
        word for words in LATIN_FUNCTION_WORDS.values() for word in words
    )
    - {"al", "ang"}
)  # names too (Al, Ang)
#: Copulas said after what someone is, in code-switched chat (Hindi word order: "ab
#: ananya meri wife hai", now Ananya is my wife).
COPULAS_AFTER = frozenset({"hai", "hain", "tha", "thi"})
#: Owners said after the relationship word in code-switched chat: "ate ko si joy" (my
#: older sister joy), "yung boss namin" (our boss).
OWNERS_AFTER = frozenset(tl.POSSESSIVES)
#: Words that stand before a person's name and are skipped to reach it: "si joy".
NAME_MARKERS = frozenset(tl.ARTICLES)

#: Nouns that belong to a person: "Aisha's birthday" names a person even when spaCy tags
#: "Aisha" as a place.
PERSONAL_NOUNS = frozenset(
    {
        "birthday",
        "job",
        "work",
        "flat",
        "house",
        "apartment",
        "place",
        "allergy",
        "allergies",
        "passion",
        "hobby",
        "favourite",
        "favorite",
        "wedding",
        "health",
        "diet",
        "car",
        "phone",
        "family",
        "kids",
        "name",
        "party",
        "team",
        "office",
        "school",
        "degree",
        "wife",
        "husband",
    }
)

#: Relationships that tell a person's gender, so "she" is not resolved to a brother.
FEMALE_RELATIONSHIPS = frozenset(
    {
        "mother",
        "mom",
        "mum",
        "sister",
        "daughter",
        "wife",
        "girlfriend",
        "fiancée",
        "fiancee",
        "aunt",
        "auntie",
        "niece",
        "grandmother",
        "grandma",
        "gran",
        "granny",
        "nan",
        "nana",
        "granddaughter",
        "mother-in-law",
        "sister-in-law",
        "stepmother",
        "stepmum",
        "stepmom",
        "stepsister",
        "stepdaughter",
        "landlady",
        "godmother",
        "goddaughter",
    }
)
MALE_RELATIONSHIPS = frozenset(
    {
        "father",
        "dad",
        "brother",
        "son",
        "husband",
        "boyfriend",
        "fiancé",
        "fiance",
        "uncle",
        "nephew",
        "grandfather",
        "grandpa",
        "grandad",
        "granddad",
        "grandson",
        "father-in-law",
        "brother-in-law",
        "stepfather",
        "stepdad",
        "stepbrother",
        "stepson",
        "landlord",
        "godfather",
        "godson",
    }
)

#: Adjectives dropped from a relationship ("older sister" -> "sister").
RELATIONSHIP_MODIFIERS = frozenset(
    {"older", "younger", "little", "lil", "big", "elder", "baby", "new", "old", "dear"}
)

#: Category cues, checked in this order; the first category with a cue wins.
#: Each entry: category, base importance, lemmas/phrases that signal it.
CATEGORY_CUES: tuple[tuple[Category, float, frozenset[str]], ...] = (
    (
        Category.CONSTRAINT,
        0.9,
        frozenset(
            {
                "allergic",
                "allergy",
                "allergies",
                "intolerant",
                "intolerance",
                "never",
                "must",
                "can't eat",
                "cannot eat",
                "can't have",
                "vegan",
                "vegetarian",
                "kosher",
                "halal",
                "avoid",
                "not allowed",
                "forbidden",
                "deadline",
                "gluten-free",
                "gluten",
            }
        ),
    ),
    (
        Category.HEALTH,
        0.8,
        frozenset(
            {
                "doctor",
                "sick",
                "ill",
                "pain",
                "diagnose",
                "surgery",
                "medication",
                "medicine",
                "hospital",
                "pregnant",
                "injury",
                "injure",
                "therapy",
                "asthma",
                "diabetes",
                "migraine",
                "symptom",
                "blood pressure",
                "covid",
                "flu",
                "sleep",
                "insomnia",
                "depression",
            }
        ),
    ),
    (
        Category.PREFERENCE,
        0.6,
        frozenset(
            {
                "love",
                "like",
                "prefer",
                "favorite",
                "favourite",
                "enjoy",
                "hate",
                "dislike",
                "fan of",
                "adore",
                "can't stand",
            }
        ),
    ),
    (
        Category.EMOTION,
        0.6,
        frozenset(
            {
                "feel",
                "afraid",
                "scared",
                "anxious",
                "worried",
                "worry",
                "happy",
                "sad",
                "angry",
                "upset",
                "stressed",
                "excited",
                "nervous",
                "lonely",
                "proud",
                "frustrated",
                "grateful",
                "terrified",
                "overwhelmed",
                "depressed",
            }
        ),
    ),
    (
        Category.WORK,
        0.6,
        frozenset(
            {
                "job",
                "work",
                "manager",
                "boss",
                "colleague",
                "office",
                "project",
                "promote",
                "promotion",
                "hire",
                "fire",
                "salary",
                "meeting",
                "client",
                "team",
                "career",
                "ship",
                "release",
                "interview",
                "company",
                "startup",
                "quit",
            }
        ),
    ),
    (
        Category.LIFE,
        0.6,
        frozenset(
            {
                "move",
                "live",
                "born",
                "marry",
                "married",
                "wedding",
                "divorce",
                "baby",
                "house",
                "apartment",
                "flat",
                "birthday",
                "family",
                "graduate",
                "school",
                "university",
                "pet",
                "dog",
                "cat",
                "adopt",
                "home",
                "rent",
            }
        ),
    ),
    (
        Category.STRATEGY,
        0.7,
        frozenset(
            {
                "plan",
                "strategy",
                "approach",
                "decide",
                "solution",
                "works best",
                "trick",
                "habit",
                "routine",
                "try",
                "goal",
            }
        ),
    ),
    (
        Category.EVENT,
        0.5,
        frozenset(
            {
                "go",
                "visit",
                "meet",
                "trip",
                "party",
                "concert",
                "travel",
                "attend",
                "celebrate",
                "dinner",
                "lunch",
                "vacation",
                "holiday",
                "flight",
                "fly",
                "race",
                "match",
                "marathon",
            }
        ),
    ),
)
OTHER_IMPORTANCE = 0.4

#: Emotional intensity: strong and moderate cues, intensifiers add a little.
EMOTION_STRONG = frozenset(
    {
        "love",
        "hate",
        "adore",
        "terrified",
        "furious",
        "devastated",
        "thrilled",
        "heartbroken",
        "ecstatic",
        "can't stand",
        "despise",
    }
)
EMOTION_MODERATE = frozenset(
    {
        "like",
        "enjoy",
        "afraid",
        "scared",
        "worried",
        "worry",
        "happy",
        "sad",
        "angry",
        "upset",
        "excited",
        "nervous",
        "stressed",
        "anxious",
        "lonely",
        "proud",
        "frustrated",
        "miss",
        "fear",
        "dislike",
        "grateful",
        "overwhelmed",
    }
)
INTENSIFIERS = frozenset({"really", "so", "very", "extremely", "absolutely", "totally", "super"})

#: Words that make a fact matter more whatever its category.
IMPORTANCE_BOOST = frozenset({"important", "always", "never", "must", "seriously", "critical"})

#: Cues that a sentence speaks of the future (a bare weekday then points forward).
FUTURE_CUES = re.compile(
    r"\b(will|'ll|gonna|going to|plan(?:ning)? to|next|upcoming|soon)\b", re.IGNORECASE
)


def normalise(text: str) -> str:
    """Lowercase, drop punctuation and emoji, collapse spaces (for small-talk lookups).

    >>> normalise("Thanks!!  😊")
    'thanks'
    """
    text = re.sub(r"[^\w\s'-]", " ", text.lower().replace("’", "'"))
    return " ".join(text.split())


def cues_in(lemmas: set[str], text: str, cues: frozenset[str]) -> set[str]:
    """The cues present as a lemma, or (multi-word cues) as a phrase of ``text``."""
    found = lemmas & cues
    found |= {cue for cue in cues if " " in cue and cue in text}
    return found


#: ``SPELLED_OUT`` phrases that say whose they are by themselves: "the missus (barb)" is
#: the speaker's wife, as "my wife barb" is.
SELF_OWNED = frozenset(p for p in SPELLED_OUT if p.startswith("the "))


#: What only animals do or need, and the kind it says ("pet": any), read beside a name
#: no relationship was read for (``ingestion.pets``): "obama dey bark", "took biscuit to
#: the vets".
ANIMAL_DOINGS: dict[str, str] = {
    **dict.fromkeys("bark barks barked barking woof woofing".split(), "dog"),
    **dict.fromkeys(
        "meow meows meowed meowing miaow purr purrs purred purring litter hairball".split(),
        "cat",
    ),
    **dict.fromkeys(
        """vet vets vet's veterinarian kibble neutered spayed groomer groomers fleas
        flea leash walkies paw paws""".split(),
        "pet",
    ),
}
#: What people do, said beside a name: a person, not an animal ("jake said he'd walk the
#: dog").
PEOPLE_DOINGS = frozenset(
    """said says told tells texted texts text messaged emailed phoned rang replied
    wrote asked works worked working job boss married wedding boyfriend girlfriend
    husband wife""".split()
)
#: The user's possessives: "my cat" is the user's animal.
MINE = frozenset("my our me mi mis nuestro nuestra mon ma notre meu minha mein meine".split())
#: Someone else's: "jake came round with his dog" names Jake's dog, not Jake.
THEIR = frozenset("his her their hers su sus son sa ses seu sua sein seine ihr ihre".split())
#: Lower-case words inside a name ("Vincent van Gogh", "Maria de la Cruz", "Ahmad bin
#: Ismail"): a name's other lower-case words end it ("Hana dah").
NAME_PARTICLES = frozenset(
    "van von der den de la le du des da di del della dos das bin binti al el".split()
)
