"""PyMuPDF, imported without its layout model and pymupdf4llm.

PyMuPDF 2 imports ``pymupdf.layout`` and ``pymupdf4llm`` (an ONNX model,
onnxruntime and NumPy: ~0.45 s, and onnxruntime writes a device id under
``~/.cache``) from its own ``__init__`` whenever they are installed. DoneCheck
reads tables with the classic line-based finder and uses neither, so the first
import here holds them back; a later ``import pymupdf4llm`` elsewhere in the same
process (the parsing benchmark's peer) still works.
"""

from __future__ import annotations

import sys

_HELD_BACK = ("pymupdf.layout", "pymupdf4llm")

if "pymupdf" not in sys.modules:
    held = [name for name in _HELD_BACK if name not in sys.modules]
    for name in held:
        sys.modules[name] = None  # type: ignore[assignment]  # makes "import name" fail
    try:
        import pymupdf
    finally:
        for name in held:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]

import pymupdf  # noqa: E402  # after the guard above, on purpose

__all__ = ["pymupdf"]
