"""PyMuPDF, imported without its layout model and pymupdf4llm.

PyMuPDF 2 imports ``pymupdf.layout`` and ``pymupdf4llm`` (an ONNX model,
onnxruntime and NumPy: ~0.45 s, and onnxruntime writes a device id under
``~/.cache``) from its own ``__init__`` whenever they are installed. DoneCheck
reads tables with the classic line-based finder and uses neither, so the first
import here holds them back; a later ``import pymupdf4llm`` elsewhere in the same
process (the parsing benchmark's peer) still works.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

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

# PyMuPDF 1.26+ prints a hint to install pymupdf_layout on stdout (which would reach a
# parse worker's frames); DoneCheck reads without the layout model on purpose
if hasattr(pymupdf, "no_recommend_layout"):
    pymupdf.no_recommend_layout()

__all__ = ["plain_settings", "pymupdf"]


@contextlib.contextmanager
def plain_settings() -> Iterator[None]:
    """PyMuPDF's process-wide text settings as DoneCheck reads with, restored after.

    pymupdf4llm turns quad corrections off on import, which moves character boxes
    and so which table cell a word lands in; a host that imported it (or PyMuPDF
    with its layout package first) would otherwise change what DoneCheck reads.
    """
    tools = pymupdf.TOOLS
    quads = bool(tools.unset_quad_corrections(None))
    if quads:
        tools.unset_quad_corrections(False)
    try:
        yield
    finally:
        if quads:
            tools.unset_quad_corrections(True)
