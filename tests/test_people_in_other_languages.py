"""The people table of chats written in French, Spanish, Portuguese, German, Italian and
Chinese (simplified and traditional): a chat's turns in, who each person is to the user
now out, with what ended kept ("ex", "前合夥人"), pets as pets, and no title or
placeholder as a person. Real spaCy, real embedded store, no mocks."""

from __future__ import annotations

from graphmem.lang import claim as lang_claim
from graphmem.lang import latin, relationship_in_english, relationships_in, zh
from graphmem.recall.mentions import Known, canonical_relationship, find_mentions
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat
from tests.test_people_named_in_passing import people, talk


def people_of(memory, user, tmp_path, *sessions: list[tuple[str, str]]) -> dict:
    """Ingest one session per list of (speaker, text); the people table, the user aside:
    name -> (relationship, history)."""
    rows: list[dict] = []
    for n, turns in enumerate(sessions):
        day = f"2025-0{n + 1}-10"
        rows.append({"session_id": day, "date": f"{day}T20:00:00Z"})
        rows += [
            {"session_id": day, "turn": i, "speaker": speaker, "text": text}
            for i, (speaker, text) in enumerate(turns)
        ]
    ingest_file(memory, write_chat(tmp_path, rows), user, progress=False)
    return {
        p.name: (p.relationship, p.relationship_history)
        for p in memory.people(user)
        if p.relationship != "self"
    }


def test_a_french_chat_names_a_brother_a_best_friend_a_boss_a_cat_and_two_exes(
    memory, user, tmp_path
):
    table = people_of(
        memory,
        user + "-fr",
        tmp_path,
        [
            ("user", "bon. théo et moi c'est fini. 3 ans. il me l'a dit ce soir"),
            ("assistant", "Je suis désolée. Tu as quelqu'un chez qui dormir ?"),
            ("user", "oui je dors chez lucie, ma meilleure amie. elle a un canapé"),
            ("assistant", "C'est bien que tu sois chez Lucie ce soir."),
        ],
        [
            ("user", "mon frère bastien vient samedi avec un camion pour le déménagement"),
            ("assistant", "Génial, Bastien est un vrai soutien !"),
            ("user", "nouveau job ! ma cheffe s'appelle Odile, elle est cash mais juste"),
            ("user", "j'ai adopté un chat !!! un tigré de 2 ans. il s'appelle Pompon."),
            ("user", "ce soir je vais au ciné avec Jeanne, on se voit depuis un mois"),
            ("user", "ma mère adore déjà Pompon, elle est passée le voir avec une amie"),
        ],
        [("user", "bon, on a rompu hier soir. c'est la vie, je garde le chat")],
    )
    assert table["Théo"][0] == "ex"
    assert table["Lucie"][0] == "best friend"  # "lucie" is Lucie: the assistant wrote so
    assert table["Bastien"][0] == "brother"  # typed "bastien", capitalised by the assistant
    assert table["Odile"][0] == "boss"
    assert table["Pompon"][0] == "cat"
    assert table["Jeanne"] == ("ex", ["partner"])  # dating, then "on a rompu"
    assert table["mère"][0] == "mère"  # unnamed: called by the word, read as "mother"
    assert "Adore" not in table  # a verb after "ma mère" is no name


def test_a_spanish_portuguese_german_and_italian_possessive_names_the_same_way():
    said = [
        (latin.SPANISH, "mi hermana mayor Lena se muda a Madrid, y terminé con marcos."),
        (latin.PORTUGUESE, "minha prima Larissa vem no sábado com o meu ex Rafael."),
        (latin.GERMAN, "meine Schwester Lena heiratet, und mein Chef heißt Jonas."),
        (latin.ITALIAN, "mia sorella Giulia e il mio capo, Marco. la mia gatta si chiama Neve."),
    ]
    read = [[(n.name, n.relationship) for n in latin.read(g, text)] for g, text in said]
    assert read == [
        [("Lena", "sister"), ("Marcos", "ex")],
        [("Larissa", "cousin"), ("Rafael", "ex")],
        [("Lena", "sister"), ("Jonas", "boss")],
        [("Giulia", "sister"), ("Marco", "boss"), ("Neve", "cat")],
    ]


