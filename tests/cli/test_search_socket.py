"""`photosearch search` asks a running watch/app over the data folder's socket, or searches itself.

Real parts throughout: a catalog indexed by the bundled tagger, the CLI in its own process, a
`SearchServer` around a real `Core` (in this process, so a test can count what it answered), and
`photosearch watch` as a person runs it."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from photosearch.config import Settings
from photosearch.core import Core
from photosearch.search_socket import client
from photosearch.search_socket.protocol import PROTOCOL, recv_message, send_message, socket_path
from photosearch.search_socket.server import SearchServer
from tests.conftest import run_cli, save_photo

pytestmark = pytest.mark.skipif(not hasattr(socket, "SO_PEERCRED"), reason="Linux peer credentials")

REQUESTS = (["cat"], ["photos", "from", "2019"], ["--explain", "coffee", "or", "astronaut"])


@pytest.fixture(scope="module")
def catalog(tmp_path_factory, real_photos) -> Path:
    """A data folder whose catalog holds five real photos tagged by the bundled tagger."""
    from datetime import datetime

    root = tmp_path_factory.mktemp("socket")
    gallery = root / "Pictures"
    save_photo(gallery / "chelsea.jpg", real_photos["chelsea"], taken_at=datetime(2023, 7, 14, 10, 0))
    save_photo(gallery / "coffee.jpg", real_photos["coffee"], taken_at=datetime(2021, 3, 2, 8, 30))
    save_photo(gallery / "china.jpg", real_photos["china"], taken_at=datetime(2019, 5, 1, 12, 0))
    save_photo(gallery / "astronaut.jpg", real_photos["astronaut"])
    save_photo(gallery / "grace.jpg", real_photos["grace_hopper"])
    data = root / "data"
    run_cli(data, "add", str(gallery))
    run_cli(data, "index", "--analyzers", "tagger")
    return data


@pytest.fixture
def server(catalog):
    core = Core(Settings.load(catalog))
    with SearchServer(core) as srv:
        assert srv.serving
        yield srv
    core.store.close()


def _without_timing(output: str) -> dict:
    """The JSON a search printed, less what the clock decides (timing_ms, the composer's solve_ms, the
    ms of each atom with --explain)."""
    data = json.loads(output)
    data.pop("timing_ms")
    data["composer"].pop("solve_ms", None)
    for atom in data["explain"].get("atoms", []):
        atom.pop("ms", None)
    return data


def _without_ms(text: str) -> str:
    """The text a search printed, less its closing '... in N ms' figure."""
    return "\n".join(line.split(" in ")[0] if " ms (composer" in line else line for line in text.splitlines())


def test_json_and_text_are_the_same_whether_served_or_not(catalog, real_photos):
    """Each request answered by the server, then by the CLI itself: the same JSON, the same text."""
    core = Core(Settings.load(catalog))
    served_json, served_text = [], []
    with SearchServer(core) as srv:
        for words in REQUESTS:
            served_json.append(run_cli(catalog, "search", "--json", *words).stdout)
            served_text.append(run_cli(catalog, "search", *words).stdout)
        assert srv.answered == 2 * len(REQUESTS)
    core.store.close()
    assert not socket_path(Settings.load(catalog)).exists()  # stop() removed its socket
    for words, as_json, as_text in zip(REQUESTS, served_json, served_text, strict=True):
        mine = run_cli(catalog, "search", "--json", *words).stdout
        assert _without_timing(as_json) == _without_timing(mine), words
        assert _without_ms(as_text) == _without_ms(run_cli(catalog, "search", *words).stdout), words
    assert json.loads(served_json[0])["results"], "the served search found the cat"


def test_the_socket_is_private_to_its_owner(catalog, server):
    path = socket_path(server.settings)
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.lstat(path.parent).st_mode) == 0o700
    assert client.ask(server.settings, "ping")["result"]["pid"] == os.getpid()


@pytest.mark.skipif(os.geteuid() != 0, reason="connecting as another user needs root")
def test_another_user_is_refused_by_the_peer_check():
    """With the folder and socket opened to everyone, SO_PEERCRED still keeps another uid out."""
    shared = Path(tempfile.mkdtemp(prefix="ps-socket-"))  # outside pytest's 0700 folder
    try:
        os.chmod(shared, 0o755)
        core = Core(Settings(data_dir=shared / "data"))  # an empty catalog: a ping needs no photos
        with SearchServer(core):
            path = socket_path(core.settings)
            os.chmod(shared / "data", 0o755)
            os.chmod(path.parent, 0o755)
            os.chmod(path, 0o666)
            assert _reply_to_another_user(path) == b""  # it could connect, and was closed unanswered
            os.chmod(path.parent, 0o700)
            assert client.ask(core.settings, "ping") is not None  # its owner is answered
        core.store.close()
    finally:
        shutil.rmtree(shared)


def _reply_to_another_user(path: Path, uid: int = 65534) -> bytes:
    """What a process of `uid` reads after pinging the socket, b"" when closed unanswered (forked: it
    needs no program it may run)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: become the other user, ping, report, leave without cleanup
        try:
            os.setgid(uid)
            os.setuid(uid)
            with socket.socket(socket.AF_UNIX) as sock:
                sock.settimeout(10)
                sock.connect(str(path))
                try:
                    send_message(sock, {"protocol": PROTOCOL, "op": "ping"})
                    os.write(write_end, b"R" + sock.recv(100))
                except (BrokenPipeError, ConnectionResetError):  # closed before or with the request unread
                    os.write(write_end, b"R")
        except BaseException as exc:
            os.write(write_end, b"E" + repr(exc).encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        said = pipe.read()
    os.waitpid(pid, 0)
    assert said[:1] == b"R", said
    return said[1:]


def test_a_socket_of_another_user_is_not_used(tmp_path):
    settings = Settings(data_dir=tmp_path / "data")
    path = socket_path(settings)
    path.parent.mkdir(parents=True, mode=0o700)
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))
        listener.listen()
        if os.geteuid() == 0:
            os.chown(path, 65534, 65534)
            assert client.ask(settings, "ping") is None  # never connected: nothing to accept
        os.chmod(path.parent, 0o755)  # a folder others may enter: not used either
        assert client.ask(settings, "ping") is None


