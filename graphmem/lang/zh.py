"""Chinese (simplified and traditional): character bigrams, kinship words, names.

The lexical channel indexes overlapping character bigrams of each run of Chinese text
("我妹妹对花生过敏" -> 我妹 妹妹 妹对 对花 花生 生过 过敏): no dictionary to load, no
segmentation errors on names and new words, and BM25's IDF makes the common bigrams
(什么, 我们) weigh little. A run of one character is its own term.

People are named by kinship and work words ("我妹妹小雨", "我老公", "我的经理王姐",
"晓晓是我老婆") and kept in the user's words: ``RELATIONSHIPS`` gives each word (both
scripts) its English reading, so graphmem knows "老婆" is a partner and "领导" a manager
(one holder at a time, "前领导" once replaced), and "我妹妹对什么过敏？" and "what is my
sister allergic to?" reach the same person. Kinship words used as names ("我妈说") make
a person called by the word ("妈妈"). People are also named as the user knows them
otherwise: a title of a surname and a role ("教练姓何" is 何教练), where they live ("楼下
的张阿姨": 邻居), who is in a group ("团队有三个人，小周、阿ken": 同事), something done
together ("跟老周搭档"), a relative of a relative in one word ("我哥...他女儿小米": 侄女,
``COMPOSED``). Places, shops and words that only start like a name ("楼下的小卖部") are
no one.
"""

from __future__ import annotations

import calendar
import functools
import re
from dataclasses import replace
from typing import Any

from graphmem.lang import FAMILY, Language, Named

#: Han ideographs (basic block and extension A) and the compatibility block.
SCRIPT = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"

#: Kinship, partner and work words, simplified and traditional. Values are their English
#: reading, what graphmem's roles are written in (``graphmem.relationships``).
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
    "闺女": "daughter",
    "閨女": "daughter",
    "爷爷": "grandfather",
    "爺爺": "grandfather",
    "外公": "grandfather",
    "奶奶": "grandmother",
    "外婆": "grandmother",
    "姥姥": "grandmother",
    "阿嬤": "grandmother",
    "阿嬷": "grandmother",
    "阿公": "grandfather",
    "姥爷": "grandfather",
    "姥爺": "grandfather",
    "姊姊": "sister",
    "表妹": "cousin",
    "表姐": "cousin",
    "表姊": "cousin",
    "堂姊": "cousin",
    "表哥": "cousin",
    "表弟": "cousin",
    "堂妹": "cousin",
    "堂姐": "cousin",
    "堂哥": "cousin",
    "堂弟": "cousin",
    "发小": "childhood friend",
    "發小": "childhood friend",
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
    "老细": "boss",
    "老細": "boss",
    "上司": "boss",
    "领导": "boss",
    "領導": "boss",
    "总监": "boss",
    "總監": "boss",
    "主管": "manager",
    "店长": "manager",
    "店長": "manager",
    "同事": "coworker",
    "合伙人": "business partner",
    "合夥人": "business partner",
    "员工": "employee",
    "員工": "employee",
    "店员": "employee",
    "店員": "employee",
    "工读生": "part-time employee",
    "工讀生": "part-time employee",
    "同学": "classmate",
    "同學": "classmate",
    "老师": "teacher",
    "老師": "teacher",
    "医生": "doctor",
    "醫生": "doctor",
    "大夫": "doctor",
    "教练": "coach",
    "教練": "coach",
    "房东": "landlord",
    "房東": "landlord",
    "老伴": "spouse",
    "对象": "partner",
    "對象": "partner",
    "约会对象": "partner",
    "約會對象": "partner",
    "爱人": "spouse",
    "愛人": "spouse",
    "哥们": "friend",
    "哥們": "friend",
    "儿媳妇": "daughter-in-law",
    "兒媳婦": "daughter-in-law",
    "儿媳": "daughter-in-law",
    "兒媳": "daughter-in-law",
    "女婿": "son-in-law",
    "丈母娘": "mother-in-law",
    "岳母": "mother-in-law",
    "岳父": "father-in-law",
    "婆婆": "mother-in-law",
    "公公": "father-in-law",
    "孙女": "granddaughter",
    "孫女": "granddaughter",
    "外孙女": "granddaughter",
    "孙子": "grandson",
    "孫子": "grandson",
    "外孙": "grandson",
    "导师": "advisor",
    "導師": "advisor",
    "保姆": "nanny",
    "育儿嫂": "nanny",
    "育兒嫂": "nanny",
    "侄女": "niece",
    "侄子": "nephew",
    "外甥女": "niece",
    "外甥": "nephew",
    "姑姑": "aunt",
    "姨妈": "aunt",
    "姨媽": "aunt",
    "舅舅": "uncle",
    # roles that name someone only with a name after them (``NAMED_ONLY``)
    "编辑": "editor",
    "編輯": "editor",
    "客户": "client",
    "客戶": "client",
    "搭档": "teammate",
    "搭檔": "teammate",
    "群主": "group admin",
    "队长": "captain",
    "隊長": "captain",
    "组长": "team lead",
    "組長": "team lead",
    "领舞": "dance leader",
    "領舞": "dance leader",
}
#: Role words that are also verbs or titles ("我编辑了一下", "当队长"): a person only
#: with a name after them ("编辑小敏") or before them ("老周是我们群主").
NAMED_ONLY = frozenset("编辑 編輯 客户 客戶 搭档 搭檔 群主 队长 隊長 组长 組長 领舞 領舞".split())
#: A relative of a relative, as one word: (what the first is to the user, what the
#: second is to the first), in English, to the user's word for the second ("我哥...他女儿
#: 小米": a brother's daughter, "侄女"). Chinese says more than English's
#: ``graphmem.relationships.through`` (a brother's daughter is 侄女, a sister's 外甥女), so
#: the table is the language's own. Only what one word says soundly: a brother's wife is
#: "嫂子" or "弟媳" by his age, so not here.
COMPOSED: dict[tuple[str, str], str] = {
    ("brother", "daughter"): "侄女",
    ("brother", "son"): "侄子",
    ("sister", "daughter"): "外甥女",
    ("sister", "son"): "外甥",
    ("son", "daughter"): "孙女",
    ("son", "son"): "孙子",
    ("daughter", "daughter"): "外孙女",
    ("daughter", "son"): "外孙",
    ("son", "wife"): "儿媳",
    ("daughter", "husband"): "女婿",
    ("wife", "mother"): "岳母",
    ("wife", "father"): "岳父",
    ("husband", "mother"): "婆婆",
    ("husband", "father"): "公公",
    ("mother", "mother"): "外婆",
    ("mother", "father"): "外公",
    ("father", "mother"): "奶奶",
    ("father", "father"): "爷爷",
    ("mother", "brother"): "舅舅",
    ("mother", "sister"): "姨妈",
    ("father", "sister"): "姑姑",
}
#: The characters of ``COMPOSED``'s words that traditional script writes otherwise.
_TO_TRADITIONAL = str.maketrans("孙儿妈爷", "孫兒媽爺")
_TO_SIMPLIFIED = str.maketrans("孫兒媽爺", "孙儿妈爷")
#: Where someone lives or works, said right before their name ("楼下的张阿姨", "在小区里
#: 认识了一个王奶奶", "我们办公室小周"): what that makes them to the user.
PLACES: dict[str, str] = {
    "楼下": "邻居",
    "樓下": "鄰居",
    "楼上": "邻居",
    "樓上": "鄰居",
    "隔壁": "邻居",
    "对门": "邻居",
    "對門": "鄰居",
    "小区里": "邻居",
    "小區裡": "鄰居",
    "小区": "邻居",
    "小區": "鄰居",
    # where the user works: "我们办公室小周"
    "办公室": "同事",
    "辦公室": "同事",
}
#: What may come between such a place and the name: "的", "认识了一个".
PLACE_BRIDGES = """的 住的 那个 那個 新来的 新來的 认识了一个 認識了一個 认识了 認識了 认识的 認識的
有个 有個 有一个 有一個""".split()
#: A group the user is in, then who is in it ("团队有三个人，小周、阿ken和一个实习生",
#: "team就我和Amy两个人"): what each one named is to the user.
GROUPS: dict[str, str] = {
    "团队": "同事",
    "團隊": "同事",
    "team": "同事",
    "我们组": "同事",
    "我們組": "同事",
    "组里": "同事",
    "組裡": "同事",
    "部门": "同事",
    "部門": "同事",
    "宿舍": "室友",
    "寝室": "室友",
    "寢室": "室友",
}
#: Doing something with someone that makes them a relationship ("我跟老周搭档",
#: "跟琪琪合租"): the verb, and the user's word for the one they do it with.
DOING_WITH: dict[str, str] = {"搭档": "搭档", "搭檔": "搭檔", "合租": "室友"}
#: Kinship words people use as a name ("我妈说", "老爸"): the person is called by the
#: plain word ("妈妈"), which is also their relationship; the word said is an alias.
KIN_NAMES: dict[str, str] = {
    "我妈": "妈妈",
    "老妈": "妈妈",
    "我媽": "媽媽",
    "老媽": "媽媽",
    "我爸": "爸爸",
    "老爸": "爸爸",
    "我哥": "哥哥",
    "我姐": "姐姐",
    "我弟": "弟弟",
    "我妹": "妹妹",
    # Cantonese: "家姐", "阿媽", "老豆", "細佬"
    "家姐": "姐姐",
    "阿媽": "媽媽",
    "阿妈": "妈妈",
    "阿爸": "爸爸",
    "老豆": "爸爸",
    "細佬": "弟弟",
    "细佬": "弟弟",
    "細妹": "妹妹",
    "阿哥": "哥哥",
    "阿妹": "妹妹",
    "阿嫲": "嫲嫲",
    # Taiwanese: "我阿嬤", "阿公"
    "我阿嬤": "阿嬤",
    "我阿嬷": "阿嬷",
    "我阿公": "阿公",
}
#: How a relationship that ended is said: "前" before the word ("前领导", "前室友"), or
#: "以前的" ("以前的同事"); partners have words of their own.
FORMER_PREFIXES = ("前", "以前的", "原来的", "原來的")
ENDED_WORDS: dict[str, str] = {
    "老婆": "前妻",
    "妻子": "前妻",
    "太太": "前妻",
    "媳妇": "前妻",
    "媳婦": "前妻",
    "老公": "前夫",
    "丈夫": "前夫",
    "先生": "前夫",
    "男朋友": "前男友",
    "男友": "前男友",
    "女朋友": "前女友",
    "女友": "前女友",
}
#: What a partner is called once engaged or married (``graphmem.relationships``).
PARTNER_WORDS: dict[str, dict[str | None, str]] = {
    "engaged": {"m": "未婚夫", "f": "未婚妻", None: "未婚夫"},
    "married": {"m": "老公", "f": "老婆", None: "爱人"},
}
_WE = r"(?:我们|我們|我俩|我倆|我和(?:她|他)|我跟(?:她|他))"
#: The user's own engagement or wedding: "她答应了" (to a proposal), "我们领证了". Plans
#: ("想求婚", "要不要求婚") and someone else's ("cindy订婚了") are not.
PARTNER_STEPS: tuple[tuple[str, str], ...] = (
    (
        "engaged",
        rf"(?:她|他)答应了|(?:她|他)答應了|求婚成功|{_WE}(?:已经|已經)?(?:订婚|訂婚)了"
        # "我男友家豪上週求婚了": the partner proposed
        r"|(?:男友|男朋友|女友|女朋友)[^，,。！!？?\s]{0,6}?(?:跟我|向我)?求婚了"
        r"|(?:他|她)(?:跟我|向我|對我|对我)求婚了"
        # the user proposed: "我向小雨求婚了", Cantonese "我喺珠江边同阿敏求咗婚"
        r"|我(?:(?!想|要|打算|准备|準備|计划|計劃|計畫|希望|可能|考虑|考慮)[^，,。！!？?\s]){0,8}?"
        r"(?:跟|和|同|向)"
        r"[^，,。！!？?\s]{1,4}?求(?:了)?婚",
    ),
    ("married", rf"{_WE}(?:今天|昨天|终于|終於|已经|已經)?(?:结婚|結婚|领证|領證)了"),
)

