"""Hindi typed in Latin letters, mixed with English (Hinglish): the claims a sentence
makes about where the user lives and works, as rules kept as data.

Indian users chat in Hinglish ("pune mein rehti hoon", "thoughtworks se offer aaya aur
maine accept kar liya"), which no spaCy pipeline reads and no rule of the English ones
matches, so a move or a new job said so changed nothing of the user's. The grammar is
regular enough for rules: a place with the postposition "mein" before the verb of living
("rehti hoon"), a company before "se offer" and a joining. A sentence that wishes,
plans or supposes ("agar", "soch rahi hoon", "chahta hoon"), or speaks of someone else
("mera cousin", "uski"), claims nothing.

>>> from graphmem.lang import claim
>>> claim("hi! main neha, 27, pune mein rehti hoon"), claim("settled ho gayi andheri mein!")
(('location', 'pune'), ('location', 'andheri'))
>>> claim("big news!! thoughtworks se offer aaya aur maine accept kar liya. 1 july joining")
('employer', 'thoughtworks')
>>> claim("toh mumbai shift ho rahi hoon"), claim("agar hyderabad shift ho gaye to?")
(None, None)
>>> claim("mera cousin kunal canada shift ho gaya")


Only claims: the module has no function words, so ``detect`` never names a text Hindi
by it, and how such turns are kept and read for people is unchanged (``tl``, ``en``).
"""

from __future__ import annotations

from graphmem.lang import Language, en, in_own_sentence

#: Words that make a sentence a wish, a plan or a supposition, not a change, or someone
#: else's ("mera cousin kunal canada shift ho gaya").
NOT_YET = (
    "agar|shayad|soch|sochta|sochti|chahta|chahti|chahte|plan|planning|kya|hoga|hogi|"
    "mera|meri|mere|uska|uski|uske|unka|unki|unke|woh|wo|vo"
)
#: Words a value never starts with: pronouns, particles, postpositions.
_NOT_A_VALUE = (
    r"(?!(?:main|mai|mein|me|hum|ham|ab|abhi|toh|to|aur|ki|ke|ka|se|ko|bhi|yahan|yaha|"
    r"wahan|finally|bhai|yaar|and|so|ok|i|we)\b)"
)
_VALUE = rf"(?P<value>{_NOT_A_VALUE}[a-z][\w&-]*(?:\s+{_NOT_A_VALUE}[a-z][\w&-]*)?)"
#: Job words said before "hoon": "infosys mein QA engineer hoon".
JOBS = (
    "engineer|developer|designer|manager|analyst|nurse|doctor|teacher|intern|consultant|"
    "accountant|tester|lead|architect|sde|associate|executive|officer|scientist"
)


#: Claims, as (attribute, pattern), tried in order: where the user lives (the home, then
#: the city stayed in), then works.
CLAIMS: tuple[tuple[str, str], ...] = (
    # "pune mein rehti hoon", "andheri mein rehte hain"
    (
        "location",
        in_own_sentence(
            rf"{_VALUE}\s+(?:mein|me|main)\s+(?:rehta|rehti|rehte)\s+(?:hoon|hu|hun|hain)\b",
            NOT_YET,
        ),
    ),
    # "settled ho gayi andheri mein", "shift ho gaye bangalore mein"
    (
        "location",
        in_own_sentence(
            rf"(?:settle|settled|shift|shifted|move|moved)\s+ho\s+(?:gaya|gayi|gaye|gye|gyi)\s+"
            rf"{_VALUE}\s+(?:mein|me|main)\b",
            NOT_YET,
        ),
    ),
    # "bangalore shift ho gaya", "hsr layout mein shift ho gaye" (done, not "ho rahi hoon")
    (
        "location",
        in_own_sentence(
            rf"{_VALUE}\s+(?:(?:mein|me)\s+)?(?:shift|shifted|move|moved|settle|settled)\s+"
            r"(?:ho\s+)?(?:gaya|gayi|gaye|gye|gyi|kar\s+liya|kiya)\b",
            NOT_YET,
        ),
    ),
    # the city one stays in, a move not made: "hum bangalore mein hi rahenge"
    (
        "city",
        in_own_sentence(
            rf"{_VALUE}\s+(?:mein|me|main)\s+(?:hi|hee)\s+"
            r"(?:rahenge|rahunga|rahungi|rehenge|rehunga|rehungi|rukenge|rukunga|rukungi)\b",
            NOT_YET,
        ),
    ),
    # "thoughtworks se offer aaya aur maine accept kar liya", "zentrix ka offer mil gaya"
    (
        "employer",
        in_own_sentence(
            rf"{_VALUE}\s+(?:se|ka|ki|ke)\s+offer\s+(?:aaya|aa\s+gaya|mil\s+gaya|mila)"
            r"(?=[^.!?]*?\b(?:accept|join|joining|le\s+liya|sign))",
            NOT_YET,
        ),
    ),
    # "offer mil gaya!! zentrix labs, SDE-2 ... joining 11 march"
    (
        "employer",
        rf"(?i)\boffer\s+(?:mil\s+gaya|aa\s+gaya|aaya)[!.\s]*{_VALUE}(?=[,.!\s])"
        r"(?=[^?]*?\b(?:joining|join|accept))",
    ),
    # "infosys mein kaam karti hoon", "infosys mein QA engineer hoon"
    (
        "employer",
        in_own_sentence(
            rf"{_VALUE}\s+(?:mein|me)\s+(?:kaam\s+(?:karta|karti|karte)|job\s+(?:karta|karti|"
            rf"karte)|(?:[\w-]+\s+){{0,2}}(?:{JOBS}))\s+(?:hoon|hu|hun|hai|hain)\b",
            NOT_YET,
        ),
    ),
)