def test_a_stale_socket_is_removed_by_the_client_and_replaced_by_a_server(catalog, tmp_path):
    settings = Settings.load(catalog)
    path = socket_path(settings)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    with socket.socket(socket.AF_UNIX) as dead:  # a server that died without cleaning up
        dead.bind(str(path))
    assert path.exists()
    assert client.ask(settings, "ping") is None
    assert not path.exists()  # nobody held the lock: the client removed it

    with socket.socket(socket.AF_UNIX) as dead:
        dead.bind(str(path))
    core = Core(settings)
    with SearchServer(core) as srv:
        assert srv.serving  # the stale file did not stop it
        assert client.ask(settings, "ping")["result"]["pid"] == os.getpid()
    core.store.close()


def test_one_server_per_data_folder(catalog, server):
    core = Core(Settings.load(catalog))
    second = SearchServer(core)
    assert not second.start()
    second.stop()  # stopping the one that never served leaves the first one's socket alone
    assert client.ask(server.settings, "ping") is not None
    core.store.close()


def test_other_settings_or_protocol_fall_back_to_the_same_answer(catalog, server):
    """A client whose settings differ is not answered; the CLI then searches by itself."""
    here = run_cli(catalog, "search", "--json", "cat", env={"PHOTOSEARCH_THREADS": "1"}).stdout
    assert server.answered == 0
    served = run_cli(catalog, "search", "--json", "cat").stdout
    assert server.answered == 1
    assert _without_timing(here) == _without_timing(served)

    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(str(socket_path(server.settings)))
        send_message(sock, {"protocol": PROTOCOL + 1, "op": "ping"})
        reply = recv_message(sock)
    assert reply["ok"] is False and "protocol" in reply["reason"]


def test_a_server_that_does_not_answer_in_time_is_left(catalog, tmp_path):
    settings = Settings.load(catalog)
    path = socket_path(settings)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    with socket.socket(socket.AF_UNIX) as mute:
        mute.bind(str(path))
        mute.listen()
        t0 = time.monotonic()
        found = client.served_search(settings, "cat", None, 5, explain=False, now=None, reply_timeout_s=0.5)
        assert found is None
        assert time.monotonic() - t0 < 5
    os.unlink(path)


def test_watch_serves_searches_and_removes_its_socket(catalog):
    env = {k: v for k, v in os.environ.items() if k not in ("PHOTOSEARCH_DB_URL", "PHOTOSEARCH_DATA_DIR")}
    cmd = [sys.executable, "-m", "photosearch", "--data-dir", str(catalog), "watch", "--no-initial-index"]
    watch = subprocess.Popen([*cmd, "--duration", "60"], stderr=subprocess.PIPE, text=True, env=env)
    path = socket_path(Settings.load(catalog))
    try:
        deadline = time.monotonic() + 60
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        found = run_cli(catalog, "-vv", "search", "--json", "cat")
        assert "search answered by the process serving" in found.stderr
        assert json.loads(found.stdout)["results"]
    finally:
        watch.send_signal(2)  # Ctrl-C
        _, err = watch.communicate(timeout=60)
    assert watch.returncode == 0, err
    assert not path.exists()


def test_stop_waits_for_a_warm_up_still_loading(catalog):
    """`photosearch watch --duration N` exited while the warm-up thread was inside a model runtime
    ("terminate called without an active exception", exit -6): stop() now waits for it."""
    import threading

    core = Core(Settings.load(catalog))
    started, finished = threading.Event(), threading.Event()

    def slow_warm_up() -> float:
        started.set()
        time.sleep(2.0)  # loading models
        finished.set()
        return 2.0

    core.warm_up = slow_warm_up
    srv = SearchServer(core, warm_up=True)
    assert srv.start()
    assert started.wait(timeout=10)
    srv.stop()
    assert finished.is_set() and not srv.serving
    core.store.close()
