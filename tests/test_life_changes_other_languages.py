"""Life changes said in German, Portuguese, French, Spanish, Italian and Manglish read
into the slot they change, by rules each language keeps as data (``Grammar.claims`` in
``graphmem.lang.latin``, ``graphmem.lang.ms``): a newer home or employer supersedes the
older one, so "wo wohne ich jetzt" is answered by the new flat and "wo hab ich früher
gewohnt" by the old one. A plan, a supposition or a friend's move claims nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem import Memory
from graphmem.algorithms.conflicts import Claim, claim_of
from ingestion.pipeline import ingest_file
from tests.conftest import write_chat


@pytest.mark.parametrize(
    ("said", "slot", "value"),
    [
        ("wohne seit märz in der südstadt, kleine wg", "location", "südstadt"),
        ("wir sind endlich nach leipzig gezogen!!", "location", "leipzig"),
        ("arbeite jetzt bei der sparkasse als beraterin", "employer", "sparkasse"),
        ("vertrag unterschrieben. ab 1. april bin ich bei zeiss in jena", "employer", "zeiss"),
        ("moro em recife faz dois anos", "location", "recife"),
        ("aceitei a proposta da nuvem labs, começo dia 3", "employer", "nuvem labs"),
        ("me promoveram pra coordenadora!", "job", "coordenadora"),
        ("agora sou vegetariana, nada de carne", "diet", "vegetariana"),
        ("on a emménagé à nantes, deux pièces", "location", "nantes"),
        ("je bosse chez decathlon depuis lundi", "employer", "decathlon"),
        ("me mudé a valencia hace dos semanas", "location", "valencia"),
        ("mi trabajo nuevo: trabajo en mercadona desde enero", "employer", "mercadona"),
        ("mi sono trasferita a torino il mese scorso", "location", "torino"),
        ("ich bin jetzt teamleiterin, 6 leute", "job", "teamleiterin"),
        ("ich wurde zur teamleiterin befördert!", "job", "teamleiterin"),
        ("tô morando em niterói com a minha prima", "location", "niterói"),
        ("mudei pra curitiba em junho", "location", "curitiba"),
        ("i stay kat bangsar south with my sister", "location", "bangsar south"),
        ("dah dapat kerja baru kat maybank, start isnin", "employer", "maybank"),
        ("nein, wir bleiben in hamburg. sarah will nicht weg", "city", "hamburg"),
        ("decidi ficar em curitiba mesmo", "city", "curitiba"),
        ("nos quedamos en sevilla al final", "city", "sevilla"),
        ("finalement on reste à lyon", "city", "lyon"),
        ("abbiamo deciso di restare a torino", "city", "torino"),
        ("mir wurde heute gekündigt, die firma macht zu", "employer", "none"),
        ("fui demitida ontem, tô arrasada", "employer", "none"),
        ("rumah baru kat kajang, 3 bilik", "location", "kajang"),
        ("dapat offer from sunway medical, start 1st march!!", "employer", "sunway medical"),
        ("ayun na, kinuha na namin yung condo!! sa kapitolyo, pasig", "location", "kapitolyo"),
        ("ang layo ng bahay namin sa marikina, 1.5 hrs commute", "location", "marikina"),
        ("positive sa shrimp 😭 allergic na daw ako sa shellfish", "allergy", "shellfish"),
    ],
)
def test_a_change_said_in_another_language_fills_its_slot(said: str, slot: str, value: str):
    claim = claim_of(said)
    assert claim is not None
    assert (claim.subject, claim.attribute, claim.value) == ("me", slot, value)


@pytest.mark.parametrize(
    "said",
    [
        "wenn ich nach hamburg ziehen würde, wäre alles einfacher",
        "mein kumpel timo zieht gerade nach berlin, neuer job bei zalando",
        "se eu conseguir a vaga em floripa, me mudo",
        "meu irmão se mudou pra lisboa semana passada",
        "je pense déménager à bordeaux un jour",
        "si me mudara a madrid estaría más cerca",
        "kalau dapat offer from grab, start next month",
        "dia tinggal kat ipoh with her parents",
        "i stay up late at night doing reports",
        "mudei o cabelo pra ruivo kkk",
        "timo wohnt jetzt in pankow, 3 zimmer, altbau",
        "sie wurde zur teamleiterin befördert",
        "mir wurde die wohnung gekündigt",
        "meine schwester hat ne neue wohnung in köln",
        "bahay ni mama sa marikina, malapit lang",
        "allergic daw si paolo sa shellfish",
        "wenn wir in hamburg bleiben, brauchen wir mehr platz",
        "fico em casa hoje, tô cansada",
        "on reste en contact !",
        "me quedo en casa esta noche",
    ],
)
def test_a_plan_an_if_or_someone_elses_change_claims_nothing(said: str):
    assert claim_of(said) is None


def test_a_change_in_the_first_person_is_mine_whoever_the_message_names():
    """A turn kept whole is one card, named for a friend it speaks of; "tô vegana" is
    the user's all the same, and the rules of a language that read only the first
    person say so. A Chinese rule reads anyone's: "我老婆佳佳是小学语文老师" is hers."""
    said = "tô vegana há um mês. comecei por causa da minha amiga bia, ela me passou uns docs"
    assert claim_of(said, "Bia") == Claim("me", "diet", "vegana")
    assert claim_of("我老婆佳佳是小学语文老师", "佳佳") == Claim("佳佳", "job", "小学语文老师")


