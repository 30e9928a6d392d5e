"""People as a user types them to an assistant: lower case, shorthand, code-switched
words, and the changes that move a relationship on (an engagement, a wedding, a breakup,
a new manager, a married surname), with pets kept as pets. Real spaCy, no mocks."""

from __future__ import annotations

from datetime import UTC, datetime

from ingestion.extract import Extractor
from ingestion.people import PersonRegistry
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat


def chat(*sessions: tuple[str, ...]) -> PersonRegistry:
    """The user's turns, one session per tuple, read by one extractor."""
    extractor = Extractor("u1")
    for n, texts in enumerate(sessions):
        day = f"2025-0{n + 1}-01"
        extractor.conversation(
            [
                {"session_id": day, "turn": i, "speaker": "user", "text": text, "session_date": day}
                for i, text in enumerate(texts)
            ]
        )
    return extractor.registry


def people(registry: PersonRegistry) -> dict[str, tuple[str | None, list[str]]]:
    return {r.name: (r.relationship, r.relationship_history) for r in registry}


def test_relatives_typed_in_lower_case_become_people_with_their_relationship():
    registry = chat(
        (
            "ugh my gf noor forgot we had dinner plans lol",
            "my boss, tamsin, wants the slides by friday",
            "our son felix starts school on monday and he's nervous",
            "mi prima lucia got into nursing school!!",
        )
    )
    assert people(registry) == {
        "Noor": ("girlfriend", []),
        "Tamsin": ("boss", []),
        "Felix": ("son", []),
        "Lucia": ("cousin", []),
    }


def test_words_after_a_relationship_that_are_no_names_make_nobody():
    registry = chat(
        (
            "my mum screamed when i told her",
            "my boss lol. she is something else",
            "my sister today said she wants a dog",
        )
    )
    names = {r.name for r in registry}
    assert not names & {"Screamed", "Lol", "Today"}
    assert names <= {"Mum"}  # "my mum", unnamed, is known by the word


def test_mum_named_at_last_is_the_same_person():
    registry = chat(("my mum keeps texting me recipes",), ("my mum gloria is visiting in june",))
    gloria = registry.get("Gloria")
    assert gloria is not None
    assert gloria.relationship == "mum"
    assert registry.get("Mum") is gloria  # the word she was known by stays an alias
    assert len(registry) == 1


def test_pets_are_kept_as_pets_with_their_kind():
    registry = chat(
        (
            "big news, we adopted a beagle from the shelter. her name is pickle",
            "and mochi, our cat, is not impressed at all",
        )
    )
    assert people(registry) == {"Pickle": ("dog", []), "Mochi": ("cat", [])}


def test_an_engagement_then_a_wedding_move_the_partner_on_with_history():
    registry = chat(
        ("my bf arlo and i have been together three years",),
        ("arlo proposed last night on the beach!!! i said yes",),
        ("we got married on saturday, tiny ceremony, so happy",),
    )
    assert people(registry) == {"Arlo": ("husband", ["boyfriend", "fiancé"])}


def test_a_proposal_after_an_emoji_is_the_partners():
    """ "💍💍 chidi proposed" parses as a noun and its participle: he is still the one
    who proposed, so the fiancé."""
    registry = chat(
        ("chidi my boo lol, we're planning dubai for april",),
        ("IM ENGAGED!!!! 💍💍 chidi proposed on the beach in zanzibar, sunset, everything",),
    )
    assert people(registry)["Chidi"][0] == "fiancé"


def test_plans_and_other_peoples_engagements_change_nothing_of_the_users():
    registry = chat(
        (
            "my bf arlo keeps talking about rings",
            "we might get married someday, who knows",
            "my flatmate rory just got engaged to his girlfriend",
        )
    )
    assert people(registry) == {"Arlo": ("boyfriend", []), "Rory": ("flatmate", [])}


def test_a_breakup_leaves_an_ex_with_the_word_the_user_had():
    registry = chat(("my gf noor and i are doing a trip in may",), ("so noor and i broke up.",))
    assert people(registry) == {"Noor": ("ex-girlfriend", ["girlfriend"])}


