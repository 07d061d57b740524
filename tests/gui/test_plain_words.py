"""Issue 22, items 5 and 8 (part): plain words for the sort menu and where models run (runtime names
only under Advanced), and Escape clears the search together with its results and chips."""

from __future__ import annotations

from PySide6.QtCore import Qt

from photosearch.gui.settings_view import SettingsDialog, accelerator_text
from tests.gui.test_flow import result_names, search


def test_the_sort_menu_speaks_plainly_and_keeps_the_plan_values(qtbot, make_window, indexed):
    core, _ids = indexed
    w = make_window(core)
    search(qtbot, w, "cat")
    labels = [w.chips.sort.itemText(i) for i in range(w.chips.sort.count())]
    assert labels == [
        "Best match",
        "Newest first",
        "Oldest first",
        "Recently added",
        "Largest files first",
        "Smallest files first",
        "Highest resolution first",
        "Lowest resolution first",
    ]
    with qtbot.waitSignal(w.chips.plan_edited, timeout=5000) as blocker:
        w.chips.sort.setCurrentIndex(1)
        w.chips.sort.activated.emit(1)
    assert blocker.args[0]["compose"]["sort"] == "date_desc"  # the plan keeps its own value
    w.chips.set_plan({**blocker.args[0]})
    assert w.chips.sort.currentText() == "Newest first"
    search(qtbot, w, "the biggest photos")  # a size order read from words shows in the menu
    assert w.chips.sort.currentText() == "Largest files first"


def test_escape_clears_the_search_its_results_and_its_chips(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core)
    search(qtbot, w, "cat")
    assert result_names(w) == {"chelsea"} and w.chips.chips
    w.search_bar.setFocus()
    qtbot.keyClick(w.search_bar, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: w.model.rowCount() == len(ids), timeout=20000)
    assert w.search_bar.text() == "" and w.chips.chips == [] and w.last_request == ""


def test_where_models_run_is_said_in_words(qtbot, core):
    assert accelerator_text(["AzureExecutionProvider", "CPUExecutionProvider"]) == "this computer's processor"
    assert "NVIDIA" in accelerator_text(["CUDAExecutionProvider", "CPUExecutionProvider"])
    dlg = SettingsDialog(core, None, lambda _e: None)
    qtbot.addWidget(dlg)
    assert "ExecutionProvider" not in dlg.accelerator.text()
    dlg.tabs.setCurrentIndex([dlg.tabs.tabText(i) for i in range(dlg.tabs.count())].index("Performance"))
    assert dlg.accelerator.isVisibleTo(dlg)
    assert not dlg.provider.isVisibleTo(dlg)  # the runtime's names wait under a folded Advanced box
    assert not dlg.provider_label.isVisibleTo(dlg)  # and so does the row's label
    advanced = dlg.provider.parentWidget()
    advanced.setChecked(True)
    assert dlg.provider.isVisibleTo(dlg) and dlg.provider_label.isVisibleTo(dlg)


def test_the_window_is_usable_at_800_by_600_with_the_ask_panel(qtbot, make_window, indexed):
    """The chips' controls and the people bar wrap; no page asks for more than 800×600 (it asked for
    936 px, 1160 with Ask)."""
    core, _ids = indexed
    w = make_window(core, size=(800, 600))
    search(qtbot, w, "cat")
    w.ask_dock.show()
    qtbot.wait(50)
    for page in range(w.stack.count()):
        w.stack.setCurrentIndex(page)
        qtbot.wait(20)
        hint = w.minimumSizeHint()
        assert hint.width() <= 800 and hint.height() <= 600, (page, hint)
    w.stack.setCurrentIndex(1)
    qtbot.wait(50)
    assert w.chips.sort.isVisible() and w.chips.save_btn.geometry().right() <= w.chips.width()


