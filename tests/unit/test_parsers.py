"""Each format's content comes out, with the structure the issue asks for."""

from __future__ import annotations

import pytest

from donecheck.actors.config import Config
from donecheck.actors.messages import ParseRequest
from donecheck.actors.parser import AttachmentParser
from donecheck.parsers import RECIPE_VERSION, ParseLimits, parse_bytes
from donecheck.parsers.material import sha256_ref
from donecheck.parsers.ocr import ocr_available
from donecheck.parsers.office import soffice
from tests.support import samples as s

needs_ocr = pytest.mark.skipif(
    not ocr_available(), reason="Tesseract is not installed here (.ci/run installs it)"
)


def text_of(material) -> str:
    return "\n".join(b.text for b in material.blocks)


@pytest.mark.parametrize("kind", sorted(set(s.SAMPLES) - {"png", "jpeg"}))
def test_every_format_recovers_all_its_text(kind: str) -> None:
    sample = s.sample(kind, seed=7)
    material = parse_bytes(sample.data, sample.name)
    assert material.status == "parsed", material.reason
    assert s.recovered(sample.phrases, text_of(material)) == 1.0
    assert material.recipe_version == RECIPE_VERSION
    ids = [b.source_id for b in material.blocks]
    assert len(set(ids)) == len(ids)
    assert all(b.source_id == f"{material.sha256[7:19]}#{b.index}" for b in material.blocks)
    assert [b.index for b in material.blocks] == list(range(len(material.blocks)))


def test_pdf_pages_headings_tables_previews() -> None:
    sample = s.pdf(seed=1, pages=4)
    material = parse_bytes(sample.data, sample.name)
    assert material.stats["pages"] == 4
    headings = [b for b in material.blocks if b.kind == "heading"]
    assert [(h.page, h.level) for h in headings] == [(1, 1), (2, 1), (3, 1), (4, 1)]
    (table,) = [b for b in material.blocks if b.kind == "table"]
    assert table.rows is not None and len(table.rows) == 4 and table.text.startswith("| Item |")
    assert [p.page for p in material.previews] == [1, 2]  # preview_pages = 2
    assert all(p.role == "preview" and max(p.width, p.height) <= 1568 for p in material.previews)
    assert all(
        p.media_type == "image/jpeg" and p.data[:3] == b"\xff\xd8\xff" for p in material.previews
    )
    assert all(b.page for b in material.blocks)


def test_docx_headings_lists_tables_in_order() -> None:
    material = parse_bytes(s.docx(seed=2).data, "p.docx")
    kinds = [(b.kind, b.level) for b in material.blocks]
    assert kinds[0] == ("heading", 1) and kinds[1] == ("heading", 2)
    assert kinds[-1] == ("table", None)
    assert "- Checklist item 1" in text_of(material)


def test_xlsx_sheets_and_cell_bounds() -> None:
    material = parse_bytes(s.xlsx(seed=3, rows=120).data, "b.xlsx")
    sheets = {b.sheet for b in material.blocks}
    assert sheets == {"Budget", "Notes"}
    bounds = [b.text.splitlines()[0] for b in material.blocks if b.kind == "table"]
    assert bounds[:3] == ["Budget!A1:D50", "Budget!A51:D100", "Budget!A101:D121"]
    # the header row is repeated on every block of a sheet
    assert all(
        "| Item | Owner | Amount | Status |" in b.text
        for b in material.blocks
        if b.kind == "table" and b.sheet == "Budget"
    )


def test_pptx_slides_titles_notes() -> None:
    material = parse_bytes(s.pptx(seed=4, slides=2).data, "d.pptx")
    titles = [b for b in material.blocks if b.kind == "heading"]
    assert [t.slide for t in titles] == [1, 2]
    assert titles[0].text.startswith("Slide 1:")
    notes = [b for b in material.blocks if b.text.startswith("Notes: ")]
    assert [n.slide for n in notes] == [1, 2]


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF", "WEBP", "TIFF", "BMP"])
def test_images_have_facts_and_a_bounded_reference_preview(fmt: str) -> None:
    sample = s.image(seed=5, fmt=fmt, text=False)
    material = parse_bytes(
        sample.data, sample.name, limits=ParseLimits(preview_long_side=300, ocr=False)
    )
    assert material.status == "parsed", material.reason
    assert material.blocks[0].kind == "image" and "900×300 pixels" in material.blocks[0].text
    (preview,) = material.previews
    assert preview.role == "reference" and (preview.width, preview.height) == (300, 100)
    assert "OCR is turned off" in material.warnings[0]