#: Both parents in one word ("我爸媽堅持"): no one person.
PARENTS = ("爸妈", "爸媽", "父母", "爸爸妈妈", "爸爸媽媽")
#: Before a family word said alone, what makes it a clause's subject (the user's own
#: family: "婆婆说...", "7月4号 女儿 6斤8两"); not "全职妈妈", "叫“妈妈”".
_CLAUSE_START = re.compile(r"(?:^|[\s，,。！!？?、~～…]|还有|還有|然后|然後|结果|結果)$")
#: Emoji that show a pet, and the word for its kind.
PET_EMOJI = {"🐱": "猫", "🐈": "猫", "🐶": "狗", "🐕": "狗", "🐰": "兔子", "🐇": "兔子"}
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
    "仓鼠": "hamster",
    "倉鼠": "hamster",
    "乌龟": "turtle",
    "烏龜": "turtle",
    "米克斯": "dog",
    # breeds name the kind: "我家金毛可乐", "一隻柴犬叫麻糬"
    "金毛": "dog",
    "柴犬": "dog",
    "柯基": "dog",
    "泰迪": "dog",
    "哈士奇": "dog",
    "边牧": "dog",
    "邊牧": "dog",
    "土狗": "dog",
    "英短": "cat",
    "蓝猫": "cat",
    "藍貓": "cat",
    "橘猫": "cat",
    "橘貓": "cat",
    "布偶猫": "cat",
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
    # holidays, said where a name would be ("我哥国庆也回绵阳了": home for National Day)
    + """国庆 國慶 国庆节 國慶節 春节 春節 过年 過年 中秋 端午 元旦 清明 元宵 七夕 除夕 五一
    十一 圣诞 聖誕 新年""".split()
    # English chat words a Chinese message types after a role word ("教研组长 nice",
    # "有点像同事 lol"): what the user thinks of them, not their name
    + """lol lmao haha hahaha omg nice good great cool ok okay fine yes yeah no nope sure
    thanks thx sorry wow nah meh""".split()
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


