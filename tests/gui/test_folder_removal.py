"""Items 9 and 10 of issue 13 in the app: removing a folder asks first and says what is lost; Save
never overwrites a broken settings file."""

from __future__ import annotations

from sqlalchemy import select

from photosearch.catalog.models import Face, Fact, Person, Photo
from photosearch.gui.bridge import TaskRunner
from photosearch.gui.settings_view import SettingsDialog
from photosearch.ingest.indexer import Indexer


def _select(dialog, path) -> None:
    for i in range(dialog.folder_list.count()):
        item = dialog.folder_list.item(i)
        if item.data(0x0100) == path:  # Qt.UserRole
            dialog.folder_list.setCurrentItem(item)
            return
    raise AssertionError(f"{path} not listed")


def test_removing_a_folder_asks_and_names_what_is_lost(qtbot, core, gallery):
    folder = core.store.add_folder(gallery).path
    Indexer(core.store, core.settings, []).run()
    with core.store.session() as s:
        ids = list(s.scalars(select(Photo.id)))
        s.add(Fact(photo_id=ids[0], analyzer="user", kind="user_tag", label="favourite"))
        person = Person(name="Anna")
        s.add(person)
        s.flush()
        s.add(Face(photo_id=ids[1], analyzer="faces", box=[0, 0, 1, 1], score=1.0, person_id=person.id))
    runner = TaskRunner()
    dialog = SettingsDialog(core, runner, on_error=lambda info: None)
    qtbot.addWidget(dialog)
    _select(dialog, folder)

    dialog.btn_remove.click()
    box = dialog.confirm_box
    assert box is not None and box.isVisible()
    assert (
        "4 photo(s)" in box.text() and "1 tag(s) you added" in box.text() and "1 named face(s)" in box.text()
    )
    box.button(box.StandardButton.Cancel).click()
    assert [f.path for f in core.store.folders()] == [folder] and len(core.store.active_photo_ids()) == 4

    dialog.btn_remove.click()
    box = dialog.confirm_box
    remove = next(b for b in box.buttons() if b.text() == "Remove and forget")
    remove.click()
    qtbot.waitUntil(lambda: core.store.folders() == [])
    assert core.store.active_photo_ids() == []


def test_save_refuses_to_overwrite_a_settings_file_broken_meanwhile(qtbot, core):
    errors = []
    dialog = SettingsDialog(core, TaskRunner(), on_error=errors.append)
    qtbot.addWidget(dialog)
    path = core.settings.data_dir / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"web_enabled": tru')  # the user is editing it by hand
    dialog.web.setChecked(True)
    dialog.save()
    assert path.read_text() == '{"web_enabled": tru' and errors and "not valid JSON" in errors[0].message
