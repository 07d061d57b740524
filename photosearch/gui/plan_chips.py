"""The plan as editable chips: one chip per condition (include/exclude, value, remove), a date range,
people, and the composition options. Every edit emits `plan_edited` with a new validated plan."""

from __future__ import annotations

import copy
from datetime import date

from PySide6.QtCore import QDate, QSize, Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from photosearch.gui.flow import FlowLayout
from photosearch.gui.theme import resources_dir
from photosearch.metadata.analyzer import COLOR_LABELS
from photosearch.query.camera_settings import read_setting, setting_text
from photosearch.query.months import CHOICES as MONTH_CHOICES
from photosearch.query.months import SEASON_MONTHS, months_text
from photosearch.query.photo_sizes import read_size, size_text
from photosearch.query.plan import (
    ANY_ALBUM,
    ANY_EDITOR,
    ANY_PLACE,
    ANY_RAW,
    ANY_SIMILAR,
    ANY_TAG,
    ANY_TEXT,
    STRING_ATOMS,
    dumps_plan,
)
from photosearch.query.quantities import say as say_counted
from photosearch.query.times_of_day import CHOICES as TIME_CHOICES
from photosearch.query.times_of_day import hours_of, hours_text
from photosearch.query.unmet import PERSON_WORDS, RATING_CHOICES, rating_text
from photosearch.query.weekdays import CHOICES as WEEKDAY_CHOICES
from photosearch.query.weekdays import WEEKEND, days_text

ATOM_TITLES = {
    "concept": "",
    "person": "person",
    "place": "place",
    "text": "“text”",
    "camera": "camera",
    "lens": "lens",
    "folder": "folder",
    "file": "file",
    "album": "album",
    "editor": "edited in",
    "label": "label",
    "similar": "≈ photo",
    "knowledge": "knowledge",
    "tag": "#",
    "kind": "kind",
    "quality": "quality",
    "color": "colour",
    "orientation": "shape",
    "faces": "people",  # counted from the faces and the detector's person boxes
    "rating": "rated",
    "setting": "setting",
    "size": "size",  # "size 12 megapixels or more", "size 10 MB or more"  # a camera setting: "setting f/1.8", "setting ISO 1600 or more"
    "date": "date",
    "added": "added",  # to the library, not taken
    "hour": "taken",
    "weekday": "taken",
    "month": "taken",
    "yearly": "",
    "days_of": "",  # says itself: "taken the day after a photo that looks like “party”"
    "or": "",  # a group of conditions says itself in words ("of Anna or of Tom")
    "and": "",
}
#: Atoms whose chip picks a value by name: (the names and their values, how another value is said).
NAMED_CHOICES = {
    "hour": (TIME_CHOICES, hours_text),
    "weekday": (WEEKDAY_CHOICES, days_text),
    "month": (MONTH_CHOICES, months_text),
}
#: Atoms whose chip is edited in words: (the value in words, the words read back, the tooltip).
WORDS_EDITED = {
    "setting": (
        setting_text,
        read_setting,
        "A camera setting: f/2.8 or wider, 1/1000 s or faster, ISO 800 to 3200, 50 mm, flash fired",
    ),
    "size": (
        size_text,
        read_size,
        "The photo's size: 12 megapixels or more, 1 megapixel or less, 10 MB or more",
    ),
}
#: What an empty "text in photo" chip says it matches: any words read in the photo (`ANY_TEXT`).
ANY_WORDS = "any words"
#: Atoms whose empty chip matches anything: (the plan's value for it, what the chip says).
ANY_VALUES = {
    "text": (ANY_TEXT, ANY_WORDS),
    "place": (ANY_PLACE, "any known place"),
    "file": (ANY_RAW, "camera RAW"),  # "raw files": any RAW format, said so
    "album": (ANY_ALBUM, "any album"),  # "photos not in any album"
    "editor": (ANY_EDITOR, "any photo editor"),  # "edited photos"; "unedited" is its negation
    "similar": (ANY_SIMILAR, "a near-duplicate"),  # "duplicates": of any photo
    "tag": (ANY_TAG, "any tag"),  # "untagged" is its negation
}
#: Conditions shown with a bundled icon (SVG: no emoji font needed); the title is its tooltip.
ATOM_ICONS = {key: f"{key}.svg" for key in ("person", "place", "camera", "folder", "date")}


