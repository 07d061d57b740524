"""The blur check reports sharp photos called blurry and blurred copies called sharp, per folder."""

from __future__ import annotations

from PIL import Image

from photosearch.evaluate.blur_check import main, measure


def test_blur_check_counts_both_errors(tmp_path, real_photos, capsys):
    for name in ("chelsea", "coffee", "astronaut"):
        Image.fromarray(real_photos[name]).save(tmp_path / f"{name}.jpg", quality=92)
    (tmp_path / "notes.txt").write_text("not a photo")
    photos, copies = measure(tmp_path)
    assert [name for name, _ in photos] == ["astronaut.jpg", "chelsea.jpg", "coffee.jpg"]
    assert len(copies) == 6 and max(copies) < min(score for _, score in photos)
    assert main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "3 sharp photos, 6 blurred copies; sharp called blurry 0.000, blurred called sharp 0.000" in out
