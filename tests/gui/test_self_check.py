"""`photosearch-gui --check`: what packagers run on a built bundle to see every model loads."""

from photosearch.gui.app import EXPECTED_ANALYZERS, main


def test_check_reports_every_bundled_analyzer(tmp_path, capsys):
    assert main(["--check", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("analyzers: ")
    assert all(name in out for name in EXPECTED_ANALYZERS)