#: Characters a greedy name match takes along: a verb or particle after the name.
_NAME_END = frozenset(
    "说說是在和跟对對也都又去来來要会會很还還的了就给給带帶把被让讓叫喜做买買从從帮幫陪问問请請送"
)
#: Two characters after "我儿子" that are words, not a given name ("我儿子今天...").
COMMON_WORDS = frozenset(
    """今天 昨天 明天 前天 后天 現在 现在 最近 一直 已经 已經 还是 還是 也是 就是 刚刚 剛剛 每天
    上周 下周 生日 一起 自己 他们 她们 我们 一个 這個 这个 那个 那個 这边 那边 真的 好像 突然 终于
    終於 居然 特别 特別 非常 比较 比較 有点 有點 总是 總是 经常 經常 平时 平時 以前 之前 后来
    後來 然后 然後 所以 因为 因為 但是 不过 不過 可是 老家 小区 小區 小时 小時 老师 老師 老板
    老闆 阿姨 老人 小孩 老大 小姑娘 说要 說要 都在 也在 还在 還在 今年 去年 明年 两个 兩個 三个 三個
    几个 幾個 老是 老实 老實 老说 老說 老想 老要 老在""".split()
)
#: English relationship words Chinese chats use as they are ("跟一个roommate琪琪合租"):
#: kept in English, said before a name like a Chinese word.
ENGLISH_WORDS = frozenset(
    """roommate flatmate boss manager mentor coworker colleague intern bestie bf gf
    boyfriend girlfriend buddy""".split()
)
_KIN = "|".join(
    sorted(map(re.escape, [*RELATIONSHIPS, *KIN_NAMES, *ENGLISH_WORDS]), key=len, reverse=True)
)
_SURNAME = f"[{''.join(sorted(SURNAMES))}]"
_TITLE = "|".join(sorted(TITLES, key=len, reverse=True))
_HAN = "\u4e00-\u9fff"
#: A name as Chinese chats write one: a Latin name (typed in lower case too), 小/阿/老
#: and a character, a surname and a title, a doubled character (佳佳, 豆豆), a surname
#: and one or two characters.
_NAME = (
    rf"[A-Za-z][a-z]{{2,}}(?![A-Za-z])|[A-Z][a-z]+|[小阿老](?:[{_HAN}]|[a-z]{{2,}}(?![A-Za-z]))"
    rf"|{_SURNAME}(?:{_TITLE})"
    rf"|(?P<dup>[{_HAN}])(?P=dup)|{_SURNAME}[{_HAN}]{{1,2}}"
)
#: Relatives and friends people name by a given name alone ("我儿子志强", "我同事大伟"),
#: not by a surname.
GIVEN_NAMED = frozenset(
    """儿子 兒子 女儿 女兒 闺女 閨女 妹妹 弟弟 哥哥 姐姐 老公 老婆 男朋友 女朋友 男友 女友 孙子 孫子
    孙女 孫女 儿媳妇 兒媳婦 儿媳 女婿 表妹 表弟 表哥 表姐 表姊 堂妹 堂弟 堂哥 堂姐 堂姊 姊姊 侄女
    侄子 外甥女 外甥 同事 发小 發小 闺蜜 閨蜜 室友 朋友 同学 同學""".split()
)
#: A given name alone, right after "我儿子": two characters a verb or a pause follows.
_AFTER_GIVEN = (
    "在说說是和跟也都又去来來要会會今昨最很还還的了就给給带帶把被让讓从從上下前剛刚已才，,。！!？?"
)
_GIVEN = rf"(?P<given>[{_HAN}]{{2}})(?=[{_AFTER_GIVEN}\s])"
#: What joins a relationship word to a name: "叫", "是", "换成" (a new holder), a pause.
_JOIN = r"叫做|名叫|叫|就是|是|换成了?|換成了?|变成了?|變成了?|，|,|\s"
#: What a name said first in a clause is followed by when it is someone's: a saying, a
#: "with", a "was", a pause, something done for the user ("儿子晓峰给我办了个新号").
_SAYS_NEXT = re.compile(
    r"[\s，,。！!？?给給帮幫替陪带帶让讓]|说|說|讲|講|告诉|告訴|跟|和|是|问|問|叫"
)
_NAMED_KIN = re.compile(
    rf"(?:(?P<my>我的|我们的|我們的|我们|我們|我)(?:\s(?=[A-Za-z]))?)?"  # "我的 manager"
    rf"(?P<former>{'|'.join(FORMER_PREFIXES)})?(?P<rel>{_KIN})(?:(?:{_JOIN})\s?)?"  # "是 Jessica"
    rf"(?:(?P<name>{_NAME})|(?<=[{_HAN}]){_GIVEN})?"
)
#: The user's relative said before a word for their relative: "我妈的" (弟弟).
_MY_KIN_OF = re.compile(rf"(?P<my>我的|我们的|我們的|我)?(?P<rel>{_KIN})的$")
#: Before a relationship word, what makes it someone else's ("她男朋友", "阿凯的妈妈",
#: "他新竹的同事").
_SOMEONE_ELSES = re.compile(
    rf"(?:[他她它你]们?|別人|别人|人家|(?:{_NAME}))(?:[^，,。！!？?\s我你]{{1,4}}的)?的?$"
)
_PET = "|".join(sorted(map(re.escape, PETS), key=len, reverse=True))
_NAMED_PET = re.compile(
    rf"(?:我家|我的|我们家|我們家|家里|家裡|我)(?P<kind>{_PET})(?:叫)?(?P<name>[{_HAN}]{{2}})"
    # "我领养了一只猫 英短蓝猫 叫布丁"
    rf"|(?<=只|条|條|隻)(?P<kind2>{_PET})[^，,。！!？?]{{0,8}}?(?:名叫|叫)(?P<name2>[{_HAN}]{{2}}|[A-Za-z]+)"
    # someone's at home: "他养的仓鼠豆豆", "小瑜的貓麻糬"
    rf"|的(?P<kind3>{_PET})(?P<name3>[{_HAN}]{{2}})"
    # a new one at home, shown with its emoji: "隆重介绍 我家新成员 奶盖🐱 橘白 三个月大"
    rf"|(?:我家|家里|家裡)的?新成员\s*(?P<name4>[{_HAN}]{{2}})\s*(?P<kind4>{'|'.join(PET_EMOJI)})"
)
_PET_GROUPS = (("kind", "name"), ("kind2", "name2"), ("kind3", "name3"), ("kind4", "name4"))
#: What a pet's name never starts with: the adverb or verb of what is said of it
_NOT_A_NAME_START = frozenset(
    "很太最也都又还還真好在是就会會要不没沒有把被给給跟和去来來说說今昨明每已叫吃睡喝玩跑走死病怎什那这這哪"
)
#: Who someone is, in brackets after their name: "阿强(我家狗)", "小雨（我妹）", "Kevin(我老板)".
_PARENTHESISED = re.compile(
    rf"(?P<name>(?<![A-Za-z])[A-Za-z][a-z]+|(?<![{_HAN}])[{_HAN}]{{2,3}})\s*[（(]\s*"
    rf"(?:我家|我们家|我們家|我的|我们的|我們的|我)?的?(?P<rel>{_PET}|{_KIN})\s*[)）]"
)
#: A name given ("叫可樂", "取名叫布丁"), and a pet spoken of with its measure word or
#: as adopted ("一隻狗", "收養了貓"): together, the pet's name (``_pets_named``).
_GIVEN_NAME = re.compile(
    rf"(?:名叫|叫做|[取起]名叫?|叫)\s*(?P<name>(?![什甚啥他她它我你])[{_HAN}]{{2}}|[A-Za-z][a-z]+)"
)
_PET_SAID = re.compile(
    rf"(?:[只隻条條头頭]|领养了?|領養了?|收养了?|收養了?|养了?|養了?|捡了|撿了|捡的|撿的)"
    rf"[^，,。！!？?\s]{{0,2}}?(?P<kind>{_PET})"
)
#: A name given a few characters on: "老板是创始人之一，叫Grace".
_CALLED = re.compile(
    rf"[^。！？!?]{{0,8}}?(?:叫|名字是|名叫)\s*"
    rf"(?P<name>[A-Z][a-z]+|(?![我你他她它])[{_HAN}]{{2,3}}(?![^{_AFTER_GIVEN}\W\d_A-Za-z]))"
)
#: Someone named, then said to be the user's: "晓晓是我老婆", "璐璐是我大学室友".
_IS_MINE = re.compile(
    # or by a pronoun in the clause after: "有 Sydney 陪我，她是我同事"
    rf"(?P<name>{_NAME})(?:[^。！？!?，,]{{0,10}}[，,]\s*(?:他|她))?是我(?:们|們)?(?:的)?(?:大学|大學|高中|初中|小学|小學|最好的)?"
    rf"(?:[A-Za-z]+\s*)?(?P<rel>{_KIN})"  # "Amy是我最好的work bestie"
)
#: A title made of a surname and a role: "教练姓何，我们都叫他何教练", "老师姓孙" (孙老师).
_SURNAMED = re.compile(
    rf"(?P<rel>{_KIN})姓(?P<surname>{_SURNAME})"
    rf"(?:[^。！？!?]{{0,12}}?叫(?:他|她)?(?P<called>{_SURNAME}(?:{_TITLE})))?"
)
#: A name said where the one named lives ("楼下的张阿姨"): a surname and a title, or
#: 小/阿/老 and a character, so that a place's own name ("小区门口的王府井") is none.
_TITLED = rf"{_SURNAME}(?:{_TITLE})|[小阿老](?:[{_HAN}]|[a-z]{{2,}}(?![A-Za-z]))"
_AT_PLACE = re.compile(
    rf"(?P<place>{'|'.join(sorted(PLACES, key=len, reverse=True))})"
    rf"(?:{'|'.join(sorted(PLACE_BRIDGES, key=len, reverse=True))})?(?P<name>{_TITLED})"
)
#: A member of a group as a list names one: a Chinese name, 小/阿/老 and a name, or a
#: capitalised Latin name (a lower-case English word in a list is no one).
_MEMBER = rf"[A-Z][a-z]+(?![A-Za-z])|{_TITLED}|{_SURNAME}[{_HAN}]{{1,2}}|(?P<dup>[{_HAN}])(?P=dup)"
_SEPARATOR = r"\s*(?:、|，|,|和|跟|还有|還有)\s*"
_FIRST, _NEXT = _MEMBER.replace("dup", "d1"), _MEMBER.replace("dup", "d2")  # each named once
_IN_GROUP = re.compile(
    rf"(?<![A-Za-z])(?P<group>{'|'.join(sorted(GROUPS, key=len, reverse=True))})(?![A-Za-z])"
    rf"(?:里|裡)?[^，,。！!？?]{{0,6}}?[，,:：]?\s*"
    rf"(?P<members>(?:我|{_FIRST})(?:{_SEPARATOR}(?:我|{_NEXT}))+)"
)
_DOING_WITH = re.compile(rf"(?:跟|和)(?P<name>{_NAME})(?:一起)?(?P<verb>{'|'.join(DOING_WITH)})")
#: Someone said to have taken a post: "小何做咗店长啦" (Cantonese), "小王当了组长".
_TOOK_POST = re.compile(rf"(?P<name>{_NAME})(?:做了|当了|當了|升了|成了)(?P<rel>{_KIN})")
#: The posts one is said to take (in English), not kin: "小雨成了我妹妹" is no post.
_POSTS = frozenset(("manager", "boss", "team lead", "captain", "group admin", "dance leader"))
#: A child's names as a birth announcement gives them: "大名王子航", "小名叫豆包".
_FULL_NAME = re.compile(rf"(?:大名|全名)(?:叫|是)?(?P<name>{_SURNAME}[{_HAN}]{{1,2}})")
_NICKNAME = re.compile(rf"(?:小名|乳名|外号|外號|绰号|綽號)(?:叫|是)?(?P<name>[{_HAN}]{{2}})")
#: Changes the user announces with someone named, and what that one is to them then
#: (an ended relationship when not known before): a breakup ("和kevin分手了": "前任"),
#: leaving a job ("跟Eric提了离职"), a new couple ("我跟小鹿在一起了": "对象").
CHANGES: tuple[tuple[str, str], ...] = (
    (r"(?:和|跟)(?P<name>{any})(?:已经|已經)?在一起了", "对象"),
    (  # Cantonese too: "我同 Jason 分咗手" (read as "分了手")
        r"(?:和|跟|同)\s*(?P<name>{any})\s*(?:已经|已經|决定|決定|正式|终于|終於|刚|剛)?"
        r"(?:(?:分手|離婚|离婚|分)了(?![{han}])|分了手)",
        "前任",
    ),
    # someone the user goes out with: "同一個叫 Marcus 嘅人出咗幾次街", "跟一个叫阿哲的人约会"
    (
        r"(?:和|跟|同)(?:一个|一個)叫\s*(?P<name>{any})\s*的(?:人|男生|女生|男仔|女仔)"
        r"[^。！？!?，,]{{0,4}}?(?:出了?[一两兩几幾]?次?街|拍拖|约会|約會|date)",
        "对象",
    ),
    # someone the user shares a flat with, or who joined their team, named: "跟一个女生
    # 合租 她叫小美", "我们组新来了个实习生叫可可"
    # (no other relationship word between: "我们组来了个新领导 叫Lisa" is the boss)
    (r"(?:合租|室友)(?:(?!{kin})[^。！？!?的]){{0,8}}?(?:名叫|叫)\s*(?P<name>{any})", "室友"),
    (
        r"(?:(?:我们|我們)(?:组|組|部门|部門|团队|團隊)|(?:组|組|部门|部門|团队|團隊)(?:里|裡|内|內))"
        r"(?:(?!{kin})[^。！？!?的]){{0,8}}?(?:名叫|叫)\s*(?P<name>{any})",
        "同事",
    ),
    # someone the user is seeing: "跟一个男生约会 叫Leo", "在跟Leo约会"
    (r"(?:约会|約會)[^。！？!?，,]{{0,4}}?(?:叫|名字是)\s*(?P<name>{any})", "对象"),
    (r"(?:和|跟|同)\s*(?P<name>{any})\s*(?:在)?(?:约会|約會|拍拖)", "对象"),
    # the user proposing to someone, or with them for years: "在計畫跟小瑜求婚", "跟小瑜交往四年了"
    (
        r"(?:和|跟|向)\s*(?P<name>{any})\s*(?:求婚|(?:交往|在一起)了?(?:快|已经|已經)?[一二两兩三四五六七八九十几幾半\d]+(?:年|个月|個月))",
        "对象",
    ),
    # someone met, named, then together: "认识了一个男生 叫阿哲 ... 我们在一起了"
    (
        r"(?:一个|一個)(?:男生|女生|男孩|女孩|男的|女的|人)[^。！？!?]{{0,6}}?(?:名叫|叫)"
        r"(?P<name>{any})(?=[^。！？!?]{{0,30}}?(?:我们|我們)(?:已经|已經)?在一起了)",
        "对象",
    ),
    (r"(?:和|跟|向)(?P<name>{name})提了?(?:离职|離職|辞职|辭職)", "前领导"),
    # a wife's word for her husband: "我家老张" (not "我家老大", "我家老房子")
    (r"(?:我家|我們家|我们家)(?P<name>老{surname})", "老公"),
    # a partner leaving the business: "阿凱說他要退股"
    (r"(?P<name>{name})(?:说|說)?(?:他|她)?(?:要|已经|已經)?退股", "前合夥人"),
    # asked out, and yes said: "Daniel昨天正式问我要不要做他女朋友，I said yes"
    (r"(?P<name>{name}){asks}(?:他的|他)女朋友{yes}", "男朋友"),
    (r"(?P<name>{name}){asks}(?:她的|她)男朋友{yes}", "女朋友"),
)
_ASKS = r"[^，,。！!？?]{0,8}?(?:问我|問我)(?:要不要|愿不愿意|願不願意|能不能|可不可以)?做"
_YES = r"[^。！？!?]{0,12}?(?:[Ss]aid yes|答应了|答應了|同意了|我愿意|我願意)"
#: Any name, where the words around say a person is meant (a partner): "大伟", "Leo"
#: (``_NAME`` knows names by their shape: "小鹿", "王丽", a surname and a title).
_ANY_NAME = rf"[A-Za-z][a-z]+(?![A-Za-z])|(?![我你他她它自一这那某這])[{_HAN}]{{2,3}}?"
_PARTS = {"asks": _ASKS, "yes": _YES, "han": _HAN}
_CHANGES = tuple(
    (
        re.compile(rx.format(name=_NAME, any=_ANY_NAME, kin=_KIN, surname=_SURNAME, **_PARTS)),
        word,
    )
    for rx, word in CHANGES
)


#: Cantonese as it is typed: its function words, each for the Mandarin one the rules are
#: written with, one character for one (what a reader finds stays where it was said).
CANTONESE = str.maketrans(
    {
        "嘅": "的",
        "佢": "他",
        "咗": "了",
        "喺": "在",
        "哋": "们",
        "冇": "没",
        "睇": "看",
        "嚟": "来",
        "仲": "还",
    }
)
_CANTONESE_IS = re.compile("(?<![關关聯联])係")
_CANTONESE_WORDS = re.compile(f"[係{''.join(chr(c) for c in CANTONESE)}]")


#: Last characters of a word the tagger reads as a name that make it a place, a dish or
#: a shop instead ("武侯区", "高雄人", "蔡林记", "杭帮菜"); 江 and 山 end given names
#: too ("刘长江").
_NOT_A_NAME_END = frozenset("区區路街河湖寺镇鎮村县縣市省站园園桥橋港湾灣岛島人菜记記店馆館楼樓")


