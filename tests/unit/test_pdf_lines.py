"""PDF text as printed: a line drawn as several text objects in any order, and
table cells, keep their words and numbers ("2,100.00", "Body Labor")."""

from __future__ import annotations

from donecheck.parsers import parse_bytes
from donecheck.parsers.mupdf import pymupdf


def _text(data: bytes) -> str:
    material = parse_bytes(data, "receipt.pdf")
    assert material.status == "parsed", material.reason
    return "\n".join(block.text for block in material.blocks)


def test_a_number_drawn_right_part_first_reads_as_printed() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Receipt 1042", fontsize=14)
    for row, (label, head, tail) in enumerate(
        [("Body Labor", "2", ",100.00"), ("Kit", "1", "5.25")]
    ):
        y = 140 + 18 * row
        page.insert_text((72, y), label, fontsize=10)
        width = pymupdf.get_text_length(head, fontsize=10)
        page.insert_text((400 + width, y), tail, fontsize=10)  # drawn first
        page.insert_text((400, y), head, fontsize=10)
    text = _text(doc.tobytes())
    assert "Body Labor 2,100.00" in text
    assert "Kit 15.25" in text


def test_two_text_objects_with_a_gap_keep_their_space() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    width = pymupdf.get_text_length("Body", fontsize=10)
    page.insert_text((72, 100), "Body", fontsize=10)
    page.insert_text((72 + width + 4, 100), "Labor", fontsize=10, fontname="Times-Roman")
    assert "Body Labor" in _text(doc.tobytes())


def test_a_ruled_table_drawn_as_one_path_is_a_table_with_cells_as_printed() -> None:
    rows = [
        ("Item", "Hours", "Amount"),
        ("Body Labor", "14.0", "2,100.00"),
        ("Paint and Materials", "3.5", "1,234.56"),
    ]
    doc = pymupdf.open()
    page = doc.new_page()
    xs, top, height = [72, 272, 372, 500], 100, 22
    shape = page.new_shape()  # every rule in one path, as many generators write it
    for i in range(len(rows) + 1):
        shape.draw_line((xs[0], top + i * height), (xs[-1], top + i * height))
    for x in xs:
        shape.draw_line((x, top), (x, top + len(rows) * height))
    shape.finish(color=(0, 0, 0), width=0.5)
    shape.commit()
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            width = pymupdf.get_text_length(text, fontsize=10)
            x = xs[c] + 4 if c == 0 else xs[c + 1] - 4 - width  # numbers right-aligned
            page.insert_text((x, top + r * height + 15), text, fontsize=10)
    material = parse_bytes(doc.tobytes(), "invoice.pdf")
    tables = [b for b in material.blocks if b.kind == "table"]
    assert tables and tables[0].rows is not None
    assert ("Body Labor", "14.0", "2,100.00") in tables[0].rows
