"""Materials as a bounded model input, with a source id beside every shown fragment.

Each block that is shown appears once, in block order, prefixed by its source id
(``[3fa2b1c09d11#4]``). Only blocks shown whole are citable; a block a parser
cut is shown without an id, and blocks that do not fit the budget are counted
in a marker line instead. There is no second index of the same text. The
budget is shared fairly: each material first gets an equal share, and what one
does not need goes to the others.

Images are returned apart from the text, each with a label that says whose it is
and who made it: the user's image, an image the agent's tool returned, or a
preview DoneCheck rendered from a page of either (never one for the other).
Materials a tool returned are headed as such, with the tool result they came from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from donecheck.parsers.material import Block, ImageRole, Material, MaterialOrigin, Preview

__all__ = ["ImagePart", "Rendering", "image_label", "render_block", "render_materials"]


@dataclass(frozen=True, slots=True)
class ImagePart:
    label: str
    role: ImageRole
    media_type: str
    data: bytes
    source_id: str
    origin: MaterialOrigin = "user"
    call_id: str = ""


@dataclass(frozen=True, slots=True)
class Rendering:
    text: str
    citable: frozenset[str]
    """Source ids of blocks shown whole: the only ones a review may cite."""
    shown_blocks: int
    omitted_blocks: int
    images: tuple[ImagePart, ...]
    omitted_images: int = 0
    omitted_image_names: tuple[str, ...] = ()
    """The materials whose images were left out (over ``max_images``), each once."""

    @property
    def truncated(self) -> bool:
        return self.omitted_blocks > 0 or self.omitted_images > 0


def _where(block: Block) -> str:
    parts = []
    if block.page is not None:
        parts.append(f"page {block.page}")
    if block.sheet is not None:
        parts.append(f"sheet {block.sheet!r}")
    if block.slide is not None:
        parts.append(f"slide {block.slide}")
    if block.kind == "heading":
        parts.append(f"heading {block.level}" if block.level else "heading")
    elif block.kind in {"table", "code", "image"}:
        parts.append(block.kind)
    return f"({', '.join(parts)}) " if parts else ""


def render_block(block: Block) -> str:
    """One block with its id (or the mark that it cannot be cited)."""
    label = "[cut by the parser: not citable]" if block.truncated else f"[{block.source_id}]"
    text = block.text if "\n" not in block.text else "\n" + block.text
    return f"{label} {_where(block)}{text}"


def _from_tool(material: Material, tool_results: Mapping[str, str]) -> str:
    """Where a tool's material came from: ``E7 (`read_file shot.png`)``."""
    return tool_results.get(material.call_id) or f"tool call {material.call_id}"


def image_label(
    n: int, material: Material, preview: Preview, tool_results: Mapping[str, str] = {}
) -> str:
    """``Image n: …`` — whose image it is, and who made this picture of it."""
    size = f"({preview.width}×{preview.height})"
    name = material.declared_name
    page = f"page {preview.page} of " if preview.page is not None else ""
    if material.origin == "tool":
        source = _from_tool(material, tool_results)
        if preview.role == "reference":
            return f"Image {n}: {name}, an image the agent's tool returned in {source} {size}"
        return (
            f"Image {n}: preview rendered by DoneCheck from {page}{name}, a file the agent's"
            f" tool returned in {source} {size}"
        )
    if preview.role == "reference":
        return f"Image {n}: the user's reference image {name} {size}"
    return (
        f"Image {n}: preview rendered by DoneCheck from {page}the user's attachment {name} {size}"
    )


def _header(n: int, material: Material, tool_results: Mapping[str, str] = {}) -> list[str]:
    facts = [material.detected_type, material.status]
    for key, unit in (
        ("pages", "pages"),
        ("slides", "slides"),
        ("sheets", "sheets"),
        ("rows", "rows"),
        ("members", "members"),
    ):
        if key in material.stats:
            facts.append(f"{material.stats[key]:.0f} {unit}")
    if material.origin == "tool":
        title = (
            f"### Material {n}: {material.declared_name}, returned by the agent's tool in"
            f" {_from_tool(material, tool_results)} (not the user's)"
        )
    else:
        title = f"### Attachment {n}: {material.declared_name}"
    lines = [title, "type: " + " · ".join(facts)]
    if material.reason:
        lines.append(f"status reason: {material.reason}")
    if material.status in {"failed", "unparsed"}:
        lines.append("Its content was NOT read. Do not assume what it says.")
    for warning in material.warnings[:5]:
        lines.append(f"warning: {warning}")
    return lines


def _shares(needs: list[int], budget: int) -> list[int]:
    """Water-filling: equal shares, with what a material does not need passed on."""
    shares = [0] * len(needs)
    remaining = budget
    open_ = [i for i, need in enumerate(needs) if need > 0]
    while open_ and remaining >= len(open_):
        each = remaining // len(open_)
        still = []
        for i in open_:
            give = min(each, needs[i] - shares[i])
            shares[i] += give
            remaining -= give
            if shares[i] < needs[i]:
                still.append(i)
        if still == open_:  # everyone took a full share; what is left is a rounding rest
            break
        open_ = still
    return shares


def render_materials(
    materials: Sequence[Material],
    *,
    budget_chars: int = 30_000,
    max_images: int = 8,
    tool_results: Mapping[str, str] = {},
) -> Rendering:
    """Render ``materials`` within ``budget_chars`` of block text. ``tool_results``
    names, per tool call id, the result a tool's material came from (``E7 (`cmd`)``)."""
    rendered = [[render_block(b) for b in m.blocks] for m in materials]
    needs = [sum(len(r) + 1 for r in blocks) for blocks in rendered]
    shares = _shares(needs, budget_chars)
    lines: list[str] = []
    citable: set[str] = set()
    shown = omitted = 0
    for n, (material, blocks, share) in enumerate(
        zip(materials, rendered, shares, strict=True), start=1
    ):
        lines.extend(_header(n, material, tool_results))
        used = 0
        for index, (block, text) in enumerate(zip(material.blocks, blocks, strict=True)):
            if used + len(text) + 1 > share:
                rest = len(blocks) - index
                omitted += rest
                lines.append(
                    f"[… {rest} more block(s) of {material.declared_name} not shown (over the"
                    " input budget); they cannot be cited]"
                )
                break
            used += len(text) + 1
            lines.append(text)
            shown += 1
            if not block.truncated:
                citable.add(block.source_id)
        lines.append("")
    images: list[ImagePart] = []
    total_images = 0
    left_out: dict[str, None] = {}
    for material in materials:
        for preview in material.previews:
            total_images += 1
            if len(images) >= max_images:
                left_out[material.declared_name] = None
                continue
            label = image_label(len(images) + 1, material, preview, tool_results)
            images.append(
                ImagePart(
                    label,
                    preview.role,
                    preview.media_type,
                    preview.data,
                    preview.source_id,
                    material.origin,
                    material.call_id,
                )
            )
    if total_images > len(images):
        lines.append(f"[… {total_images - len(images)} more image(s) not shown]")
    return Rendering(
        text="\n".join(lines).rstrip() + "\n",
        citable=frozenset(citable),
        shown_blocks=shown,
        omitted_blocks=omitted,
        images=tuple(images),
        omitted_images=total_images - len(images),
        omitted_image_names=tuple(left_out),
    )
