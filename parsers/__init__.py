"""Attachment parsers: one module per format family behind the :class:`Parser` interface.

:func:`parse_bytes` detects the type from content and hands the bytes to the
first parser that accepts it. A type with no parser is ``unparsed`` with the
detected type named; a parser that raises is ``failed`` with the error named.
Nothing unread is ever reported as read.

==================  ===============================================
module              formats
==================  ===============================================
:mod:`.pdf`         PDF (PyMuPDF)
:mod:`.office`      DOCX, XLSX, PPTX; XLS/ODS/XLSB (calamine); DOC/PPT/RTF/ODT via LibreOffice
:mod:`.epub`        EPUB
:mod:`.html`        HTML, XHTML
:mod:`.image`       PNG, JPEG, GIF, WebP, TIFF, BMP (+ OCR with Tesseract), SVG
:mod:`.structured`  CSV/TSV, JSON, Jupyter notebooks
:mod:`.mail`        e-mail (.eml; Outlook .msg with olefile)
:mod:`.archive`     ZIP, TAR, gzip/bzip2/xz
:mod:`.text`        text and code in any detected encoding
==================  ===============================================


Importing this package is cheap: the registry (:mod:`.registry`, which loads every
format library — PyMuPDF, python-docx, …) is imported on first use of one of its
names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from donecheck.parsers.base import ParseLimits, Parser, source_id
    from donecheck.parsers.detect import Detection, detect
    from donecheck.parsers.registry import PARSERS, RECIPE_VERSION, parse_bytes

__all__ = [
    "PARSERS",
    "RECIPE_VERSION",
    "Detection",
    "ParseLimits",
    "Parser",
    "detect",
    "parse_bytes",
    "source_id",
]

_HOME = {
    "PARSERS": "registry",
    "RECIPE_VERSION": "registry",
    "parse_bytes": "registry",
    "Detection": "detect",
    "detect": "detect",
    "ParseLimits": "base",
    "Parser": "base",
    "source_id": "base",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'donecheck.parsers' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"donecheck.parsers.{home}"), name)
    globals()[name] = value
    return value
