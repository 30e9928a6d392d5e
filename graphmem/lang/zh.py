"""Chinese (simplified and traditional): character bigrams, kinship words, names.

The lexical channel indexes overlapping character bigrams of each run of Chinese text
("我妹妹对花生过敏" -> 我妹 妹妹 妹对 对花 花生 生过 过敏): no dictionary to load, no
segmentation errors on names and new words, and BM25's IDF makes the common bigrams
(什么, 我们) weigh little. A run of one character is its own term.

People are named by kinship and work words ("我妹妹小雨", "我老公", "我的经理王姐"):
``RELATIONSHIPS`` maps each (both scripts) to graphmem's English relationship names, so
"我妹妹对什么过敏？" and "what is my sister allergic to?" reach the same person.
"""

from __future__ import annotations

import calendar
import re

from graphmem.lang import Language, Named

#: Han ideographs (basic block and extension A) and the compatibility block.
SCRIPT = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"

#: Kinship, partner and work words, simplified and traditional, longest first where one
#: contains another (前男友 before 男友). Values are graphmem's relationship names.
RELATIONSHIPS: dict[str, str] = {
    "前男朋友": "ex-boyfriend",
    "前女朋友": "ex-girlfriend",
    "前男友": "ex-boyfriend",
    "前女友": "ex-girlfriend",
    "前夫": "ex-husband",
    "前妻": "ex-wife",
    "前任": "ex",
    "男朋友": "boyfriend",
    "女朋友": "girlfriend",
    "男友": "boyfriend",
    "女友": "girlfriend",
    "未婚夫": "fiancé",
    "未婚妻": "fiancée",
    "老公": "husband",
    "丈夫": "husband",
    "先生": "husband",
    "老婆": "wife",
    "妻子": "wife",
    "太太": "wife",
    "媳妇": "wife",
    "媳婦": "wife",
    "妹妹": "sister",
    "姐姐": "sister",
    "哥哥": "brother",
    "弟弟": "brother",
    "妈妈": "mother",
    "媽媽": "mother",
    "母亲": "mother",
    "母親": "mother",
    "老妈": "mother",
    "老媽": "mother",
    "我妈": "mother",
    "我媽": "mother",
    "爸爸": "father",
    "父亲": "father",
    "父親": "father",
    "老爸": "father",
    "我爸": "father",
    "儿子": "son",
    "兒子": "son",
    "女儿": "daughter",
    "女兒": "daughter",
    "爷爷": "grandfather",
    "爺爺": "grandfather",
    "外公": "grandfather",
    "奶奶": "grandmother",
    "外婆": "grandmother",
    "姥姥": "grandmother",
    "表妹": "cousin",
    "表姐": "cousin",
    "表哥": "cousin",
    "表弟": "cousin",
    "堂妹": "cousin",
    "堂姐": "cousin",
    "堂哥": "cousin",
    "堂弟": "cousin",
    "闺蜜": "best friend",
    "閨蜜": "best friend",
    "好朋友": "friend",
    "朋友": "friend",
    "室友": "roommate",
    "邻居": "neighbour",
    "鄰居": "neighbour",
    "经理": "manager",
    "經理": "manager",
    "老板": "boss",
    "老闆": "boss",
    "上司": "boss",
    "领导": "boss",
    "領導": "boss",
    "主管": "manager",
    "同事": "coworker",
    "同学": "classmate",
    "同學": "classmate",
    "老师": "teacher",
    "老師": "teacher",
    "医生": "doctor",
    "醫生": "doctor",
    "教练": "coach",
    "教練": "coach",
    "房东": "landlord",
    "房東": "landlord",
}

#: Pets: a name after these ("我家猫咪团子") is the user's pet, kept as a pet of that kind.
PETS: dict[str, str] = {
    "猫": "cat",
    "貓": "cat",
    "猫咪": "cat",
    "貓咪": "cat",
    "小猫": "cat",
    "小貓": "cat",
    "狗": "dog",
    "狗狗": "dog",
    "小狗": "dog",
    "鹦鹉": "parrot",
    "鸚鵡": "parrot",
    "兔子": "rabbit",
}
#: How people address someone by surname ("陈总", "王姐", "孙老师"): a name of its own.
TITLES = (
    "总 總 姐 哥 老师 老師 阿姨 教练 教練 太太 奶奶 爷爷 爺爺 叔 叔叔 医生 醫生 经理 經理".split()
)
#: Doubled characters that are words, not nicknames ("天天" every day, "妈妈" mum).
NOT_NAMES = frozenset(
    """天天 常常 刚刚 剛剛 慢慢 好好 看看 想想 试试 試試 说说 說說 聊聊 走走 偷偷 渐渐 漸漸 明明
    往往 仅仅 僅僅 宝宝 寶寶 哈哈 嘿嘿 呵呵 嘻嘻 谢谢 謝謝 人人 个个 個個 家家 年年 时时 時時
    处处 處處 样样 樣樣 多多 早早 久久 默默 悄悄 匆匆 乖乖 轻轻 輕輕 稍稍 冷冷 暖暖""".split()
)