def names_in(sentence: str) -> list[str]:
    """Names a sentence says with no relationship word ("陈凯还在那边怪我", "罗姐说下个月",
    "阿哲周末带我去"), where jieba's part-of-speech tagger guesses a person's name (``nr``)
    for a word its dictionary does not hold: a word it holds is a word ("白班" a day
    shift, "钱塘江" a river, "刘亦菲" an actress), though tagged as a name. Kept where
    written as Chinese names are: a surname and one or two characters ("周浩", "罗姐"),
    小/阿/老 and one character ("阿哲"), a doubled character ("璐璐"). The sentence is read
    as Mandarin writes it (``as_mandarin``, done by ``names_said``).

    >>> names_in("罗姐说下个月排班更紧 陈凯还在那边怪我一天到晚不回他消息")
    ['罗姐', '陈凯']
    >>> names_in("明天还有个白班 周末马上就去武侯区 谢谢你")
    []
    """
    freq = _jieba().dt.FREQ
    out: list[str] = []
    at = 0
    for word, flag in _tagged(sentence):
        start, at = at, at + len(word)
        if flag != "nr" or freq.get(word) or word in out:
            continue
        if _written_as_a_name(word) and _where_someone_goes(sentence, start, at):
            out.append(word)
    return out


@functools.lru_cache(maxsize=256)
def _tagged(sentence: str) -> tuple[tuple[str, str], ...]:
    """jieba's words of a sentence with their part-of-speech tags, kept for the sentence:
    the people readers (``_titled``, then ``names_in``) each read the same sentence."""
    return tuple((w.word, w.flag) for w in _jieba().posseg.cut(sentence))


@functools.cache
def _jieba() -> Any:
    """jieba with its tagger, imported once, quiet (its dictionary load reports on
    stderr)."""
    import jieba
    import jieba.posseg

    jieba.setLogLevel(60)
    return jieba


#: What comes right before someone named in a clause: "跟", "叫", "给", "陪"...
_BEFORE_SOMEONE = re.compile(r"[跟和叫给給让讓陪找问問等同是]$")


def _where_someone_goes(sentence: str, start: int, end: int) -> bool:
    """Whether a name stands where a person does: opening a clause ("陈凯还在怪我"), after
    "跟", "叫", "是" ("叫周浩"), or before a saying or a pause ("罗姐说", "有个刘长江 男护士"); not
    where a thing goes ("用新会陈皮")."""
    before = sentence[:start]
    return (
        _CLAUSE_START.search(before) is not None
        or _BEFORE_SOMEONE.search(before) is not None
        or _SAYS_NEXT.match(sentence, end) is not None
    )


#: How the user gives their own name: "我叫", "我的名字是", "本人".
_SELF_INTRO = r"(?:我叫|我的名字(?:是|叫)|我名字叫|本人)"
_SELF_NAMED = re.compile(
    rf"{_SELF_INTRO}\s*(?P<name>{_SURNAME}[{_HAN}]{{1,2}})(?=[\s，,。！!？?~～…]|$)"
)
#: What is said right before a name the tagger read, where it is the user's own.
_SELF_BEFORE = re.compile(rf"(?:{_SELF_INTRO}|我是|叫我)\s*$")


def names_said(sentence: str) -> tuple[list[str], list[str]]:
    """The names a sentence gives as the user's own, and the others it says with no
    relationship word (``names_in``), from one pass of the tagger.

    >>> names_said("我叫谭小雨 罗姐说下个月排班更紧"), names_said("我是护士 我是陈默")
    ((['谭小雨'], ['罗姐']), (['陈默'], []))
    """
    sentence = as_mandarin(sentence)
    tagged = names_in(sentence)
    own = _users_own(sentence, tagged)
    return own, [n for n in tagged if n not in own]


def _users_own(sentence: str, tagged: list[str]) -> list[str]:
    """The names a (Mandarin) sentence gives as the user's own: a full name after "我叫"
    and a pause ("对了我叫谭小雨 三姨..."), or a name the tagger read (``tagged``) right
    after "我叫", "我是" or "叫我" ("我是陈默"; "我是护士" gives none)."""
    out = [m["name"] for m in _SELF_NAMED.finditer(sentence)]
    for name in tagged:
        if _SELF_BEFORE.search(sentence[: sentence.find(name)]) and name not in out:
            out.append(name)
    return out


def _written_as_a_name(word: str) -> bool:
    if not re.fullmatch(f"[{_HAN}]{{2,3}}", word) or word[-1] in _NOT_A_NAME_END:
        return False
    if word in NOT_NAMES or word in COMMON_WORDS or word in KIN_NAMES or word in RELATIONSHIPS:
        return False
    if word[0] in NAME_PREFIXES:
        return len(word) == 2 and word[1] not in _NAME_END
    return word[0] in SURNAMES or (len(word) == 2 and word[0] == word[1])


def as_mandarin(text: str) -> str:
    """A text with Cantonese function words as Mandarin writes them, for the readers.

    >>> as_mandarin("有 Sydney 陪我，佢係我同事"), as_mandarin("我哋嘅關係")
    ('有 Sydney 陪我，他是我同事', '我们的關係')
    """
    if not _CANTONESE_WORDS.search(text):
        return text  # most text, English above all: nothing to change
    return _CANTONESE_IS.sub("是", text.translate(CANTONESE))


def people_in(sentence: str, before: str = "") -> list[Named]:
    """People a Chinese sentence names by kinship or work words, in order. The
    relationship is in the user's words; someone named only by it is called by it
    ("我妈说" is "妈妈", with "我妈" an alias).

    >>> [(n.name, n.relationship) for n in people_in("我妹妹小雨对花生过敏")]
    [('小雨', '妹妹')]
    >>> [(n.name, n.relationship) for n in people_in("我的经理王丽说下周要加班")]
    [('王丽', '经理')]
    >>> [(n.name, n.relationship, n.aliases) for n in people_in("我妈说孩子生了她过来帮忙带")]
    [('妈妈', '妈妈', ('我妈', '妈'))]
    >>> [(n.name, n.relationship) for n in people_in("认识了一个男生 叫阿哲 我们在一起了")]
    [('阿哲', '对象')]
    >>> [(n.name, n.relationship) for n in people_in("我老婆佳佳带儿子豆豆去找我的经理王姐")]
    [('佳佳', '老婆'), ('豆豆', '儿子'), ('王姐', '经理')]
    >>> [(n.name, n.relationship) for n in people_in("还有我家猫咪团子，我老公天天加班")]
    [('团子', '猫咪'), ('老公', '老公')]
    >>> [(n.name, n.mine) for n in people_in("现在我们组的领导换成何静了")]
    [('何静', True)]
    >>> [(n.name, n.mine) for n in people_in("我闺蜜cindy订婚了 她男朋友在外滩求婚的")]
    [('Cindy', True), ('男朋友', False)]
    >>> [(n.name, n.aliases) for n in people_in("儿子1月20号出生的 小名叫豆包 大名王子航")]
    [('王子航', ('豆包',))]
    >>> [(n.name, n.relationship) for n in people_in("我儿子志强在杭州工作，我妈妈生日")]
    [('志强', '儿子'), ('妈妈', '妈妈')]
    >>> [(n.name, n.relationship) for n in people_in("还有我以前的同事杨昆明，下个月来杭州")]
    [('杨昆明', '以前的同事')]
    >>> [(n.name, n.relationship) for n in people_in("晓晓是我老婆，璐璐是我大学室友")]
    [('晓晓', '老婆'), ('璐璐', '室友')]
    >>> [(n.name, n.relationship) for n in people_in("startup节奏快，老板是创始人之一，叫Grace")]
    [('Grace', '老板')]
    >>> [n.name for n in people_in("新学校还不错，教研组长 nice")]  # what she is like
    []
    >>> [(n.name, n.relationship) for n in people_in("周五跟Kevin提了离职，我哥阿哲也回来了")]
    [('Kevin', '前领导'), ('阿哲', '哥哥')]
    >>> [(n.name, n.relationship) for n in people_in("老师姓孙，大家都叫他孙老师")]
    [('孙老师', '老师')]
    >>> [(n.name, n.relationship) for n in people_in("跟楼下的张阿姨一起，团队有小周、阿ken")]
    [('张阿姨', '邻居'), ('小周', '同事'), ('阿ken', '同事')]
    >>> [(n.name, n.relationship) for n in people_in("我哥阿哲也帶他女兒小米回來")]
    [('阿哲', '哥哥'), ('小米', '侄女')]
    >>> [(n.name, n.relationship) for n in people_in("有 Sydney 陪我，佢係我同事。阿媽喺屯門")]
    [('Sydney', '同事'), ('媽媽', '媽媽')]
    >>> [(n.name, n.relationship) for n in people_in("跟一个roommate琪琪合租，她是我同学")][0]
    ('琪琪', 'roommate')
    """
    sentence, before = as_mandarin(sentence), as_mandarin(before)
    found: list[Named] = []
    for m in _NAMED_PET.finditer(sentence):
        kind, name = next((m[k], m[n]) for k, n in _PET_GROUPS if m[k])
        kind = PET_EMOJI.get(kind, kind)
        if name[0] in _NOT_A_NAME_START or (
            m["kind3"] and _name(name, sentence[m.end() :]) is None
        ):
            continue  # "我家的狗狗今天", "我家猫太多了": no name
        found.append(Named(_clean(_cased(name)), kind, True, start=m.start()))
    for change, word in _CHANGES:
        for m in change.finditer(sentence):
            if (name := _name(m["name"], sentence[m.end("name") :])) is not None:
                found.append(Named(name, word, True, start=m.start()))
    taken: list[tuple[int, int]] = []
    for m in _PARENTHESISED.finditer(sentence):
        if (name := _name(m["name"])) is not None:
            word = m["rel"]
            found.append(Named(name, KIN_NAMES.get(word, word), True, start=m.start()))
            taken.append(m.span())
    for m in _IS_MINE.finditer(sentence):
        if m["name"].lower() in ENGLISH_WORDS:
            continue  # "跟一个roommate琪琪合租，她是我大学同学": the word, not a name
        if (name := _name(m["name"])) is not None:
            found.append(Named(name, KIN_NAMES.get(m["rel"], m["rel"]), True, start=m.start()))
            taken.append(m.span())
    for person, span in _roles_named(sentence):
        if not any(s < span[1] and span[0] < e for s, e in taken):
            found.append(person)
            taken.append(span)
    for m in _NAMED_KIN.finditer(sentence):
        if any(s <= m.start() < e for s, e in taken):
            continue
        word = m["rel"]
        if sentence[m.start("rel") :].removeprefix("我").startswith(PARENTS):
            continue  # "我爸媽": both parents, no one person
        # "my bf said", "international": English, read by English readers (where "叫"
        # names them it is Chinese: "新 boss 今日正式上任，叫 Winnie")
        if word in ENGLISH_WORDS and not (
            m["my"] or _english_word_named(sentence, m) or _CALLED.match(sentence, m.end())
        ):
            continue
        said = (m["my"] or "") + word
        relationship = (m["former"] or "") + KIN_NAMES.get(word, word)  # "以前的同事"
        # "我儿子志强", "我妹晓琳" (the user's word for her, "我妹", is "妹妹"); chat drops
        # the "我" of a clause it opens with, where the name says something next
        # ("同事土豆说她朋友家有只猫"; "表弟刚好也搬家" names no one)
        opens = _CLAUSE_START.search(sentence[: m.start()]) is not None and bool(
            _SAYS_NEXT.match(sentence, m.end())
        )
        mine_said = bool(m["my"]) or word.startswith("我") or opens
        given = m["given"] if mine_said and KIN_NAMES.get(word, word) in GIVEN_NAMED else None
        if given and given[0] in _NAME_END:
            given = None  # "我同事都说要走": a verb, no name
        said_name = m["name"]
        if said_name and _jieba().dt.FREQ.get(said_name + sentence[m.end() : m.end() + 1]):
            said_name = None  # "老同学老同事": the start of the next word, no 老同
        name = _name(said_name or given, sentence[m.end() :])
        if name is None and word in NAMED_ONLY:
            continue  # "我编辑了一下": a verb
        if name is None:
            found.append(replace(_unnamed(sentence, m, relationship, said), start=m.start()))
            continue
        mine = not _SOMEONE_ELSES.search(sentence[: m.start()]) or bool(m["my"])
        if not m["my"] and (composed := _composed(sentence[: m.start()], word, found)):
            relationship, mine = composed, True  # "我哥阿哲...他女儿小米": a niece
        elif not m["my"] and _a_relatives_partner(word, found):
            mine = False  # "儿子打电话来说明年结婚 女朋友叫周晓雯": the son's
        found.append(Named(name, relationship, mine, start=m.start()))
    found += _pets_named(sentence, before, found)
    # in quotes, "我" is whoever is quoted: '他说“我妈不是在帮忙吗”' is his mother
    found = [replace(n, mine=False) if _quoted(sentence, n.start) else n for n in found]
    return sorted((_with_full_name(sentence, n) for n in found), key=lambda n: n.start)