def test_a_taiwanese_chat_ends_a_business_partnership_engages_the_boyfriend_and_names_the_dog(
    memory, user, tmp_path
):
    table = people_of(
        memory,
        user + "-tw",
        tmp_path,
        [
            ("user", "我合夥人阿哲比較懂這些 不過他最近常常不在店裡"),
            ("user", "我哥在台中當工程師 他說我應該把店收一收"),
        ],
        [
            ("user", "果然 阿哲說他要退股 他要去跟他女友在台東開民宿"),
            ("user", "我表姊佩珊說她想加入！ 還有工讀生amy說她要去日本打工度假"),
        ],
        [
            ("user", "還有我男友宏志上週求婚了😭💍 我爸媽超開心"),
            ("user", "我們收養了一隻狗！！從收容所帶回來的米克斯 叫黑糖 宏志取的"),
            ("user", "去看醫生說是乳糖不耐症 教練說是腿沒力"),
        ],
    )
    assert table["阿哲"] == ("前合夥人", ["合夥人"])
    assert table["佩珊"][0] == "表姊"
    assert table["Amy"][0] == "工讀生"
    assert table["宏志"] == ("未婚夫", ["男友"])
    assert table["黑糖"][0] == "狗"
    assert table["哥哥"][0] == "哥哥"
    # placeholders and titles are nobody: the parents together, the doctor, the coach,
    # the boyfriend who has a name, someone else's girlfriend
    assert not set(table) & {"爸爸", "醫生", "教練", "男友", "女友"}


def test_a_family_word_opening_a_clause_is_the_users_own_a_title_is_nobody(memory, user, tmp_path):
    table = people_of(
        memory,
        user + "-zh",
        tmp_path,
        [
            ("user", "还有我家猫馒头怎么办啊 婆婆说有猫对宝宝不好"),
            ("user", "生了！！7月4号 女儿 6斤8两 大名叫林若溪 小名糖糖 现在凌晨三点"),
        ],
        [
            ("user", "医生说是牛奶蛋白过敏 现在是全职妈妈。今天糖糖第一次叫“妈妈”了"),
        ],
    )
    assert table["婆婆"][0] == "婆婆"
    assert table["林若溪"][0] == "女儿"
    assert table["馒头"][0] == "猫"
    assert not set(table) & {"医生", "妈妈"}


def test_a_chinese_chat_names_people_by_a_surname_a_place_a_group_and_a_relative_of_a_relative(
    memory, user, tmp_path
):
    table = people_of(
        memory,
        user + "-zh-roles",
        tmp_path,
        [
            ("user", "报了个游泳班，教练姓林，我们都叫他林教练，人挺凶的"),
            ("user", "每天晚上跟楼下的赵阿姨一起散步。楼下的小卖部关门了，买水要走好远"),
            ("user", "新部门有三个人，小唐、阿sam和一个实习生。我编辑了一下周报"),
            ("user", "我姐姐阿梅也带她儿子乐乐回来了，乐乐会走路了"),
        ],
        [
            ("user", "周末打球，我跟老冯搭档拿了第一！出版社的编辑小雅也来看了"),
            ("user", "Leo是我最好的gym buddy。Mike昨天问我要不要做他女朋友，I said yes"),
        ],
    )
    assert table["林教练"][0] == "教练"  # a title made of the surname and the role
    assert table["赵阿姨"][0] == "邻居"  # who lives downstairs is a neighbour
    assert table["小唐"][0] == table["阿sam"][0] == "同事"  # listed in the user's team
    assert table["阿梅"][0] == "姐姐"
    assert table["乐乐"][0] == "外甥"  # a sister's son, one word for the user
    assert table["老冯"][0] == "搭档"
    assert table["小雅"][0] == "编辑"
    assert table["Leo"][0] == "buddy"  # English words in Chinese: "最好的gym buddy"
    assert table["Mike"][0] == "男朋友"  # asked out, and yes said
    # a shop downstairs, "编辑" as a verb, an intern without a name are no one
    assert not set(table) & {"小卖", "编辑", "实习生", "教练"}


