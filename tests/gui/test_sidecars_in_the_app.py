"""Issue 23 in the app: the sidecar write-back setting (off by default, explained, saved with the
naming the user picks) and what the photo's own file says, shown in the photo's details."""

from __future__ import annotations

import json

from PIL import Image

from photosearch.config import Settings
from photosearch.gui.bridge import TaskRunner
from photosearch.gui.photo_view import details_html
from photosearch.gui.settings_view import SettingsDialog
from photosearch.ingest.indexer import Indexer
from photosearch.metadata.analyzer import EmbeddedMetadataAnalyzer
from tests.metadata import exiftool


def test_write_back_is_off_by_default_explained_and_saved(qtbot, core):
    dialog = SettingsDialog(core, TaskRunner(), on_error=lambda info: None)
    qtbot.addWidget(dialog)
    tab = next(i for i in range(dialog.tabs.count()) if dialog.tabs.tabText(i) == "Sidecars")
    page = dialog.tabs.widget(tab)
    assert not dialog.writeback.isChecked() and not dialog.sidecar_naming.isEnabled()
    labels = [w.text() for w in page.children() if w.metaObject().className() == "QLabel"]
    assert any("never changed" in t and "sidecar" in t for t in labels), labels
    dialog.writeback.setChecked(True)
    assert dialog.sidecar_naming.isEnabled()
    dialog.sidecar_naming.setCurrentIndex(dialog.sidecar_naming.findData("photo.xmp"))
    dialog.save()
    saved = json.loads((core.settings.data_dir / "settings.json").read_text())
    assert saved["sidecar_writeback"] is True and saved["sidecar_naming"] == "photo.xmp"
    again = Settings.load(core.settings.data_dir)
    assert again.sidecar_writeback and again.sidecar_naming == "photo.xmp"


def test_the_details_say_what_the_file_says(qtbot, core, tmp_path, small_photos):
    folder = tmp_path / "Trips"
    folder.mkdir()
    path = folder / "lisbon.jpg"
    Image.fromarray(small_photos["coffee"]).save(path)
    exiftool.write(path, "-XMP-lr:HierarchicalSubject=Places|Portugal|Lisbon", "-XMP-xmp:Rating=4")
    exiftool.write(path, "-XMP-dc:Title=Grandma’s 80th", "-XMP-xmp:Label=Red")
    core.store.add_folder(folder)
    Indexer(core.store, core.settings, [EmbeddedMetadataAnalyzer(core.settings)]).run()
    (pid,) = core.store.active_photo_ids()
    page = details_html(core.details(pid))
    assert "From the file" in page and "Places, Portugal, Lisbon" in page
    assert "Grandma’s 80th" in page and "★★★★☆" in page and "Red" in page


def test_home_is_set_in_its_own_tab(qtbot, core):
    """Settings → Home: empty says home is where most photos with a place were taken; a town typed is
    saved, and emptied again is none."""
    dialog = SettingsDialog(core, TaskRunner(), on_error=lambda info: None)
    qtbot.addWidget(dialog)
    tab = next(i for i in range(dialog.tabs.count()) if dialog.tabs.tabText(i) == "Home")
    assert dialog.home.text() == "" and "most of your photos" in dialog.home.placeholderText()
    assert dialog.tabs.widget(tab).isAncestorOf(dialog.home)
    dialog.home.setText("  Springfield,  Illinois ")
    dialog.save()
    assert Settings.load(core.settings.data_dir).home == "Springfield, Illinois"
    again = SettingsDialog(core, TaskRunner(), on_error=lambda info: None)
    qtbot.addWidget(again)
    assert again.home.text() == "Springfield, Illinois"
    again.home.setText("")
    again.save()
    assert Settings.load(core.settings.data_dir).home is None