def atom_icon(key: str, parent: QWidget) -> QLabel | None:
    """A small label with the condition's icon, or None when it has none (or the file is missing)."""
    name = ATOM_ICONS.get(key)
    path = resources_dir() / "icons" / name if name else None
    if path is None or not path.is_file():
        return None
    label = QLabel(parent)
    label.setPixmap(QIcon(str(path)).pixmap(QSize(14, 14)))
    label.setToolTip(ATOM_TITLES.get(key, key))
    label.setObjectName(f"ChipIcon-{key}")
    return label


def conjuncts(plan: dict) -> list[dict]:
    """The top-level conditions of a plan (its AND children, or the single node)."""
    where = plan["where"]
    if "and" in where:
        return list(where["and"])
    return [where]


def with_conjuncts(plan: dict, items: list[dict]) -> dict:
    out = copy.deepcopy(plan)
    out["where"] = items[0] if len(items) == 1 else {"and": items}
    present = {" ".join(str(n["concept"]).lower().split()) for n in items if "concept" in n}
    required = [r for r in out.get("required") or [] if r.lower() in present]
    if required:
        out["required"] = required
    else:
        out.pop("required", None)
    return out


def soft_state(plan: dict, node: dict) -> bool | None:
    """For a top-level concept of an AND of several concepts: True when soft, False when required;
    None where softness does not apply (filters, excluded conditions, a lone concept)."""
    items = conjuncts(plan)
    if "concept" not in node or sum(1 for n in items if "concept" in n) < 2:
        return None
    required = {r.lower() for r in plan.get("required") or []}
    return " ".join(str(node["concept"]).lower().split()) not in required


def _unwrap(node: dict) -> tuple[dict, bool]:
    """(inner node, excluded?)"""
    if "not" in node:
        return node["not"], True
    return node, False


def describe(node: dict) -> str:
    from photosearch.query.unmet import node_words

    return node_words(node)


#: The plan's sort orders and "one per" groupings, as people read them (label, plan value).
SORT_CHOICES = [
    ("Best match", "relevance"),
    ("Newest first", "date_desc"),
    ("Oldest first", "date_asc"),
    ("Recently added", "added_desc"),
    ("Largest files first", "size_desc"),
    ("Smallest files first", "size_asc"),
    ("Highest resolution first", "pixels_desc"),
    ("Lowest resolution first", "pixels_asc"),
]
PER_CHOICES = [
    ("—", None),
    ("day", "day"),
    ("week", "week"),
    ("month", "month"),
    ("year", "year"),
    ("place", "place"),
    ("person", "person"),
]


def _labelled(text: str, widget: QWidget, parent: QWidget) -> QWidget:
    """A label and its control as one piece, so that a wrapping row never parts them."""
    box = QWidget(parent)
    lay = QHBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.setSpacing(4)
    lay.addWidget(QLabel(text, box))
    widget.setParent(box)
    lay.addWidget(widget)
    return box