def test_exif_orientation_is_reported_and_applied() -> None:
    import io

    from PIL import Image

    picture = Image.new("RGB", (400, 100), "white")
    exif = picture.getexif()
    exif[274] = 6  # rotated 90° clockwise
    buffer = io.BytesIO()
    picture.save(buffer, "JPEG", exif=exif)
    material = parse_bytes(buffer.getvalue(), "photo.jpg", limits=ParseLimits(ocr=False))
    assert "EXIF orientation: rotated 90° clockwise" in material.blocks[0].text
    assert (material.previews[0].width, material.previews[0].height) == (100, 400)


@needs_ocr
def test_ocr_reads_text_in_images() -> None:
    sample = s.image(seed=6)
    material = parse_bytes(sample.data, sample.name)
    assert "OCR text (machine-read; may contain errors):" in text_of(material)
    assert s.recovered(sample.phrases, text_of(material)) == 1.0


def test_missing_ocr_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    import donecheck.parsers.image as image

    monkeypatch.setattr(image, "ocr_available", lambda: False)
    material = parse_bytes(s.image(seed=6).data, "shot.png")
    assert material.status == "parsed"
    assert any("Tesseract is not installed" in w for w in material.warnings)
    assert "OCR text" not in text_of(material)


def test_html_is_readable_text_not_markup() -> None:
    material = parse_bytes(s.html(seed=8).data, "status.html")
    text = text_of(material)
    assert "<p>" not in text and "var secret" not in text and "color:red" not in text
    assert "the tracker <https://example.com/8>" in text
    assert any(b.kind == "heading" and b.level == 1 for b in material.blocks)
    assert any(b.kind == "table" and b.rows for b in material.blocks)


def test_csv_shift_jis_and_tsv() -> None:
    sjis = s.csv_file(seed=9, encoding="shift_jis")
    material = parse_bytes(sjis.data, sjis.name)
    assert material.detected_type == "text/csv"
    assert any("shift_jis" in w.lower() or "cp932" in w.lower() for w in material.warnings)
    assert s.recovered(sjis.phrases, text_of(material)) == 1.0
    tsv = s.csv_file(seed=9, delimiter="\t")
    material = parse_bytes(tsv.data, tsv.name)
    assert material.detected_type == "text/tab-separated-values"
    assert "tab-separated" in material.blocks[0].text


def test_json_invalid_is_failed_with_position() -> None:
    material = parse_bytes(b'{"a": 1,\n "b": }', "x.json")
    assert material.status == "failed"
    assert "invalid JSON" in material.reason and "line 2" in material.reason


def test_notebook_cells_and_outputs() -> None:
    material = parse_bytes(s.notebook(seed=10).data, "a.ipynb")
    assert material.detected_type == "application/x-ipynb+json"
    text = text_of(material)
    assert "In [1] (python, cell 2):" in text and "Output of cell 2:\n45" in text


def test_email_headers_body_attachments() -> None:
    material = parse_bytes(s.eml(seed=11).data, "t.eml")
    assert material.blocks[0].text.startswith("From: Dana <dana@example.com>")
    assert any("note.txt" in b.text for b in material.blocks if b.kind == "table")
    assert any(
        b.text.startswith("Attachment note.txt (text/plain, parsed)") for b in material.blocks
    )


def test_text_encodings_and_binary() -> None:
    utf16 = "naïve café\n".encode("utf-16")
    assert parse_bytes(utf16, "a.txt").blocks[0].text == "    1 | naïve café"
    latin = "Grüße aus Köln, schöne Grüße und bis bald in Düsseldorf\n".encode("cp1252")
    material = parse_bytes(latin, "b.txt")
    assert material.status == "parsed" and "Köln" in text_of(material)
    binary = parse_bytes(bytes(range(256)) * 10, "blob.txt")
    assert binary.status in {"unparsed", "failed"}
    assert binary.blocks == ()


