"""OCR with Tesseract: in process through MuPDF's engine, or the command-line tool.

PyMuPDF carries the Tesseract engine; it needs only the language data
(``eng.traineddata``) that a Tesseract install provides. Reading in process
avoids starting a program and loading the model for every image (~50 ms
instead of ~300 ms per screenshot here). When no language data is found but a
``tesseract`` program is, the program is used.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
from typing import Any

from donecheck.parsers.mupdf import pymupdf

__all__ = ["OCR_MISSING", "ocr_available", "ocr_image", "ocr_page", "tessdata_dir"]

OCR_MISSING = "OCR not available: Tesseract is not installed, so text inside images was not read"
_LANGUAGES = "eng"


@functools.cache
def tessdata_dir() -> str | None:
    """A folder holding ``eng.traineddata``, if Tesseract's language data is installed."""
    candidates = [os.environ.get("TESSDATA_PREFIX", "")]
    candidates += sorted(glob.glob("/usr/share/tesseract-ocr/*/tessdata"), reverse=True)
    candidates += [
        "/usr/share/tessdata",
        "/usr/local/share/tessdata",
        "/opt/homebrew/share/tessdata",
    ]
    for folder in candidates:
        if folder and os.path.isfile(os.path.join(folder, f"{_LANGUAGES}.traineddata")):
            return folder
    return None


@functools.cache
def ocr_available() -> bool:
    return tessdata_dir() is not None or shutil.which("tesseract") is not None


def ocr_page(page: Any, *, dpi: int, timeout_s: float) -> str:
    """Text of a PyMuPDF page read by OCR (for scanned PDF pages and images)."""
    folder = tessdata_dir()
    if folder is not None:
        try:
            textpage = page.get_textpage_ocr(
                dpi=dpi, full=True, language=_LANGUAGES, tessdata=folder
            )
            return str(page.get_text(textpage=textpage))
        except Exception:  # the engine may be missing from this PyMuPDF build: use the CLI
            pass
    zoom = dpi / 72
    png = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False).tobytes("png")
    return _cli(png, timeout_s)


def ocr_image(image: bytes, *, timeout_s: float) -> str:
    """Text in an encoded image (PNG/JPEG/…), read at its own resolution."""
    if tessdata_dir() is not None:
        try:
            with (
                pymupdf.open(stream=image) as picture,
                pymupdf.open("pdf", picture.convert_to_pdf()) as pdf,
            ):
                return ocr_page(pdf[0], dpi=72, timeout_s=timeout_s)
        except Exception:  # an image MuPDF cannot open: let Tesseract try
            pass
    return _cli(image, timeout_s)


def _cli(image: bytes, timeout_s: float) -> str:
    """Raises ``TimeoutError`` past ``timeout_s``, ``RuntimeError`` when Tesseract fails."""
    if shutil.which("tesseract") is None:
        raise RuntimeError("tesseract is not installed")
    try:
        done = subprocess.run(
            ["tesseract", "stdin", "stdout", "-l", _LANGUAGES, "--psm", "3"],
            input=image,
            capture_output=True,
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise TimeoutError(f"OCR took longer than {timeout_s:g} s") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(f"tesseract failed: {message[-1] if message else done.returncode}")
    return done.stdout.decode("utf-8", "replace")
