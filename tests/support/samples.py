"""Deterministic sample documents of every supported format.

Each sample is built in memory with the same libraries users' files come from
(PyMuPDF, python-docx, openpyxl, python-pptx, Pillow, the standard library) and
carries the phrases it contains, so a test or benchmark can check how much of a
file's known text a parser recovers. ``corpus(n)`` cycles through the formats
with varied content; the same ``n`` always gives the same bytes.
"""

from __future__ import annotations

import io
import json
import random
import re
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage

__all__ = ["SAMPLES", "Sample", "corpus", "recovered", "sample", "tokens"]

_WORDS = (
    "budget approval review invoice delivery schedule milestone contract revenue forecast "
    "latency throughput customer support release candidate regression payment gateway "
    "warehouse inventory audit compliance onboarding migration rollback incident report "
    "deadline quarterly analysis supplier shipment quality assurance benchmark dashboard"
).split()


@dataclass(frozen=True)
class Sample:
    name: str
    data: bytes
    kind: str
    """Format family: pdf, docx, xlsx, pptx, image, html, epub, csv, json, ipynb, eml, zip, …"""
    phrases: tuple[str, ...] = field(default=())
    """Text the file contains; a good parser recovers it."""
    pages: int = 1


def _sentences(rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        words = rng.sample(_WORDS, 7)
        out.append(
            f"The {words[0]} {words[1]} covers {words[2]} and {words[3]} for "
            f"{words[4]} {words[5]} {words[6]}."
        )
    return out


def pdf(seed: int = 0, pages: int = 3, table: bool = True) -> Sample:
    from donecheck.parsers.mupdf import pymupdf

    rng = random.Random(seed)
    doc = pymupdf.open()
    phrases: list[str] = []
    toc = []
    for number in range(1, pages + 1):
        page = doc.new_page()
        heading = f"Section {number}: {rng.choice(_WORDS).title()} plan"
        page.insert_text((72, 80), heading, fontsize=18)
        toc.append([1, heading, number])
        phrases.append(heading)
        y = 115
        for sentence in _sentences(rng, 12):
            page.insert_text((72, y), sentence, fontsize=10)
            phrases.append(sentence)
            y += 16
        if table and number == 1:
            for r in range(4):
                for c in range(3):
                    rect = pymupdf.Rect(
                        72 + c * 120, 360 + r * 22, 72 + (c + 1) * 120, 360 + (r + 1) * 22
                    )
                    page.draw_rect(rect, color=(0, 0, 0), width=0.6)
                    cell = (
                        "Item"
                        if r == 0 and c == 0
                        else f"R{r}C{c}-{_WORDS[(r * 3 + c) % len(_WORDS)]}"
                    )
                    page.insert_text((rect.x0 + 4, rect.y1 - 7), cell, fontsize=9)
                    phrases.append(cell)
    doc.set_toc(toc)
    data = doc.tobytes()
    return Sample(f"report-{seed}.pdf", data, "pdf", tuple(phrases), pages)


def docx(seed: int = 0) -> Sample:
    from docx import Document

    rng = random.Random(seed)
    document = Document()
    phrases = []
    title = f"{rng.choice(_WORDS).title()} proposal {seed}"
    document.add_heading(title, level=1)
    phrases.append(title)
    for part in range(3):
        heading = f"Part {part + 1} {rng.choice(_WORDS)}"
        document.add_heading(heading, level=2)
        phrases.append(heading)
        for sentence in _sentences(rng, 4):
            document.add_paragraph(sentence)
            phrases.append(sentence)
        item = f"Checklist item {part + 1}: {rng.choice(_WORDS)} signed off"
        document.add_paragraph(item, style="List Bullet")
        phrases.append(item)
    table = document.add_table(rows=3, cols=3)
    for r in range(3):
        for c in range(3):
            text = f"cell {r}-{c} {_WORDS[(seed + r * 3 + c) % len(_WORDS)]}"
            table.cell(r, c).text = text
            phrases.append(text)
    buffer = io.BytesIO()
    document.save(buffer)
    return Sample(f"proposal-{seed}.docx", buffer.getvalue(), "docx", tuple(phrases))


def xlsx(seed: int = 0, rows: int = 40) -> Sample:
    from openpyxl import Workbook

    rng = random.Random(seed)
    book = Workbook()
    phrases = []
    sheet = book.active
    sheet.title = "Budget"
    sheet.append(["Item", "Owner", "Amount", "Status"])
    phrases += ["Item", "Owner", "Amount", "Status"]
    for n in range(rows):
        item = f"{rng.choice(_WORDS)}-{n}"
        owner = rng.choice(["alice", "bob", "chen", "dana"])
        amount = rng.randint(100, 99_999)
        sheet.append([item, owner, amount, rng.choice(["open", "done"])])
        phrases.append(item)
    second = book.create_sheet("Notes")
    for sentence in _sentences(rng, 3):
        second.append([sentence])
        phrases.append(sentence)
    buffer = io.BytesIO()
    book.save(buffer)
    return Sample(f"budget-{seed}.xlsx", buffer.getvalue(), "xlsx", tuple(phrases))


def pptx(seed: int = 0, slides: int = 3) -> Sample:
    from pptx import Presentation
    from pptx.util import Inches

    rng = random.Random(seed)
    presentation = Presentation()
    phrases = []
    for number in range(1, slides + 1):
        slide = presentation.slides.add_slide(presentation.slide_layouts[1])
        title = f"Slide {number}: {rng.choice(_WORDS)} update"
        slide.shapes.title.text = title
        body = _sentences(rng, 2)
        slide.placeholders[1].text_frame.text = body[0]
        slide.placeholders[1].text_frame.add_paragraph().text = body[1]
        notes = f"Speaker note {number}: mention the {rng.choice(_WORDS)} risk"
        slide.notes_slide.notes_text_frame.text = notes
        phrases += [title, *body, notes]
        if number == slides:
            shape = slide.shapes.add_table(2, 2, Inches(1), Inches(5), Inches(4), Inches(1))
            for r in range(2):
                for c in range(2):
                    text = f"T{r}{c} {_WORDS[(seed + r + c) % len(_WORDS)]}"
                    shape.table.cell(r, c).text = text
                    phrases.append(text)
    buffer = io.BytesIO()
    presentation.save(buffer)
    return Sample(f"deck-{seed}.pptx", buffer.getvalue(), "pptx", tuple(phrases), slides)


def image(seed: int = 0, fmt: str = "PNG", text: bool = True) -> Sample:
    from PIL import Image, ImageDraw, ImageFont

    rng = random.Random(seed)
    picture = Image.new("RGB", (900, 300), "white")
    phrases: list[str] = []
    if text:
        draw = ImageDraw.Draw(picture)
        font = ImageFont.load_default(size=44)
        words = " ".join(w.upper() for w in rng.sample(_WORDS, 3))
        draw.text((30, 110), words, fill="black", font=font)
        phrases.append(words)
    buffer = io.BytesIO()
    save_as = {"JPG": "JPEG"}.get(fmt, fmt)
    picture.save(buffer, save_as, **({"quality": 95} if save_as == "JPEG" else {}))
    ext = {"JPEG": "jpg"}.get(save_as, save_as.lower())
    return Sample(f"screenshot-{seed}.{ext}", buffer.getvalue(), "image", tuple(phrases))


def html(seed: int = 0) -> Sample:
    rng = random.Random(seed)
    sentences = _sentences(rng, 6)
    heading = f"{rng.choice(_WORDS).title()} status page"
    rows = "".join(
        f"<tr><td>{w}</td><td>{i}</td></tr>" for i, w in enumerate(rng.sample(_WORDS, 4))
    )
    body = "".join(f"<p>{s}</p>" for s in sentences)
    page = (
        f"<!doctype html><html><head><title>{heading}</title><style>p{{color:red}}</style>"
        f"<script>var secret = 1;</script></head><body><h1>{heading}</h1>{body}"
        f"<p>See <a href='https://example.com/{seed}'>the tracker</a>.</p>"
        f"<table><tr><th>name</th><th>n</th></tr>{rows}</table></body></html>"
    )
    return Sample(f"status-{seed}.html", page.encode(), "html", (heading, *sentences))


def epub(seed: int = 0, chapters: int = 3) -> Sample:
    rng = random.Random(seed)
    phrases = []
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr(
            "META-INF/container.xml",
            '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:'
            'opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf"'
            ' media-type="application/oebps-package+xml"/></rootfiles></container>',
        )
        items, spine = [], []
        for n in range(1, chapters + 1):
            heading = f"Chapter {n}: the {rng.choice(_WORDS)}"
            sentences = _sentences(rng, 4)
            phrases += [heading, *sentences]
            body = "".join(f"<p>{s}</p>" for s in sentences)
            archive.writestr(
                f"OEBPS/ch{n}.xhtml",
                f'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/'
                f'xhtml"><head><title>{heading}</title></head><body><h1>{heading}</h1>{body}'
                f"</body></html>",
            )
            items.append(f'<item id="c{n}" href="ch{n}.xhtml" media-type="application/xhtml+xml"/>')
            spine.append(f'<itemref idref="c{n}"/>')
        archive.writestr(
            "OEBPS/content.opf",
            '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
            '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Field guide '
            f"{seed}</dc:title></metadata><manifest>{''.join(items)}</manifest>"
            f"<spine>{''.join(spine)}</spine></package>",
        )
    return Sample(f"guide-{seed}.epub", buffer.getvalue(), "epub", tuple(phrases), chapters)


def csv_file(
    seed: int = 0, rows: int = 60, delimiter: str = ",", encoding: str = "utf-8"
) -> Sample:
    rng = random.Random(seed)
    japanese = encoding in {"shift_jis", "cp932", "euc_jp"}
    names = (
        ["注文番号", "お客様の名前", "金額（円）"] if japanese else ["order", "customer", "amount"]
    )
    lines = [delimiter.join(names)]
    phrases = list(names)
    for n in range(rows):
        customer = (
            f"{rng.choice(['さくら商事', 'やまと物産', 'ひかり工業'])}{n}"
            if japanese
            else f"{rng.choice(_WORDS)}-{n}"
        )
        lines.append(delimiter.join([f"A{n:04d}", customer, str(rng.randint(1, 9999))]))
        phrases.append(customer)
    ext = "tsv" if delimiter == "\t" else "csv"
    return Sample(
        f"orders-{seed}.{ext}", ("\n".join(lines) + "\n").encode(encoding), "csv", tuple(phrases)
    )


def json_file(seed: int = 0) -> Sample:
    rng = random.Random(seed)
    service, owners, notes = rng.choice(_WORDS), rng.sample(_WORDS, 3), _sentences(rng, 2)
    doc = {
        "service": service,
        "limits": {"rps": 100 + seed, "burst": 20},
        "owners": owners,
        "notes": notes,
    }
    return Sample(
        f"config-{seed}.json", json.dumps(doc).encode(), "json", (service, *owners, *notes)
    )


def notebook(seed: int = 0) -> Sample:
    rng = random.Random(seed)
    heading = f"Analysis of {rng.choice(_WORDS)}"
    text = _sentences(rng, 2)
    nb = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": [f"# {heading}\n", text[0]]},
            {
                "cell_type": "code",
                "metadata": {},
                "execution_count": 1,
                "source": ["total = sum(range(10))\n", "print(total)"],
                "outputs": [{"output_type": "stream", "name": "stdout", "text": ["45\n"]}],
            },
            {"cell_type": "markdown", "metadata": {}, "source": text[1]},
        ],
    }
    return Sample(
        f"analysis-{seed}.ipynb",
        json.dumps(nb).encode(),
        "ipynb",
        (heading, *text, "total = sum(range(10))", "45"),
    )