def test_a_relative_of_a_relative_is_the_one_word_chinese_has_for_them():
    said = [
        "我哥阿哲也帶他女兒小米回來",  # a brother's daughter
        "我姐姐阿梅带她儿子乐乐来了",  # a sister's son: not the same word as a brother's
        "我媽的妹妹阿芬也來了",  # a mother's sister, in the script said
        "我老公说他妈妈王丽下周要来",  # a husband's mother
        "她妈妈的妹妹阿芬也来了",  # someone else's aunt is no one of the user's
    ]
    read = [[(n.name, n.relationship) for n in zh.people_in(s) if n.mine] for s in said]
    assert read == [
        [("阿哲", "哥哥"), ("小米", "侄女")],
        [("阿梅", "姐姐"), ("乐乐", "外甥")],
        [("媽媽", "媽媽"), ("阿芬", "姨媽")],
        [("老公", "老公"), ("王丽", "婆婆")],
        [],
    ]


def test_a_lowercase_german_chat_names_titled_bosses_a_dog_the_uncle_sharing_its_name_and_a_girlfriend(  # noqa: E501
    memory, user, tmp_path
):
    """Typed all in lower case: a title makes the word after it a name ("herr
    albrecht"), and the person is also called with it; "ist" says who someone is, either
    way round; a pet named right after its kind; a relative named like the dog is called
    with the kin word, as the family calls him ("Opa Oskar")."""
    table = people_of(
        memory,
        user + "-de",
        tmp_path,
        [
            (
                "user",
                "mein chef herr albrecht (wie der supermarkt lol) lässt mich nie früher gehen",
            ),
            ("assistant", "Das klingt anstrengend. Hast du mal mit ihm gesprochen?"),
            ("user", "lena und ich haben schluss gemacht. nach drei jahren."),
        ],
        [
            ("user", "neuer job! meine chefin ist die geschäftsführerin frau dr. keller, super"),
            ("user", "und wir haben jetzt nen hund 🐶 oskar, ein beagle aus dem tierheim"),
            ("assistant", "Wie schön! Grüß Oskar von mir. Und viel Erfolg im neuen Job!"),
            (
                "user",
                "lustig, mein opa heißt auch oskar. am samstag mit meinem kumpel felix wandern",
            ),
            ("assistant", "Viel Spaß mit Felix!"),
        ],
        [
            (
                "user",
                "kleines update: jana ist jetzt offiziell meine freundin. wir waren zusammen "
                "in wien und es war echt schön, das ist toll",
            )
        ],
    )
    assert table["Lena"][0] == "ex"
    assert table["Keller"] == ("boss", ["doctor"])  # her title alone said doctor, at first
    assert table["Albrecht"][0] == "former manager"  # the boss's role passed on
    assert table["Oskar"][0] == "dog"
    assert table["Opa Oskar"][0] == "grandfather"
    assert table["Felix"][0] == "friend"
    assert table["Jana"][0] == "girlfriend"
    assert not set(table) & {"freundin", "opa", "Herr", "Frau"}  # no word made a person
    aliases = {p.name: p.aliases for p in memory.people(user + "-de")}
    assert "Herr Albrecht" in aliases["Albrecht"]
    assert "Frau Dr. Keller" in aliases["Keller"]