def test_a_partner_met_named_and_left_as_terse_chat_says_it():
    """No "i", no apostrophe, no capital: she is still a girlfriend, then an ex; a couple
    named only in the breakup is an ex too."""
    registry = chat(
        ("also been seeing this girl, her names shannon, met her at a birthday",),
        ("me n shannon done btw. she moved back w her mom", "so connor and i broke up"),
    )
    assert people(registry) == {
        "Shannon": ("ex-girlfriend", ["girlfriend"]),
        "Connor": ("ex", []),
    }


def test_a_new_manager_when_the_old_one_leaves_makes_the_old_one_former():
    registry = chat(
        ("my manager dev is great but the project got cut",),
        ("my new manager started, ingrid, very direct",),
    )
    assert people(registry) == {
        "Dev": ("former manager", ["manager"]),
        "Ingrid": ("manager", []),
    }


def test_a_married_surname_renames_the_same_person():
    registry = chat(
        ("My sister Maria Lopez is getting married in the spring.",),
        ("The wedding was lovely. Maria Okafor now, she changed her name the week after.",),
    )
    maria = registry.get("Maria Okafor")
    assert maria is not None
    assert maria.relationship == "sister"
    assert registry.get("Maria Lopez") is maria
    assert len(registry) == 1


def test_someone_introduced_then_named_becomes_who_they_were_introduced_as():
    registry = chat(
        (
            "busy week. we hired a new apprentice, his name is kofi, he's 18",
            "also... i've been seeing someone. her name is wren, we met at a pottery class",
            "update: we have a baby boy!! we named him otis",
            "3am feed time. baby girl came on Feb 16, 4 days early! We named her Aadhya.",
            "my sister's baby boy came on monday! she named him Aadhav",  # hers
        )
    )
    assert people(registry) == {
        "Kofi": ("apprentice", []),
        "Wren": ("girlfriend", []),
        "Otis": ("son", []),
        "Aadhya": ("daughter", []),
    }


def test_a_kind_of_manager_takes_over_from_the_old_one():
    registry = chat(
        ("my boss mrs adair signed off my leave",),
        ("restructure news: my regional manager is mr bello now",),
    )
    assert people(registry) == {
        "Adair": ("former manager", ["boss"]),
        "Bello": ("regional manager", []),
    }


def test_a_typo_or_a_bracket_still_names_the_relationship_and_adjectives_name_nobody():
    registry = chat(
        (
            "my frriend tova is coming over later",
            "then kasper (coworker, the loud one) took my stapler again",
            "my wife is due in march and my brother is sick",
        )
    )
    assert people(registry) == {"Tova": ("friend", []), "Kasper": ("coworker", [])}


def test_the_missus_and_the_wife_are_the_users_own():
    """ "the missus (barb)" names the user's wife as "my wife barb" does; the same words
    with no name make nobody."""
    registry = chat(
        (
            "the missus (barb) wants a bird feeder out by the kitchen window",
            "me and the missus went to the shops",
        )
    )
    assert people(registry) == {"Barb": ("wife", [])}


def test_a_move_ends_living_side_by_side_but_not_with_who_comes_along():
    registry = chat(
        (
            "my roommate juno keeps stealing my oat milk",
            "my flatmate cleo is away this week",
            "our neighbour bram waved at me again",
        ),
        ("big news, cleo and i moved to leith last weekend!!", "also bram is moving to spain"),
    )
    assert people(registry) == {
        "Juno": ("former roommate", ["roommate"]),
        "Cleo": ("flatmate", []),
        "Bram": ("former neighbour", ["neighbour"]),
    }


def test_shouted_words_and_words_describing_things_are_nobody():
    registry = chat(
        (
            "the dog is SO tired after the beach, MAYBE tomorrow we rest",
            "we went to a Tamil wedding last night and my friend Inés danced all evening",
            "my knee is better, PT is hard but worth it",
        )
    )
    names = {r.name for r in registry}
    assert not names & {"SO", "MAYBE", "PT", "Tamil"}
    assert "Inés" in names


