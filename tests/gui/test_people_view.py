"""People view: loads that finish out of order never overwrite a newer list."""

from __future__ import annotations

import threading


class GatedCore:
    """The real `Core`, with `thumb_path` held on a gate: a load can be made to finish late."""

    def __init__(self, core):
        self._core = core
        self.gate = threading.Event()
        self.gate.set()
        self.blocked = threading.Event()

    def __getattr__(self, name):
        return getattr(self._core, name)

    def thumb_path(self, photo_id: int):
        if not self.gate.is_set():
            self.blocked.set()
            self.gate.wait(10)
        return self._core.thumb_path(photo_id)


def _one_person(core) -> int:
    from photosearch.catalog.models import Face, Person

    with core.store.session() as s:
        person = Person()
        s.add(person)
        s.flush()
        for face in s.query(Face).all():
            face.person_id = person.id
        return person.id


def _view(qtbot, core):
    from photosearch.gui.bridge import TaskRunner
    from photosearch.gui.people_view import PeopleView

    runner, errors = TaskRunner(), []
    view = PeopleView(GatedCore(core), runner, errors.append)
    qtbot.addWidget(view)
    return view, runner, errors


def test_stale_load_after_hide_is_dropped(qtbot, indexed):
    from photosearch.people import list_people

    core, _ids = indexed
    pid = _one_person(core)
    view, runner, errors = _view(qtbot, core)
    try:
        view.refresh()
        qtbot.waitUntil(lambda: view.list.count() == 1, timeout=20000)
        view.list.setCurrentRow(0)
        qtbot.waitUntil(lambda: not runner.tasks, timeout=20000)

        # a load that read the people before the hide, and delivers after the reload the hide starts
        view.core.gate.clear()
        view.refresh()
        qtbot.waitUntil(view.core.blocked.is_set, timeout=20000)
        view.toggle_hidden()
        qtbot.waitUntil(lambda: list_people(core.store, include_hidden=True)[0].hidden, timeout=20000)
        qtbot.waitUntil(lambda: len(runner.tasks) == 1, timeout=20000)  # only the held load is left
        view.core.gate.set()
        qtbot.waitUntil(lambda: not runner.tasks, timeout=20000)
        qtbot.wait(20)
        assert view.list.count() == 0, "the stale list (from before the hide) must not come back"
        assert view.people == []
        assert not errors
        assert list_people(core.store, include_hidden=True)[0].id == pid
    finally:
        view.core.gate.set()
        runner.shutdown(5000)


def test_failed_action_is_reported_and_view_reloads(qtbot, indexed):
    from photosearch.catalog.models import Person

    core, _ids = indexed
    _one_person(core)
    view, runner, errors = _view(qtbot, core)
    try:
        view.refresh()
        qtbot.waitUntil(lambda: view.list.count() == 1, timeout=20000)
        view.list.setCurrentRow(0)
        qtbot.waitUntil(lambda: not runner.tasks, timeout=20000)
        with core.store.session() as s:  # someone else removes the person meanwhile
            s.query(Person).delete()
        view.toggle_hidden()
        qtbot.waitUntil(lambda: bool(errors), timeout=20000)
        assert [e.title for e in errors] == ["Hiding people failed"]
        assert "no person" in errors[0].message
        qtbot.waitUntil(lambda: view.list.count() == 0, timeout=20000)
    finally:
        runner.shutdown(5000)