def test_rtf_without_libreoffice_is_unparsed_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import donecheck.parsers.office as office

    monkeypatch.setattr(office, "soffice", lambda: None)
    material = parse_bytes(b"{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Times;}} Hello RTF}", "a.rtf")
    assert material.status == "unparsed"
    assert "needs LibreOffice (soffice), which is not installed" in material.reason


@pytest.mark.skipif(
    soffice() is None,
    reason="LibreOffice (soffice) is not installed; legacy files are then unparsed (tested above)",
)
def test_rtf_with_libreoffice_is_converted() -> None:
    material = parse_bytes(b"{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Times;}} Hello RTF}", "a.rtf")
    assert material.status == "parsed" and "Hello RTF" in text_of(material)


def test_unknown_type_is_unparsed_with_its_type() -> None:
    material = parse_bytes(b"\x7fELF\x02\x01\x01" + b"\x00" * 120, "tool")
    assert material.status == "unparsed"
    assert material.reason.startswith("no parser for application/")


def test_parser_actor_caches_by_content_and_recipe() -> None:
    parser = AttachmentParser(config=Config(parse_timeout_s=30))
    try:
        sample = s.text_file(seed=12)
        request = ParseRequest(
            sha256=sha256_ref(sample.data),
            declared_name="a.md",
            size=len(sample.data),
        )
        first = parser.parse(request, sample.data)
        renamed = ParseRequest(sha256=request.sha256, declared_name="b.md", size=request.size)
        second = parser.parse(renamed, sample.data)
        assert second.declared_name == "b.md" and second.blocks == first.blocks
        stats = parser.statistics()
        assert stats["parsed"] == 1 and stats["cache_hits"] == 1
        # a request whose bytes do not match its address is refused, not cached
        wrong = ParseRequest(sha256="sha256:" + "0" * 64, declared_name="c.md", size=3)
        assert "does not match its address" in parser.parse(wrong, b"abc").reason
        assert parser.cached("sha256:" + "0" * 64) is None
    finally:
        parser.close()


def test_svg_text_source_and_preview() -> None:
    svg = (
        b'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80">'
        b"<title>Build status</title><text x='10' y='40'>build: passing</text></svg>"
    )
    material = parse_bytes(svg, "badge.svg")
    assert material.status == "parsed"
    assert material.blocks[0].text == "SVG image titled 'Build status'"
    assert "Text in the image:\nbuild: passing" in text_of(material)
    (preview,) = material.previews
    assert preview.media_type == "image/png" and preview.role == "reference"
    broken = parse_bytes(b"<svg xmlns='http://www.w3.org/2000/svg'><text>", "bad.svg")
    assert broken.status == "failed" and "not well-formed" in broken.reason


def test_a_document_without_text_says_so() -> None:
    import io

    from docx import Document

    buffer = io.BytesIO()
    Document().save(buffer)
    material = parse_bytes(buffer.getvalue(), "blank.docx")
    assert material.status == "parsed" and material.blocks == ()
    assert "no text or other content was found in it" in material.warnings


def test_an_ole_file_that_is_no_message_is_failed_with_the_reason() -> None:
    from donecheck.parsers.base import ParseContext
    from donecheck.parsers.detect import Detection
    from donecheck.parsers.mail import MSG, MailParser

    detection = Detection(
        mime=MSG,
        description="CDFV2 Microsoft Outlook Message",
        declared_name="thread.msg",
        declared_mime=MSG,
    )
    material = MailParser().parse(
        b"\xd0\xcf\x11\xe0" + b"\0" * 508,
        ParseContext(sha256="sha256:" + "1" * 64, detection=detection, limits=ParseLimits()),
    )
    assert material.status == "failed"
    assert material.reason.startswith(("damaged", "truncated", "not an Outlook message"))


def test_a_new_recipe_version_misses_the_old_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    import donecheck.actors.parser as parser_module

    parser = AttachmentParser(config=Config(parse_timeout_s=30))
    try:
        data = b"cached under one recipe\n"
        request = ParseRequest(sha256=sha256_ref(data), declared_name="a.txt", size=len(data))
        parser.parse(request, data)
        assert parser.cached(request.sha256) is not None
        monkeypatch.setattr(parser_module, "_recipe", lambda: "next-recipe")
        assert parser.cached(request.sha256) is None
        parser.parse(request, data)
        assert parser.statistics()["parsed"] == 2
    finally:
        parser.close()