#: the user's "am" / "was" closing a question: "rehti hu", "mein thi", "kaha tha"
_I_AM = r"(?:hu|hoon|hun|thi|tha)\b"

#: Romanised Hindi and Urdu function words a question is made of ("hamari pehli baat cheet
#: mein main kis baat pe pareshan tha"): no word of what it asks about.
STOP_WORDS = en.STOP_WORDS | frozenset(
    """main mein me mera meri mere hamara hamari hamare hum ham tum tu tera teri tumhara
    tumhari aap aapka aapki kya kis kise kaun kaunsa kaunsi kab kahan kaha kaise kyun
    ka ki ke ko se pe par tha thi the hai hain hoon hu hun ho tha thaa aur ya bhi to
    toh ne wala wali wale yeh ye woh wo us uska uski iska iski""".split()
)

#: Romanised Hindi and Urdu verbs as chat types them before an auxiliary ("begum kehti
#: hai", "ammi bolti thi"): after a kin word they are what the person does, no name.
PARTICIPLES = frozenset(
    """kehti kehta kehte bolti bolta bolte karti karta karte rehti rehta rehte jaati jati
    jata jaate jate aati ati aata ata aate sochti sochta sochte chahti chahta chahte lagti
    lagta lagte dekhti dekhta dekhte milti milta milte deti deta dete leti leta lete
    samajhti samajhta roti rota hasti hansti hansta bulati bulata puchti puchta""".split()
)

LANGUAGE = Language(
    code="hi",
    name="Hindi",
    script=en.LANGUAGE.script,
    words=en.words,
    stop_words=STOP_WORDS,
    claims=CLAIMS,
    name_question=r"(?i)\bnaam\b",  # "uska naam kya hai"
    moves_to=r"(?i)\b(?:shift|shifted|move|moved)\s+(?:ho\s+)?(?:gaya|gayi|gaye|gye|gyi)\b",
    # "main abhi kaha rehti hu" asks today's home, "pehle kaunsi company mein thi" an
    # employer before
    time_words={"abhi": "now", "aajkal": "these days", "pehle": "before"},
    # what a question asks, in its own words, of the user (a first-person "hu", "thi":
    # "meri behen kaha rehti hai" is hers): "main abhi kaha rehti hu", "mera PG kaha
    # tha" (a paying-guest room) ask where the user lives; "kaha kaam karti hu",
    # "kaunsi company mein thi" where the user works
    asks=(
        (
            rf"(?i)\b(?:kaha|kahan|kahaan|kidhar)\b.*\b(?:reh|rah)\w*\s+{_I_AM}"
            rf"|\b(?:mera|meri)\s+(?:PG|ghar|flat)\s+(?:kaha|kahan|kahaan|kidhar)\s+{_I_AM}"
            # "kya main dubai shift ho gaya hun?": whether the user moved, where they live
            rf"|\b(?:main|mai|hum)\b.*\b(?:shift|move)\s+(?:ho\s+)?(?:gaya|gayi|gaye|gye|gyi)\s+"
            rf"(?:hun|hu|hoon|hain)\b",
            ("location",),
        ),
        (
            rf"(?i)\b(?:kaha|kahan|kahaan|kidhar)\b.*\b(?:kaam|job|naukri)\b.*{_I_AM}"
            rf"|\b(?:kaunsi|konsi|kaun\s+si|kis)\s+company\b.*{_I_AM}",
            ("employer", "job"),
        ),
    ),
    # "main", "mera", "mujhe": the user's own (not "mein", which is also "in")
    asks_of_self=r"(?i)\b(?:main|mai|mera|meri|mere|mujhe|maine)\b",
    # "woh book ka naam kya tha jo tumne bataya tha": what the assistant said
    asks_the_assistant=(
        r"(?i)\b(?:tumne|tune|aapne|apne|tum\s+ne|aap\s+ne)\s+(?:\w+\s+){0,2}?(?:bataya|batayi|"
        r"bola|boli|kaha|suggest|recommend)\w*\b"
        # the verb first: "kaunsi batayi thi tune", "kaunsi app batayi thi tum ne"
        r"|\b(?:bataya|batayi|bataye|bola|boli|kaha|suggest\s+ki(?:ya|ye)?|recommend\s+ki(?:ya|ye)?)"
        r"\s+(?:tha|thi|the)\s+(?:tumne|tune|aapne|tum\s+ne|aap\s+ne)\b"
        # no one said: "sehri ke liye kya suggest kiya tha" (the user asks what was suggested)
        r"|^(?!.*\b(?:maine|humne|hamne)\b).*\b(?:suggest|recommend)\s+ki(?:ya|ye|i)\s+th(?:a|i|e)\b"
    ),
    # "mera manager kaun hai", "ishita ab officially meri kya lagti hai": who someone is
    who_question=r"(?i)\bkaun\b|\bkya\s+lag(?:ta|ti|te)\b",
)
