"""OCR through the Tesseract command-line tool, when it is installed."""

from __future__ import annotations

import functools
import shutil
import subprocess

__all__ = ["OCR_MISSING", "ocr_available", "ocr_image"]

OCR_MISSING = "OCR not available: Tesseract is not installed, so text inside images was not read"


@functools.cache
def ocr_available() -> bool:
    return shutil.which("tesseract") is not None


def ocr_image(image: bytes, *, timeout_s: float, languages: str = "eng") -> str:
    """Text Tesseract reads in an encoded image (PNG/JPEG/TIFF…).

    Raises ``TimeoutError`` past ``timeout_s`` and ``RuntimeError`` when
    Tesseract fails; callers record either as a warning.
    """
    try:
        done = subprocess.run(
            ["tesseract", "stdin", "stdout", "-l", languages, "--psm", "3"],
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
