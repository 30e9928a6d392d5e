"""Life changes said the way people chat, read into the slot they change: a home got is
where the user lives, a job offer got is their employer; a wish, a plan or an "if"
changes nothing, and someone else's news is theirs."""

from __future__ import annotations

import pytest

from graphmem.algorithms.conflicts import claim_of


@pytest.mark.parametrize(
    ("said", "slot", "value"),
    [
        ("finally got the keys to a 1 bed flat in leith on saturday", "location", "leith"),
        ("we're settled into the new house in Dunedin now", "location", "dunedin"),
        ("i have a tiny studio in ponsonby now lol", "location", "ponsonby"),
        ("got an offer as a junior analyst at kestrel bank!!", "employer", "kestrel bank"),
        ("omg i got the riverside clinic job", "employer", "riverside clinic"),
        ("i accepted the offer from lumen labs, start the 3rd", "employer", "lumen labs"),
        ("moved!! got keys to a 1 bed in springfield yesterday", "location", "springfield"),
        ("starting at a dental office in eugene on the 12th", "employer", "dental office"),
        ("big week lol. i finally quit the warehouse job", "employer", "not warehouse"),
        ("GOT IT. keystone called today and offered me the dispatcher job", "employer", "keystone"),
        ("so harbourline offered me the senior designer role", "employer", "harbourline"),
        (
            "bank offered me branch operations manager, at the wuse 2 branch",
            "job",
            "branch operations manager",
        ),
        ("i got a job!!! at the boba place on colfax called tea rex", "employer", "tea rex"),
        ("i have been a letter carrier here in dayton for 34 years", "job", "letter carrier"),
        ("钥匙拿到了！！滨江这边 离公司骑车十分钟", "location", "滨江"),
        ("offer来了！！！蓝鲸那边 内容主管 我已经签了 4月21号入职", "employer", "蓝鲸"),
        ("然后入职一周了 绿源储能 我的leader叫刘姐", "employer", "绿源储能"),
        # reporting for duty at a new department: a new place of work
        ("报告!!下周一我就正式去心内报到了 急诊的夜班终于拜拜了🎉", "employer", "心内"),
        ("and 3 months no smoking 💪", "smokes", "no"),
        ("oh and i quit being vegetarian lol. lasted like 7 months", "diet", "not vegetarian"),
        ("so my doctor says im prediabetic 😬 at 26", "condition:prediabetic", "yes"),
        ("my a1c came back 5.6!!! not prediabetic anymore", "condition:prediabetic", "no"),
        ("i was diagnosed with gout last week", "condition:gout", "yes"),
        ("personally idk, my PG in koramangala is trash anyway", "location", "koramangala"),
        ("ive been at ridgeline distribution almost 4 yrs", "employer", "ridgeline distribution"),
        ("my lease at hilltop commons is up in march", "location", "hilltop commons"),
        ("yesss just got a job at acme!!", "employer", "acme"),
        ("got the keys to the maple grove townhouse last weekend!!", "location", "maple grove"),
        (
            "tanjong medical centre offered me staff nurse, start aug 5",
            "employer",
            "tanjong medical centre",
        ),
        ("rent is 2.4m a year for our 3 bed in gbagada", "location", "gbagada"),
        ("we rented a 4 bed duplex in gwarinpa, close to 3rd avenue", "location", "gwarinpa"),
        ("i split a 2 bed in the annex with my roommate florence", "location", "annex"),
        ("We've been in this house in Scottsdale 28 years.", "location", "scottsdale"),
        ("our brunswick place is a 1 bed above a shop", "location", "brunswick"),
        ("42 years in the headingley house mind, its a wrench", "location", "headingley"),
        (
            "got the keys on monday, 3 Riverside Close, Otley",
            "location",
            "3 riverside close, otley",
        ),
        ("2 bedroom, one floor, 1140 shady oak ct in kettering", "location", "1140 shady oak ct"),
        ("we closed on a 2 bedroom condo in Sarasota on July 15th", "location", "sarasota"),
        ("good news! signed with the alder in collingwood, sous chef", "employer", "alder"),
        ("first week done. shifted to pune, 2bhk in baner", "location", "pune"),
        (
            "got offered head barman at kavanagh's in stoneybatter and i said yes!!",
            "employer",
            "kavanagh's",
        ),
        ("got offered shift team leader at hallam foods in syston!!", "employer", "hallam foods"),
        ("just in from a mental shift at doyle's, camden st was heaving", "employer", "doyle's"),
        ("absolutely knackered, did a double at pickwell today", "employer", "pickwell"),
        ("movin outta pilsen too, got keys to a 1br in bridgeport sat", "location", "bridgeport"),
        ("攞咗將軍澳新屋鎖匙啦 🔑🏠 上個禮拜搬咗", "location", "將軍澳"),
        ("搬到松山一個多月了 住饒河夜市附近", "location", "松山"),
        (
            "跟你說 我拿到 offer 了！是信義區一間外商 做 project coordinator",
            "employer",
            "信義區一間外商",
        ),
        ("我的 manager 叫 Oliver 很 chill 然後我決定從板橋搬到松山", "location", "松山"),
        # where the user is from, which no move changes
        ("anyway im from nyeri, back home we sleep at 8pm haha", "hometown", "nyeri"),
        ("braai at my boets place in paarl this arvo, thats where i grew up", "hometown", "paarl"),
        ("lisbon cancelled. ill go home to wrocław for christmas instead", "hometown", "wrocław"),
        ("next weekend im going home to puebla to see mi mamá", "hometown", "puebla"),
        ("home in ennis for the weekend", "hometown", "ennis"),
        ("thiago and me grew up together in belo horizonte", "hometown", "belo horizonte"),
        # an emoji ends what was said as a full stop does; the first weeks somewhere
        (
            "offer accept kar liya 🔥 head chef at saffron tiffin, lower parel",
            "employer",
            "saffron tiffin",
        ),
        ("first 2 weeks at lumetra done. my manager sofia is great", "employer", "lumetra"),
        ("week 3 at moth & oak as shift lead 😎 its so busy", "employer", "moth & oak"),
        ("second week at Stripe done", "employer", "stripe"),
        # a car by its model alone, and a swap; allergies and cars said in French, Spanish
        ("picked up a 2017 hilux sr5 from a dealer in thomastown", "car", "2017 hilux sr5"),
        ("also we swap the myvi for alza, stroller cannot fit", "car", "alza"),
        ("i join bolt now, i take camry 2012 on hire purchase", "car", "camry 2012"),
        ("du coup j'ai pris un kangoo d'occase, parfait", "car", "kangoo"),
        ("me compré un vocho usado", "car", "vocho"),
        ("l'allergiste a confirmé: allergie aux noix de cajou", "allergy", "noix de cajou"),
        ("soy alérgica al maní desde niña", "allergy", "maní"),
        ("家里猫豆豆一直在踩我键盘哈哈，住龙华这边房子太小了", "location", "龙华"),
        ("well its confirmed I've got coeliac disease the blood test", "condition:coeliac", "yes"),
    ],
)
def test_a_change_said_indirectly_fills_its_slot(said: str, slot: str, value: str) -> None:
    claim = claim_of(said)
    assert claim is not None
    assert (claim.subject, claim.attribute, claim.value) == ("me", slot, value)