def _with_full_name(sentence: str, person: Named) -> Named:
    """Someone named by a given name or a title, also called by the full name the
    sentence says after it ("叫丽江 ... 是人名 张丽江": 张丽江, a surname before the same
    name; "赵总，赵建国").

    >>> _with_full_name("新来了个小姑娘叫丽江 是人名 张丽江", Named("丽江", "同事", True)).aliases
    ('张丽江',)
    >>> boss = Named("赵总", "领导", True, start=6)
    >>> _with_full_name("新来的领导是赵总，赵建国，挺严的", boss).aliases
    ('赵建国',)
    """
    if len(person.name) < 2 or not re.fullmatch(f"[{_HAN}]+", person.name):
        return person
    if re.fullmatch(f"{_SURNAME}(?:{_TITLE})", person.name):
        # "新来的领导是赵总，赵建国": the title, then the full name of the same surname
        at = sentence.find(person.name, person.start)
        full = re.match(
            rf"[，,\s]+(?P<full>{person.name[0]}[{_HAN}]{{1,2}})(?![{_HAN}])",
            sentence[at + len(person.name) :] if at >= 0 else "",
        )
        if full is not None and (name := _name(full["full"])) and name not in person.aliases:
            return replace(person, aliases=(*person.aliases, name))
        return person
    # a name of its own: said after a space or a mark, or after 叫 or 是 ("全名叫张丽江")
    full = re.search(
        rf"(?:(?<![{_HAN}])|(?<=[叫是])){_SURNAME}{re.escape(person.name)}(?![{_HAN}])",
        sentence[person.start :],
    )
    if full is None or full.group() in person.aliases or person.name[0] in SURNAMES:
        return person
    return replace(person, aliases=(*person.aliases, full.group()))


def _roles_named(sentence: str) -> list[tuple[Named, tuple[int, int]]]:
    """People named by a role in other ways than "role name", each with the span read:
    a surname and a role ("教练姓何" is 何教练), where they live ("楼下的张阿姨"), a group
    listed ("团队有三个人，小周、阿ken"), something done together ("我跟老周搭档")."""
    out: list[tuple[Named, tuple[int, int]]] = []
    for m in _SURNAMED.finditer(sentence):
        name = m["called"] if m["called"] and m["called"][0] == m["surname"] else None
        if name is None and m["rel"] in TITLES:
            name = m["surname"] + m["rel"]
        if name is not None and not _SOMEONE_ELSES.search(sentence[: m.start()]):
            out.append((Named(name, m["rel"], True, start=m.start()), m.span()))
    for m in _AT_PLACE.finditer(sentence):
        if not _ends_a_name(m["name"], sentence[m.end() :]):
            continue  # "楼下的小卖部": a shop
        if (name := _name(m["name"], sentence[m.end() :])) is not None:
            out.append((Named(name, PLACES[m["place"]], True, start=m.start("name")), m.span()))
    for m in _IN_GROUP.finditer(sentence):
        at = m.start("members")
        for said in re.split(_SEPARATOR, m["members"]):
            at = sentence.index(said, at)
            after = sentence[at + len(said) :]
            if said == "我" or not _ends_a_name(said, after):
                continue
            if (name := _name(said, after)) is not None:
                named = Named(_cased(name), GROUPS[m["group"]], True, start=at)
                out.append((named, (at, at + len(said))))
    for m in _DOING_WITH.finditer(sentence):
        if (name := _name(m["name"], sentence[m.end("name") :])) is not None:
            named = Named(_cased(name), DOING_WITH[m["verb"]], True, start=m.start("name"))
            out.append((named, m.span()))
    out += _titled(sentence)
    for m in _TOOK_POST.finditer(sentence):
        if RELATIONSHIPS.get(m["rel"]) not in _POSTS:
            continue
        if _SOMEONE_ELSES.search(sentence[: m.start()]):
            continue
        if (name := _name(m["name"], sentence[m.end("name") :])) is not None:
            out.append((Named(_cased(name), m["rel"], True, start=m.start("name")), m.span()))
    return out


#: Titles said after a surname or a full name ("马大夫", "张德厚老师"), with who the one
#: so called is to the user (a 姐 or an 阿姨 may be anyone: ``names_in`` reads them).
ROLE_TITLES: dict[str, str] = {
    "老师": "老师",
    "老師": "老師",
    "大夫": "医生",
    "医生": "医生",
    "醫生": "醫生",
    "教练": "教练",
    "教練": "教練",
}


def _titled(sentence: str) -> list[tuple[Named, tuple[int, int]]]:
    """People called by a surname and a title, as jieba reads a name ("马大夫又让我查了",
    "张老师人特别好", "张德厚老师": 张德厚, also 张老师), with what the title says they are.
    A surname alone before a title is a word's end as often ("这周老师没来") and names no
    one.

    >>> [(n.name, n.relationship, n.aliases) for n, _ in _titled("教我们的张德厚老师要走了")]
    [('张德厚', '老师', ('张老师',))]
    >>> [(n.name, n.relationship) for n, _ in _titled("马大夫又让我查了个糖化")]
    [('马大夫', '医生')]
    >>> _titled("这周老师没来")
    []
    """
    out: list[tuple[Named, tuple[int, int]]] = []
    at = 0
    tokens = _tagged(sentence)
    for k, (word, flag) in enumerate(tokens):
        start, at = at, at + len(word)
        if flag != "nr" or len(word) < 2 or word[0] not in SURNAMES:
            continue
        if _SOMEONE_ELSES.search(sentence[:start]):
            continue
        title = next((t for t in ROLE_TITLES if word.endswith(t) and len(word) - len(t) == 1), None)
        if title is not None:
            named = Named(word, ROLE_TITLES[title], True, start=start, about=False)
            out.append((named, (start, at)))
            continue
        after = tokens[k + 1][0] if k + 1 < len(tokens) else ""
        if after in ROLE_TITLES and len(word) in (2, 3) and _name(word) is not None:
            titled = word[0] + after
            named = Named(word, ROLE_TITLES[after], True, (titled,), start=start, about=False)
            out.append((named, (start, at + len(after))))
    return out


def _ends_a_name(said: str, after: str) -> bool:
    """Is a name of 小/阿/老 and one character whole, not the start of a word ("小卖部",
    "老房子")? A verb, a particle or a pause follows a name; a surname with a title
    ("张阿姨") is whole whatever follows."""
    weak = said[:1] in NAME_PREFIXES and len(said) == 2 and not said.isascii()
    return not weak or not after or not re.match(f"[{_HAN}]", after) or after[0] in _AFTER_GIVEN


def _composed(before: str, word: str, found: list[Named]) -> str | None:
    """The user's word for a relative (``word``) of one of their relatives, said just
    ``before`` it: by the user's word for them ("我妈的弟弟": "舅舅"), their name or a
    pronoun ("阿哲的女儿", "他女儿" after "我哥阿哲": "侄女"; 他/她 is the last of the
    user's people named before). The word ``COMPOSED`` gives, in the script said."""
    if (kin := _MY_KIN_OF.search(before)) and (kin["my"] or kin["rel"].startswith("我")):
        first = RELATIONSHIPS.get(KIN_NAMES.get(kin["rel"], kin["rel"]))
    elif other := _SOMEONE_ELSES.search(before):
        holder = other[0].removesuffix("的")
        mine = [n for n in found if n.mine and n.start < len(before)]
        of = mine[-1:] if holder in ("他", "她") else [n for n in mine if n.name == _cased(holder)]
        first = RELATIONSHIPS.get(of[-1].relationship) if of else None
    else:
        return None
    composed = COMPOSED.get((first or "", RELATIONSHIPS.get(word, "")))
    said = before[-8:] + word
    if composed and said != said.translate(_TO_SIMPLIFIED):  # "女兒", "我媽的": traditional
        return composed.translate(_TO_TRADITIONAL)
    return composed


_CHILDREN_AND_SIBLINGS = frozenset("son daughter brother sister".split())
_COUPLE = frozenset("boyfriend girlfriend fiancé fiancée husband wife".split())