def test_the_user_id_and_the_full_name_it_starts_are_the_user():
    extractor = Extractor("ruben-ghent")
    extractor.conversation(
        [
            {
                "session_id": "d1",
                "turn": 0,
                "speaker": "user",
                "session_date": "2025-03-01",
                "text": "Ruben Claes signed the lease today! my brother Wouter helps me move",
            },
            {
                "session_id": "d1",
                "turn": 1,
                "speaker": "user",
                "session_date": "2025-03-01",
                "text": "RUBEN IS MOVING to a new flat next month with his cat",
            },
        ]
    )
    names = {r.name for r in extractor.registry}
    assert extractor.registry.is_user("RUBEN")
    assert extractor.registry.is_user("Ruben Claes")
    assert not names & {"Ruben", "RUBEN", "Ruben Claes", "Ruben-ghent"}
    assert "Wouter" in names


def test_a_greeting_or_a_yes_said_alone_at_the_start_is_nobody():
    registry = chat(
        (
            "Howzit. Long day on the road, the taxis were mad again",
            "Ja ja, not sleeping at all. My sister Nomsa came to help",
            "Tom, my brother, is visiting",
            "Luis Castillo, nice young man, he's a firefighter down in Tucson",
        ),
    )
    assert people(registry) == {
        "Nomsa": ("sister", []),
        "Tom": ("brother", []),
        "Luis Castillo": (None, []),
    }


def test_a_user_id_written_with_underscores_names_the_user_too():
    extractor = Extractor("marta_berlin")
    extractor.conversation(
        [
            {
                "session_id": "d1",
                "turn": 0,
                "speaker": "user",
                "session_date": "2025-06-09",
                "text": "got the keys! the Mietvertrag says Marta Nowicka all by herself",
            }
        ]
    )
    assert extractor.registry.is_user("Marta Nowicka")
    assert "Marta Nowicka" not in {r.name for r in extractor.registry}


def test_a_junior_named_after_the_user_is_not_the_user():
    registry = PersonRegistry()
    registry.name_user("Marcus")
    assert registry.is_user("Marcus Bell")
    assert not registry.is_user("Marcus Jr")
    assert not registry.is_user("Marcus Jr.")


