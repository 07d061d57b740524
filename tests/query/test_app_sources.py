"""Photos an app saved, as requests: "photos from whatsapp" (WhatsApp's file names, or a WhatsApp
folder), "sent on telegram", "instagram pictures" (the app's folder), "downloaded images" (a Downloads
folder). Before, each was a concept ("whatsapp") no model sees, and "downloaded images" every photo."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.catalog.models import Folder
from photosearch.query.claims.cues import received_photos
from photosearch.query.parser import parse_request
from photosearch.query.plan import WHATSAPP_NAMES
from photosearch.query.search import search
from photosearch.query.unmet import node_words

from .gallery import add_photo, sure_names

NOW = date(2024, 5, 15)
WHATSAPP = {"or": [{"file": WHATSAPP_NAMES}, {"folder": "WhatsApp"}]}


@pytest.mark.parametrize(
    "request_text,where",
    [
        ("photos from whatsapp", WHATSAPP),
        ("whatsapp pictures", WHATSAPP),
        ("pictures sent on telegram", {"folder": "Telegram"}),
        ("photos from wechat", {"or": [{"folder": "WeChat"}, {"folder": "WeiXin"}]}),
        ("downloaded images", {"folder": "Download"}),
        ("memes i downloaded", {"and": [{"concept": "meme"}, {"folder": "Download"}]}),
        # the app seen in the photo, not where the photo came from
        ("screenshot of a whatsapp chat", {"and": [{"kind": "screenshot"}, {"concept": "whatsapp chat"}]}),
        ("the facebook logo", {"concept": "facebook logo"}),
        ("traffic signal", {"concept": "traffic signal"}),
        # photos others sent: where any messaging app saves them, or downloads (no face, no "other")
        ("photos other people sent me", received_photos()),
        ("photos shared with me", received_photos()),
        ("received photos", received_photos()),
        ("beach photos friends shared with me", {"and": [{"concept": "beach"}, received_photos()]}),
    ],
)
def test_which_words_say_an_app_saved_the_photo(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where


def _folders(store, tree: dict[str, list[str]]) -> None:
    """A photo of each name in each folder of the tree."""
    with store.session() as s:
        for path, names in tree.items():
            folder = Folder(path=path)
            s.add(folder)
            s.flush()
            for name in names:
                add_photo(s, folder, name)
        s.commit()


def test_whatsapps_photos_are_found_by_their_names_or_folder_and_said_in_words(store, settings):
    _folders(
        store,
        {
            "/phone/DCIM/Camera": ["IMG_20230101_101010.jpg"],
            "/phone/WhatsApp/Media/WhatsApp Images": ["IMG-20230102-WA0003.jpg"],
            "/backup/2023": ["IMG-20230105-WA0012.jpg", "IMG-20230105.jpg"],
        },
    )
    assert sure_names(search(store, settings, "photos from whatsapp", signals=[])) == [
        "IMG-20230102-WA0003.jpg",
        "IMG-20230105-WA0012.jpg",
    ]
    assert node_words(WHATSAPP) == "named as WhatsApp names photos or in a folder named WhatsApp"


def test_photos_others_sent_are_where_apps_save_them_said_in_one_line(store, settings):
    _folders(
        store,
        {
            "/phone/DCIM/Camera": ["IMG_20230101_101010.jpg"],
            "/phone/Pictures/Telegram": ["photo_2023-01-02.jpg"],
            "/home/me/Downloads": ["flyer.png"],
            "/backup": ["IMG-20230105-WA0012.jpg"],
        },
    )
    res = search(store, settings, "photos people sent me", signals=[])
    assert sure_names(res) == ["IMG-20230105-WA0012.jpg", "flyer.png", "photo_2023-01-02.jpg"]
    assert any("messaging apps saved" in n for n in res["planner"]["notes"])
    assert node_words({"or": [{"folder": "Telegram"}, {"folder": "Signal"}, {"folder": "Download"}]}) == (
        "in a folder named Telegram, Signal or Download"
    )


def test_an_or_is_unmet_only_when_none_of_its_choices_is_met_and_is_said_once(store, settings):
    """ "photos from whatsapp" in a library without any: one sentence for both choices; "chinese new
    year" with photos of one year's: no sentence for the years without any (it listed each)."""
    from datetime import datetime

    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        add_photo(s, folder, "new_year.jpg", taken=datetime(2023, 1, 22, 20))
        s.commit()
    res = search(store, settings, "photos from whatsapp", signals=[])
    assert res["explain"]["unmet"] == [
        "no photo named as WhatsApp names photos or in a folder named WhatsApp"
    ]
    assert any("where WhatsApp saves photos" in n for n in res["planner"]["notes"])
    res = search(store, settings, "chinese new year", signals=[], now=date(2024, 5, 15))
    assert sure_names(res) == ["new_year.jpg"] and not res["explain"].get("unmet")
