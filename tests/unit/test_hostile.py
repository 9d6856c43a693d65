"""The hostile set: every file ends in the right status and reason, within its limits."""

from __future__ import annotations

import io
import struct
import time
import zipfile
import zlib

import pymupdf
import pytest

from donecheck.parsers import ParseLimits, parse_bytes
from tests.support import samples as s


def test_encrypted_pdf_is_failed_encrypted_never_empty_text() -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret salary table", fontsize=12)
    data = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")
    material = parse_bytes(data, "salaries.pdf")
    assert material.status == "failed"
    assert material.reason.startswith("encrypted")
    assert material.blocks == ()


@pytest.mark.parametrize("cut", [0.6, 0.3])
def test_truncated_pdf_is_failed_or_partial_never_parsed(cut: float) -> None:
    data = s.pdf(seed=1, pages=5).data
    material = parse_bytes(data[: int(len(data) * cut)], "cut.pdf")
    assert material.status in {"failed", "partial"}
    assert material.reason.startswith(("corrupt", "damaged"))


def test_garbage_pdf_is_corrupt() -> None:
    material = parse_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 100, "x.pdf")
    assert material.status == "failed" and material.reason.startswith("corrupt")


def test_zero_byte_file() -> None:
    material = parse_bytes(b"", "empty.docx")
    assert material.status == "failed" and material.reason.startswith("empty")
    assert material.warnings == ()  # empty is said once, not also as a name mismatch


def test_wrong_extension_is_read_by_content_and_flagged() -> None:
    material = parse_bytes(s.pdf(seed=2).data, "notes.docx")
    assert material.detected_type == "application/pdf" and material.status == "parsed"
    assert any("name/content mismatch" in w and "application/pdf" in w for w in material.warnings)


def test_zip_claiming_to_be_docx_is_a_zip() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("readme.txt", "hello from a plain zip")
    material = parse_bytes(buffer.getvalue(), "report.docx")
    assert material.detected_type == "application/zip"
    assert any("mismatch" in w for w in material.warnings)


def test_polyglot_pdf_with_a_zip_is_flagged() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("payload.txt", "hidden")
    material = parse_bytes(s.pdf(seed=3).data + buffer.getvalue(), "doc.pdf")
    assert material.detected_type == "application/pdf"
    assert any(w.startswith("polyglot: the file is also a ZIP") for w in material.warnings)


def test_zip_bomb_member_with_a_high_ratio_is_not_inflated() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zeros.bin", b"\x00" * (32 * 1024 * 1024))
        archive.writestr("ok.txt", "a normal member")
    started = time.monotonic()
    material = parse_bytes(buffer.getvalue(), "bomb.zip")
    assert time.monotonic() - started < 5
    assert material.status == "partial"
    assert "compression ratio" in material.reason
    assert "a normal member" in "\n".join(b.text for b in material.blocks)


def _overlapping_zip() -> bytes:
    """One local entry referenced twice by the central directory (Fifield's zip bomb shape)."""
    body = zlib.compress(b"\x00" * 100_000)[2:-4]  # raw deflate
    crc = zlib.crc32(b"\x00" * 100_000)
    name = b"a"
    local = (
        struct.pack(
            "<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(body), 100_000, len(name), 0
        )
        + name
        + body
    )
    central = b""
    for member in (b"a", b"b", b"c"):
        central += (
            struct.pack(
                "<4s6H3L5H2L",
                b"PK\x01\x02",
                20,
                20,
                0,
                8,
                0,
                0,
                crc,
                len(body),
                100_000,
                len(member),
                0,
                0,
                0,
                0,
                0,
                0,
            )
            + member
        )
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 3, 3, len(central), len(local), 0)
    return local + central + end


def test_zip_bomb_with_overlapping_entries_is_refused() -> None:
    material = parse_bytes(_overlapping_zip(), "overlap.zip")
    assert material.status == "failed"
    assert material.reason.startswith("zip bomb: overlapping entries")


def test_archive_total_size_limit() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for n in range(4):
            archive.writestr(f"part{n}.txt", s.text_file(seed=n, lines=3_000).data)  # ~250 KB
    limits = ParseLimits(archive_total_bytes=600_000)
    material = parse_bytes(buffer.getvalue(), "logs.zip", limits=limits)
    assert material.status == "partial"
    assert "not read: too large" in material.reason
    listing = material.blocks[0].text
    assert listing.count("not read: too large") == 2


def test_path_traversal_names_are_flagged_and_nothing_extracted(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("../../escape.txt", "outside")
        archive.writestr("/etc/abs.txt", "absolute")
    material = parse_bytes(buffer.getvalue(), "evil.zip")
    assert any("path traversal" in w for w in material.warnings)
    assert any("absolute path" in w for w in material.warnings)
    assert list(tmp_path.iterdir()) == [] and not (tmp_path.parent / "escape.txt").exists()


def test_pixel_bomb_is_refused_before_decoding() -> None:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", 60_000, 60_000, 8, 2, 0, 0, 0)
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 16))
        + chunk(b"IEND", b"")
    )
    material = parse_bytes(png, "bomb.png")
    assert material.status == "failed"
    assert material.reason.startswith("pixel limit")


def test_image_over_the_configured_pixel_limit() -> None:
    material = parse_bytes(
        s.image(seed=1).data, "big.png", limits=ParseLimits(image_pixels=100_000, ocr=False)
    )
    assert material.status == "failed" and "270000 pixels" in material.reason


def test_deeply_nested_archive_stops_at_the_depth_limit() -> None:
    data = b"the innermost secret\n"
    name = "inner.txt"
    for level in range(6):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr(name, data)
        data, name = buffer.getvalue(), f"level{level}.zip"
    material = parse_bytes(data, name)
    assert material.status == "partial"
    assert "nesting depth limit" in material.reason
    assert "the innermost secret" not in "\n".join(b.text for b in material.blocks)


def test_huge_text_file_is_partial_within_the_budget() -> None:
    data = b"".join(b"%08d some long line of a huge log file\n" % i for i in range(800_000))
    started = time.monotonic()
    material = parse_bytes(data, "huge.log", limits=ParseLimits(text_chars=100_000))
    assert time.monotonic() - started < 10
    assert material.status == "partial"
    assert material.reason.startswith("text budget of 100000 characters reached at line")
    assert sum(len(b.text) for b in material.blocks) <= 100_000


def test_gzip_bomb_is_refused_by_size() -> None:
    import gzip

    data = gzip.compress(b"\x00" * (40 * 1024 * 1024))
    material = parse_bytes(data, "zeros.gz", limits=ParseLimits(archive_total_bytes=8 << 20))
    assert material.status == "failed"
    assert material.reason.startswith("decompression bomb")


def test_corrupt_office_file_is_failed_with_the_library_error() -> None:
    data = bytearray(s.docx(seed=1).data)
    data[len(data) // 2 : len(data) // 2 + 400] = b"\xff" * 400
    material = parse_bytes(bytes(data), "broken.docx")
    assert material.status in {"failed", "partial"}
    assert material.reason


def test_time_limit_gives_partial() -> None:
    material = parse_bytes(
        s.pdf(seed=4, pages=6, table=False).data,
        "slow.pdf",
        limits=ParseLimits(soft_deadline_s=0.0),
    )
    assert material.status == "partial" and material.reason.startswith("time limit")
