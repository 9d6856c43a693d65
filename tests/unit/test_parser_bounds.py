"""Inputs that once held a worker for its whole timeout, and exceptions that escaped
as a bare "parser error": each ends within 5 s with a specific status and reason."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
import zipfile
from copy import deepcopy
from pathlib import Path

import pymupdf
import pytest

from donecheck.parsers import parse_bytes
from donecheck.parsers.base import failure_reason
from donecheck.parsers.material import Material
from tests.support import samples as s

BOUND_S = 5.0


def _timed(data: bytes, name: str) -> Material:
    started = time.perf_counter()
    material = parse_bytes(data, name)
    elapsed = time.perf_counter() - started
    assert elapsed < BOUND_S, f"{name} took {elapsed:.1f} s"
    assert "parser error" not in material.reason
    return material


@pytest.mark.parametrize(
    "markup",
    ["<table><script>", "<table><tr><td><style>", "<title><table>", "<table><td><svg><td>"],
)
def test_an_unclosed_skipped_element_inside_a_table_ends(markup: str) -> None:
    material = _timed(markup.encode(), "tiny.html")
    assert material.status == "parsed"


def test_a_huge_one_line_text_is_cut_at_the_budget_in_linear_time() -> None:
    material = _timed(b"a" * (50 << 20), "one-line.txt")
    assert material.status == "partial"
    assert material.reason.startswith("text budget of")


def test_a_docx_with_300k_paragraphs_is_read_up_to_the_budget() -> None:
    import docx

    document = docx.Document()
    paragraph = document.add_paragraph("x")._p
    body = document.element.body
    for _ in range(300_000):
        body.append(deepcopy(paragraph))
    buffer = io.BytesIO()
    document.save(buffer)
    material = _timed(buffer.getvalue(), "many.docx")
    assert material.status == "partial" and material.reason.startswith("text budget")


def test_a_page_with_too_many_vector_paths_skips_table_detection() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    shape = page.new_shape()
    for i in range(12_000):
        x, y = 10 + (i % 380) * 1.5, 10 + (i // 380) * 4
        shape.draw_line((x, y), (x + 1.5, y))
        shape.finish(color=(0, 0, 0), width=0.3)
    shape.commit()
    page.insert_text((72, 72), "the words still count")
    material = _timed(doc.tobytes(), "lines.pdf")
    assert material.status == "parsed"
    assert "the words still count" in " ".join(b.text for b in material.blocks)
    assert any("vector segments" in w and "read as text" in w for w in material.warnings)


def test_a_truncated_png_says_truncated() -> None:
    data = s.image(seed=1).data
    material = _timed(data[: len(data) // 2], "cut.png")
    assert material.status == "failed"
    assert material.reason.startswith(("truncated", "corrupt"))


def test_a_zip_member_with_an_empty_name_is_named_not_fatal() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("kept.txt", b"the kept member")
        info = zipfile.ZipInfo("x")
        with archive.open(info, "w") as member:
            member.write(b"nameless")
        info.filename = ""  # the central directory then names it ""
    material = _timed(buffer.getvalue(), "odd.zip")
    assert material.status in {"parsed", "partial"}
    assert "the kept member" in " ".join(b.text for b in material.blocks)


def test_an_epub_chapter_with_a_bad_crc_is_damaged() -> None:
    data = s.epub(seed=2).data
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = [i.filename for i in archive.infolist() if i.filename.endswith(".xhtml")]
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(buffer, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info), compress_type=zipfile.ZIP_STORED)
    raw = bytearray(buffer.getvalue())
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as archive:
        info = archive.getinfo(names[0])
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    raw[start + 5] ^= 0x01  # one flipped bit in the stored chapter: its CRC fails
    material = _timed(bytes(raw), "bad-crc.epub")
    text = " ".join([material.reason, *material.warnings])
    assert "checksum" in text or "CRC" in text or material.status == "failed", text


@pytest.mark.parametrize(
    ("exc", "start"),
    [
        (OSError("image file is truncated (3 bytes not processed)"), "truncated:"),
        (EOFError("Compressed file ended before the end-of-stream marker"), "truncated:"),
        (zipfile.BadZipFile("Bad CRC-32 for file 'a.xhtml'"), "damaged: a checksum"),
        (zipfile.BadZipFile("File is not a zip file"), "damaged: the ZIP container"),
        (NotImplementedError("compression type 99"), "unsupported feature:"),
        (ValueError("Unsupported image mode"), "unsupported feature:"),
        (KeyError("word/document.xml"), "damaged: a part it refers to is missing"),
        (RuntimeError("something odd"), "damaged:"),
    ],
)
def test_library_errors_map_to_a_specific_reason(exc: Exception, start: str) -> None:
    reason = failure_reason(exc)
    assert reason.startswith(start), reason
    assert type(exc).__name__ in reason


def test_parse_many_gives_every_path_a_material(tmp_path: Path) -> None:
    from donecheck.runtime import DoneCheck

    good = tmp_path / "notes.txt"
    good.write_text("the one readable file")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    paths = [good, fifo, Path("/dev/zero"), tmp_path / "missing.txt", tmp_path]
    dc = DoneCheck.start_local(data_dir=tmp_path / "data")
    try:
        materials = dc.parse_many(paths)
    finally:
        dc.shutdown()
    assert [m.status for m in materials] == ["parsed", "failed", "failed", "failed", "failed"]
    assert [m.reason for m in materials[1:]] == [
        "not read: not a regular file (a FIFO)",
        "not read: not a regular file (a character device)",
        "not read: no such file",
        "not read: not a regular file (a directory)",
    ]


def test_parsing_writes_nothing_under_home_and_skips_the_layout_model(tmp_path: Path) -> None:
    """PyMuPDF 2 would import its ONNX layout model (and onnxruntime would write a
    device id under ~/.cache) for any file; DoneCheck uses neither."""
    home = tmp_path / "home"
    home.mkdir()
    script = (
        "import sys\n"
        "from donecheck.parsers import parse_bytes\n"
        "from tests.support import samples\n"
        "for item in samples.corpus(30):\n"
        "    parse_bytes(item.data, item.name)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('onnxruntime', 'pymupdf.layout',"
        " 'pymupdf4llm'))))\n"
    )
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"
    assert list(home.rglob("*")) == []


def test_a_library_writing_to_stdout_cannot_corrupt_the_worker_frames() -> None:
    """Found by benchmarks/fuzz_parsers.py: Leptonica prints to fd 1 about a truncated
    PNG, which desynchronised the frames; the parent waited out its whole timeout."""
    from donecheck.parsers import ParseLimits
    from donecheck.parsers.material import sha256_ref
    from donecheck.parsers.worker import IsolatedParser

    data = b"a line of text\n"
    with IsolatedParser(timeout_s=20, target="tests.support.noisy_target:parse") as worker:
        for _ in range(2):
            started = time.perf_counter()
            material = worker.parse(data, "a.txt", sha256=sha256_ref(data), limits=ParseLimits())
            assert material.status == "parsed", material.reason
            assert time.perf_counter() - started < BOUND_S


def test_a_reason_names_the_file_not_an_objects_address() -> None:
    from PIL import UnidentifiedImageError

    reason = failure_reason(
        UnidentifiedImageError("cannot identify image file <_io.BytesIO object at 0x7f3a2c1b9e50>")
    )
    assert "object at 0x" not in reason and "cannot identify image file the file" in reason
    tiff = b"II*\x00" + bytes(range(256)) * 4  # a TIFF header, then nothing it can read
    material = _timed(tiff, "scan.tiff")
    assert "object at 0x" not in material.reason + " ".join(material.warnings)


def test_text_with_lone_surrogates_is_kept_encodable() -> None:
    """A library that decodes with surrogateescape hands back strings no encoder takes:
    once, a whole material ended as "parser error: UnicodeEncodeError … surrogates"."""
    import msgspec

    from donecheck.parsers.base import clean_text

    assert clean_text("caf\udce9 ok") == "caf\ufffd ok" and clean_text("plain") == "plain"
    material = _timed(b'{"name": "caf\\udce9", "n": 1}', "data.json")  # a lone \\udce9
    assert material.status == "parsed"
    msgspec.msgpack.encode(material)  # raised UnicodeEncodeError before


def test_an_email_whose_attachment_failed_says_so() -> None:
    import email.message

    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zeros.bin", b"\0" * (64 << 20))  # ~1000:1, over the ratio bound
    message = email.message.EmailMessage()
    message["From"] = "ana@example.com"
    message["To"] = "ben@example.com"
    message["Date"] = "Tue, 01 Dec 2026 09:00:00 +0000"
    message["Subject"] = "Q3 numbers"
    message.set_content("The figures are attached.")
    message.add_attachment(
        bomb.getvalue(), maintype="application", subtype="zip", filename="figures.zip"
    )
    material = _timed(message.as_bytes(), "q3.eml")
    assert material.status == "partial", material.status
    assert "attachment figures.zip" in material.reason, material.reason


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from donecheck.runtime.attachments import load_attachment

    sparse = tmp_path / "huge.pdf"
    with sparse.open("wb") as handle:
        handle.truncate(1 << 30)  # 1 GiB, no blocks on disk

    def read_so_far() -> int:
        fields = dict(line.split(": ") for line in Path("/proc/self/io").read_text().splitlines())
        return int(fields["rchar"])

    before = read_so_far()
    loaded = load_attachment(sparse, 0, 256 << 20)
    assert loaded.too_large and not loaded.data
    assert read_so_far() - before < 8 << 20  # its first and last MiB, not 256 MiB or 1 GiB
    assert load_attachment(sparse, 0, 256 << 20).sha256 == loaded.sha256  # a stable identity


def test_a_content_stream_that_inflates_past_the_budget_is_not_read() -> None:
    """A 1.6 MB PDF whose page inflated to 640 MB took 23 s and 1.8 GiB: the inflating
    is measured in 1 MiB steps and stops at the page's budget."""
    import zlib

    from donecheck.parsers.pdf import PAGE_CONTENT_BYTES

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Visible text on page one.")
    heavy = doc.new_page()
    heavy.insert_text((72, 72), "never read")
    op = b"BT /F1 1 Tf 0 0 Td (x) Tj ET\n"
    content = zlib.compress(op * (2 * PAGE_CONTENT_BYTES // len(op)), 9)
    (xref,) = heavy.get_contents()
    doc.update_stream(xref, content, compress=False)
    doc.xref_set_key(xref, "Filter", "/FlateDecode")
    material = _timed(doc.tobytes(), "bomb.pdf")
    assert material.status == "partial"
    assert "content too large" in material.reason and "32 MiB" in material.reason
    assert [b.text for b in material.blocks] == ["Visible text on page one."]


def test_work_python_cannot_interrupt_is_killed_at_its_deadline() -> None:
    """In the (single-threaded) parse worker, a page's drawing runs in a fork that is
    killed at the deadline: MuPDF drawing one fuzzed scan held the GIL for over 100 s."""
    script = (
        "import time\n"
        "from donecheck.parsers.bounded import allow_fork, run_bounded\n"
        "allow_fork()\n"
        "started = time.monotonic()\n"
        "stuck = run_bounded(lambda: time.sleep(30) or b'late', 0.5)\n"
        "took = time.monotonic() - started\n"
        "done = run_bounded(lambda: b'x' * 3_000_000, 10)\n"
        "failed = run_bounded(lambda: 1 / 0, 10)\n"
        "print(stuck, round(took, 1) < 5, len(done or b''), failed)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert shown.stdout.split() == ["None", "True", "3000000", "None"], shown.stderr[-500:]
