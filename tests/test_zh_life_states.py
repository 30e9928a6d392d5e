"""A Chinese home, study place or shop said as a state ("在徐汇田林那边", "在北京读博",
"在師大路開一間早午餐店") is a claim, so a later move supersedes it and a past question
("我之前住哪") finds it; plans, wishes and places that are not homes claim nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem import Memory
from graphmem.algorithms.conflicts import claim_of
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat


@pytest.mark.parametrize(
    ("said", "slot", "value"),
    [
        (
            "嗯 可能吧 我们住一起两年了 在徐汇田林那边 下班回家就各玩各的手机",
            "location",
            "徐汇田林",
        ),
        ("就是工作的事 我在静安这边做新媒体运营快三年了", "location", "静安"),
        ("hi 我是张浩 在北京读博 清华的 环境工程 五年级了", "location", "北京"),
        ("我在台中念大學 住學校宿舍", "location", "台中"),
        ("update！搬好家啦 愚园路的一个老洋房studio 有个小阳台", "location", "愚园路"),
        ("哈囉 我是林文婷 在師大路開一間小小的早午餐店 叫「日日好」", "shop", "師大路"),
        ("永康街新店上週開幕了！！地址是永康街6巷12號", "shop", "永康街"),
        ("我們把店搬到永康街了", "shop", "永康街"),
    ],
)
def test_a_state_of_life_said_in_chinese_is_a_claim(said: str, slot: str, value: str) -> None:
    found = claim_of(said)
    assert found is not None
    assert (found.attribute, found.value) == (slot, value)


@pytest.mark.parametrize(
    "said",
    [
        "我想在静安这边租个房子",  # a wish
        "打算在北京读研",  # a plan
        "如果我在台中開二店 會不會太貪心",  # a what-if
        "他在北京读博",  # someone else's
        "我在公司这边做项目",  # a workplace, not a place one lives
        "在我妈那边住几天",  # someone's home, not a place
        "搬完家了 好累",  # a move said without where
    ],
)
def test_a_plan_someone_else_or_a_place_that_is_not_a_home_claims_nothing(said: str) -> None:
    found = claim_of(said)
    assert found is None or found.attribute not in ("location", "shop")


def _chat(*sessions: tuple[str, list[str]]) -> list[dict]:
    rows: list[dict] = []
    for date, said in sessions:
        rows.append({"session_id": date, "date": f"{date}T20:00:00+08:00"})
        rows.extend({"session_id": date, "speaker": "user", "text": text} for text in said)
    return rows


def top(memory: Memory, user: str, question: str) -> str:
    return memory.recall(user, question, k=1)[0].card.fact


XIAOYU = _chat(
    ("2025-03-08", ["就是工作的事 我在静安这边做新媒体运营快三年了 老板天天画饼"]),
    ("2025-03-20", ["我哥在成都当牙医 天天说我太焦虑了"]),
    ("2025-05-02", ["钥匙拿到了！！滨江这边 离公司骑车十分钟 两室一户 跟一个女生合租"]),
    ("2025-05-10", ["周末去西湖拍了两卷胶片 颗粒感绝了"]),
)


def test_an_old_home_said_as_a_state_answers_where_i_lived_before(
    memory: Memory, user: str, tmp_path: Path
) -> None:
    """Xiaoyu worked in Jing'an ("在静安这边做运营"), then got keys in Binjiang: the
    Binjiang home is today's, and the Jing'an one answers "before"."""
    ingest_file(memory, write_chat(tmp_path, XIAOYU), user, progress=False)
    assert "滨江这边" in top(memory, user, "我现在住在哪里")
    assert "静安这边" in top(memory, user, "我之前在上海住哪个区")