#: The commonest surnames (both scripts): a two- or three-character name starting with
#: one of these, or with 小/阿/老, is taken as a person's name after a kinship word.
SURNAMES = frozenset(
    "王李张張刘劉陈陳杨楊黄黃赵趙吴吳周徐孙孫马馬朱胡郭何高林罗羅郑鄭梁谢謝宋唐许許"
    "韩韓冯馮邓鄧曹彭曾肖田董袁潘蔡蒋蔣余于杜叶葉程苏蘇魏吕呂丁任沈姚卢盧姜崔钟鍾谭譚"
    "陆陸汪范金石廖贾賈夏韦韋付方白邹鄒孟熊秦邱江尹薛闫閻段雷侯龙龍史陶黎贺賀顾顧毛郝"
    "龚龔邵万萬钱錢严嚴覃武戴莫孔向汤湯"
)
NAME_PREFIXES = frozenset("小阿老")

#: Function characters and words left out of single-character terms.
STOP_WORDS = frozenset(
    "的 了 是 我 你 他 她 它 们 們 在 和 也 就 都 而 及 与 與 着 著 吗 嗎 呢 吧 啊".split()
)


def words(run: str) -> list[str]:
    """Overlapping bigrams of a run of Chinese characters (the run itself if it is one
    character, unless it is a function character).

    >>> words("花生过敏"), words("猫"), words("的")
    (['花生', '生过', '过敏'], ['猫'], [])
    """
    if len(run) == 1:
        return [] if run in STOP_WORDS else [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


_NAME_END = frozenset(
    "说說是在和跟对對也都又去来來要会會今昨明最很还還的了就给給带帶把被让讓叫喜做买買从從"
)
_KIN = "|".join(sorted(map(re.escape, RELATIONSHIPS), key=len, reverse=True))
_SURNAME = f"[{''.join(sorted(SURNAMES))}]"
_TITLE = "|".join(sorted(TITLES, key=len, reverse=True))
#: A name as Chinese chats write one: a Latin name, 小/阿/老 and a character, a surname
#: and a title, a doubled character (佳佳, 豆豆), a surname and one or two characters.
_NAME = (
    rf"[A-Z][a-z]+|[小阿老][\u4e00-\u9fff]|{_SURNAME}(?:{_TITLE})|(?P<dup>[\u4e00-\u9fff])(?P=dup)"
    rf"|{_SURNAME}[\u4e00-\u9fff]{{1,2}}"
)
_NAMED_KIN = re.compile(
    rf"(?P<my>我的|我们的|我們的|我们|我們|我)?(?P<rel>{_KIN})(?:叫|是|，|,|\s)?"
    rf"(?P<name>{_NAME})?"
)
_PET = "|".join(sorted(map(re.escape, PETS), key=len, reverse=True))
_NAMED_PET = re.compile(
    rf"(?:我家|我的|我们家|我們家|我)(?P<kind>{_PET})(?:叫)?(?P<name>[\u4e00-\u9fff]{{2}})"
)
_CALLED = re.compile(r"(?:叫|名字是|名叫)(?P<name>[A-Z][a-z]+|[\u4e00-\u9fff]{2,3})")


def people_in(sentence: str) -> list[Named]:
    """People a Chinese sentence names by kinship or work words, in order.

    >>> [(n.name, n.relationship) for n in people_in("我妹妹小雨对花生过敏")]
    [('小雨', 'sister')]
    >>> [(n.name, n.relationship) for n in people_in("我的经理王丽说下周要加班")]
    [('王丽', 'manager')]
    >>> [(n.name, n.relationship) for n in people_in("我老公在腾讯上班，男朋友")]
    [('我老公', 'husband'), ('我男朋友', 'boyfriend')]
    >>> [(n.name, n.relationship) for n in people_in("我老婆佳佳带儿子豆豆去找我的经理王姐")]
    [('佳佳', 'wife'), ('豆豆', 'son'), ('王姐', 'manager')]
    >>> [(n.name, n.relationship) for n in people_in("还有我家猫咪团子，我老公天天加班")]
    [('团子', 'cat'), ('我老公', 'husband')]
    """
    found: list[Named] = []
    for m in _NAMED_PET.finditer(sentence):
        found.append(Named(_clean(m["name"]), PETS[m["kind"]], True))
    for m in _NAMED_KIN.finditer(sentence):
        word, relationship = m["rel"], RELATIONSHIPS[m["rel"]]
        name = m["name"] if m["name"] not in NOT_NAMES else None
        name = _clean(name) if name else None
        mine = bool(m["my"]) or word.startswith("我") or m.start() == 0
        if not name:
            called = _CALLED.match(sentence, m.end())
            name = _clean(called["name"]) if called else None
        if not name:
            name = word if word.startswith("我") else f"我{word}"
        found.append(Named(name, relationship, mine))
    return found


def _clean(name: str) -> str:
    """A name without the verb or particle a greedy match took along ("王丽说" -> 王丽)."""
    while len(name) > 2 and name[-1] in _NAME_END:
        name = name[:-1]
    return name


_PLACE = r"(?P<value>[\u4e00-\u9fff]{2,6}?)"
_END = r"(?=了|啦|啊|呀|市|这边|這邊|那边|那邊|住|，|,|。|！|!|？|\?|\s|$)"
#: Claims, as (attribute, pattern): where someone lives and works. A newer one on the
#: same attribute supersedes the older ("我搬到深圳了" after "我住在上海").
CLAIMS: tuple[tuple[str, str], ...] = (
    ("location", rf"(?:搬到了?|搬去了?|搬家到|搬回了?|住在|住到|定居在|定居){_PLACE}{_END}"),
    # a rented home, named down to the estate: "租在南山西丽的留仙苑"
    ("location", rf"(?:租在|租到了?)(?P<value>[\u4e00-\u9fff]{{2,10}}?){_END}"),
    # a first day said as joining: "我入职云帆数据啦"
    (
        "employer",
        r"(?:入职了?|入職了?)(?!的)(?P<value>[\u4e00-\u9fffA-Za-z]{2,8}?)"
        r"(?=啦|了|的|啊|，|,|。|！|!|\s|$)",
    ),
    (
        "employer",
        r"(?:在|去|进了?|進了?|入职了?|入職了?|跳槽到了?)(?!在)(?P<value>[\u4e00-\u9fffA-Za-z]{2,8}?)"
        r"(?:上班|工作|任职|任職|实习|實習)",
    ),
)
#: What a question asks the value of (see ``graphmem.recall.temporal``).
ASKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"住(?:在)?哪|住在什么地方|住在什麼地方|搬到哪|搬去哪|哪个城市|哪個城市", ("location",)),
    (
        r"在哪(?:里|裡|儿|兒)?(?:上班|工作)|哪家公司|什么工作|什麼工作|做什么工作",
        ("employer", "job"),
    ),
)
#: Time words, read in English by the temporal reader.
TIME_WORDS: dict[str, str] = {
    "现在": "now",
    "現在": "now",
    "目前": "currently",
    "如今": "nowadays",
    "还在": "still",
    "還在": "still",
    "以前": "before",
    "之前": "before",
    "原来": "originally",
    "原來": "originally",
    "过去": "in the past",
    "過去": "in the past",
    "曾经": "used to",
    "曾經": "used to",
    "上周": "last week",
    "上週": "last week",
    "上星期": "last week",
    "上个月": "last month",
    "上個月": "last month",
    "去年": "last year",
    "下周": "next week",
    "下週": "next week",
    "下个月": "next month",
    "下個月": "next month",
    "明年": "next year",
    "今年": "this year",
    # "5月" is "in May" (longest first, so "11月" is November, not "1月")
    **{f"{n}月": f"in {calendar.month_name[n]}" for n in range(1, 13)},
}
#: Time expressions with numbers, read in English: "2023年" is "in 2023".
TIME_PATTERNS: tuple[tuple[str, str], ...] = ((r"(\d{4})\s*年", r" in \1 "),)