def _a_relatives_partner(word: str, found: list[Named]) -> bool:
    """A partner word no "我" owns, said after a child or a sibling in the same sentence,
    is theirs: "儿子打电话来说明年结婚 女朋友叫周晓雯".

    >>> _a_relatives_partner("女朋友", [Named("儿子", "儿子", False)])
    True
    """
    return RELATIONSHIPS.get(word) in _COUPLE and any(
        RELATIONSHIPS.get(n.relationship) in _CHILDREN_AND_SIBLINGS for n in found
    )


def _english_word_named(sentence: str, m: re.Match[str]) -> bool:
    """An English relationship word in Chinese text, a whole word, and a Chinese name
    after it ("roommate琪琪"), or a Latin one with Chinese right around the two ("三年了,
    boss david 成日 last minute call meeting"): no English reader sees the phrase."""
    before = sentence[m.start("rel") - 1 : m.start("rel")]
    name = m["name"] or m["given"] or ""
    if (before.isascii() and before.isalpha()) or not name:
        return False
    if not name.isascii():
        return True
    if re.search(r"(?i)\b(?:my|our|the)\s*$", sentence[: m.start("rel")]):
        return False  # "my boss Kevin又改deadline了": the English readers read "my boss"
    around = sentence[: m.start("rel")].rstrip(" ,，")[-1:] + sentence[m.end() :].lstrip()[:1]
    return bool(re.search(f"[{_HAN}]", around))


def _quoted(sentence: str, at: int) -> bool:
    """Is ``at`` inside a quotation (“...”, 「...」, "...")?"""
    before = sentence[:at]
    return (
        before.count("“") > before.count("”")
        or before.count("「") > before.count("」")
        or before.count('"') % 2 == 1
    )


def _pets_named(sentence: str, before: str, found: list[Named]) -> list[Named]:
    """A name given to a pet spoken of just before, in the sentence or the turn's text
    before it: "我們收養了一隻狗！！從板橋動物之家帶回來的米克斯 叫可樂"."""
    out: list[Named] = []
    for m in _GIVEN_NAME.finditer(sentence):
        context = before[-80:] + sentence[: m.start()]
        kinds = list(_PET_SAID.finditer(context))
        name = _name(m["name"], sentence[m.end() :])
        if not kinds or name is None or any(n.name == name for n in found):
            continue
        gives = m[0].startswith(("取名", "起名"))  # "豆豆给起名叫煤球": 豆豆 named it
        if not gives and any(n.start >= m.start() - 10 and n.start <= m.start() for n in found):
            continue  # the name of someone just named ("我老闆叫Grace")
        kind = kinds[-1]["kind"]
        out.append(Named(name, kind, True, start=m.start()))
    return out


def _name(said: str | None, after: str = "") -> str | None:
    """A name as said (``after`` it, the rest of the sentence), or None for a word that
    is no name ("天天", "老师")."""
    if not said:
        return None
    name = _clean(_cased(said), after)
    if name.lower() in NOT_NAMES or name in COMMON_WORDS or name in RELATIONSHIPS or name in TITLES:
        return None
    if _a_function_word(name):
        return None  # "我家姐知道仲激动过我": her reaction, not her name
    if name[-1] in _PARTICLES and not name.isascii():
        return None  # "老伴高兴得一宿没睡着", "猫生的": what was said of them
    return name


#: Particles that end a phrase, never a name.
_PARTICLES = frozenset("的得地着著了")


#: jieba's tags for words no name is: verbs, adverbs, conjunctions, prepositions,
#: particles, pronouns ("知道", "已经", "而且"); a name its dictionary holds is tagged a
#: name, a place or a noun ("志强", "建国", "豆豆").
_FUNCTION_TAGS = frozenset({"v", "vd", "d", "ad", "c", "p", "u", "r"})


def _a_function_word(word: str) -> bool:
    """Is a Chinese word one jieba's dictionary holds as a verb or a function word?

    A doubled character is a nickname whatever jieba holds it as ("可可" is a verb there).

    >>> _a_function_word("知道"), _a_function_word("建国"), _a_function_word("晓雯")
    (True, False, False)
    >>> _a_function_word("可可")
    False
    """
    if not re.fullmatch(f"[{_HAN}]+", word) or (len(word) == 2 and word[0] == word[1]):
        return False
    return _jieba().posseg.dt.word_tag_tab.get(word) in _FUNCTION_TAGS


def _unnamed(sentence: str, m: re.Match[str], relationship: str, said: str) -> Named:
    """Someone named by a relationship word alone: the user's when "我" says so, or a
    family word opens a clause ("婆婆说..."; a title, "医生说...", is nobody's); called
    what a birth announcement or "叫" says, else by the word ("妈妈"), with the words
    said kept as aliases."""
    family = RELATIONSHIPS.get(KIN_NAMES.get(m["rel"], m["rel"])) in FAMILY  # "阿媽" too
    clause_start = _CLAUSE_START.search(sentence[: m.start()]) is not None
    mine = bool(m["my"]) or said.startswith("我") or (family and clause_start)
    full, nick = _FULL_NAME.search(sentence), _NICKNAME.search(sentence)
    if full or nick:
        names = [x["name"] for x in (full, nick) if x]
        return Named(names[0], relationship, mine, tuple(names[1:]))
    called = _CALLED.match(sentence, m.end())
    if called and (name := _name(called["name"], sentence[called.end() :])):
        mine = mine or not _SOMEONE_ELSES.search(sentence[: m.start()])
        return Named(name, relationship, mine)
    # "我姐" is also "姐", the word the user calls her by after "我"
    bare = m["rel"].removeprefix("我") if m["rel"] in KIN_NAMES else m["rel"]
    aliases = tuple(dict.fromkeys(a for a in (said, m["rel"], bare) if a != relationship))
    return Named(relationship, relationship, mine, aliases)


def _cased(name: str) -> str:
    """A Latin name as a name is written ("cindy" -> "Cindy"); Chinese as is."""
    return name[:1].upper() + name[1:] if name[:1].isascii() else name


def _clean(name: str, after: str = "") -> str:
    """A name without the verb, particle or first half of a word a greedy match took
    along ("王丽说" -> 王丽, "王丽明天" -> 王丽; "杨昆明，" stays)."""
    while len(name) > 2 and (name[-1] in _NAME_END or name[-1] + after[:1] in COMMON_WORDS):
        name, after = name[:-1], name[-1] + after
    return name