def test_a_result_says_what_matched_in_words(qtbot, make_window, indexed):
    from photosearch.gui.grid import why_words

    assert (
        why_words(
            [
                {"atom": "concept", "fact": "object", "label": "dog", "score": 0.99},
                {"atom": "concept", "fact": "object", "label": "dog", "score": 0.99},  # said once
                {"atom": "concept", "fact": "facts_text", "similarity": 0.279},
                {"atom": "date", "taken_at": "2021-03-09T07:46:00"},
            ]
        )
        == "dog (object, 99 %), similar description (28 %), taken 2021-03-09"
    )
    assert why_words([{"atom": "hour", "taken_at": "2021-03-09T07:46:00"}]) == "taken 2021-03-09 07:46"
    assert why_words([{"atom": "weekday", "taken_at": "2024-05-12T09:00:00"}]) == "taken Sunday 2024-05-12"
    # what a resolver says in words is shown as said, never its keys ("color blue, share 0.514, ...")
    colour = {
        "atom": "color",
        "color": "blue",
        "share": 0.514,
        "of": "subject",
        "text": "blue: 51% of the subject",
    }
    selfie = {
        "atom": "concept",
        "fact": "face",
        "share": 0.113,
        "text": "a face close to the camera, 11% of the photo",
    }
    assert (
        why_words([colour, selfie])
        == "blue: 51% of the subject, a face close to the camera, 11% of the photo"
    )
    core, _ids = indexed
    w = make_window(core)
    search(qtbot, w, "cat")
    tip = w.model.data(w.model.index(0), Qt.ItemDataRole.ToolTipRole)
    assert "matched: cat (" in tip and "concept" not in tip, tip


def test_chip_icons_are_bundled_pictures_not_font_glyphs(qtbot):
    from PySide6.QtWidgets import QLabel

    from photosearch.gui.plan_chips import PlanChips

    chips = PlanChips()
    qtbot.addWidget(chips)
    plan = {
        "version": 1,
        "where": {
            "and": [
                {"person": "Anna"},
                {"place": "Lisbon"},
                {"date": {"from": "2024-01-01", "to": "2024-12-31"}},
                {"camera": "Pixel"},
                {"folder": "Holidays"},
            ]
        },
    }
    chips.set_plan(plan)
    assert len(chips.chips) == 5
    for chip, key in zip(chips.chips, ("person", "place", "date", "camera", "folder"), strict=True):
        icon = chip.findChild(QLabel, f"ChipIcon-{key}")
        assert icon is not None and not icon.pixmap().isNull() and icon.pixmap().width() > 0, key
        texts = [lbl.text() for lbl in chip.findChildren(QLabel)]
        assert not any(ch in "".join(texts) for ch in "👤📍📅📷📁"), texts


def _second_chip(qtbot, first: dict, second: dict):
    """A chip bar for the plan `first AND second`, and the chip of `second`."""
    from photosearch.gui.plan_chips import PlanChips

    chips = PlanChips()
    qtbot.addWidget(chips)
    chips.set_plan({"version": 1, "where": {"and": [first, second]}})
    return chips, chips.chips[1]


def _pick(qtbot, chips, chip, text: str) -> dict:
    """Pick `text` in a chip's list as a person would; the plan it publishes."""
    with qtbot.waitSignal(chips.plan_edited, timeout=2000) as edited:
        chip.editor.setCurrentText(text)
        chip.editor.activated.emit(chip.editor.currentIndex())
    return edited.args[0]


def test_a_colour_label_chip_picks_from_the_labels_and_edits_the_plan(qtbot):
    from PySide6.QtWidgets import QComboBox

    from photosearch.metadata.analyzer import COLOR_LABELS

    chips, chip = _second_chip(qtbot, {"concept": "dog"}, {"label": "Red"})
    assert isinstance(chip.editor, QComboBox)
    assert [chip.editor.itemText(i) for i in range(chip.editor.count())] == list(COLOR_LABELS)
    assert chip.editor.currentText() == "Red"
    assert {"label": "Green"} in _pick(qtbot, chips, chip, "Green")["where"]["and"]
    menu = [a.text() for a in chips.add_btn.menu().actions()]
    assert "Colour label" in menu


def test_an_any_words_chip_reads_any_words_and_a_typed_word_narrows_it(qtbot):
    from PySide6.QtWidgets import QLineEdit

    chips, chip = _second_chip(qtbot, {"concept": "sign"}, {"text": "*"})
    assert isinstance(chip.editor, QLineEdit)
    assert chip.editor.text() == "" and chip.editor.placeholderText() == "any words"  # never a bare "*"
    with qtbot.waitSignal(chips.plan_edited, timeout=2000) as edited:
        chip.set_value("exit")
    assert {"text": "exit"} in edited.args[0]["where"]["and"]


