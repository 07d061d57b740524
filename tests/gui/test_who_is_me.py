"""Saying who "me" is: the People view's "This is me", and the status line telling how a request was
read when nobody is."""

from __future__ import annotations

from pathlib import Path

from photosearch.gui.grid import SEPARATOR_ID
from photosearch.gui.people_view import NOT_ME, THIS_IS_ME


def _search(qtbot, window, text: str) -> list[str]:
    """The confident results' names (those before the closest matches' separator)."""
    task = window.run_search(text)
    qtbot.waitUntil(lambda: task.done, timeout=20000)
    qtbot.wait(20)
    ids = window.model.ids
    sure = ids.index(SEPARATOR_ID) if SEPARATOR_ID in ids else len(ids)
    return [Path(p).stem for p in window.model.paths[:sure]]


def _name_the_face(core, name: str) -> int:
    from photosearch.catalog.models import Face, Person

    with core.store.session() as s:
        person = Person(name=name)
        s.add(person)
        s.flush()
        for face in s.query(Face).all():
            face.person_id = person.id
        return person.id


def test_photos_of_me_says_how_it_was_read_until_you_say_who_you_are(qtbot, make_window, indexed):
    core, ids = indexed
    _name_the_face(core, "Ada")
    w = make_window(core)

    # nobody is "me" yet: the photos with someone in them, and the status line says why
    assert _search(qtbot, w, "photos of me") == ["astronaut"]
    said = w.search_info.text()  # the counts, then how "me" was read
    assert said.startswith("1 photo")
    assert "“me” is nobody in your library yet (choose “This is me” on your face in People)" in said
    w.resize(640, 600)  # a narrow window: the line ends in "…", its tooltip holds all of it
    qtbot.waitUntil(lambda: w.search_info.toolTip() == said, timeout=5000)
    assert w.search_info.shown_text().endswith("…") and w.search_info.text() == said
    assert w.width() <= 700  # the long line never widens the window

    # People → select Ada → "This is me"
    w.show_people()
    view = w.people_view
    qtbot.waitUntil(lambda: view.list.count() == 1, timeout=20000)
    assert view.list.item(0).text().startswith("Ada\n")
    view.list.setCurrentRow(0)
    assert view.btn_me.isEnabled() and view.btn_me.text() == THIS_IS_ME
    view.btn_me.click()
    qtbot.waitUntil(lambda: core.owner == "Ada", timeout=20000)
    qtbot.waitUntil(lambda: view.list.count() == 1 and "(you)" in view.list.item(0).text(), timeout=20000)
    assert view.selected_ids() and view.btn_me.text() == NOT_ME  # still selected after the change
    assert core.settings.load(core.settings.data_dir).owner == "Ada"  # kept in the settings file

    # now "me" is Ada: a person condition, and nothing to explain
    assert _search(qtbot, w, "photos of me") == ["astronaut"]
    assert w.chips.plan["where"] == {"person": "Ada"}
    assert "“me”" not in w.search_info.text()

    # renaming Ada keeps "me" on her; "This is not me" clears it
    w.show_people()
    qtbot.waitUntil(lambda: view.list.count() == 1, timeout=20000)
    view.list.setCurrentRow(0)
    view.name_selected("Ada Lovelace")
    qtbot.waitUntil(lambda: core.owner == "Ada Lovelace", timeout=20000)
    qtbot.waitUntil(lambda: view.list.count() == 1 and "Lovelace" in view.list.item(0).text(), timeout=20000)
    view.list.setCurrentRow(0)
    assert view.btn_me.text() == NOT_ME
    view.btn_me.click()
    qtbot.waitUntil(lambda: core.owner is None, timeout=20000)


def test_a_birthday_set_in_people_tells_ages(qtbot, make_window, indexed):
    """People → Birthday…: the day is kept, shown in the person's tooltip, and "ada at 3" is then the
    year after her third birthday; "No birthday" clears it, and the request says none is known."""
    from PySide6.QtCore import QDate
    from PySide6.QtWidgets import QDialogButtonBox

    from photosearch.gui.birthday_dialog import BirthdayDialog
    from photosearch.people import list_people

    core, _ids = indexed
    _name_the_face(core, "Ada")
    w = make_window(core)
    w.show_people()
    view = w.people_view
    qtbot.waitUntil(lambda: view.list.count() == 1, timeout=20000)
    view.list.setCurrentRow(0)
    assert view.btn_birthday.isEnabled()
    view.btn_birthday.click()
    dialog = view._dialog
    assert isinstance(dialog, BirthdayDialog) and not dialog.clear.isEnabled()
    dialog.date.setDate(QDate(1990, 6, 1))
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save).click()
    qtbot.waitUntil(lambda: list_people(core.store)[0].birthday == "1990-06-01", timeout=20000)
    qtbot.waitUntil(lambda: view.list.count() == 1 and view.list.item(0).toolTip() == "Ada, born 1 June 1990")

    _search(qtbot, w, "ada at 3")
    assert w.chips.plan["where"] == {
        "and": [{"person": "Ada"}, {"date": {"from": "1993-06-01", "to": "1994-05-31"}}]
    }

    w.show_people()
    qtbot.waitUntil(lambda: view.list.count() == 1, timeout=20000)
    view.list.setCurrentRow(0)
    view.btn_birthday.click()
    assert view._dialog.clear.isEnabled()
    view._dialog.clear.click()
    qtbot.waitUntil(lambda: list_people(core.store)[0].birthday is None, timeout=20000)
    _search(qtbot, w, "ada at 3")
    assert w.chips.plan["where"] == {"person": "Ada"}
    assert "No birthday is known for Ada" in w.search_info.text()
