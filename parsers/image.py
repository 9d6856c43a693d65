"""Images: format, dimensions, orientation, a bounded preview, OCR text.

The pixel count is checked from the header before anything is decoded, so a
decompression bomb is refused without allocating it. The preview (longest side
``preview_long_side``, default 1568 px, upright per EXIF) is what a multimodal
model is shown; an attachment image keeps the role ``reference`` (it is the
user's), unlike previews DoneCheck renders from documents.
"""

from __future__ import annotations

import io
import warnings

from PIL import Image, ImageOps, UnidentifiedImageError

from donecheck.parsers.base import ParseContext
from donecheck.parsers.detect import Detection
from donecheck.parsers.encoding import decode_text
from donecheck.parsers.material import Material
from donecheck.parsers.ocr import OCR_MISSING, ocr_available, ocr_image

__all__ = ["IMAGE_TYPES", "ImageParser", "SvgParser", "encode_preview"]

IMAGE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp", "image/tiff", "image/bmp"}
_ORIENTATION = {
    1: "upright",
    2: "mirrored",
    3: "rotated 180°",
    4: "flipped vertically",
    5: "mirrored and rotated 90° counter-clockwise",
    6: "rotated 90° clockwise",
    7: "mirrored and rotated 90° clockwise",
    8: "rotated 90° counter-clockwise",
}
_MAX_PNG_PREVIEW = 2 * 1024 * 1024


def encode_preview(image: Image.Image, long_side: int) -> tuple[bytes, str, int, int]:
    """(bytes, media type, width, height) of a downscaled copy: PNG, or JPEG if PNG is big."""
    copy = image.copy()
    copy.thumbnail((long_side, long_side))
    if copy.mode not in {"RGB", "RGBA", "L", "LA"}:
        copy = copy.convert("RGBA" if "A" in copy.getbands() else "RGB")
    buffer = io.BytesIO()
    copy.save(buffer, "PNG", optimize=False)
    data, media = buffer.getvalue(), "image/png"
    if len(data) > _MAX_PNG_PREVIEW:
        buffer = io.BytesIO()
        copy.convert("RGB").save(buffer, "JPEG", quality=85)
        data, media = buffer.getvalue(), "image/jpeg"
    return data, media, copy.width, copy.height


class ImageParser:
    recipe = "image-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime in IMAGE_TYPES

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        limits = ctx.limits
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                image = Image.open(io.BytesIO(data))
        except Image.DecompressionBombError as exc:
            return out.fail(f"pixel limit: {exc}; not decoded")
        except (UnidentifiedImageError, OSError, ValueError) as exc:
            return out.fail(f"corrupt: not a readable image ({exc})")
        width, height = image.size
        out.stats.update(width=float(width), height=float(height))
        if width * height > limits.image_pixels:
            return out.fail(
                f"pixel limit: {width}×{height} = {width * height} pixels is over the limit of "
                f"{limits.image_pixels} (a decompression bomb?); not decoded"
            )
        frames = getattr(image, "n_frames", 1)
        orientation = image.getexif().get(274, 1)
        facts = [
            f"{image.format or ctx.detection.mime} image, {width}×{height} pixels",
            f"mode {image.mode}",
        ]
        if orientation in _ORIENTATION and orientation != 1:
            facts.append(f"EXIF orientation: {_ORIENTATION[orientation]}")
        if frames > 1:
            facts.append(f"{frames} frames (the first is shown)")
            out.stats["frames"] = float(frames)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                image.load()
                upright = ImageOps.exif_transpose(image)
        except (OSError, ValueError, Image.DecompressionBombError) as exc:
            return out.fail(f"corrupt: the image data cannot be decoded ({exc})")
        out.add("image", ", ".join(facts))
        as_is = orientation in (None, 1) and image.format in {"PNG", "JPEG", "BMP", "TIFF"}
        if (
            as_is
            and image.format in {"PNG", "JPEG"}
            and max(width, height) <= limits.preview_long_side
            and len(data) <= _MAX_PNG_PREVIEW
            and frames == 1
        ):
            preview, media, pw, ph = data, f"image/{image.format.lower()}", width, height
        else:
            preview, media, pw, ph = encode_preview(upright, limits.preview_long_side)
        out.preview(preview, media, pw, ph, role=ctx.role or "reference")
        if not limits.ocr:
            out.warn("OCR is turned off: text inside the image was not read")
        elif not ocr_available():
            out.warn(OCR_MISSING)
        else:
            source = (
                data if as_is and max(width, height) <= 4000 else encode_preview(upright, 4000)[0]
            )
            try:
                text = ocr_image(source, timeout_s=limits.ocr_timeout_s)
            except (TimeoutError, RuntimeError) as exc:
                out.warn(f"OCR failed: {exc}")
            else:
                text = "\n".join(line for line in text.splitlines() if line.strip())
                if text:
                    out.add("text", "OCR text (machine-read; may contain errors):\n" + text)
                    out.stats["ocr_chars"] = float(len(text))
        return out.build()


class SvgParser:
    """SVG: the words it shows (``<text>``), its source, and a rendered preview."""

    recipe = "svg-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime == "image/svg+xml"

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        import xml.etree.ElementTree as ET

        from donecheck.parsers.mupdf import pymupdf

        out = ctx.builder(self.recipe)
        decoded = decode_text(data)
        if decoded is None:
            return out.fail("not decodable as text")
        try:
            root = ET.fromstring(decoded.text)
        except ET.ParseError as exc:
            return out.fail(f"corrupt: not well-formed XML ({exc})")
        words = [
            " ".join("".join(el.itertext()).split())
            for el in root.iter()
            if el.tag.rsplit("}", 1)[-1] == "text"
        ]
        title = next(
            (el.text for el in root.iter() if el.tag.rsplit("}", 1)[-1] == "title" and el.text), ""
        )
        facts = "SVG image" + (f" titled {title.strip()!r}" if title.strip() else "")
        out.add("image", facts)
        if any(words):
            out.add("text", "Text in the image:\n" + "\n".join(w for w in words if w))
        try:
            with pymupdf.open(stream=data, filetype="svg") as doc:
                page = doc[0]
                longest = max(page.rect.width, page.rect.height, 1)
                zoom = min(4.0, ctx.limits.preview_long_side / longest)
                pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
                out.preview(
                    pix.tobytes("png"),
                    "image/png",
                    pix.width,
                    pix.height,
                    role=ctx.role or "reference",
                )
        except Exception as exc:  # MuPDF cannot draw every SVG feature: the text still counts
            out.warn(f"no preview: the SVG could not be rendered ({type(exc).__name__})")
        lines = decoded.text.splitlines()
        body = "\n".join(f"{n:>5} | {line}" for n, line in enumerate(lines, start=1))
        out.add("code", body)
        return out.build()