def test_a_time_of_day_chip_reads_the_time_in_words_and_picks_another(qtbot):
    from PySide6.QtWidgets import QComboBox, QLabel

    from photosearch.query.times_of_day import hours_of

    chips, chip = _second_chip(qtbot, {"concept": "dog"}, {"hour": hours_of("morning")})
    assert isinstance(chip.editor, QComboBox) and chip.editor.currentText() == "in the morning"
    assert "hour" not in [lbl.text() for lbl in chip.findChildren(QLabel)]  # no internal name
    assert {"hour": hours_of("evening")} in _pick(qtbot, chips, chip, "in the evening")["where"]["and"]
    assert "Time of day" in [a.text() for a in chips.add_btn.menu().actions()]


def test_a_weekday_chip_reads_the_days_in_words_and_picks_others(qtbot):
    from PySide6.QtWidgets import QComboBox, QLabel

    chips, chip = _second_chip(qtbot, {"concept": "beach"}, {"weekday": [6, 7]})
    assert isinstance(chip.editor, QComboBox) and chip.editor.currentText() == "at the weekend"
    assert "weekday" not in [lbl.text() for lbl in chip.findChildren(QLabel)]  # no internal name
    assert {"weekday": [7]} in _pick(qtbot, chips, chip, "on Sundays")["where"]["and"]
    assert "Day of the week" in [a.text() for a in chips.add_btn.menu().actions()]


def test_a_month_chip_reads_the_season_in_words_and_picks_a_month(qtbot):
    """It read "month:Jun,Jul,Aug"; now "taken [in summer ▾]", and any season or month can be picked."""
    from PySide6.QtWidgets import QComboBox, QLabel

    chips, chip = _second_chip(qtbot, {"concept": "dog"}, {"month": [6, 7, 8]})
    assert isinstance(chip.editor, QComboBox) and chip.editor.currentText() == "in summer"
    labels = [lbl.text() for lbl in chip.findChildren(QLabel)]
    assert "taken" in labels and not any("month" in text for text in labels)  # no internal name
    assert {"month": [12]} in _pick(qtbot, chips, chip, "in December")["where"]["and"]
    chips2, chip2 = _second_chip(qtbot, {"concept": "dog"}, {"month": [3, 10]})
    assert chip2.editor.currentText() == "in March and October"  # not a choice: said in words
    assert "Month or season" in [a.text() for a in chips.add_btn.menu().actions()]


def test_a_rating_chip_reads_the_stars_in_words_and_picks_others(qtbot):
    """It read "rating rating=5"; now "rated [five stars ▾]"."""
    from PySide6.QtWidgets import QComboBox, QLabel

    chips, chip = _second_chip(qtbot, {"concept": "dog"}, {"rating": {"min": 5, "max": 5}})
    assert isinstance(chip.editor, QComboBox) and chip.editor.currentText() == "five stars"
    labels = [lbl.text() for lbl in chip.findChildren(QLabel)]
    assert "rated" in labels and not any("rating" in text or "=" in text for text in labels)
    picked = _pick(qtbot, chips, chip, "three stars or more")["where"]["and"]
    assert {"rating": {"min": 3, "max": None}} in picked
    chips2, chip2 = _second_chip(qtbot, {"concept": "dog"}, {"rating": {"min": 2, "max": 4}})
    assert chip2.editor.currentText() == "two to four stars"  # not a choice: said in words
    assert "Star rating" in [a.text() for a in chips.add_btn.menu().actions()]


def test_a_place_chip_for_any_place_says_so_in_words(qtbot):
    """ "dogs with location": the place chip is empty and says what it matches, never a bare "*"."""
    _chips, chip = _second_chip(qtbot, {"concept": "dog"}, {"place": "*"})
    assert chip.editor.text() == "" and chip.editor.placeholderText() == "any known place"


def test_a_file_chip_for_any_raw_format_says_so_in_words(qtbot):
    """ "raw files": the file chip says camera RAW, not the plan's "*.raw-formats"."""
    from photosearch.query.plan import ANY_RAW

    _chips, chip = _second_chip(qtbot, {"concept": "dog"}, {"file": ANY_RAW})
    assert chip.editor.text() == "" and chip.editor.placeholderText() == "camera RAW"