def eml(seed: int = 0) -> Sample:
    rng = random.Random(seed)
    message = EmailMessage()
    subject = f"Re: {rng.choice(_WORDS)} sign-off"
    message["From"] = "Dana <dana@example.com>"
    message["To"] = "team@example.com"
    message["Subject"] = subject
    message["Date"] = "Mon, 30 Nov 2026 09:00:00 +0000"
    body = " ".join(_sentences(rng, 3))
    message.set_content(body)
    note = f"attachment note {rng.choice(_WORDS)}"
    message.add_attachment(note.encode(), maintype="text", subtype="plain", filename="note.txt")
    return Sample(f"thread-{seed}.eml", message.as_bytes(), "eml", (subject, body, note))


def zip_file(seed: int = 0) -> Sample:
    inner = [html(seed), csv_file(seed, rows=10), text_file(seed)]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for item in inner:
            archive.writestr(f"bundle/{item.name}", item.data)
    phrases = tuple(p for item in inner for p in item.phrases)
    return Sample(f"bundle-{seed}.zip", buffer.getvalue(), "zip", phrases)


def tar_gz(seed: int = 0) -> Sample:
    inner = [text_file(seed), json_file(seed)]
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for item in inner:
            info = tarfile.TarInfo(f"logs/{item.name}")
            info.size = len(item.data)
            archive.addfile(info, io.BytesIO(item.data))
    phrases = tuple(p for item in inner for p in item.phrases)
    return Sample(f"logs-{seed}.tar.gz", buffer.getvalue(), "tar", phrases)