def _chat(*sessions: tuple[str, list[str]]) -> list[dict]:
    rows: list[dict] = []
    for date, said in sessions:
        rows.append({"session_id": date, "date": f"{date}T20:00:00Z"})
        for text in said:
            rows.append({"session_id": date, "speaker": "user", "text": text})
    return rows


def top(memory: Memory, user: str, question: str) -> str:
    return memory.recall(user, question, k=1)[0].card.fact.lower()


LENA = _chat(
    ("2025-02-01", ["hallo! ich wohne in leipzig-plagwitz, kleine wg mit zwei mitbewohnern"]),
    ("2025-02-02", ["ich arbeite seit 3 jahren bei der sparkasse, kundenberatung"]),
    ("2025-04-10", ["meine schwester ist gerade nach münchen gezogen, sie vermisst mich schon"]),
    (
        "2025-06-20",
        [
            "zusage bekommen!! ab 1. september bin ich bei zeiss in jena, vertrag ist "
            "unterschrieben",
            "und die wohnung hab ich auch: bin nach jena gezogen, altbau am paradiespark",
        ],
    ),
)


def test_a_german_chat_answers_where_i_live_and_work_now_and_before(
    memory: Memory, user: str, tmp_path: Path
):
    """Lena moves from Leipzig to Jena for a job at Zeiss; her sister's move to Munich is
    not hers."""
    ingest_file(memory, write_chat(tmp_path, LENA), user, progress=False)
    assert "bin nach jena gezogen" in top(memory, user, "wo wohne ich jetzt")
    assert "leipzig-plagwitz" in top(memory, user, "wo hab ich früher gewohnt")
    assert "bei zeiss" in top(memory, user, "bei welcher firma arbeite ich")
    assert "bin nach jena gezogen" in top(memory, user, "bin ich nach münchen gezogen?")


JULIA = _chat(
    ("2025-01-05", ["oi! moro em belo horizonte, no bairro savassi, com duas amigas"]),
    ("2025-01-06", ["e tô vegetariana faz uns dois anos, por causa dos bichos"]),
    ("2025-03-15", ["meu irmão se mudou pra lisboa semana passada, tô com saudade"]),
    ("2025-05-02", ["a gente se mudou pra florianópolis!!! apê pequeno mas dá pra ver o mar"]),
    ("2025-09-20", ["confissão: voltei a comer peixe, agora sou pescetariana"]),
)


def test_a_portuguese_chat_answers_where_i_live_now_and_before_and_my_diet(
    memory: Memory, user: str, tmp_path: Path
):
    """Júlia moves from Belo Horizonte to Florianópolis and eats fish again; her
    brother's move to Lisbon is not hers."""
    ingest_file(memory, write_chat(tmp_path, JULIA), user, progress=False)
    assert "florianópolis" in top(memory, user, "onde eu moro agora")
    assert "belo horizonte" in top(memory, user, "onde eu morava antes")
    assert "pescetariana" in top(memory, user, "eu ainda sou vegetariana?")
    assert "florianópolis" in top(memory, user, "eu me mudei pra lisboa?")


FARAH = _chat(
    ("2025-02-01", ["hi! i stay kat bangsar south with my sister, rumah sewa je"]),
    ("2025-02-02", ["i kerja as nurse at pantai hospital, shift malam banyak sangat"]),
    (
        "2025-05-10",
        ["dapat offer from sunway medical, start 1st june!! dah resign from pantai"],
    ),
    ("2025-07-01", ["we dah pindah ke subang jaya, dekat dengan sunway"]),
)


def test_a_manglish_chat_answers_where_i_work_and_stay_now_and_before(
    memory: Memory, user: str, tmp_path: Path
):
    """Farah leaves Pantai Hospital for Sunway Medical and moves to Subang Jaya."""
    ingest_file(memory, write_chat(tmp_path, FARAH), user, progress=False)
    assert "sunway medical" in top(memory, user, "where do i work now")
    assert "pantai hospital" in top(memory, user, "where was my old job")
    assert "subang jaya" in top(memory, user, "where do i stay now")
    assert "bangsar south" in top(memory, user, "where did i stay before")


def test_a_spanish_van_and_work_number_are_claims_and_asked_as_chat_asks():
    from graphmem.recall.temporal import read_intent

    number = "ya tengo el numero del curro, el 634 218 890, y lo he puesto en la furgo nueva"
    assert claim_of(number) == Claim("me", "phone", "634 218 890")
    van = "al final vendi la berlingo y me pille una transit custom del 2018"
    assert claim_of(van) == Claim("me", "car", "transit custom")
    assert read_intent("cual era mi numero del curro, q no me lo se", 0).asks[0] == "phone"
    assert read_intent("q furgo tengo ahora", 0).asks == ("car",)
