"""What real-world Office and e-book files carry beyond their body text: equations,
charts, alt text, grouped shapes, notes, metadata — read, and cited by place."""

from __future__ import annotations

import io

from docx import Document
from docx.oxml import parse_xml

from donecheck.parsers import parse_bytes

M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _text(data: bytes, name: str) -> str:
    material = parse_bytes(data, name)
    assert material.status == "parsed", material.reason
    return "\n".join(block.text for block in material.blocks)


def _run(text: str) -> str:
    return f"<m:r><m:t>{text}</m:t></m:r>"


QUADRATIC = (
    f'<m:oMathPara xmlns:m="{M}"><m:oMath>'
    + _run("x=")
    + "<m:f><m:num>"
    + _run("-b±")
    + '<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>'
    + "<m:sSup><m:e>"
    + _run("b")
    + "</m:e><m:sup>"
    + _run("2")
    + "</m:sup></m:sSup>"
    + _run("-4ac")
    + "</m:e></m:rad></m:num><m:den>"
    + _run("2a")
    + "</m:den></m:f>"
    + "</m:oMath></m:oMathPara>"
)


def test_docx_equations_are_read_as_linear_text() -> None:
    document = Document()
    document.add_paragraph("The roots are")
    paragraph = document.add_paragraph()
    paragraph._p.append(parse_xml(QUADRATIC))
    sums = document.add_paragraph("and the total is ")
    sums._p.append(
        parse_xml(
            f'<m:oMath xmlns:m="{M}"><m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr>'
            f"<m:sub>{_run('i=1')}</m:sub><m:sup>{_run('n')}</m:sup>"
            f"<m:e><m:sSub><m:e>{_run('x')}</m:e><m:sub>{_run('i')}</m:sub></m:sSub></m:e>"
            "</m:nary></m:oMath>"
        )
    )
    buffer = io.BytesIO()
    document.save(buffer)
    material = parse_bytes(buffer.getvalue(), "roots.docx")
    text = "\n".join(b.text for b in material.blocks)
    assert "x=(-b±√(b^2-4ac))/(2a)" in text
    assert "∑_(i=1)^n x_i" in text
    assert material.stats["equations"] == 2


def test_docx_alt_text_and_content_controls_are_read() -> None:
    document = Document()
    document.add_paragraph("Before the control")
    body = document.element.body
    control = parse_xml(
        f'<w:sdt xmlns:w="{W}"><w:sdtContent><w:p><w:r><w:t>Inside a content control</w:t>'
        "</w:r></w:p></w:sdtContent></w:sdt>"
    )
    body.insert(len(body) - 1, control)  # before sectPr
    buffer = io.BytesIO()
    document.save(buffer)
    text = _text(buffer.getvalue(), "controls.docx")
    assert "Before the control" in text and "Inside a content control" in text


def test_a_text_box_stored_twice_for_compatibility_is_read_once() -> None:
    """Word keeps a text box as DrawingML (mc:Choice) and VML (mc:Fallback)."""
    mc = "http://schemas.openxmlformats.org/markup-compatibility/2006"
    box = (
        f'<w:r xmlns:w="{W}" xmlns:mc="{mc}"><mc:AlternateContent>'
        '<mc:Choice Requires="wps"><w:drawing><w:txbxContent><w:p><w:r>'
        "<w:t>Boxed note</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice>"
        "<mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>Boxed note</w:t></w:r></w:p>"
        "</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>"
    )
    document = Document()
    paragraph = document.add_paragraph("Before the box")
    paragraph._p.append(parse_xml(box))
    buffer = io.BytesIO()
    document.save(buffer)
    text = _text(buffer.getvalue(), "box.docx")
    assert text.count("Boxed note") == 1