def test_a_relationship_is_dated_by_the_turn_that_said_it(memory, user, tmp_path):
    """An engagement said in May dates Theo's "fiancé" in May, not at ingest time."""
    rows = [
        {"session_id": "a", "date": "2024-03-05T20:00:00Z"},
        {"session_id": "a", "turn": 0, "speaker": "user", "text": "my boyfriend theo made pasta"},
        {"session_id": "b", "date": "2024-05-04T20:00:00Z"},
        {
            "session_id": "b",
            "turn": 0,
            "speaker": "user",
            "text": "theo proposed!! hes my fiancé now",
        },
    ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    (theo,) = [p for p in memory.people(user) if p.name == "Theo"]
    assert (theo.relationship, theo.relationship_history) == ("fiancé", ["boyfriend"])
    assert theo.since == datetime(2024, 5, 4, 20, tzinfo=UTC).timestamp() * 1000


def test_a_new_partner_word_for_the_one_partner_is_that_partner_a_step_on():
    """ "my fiancé" said of no one by name, while Theo is the one boyfriend: Theo is the
    fiancé now, not a second person called "my fiancé"."""
    registry = chat(
        ("my boyfriend theo made pasta tonight",),
        ("my fiancé wants a june wedding, i want september",),
    )
    assert people(registry) == {"Theo": ("fiancé", ["boyfriend"])}


def test_names_the_assistant_brings_up_are_not_the_users_people():
    """The assistant suggests painters; the user repeating one is no person in their
    life. A friend the user named first, whom the assistant greets, stays one."""
    extractor = Extractor("u1")
    extractor.conversation(
        [
            {
                "session_id": "a",
                "turn": 0,
                "speaker": "user",
                "session_date": "2025-03-01",
                "text": "my friend Lily got me into watercolours, any painters to look at?",
            },
            {
                "session_id": "a",
                "turn": 1,
                "speaker": "assistant",
                "session_date": "2025-03-01",
                "text": "Lovely! Look at Winslow Homer's seascapes. Say hi to Lily!",
            },
            {
                "session_id": "a",
                "turn": 2,
                "speaker": "user",
                "session_date": "2025-03-01",
                "text": "Winslow Homer painted such waves, Lily loves them too",
            },
        ]
    )
    assert people(extractor.registry) == {"Lily": ("friend", [])}


# Chinese chats: the same people table, relationships kept in the user's own words.


def test_chinese_relatives_are_named_the_ways_chinese_chats_name_them():
    registry = chat(
        (
            "我们现在租在望京 老婆晓晓怀孕五个月了",
            "对 我老家洛阳的 我妈说孩子生了她过来帮忙带",
            "对了我哥们老赵上个月刚跳槽去了杭州阿里",
            "我儿子志强在杭州工作，儿媳妇小雅怀孕了",
            "我领养了一只猫 英短蓝猫 叫布丁 🐱",
        )
    )
    assert people(registry) == {
        "晓晓": ("老婆", []),
        "妈妈": ("妈妈", []),
        "老赵": ("哥们", []),
        "志强": ("儿子", []),
        "小雅": ("儿媳妇", []),
        "布丁": ("猫", []),
    }
    assert registry.get("我妈") is registry.get("妈妈")  # "我妈" is how she is said


def test_chinese_chats_name_people_in_brackets_at_work_and_by_a_title_then_a_full_name():
    registry = chat(
        (
            "老陈又说加班不回来吃饭。阿强(我家狗)还把我新买的鞋咬了一只",
            "还有我们办公室小周说下学期不干了,要去深圳",
            "我妹晓琳说她可能要去上海工作",
            "我们财务总监Linda上周突然离职了，现在新来的领导是赵总，赵建国，挺严的",
            "一家新能源车企的财务经理，叫安达新能源，你觉得哪个好？",  # a company, no one
        ),
        ("我跟老陈决定离婚了。协议昨天签的",),
    )
    assert people(registry) == {
        "阿强": ("狗", []),
        "小周": ("前同事", ["同事"]),
        "晓琳": ("妹妹", []),
        "Linda": ("前总监", ["总监"]),
        "赵总": ("领导", []),
        "老陈": ("前任", []),
    }
    assert registry.get("赵建国") is registry.get("赵总")


def test_latin_names_typed_with_spaces_in_chinese_are_named():
    registry = chat(
        ("新工作快一個月了 我的 manager 是英國人叫 Oliver 很 chill", "對 我有新男友了 他叫 Ray"),
    )
    assert people(registry) == {"Oliver": ("manager", []), "Ray": ("男友", [])}


def test_a_wifes_word_for_her_husband_and_her_sons_girlfriend_is_his():
    registry = chat(
        ("我家老张最喜欢我做的东坡肉",),
        ("还有啊儿子打电话来说明年五一结婚 女朋友叫周晓雯 深圳人",),
    )
    assert people(registry) == {"老张": ("老公", [])}  # still her husband


def test_a_coworker_named_alone_who_leaves_is_a_former_one_but_not_one_leaving_next_month():
    registry = chat(
        ("跟同事周海南约好了打羽毛球", "跟一个女生合租 她叫小美 在阿里做设计"),
        ("周海南也跳槽了，去了一家券商", "小美下个月要搬走了 她和男朋友在萧山买了房"),
    )
    assert people(registry) == {"周海南": ("前同事", ["同事"]), "小美": ("室友", [])}


def test_a_birth_announcement_names_the_child_by_both_names():
    registry = chat(("我当爸爸了！！儿子1月20号出生的 7斤2两 母子平安 小名叫豆包 大名王子航",))
    son = registry.get("豆包")
    assert son is not None
    assert (son.name, son.relationship) == ("王子航", "儿子")


def test_a_new_leader_makes_the_old_one_former_in_the_users_words():
    registry = chat(
        ("我入职以后的直属领导是周总 人挺好的",),
        ("周总春节前离职了 现在我们组的领导换成何静了 是从别的部门调过来的",),
    )
    assert people(registry) == {"周总": ("前领导", ["领导"]), "何静": ("领导", [])}


def test_a_proposal_she_said_yes_to_makes_the_girlfriend_a_fiancee():
    registry = chat(
        ("我女朋友佳佳在深圳工作 我们异地两年了", "我想答辩完去深圳的时候求婚"),
        ("她答应了!!!!!! 7月12号 深圳湾 日落的时候 她哭了 我也哭了",),
    )
    assert people(registry) == {"佳佳": ("未婚妻", ["女朋友"])}


def test_an_engagement_then_a_wedding_move_the_boyfriend_on_twice():
    registry = chat(("我男朋友阿凯人很好",), ("我们订婚了",), ("我们今天领证了！",))
    assert people(registry) == {"阿凯": ("老公", ["男朋友", "未婚夫"])}


def test_someone_elses_engagement_and_a_breakup_said_in_chinese():
    registry = chat(
        ("对了我闺蜜cindy订婚了！！上周她男朋友在外滩求婚的 好浪漫",),
        ("和kevin分手了 上周日说的 比较平静",),
    )
    assert people(registry) == {"Cindy": ("闺蜜", []), "Kevin": ("前任", [])}


def test_leaving_a_job_makes_the_boss_a_former_one_and_a_name_said_first_is_kept():
    registry = chat(
        ("我們老闆Eric今天找我談，說他要在台北開二店", "璐璐是我大学室友，现在也在上海"),
        ("對，我上禮拜已經跟Eric提離職了，他有點可惜但也祝福我",),
    )
    assert people(registry) == {"Eric": ("前老闆", ["老闆"]), "璐璐": ("室友", [])}
    assert registry.by_relationship("roommate")[0].name == "璐璐"  # the word, read in English


def test_who_someone_is_said_without_my_at_the_start_of_a_sentence():
    """Chat drops the "my" before who someone is ("wife is funke btw"); a relationship
    word followed by anything else names nobody ("brother help pls")."""
    registry = chat(
        (
            "our first is daniel, he's 5. wife is funke btw, she's a pharmacist",
            "brother help pls, what do i get him for his birthday",
        )
    )
    assert people(registry) == {"Funke": ("wife", [])}


def test_mum_said_bare_is_the_users_mum_but_not_hers_or_a_dad_thing():
    registry = chat(
        (
            "mum would be happier if i lived closer, she's in napier",
            "my mate adelaide, her mum loved the festival",
            "ive been a stay at home dad since the twins, a very dad thing to say",
        )
    )
    assert people(registry)["Mum"] == ("mum", [])
    assert "Dad" not in people(registry)


def test_taglish_names_people_by_si_and_by_the_possessive_and_moves_the_partner_on():
    """Taglish is kept as said, and its people are read by the language's own markers:
    "si <name> (bf ko)", "ate ko si <name>", "tita ko"; "engaged na ako" and "kasal na
    kami" move the boyfriend on to fiancé and husband."""
    registry = chat(
        (
            "sorry late reply, si migs (bf ko, 3 yrs na kami) nagluto ng adobo para sakin",
            "tsaka ate ko si bea, lilipat na sya sa cebu next month",
            "nag adopt kami ng aso, pinangalanan namin na choco",
            "pupunta ako sa bahay ng tita ko bukas",
        ),
        ("ENGAGED NA AKO!!! nag propose si migs sa baguio 😭",),
        ("KASAL NA KAMI!!!! ang saya saya",),
    )
    found = people(registry)
    assert found["Migs"] == ("husband", ["boyfriend", "fiancé"])
    assert found["Bea"][0] == "older sister"
    assert found["Choco"][0] == "dog"
    assert found["Tita"][0] == "aunt"


def test_chinese_pets_of_the_household_a_manager_after_a_space_and_a_proposal() -> None:
    """A Shanghai mother and a Taipei engineer: "他养的仓鼠豆豆" is a hamster of the
    household, "小瑜的貓麻糬" a cat; "新主管是 Jessica" names the manager across the
    space; "跟小瑜求婚，交往四年了" makes her the user's partner; "我阿嬤" a grandmother;
    "班主任老是说" names no teacher called 老是, and "她的猫叫什么" no cat called 叫什."""
    got = chat(
        (
            "今天母亲节，班主任老是说他上课坐不住",
            "好主意！他最近迷恐龙。对了他养的仓鼠豆豆昨天越狱了",
            "她的猫叫什么来着",
        ),
        (
            "anyway 我在計畫跟小瑜求婚，交往四年了，戒指已經訂了",
            "小瑜的貓麻糬最近一直睡我的枕頭",
            "內轉過了！！新主管是 Jessica，聽說人很好",
            "過年回台南，帶小瑜第一次正式見我阿嬤",
        ),
    )
    assert {name: word for name, (word, _) in people(got).items()} == {
        "豆豆": "仓鼠",
        "小瑜": "对象",
        "麻糬": "貓",
        "Jessica": "主管",
        "阿嬤": "阿嬤",
    }