class Chip(QFrame):
    """One condition. `changed(index, node|None)`: None removes it."""

    changed = Signal(int, object)
    required_changed = Signal(int, bool)

    def __init__(self, index: int, node: dict, people: list[str], parent=None, soft: bool | None = None):
        super().__init__(parent)
        self.setObjectName("Chip")
        self.index = index
        inner, excluded = _unwrap(node)
        self.inner, self.excluded = inner, excluded
        self.soft = soft
        self.setProperty("excluded", excluded)
        self.setProperty("soft", bool(soft))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(6, 1, 4, 1)
        lay.setSpacing(3)
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("ChipToggle")
        self.toggle.setCheckable(True)
        self.toggle.setChecked(not excluded)
        self.toggle.setText("✓" if not excluded else "✗")
        self.toggle.setToolTip("Include (✓) or exclude (✗) photos matching this")
        self.toggle.toggled.connect(self._toggled)
        lay.addWidget(self.toggle)
        key = next(iter(inner)) if len(inner) == 1 else "group"
        self.key = key
        icon = atom_icon(key, self)
        title = ATOM_TITLES.get(key, key)
        if icon is not None:
            lay.addWidget(icon)
        elif title:
            lay.addWidget(QLabel(title, self))
        self.editor: QWidget | None = None
        value = inner.get(key)
        if key in STRING_ATOMS:  # edited as text (a person or a colour label picked from a list too)
            choices = (
                [*PERSON_WORDS.values(), *people]
                if key == "person"
                else COLOR_LABELS
                if key == "label"
                else ()
            )
            if choices:  # the known ones to pick from; another can still be typed
                box = QComboBox(self)
                box.setEditable(True)
                box.addItems(list(choices))
                box.setCurrentText(
                    PERSON_WORDS.get(str(value), str(value)) if key == "person" else str(value)
                )
                box.lineEdit().editingFinished.connect(lambda: self._set_string(box.currentText()))
                box.activated.connect(lambda _i: self._set_string(box.currentText()))
                self.editor = box
            else:
                # "photos with text", "photos with location": any words, any known place
                any_value, any_words = ANY_VALUES.get(key, ("", ""))
                anything = bool(any_value) and str(value).strip() == any_value
                # a counted concept in words: "three car" reads "three cars"
                said = say_counted(str(value)) if key == "concept" else str(value)
                edit = QLineEdit("" if anything else said, self)
                edit.setPlaceholderText(any_words)
                edit.setMinimumWidth(40)
                edit.setMaximumWidth(220)
                shown = any_words if anything else said
                edit.setFixedWidth(max(50, edit.fontMetrics().horizontalAdvance(shown) + 18))
                edit.editingFinished.connect(
                    lambda: edit.text() != said and self._set_string(edit.text() or any_value)
                )
                self.editor = edit
        elif key in ("date", "added"):
            self.date_from = QDateEdit(QDate.fromString(value["from"], "yyyy-MM-dd"), self)
            self.date_to = QDateEdit(QDate.fromString(value["to"], "yyyy-MM-dd"), self)
            for d in (self.date_from, self.date_to):
                d.setDisplayFormat("yyyy-MM-dd")
                d.setCalendarPopup(True)
                d.editingFinished.connect(self._set_dates)
            lay.addWidget(self.date_from)
            lay.addWidget(QLabel("–", self))
            lay.addWidget(self.date_to)
        elif key in ("kind", "quality", "color", "orientation"):
            from photosearch.query.plan import COLORS, KINDS, MONOCHROME, ORIENTATIONS, QUALITIES

            box = QComboBox(self)
            choices = {
                "kind": KINDS,
                "quality": QUALITIES,
                "color": (*COLORS, MONOCHROME),
                "orientation": ORIENTATIONS,
            }
            box.addItems(list(choices[key]))
            box.setCurrentText(str(value))
            box.activated.connect(lambda _i: self._emit({key: box.currentText()}))
            self.editor = box
        elif key in NAMED_CHOICES:  # a time of day or days of the week, picked by name ("in the morning")
            choices, say = NAMED_CHOICES[key]
            shown = next((text for text, v in choices.items() if v == list(value)), None) or say(list(value))
            box = QComboBox(self)
            box.addItems(list(choices) if shown in choices else [shown, *choices])
            box.setCurrentText(shown)
            box.activated.connect(lambda _i: self._pick_named(box.currentText()))
            self.editor = box
        elif key == "rating":  # picked by name: "five stars", "three stars or more", "rejected"
            shown = rating_text(int(value.get("min") or 0), value.get("max"))
            box = QComboBox(self)
            box.addItems(list(RATING_CHOICES) if shown in RATING_CHOICES else [shown, *RATING_CHOICES])
            box.setCurrentText(shown)
            box.activated.connect(
                lambda _i: (
                    box.currentText() in RATING_CHOICES
                    and self._emit({"rating": dict(RATING_CHOICES[box.currentText()])})
                )
            )
            self.editor = box
        elif key in WORDS_EDITED:  # edited in words, read back as a request's words are ("ISO 800 or more")
            say, _read, tip = WORDS_EDITED[key]
            said = say(value)
            edit = QLineEdit(said, self)
            edit.setToolTip(tip)
            edit.setFixedWidth(max(60, edit.fontMetrics().horizontalAdvance(said) + 18))
            edit.editingFinished.connect(lambda: self._set_in_words(edit))
            self.editor = edit
        elif key == "faces":
            spin_lo, spin_hi = QSpinBox(self), QSpinBox(self)
            spin_lo.setRange(0, 99)
            spin_hi.setRange(-1, 99)
            spin_hi.setSpecialValueText("any")
            spin_lo.setValue(int(value.get("min", 0)))
            spin_hi.setValue(-1 if value.get("max") is None else int(value["max"]))

            def faces_changed():
                hi = spin_hi.value()
                self._emit(
                    {"faces": {"min": spin_lo.value(), "max": None if hi < 0 else max(hi, spin_lo.value())}}
                )

            spin_lo.editingFinished.connect(faces_changed)
            spin_hi.editingFinished.connect(faces_changed)
            lay.addWidget(spin_lo)
            lay.addWidget(QLabel("…", self))
            lay.addWidget(spin_hi)
        else:  # an or-group or nested node: shown as text, editable as JSON
            label = QLabel(describe(inner), self)
            label.setToolTip("Edit as JSON with the { } button")
            lay.addWidget(label)
        if self.editor is not None:
            lay.addWidget(self.editor)
        self.need: QToolButton | None = None
        if soft is not None:
            self.need = QToolButton(self)
            self.need.setObjectName("ChipSoft")
            self.need.setCheckable(True)
            self.need.setChecked(not soft)
            self.need.setText("soft" if soft else "required")
            self.need.setToolTip(
                "Soft: photos without this still show, after the full matches, marked partial. "
                "Click to make it required."
            )
            self.need.toggled.connect(lambda on: self.required_changed.emit(self.index, on))
            lay.addWidget(self.need)
        remove = QToolButton(self)
        remove.setObjectName("ChipRemove")
        remove.setText("×")
        remove.setToolTip("Remove this condition")
        remove.clicked.connect(lambda: self.changed.emit(self.index, None))
        lay.addWidget(remove)

    def node(self) -> dict:
        return {"not": self.inner} if self.excluded else self.inner

    def _emit(self, inner: dict) -> None:
        self.inner = inner
        self.changed.emit(self.index, self.node())

    def _toggled(self, checked: bool) -> None:
        self.excluded = not checked
        self.changed.emit(self.index, self.node())

    def _set_string(self, text: str) -> None:
        text = " ".join(text.split())
        if self.key == "person":  # "someone you named" is the plan's "*"
            text = next((v for v, words in PERSON_WORDS.items() if words == text), text)
        if not text:
            self.changed.emit(self.index, None)
        elif text != self.inner.get(self.key):
            self._emit({self.key: text})

    def _set_in_words(self, edit: QLineEdit) -> None:
        """A setting or size typed in words; words that say none (or another kind) put the chip's back."""
        say, read_words, _tip = WORDS_EDITED[self.key]
        read = read_words(edit.text())
        if read is None or self.key not in read:
            edit.setText(say(self.inner[self.key]))
        elif read != {self.key: self.inner[self.key]}:
            self._emit(read)

    def _pick_named(self, text: str) -> None:
        choices, _say = NAMED_CHOICES[self.key]
        if text in choices:
            self._emit({self.key: choices[text]})

    def _set_dates(self) -> None:
        lo = self.date_from.date().toString("yyyy-MM-dd")
        hi = self.date_to.date().toString("yyyy-MM-dd")
        if lo > hi:
            lo, hi = hi, lo
        if {"from": lo, "to": hi} != self.inner[self.key]:
            self._emit({self.key: {"from": lo, "to": hi}})

    # test helpers (also used by keyboard users through the editor widgets)
    def set_value(self, text: str) -> None:
        if isinstance(self.editor, QComboBox):
            self.editor.setCurrentText(text)
        elif isinstance(self.editor, QLineEdit):
            self.editor.setText(text)
        self._set_string(text)