LANGUAGE = Language(
    code="zh",
    name="Chinese",
    script=SCRIPT,
    words=words,
    stop_words=STOP_WORDS,
    extracts=False,
    relationships=RELATIONSHIPS,
    people_in=people_in,
    claims=CLAIMS,
    asks=ASKS,
    answer_kind_words=frozenset({"名字", "叫什么"}),
    question_words=r"[哪谁誰几幾]|什么|什麼|多少",
    name_question=r"叫什么|叫什麼|名字",
    naming=r"叫|名字",
    # "你推荐的", "你之前建议我"; not "我跟你说" (the user speaking to the assistant)
    asks_the_assistant=(
        r"(?<![跟和对對给給])你(?:之前|上次|以前|当时|當時)?(?:推荐|推薦|建议|建議|介绍|介紹|提到|教)"
        r"|(?<![跟和对對给給])你(?:之前|上次|以前|当时|當時)(?:说|說|讲|講|告诉|告訴)"
        r"|(?<![跟和对對给給])你(?:说|說)过"
    ),
    someone_elses=r"[^\W\d_我们們]{1,4}的",
    number_question=r"多少|几|幾|多大|多久|多长|多長|多远|多遠",
    number=r"[一二三四五六七八九十百千万萬两兩半]",
    time_words=TIME_WORDS,
    time_patterns=TIME_PATTERNS,
    first_person=("我",),
)
