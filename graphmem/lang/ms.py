"""Malay as Malaysians mix it into English (Manglish): the claims a sentence makes about
where the user lives and works, as rules kept as data.

Malaysian users chat in English with Malay words in it ("rent 700 share rumah with my
housemate in setapak", "i kerja audit at a firm in bangsar", "dapat offer from touch n
go, start 2nd june"), which the English rules do not read: a Malay verb of living or
working ("tinggal", "duduk", "kerja"), a house ("rumah") or an offer got ("dapat
offer") said around an English place. A sentence that supposes or plans ("kalau",
"nak", "plan"), or speaks of someone else ("dia", "he", "she"), claims nothing.

>>> from graphmem.lang import claim
>>> claim("rent 700 share rumah with my housemate Liyana in setapak, myvi loan 550")
('location', 'setapak')
>>> claim("I kerja audit at a firm in bangsar so balik lambat")
('employer', 'firm')
>>> claim("Dapat offer from touch n go, finance analyst, start 2nd june")
('employer', 'touch n go')
>>> claim("kalau dapat offer from grab, start next month"), claim("dia tinggal kat ipoh")
(None, None)

Only claims and question words: the module has no function words, so ``detect`` never
names a text Malay by it, and such turns are read as English is.
"""

from __future__ import annotations

from graphmem.lang import Language, en, in_own_sentence, months_numbered

#: Words that make a sentence a wish, a plan or a supposition, or someone else's: "kalau
#: dapat offer", "nak pindah", "dia tinggal kat ipoh", "hafiz ... his senior went there".
NOT_YET = (
    "kalau|klau|kalo|if|nak|mau|mahu|hendak|plan|planning|maybe|mungkin|rasa|teringin|"
    "nanti|akan|would|might|thinking|considering|dia|diorang|dorang|mereka|he|she|they|"
    "his|her|their|trip|holiday|cuti|hotel|airbnb|weekend|"
    # someone else's move: "temen kantor aku dulu, florence, baru pindah ke singapore"
    "temen|teman|kawan|sahabat|friend|colleague|adik|kakak|abang|ipar|sepupu|cousin"
)
#: Words that end a value ("setapak, myvi loan", "firm in bangsar").
_STOPS = (
    "in|at|di|kat|dekat|with|dengan|and|dan|but|tapi|so|jadi|for|untuk|since|sejak|from|"
    "dari|lepas|after|before|sebelum|now|sekarang|skrg|dah|already|je|jer|la|lah|pun|ke|kan|"
    "lol|haha+|start|mula|next|last|this|bulan|minggu|tahun|month|week|year|on|pada|the|a|"
    "an|my|our|i|we|saya|aku|kami|is|was|near|area|sikit|"
    # Indonesian: "kunci rumah BSD dikasih tgl 14", "rumah di BSD!! akad kredit"
    "dikasih|dikasi|dapet|udah|sudah|tgl|tanggal|akad|sekarang|yg|yang|juga|baru|kerja"
)
_WORD = r"[^\W\d_][\w'&-]*"
_ONE = rf"(?!(?:{_STOPS})\b){_WORD}"
_VALUE = rf"(?:(?:a|an|the)\s+)?(?P<value>{_ONE}(?:[ \t]+{_ONE}){{0,2}})"
#: Homes: a place after one is where the user lives ("sewa bilik kat pj").
_HOMES = "rumah|bilik|room|condo|apartment|apt|house|unit|flat"
_I = r"(?:i|we|saya|aku|kami|kitorang|kita|sy)"
#: where one stays and does not live ("stay at home", "duduk kat office")
_NOT_HOME = "touch|bed|home|rumah|night|malam|work|office|ofis|school|sekolah|hospital"