def test_a_similar_chip_for_any_near_duplicate_says_so_in_words(qtbot):
    """ "duplicates": the similar chip says a near-duplicate, never a bare "*"."""
    _chips, chip = _second_chip(qtbot, {"concept": "dog"}, {"similar": "*"})
    assert chip.editor.text() == "" and chip.editor.placeholderText() == "a near-duplicate"


def test_an_album_chip_for_any_album_says_so_in_words(qtbot):
    """ "dogs not in any album": the album chip says any album, excluded, never a bare "*"."""
    _chips, chip = _second_chip(qtbot, {"concept": "dog"}, {"not": {"album": "*"}})
    assert chip.editor.text() == "" and chip.editor.placeholderText() == "any album"
    assert chip.toggle.text() == "✗"


def test_a_chip_of_several_conditions_reads_them_in_words(qtbot):
    """ "best photos of Anna" and "Anna or Tom": the group chip read `tag:"favourite" OR rating>=4`."""
    from PySide6.QtWidgets import QLabel

    best = {"or": [{"tag": "favourite"}, {"rating": {"min": 4, "max": None}}]}
    _chips, chip = _second_chip(qtbot, {"person": "Anna"}, best)
    labels = [lbl.text() for lbl in chip.findChildren(QLabel)]
    assert "tagged favourite or rated four stars or more" in labels, labels
    assert "or" not in labels  # no title before the words
    _chips, chip = _second_chip(qtbot, {"concept": "beach"}, {"or": [{"person": "Anna"}, {"person": "Tom"}]})
    assert "of Anna or of Tom" in [lbl.text() for lbl in chip.findChildren(QLabel)]


def test_a_counted_thing_reads_in_the_plural_and_an_untouched_chip_changes_nothing(qtbot):
    """The concept "three car" (the count the parser keeps) reads "three cars"; leaving the chip
    without a change publishes no new plan, and a typed count is the new concept."""
    chips, chip = _second_chip(qtbot, {"concept": "beach"}, {"concept": "herd horse"})
    assert chip.editor.text() == "a herd of horses"
    with qtbot.assertNotEmitted(chips.plan_edited, wait=200):
        chip.editor.editingFinished.emit()
    with qtbot.waitSignal(chips.plan_edited, timeout=2000) as edited:
        chip.editor.setText("two horses")
        chip.editor.editingFinished.emit()
    assert {"concept": "two horses"} in edited.args[0]["where"]["and"]


def test_a_people_count_chip_says_people_not_faces(qtbot):
    """ "two people" counts the faces and the detector's person boxes: its chip and the menu entry
    say people, as the request did."""
    from PySide6.QtWidgets import QLabel, QSpinBox

    chips, chip = _second_chip(qtbot, {"concept": "beach"}, {"faces": {"min": 2, "max": 2}})
    assert "people" in [lbl.text() for lbl in chip.findChildren(QLabel)]
    assert [s.value() for s in chip.findChildren(QSpinBox)] == [2, 2]
    menu = [a.text() for a in chips.add_btn.menu().actions()]
    assert "Number of people" in menu and not any("faces" in m.lower() for m in menu)


def test_an_added_chip_edits_the_days_added_and_the_sort_reads_recently_added(qtbot):
    from PySide6.QtCore import QDate
    from PySide6.QtWidgets import QLabel

    chips, chip = _second_chip(
        qtbot, {"concept": "dog"}, {"added": {"from": "2024-05-13", "to": "2024-05-15"}}
    )
    assert "added" in [lbl.text() for lbl in chip.findChildren(QLabel)]  # not "date": when it was taken
    with qtbot.waitSignal(chips.plan_edited, timeout=2000) as edited:
        chip.date_from.setDate(QDate(2024, 5, 1))
        chip.date_from.editingFinished.emit()
    assert {"added": {"from": "2024-05-01", "to": "2024-05-15"}} in edited.args[0]["where"]["and"]
    chips.set_plan({"version": 1, "where": {"and": []}, "compose": {"sort": "added_desc"}})
    assert chips.sort.currentText() == "Recently added"
    assert "Added to the library" in [a.text() for a in chips.add_btn.menu().actions()]


