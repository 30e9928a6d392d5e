"""Questions as people ask them of what they said in chat: a surname said in the middle
of a long message, the car before the one said last, a French question's little words,
what the assistant suggested asked in romanised Urdu. Real
spaCy, fastembed and the embedded FalkorDB."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem import Memory
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat


def _turns(session: str, date: str, *said: tuple[str, str]) -> list[dict]:
    head = {"session_id": session, "date": date}
    return [head] + [
        {"session_id": session, "turn": i, "speaker": who, "text": text}
        for i, (who, text) in enumerate(said)
    ]


AUCKLAND = [
    *_turns(
        "2025-03-03",
        "2025-03-03T13:10:00+13:00",
        (
            "user",
            "Kia ora, right so bit of a brain dump sorry. I'm a stay at home dad with two kids, "
            "Ruby's 7 and in Year 3 at Mt Albert Primary and Finn's 4 and at home with me most "
            "days, my wife Sarah just started a new job at Fisher & Paykel Healthcare in East "
            "Tamaki last week (she's a product manager) so the mornings have gone a bit feral, "
            "and I need lunchbox ideas that aren't just marmite sammies because Ruby's school "
            "is pushing the healthy lunchbox thing hard. Nut free school too.",
        ),
        ("assistant", "Easy wins: zucchini slice, cheese scones and fruit kebabs."),
        (
            "user",
            "Zucchini slice is a winner. Our mate Hemi just moved to Brisbane for work so "
            "we've scored his old trampoline lol",
        ),
    ),
    *_turns(
        "2025-05-19",
        "2025-05-19T20:00:00+12:00",
        (
            "user",
            "Well, we're in! Got the keys on the 2nd, moving day was chaos, Finn cried because "
            "the big silver whale was full of boxes and he thought there was no room for his "
            "car seat (there was), the dog next door barks all day but the tui in the morning "
            "make up for it. Ruby started at Titirangi School last Monday and she's already "
            "got a new mate called Aria so that's a relief. And Kate's wedding was on "
            "Saturday, beautiful day at the vineyard, so she's officially Kate Fonoti now, "
            "Mum cried the whole ceremony",
        ),
        ("assistant", "Congratulations to Kate Fonoti, it sounds like a beautiful wedding."),
    ),
]

LYON = [
    *_turns(
        "2025-01-10",
        "2025-01-10T21:00:00+01:00",
        (
            "user",
            "le pire c'est le trajet, villeurbanne - vieux lyon tous les jours avec ma vieille "
            "206 qui fait un bruit bizarre quand je freine",
        ),
        ("user", "je suis allergique à rien mais je sais même pas quoi dire de ce chef"),
    ),
    *_turns(
        "2025-03-02",
        "2025-03-02T10:00:00+01:00",
        (
            "user",
            "salut. bon la 206 est morte pour de vrai, embrayage + freins. du coup j'ai pris "
            "un kangoo d'occase, parfait pour aller chez les producteurs",
        ),
        (
            "user",
            "et moins cool: samedi j'ai fait une réaction allergique dans un resto thaï. "
            "l'allergiste a confirmé: allergie aux noix de cajou",
        ),
    ),
]

KARACHI = _turns(
    "2025-02-01",
    "2025-02-01T22:00:00+05:00",
    ("user", "hisaab kitaab sab register mein likhta hun. koi app hai jo easy ho?"),
    ("assistant", "Easy Khata try karein. Yeh Pakistani app hai, Urdu mein bhi chalti hai."),
    ("user", "sehri mein kya khaun? paratha chhorna parega kya"),
    ("assistant", "Sehri ke liye behtar options: besan chilla, daliya, ya anday."),
)


def _ask(memory: Memory, user: str, folder: Path, chat: list[dict], question: str) -> str:
    ingest_file(memory, write_chat(folder, chat), user, progress=False)
    return memory.recall(user, question, k=1)[0].card.fact


def test_a_surname_asked_shows_the_part_of_a_long_message_that_gives_it(
    memory: Memory, user: str, tmp_path: Path
):
    fact = _ask(memory, user, tmp_path, AUCKLAND, "what's Kate's married name")
    assert "Fonoti" in fact


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("j'avais quelle voiture avant ?", "206"),  # no change replaced it: the turn of the change
        ("c'est quoi ma bagnole maintenant ?", "kangoo"),
        ("je suis allergique à quoi déjà?", "cajou"),  # not "je sais même pas quoi dire"
    ],
)
def test_a_french_question_is_answered_by_its_meaning(
    memory: Memory, user: str, tmp_path: Path, question: str, said: str
):
    assert said in _ask(memory, user, tmp_path, LYON, question)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("hisaab kitaab ke liye kaunsi app batayi thi tum ne", "Easy Khata"),
        ("sehri ke liye kya suggest kiya tha", "besan chilla"),
    ],
)
def test_what_the_assistant_suggested_asked_in_romanised_urdu(
    memory: Memory, user: str, tmp_path: Path, question: str, said: str
):
    assert said in _ask(memory, user, tmp_path, KARACHI, question)


HOUSTON = [
    *_turns(
        "2024-05-18",
        "2024-05-18T08:00:00-05:00",
        (
            "user",
            "cardiac is new for me o, i have never done all those drips. any book to start with?",
        ),
        (
            "assistant",
            "Good places to start: **ECG Interpretation Made Incredibly Easy!** (Lippincott), "
            "very readable, lots of pictures.",
        ),
    ),
    *_turns(
        "2024-06-22",
        "2024-06-22T08:00:00-05:00",
        (
            "user",
            "first week done at the new unit and omo, these patients are SICK. my preceptor "
            "destiny is very patient with me sha. the ecg book you told me about is helping",
        ),
        (
            "assistant",
            "First week done, well done! A fresh open-heart on your second night is a real "
            "baptism of fire. A few things that help:\n- **A brain sheet** for each patient\n"
            "- **Eat before shift**, not on break",
        ),
    ),
]


def test_the_reply_to_a_report_of_a_suggestion_is_not_the_suggestion(
    memory: Memory, user: str, tmp_path: Path
):
    """ "the ecg book you told me about is helping" matches the question best, but tells
    of what was said before: the reply after it names no book; the reply to "any book to
    start with?" does."""
    fact = _ask(memory, user, tmp_path, HOUSTON, "which ecg book did you recommend for me")
    assert "Made Incredibly Easy" in fact