@pytest.mark.parametrize(
    "said",
    [
        "if we got a flat in leith the commute would be easy",
        "we were thinking of moving to napier next year",
        "i'd love to work at kestrel bank someday",
        "maybe we could get a house in the country",
        "we have a place in mind but nothing signed",
        "if acme offered me the job i would take it",
        "my boss offered me a promotion lol",
        "jake offered me a beer after the match",
        "there's a guy in the group called dan, teaches geography",
        "小美下个月要搬走了 她和男朋友在萧山买了房",
        "she moved into assisted living in june",
        "ive been at the gym all day",
        "noted. also nadia just got a job at google toronto, senior ux.",
        "marcus also just got a job at in n out lol so now we both escaped",
        "got the keys to the new house",
        "we're like ships in the night",
        "my sisters place in leeds is huge",
        "my old flat in boston had mice",
        "my parents house in ipoh is so quiet",
        "the restaurant is at 55 king st",
        "we are looking at a 3 bed in preston",
        "we signed with the agency yesterday",
        "i shifted to night shift again",
        "入职一个多月了，还行吧，就是事情好多",  # how long since joining: no employer
        "she did a double at the diner",
        "my shift at work was long",
        "im from work lol, so tired",
        "going home to rest for a bit",
        "got home in time for dinner",
        "stayed home in bed all day",
        "home in june for a week",
        "day 2 at the gym lol",
        "week 12 at home with covid",
        "week 2 at the new job is rough",
        # a membership is no job; a word that is a car model too is no car
        "now I've joined Coeliac UK already the membership card came",
        "bought a polo shirt for the wedding",
        "got the golf clubs out",
        "samedi j'ai fait une réaction allergique dans un resto thaï",
        "入职第二周了，拓维这边节奏比迈科快多了。",  # how long since joining: no employer
        "我妈住龙华那边",
        "小芸月底也要去新竹報到",  # someone else reports for duty
        "下个月就去报到",  # where, not said
        # someone else's diagnosis, said in the user's run-on message
        "I think my friend Jean said her husband Ron has just been diagnosed with diabetes",
    ],
)
def test_a_wish_a_plan_or_an_if_is_no_change(said: str) -> None:
    assert claim_of(said) is None


