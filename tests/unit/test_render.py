"""Materials as a model sees them: each shown fragment once, beside its id, in order."""

from __future__ import annotations

import re

import msgspec
import pytest

from donecheck.actors.messages import Block, Material
from donecheck.parsers import ParseLimits, parse_bytes
from donecheck.parsers.render import render_materials
from tests.support import samples as s

LIMITS = ParseLimits(ocr=False)


def materials() -> list[Material]:
    return [
        parse_bytes(x.data, x.name, limits=LIMITS)
        for x in (s.pdf(seed=1), s.docx(seed=2), s.image(seed=3))
    ]


def test_every_shown_block_once_in_order_with_its_id() -> None:
    items = materials()
    rendering = render_materials(items, budget_chars=1_000_000)
    ids = re.findall(r"^\[([0-9a-f]{12}#\d+)\]", rendering.text, re.M)
    expected = [b.source_id for m in items for b in m.blocks]
    assert ids == expected  # block order, each exactly once
    assert rendering.citable == frozenset(expected)
    assert rendering.omitted_blocks == 0 and not rendering.truncated
    for block in (b for m in items for b in m.blocks):
        assert rendering.text.count(block.text) >= 1


def test_budget_is_shared_and_truncation_marked() -> None:
    items = materials()
    rendering = render_materials(items, budget_chars=1_500)
    assert rendering.truncated and rendering.omitted_blocks > 0
    assert "not shown (over the input budget); they cannot be cited" in rendering.text
    # every material got a share: each has at least one citable block
    for material in items:
        assert any(b.source_id in rendering.citable for b in material.blocks)
    # only blocks shown whole are citable
    shown = set(re.findall(r"^\[([0-9a-f]{12}#\d+)\]", rendering.text, re.M))
    assert rendering.citable == shown


def test_cut_blocks_are_shown_without_a_citable_id() -> None:
    block = Block(source_id="abc#0", index=0, text="half a sentence", truncated=True)
    material = Material(
        sha256="sha256:abc",
        declared_name="a.txt",
        detected_type="text/plain",
        status="partial",
        reason="text budget",
        blocks=(block,),
    )
    rendering = render_materials([material])
    assert "[cut by the parser: not citable] half a sentence" in rendering.text
    assert rendering.citable == frozenset()
    assert "status reason: text budget" in rendering.text


def test_unread_material_is_said_plainly() -> None:
    material = parse_bytes(b"", "empty.pdf")
    rendering = render_materials([material])
    assert "Its content was NOT read. Do not assume what it says." in rendering.text


def test_images_keep_their_role_labels() -> None:
    rendering = render_materials(materials(), max_images=10)
    labels = [image.label for image in rendering.images]
    assert labels[:2] == [
        f"Image {n}: preview rendered by DoneCheck from page {n} of the user's attachment"
        " report-1.pdf (827×1170)"
        for n in (1, 2)
    ]
    assert labels[2] == "Image 3: the user's reference image screenshot-3.png (900×300)"
    assert [i.role for i in rendering.images] == ["preview"] * 2 + ["reference"]
    limited = render_materials(materials(), max_images=2)
    assert len(limited.images) == 2 and limited.omitted_images == 1
    assert "1 more image(s) not shown" in limited.text


def _from_tool(material: Material, call_id: str = "call_7") -> Material:
    return msgspec.structs.replace(material, origin="tool", call_id=call_id)


def test_every_image_is_labelled_by_its_origin_never_another() -> None:
    """The user's image, an image the agent's tool returned, DoneCheck's preview of a
    page of either: each says which, and the tool's names the result it came from."""
    pdf, _, image = materials()
    where = {"call_7": "E7 (`read_file shot.png`)"}
    rendering = render_materials(
        [pdf, image, _from_tool(pdf), _from_tool(image)], max_images=10, tool_results=where
    )
    labels = [i.label for i in rendering.images]
    assert [i.origin for i in rendering.images] == ["user"] * 3 + ["tool"] * 3
    user, tool = labels[:3], labels[3:]
    assert all("the user's" in label and "tool" not in label for label in user)
    assert "rendered by DoneCheck" in user[0] and "reference image" in user[2]
    assert all("the agent's tool returned in E7 (`read_file shot.png`)" in t for t in tool)
    assert all("the user's" not in label for label in tool)
    assert "rendered by DoneCheck from page 1 of report-1.pdf, a file" in tool[0]
    assert tool[2].startswith("Image 6: screenshot-3.png, an image the agent's tool returned")
    # the material's heading says whose it is, too
    assert "### Attachment 1: report-1.pdf" in rendering.text
    assert (
        "### Material 4: screenshot-3.png, returned by the agent's tool in E7"
        " (`read_file shot.png`) (not the user's)"
    ) in rendering.text


@pytest.mark.parametrize("origin", ["user", "tool"])
def test_a_label_without_a_known_result_still_names_the_origin(origin: str) -> None:
    image = materials()[2]
    if origin == "tool":
        image = _from_tool(image, "toolu_01")
    (part,) = render_materials([image]).images
    if origin == "tool":
        assert "returned in tool call toolu_01" in part.label
    else:
        assert "the user's reference image" in part.label