def text_file(seed: int = 0, lines: int = 60) -> Sample:
    rng = random.Random(seed)
    sentences = _sentences(rng, lines)
    return Sample(
        f"notes-{seed}.md", ("\n".join(sentences) + "\n").encode(), "text", tuple(sentences)
    )


def code_file(seed: int = 0) -> Sample:
    rng = random.Random(seed)
    name = rng.choice(_WORDS)
    source = (
        f'"""Module for {name}."""\n\n\ndef compute_{name}(values):\n'
        f"    total = 0\n    for value in values:\n        total += value\n"
        f"    return total\n"
    )
    return Sample(
        f"{name}_{seed}.py",
        source.encode(),
        "text",
        (f"def compute_{name}(values):", "return total"),
    )


SAMPLES: dict[str, Callable[[int], Sample]] = {
    "pdf": lambda seed: pdf(seed, pages=1 + seed % 8),
    "docx": docx,
    "xlsx": xlsx,
    "pptx": pptx,
    "png": lambda seed: image(seed, "PNG"),
    "jpeg": lambda seed: image(seed, "JPEG"),
    "html": html,
    "epub": epub,
    "csv": csv_file,
    "json": json_file,
    "ipynb": notebook,
    "eml": eml,
    "zip": zip_file,
    "tar.gz": tar_gz,
    "text": text_file,
    "code": code_file,
}


def sample(kind: str, seed: int = 0) -> Sample:
    return SAMPLES[kind](seed)


def corpus(n: int, kinds: tuple[str, ...] | None = None) -> list[Sample]:
    """``n`` samples cycling through ``kinds`` (default: all), deterministic for ``n``."""
    order = kinds or tuple(SAMPLES)
    return [SAMPLES[order[i % len(order)]](i) for i in range(n)]


_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def tokens(text: str) -> list[str]:
    """Lower-case word tokens (letters and digits), punctuation and spacing ignored."""
    return [t.lower() for t in _TOKEN.findall(text)]


def recovered(phrases: tuple[str, ...] | list[str], output: str) -> float:
    """Share of ``phrases`` whose word tokens appear, contiguous and in order, in ``output``.

    Comparing tokens, not characters, judges every tool alike whatever spacing,
    Markdown or line numbers it adds around the text.
    """
    if not phrases:
        return 1.0
    haystack = " " + " ".join(tokens(output)) + " "
    found = sum(1 for p in phrases if " " + " ".join(tokens(p)) + " " in haystack)
    return found / len(phrases)