def test_someone_elses_new_home_is_theirs() -> None:
    claim = claim_of("she got the keys to a flat in leith", "Tova")
    assert claim is not None
    assert (claim.subject, claim.attribute, claim.value) == ("tova", "location", "leith")


def test_a_chinese_home_said_before_the_roommate_is_named_is_the_users() -> None:
    """The turn's part is filed under the roommate it names, yet nothing but the speaker
    stands before the claim: the home is the user's."""
    claim = claim_of("滨江这边 离公司骑车十分钟 两室一户 跟一个女生合租 她叫小美", "小美")
    assert claim is not None
    assert (claim.subject, claim.attribute, claim.value) == ("me", "location", "滨江")
    assert claim_of("我妹妹在深圳那边 两室一厅", "妹妹") is None


def test_a_move_said_before_the_friend_it_names_is_the_users() -> None:
    """Filed under Jordan for naming him, the move has no one but the speaker before it;
    "Jordan shifted to Pune" stays his."""
    said = "Shifted to Pune, 2bhk in baner with a college friend Jordan"
    claim = claim_of(said, "Jordan")
    assert claim is not None
    assert (claim.subject, claim.attribute, claim.value) == ("me", "location", "pune")
    theirs = claim_of("Jordan shifted to Pune last week", "Jordan")
    assert theirs is not None
    assert theirs.subject == "jordan"


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("i told the vancouver recruiter no thanks, staying in toronto", "toronto"),
        ("we talked it over and decided to stay in leeds", "leeds"),
        ("we got the keys to the condo on shady oak ct in kettering", "kettering"),
        ("also i applied for a townhouse on maple grove rd in hilliard, 2 bed, 1350", "hilliard"),
        ("hydrabad wala khatam. hum bangalore mein hi rahenge", "bangalore"),
        ("新加坡那个我拒了 想了想还是不想离开上海 朋友都在这", "上海"),
    ],
)
def test_a_stay_or_an_address_names_the_city_beside_the_home(said: str, value: str) -> None:
    """The city one lives in is a slot of its own ("city"): a newer home in one of its
    neighbourhoods ("moved into our place in leslieville") supersedes no city."""
    claim = claim_of(said)
    assert claim is not None
    assert (claim.subject, claim.attribute, claim.value) == ("me", "city", value)


@pytest.mark.parametrize(
    "said",
    [
        "we're staying in a hotel in lisbon for the weekend",
        "i stayed in bed all day",
        "if we stay in toronto we need a bigger place",
        "my sister has a flat on king st in leeds",
        "the office is on main st in columbus",
        "agar hum pune mein hi rahenge to?",
        "we stayed in lisbon for a week, so nice",
    ],
)
def test_a_stay_elsewhere_or_not_decided_names_no_city(said: str) -> None:
    claim = claim_of(said)
    assert claim is None or claim.attribute != "city"