class PlanChips(QWidget):
    """Shows a plan; emits `plan_edited(plan)` after each edit and `save_example()` on request."""

    plan_edited = Signal(dict)
    save_example = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plan: dict | None = None
        self.people: list[str] = []
        self.chips: list[Chip] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(4)
        self.flow_host = QWidget(self)
        self.flow = FlowLayout(self.flow_host, spacing=6)
        outer.addWidget(self.flow_host)
        # the controls wrap onto a second line in a narrow window (usable at 800 px wide)
        self.controls_host = QWidget(self)
        row = FlowLayout(self.controls_host, spacing=8)
        self.limit = QSpinBox(self)
        self.limit.setRange(0, 100000)
        self.limit.setSpecialValueText("all")
        self.limit.setPrefix("top ")
        self.sort = QComboBox(self)
        for label, value in SORT_CHOICES:
            self.sort.addItem(label, value)
        self.per = QComboBox(self)
        for label, value in PER_CHOICES:
            self.per.addItem(label, value)
        self.per.setToolTip("Cover the results: at most one photo per …")
        self.diverse = QCheckBox("diverse", self)
        self.nodup = QCheckBox("no near-duplicates", self)
        for w, label in ((self.limit, None), (self.sort, "Sort"), (self.per, "One per")):
            row.addWidget(_labelled(label, w, self.controls_host) if label else w)
        row.addWidget(self.diverse)
        row.addWidget(self.nodup)
        self.add_btn = QPushButton("+ Condition", self)
        self.add_btn.setMenu(self._add_menu())
        self.json_btn = QPushButton("{ } JSON", self)
        self.json_btn.setToolTip("Edit the plan as JSON")
        self.json_btn.clicked.connect(self.edit_json)
        self.save_btn = QPushButton("Save as example", self)
        self.save_btn.setToolTip(
            "Add this request and plan to your golden library: future searches learn from it"
        )
        self.save_btn.clicked.connect(self.save_example.emit)
        for b in (self.add_btn, self.json_btn, self.save_btn):
            row.addWidget(b)
        outer.addWidget(self.controls_host)
        self.limit.editingFinished.connect(self._compose_changed)
        self.sort.activated.connect(lambda _i: self._compose_changed())
        self.per.activated.connect(lambda _i: self._compose_changed())
        self.diverse.toggled.connect(lambda _b: self._compose_changed())
        self.nodup.toggled.connect(lambda _b: self._compose_changed())
        self.set_plan(None)

    def _add_menu(self) -> QMenu:
        menu = QMenu(self)
        today = date.today().isoformat()
        templates = {
            "Concept": {"concept": "dog"},
            "Person": {"person": "name"},
            "Place": {"place": "Paris"},
            "Date range": {"date": {"from": f"{date.today().year}-01-01", "to": today}},
            "Added to the library": {"added": {"from": today, "to": today}},
            "Time of day": {"hour": hours_of("morning")},
            "Day of the week": {"weekday": WEEKEND},
            "Month or season": {"month": SEASON_MONTHS["summer"]},
            "Text in photo": {"text": "word"},
            "Camera": {"camera": "Pixel"},
            "Lens": {"lens": "macro"},
            "Folder": {"folder": "Trips"},
            "File name": {"file": "IMG_"},
            "Colour label": {"label": "Red"},
            "Star rating": {"rating": {"min": 4, "max": None}},
            "Camera setting": {"setting": {"of": "aperture", "min": None, "max": 2.8}},
            "Size": {"size": {"of": "megapixels", "min": 12, "max": None}},
            "Edited in": {"editor": ANY_EDITOR},
            "Kind: screenshot": {"kind": "screenshot"},
            "Exclude blurry": {"not": {"quality": "blurry"}},
            "Number of people": {"faces": {"min": 1, "max": None}},
        }
        for label, node in templates.items():
            menu.addAction(label, lambda n=node: self.add_condition(n))
        return menu

    def set_people(self, names: list[str]) -> None:
        self.people = list(names)

    def set_plan(self, plan: dict | None) -> None:
        self.plan = copy.deepcopy(plan) if plan else None
        for chip in self.chips:
            self.flow.removeWidget(chip)
            chip.deleteLater()
        self.chips = []
        enabled = plan is not None
        for w in (
            self.limit,
            self.sort,
            self.per,
            self.diverse,
            self.nodup,
            self.add_btn,
            self.json_btn,
            self.save_btn,
        ):
            w.setEnabled(enabled)
        if plan is None:
            return
        for i, node in enumerate(conjuncts(plan)):
            if node == {"and": []}:
                continue
            chip = Chip(i, node, self.people, self.flow_host, soft=soft_state(plan, node))
            chip.changed.connect(self._chip_changed)
            chip.required_changed.connect(self._required_changed)
            self.flow.addWidget(chip)
            self.chips.append(chip)
        comp = plan.get("compose") or {}
        blockers = [w.blockSignals(True) for w in (self.limit, self.sort, self.per, self.diverse, self.nodup)]
        self.limit.setValue(int(comp.get("limit") or 0))
        self.sort.setCurrentIndex(max(0, self.sort.findData(comp.get("sort") or "relevance")))
        self.per.setCurrentIndex(max(0, self.per.findData(comp.get("per"))))
        self.diverse.setChecked(bool(comp.get("diverse")))
        self.nodup.setChecked(bool(comp.get("exclude_near_duplicates")))
        for w in (self.limit, self.sort, self.per, self.diverse, self.nodup):
            w.blockSignals(False)
        del blockers
        self.flow_host.updateGeometry()

    def _publish(self, plan: dict) -> None:
        from photosearch.query.plan import PlanError, validate_plan

        try:
            plan = validate_plan(plan)
        except PlanError as exc:
            self.setToolTip(str(exc))
            self.set_plan(self.plan)
            return
        self.set_plan(plan)
        self.plan_edited.emit(plan)

    def _chip_changed(self, index: int, node) -> None:
        if self.plan is None:
            return
        items = conjuncts(self.plan)
        if node is None:
            items.pop(index)
        else:
            items[index] = node
        self._publish(with_conjuncts(self.plan, items or [{"and": []}]))

    def _required_changed(self, index: int, required: bool) -> None:
        if self.plan is None:
            return
        value = " ".join(str(conjuncts(self.plan)[index]["concept"]).split())
        current = [r for r in self.plan.get("required") or [] if r.lower() != value.lower()]
        plan = copy.deepcopy(self.plan)
        plan["required"] = current + ([value] if required else [])
        self._publish(plan)

    def add_condition(self, node: dict) -> None:
        if self.plan is None:
            return
        items = [n for n in conjuncts(self.plan) if n != {"and": []}] + [node]
        self._publish(with_conjuncts(self.plan, items))

    def _compose_changed(self) -> None:
        if self.plan is None:
            return
        plan = copy.deepcopy(self.plan)
        plan["compose"] = {
            "limit": self.limit.value() or None,
            "sort": self.sort.currentData(),
            "per": self.per.currentData(),
            "diverse": self.diverse.isChecked(),
            "exclude_near_duplicates": self.nodup.isChecked(),
        }
        if plan["compose"] != (self.plan.get("compose") or {}):
            self._publish(plan)

    def edit_json(self) -> None:
        if self.plan is None:
            return
        dlg = QDialog(self)
        dlg.setWindowTitle("Edit plan")
        lay = QVBoxLayout(dlg)
        edit = QPlainTextEdit(dumps_plan(self.plan, indent=2), dlg)
        edit.setMinimumSize(520, 360)
        lay.addWidget(edit)
        err = QLabel("", dlg)
        err.setStyleSheet("color: #c0392b")
        err.setWordWrap(True)
        lay.addWidget(err)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, dlg
        )
        lay.addWidget(buttons)

        def accept():
            from photosearch.query.plan import PlanError, validate_plan

            try:
                plan = validate_plan(edit.toPlainText())
            except PlanError as exc:
                err.setText(str(exc))
                return
            dlg.accept()
            self.set_plan(plan)
            self.plan_edited.emit(plan)

        buttons.accepted.connect(accept)
        buttons.rejected.connect(dlg.reject)
        dlg.setWindowModality(Qt.WindowModality.WindowModal)
        dlg.open()
        self._json_dialog = dlg