def test_a_lowercase_portuguese_chat_names_a_titled_boss_the_new_manager_and_the_cat(
    memory, user, tmp_path
):
    """ "meu chefe o sr. almeida": an article and a title before the name; "minha
    gestora agora é a fernanda": who holds the role, after the copula; "chama mimi":
    the name given to the cat adopted just before."""
    table = people_of(
        memory,
        user + "-pt",
        tmp_path,
        [("user", "meu chefe o sr. almeida não deixa ninguém trabalhar de casa")],
        [
            ("user", "mudei de emprego! minha gestora agora é a fernanda, muito gente boa"),
            ("assistant", "Que ótimo! A Fernanda parece uma ótima gestora."),
            ("user", "e adotamos uma gata!!! tigrada, chama mimi. já arranhou o sofá"),
        ],
    )
    assert table["Fernanda"][0] == "manager"
    assert table["Almeida"][0] == "former manager"
    assert table["Mimi"][0] == "cat"
    assert not set(table) & {"gestora", "chefe"}


def test_a_chinese_chat_names_a_roommate_a_teammate_a_coworker_a_childhood_friend_and_an_ex(
    memory, user, tmp_path
):
    """Named by a given name alone after "我同事" or "我发小"; a coworker who took an offer
    elsewhere is a former one; a flatmate or a new team member named with 叫; "我和X分了"
    is a breakup; a cat named with 取名叫 a few words after it was taken in."""
    table = people_of(
        memory,
        user + "-zh-new",
        tmp_path,
        [
            ("user", "我男朋友小林在北京 他不想我走"),
            ("user", "我同事大壮也说要走 我发小郑一鸣倒是支持我"),
            ("user", "我同事阿强也要走 他拿了京东的offer 下个月入职"),
        ],
        [
            ("user", "而且 我和小林分了 上周的事"),
            ("user", "搬好了 跟一个女生合租 她叫晶晶 在做设计"),
            ("user", "我们组新来了个实习生叫朵朵 人挺机灵"),
            ("user", "跟你说 我养猫了！！楼下捡的小黑猫 取名叫芝麻 天天睡我枕头"),
        ],
    )
    assert table["小林"] == ("前男友", ["男朋友"])
    assert table["大壮"][0] == "同事"  # "也说要走" alone says no job left
    assert table["阿强"] == ("前同事", ["同事"])  # an offer taken elsewhere: leaving
    assert table["郑一鸣"][0] == "发小"
    assert table["晶晶"][0] == "室友"
    assert table["朵朵"][0] == "同事"
    assert table["芝麻"][0] in zh.PETS
    assert not set(table) & {"同事", "发小"}


def test_a_work_or_friend_word_of_another_language_reads_as_the_role_it_names():
    """ "meine Chefin Frau Henning" is the user's boss, "minha gestora Juliana" their
    manager, "mein Kumpel Timo" a friend, "ehemaliger Chef" and "ex-chefe" a former
    manager: the words the user says and graphmem's stored English are one relationship."""
    said = {
        "Chefin": "manager",
        "gestora": "manager",
        "Kumpel": "friend",
        "amiga": "friend",
        "ehemaliger Chef": "former manager",
        "ex-chefe": "former manager",
        "antigua jefa": "former manager",
        "ancienne cheffe": "former manager",
        "Ex-Freundin": "ex",
    }
    assert {word: canonical_relationship(word) for word in said} == said
    assert canonical_relationship("boss") == canonical_relationship("Chefin")


def test_an_english_word_another_language_shares_is_still_read_in_english():
    """ "chef" is a cook in English and a boss in German: alone, or after "my" or "ex-",
    it stays the English word; after the language's own possessive it is the boss."""
    assert [canonical_relationship(w) for w in ("chef", "patron", "ex-chef")] == [
        "chef",
        "patron",
        "former chef",
    ]
    assert relationships_in("my chef made risotto") == []
    assert relationships_in("wer ist mein chef jetzt?") == ["boss"]


def test_a_question_in_the_users_language_finds_the_person_by_role():
    """ "quem é minha gestora?" and "wer ist meine chefin" find who holds the role, said
    in English when stored; a work word said without the user's possessive points at no
    one ("a gestora do projeto" is someone's)."""
    people = [
        Known("juliana", "Juliana", "manager"),
        Known("timo", "Timo", "friend"),
        Known("santos", "Santos", "former manager"),
    ]
    assert [m.name for m in find_mentions("quem é minha gestora?", people)] == ["Juliana"]
    assert [m.name for m in find_mentions("wer ist meine chefin", people)] == ["Juliana"]
    assert [m.name for m in find_mentions("was macht mein kumpel?", people)] == ["Timo"]
    assert find_mentions("a gestora do projeto saiu", people) == []