TOM = [  # a new user, plain chat: a car sold and one bought by model, a proposal said yes to
    {"session_id": "t1", "date": "2026-02-10T20:00:00+11:00"},
    {
        "session_id": "t1",
        "speaker": "user",
        "text": "evenin. long shift. my girlfriend jess reckons i need a holiday lol, "
        "still drivin the old commodore to work every day",
    },
    {"session_id": "t1", "speaker": "assistant", "text": "Jess might be onto something!"},
    {"session_id": "t2", "date": "2026-04-02T19:00:00+11:00"},
    {
        "session_id": "t2",
        "speaker": "user",
        "text": "sold the commodore!! got 6 grand for it. picked up a 2017 hilux sr5 from a "
        "dealer in thomastown, needed a ute anyway",
    },
    {"session_id": "t2", "speaker": "assistant", "text": "A Hilux is a great choice."},
    {"session_id": "t3", "date": "2026-05-15T21:00:00+10:00"},
    {
        "session_id": "t3",
        "speaker": "user",
        "text": "mate. i did it. asked jess to marry me on sat at the lookout. she said yes 💍",
    },
    {"session_id": "t3", "speaker": "assistant", "text": "Congratulations to you both!"},
]


def test_a_new_users_car_and_fiancee_hold_at_ingest_consolidated_and_a_year_on(
    memory: Memory, user: str, tmp_path: Path
):
    """Both speakers' turns are kept; the car bought by its model answers "now", the one
    sold "before", and Jess is a fiancée, at ingest, after consolidate and a year on."""
    ingest_file(memory, write_chat(tmp_path, TOM), user, progress=False)
    cited = {(c.source.session_id, c.source.turn) for c in memory.cards(user) if c.source}
    assert len(cited) == len([r for r in TOM if "speaker" in r])
    assert [p.name for p in memory.people(user) if p.relationship == "fiancée"] == ["Jess"]
    for moment in (None, "2026-06-01", "2027-06-01"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        now = memory.recall(user, "what am i drivin now", k=1)[0].card.fact.lower()
        before = memory.recall(user, "what car did i have before", k=1)[0].card.fact.lower()
        assert "hilux" in now, moment
        assert "commodore" in before, moment


NGOZI = [  # a new user, plain chat: a home called "my" in his words, a move said with "!!!"
    {"session_id": "n1", "date": "2024-06-22T09:00:00-05:00"},
    {
        "session_id": "n1",
        "speaker": "user",
        "text": "emeka is saying we should start looking for a bigger place, my alief "
        "apartment is too small for two and his own in spring is too far from work",
    },
    {"session_id": "n1", "speaker": "assistant", "text": "Missouri City is worth a look."},
    {"session_id": "n2", "date": "2024-08-10T09:00:00-05:00"},
    {
        "session_id": "n2",
        "speaker": "user",
        "text": "we moved!!! 3 bedroom townhouse in missouri city, 10 mins to work now "
        "instead of 25 🙌🏾 boxes everywhere",
    },
    {"session_id": "n2", "speaker": "assistant", "text": "Congratulations on the new home!"},
]


def test_a_new_users_home_said_in_his_words_then_moved_from(
    memory: Memory, user: str, tmp_path: Path
):
    """ "my alief apartment" in Emeka's words is the user's home, and "we moved!!! 3
    bedroom townhouse in missouri city" replaces it: "now" and "before" hold at ingest,
    after a consolidate and a year on; both speakers' turns are kept."""
    ingest_file(memory, write_chat(tmp_path, NGOZI), user, progress=False)
    kept = memory.cards(user, status=None)  # the old home superseded, not gone
    cited = {(c.source.session_id, c.source.turn) for c in kept if c.source}
    assert len(cited) == len([r for r in NGOZI if "speaker" in r])
    for moment in (None, "2024-09-01", "2025-09-01"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        now = memory.recall(user, "where do i live now", k=1)[0].card.fact.lower()
        before = memory.recall(user, "where was i living before we moved", k=1)[0].card.fact
        assert "missouri city" in now, moment
        assert "alief" in before.lower(), moment


XIAOYU = [
    *_turns(
        "s1",
        "2025-03-02T22:10:00+08:00",
        ("user", "今天好累 罗姐说下个月排班更紧 我现在住在沙坪坝 每天挤轻轨去上班"),
        ("assistant", "辛苦了！罗姐说排班更紧的话，下夜班记得先补觉。"),
    ),
    *_turns(
        "s2",
        "2025-06-15T20:30:00+08:00",
        ("user", "钥匙拿到了!! 我搬到观音桥了 周浩开车帮我搬的 累惨了"),
        ("assistant", "恭喜搬家！有周浩帮忙真好，今晚早点休息。"),
    ),
]


def test_a_new_users_chinese_chat_names_people_bare_and_moves(
    memory: Memory, user: str, tmp_path: Path
):
    """A Chinese chat that names people with no relationship word ("罗姐说", "周浩开车帮我
    搬的") keeps them as people, and a move ("我搬到观音桥了") answers "now" and "before" at
    ingest, after a consolidate and a year on; both speakers' turns are kept."""
    ingest_file(memory, write_chat(tmp_path, XIAOYU), user, progress=False)
    cited = {(c.source.session_id, c.source.turn) for c in memory.cards(user, status=None)}
    assert len(cited) == len([r for r in XIAOYU if "speaker" in r])
    for moment in (None, "2025-07-01", "2026-07-01"):  # at ingest, consolidated, a year on
        if moment:
            memory.consolidate(user, now=moment)
        assert {"罗姐", "周浩"} <= {p.name for p in memory.people(user)}, moment
        assert "观音桥" in memory.recall(user, "我现在住哪", k=1)[0].card.fact, moment
        assert "沙坪坝" in memory.recall(user, "我搬家之前住哪", k=1)[0].card.fact, moment
        assert "排班" in memory.recall(user, "罗姐说了什么", k=1)[0].card.fact, moment


def test_a_new_department_said_as_reporting_for_duty_answers_where_i_work_now(
    memory: Memory, user: str, tmp_path: Path
):
    """A nurse's move from the ER to cardiology, said as reporting for duty in a long
    message ("下周一我就正式去心内报到了 ... 周浩上周末陪我去吃了老火锅"), answers
    "我现在在哪个科室上班" over the ER turn said before, at ingest and after a consolidate."""
    chat = [
        *_turns(
            "2025-03-02",
            "2025-03-02",
            ("user", "今天急诊又爆满 夜班累死了 罗姐说下个月排班更紧"),
            ("assistant", "辛苦了！夜班下来先好好睡一觉，可以试试遮光窗帘和白噪音。"),
        ),
        *_turns(
            "2025-05-06",
            "2025-05-06",
            (
                "user",
                "报告!!下周一我就正式去心内报到了 急诊的夜班终于拜拜了 "
                "周浩上周末陪我去吃了老火锅 他居然不吃辣",
            ),
            (
                "assistant",
                "恭喜！从急诊转到心内，作息会规律不少。可以提前看看《Dubin快速心电图》。",
            ),
        ),
    ]
    ingest_file(memory, write_chat(tmp_path, chat), user, progress=False)
    for moment in (None, "2025-06-01"):
        if moment:
            memory.consolidate(user, now=moment)
        for question in ("我现在在哪个科室上班", "我现在是在哪个科室上班来着"):
            assert "心内" in memory.recall(user, question, k=1)[0].card.fact, (moment, question)


def test_keys_got_in_cantonese_answer_where_i_live_and_a_cousins_move_is_not_mine(
    memory: Memory, user: str, tmp_path: Path
):
    """A cook types Cantonese in simplified characters: a cousin's move said in his own
    long message ("另外我表弟阿斌话下个月搬去深圳") is the cousin's, and the keys to a flat
    in 天河 ("今日攞咗锁匙🔑 天河棠下嘅一房一厅") is the user's move, asked "我而家住喺边个区"
    (边, not 邊) now and "我搬屋之前住喺边" for before, at ingest and after a consolidate."""
    chat = [
        *_turns(
            "2025-03-02",
            "2025-03-02",
            (
                "user",
                "阿辉话本钱一人出五万 我而家住番禺 返工要成个钟地铁 "
                "另外我表弟阿斌话下个月搬去深圳 喺南山嗰边搵电商嘅工",
            ),
            ("assistant", "出本钱之前最好同阿辉倾清楚分成。阿斌去深圳都几好。"),
        ),
        *_turns(
            "2025-06-14",
            "2025-06-14",
            (
                "user",
                "今日攞咗锁匙🔑 天河棠下嘅一房一厅 二千八一个月 行路去档口十五分钟 "
                "终于唔使朝朝由番禺开车出嚟",
            ),
            ("assistant", "恭喜搬屋！行路返工慳返好多时间。"),
        ),
    ]
    ingest_file(memory, write_chat(tmp_path, chat), user, progress=False)
    for moment in (None, "2025-07-01"):
        if moment:
            memory.consolidate(user, now=moment)
        assert "天河" in memory.recall(user, "我而家住喺边个区啊", k=1)[0].card.fact, moment
        before = memory.recall(user, "我搬屋之前住喺边", k=1)[0].card.fact
        assert "番禺" in before, moment


def test_a_move_said_in_passing_answers_where_i_lived_before_the_new_city(
    memory: Memory, user: str, tmp_path: Path
):
    """Asked "where was i living before pune", the long message that says the user
    "shifted from andheri" (Indian English) answers, though its part that names Pune
    is about the weather; a message that names Pune and no move does not."""
    chat = [
        *_turns(
            "2025-05-10",
            "2025-05-10",
            (
                "user",
                "suvarna bank offer letter came today, joining 16 june in pune 🎉 "
                "also today is day 1 no cigarette",
            ),
            ("assistant", "Congratulations! Pune will be a big change from Mumbai."),
        ),
        *_turns(
            "2025-06-29",
            "2025-06-29",
            (
                "user",
                "first 2 weeks at suvarna done. my manager is mr deshpande, calm guy 🙏 and "
                "flat in baner finalised, shifted from andheri last weekend. 2bhk, priya will "
                "move in after wedding. pune weather >>> mumbai weather",
            ),
            ("assistant", "Baner is a lovely area, and yes, the weather is a treat."),
        ),
    ]
    ingest_file(memory, write_chat(tmp_path, chat), user, progress=False)
    hit = memory.recall(user, "where was i living before pune", k=1)[0]
    assert "andheri" in hit.card.fact


def test_an_offer_cheered_then_its_company_and_start_answer_where_i_work_now(
    memory: Memory, user: str, tmp_path: Path
):
    """A new user's own Chinese chat: "offer拿到了！！小红书 下周一入职" is kept as two
    pieces, the cheer and then the company with its start; the second says where the
    user works now (小红书), over the old job (字节) said before, which answers "before",
    at ingest, after a consolidate, and after another a year on."""
    chat = [
        *_turns(
            "a",
            "2025-03-01T20:00:00+08:00",
            ("user", "唉 今天又加班到十点 我在字节做产品 天天开会 老板老王说下个季度还要更忙"),
            ("assistant", "辛苦了！可以下载 Forest 这个app帮你专注。"),
        ),
        *_turns(
            "b",
            "2025-05-10T21:00:00+08:00",
            ("user", "跟你说个事 我裸辞了哈哈 下个月去小红书面试 然后我们搬到了望京"),
            ("assistant", "勇敢！推荐你看《启示录》这本产品经理的书。"),
        ),
        *_turns(
            "c",
            "2025-06-20T22:00:00+08:00",
            ("user", "offer拿到了！！小红书 下周一入职 对了我妹妹小雨下个月结婚"),
            ("assistant", "恭喜恭喜！双喜临门！"),
        ),
    ]
    ingest_file(memory, write_chat(tmp_path, chat), user, progress=False)
    for moment in (None, "2025-06-25", "2026-06-25"):  # at ingest, consolidated now, a year on
        if moment:
            memory.consolidate(user, now=moment)
        now = memory.recall(user, "我现在在哪上班", k=1)[0].card.fact
        assert "小红书 下周一入职" in now, moment
        assert "字节" in memory.recall(user, "我以前在哪工作", k=1)[0].card.fact, moment


def test_a_street_is_no_one_and_a_breakup_move_is_not_where_i_worked(
    memory: Memory, user: str, tmp_path: Path
):
    """A new user's own chat: the keys to "a flatshare on rye lane, peckham" (the
    assistant writes "Rye Lane", so the word reads as a name) are the user's move, not a
    card about someone called Lane; and "moving out of his flat in clapham", said in the
    message about the first week at the new job, says nothing of where the user worked
    before it (brightwell logistics, left in an earlier message). Both hold after a
    consolidate, and after another a year on."""
    chat = [
        *_turns(
            "s1",
            "2025-04-02T21:10:00+01:00",
            (
                "user",
                "ok so big day lol. handed in my notice at brightwell logistics, last day is "
                "the 25th. the new place is a fintech called ledgerly, im gonna be a data analyst",
            ),
            ("assistant", "Congratulations! Learn their SQL setup early."),
        ),
        *_turns(
            "s2",
            "2025-05-04T10:30:00+01:00",
            (
                "user",
                "first week at ledgerly done!! my manager is called dami, shes lovely. oh and me "
                "and tom broke up last weekend. moving out of his flat in clapham next month",
            ),
            ("assistant", "Sorry about Tom. Rye Lane in Peckham is often cheaper than Clapham."),
        ),
        *_turns(
            "s3",
            "2025-06-15T19:00:00+01:00",
            ("user", "got the keys!! tiny room in a flatshare on rye lane, peckham. 2 flatmates"),
            ("assistant", "Congratulations on the new room!"),
        ),
    ]
    ingest_file(memory, write_chat(tmp_path, chat), user, progress=False)
    assert "Lane" not in {p.name for p in memory.people(user)}
    for moment in (None, "2025-06-20", "2026-06-20"):  # at ingest, consolidated now, a year on
        if moment:
            memory.consolidate(user, now=moment)
        now = memory.recall(user, "where do i live now", k=1)[0].card.fact
        assert "peckham" in now.lower(), moment
        before = memory.recall(user, "where did i work before", k=1)[0].card.fact
        assert "brightwell" in before, moment


def test_a_new_users_week_in_two_languages_holds_after_a_consolidate_and_a_year_on(
    memory: Memory, user: str, tmp_path: Path
):
    """A new user's own chat, English then Chinese: a coworker "from work" leaving for
    google, a helper going back home, a move with keys, a daughter and a doctor named the
    Chinese way. The people table says who each is now; "where do i live now lol" and
    "谁给我买了血压计" find their turns, at ingest, after a consolidate, and a year on."""
    chat = [
        *_turns(
            "a",
            "2025-03-02T09:00:00+00:00",
            (
                "user",
                "morning!! long week. priya from work is leaving for google lol and my "
                "helper Joseph end of month going back to kerala ㅠㅠ. also moved into the "
                "new flat on cowley road, keys finally",
            ),
            (
                "assistant",
                "Big week! Priya at Google sounds exciting, and I'm sorry Joseph is leaving. "
                "Congrats on the Cowley Road flat!",
            ),
        ),
        *_turns(
            "b",
            "2025-04-06T20:00:00+00:00",
            ("user", "我妈说马大夫让她少吃盐。闺女小雨给我买了个血压计 哈哈哈"),
            ("assistant", "小雨真贴心！按马大夫说的，少盐多走路。"),
        ),
    ]
    ingest_file(memory, write_chat(tmp_path, chat), user, progress=False)
    for moment in (None, "2025-04-07", "2026-04-07"):  # at ingest, consolidated now, a year on
        if moment:
            memory.consolidate(user, now=moment)
        held = {p.name: p.relationship for p in memory.people(user)}
        assert held["Joseph"] == "former helper", moment
        assert held["Priya"] == "former colleague", moment
        assert held["小雨"] == "闺女", moment
        assert held["马大夫"] == "医生", moment
        home = memory.recall(user, "where do i live now lol", k=1)[0].card.fact
        assert "cowley road" in home, moment
        gift = memory.recall(user, "谁给我买了血压计", k=1)[0].card.fact
        assert "小雨" in gift, moment