def test_a_camera_setting_chip_reads_the_setting_in_words_and_a_typed_one_edits_it(qtbot):
    """ "dogs at iso 1600 or higher": the chip reads "setting [ISO 1600 or more]"; typing "f/2.8 or
    wider" makes it that setting, and words that say none put the chip's words back."""
    from PySide6.QtWidgets import QLabel, QLineEdit

    iso = {"setting": {"of": "iso", "min": 1600, "max": None}}
    chips, chip = _second_chip(qtbot, {"concept": "dog"}, iso)
    assert isinstance(chip.editor, QLineEdit) and chip.editor.text() == "ISO 1600 or more"
    labels = [lbl.text() for lbl in chip.findChildren(QLabel)]
    assert "setting" in labels and not any("iso" in text or "min" in text for text in labels)
    with qtbot.waitSignal(chips.plan_edited, timeout=2000) as edited:
        chip.editor.setText("f/2.8 or wider")
        chip.editor.editingFinished.emit()
    assert {"setting": {"of": "aperture", "min": None, "max": 2.8}} in edited.args[0]["where"]["and"]
    chips2, chip2 = _second_chip(qtbot, {"concept": "dog"}, iso)
    with qtbot.assertNotEmitted(chips2.plan_edited):
        chip2.editor.setText("a dog")
        chip2.editor.editingFinished.emit()
    assert chip2.editor.text() == "ISO 1600 or more"
    assert "Camera setting" in [a.text() for a in chips.add_btn.menu().actions()]


def test_a_person_chip_for_anyone_named_or_a_face_not_named_says_so_and_picks_a_person(qtbot):
    """ "unnamed faces": the chip reads "someone not named yet", never a bare "?"; picking a name
    makes it that person, and picking the words back makes it "?" again."""
    from PySide6.QtWidgets import QComboBox

    chips, chip = _second_chip(qtbot, {"concept": "beach"}, {"person": "?"})
    chips.set_people(["Anna"])
    chips.set_plan({"version": 1, "where": {"and": [{"concept": "beach"}, {"person": "?"}]}})
    chip = chips.chips[1]
    assert isinstance(chip.editor, QComboBox) and chip.editor.currentText() == "someone not named yet"
    items = [chip.editor.itemText(i) for i in range(chip.editor.count())]
    assert items == ["someone you named", "someone not named yet", "Anna"]
    assert {"person": "Anna"} in _pick(qtbot, chips, chip, "Anna")["where"]["and"]
    chip = chips.chips[1]
    assert {"person": "*"} in _pick(qtbot, chips, chip, "someone you named")["where"]["and"]


def test_a_tag_chip_for_any_tag_says_so_in_words(qtbot):
    """ "untagged photos": an excluded tag chip that reads "any tag", never a bare "*"."""
    _chips, chip = _second_chip(qtbot, {"concept": "dog"}, {"not": {"tag": "*"}})
    assert chip.editor.text() == "" and chip.editor.placeholderText() == "any tag"
    assert chip.excluded


def test_a_size_chip_reads_the_size_in_words_and_a_typed_one_edits_it(qtbot):
    """ "high resolution": the chip reads "size [12 megapixels or more]"; typing "10 MB or more" makes
    it a file size, and a camera setting typed there is not a size: the chip's words come back."""
    from PySide6.QtWidgets import QLineEdit

    high = {"size": {"of": "megapixels", "min": 12, "max": None}}
    chips, chip = _second_chip(qtbot, {"concept": "dog"}, high)
    assert isinstance(chip.editor, QLineEdit) and chip.editor.text() == "12 megapixels or more"
    with qtbot.waitSignal(chips.plan_edited, timeout=2000) as edited:
        chip.editor.setText("10 MB or more")
        chip.editor.editingFinished.emit()
    assert {"size": {"of": "megabytes", "min": 10.0, "max": None}} in edited.args[0]["where"]["and"]
    chips2, chip2 = _second_chip(qtbot, {"concept": "dog"}, high)
    with qtbot.assertNotEmitted(chips2.plan_edited):
        chip2.editor.setText("f/1.8")
        chip2.editor.editingFinished.emit()
    assert chip2.editor.text() == "12 megapixels or more"
    assert "Size" in [a.text() for a in chips.add_btn.menu().actions()]