def test_a_chinese_relative_or_coworker_is_also_called_by_the_words_said():
    """ "我姐" is the sister, also called "姐" as the user says it after "我"; a coworker
    named by her given name, then her full name ("叫丽江 ... 是人名 张丽江"), is both."""
    sister = zh.people_in("你说的对 我姐也这么说 她在工商银行上班")
    assert [(n.name, n.relationship, n.aliases) for n in sister] == [
        ("姐姐", "姐姐", ("我姐", "姐"))
    ]
    coworker = zh.people_in("我们组新来了个小姑娘叫丽江 不是那个地方哈 是人名 张丽江 挺能干")
    assert [(n.name, n.aliases) for n in coworker] == [("丽江", ("张丽江",))]
    place = zh.people_in("我们组新来了个小姑娘叫丽江 她老家在云南 去过丽江")
    assert [(n.name, n.aliases) for n in place] == [("丽江", ())]


def test_a_proposal_names_the_partner_and_the_wedding_makes_him_the_husband(memory, user, tmp_path):
    """ "o rafa me pediu em casamento": Rafa is the one the user is engaged to, typed in
    lower case; "casei!!!! ... agora o rafa é oficialmente meu marido": the husband,
    one person (no "marido" beside him)."""
    table = people_of(
        memory,
        user + "-pt-wedding",
        tmp_path,
        [("user", "oi!! o rafa me pediu em casamento ontem!!!! na praia, eu chorei")],
        [("user", "casei!!!! 18 de outubro. agora o rafa é oficialmente meu marido 🥹")],
    )
    assert canonical_relationship(table["Rafa"][0]) == "partner"
    assert "marido" not in table
    said = {
        latin.FRENCH: "julien m'a demandée en mariage hier soir",
        latin.SPANISH: "marcos me pidió matrimonio en la playa",
        latin.GERMAN: "jonas hat mir einen antrag gemacht!!",
        latin.ITALIAN: "luca mi ha chiesto di sposarlo",
    }
    read = {g.code: [(n.name, n.relationship) for n in latin.read(g, t)] for g, t in said.items()}
    assert read == {
        "fr": [("Julien", "partner")],
        "es": [("Marcos", "partner")],
        "de": [("Jonas", "partner")],
        "it": [("Luca", "partner")],
    }


def test_someone_seen_then_named_a_greyhound_and_taglish_roles_with_titles(memory, user, tmp_path):
    """A name given to someone the user is seeing is a partner's, to a dog adopted the
    dog's (Spanish); Taglish says a role, whose it is, then the titled name."""
    table = people_of(
        memory,
        user + "-es-tl",
        tmp_path,
        [
            ("user", "y te cuento algo: estoy conociendo a alguien. se llama Bruno, es italiano"),
            ("user", "otra cosa... he adoptado una galga!! se llama Canela, es miedosa"),
            ("user", "huhu btw nag-resign na yung TL namin si Ma'am Grace last week, ang hirap"),
            ("user", "si Migs pala, college friend ko, lumipat na sa Singapore"),
        ],
    )
    assert table["Bruno"][0] == "partner"
    assert table["Canela"][0] == "dog"
    assert table["Grace"][0] == "team lead"
    assert table["Migs"][0] == "friend"