#: Occupations a job claim ends in ("小学语文老师", "一名护士"): the word says it is a job.
OCCUPATIONS = """老师 教师 医生 护士 護士 程序员 程式設計師 工程师 工程師 设计师 設計師 会计 會計
律师 律師 厨师 廚師 司机 司機 警察 记者 記者 编辑 編輯 翻译 翻譯 公务员 公務員 研究员 研究員
药剂师 藥劑師 建筑师 建築師 产品经理 產品經理 插画师 插畫師 摄影师 攝影師""".split()
_PLACE = r"(?P<value>[\u4e00-\u9fff]{2,6}?)"
_END = (  # or how long since: "搬到松山一個多月了"
    r"(?=了|啦|喇|啊|呀|市|这边|這邊|那边|那邊|住|，|,|。|！|!|？|\?|\s|$"
    r"|[一两兩二三四五六七八九十几幾半]{1,3}[個个]?多?(?:月|年|星期|禮拜|礼拜|週|周|天))"
)
#: What, said right before a move or a job, makes it a wish or a plan, not a claim
#: ("一直想搬去新竹", "他很希望我搬去新竹", "如果我去腾讯上班").
NOT_YET = """想 要 希望 希望我 打算 计划 計劃 准备 準備 可能 如果 如果我 考虑 考慮 或者 让我 讓我
叫我 可以""".split()
_NOT_YET = "".join(f"(?<!{word})" for word in NOT_YET)
#: Of those, the words that make a claim a supposition wherever in its clause they are
#: ("如果我们明年搬到深圳", "要不我们搬到深圳去"): ``Language.supposing``.
SUPPOSING = (
    *("如果", "要不", "要是", "假如", "万一", "萬一", "打算", "计划", "計劃", "考虑", "考慮"),
    *("谂住", "諗住"),  # Cantonese: thinking of doing ("谂住搬去天河")
)
#: How the names of workplaces end ("京联科技", "招商银行", "华西二院" is not read).
ORGANISATIONS = """科技 公司 集团 集團 银行 銀行 医院 醫院 学校 學校 大学 大學 网络 網絡 智能
传媒 傳媒 资本 資本 证券 證券 保险 保險 研究院 研究所 事务所 事務所 工作室""".split()
#: Words that name where one is but not a home one could move from or to ("在公司这边",
#: "在老家那边", "在群里"): a place value holds none of them.
NOT_PLACES = """公司 單位 单位 医院 醫院 学校 學校 店 群 网上 網上 外面 楼下 樓下 门口 門口 办公室
辦公室 老家 婆家 娘家 家里 家裡 这里 這裡 那里 那裡 这 這 那 哪 的""".split()
_PLACE_CHARS = r"[\u4e00-\u9fff]"
#: A place where one lives, works or studies: no pronoun first, none of ``NOT_PLACES``.
_SOMEWHERE = (
    r"(?![我你他她它咱])(?P<value>(?:(?!" + "|".join(NOT_PLACES) + r")[\u4e00-\u9fff]){2,6}?)"
)
#: What a shop is called ("早午餐店", "餐廳", "工作室"): where it opened is where it is.
_SHOPS = "店|餐厅|餐廳|饭馆|飯館|咖啡厅|咖啡廳|咖啡馆|咖啡館|工作室|诊所|診所|民宿|面馆|麵館"
#: What one does where one lives ("在静安这边做运营", "在浦东这边上班"); a shop opened
#: there is the shop's place, not the home.
_DOING = "做|当|當|上班|工作|读|讀|念|租|买|買|住"
#: Studying somewhere: "读博", "念大學", "上大学".
_STUDYING = (
    "读博|讀博|读研|讀研|读书|讀書|念书|念書|读大学|讀大學|念大学|念大學|上大学|上大學|"
    "读硕士|讀碩士|读博士|讀博士|读研究生|讀研究生|念研究所|唸研究所|读高中|讀高中"
)
#: Claims, as (attribute, pattern): where someone lives and works. A newer one on the
#: same attribute supersedes the older ("我搬到深圳了" after "我住在上海").
CLAIMS: tuple[tuple[str, str], ...] = (
    (
        "location",
        # not a shop's move: "把店搬到永康街"
        rf"{_NOT_YET}(?<!店)(?:搬到了?|搬了?去了?|搬家到|搬回了?|搬了?(?:入|进|進)(?!了?(?:新家|新屋|去|来|來))了?|住在|住到|定居在|定居){_PLACE}{_END}",
    ),
    # the new home, said as what or where it is: "新家是清河美和园5号楼2单元1102"
    (
        "location",
        rf"{_NOT_YET}(?:新家|新屋|新房子?|新住处|新住處)(?:是|在|地址是)"
        r"(?P<value>[\u4e00-\u9fff]{2,8}?)(?=\d|[，,。！!\s]|$|的)",
    ),
    # where one is from, which no move changes: "我就是乐山人", "我老家在乐山"
    ("hometown", rf"(?:我|我们|我們)(?:就|也|本来|本來)?是{_PLACE}人(?![家们們])"),
    ("hometown", rf"(?:我|我的)老家(?:在|是){_PLACE}{_END}"),
    # the keys to a home in a place: "拿到将军澳新屋的钥匙", Cantonese "攞咗將軍澳新屋鎖匙"
    (
        "location",
        r"(?:拿到了?|拿了|攞了|收到了?)(?P<value>[\u4e00-\u9fff]{2,4}?)(?:的)?"
        r"(?:新屋|新家|新房子?|新樓|新楼|房子|公寓)(?:的)?(?:钥匙|鑰匙|鎖匙|锁匙)",
    ),
    # a home rented or bought in a place: "我们在滨江租了个两室一厅", "在郊区买了一套房子"
    (
        "location",
        rf"{_NOT_YET}在(?P<value>[\u4e00-\u9fff]{{2,6}}?)(?:租了|租下了?|买了|買了)"
        r"(?=[^，,。！？!?]{0,6}?(?:房|室|厅|廳|公寓|小区|小區))",
    ),
    # keys got, then where: "钥匙拿到了！！滨江这边 离公司骑车十分钟", Cantonese
    # "今日攞咗锁匙🔑 天河棠下嘅一房一厅"
    (
        "location",
        r"(?:(?:钥匙|鑰匙|锁匙|鎖匙)(?:拿到|到手|攞到)了?|(?:拿到|拿了|攞了|攞到)(?:钥匙|鑰匙|锁匙|鎖匙)了?)"
        r"[！!。，,~\s\u2600-\u27bf\U0001f300-\U0001faff]*"
        r"(?![好很太超真终終])(?P<value>[\u4e00-\u9fff]{2,6}?)(?:这边|這邊|那边|那邊)?"
        r"(?=[\s，,。！!]|$|的?[一两兩二三四](?:房|室))",
    ),
    # a place, then the home one has there: "滨江这边 离公司骑车十分钟 两室一户 跟一个女生合租"
    (
        "location",
        r"(?:^|[\s，,！!。])(?P<value>(?:(?![我你他她在的])[\u4e00-\u9fff]){2,6}?)"
        r"(?:这边|這邊|那边|那邊)"
        r"(?=[^。！？!?]{0,24}?(?:合租|整租|单间|單間|[一两兩二三四]室|[一两兩二三四]房))",
    ),
    # the city one stays in, a move not made: "想了想还是不想离开上海", "决定留在成都"
    (
        "city",
        rf"(?:不想|不愿意|不願意|不打算|舍不得|捨不得|决定|決定|还是|還是)(?:离开|離開|留在|待在)"
        rf"(?![家这這那])(?P<value>[\u4e00-\u9fff]{{2,6}}?){_END}",
    ),
    # a rented home, named down to the estate: "租在南山西丽的留仙苑"
    ("location", rf"(?:租在|租到了?)(?P<value>[\u4e00-\u9fff]{{2,10}}?){_END}"),
    # a home said as a state, where one lives: "我们住一起两年了 在徐汇田林那边"
    (
        "location",
        rf"{_NOT_YET}住[^。！？!?]{{0,10}}?在{_SOMEWHERE}(?:这边|這邊|那边|那邊)",
    ),
    # "住龙华这边房子太小了": where one lives, said with no 在 (not "我妈住龙华那边")
    (
        "location",
        rf"{_NOT_YET}(?<![他她它妈媽爸姐哥弟妹们們])住{_SOMEWHERE}(?:这边|這邊|那边|那邊)",
    ),
    # what one does in a place said as "X这边": "我在静安这边做新媒体运营快三年了"
    (
        "location",
        rf"{_NOT_YET}在{_SOMEWHERE}(?:这边|這邊|那边|那邊)(?:{_DOING})",
    ),
    # where one studies: "在北京读博", "在台中念大學"
    ("location", rf"{_NOT_YET}在{_SOMEWHERE}(?:{_STUDYING})"),
    # a move done, then where: "搬好家啦 愚园路的一个老洋房studio"
    (
        "location",
        r"(?:搬好家|搬完家|搬好了|搬完了|搬新家了?)[了啦啊！!。，,~\s]*"
        rf"(?![好很太超真终終累从從])(?P<value>{_PLACE_CHARS}{{2,6}}?)(?:的|这边|這邊|那边|那邊)",
    ),
    # where the user's shop is, said as opening it there: "在師大路開一間小小的早午餐店"
    (
        "shop",
        rf"{_NOT_YET}在{_SOMEWHERE}(?:开|開)了?(?:一|个|個|间|間|家)?(?:个|個|间|間|家)?"
        rf"[^，,。！？!?\s]{{0,6}}?(?:{_SHOPS})",
    ),
    # a new shop opened, its place first: "永康街新店上週開幕了" (a branch is a second shop,
    # not a move)
    (
        "shop",
        rf"(?:^|[\s，,！!。]){_SOMEWHERE}的?新店[^，,。！？!?\s]{{0,4}}?"
        r"(?:开幕|開幕|开业|開業|开张|開張)",
    ),
    # a shop moved: "我們把店搬到永康街了"
    ("shop", rf"{_NOT_YET}店(?:搬到了?|搬去了?|搬到|搬回了?){_PLACE}{_END}"),
    # an offer taken, said with its start: "我拿到了网易的offer 下个月12号入职",
    # "拿了字节的offer 下周一入职"
    (
        "employer",
        rf"{_NOT_YET}(?:拿到了?|拿了|收到了?|接了|接受了)(?P<value>[\u4e00-\u9fffA-Za-z]{{2,8}}?)的\s*offer"
        r"(?=[^。！？!?]*?(?:入职|入職|上班|报到|報到))",
    ),
    # an offer taken, the company said first: "蓝鲸智能的offer我接了！！"
    (
        "employer",
        r"(?P<value>[\u4e00-\u9fffA-Za-z]{2,8}?)的\s*offer\s*(?:我|我们|我們)?"
        r"(?:接了|接受了|签了|簽了|拿到了|拿下了)",
    ),
    # an offer said first, its company next, and a start: "offer拿到了！小象科技 高级UI设计师
    # 3月9号入职"
    (
        "employer",
        r"offer\s*(?:拿到了|拿到啦|到手了|下来了|接了|来了|来啦|來了)[！!，,。~\s]*"
        r"(?P<value>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:这边|這邊|那边|那邊)?(?=[\s，,])"
        r"(?=[^。！？!?]*?(?:入职|入職|上班|报到|報到))",
    ),
    # the company said first in its own piece, then its start, as chat types it after
    # "offer拿到了！！": "小红书 下周一入职", "木曜設計 3月10號報到" (a space between)
    (
        "employer",
        r"^(?![我你他她])(?P<value>[\u4e00-\u9fffA-Za-z]{2,8}?)\s+(?:下周|下週|下个?月|下個?月|"
        r"明天|后天|後天|\d{1,2}月\d{1,2}[号號日])[一二三四五六日天\d号號]{0,3}\s*(?:正式)?"
        r"(?:入职|入職|报到|報到)",
    ),
    # an offer got, then where: "我拿到 offer 了！是信義區一間外商 做 project coordinator"
    (
        "employer",
        rf"{_NOT_YET}(?:拿到|收到)了?\s*offer\s*了?[！!，,。~\s]*(?:是|在)"
        r"(?P<value>[\u4e00-\u9fffA-Za-z]{2,10}?)(?=\s|，|,|。|做|當|当|上班)",
    ),
    # a workplace described, then named: "在上海一家广告公司做文案 叫蓝鲸广告"
    (
        "employer",
        rf"{_NOT_YET}在[^，,。！？!?\s]{{0,8}}?(?:一家|一间|一間|一所)[^，,。！？!?\s]{{0,8}}?"
        r"(?:公司|医院|醫院|学校|學校|银行|銀行|工作室|餐厅|餐廳|店)"
        r"(?:做|当|當|上班|工作)[^，,。！？!?]{0,8}?(?:叫|名叫)(?P<value>[\u4e00-\u9fffA-Za-z]{2,8}?)"
        r"(?=\s|，|,|。|！|!|$)",
    ),
    # a workplace named by its kind, then what one does there: "我现在在京联科技 做后端五年了"
    (
        "employer",
        rf"{_NOT_YET}在(?!在|还|還|也|都)(?P<value>[\u4e00-\u9fffA-Za-z]{{1,8}}?(?:{'|'.join(ORGANISATIONS)}))"
        r"\s*(?:做|当|當|上班|工作|实习|實習)",
    ),
    # a workplace gone to, described and not named: "下周一去上海一家做咖啡的品牌公司 做品牌策划"
    (
        "employer",
        rf"{_NOT_YET}(?:去|进了?|進了?|加入了?|入职了?|入職了?)(?P<value>[^，,。！？!?\s]{{0,8}}?"
        r"(?:一家|一间|一間|一所)[^，,。！？!?\s]{0,10}?"
        r"(?:公司|医院|醫院|学校|學校|银行|銀行|工作室|餐厅|餐廳|店))\s*(?:做|当|當|上班|工作)",
    ),
    # what someone does for a living: "佳佳是小学语文老师", "我老公是做风控的" is not read
    (
        "job",
        rf"{_NOT_YET}(?<![这那這])是(?:一名|一个|一個|一位|个|個|名)?"
        rf"(?P<value>[\u4e00-\u9fff]{{0,6}}?(?:{'|'.join(OCCUPATIONS)}))"
        r"(?=[，,。！!？?\s]|$)",
    ),
    # joined a while ago, then where: "然后入职一周了 绿源储能 我的leader叫刘姐"
    (
        "employer",
        r"(?:入职|入職)(?:[一二两兩三四五六七八九十半几幾\d]+多?(?:个|個)?多?(?:周|週|天|月|星期|礼拜|禮拜))了?"
        r"\s+(?![好很太超挺真累忙])(?P<value>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=[\s，,。！!]|$)",
    ),
    # a first day said as joining: "我入职云帆数据啦"
    (
        "employer",
        # not a time: "我入职以后的直属领导", "入职一周了", "入职一个多月了"
        r"(?:入职了?|入職了?)(?!的|以后|以後|之后|之後|后|後|以前|之前|前|时|時)"
        # nor how long: "入职第二周了，拓维这边节奏比迈科快多了"
        r"(?!第?[一二两兩三四五六七八九十半几幾\d]+多?(?:个|個)?多?(?:周|週|天|月|年|星期|礼拜|禮拜))"
        r"(?P<value>[\u4e00-\u9fffA-Za-z]{2,8}?)"
        r"(?=啦|了|的|啊|，|,|。|！|!|\s|$)",
    ),
    (
        "employer",
        rf"{_NOT_YET}(?:在|去|进了?|進了?|入职了?|入職了?|跳槽到了?)(?!在|还|還|也|都|公司|单位|單位)(?P<value>[\u4e00-\u9fffA-Za-z]{{2,8}}?)"
        r"(?:上班|工作|任职|任職|实习|實習|报到|報到)",
    ),
    # a job lost: "公司说我们组整个被裁了", "我失业了" (not feared: "担心被裁")
    (
        "employer",
        rf"{_NOT_YET}(?<!担心)(?<!擔心)(?<!怕)(?:被裁了|被裁员了|被裁員了|被辞退了|被辭退了|"
        r"被开除了|被開除了|失业了|失業了|丢了工作|丟了工作)",
    ),
)
#: What a question asks the value of (see ``graphmem.recall.temporal``).
ASKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"哪个城市|哪個城市", ("city", "location")),
    # and as Cantonese asks, in either script: "我搬屋之前住邊度", "我而家住喺边个区"
    (r"住(?:在|喺)?(?:哪|邊|边)|住在什么地方|住在什麼地方|搬(?:到|去|家|走|屋)", ("location",)),
    # where one is from: "我老家哪里的", "我是哪里人"
    (r"老家|(?:哪里|哪裡|哪儿|哪兒|邊度|边度)人", ("hometown",)),
    (
        # "在哪上班", and with what is asked between: "在哪个科室上班", "在哪家医院工作"
        r"(?:在|喺)(?:哪|邊|边)[^，,。？?\s]{0,6}?(?:上班|工作|返工|做嘢)|哪家公司|什么工作|什麼工作"
        r"|做什么工作"
        # whether the user changed jobs: "我是不是跳槽去美团了", "我是不是去 Arizona 工作了"
        r"|跳槽|是不是去[^，,。？?]{0,12}?(?:工作|上班|实习|實習)"
        # "我现在是在上海上班吗": whether it is there
        r"|是在[^，,。？?\s]{1,8}?(?:上班|工作|返工)",
        ("employer", "job"),
    ),
    # where the user's shop is: "我的店現在在哪裡", "店以前開在哪"
    (r"店[^，,。？?]{0,6}?(?:在哪|开在|開在)", ("shop",)),
)
#: Time words, read in English by the temporal reader.
TIME_WORDS: dict[str, str] = {
    "现在": "now",
    "現在": "now",
    "而家": "now",  # Cantonese
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
#: Days and moments said before a claim, in either script and in Cantonese.
MOMENT_WORDS = frozenset(
    """今天 今日 昨天 昨日 琴日 寻日 尋日 前天 前日 上周 上週 上星期 上礼拜 上禮拜 上个礼拜
    上個禮拜 周末 週末 终于 終於 刚刚 剛剛 啱啱 已经 已經 总算 總算 今朝 今晚 昨晚 琴晚""".split()
)
#: Time expressions with numbers, read in English: "2023年" is "in 2023".
TIME_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"(\d{4})\s*年", r" in \1 "),
    # "搬家前住哪", "换工作之前": before a change of the user's
    (
        r"(搬家|搬屋|搬走|搬过来|搬過來|换工作|換工作|跳槽|离职|離職|辞职|辭職|结婚|結婚|分手)(?:之|以)?前",
        r" before \1 ",
    ),
)