#: Claims, as (attribute, pattern), tried in order.
CLAIMS: tuple[tuple[str, str], ...] = tuple(
    (attribute, in_own_sentence(body, NOT_YET))
    for attribute, body in (
        # "i stay kat subang", "kami tinggal dengan mak di shah alam" (not "i stay up late
        # at night", "i stay in touch")
        (
            "location",
            rf"{_I}\s+(?:(?:still|masih|dah|now|skrg|sekarang)\s+)?(?:tinggal|duduk|stay|menetap)"
            # "kita masih tinggal di rumah mertua di bekasi": the town of whose house
            r"\s+(?:(?:with|dengan)\s+(?:\S+\s+){1,3}?|(?:di|kat)\s+rumah\s+[\w-]+\s+)?"
            r"(?:di|kat|dekat|in|at)\s+"
            rf"(?!(?:{_NOT_HOME})\b){_VALUE}",
        ),
        # "rent 700 share rumah with my housemate in setapak", "sewa bilik kat pj"
        (
            "location",
            rf"(?:rent|rented|renting|sewa|menyewa|share)\b[^.!?,]{{0,20}}?\b(?:{_HOMES})\b"
            rf"[^.!?,]{{0,40}}?\b(?:di|kat|dekat|in|at)\s+{_VALUE}",
        ),
        # "rumah baru kat kajang", "rumah kitorang di bangi"
        (
            "location",
            r"(?:rumah|condo|apartment|house|unit)\s+(?:baru|new|kami|kitorang|saya|aku|i)\s+"
            rf"(?:di|kat|dekat|in|at)\s+{_VALUE}",
        ),
        # a home bought or its keys got, Indonesian too: "kita jadi beli rumah di BSD!!",
        # "kunci rumah BSD dikasih tgl 14"
        (
            "location",
            rf"(?:beli|membeli|dapat|dapet|dpt)\s+(?:{_HOMES})\s+(?:baru\s+|new\s+)?"
            rf"(?:di|kat|dekat|in|at)\s+{_VALUE}",
        ),
        ("location", rf"\bkunci\s+(?:{_HOMES})\s+(?:baru\s+)?(?:di\s+|kat\s+)?{_VALUE}"),
        # "dah pindah ke shah alam", "we pindah rumah to cyberjaya"
        (
            "location",
            rf"(?:pindah|berpindah)\s+(?:rumah\s+)?(?:\S+\s+){{0,2}}?(?:ke|to|pergi)\s+{_VALUE}",
        ),
        # "i kerja audit at a firm in bangsar", "saya bekerja sebagai nurse di KPJ"
        (
            "employer",
            rf"{_I}\s+(?:(?:still|masih|dah|now|skrg|sekarang)\s+)?(?:kerja|keje|bekerja|kije)\s+"
            rf"(?:sebagai\s+|as\s+)?(?:[\w-]+\s+){{0,2}}?(?:at|kat|di|dekat|with|dengan|for)\s+"
            rf"{_VALUE}",
        ),
        # an offer got and a start said: "dapat offer from touch n go, start 2nd june"
        (
            "employer",
            r"(?:dapat|dpt|got|terima)\s+(?:the\s+|an?\s+)?(?:job\s+)?offer\s+"
            rf"(?:from|dari|kat|at|with|dengan)\s+{_VALUE}"
            r"(?=[^.!?]*\b(?:start|mula|masuk|join|lapor|sign|accept|terima)\w*)",
        ),
        # "dah start kerja kat maybank", "dapat kerja baru kat petronas"
        (
            "employer",
            r"(?:mula|start|dapat|dpt)\s+(?:kerja|keje|job)\s+(?:baru\s+|new\s+)?"
            rf"(?:kat|di|dekat|at|with|dengan)\s+{_VALUE}",
        ),
        # a job lost: no employer now ("kena buang kerja", "kena retrench")
        (
            "employer",
            r"(?:kena|dah\s+kena|dikenakan)\s+(?:buang\s+kerja|pecat|fire|retrench|berhenti)\b",
        ),
        # "naik pangkat jadi senior auditor"
        (
            "job",
            rf"(?:naik\s+pangkat|dinaikkan\s+pangkat)\s+(?:jadi|ke|sebagai|to|as)\s+{_VALUE}",
        ),
    )
)

LANGUAGE = Language(
    code="ms",
    name="Malay",
    # Malay and Indonesian spellings ("mac", "maret"; "ogos", "agustus")
    months=months_numbered(
        "januari",
        "februari",
        "mac/maret",
        "april",
        "mei",
        "jun/juni",
        "julai/juli",
        "ogos/agustus",
        "september",
        "oktober",
        "november",
        "disember/desember",
    ),
    script=en.LANGUAGE.script,
    words=en.words,
    stop_words=en.STOP_WORDS,
    claims=CLAIMS,
    asks=(
        (r"(?i)\b(?:tinggal|duduk|menetap|pindah)\b", ("location",)),
        (r"(?i)\b(?:kerja|keje|bekerja|ofis|opis|syarikat)\b", ("employer", "job")),
        (r"(?i)\bkereta\b", ("car",)),
    ),
    name_question=r"(?i)\bnama(?:nya|mu)?\b|\bdipanggil\b",  # "siapa namanya"
    asks_of_self=r"(?i)\b(?:saya|aku|sy|kita|kami)\b",  # "kita tinggal di mana": we
    # "resep apa yg kamu kasih", "apa tips kamu", "buku yang awak cadangkan"
    asks_the_assistant=(
        r"(?i)\b(?:kamu|kau|awak|anda|u)\s+(?:pernah\s+|dulu\s+|tadi\s+)?(?:kasih|kasi|bagi|"
        r"bilang|cakap|kata|sebut|saranin|sarankan|cadangkan|rekomen\w*|suggest\w*|"
        r"recommend\w*)\b|\b(?:tips|saran|resep|cadangan)\s+(?:dari\s+)?(?:kamu|kau|awak)\b"
    ),
    # "where did i stay dulu", "kerja mana sekarang"
    time_patterns=(
        (r"(?i)\b(?:dulu|dahulu|sebelum\s+ni)\b", " before "),
        (r"(?i)\b(?:sekarang|skrg|kini)\b", " now "),
        (r"(?i)\bmasih\b", " still "),
    ),
)
