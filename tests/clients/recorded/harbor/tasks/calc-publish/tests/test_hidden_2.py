from pathlib import Path


def test_published():
    assert Path("published.txt").is_file(), "not published"
