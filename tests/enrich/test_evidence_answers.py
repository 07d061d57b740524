"""Issue 16: snippets are evidence, spam and homonyms are not cited, answers answer the question."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.enrich.agents import Agents
from photosearch.enrich.answering import LocalKnowledge, answers, intent, repeats
from photosearch.enrich.chain import ChainOfSearch, SourceBook
from photosearch.enrich.evidence import clean_page, names_subject, on_topic, spam_page, spam_sentence
from photosearch.enrich.formulation import VlmDescriber
from photosearch.enrich.generation import generate
from photosearch.enrich.stats import Meter, MeteredLLM
from photosearch.enrich.textutil import HashingEmbedder
from photosearch.enrich.types import Budget, Page, Region, SearchHit
from tests.fakes import ScriptedVlm


# ---- spam and off-topic ----------------------------------------------------------------------
def test_spam_sentences_and_pages():
    assert spam_sentence("Voltra Orbeline Quillby Tessaract Marrowfen cheap.")
    assert spam_sentence("Voltaro X9 heavy Voltaro X9 weight Voltaro X9 kg Voltaro X9 cheap Voltaro X9 deal.")
    assert not spam_sentence("The Voltaro X9 is a folding e-bike made by Voltaro Mobility in Rotterdam.")
    assert not spam_sentence("At 1,899 euros the Voltaro X9 is not cheap.")
    names = " ".join(
        f"Marlowe {c}"
        for c in [
            "Lisbon",
            "Madrid",
            "Paris",
            "Berlin",
            "Rome",
            "Vienna",
            "Oslo",
            "Athens",
            "Dublin",
            "Prague",
            "Warsaw",
            "Riga",
            "Sofia",
            "Zagreb",
        ]
    )
    assert spam_page(names)  # a page that only lists names
    assert not spam_page("The Marlowe 300 is an electric kettle made in Porto. It holds 1.7 litres of water.")
    page = Page(
        "u",
        "t",
        "The Voltaro X9 weighs 19 kg. Voltra Orbeline Quillby Tessaract Marrowfen cheap.\n"
        "It folds for trains.",
    )
    cleaned = clean_page(page)
    assert "Orbeline" not in cleaned.text and "19 kg" in cleaned.text and "folds" in cleaned.text


SPEC_SHEET = """Voltaro X9 specifications
Weight 19 kg
Battery Capacity 504 Wh
Range 80 km
Motor 250 W
Wheels 20 in
Frame Aluminium
Gears Shimano Nexus 7
Brakes Tektro hydraulic disc
Charging time 5 h
Maximum load 120 kg
Folded size 80 x 40 x 65 cm
Price 1,899 euros"""


def test_a_spec_sheet_is_not_a_spam_page():
    assert not spam_page(SPEC_SHEET)
    cleaned = clean_page(Page("u", "Voltaro X9 specifications", SPEC_SHEET))
    assert "Weight 19 kg" in cleaned.text and "Battery Capacity 504 Wh" in cleaned.text


@pytest.mark.parametrize(
    "sentence",
    [
        "Halvorsen Optics Unveils Kestrel K7 Mirrorless Camera",
        "Voltaro X9 Review: The Folding E-Bike That Fits In Any Train",
        "A, NASA Astronaut, Kennedy Space Center.",
        "Eileen Collins, NASA Astronaut, Kennedy Space Center.",
        "The Zyphra Q2 costs 499 euros, buy now at the official store!",
        "Zyphra Q2 499 euros buy now at the official store.",
    ],
)
def test_headlines_captions_and_prices_are_not_spam_sentences(sentence):
    assert not spam_sentence(sentence)
    page = clean_page(Page("u", "t", f"{sentence}\nThe Zyphra Q2 is a camera drone."))
    assert page is not None and sentence in page.text


def test_shop_boilerplate_without_a_quantity_is_still_spam():
    assert spam_sentence("Buy now at the official store, best price guaranteed.")
    assert spam_sentence("Kestrel Quillby Orbeline Tessaract Marrowfen Voltra cheap.")


def test_a_page_must_name_the_subject():
    assert names_subject("The Voltaro X9 review", "VOLTARO X9")
    assert not names_subject("The Zenfone X9 is a phone", "VOLTARO X9")


def test_homonym_pages_are_off_topic_with_the_real_embedder(embedder):
    docs = [
        "The Kestrel K7 is a mirrorless camera made by Halvorsen Optics with a 24 megapixel sensor.",
        "The Kestrel K7 is a racing sailboat made by Mariner Yachts in Cowes; the keel yacht sleeps four.",
        "Halvorsen Optics unveiled the Kestrel K7 camera in March 2024.",
    ]
    assert on_topic(docs, "KESTREL K7", "camera device", embedder) == [True, False, True]
    assert on_topic(docs, "KESTREL K7", "", embedder) == [True, True, True]  # nothing seen: keep all


# ---- snippets are evidence -------------------------------------------------------------------
class ForbiddenWeb:
    """Search results hold the facts; every page fetch fails (403, paywall, script-only)."""

    name = "forbidden"

    def __init__(self):
        self.fetches = 0

    def search(self, query, limit=8):
        return [
            SearchHit(
                "https://a.example/x9",
                "Voltaro X9 - Voltaro Mobility",
                "The Voltaro X9 is an e-bike made by Voltaro Mobility. The Voltaro X9 weighs 19 kg ...",
            ),
            SearchHit(
                "https://b.example/spam",
                "VOLTARO X9 cheap",
                "Voltaro X9 cheap Voltaro X9 deal Voltaro X9 kg Voltaro X9 buy now Voltaro X9 heavy.",
            ),
        ]

    def fetch_page(self, url):
        self.fetches += 1
        raise RuntimeError("HTTP 403")


def _region() -> Region:
    r = Region(index=0, box=[0, 0, 1, 1], words=["VOLTARO", "X9"], labels=["bicycle"])
    r.description = r.formulation = 'a bicycle; the printed words "VOLTARO X9"'
    return r


def test_unfetchable_pages_degrade_to_their_snippets():
    web, meter, book = ForbiddenWeb(), Meter(), SourceBook()
    res = ChainOfSearch(web, Agents(None, HashingEmbedder()), budget=Budget(max_rounds=2), meter=meter).run(
        _region(), "how heavy is this?", book
    )
    assert "19 kg" in res.final_knowledge
    assert book.items and all(s["kind"] == "snippet" for s in book.items)
    assert not any("spam" in s["url"] for s in book.items)  # the stuffed result is never numbered
    assert meter.snippets >= 1 and meter.fetch_failures >= 1 and meter.filtered >= 1
    assert web.fetches == len(
        {s["url"] for n in res.nodes for s in n.selected if "error" in s}
    )  # once per URL
    answer = generate("how heavy is this?", [res.region], [res], book)
    assert "19 kg" in answer.text and answer.citations == [1]


class StubWeb(ForbiddenWeb):
    """Every page is read (200) but teaches nothing: a paywall, a script-only or access-denied page."""

    def __init__(self, title: str, body: str):
        super().__init__()
        self.title, self.body = title, body

    def fetch_page(self, url):
        self.fetches += 1
        return Page(url, self.title, self.body, bytes=len(self.body))


@pytest.mark.parametrize(
    "title,body",
    [
        ("Voltaro X9 - Voltaro Mobility", "Subscribe to continue reading. Already a subscriber? Log in."),
        ("Loading...", "Please enable JavaScript to view this site."),
        ("Attention Required", "Access denied. You do not have permission to access this page."),
        ("Voltaro Mobility", "Our story began in Rotterdam in 2015. We love bicycles and trains."),
    ],
)
def test_a_useless_page_is_replaced_by_its_snippet(title, body):
    book = SourceBook()
    res = ChainOfSearch(
        StubWeb(title, body), Agents(None, HashingEmbedder()), budget=Budget(max_rounds=1)
    ).run(_region(), "how heavy is this?", book)
    assert book.items and book.items[0]["kind"] == "snippet"
    assert any(s.get("error") and s.get("source") == 1 for n in res.nodes for s in n.selected)
    answer = generate("how heavy is this?", [res.region], [res], book)
    assert "19 kg" in answer.text and answer.citations == [1]


def test_a_title_only_hit_is_evidence():
    class TitleWeb(ForbiddenWeb):
        def search(self, query, limit=8):
            return [SearchHit("https://a.example/x9", "Voltaro X9 folding e-bike, 19 kg", "")]

    book = SourceBook()
    res = ChainOfSearch(TitleWeb(), Agents(None, HashingEmbedder()), budget=Budget(max_rounds=1)).run(
        _region(), "how heavy is this?", book
    )
    answer = generate("how heavy is this?", [res.region], [res], book)
    assert "19 kg" in answer.text and answer.citations == [1] and book.items[0]["kind"] == "snippet"


def test_a_readable_page_is_kept_as_a_page():
    web = StubWeb("Voltaro X9 review", "The Voltaro X9 weighs 19 kg. Subscribe to our newsletter.")
    book = SourceBook()
    ChainOfSearch(web, Agents(None, HashingEmbedder()), budget=Budget(max_rounds=1)).run(
        _region(), "how heavy is this?", book
    )
    assert book.items[0]["kind"] == "page"


# ---- answers answer --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "question,kind",
    [
        ("who is this?", "person"),
        ("who makes this?", "maker"),
        ("where is this made?", "place"),
        ("how much does this cost?", "money"),
        ("how heavy is it?", "weight"),
        ("what is this?", "definition"),
        ("when was it launched?", "date"),
        ("what is its range?", "length"),
    ],
)
def test_question_intents(question, kind):
    assert intent(question).kind == kind


def test_answer_checks():
    assert answers("It weighs 19 kg with its battery.", intent("how heavy is it?"))
    assert not answers("It is heavy.", intent("how heavy is it?"))
    assert answers("It is made by Halvorsen Optics.", intent("who makes it?"), "KESTREL K7")
    assert not answers("Kestrel K7 makes Kestrel K7.", intent("who makes it?"), "KESTREL K7")
    assert answers("It sells for 499 euros.", intent("how much does it cost?"))
    assert answers("It is made in Porto by Marlowe Casa.", intent("where is it made?"), "MARLOWE 300")
    assert repeats("a person mostly black a person mostly black")
    assert not repeats("The Voltaro X9 weighs 19 kg.")


def test_who_is_this_names_the_person_from_the_catalog():
    r = Region(
        index=0,
        box=[0, 0, 1, 1],
        label="person",
        labels=["person", "astronaut", "flag", "space suit"],
        people=["Eileen Collins"],
        colors=["black", "pink"],
    )
    r.description = r.formulation = "a person (a kind of astronaut, flag, space suit); with Eileen Collins"
    a = generate("who is this?", [r], [], SourceBook(), local=LocalKnowledge(people=["Eileen Collins"]))
    assert a.text == "This is Eileen Collins." and a.method == "local"


def test_without_web_knowledge_the_answer_is_plain_not_template_soup():
    rs = [
        Region(index=0, box=[0, 0, 1, 1], labels=["person", "astronaut"], colors=["black", "pink"]),
        Region(index=1, box=[0, 0, 0.3, 0.3], labels=["flag"]),
    ]
    for r in rs:
        r.description = r.formulation = (
            "a person (a kind of astronaut); mostly black and pink In the same photo: a flag"
        )
    a = generate("what is this?", rs, [], SourceBook())
    assert a.text == "The photo shows a person and a flag. No web knowledge was found."
    assert not repeats(a.text)


def _astronaut() -> Region:
    r = Region(
        index=0, box=[0, 0, 1, 1], label="person", labels=["person", "astronaut"], people=["Eileen Collins"]
    )
    r.description = r.formulation = "a person (a kind of astronaut); with Eileen Collins"
    return r


def test_a_vlm_does_not_answer_what_the_catalog_knows():
    vlm = ScriptedVlm("a person mostly black a person mostly black and pink [7]")
    a = generate(
        "who is this?",
        [_astronaut()],
        [],
        SourceBook(),
        describer=VlmDescriber(vlm),
        image=np.zeros((8, 8, 3), np.uint8),
        local=LocalKnowledge(people=["Eileen Collins"]),
    )
    assert a.text == "This is Eileen Collins." and a.method == "local"
    assert vlm.calls == []  # local knowledge answers first: the VLM is not asked


def test_a_vlm_answer_in_fragments_falls_back_to_the_extract():
    web, book = ForbiddenWeb(), SourceBook()
    res = ChainOfSearch(web, Agents(None, HashingEmbedder())).run(_region(), "how heavy is this?", book)
    image = np.zeros((8, 8, 3), np.uint8)
    for reply in (
        "a bicycle mostly black a bicycle mostly black and grey [1]",  # repeated fragments
        "The Voltaro X9 weighs 19 kg [7].",  # cites a source that does not exist
        "The Voltaro X9 is a lovely bicycle parked near a wall [1].",  # not the kind asked (weight)
        "It weighs about 40 kg according to the manufacturer Trekko.",  # not grounded in the knowledge
    ):
        vlm = ScriptedVlm(reply)
        a = generate(
            "how heavy is this?", [res.region], [res], book, describer=VlmDescriber(vlm), image=image
        )
        assert vlm.calls, reply
        assert a.method == "extractive" and "19 kg" in a.text, reply
    good = ScriptedVlm("The Voltaro X9 weighs 19 kg [1].")
    a = generate("how heavy is this?", [res.region], [res], book, describer=VlmDescriber(good), image=image)
    assert a.method == "vlm" and a.text == "The Voltaro X9 weighs 19 kg [1]." and a.citations == [1]


@pytest.mark.parametrize(
    "question,missing",
    [
        ("how much does this cost?", "its price"),
        ("where is this made?", "a place"),
        ("when was it launched?", "a date"),
    ],
)
def test_when_no_sentence_answers_the_answer_says_so(question, missing):
    web, book = ForbiddenWeb(), SourceBook()
    res = ChainOfSearch(web, Agents(None, HashingEmbedder()), budget=Budget(max_rounds=1)).run(
        _region(), question, book
    )
    a = generate(question, [res.region], [res], book)
    assert a.text.startswith(f"The pages found do not give {missing}. The Voltaro X9"), a.text
    assert a.citations == [1]
    heavy = generate("how heavy is this?", [res.region], [res], book)
    assert "do not give" not in heavy.text and "19 kg" in heavy.text


class SoupLLM:
    """An LLM that answers with fragments (as the base model does): must be rejected."""

    name = "soup"

    def complete_text(self, prompt, max_tokens=48, *, stop=None):
        return "Question: how heavy is this? Question: how heavy is this? Question: how heavy"

    def complete_json(self, *a, **k):
        return None


def test_llm_answers_are_validated_like_the_extract():
    web, book = ForbiddenWeb(), SourceBook()
    res = ChainOfSearch(web, Agents(None, HashingEmbedder())).run(_region(), "how heavy is this?", book)
    meter = Meter()
    a = generate("how heavy is this?", [res.region], [res], book, llm=MeteredLLM(SoupLLM(), meter))
    assert a.method == "extractive" and "19 kg" in a.text
    assert meter.llm_roles["answer"] == {"calls": 1, "accepted": 0}


def test_llm_call_budget_keeps_the_final_answer_call():
    meter = Meter()
    llm = MeteredLLM(SoupLLM(), meter, max_calls=1)
    llm.complete_json([], {}, role="plan")
    llm.complete_json([], {}, role="select")  # over budget: not made
    assert llm.complete_text("x", role="answer")  # the answer call is reserved
    assert meter.llm_calls == 2 and meter.llm_skipped == 1


@pytest.mark.slow
def test_bundled_llm_answer_is_accepted_only_when_it_passes_the_checks(real_llm):
    web, book = ForbiddenWeb(), SourceBook()
    res = ChainOfSearch(web, Agents(None, HashingEmbedder())).run(_region(), "how heavy is this?", book)
    meter = Meter()
    a = generate("how heavy is this?", [res.region], [res], book, llm=MeteredLLM(real_llm, meter))
    assert meter.llm_roles["answer"]["calls"] == 1  # the real model was asked
    assert "19 kg" in a.text  # accepted or not, the answer holds the fact
    if a.method == "llm":
        assert meter.llm_roles["answer"]["accepted"] == 1 and not repeats(a.text)
    print("bundled LLM answer:", a.method, a.text)


def test_local_knowledge_is_stated_once():
    from photosearch.enrich.chain import ChainResult

    r = Region(index=0, box=[0, 0, 1, 1], words=["ORBELIN"])
    book = SourceBook()
    book.number(Page("https://games.example/orbelin", "Orbelin", "x"))
    res = ChainResult(
        region=r,
        subject="ORBELIN",
        knowledge=["Orbelin is a cooperative board game for two to five players. [1]"],
    )
    same = LocalKnowledge(entities=[{"entity": "Orbelin", "category": "cooperative board game"}])
    a = generate("what is this?", [r], [res], book, local=same)
    assert a.text == "Orbelin is a cooperative board game for two to five players. [1]"
    more = LocalKnowledge(people=["Ann Lee"], entities=[{"entity": "Orbelin", "category": "game"}])
    a = generate("what is this?", [r], [res], book, local=more)
    assert a.text.startswith("The photo shows Ann Lee. Orbelin is a cooperative board game") and not repeats(
        a.text
    )


def test_a_homonym_is_dropped_whatever_order_it_comes_in(embedder):
    from photosearch.enrich.evidence import TopicGuard

    guard = TopicGuard("ZYPHRA Q2", "airplane", embedder)
    chem = (
        "Zyphra Q2 (compound). Zyphra Q2 is a quinoline compound used to dye wool; a gram costs 12 dollars."
    )
    assert guard.keep([chem]) == [True]  # nothing to compare with yet
    assert guard.keep(["The Zyphra Q2 is a camera drone that flies for 31 minutes."]) == [True]
    assert guard.off_topic(guard.similarity(chem))  # now it is recognised (the chain prunes what it said)
    assert guard.keep(["Zyphra Robotics sells the Zyphra Q2 for 499 euros."]) == [
        True
    ]  # defines nothing: kept


class HomonymFirstWeb:
    name = "homonym-first"

    def search(self, query, limit=8):
        return [
            SearchHit(
                "https://music.example/x9",
                "Voltaro X9 (album)",
                "Voltaro X9 is the ninth album by the synth band Voltaro. The vinyl of Voltaro X9 weighs 180 g.",
            ),
            SearchHit(
                "https://voltaro.example/x9",
                "Voltaro X9",
                "The Voltaro X9 is a folding e-bike made by Voltaro Mobility. The Voltaro X9 weighs 19 kg.",
            ),
        ]

    def fetch_page(self, url):
        raise RuntimeError("HTTP 403")


def test_what_a_homonym_said_is_pruned_once_the_right_page_comes(embedder):
    book = SourceBook()
    res = ChainOfSearch(HomonymFirstWeb(), Agents(None, embedder), budget=Budget(max_rounds=1)).run(
        _region(), "how heavy is this?", book
    )
    assert "19 kg" in res.final_knowledge and "album" not in " ".join(res.knowledge)
    answer = generate("how heavy is this?", [res.region], [res], book, embedder=embedder)
    assert "19 kg" in answer.text and "180 g" not in answer.text


@pytest.mark.slow
def test_bundled_llm_names_the_category_by_completion(real_llm):
    from photosearch.enrich.knowledge import llm_category

    meter = Meter()
    llm = MeteredLLM(real_llm, meter)
    text = (
        "The Zyphra Q2 is a camera drone made by Zyphra Robotics. [1] The Zyphra Q2 flies for 31 minutes. [1]"
    )
    cat = llm_category(llm, "Zyphra Q2", text)
    assert meter.llm_roles["learn"]["calls"] == 1
    assert cat is None or (cat in text.lower() and "zyphra" not in cat)  # accepted only when the text says it
    assert llm_category(MeteredLLM(SoupLLM(), Meter()), "Zyphra Q2", text) is None  # soup is refused
    print("bundled LLM category:", cat)


def test_made_up_names_and_numbers_are_caught():
    from photosearch.enrich.answering import unsupported_names

    src = "The Marlowe 300 is an electric kettle made in Porto by Marlowe Casa. It holds 1.7 litres."
    assert unsupported_names("Marlowe is made in Porto, Portugal.", src) == ["Portugal"]
    assert unsupported_names("The Marlowe 300 holds 2 litres.", src) == ["2"]
    assert unsupported_names("The Marlowe 300 is made in Porto by Marlowe Casa. [1]", src) == []


class FailingSearch:
    """A search backend that never answers: what a redirect to a refused address, a gzip bomb or an
    over-long answer looks like to the chain (the fetcher raises; the backend passes it on)."""

    name = "failing"

    def __init__(self, reason: str):
        self.reason = reason

    def search(self, query, k):
        raise RuntimeError(self.reason)


def test_when_every_search_fails_the_answer_and_the_stats_say_why():
    """Issue 26: `ask` said only "No web knowledge was found" when the search backend failed."""
    reason = "http://127.0.0.1:9/search: redirected to 169.254.169.254, a cloud metadata address; refused"
    meter, book = Meter(), SourceBook()
    res = ChainOfSearch(
        FailingSearch(reason), Agents(None, HashingEmbedder()), budget=Budget(max_rounds=1), meter=meter
    ).run(_region(), "how heavy is this?", book)
    assert res.errors and meter.search_failures >= 1
    assert meter.failure_reasons == [f"search failed: {reason}"]
    answer = generate("how heavy is this?", [res.region], [res], book)
    assert answer.text.endswith(f"No web knowledge was found: search failed: {reason}.")
    assert meter.to_json()["failure_reasons"] == meter.failure_reasons


def test_a_metadata_address_is_never_blamed_on_a_setting():
    from photosearch.enrich.fetch import Fetcher, FetchRefused

    fetcher = Fetcher(allow_private=True)
    with pytest.raises(FetchRefused) as refused:
        fetcher.check_url("http://169.254.169.254/latest/meta-data/")  # an IP: nothing is resolved
    assert "metadata" in str(refused.value) and "allow_private_addresses" not in str(refused.value)
    with pytest.raises(FetchRefused) as private:
        Fetcher(allow_private=False).check_url("http://10.1.2.3/")
    assert "allow_private_addresses" in str(private.value)