#: A claim's slot by meaning (``Language.slot_examples``), as ``en.SLOT_EXAMPLES``.
SLOT_EXAMPLES = {
    "employer": (
        "我入职了一家新公司",
        "下周一去新单位报到",
        "我现在在一家医院当护士",
        "签了合同，去一家互联网公司做产品经理",
        "拿到了银行的offer，下个月上班",
        "调到总部工作了",
        "第一天去新公司上班",
    ),
    "location": (
        "我们拿到新房子的钥匙了",
        "搬进了新家",
        "在浦东租了一个小公寓",
        "我们在郊区买了一套房子",
        "终于搬完家了",
        "新家离地铁站很近",
    ),
    "": (
        "今天上班好累",
        "在考虑要不要搬去北京",
        "老板今天又骂人了",
        "投了几份简历",
        "周末在家打扫卫生",
        "去面试了一家公司",
        "想换工作",
        "回老家看爸妈",
        "最近压力很大",
        "下周再开会",
        "我们吵了一架",
        "想先看看房子",
    ),
}

#: Someone's move away, right after their name: "王姐也要搬家了", "小林搬走了" (not
#: "王姐说我搬家", the user's move, nor "小美下个月要搬走", not yet).
MOVES_AWAY = (
    r"(?![^，,。！!？?]{0,4}?(?:下个月|下個月|下周|下週|下礼拜|下禮拜|明年|年底|过几天|過幾天))"
    r"[^，,。！!？?我你]{0,8}?(?:搬家|搬走|搬去|搬到|搬回)"
)
#: Leaving a job, said after the one who leaves: "离职了", "辞职", "跳槽", an offer taken
#: elsewhere ("也说要走 他拿了美团的offer").
LEAVES_WORK = (
    r"[^，,。！!？?我你]{0,8}?(?:离职|離職|辞职|辭職|跳槽|不干了)"
    r"|[^，,。！!？?我你]{0,12}?(?:拿了|拿到了?)[^，,。！!？?]{0,8}?(?:offer|录用|錄用)"
)


LANGUAGE = Language(
    code="zh",
    name="Chinese",
    slot_examples=SLOT_EXAMPLES,
    script=SCRIPT,
    words=words,
    stop_words=STOP_WORDS,
    extracts=False,
    # and the kin words said with "my" or as a name ("我妹搬去哪了": the sister)
    relationships={
        **RELATIONSHIPS,
        **{word: RELATIONSHIPS[kin] for word, kin in KIN_NAMES.items() if kin in RELATIONSHIPS},
    },
    pets=PETS,
    people_in=people_in,
    names_in=names_said,
    as_read=as_mandarin,
    claims=CLAIMS,
    asks=ASKS,
    answer_kind_words=frozenset({"名字", "叫什么"}),
    # or a he/she a few words in, after when: "今晚食完飯佢送我返將軍澳" (Cantonese 佢)
    leans_back=r"^(?:它|这|這|那|他|她|佢|两者|兩者)|^[^，,。！!？?\s我你]{1,6}?(?:他|她|佢)(?![们們哋])",
    question_words=r"[哪谁誰几幾邊咩]|什么|什麼|多少",
    still_question=r"(?:还|還).*[吗嗎]",
    corrects=r"说错了|說錯了|搞错了|搞錯了|记错了|記錯了|更正一下|纠正一下|糾正一下|不对不对|不對不對|口误|口誤",
    name_question=r"叫什么|叫什麼|叫啥|叫咩|名字",
    thing_question=r"哪(?:本|部|家|款|个|個|首|间|間|里|裡|儿|兒)|去哪|什么(?:书|剧|电影|app|软件|店|歌)|什麼(?:書|劇|電影|app|軟體|店|歌)",
    suggesting=r"推荐|推薦|推介|试试|試試|可以去|可以看|可以听|可以聽|建议|建議",
    naming=r"叫|名字",
    # "你推荐的", "你之前建议我", "你之前给我说" (Sichuan: told me); not "我跟你说" (the
    # user speaking to the assistant)
    asks_the_assistant=(
        r"(?<![跟和对對给給])你(?:之前|上次|以前|当时|當時)?(?:[给給][^，,。？?]{1,6})?"
        r"(?:推荐|推薦|推介|建议|建議|介绍|介紹|提到|教)"
        r"|(?<![跟和对對给給])你(?:之前|上次|以前|当时|當時)(?:[给給跟和对對]我)?(?:说|說|讲|講|告诉|告訴)"
        r"|(?<![跟和对對给給])你(?:说|說)过"
        # Cantonese: "你之前叫我用咩 app", "你講過"
        r"|(?<![跟和对對给給])你(?:之前|上次|以前|当时|當時)叫我|(?<![跟和对對给給])你(?:讲|講|話|话)(?:过|過)"
        # "你说深圳周末可以去哪些地方": what was said, asked with a question word
        r"|(?<![跟和对對给給])你(?:说|說)(?!呢)(?=[^，,。]*?(?:什么|什麼|哪|几|幾|多少|怎么|怎麼))"
    ),
    # a possessor right after "我"/"们" or where a run of characters starts ("我哥的",
    # "阿凱的"), not a time ("我现在的男朋友" is the user's own)
    someone_elses=r"(?:(?<=[我们們])|(?<![^\W\d_]))"
    r"(?!现在|現在|目前|以前|之前|最近|当时|當時|现任|現任|原来|原來)[^\W\d_我们們]{1,4}的",
    who_question=r"谁|誰|邊個|边个|什么人|什麼人|什么关系|什麼關係",
    surname_question=r"姓什么|姓什麼|姓啥|什么姓|什麼姓|改姓",
    surname_given=r"改姓|改了姓|随夫姓|隨夫姓|冠夫姓|跟[\u4e00-\u9fff]{1,3}姓|姓[\u4e00-\u9fff]了",
    number_question=r"多少|几|幾|多大|多久|多长|多長|多远|多遠",
    number=r"[一二三四五六七八九十百千万萬两兩半]",
    time_words=TIME_WORDS,
    moment_words=MOMENT_WORDS,
    time_patterns=TIME_PATTERNS,
    first_person=("我",),
    third_person=("他", "她"),
    supposing=SUPPOSING,
    former_prefixes=FORMER_PREFIXES,
    ended_words=ENDED_WORDS,
    moves_away=MOVES_AWAY,
    moves_to=r"搬到|搬去|搬回|搬家到|定居在",
    # "从板桥搬到松山", "离开了华为"
    # "唔使再喺觀塘同人夾屋住" (Cantonese: no more living in Kwun Tong)
    left_from=r"(?:(?:从|從)(?=[^，,。！!？?\s]{1,8}?(?:搬|到|调|調|跳槽))|(?:离开|離開)了?"
    r"|唔使再(?:住)?喺|不用再(?:住)?在|不再住在)"
    r"(?P<before>[^，,。！!？?\s]{1,8})",
    leaves_work=LEAVES_WORK,
    partner_words=PARTNER_WORDS,
    partner_steps=PARTNER_STEPS,
)
