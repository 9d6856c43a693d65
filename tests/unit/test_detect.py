"""Type from content, never from the name alone."""

from __future__ import annotations

import io
import zipfile

import pytest

from donecheck.parsers.detect import detect
from tests.support import samples as s


@pytest.mark.parametrize(
    ("kind", "mime"),
    [
        ("pdf", "application/pdf"),
        ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
        ("png", "image/png"),
        ("jpeg", "image/jpeg"),
        ("html", "text/html"),
        ("epub", "application/epub+zip"),
        ("csv", "text/csv"),
        ("json", "application/json"),
        ("ipynb", "application/x-ipynb+json"),
        ("eml", "message/rfc822"),
        ("zip", "application/zip"),
        ("tar.gz", "application/gzip"),
    ],
)
def test_detected_from_content_even_when_misnamed(kind: str, mime: str) -> None:
    sample = s.sample(kind, seed=1)
    assert detect(sample.data, sample.name).mime == mime
    assert not detect(sample.data, sample.name).mismatch
    misnamed = detect(sample.data, "attachment.bin")
    assert misnamed.mime == mime or (kind == "csv" and misnamed.mime == "text/plain")


def test_csv_needs_a_consistent_table_not_just_a_name() -> None:
    assert detect(b"just a sentence, with a comma\n", "data.csv").mime == "text/plain"
    assert detect(b"a,b\n1,2\n3,4\n", "data.csv").mime == "text/csv"


def test_ooxml_is_told_from_zip_by_members() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("docProps/app.xml", "<x/>")
    detection = detect(buffer.getvalue(), "fake.xlsx")
    assert detection.mime == "application/zip"
    assert detection.mismatch
    assert any("without a document" in n for n in detection.notes)