def test_a_cantonese_chat_names_a_coworker_a_new_boss_an_ex_someone_new_and_family(
    memory, user, tmp_path
):
    """Cantonese as typed in Hong Kong ("佢係我同事", "分咗手") is read by the Chinese
    rules, its function words as Mandarin writes them; its own family words ("家姐",
    "阿媽") are family."""
    table = people_of(
        memory,
        user + "-yue",
        tmp_path,
        [
            ("user", "新 boss 今日正式上任，叫 Winnie，之前喺四大做 audit。"),
            ("user", "好主意。仲有我家姐 BNO 批咗，佢一家八月移民去曼徹斯特 🥲 阿媽一個人喺屯門"),
        ],
        [
            ("user", "瞓唔著。我同 Jason 分咗手 😞 上個禮拜嘅事，拍咗四年拖。"),
            ("user", "有 Sydney 陪我，佢係我同事，成日同我食 lunch。"),
            ("user", "報告 🙈 最近同一個叫 Marcus 嘅人出咗幾次街，係羽毛球朋友介紹嘅"),
        ],
    )
    assert table["Winnie"][0] == "boss"
    assert table["Jason"][0] == "前任"
    assert table["Sydney"][0] == "同事"
    assert table["Marcus"][0] == "对象"
    assert table["姐姐"][0] == "姐姐"
    assert table["媽媽"][0] == "媽媽"


def test_a_cantonese_move_is_read_as_the_users_new_home():
    assert lang_claim("攞咗將軍澳新屋鎖匙啦 🔑🏠 上個禮拜搬咗") == ("location", "將軍澳")
    assert lang_claim("我搬咗去將軍澳") == ("location", "將軍澳")
    assert lang_claim("佢搬咗去將軍澳") is None  # hers


def test_a_chinese_name_ends_at_the_verb_and_an_english_word_names_among_chinese():
    """ "我儿子周斌帮我下载": the son is 周斌 (帮, "help", is the verb after him); "三年了,
    boss david 成日 ...": no English reader sees a phrase inside a Chinese message, so
    the Chinese reader names the boss."""
    son = zh.people_in("糖护士 我让我儿子周斌帮我下载 他会弄")
    assert [(n.name, n.relationship) for n in son] == [("周斌", "儿子")]
    boss = zh.people_in("im an associate at a french bank, 三年了, boss david 成日 last minute")
    assert [(n.name, n.relationship) for n in boss] == [("David", "boss")]
    assert zh.people_in("my bf said hi") == []
    assert zh.people_in("今天meeting好累，my boss Kevin又改deadline了！") == []  # English "my"


def test_cantonese_store_staff_and_a_sister_named_before_a_cantonese_word():
    """店长 is a store manager; Cantonese 仲 ("still") ends a name as 还 does; someone who
    "做咗店长" took the post, and the one who held it and left is the former manager."""
    extractor = talk(
        ("user", "绿豆沙好 成本低 我店长阿芳都话好 佢话用新会陈皮"),
        ("user", "坏消息 阿芳话做到七月尾就走 佢要自己去佛山开铺"),
        ("user", "宜家要搵屋 我妹美华仲话佢都要搬 佢喺深圳做咗十年"),
        ("user", "小何做咗店长啦！八月一号第一日开工 佢好醒目"),
    )
    assert people(extractor.registry) == {"阿芳": "前店长", "美华": "妹妹", "小何": "店长"}


def test_a_chinese_team_member_and_a_home_cat_are_named_in_passing():
    said = [
        "组里有个实习生叫 Austin，挺聪明",  # "in the team": a coworker, named
        "家里猫豆豆一直在踩我键盘哈哈",  # the cat at home
        "我家里猫太多了",  # how many cats: no name
    ]
    read = [[(n.name, n.relationship) for n in zh.people_in(s)] for s in said]
    assert read == [[("Austin", "同事")], [("豆豆", "猫")], []]


def test_a_chinese_clause_that_opens_with_a_work_word_names_the_users_own():
    """Chinese chat drops the 我 of a clause: "同事土豆说" is the user's coworker, named
    like a potato; "叫她土豆" calls her by it and names no pet; a new one at home shown
    with its emoji is the user's pet."""
    said = [
        "同事土豆说她朋友家有只小橘猫要送人 我周末去看看",
        "土豆是我们运营 真名叫杜若 但是大家都叫她土豆🥔",
        "隆重介绍 我家新成员 奶盖🐱 橘白 三个月大",
        "她同事土豆说",  # hers
    ]
    read = [[(n.name, n.relationship, n.mine) for n in zh.people_in(s)] for s in said]
    assert read[0][0] == ("土豆", "同事", True)
    assert not any(name == "她土" for name, _, _ in read[1])
    assert read[2] == [("奶盖", "猫", True)]
    assert ("土豆", "同事", True) not in read[3]


def test_a_pets_kind_in_another_language_reads_in_english():
    """ "la chispa (mi perra)": a dog, what the people table and recall read a pet as;
    French "chat" is English's word too and names no cat."""
    assert relationship_in_english("perra") == "dog"
    assert relationship_in_english("chienne") == "dog"
    assert relationship_in_english("chat") is None


def test_spanish_chat_meets_someone_and_gets_serious_with_her():
    extractor = talk(
        (
            "user",
            "feliz año!! bueno te cuento q he conocido a alguien 😏 se llama bea, es enfermera "
            "en el 12 de octubre",
        ),
        ("user", "el libro ese lo uso mi madre hace años jaja"),
    )
    assert people(extractor.registry) == {"Bea": "partner", "madre": "madre"}
    assert people(talk(("user", "bea y yo ya vamos en serio 😊")).registry) == {"Bea": "partner"}


def test_chinese_names_said_with_no_relationship_word_are_people_the_users_own_is_the_user():
    """A Chongqing nurse's chat: "罗姐说", "陈凯还在那边怪我", "叫周浩" name people whose
    relationship she never says; "白班" (a day shift), which the tagger also reads as a
    name, is a word its dictionary holds; "我叫谭小雨" is the user herself."""
    extractor = talk(
        (
            "user",
            "哎今天急诊又是爆满 罗姐说下个月排班更紧 夜班还要加 陈凯还在那边怪我一天到晚不回他消息",
        ),
        ("assistant", "辛苦了！罗姐严一点是对的，先把脚垫高躺一会儿。"),
        ("user", "要得 明天还有个白班 对了我叫谭小雨 三姨介绍了个设计院的工程师 叫周浩"),
    )
    table = people(extractor.registry)
    assert {"罗姐", "陈凯", "周浩"} <= table.keys()
    assert "白班" not in table
    assert "谭小雨" not in table
    assert extractor.registry.is_user("谭小雨")


def test_a_chinese_chat_names_a_daughter_a_son_titled_people_and_a_cat_a_grandson_named():
    """A retired teacher's careful Mandarin: "闺女晓雯给我装上的" (her daughter, who set it up),
    "儿子晓峰给我办了个新号", "张德厚老师" (the teacher, also 张老师), "马大夫" (the doctor), a
    cat her grandson named ("豆豆给起名叫煤球"); "老伴高兴得一宿没睡着" (her husband was
    too happy to sleep) names no one called 高兴得, and "老同学老同事" no 老同."""
    extractor = talk(
        ("user", "你好。我是第一次用这个，闺女晓雯给我装上的，说有什么事都可以问你。"),
        (
            "user",
            "可是老伴老周舍不得这边的老邻居。儿子晓峰给我办了个新号，老同学老同事我都通知了。",
        ),
        ("user", "听说教我们的张德厚老师干完这学期就不教了。马大夫又让我查了个糖化。"),
        (
            "user",
            "今天家里添了个新成员：一只小黑猫，三个月大，是楼下一户人家的猫生的。豆豆非要养，"
            "他妈妈家里不让，就养在我们这儿了。豆豆给起名叫煤球。老伴高兴得一宿没睡着。",
        ),
    )
    held = people(extractor.registry)
    assert held["晓雯"] == "闺女"
    assert held["晓峰"] == "儿子"
    assert held["老周"] == "老伴"  # still her husband: "老伴高兴得" is him, not a new one
    assert held["张德厚"] == "老师"
    assert held["马大夫"] == "医生"
    assert held["煤球"] == "猫"
    assert not {"高兴得", "老同", "生的"} & set(held)
    assert "张老师" in next(r for r in extractor.registry if r.name == "张德厚").aliases
