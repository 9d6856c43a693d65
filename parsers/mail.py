"""E-mail: headers, body and attachments.

``.eml`` is read with the standard library; an HTML-only body goes through the
HTML converter. Attachments are listed, and parsed like archive members within
the same limits. Outlook ``.msg`` is read with olefile: its MAPI property
streams (sender, recipients, subject, body, HTML body, attachments).
"""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage
from typing import Any

from donecheck.parsers.base import MaterialBuilder, ParseContext, failure_reason, markdown_table
from donecheck.parsers.detect import Detection
from donecheck.parsers.html import add_html
from donecheck.parsers.material import Material

__all__ = ["MailParser"]

MSG = "application/vnd.ms-outlook"
_HEADERS = ("From", "To", "Cc", "Date", "Subject")


class MailParser:
    recipe = "mail-1"

    def accepts(self, detection: Detection) -> bool:
        return detection.mime in {"message/rfc822", MSG}

    def parse(self, data: bytes, ctx: ParseContext) -> Material:
        out = ctx.builder(self.recipe)
        if ctx.detection.mime == MSG:
            return self._msg(data, ctx, out)
        message = email.message_from_bytes(data, policy=policy.default)
        assert isinstance(message, EmailMessage)
        headers = [f"{h}: {message[h]}" for h in _HEADERS if message[h] is not None]
        if not headers:
            return out.fail("not an e-mail: no From/To/Subject/Date headers")
        out.add("meta", "\n".join(headers))
        for defect in message.defects[:3]:
            out.warn(f"malformed: {type(defect).__name__}")
        body = message.get_body(preferencelist=("plain", "html"))
        if body is None:
            out.warn("the message has no text body")
        else:
            content = body.get_content()
            if body.get_content_type() == "text/html":
                add_html(out, content)
            else:
                out.add("text", content.strip())
        attachments: list[tuple[str, str, bytes]] = []
        for part in message.iter_attachments():
            raw = part.get_payload(decode=True)
            payload = raw if isinstance(raw, bytes) else b""
            name = part.get_filename() or f"attachment-{len(attachments) + 1}"
            attachments.append((name, part.get_content_type(), payload))
        self._attachments(attachments, ctx, out)
        return out.build()

    def _attachments(
        self, items: list[tuple[str, str, bytes]], ctx: ParseContext, out: MaterialBuilder
    ) -> None:
        if not items:
            return
        rows = [["attachment", "type", "bytes"]] + [[n, t, str(len(p))] for n, t, p in items]
        out.add("table", "Attachments\n" + markdown_table(rows), rows=tuple(map(tuple, rows)))
        for name, _, payload in items:
            if out.full or ctx.out_of_time():
                break
            if ctx.parse_member is None or ctx.depth + 1 > ctx.limits.archive_depth:
                out.warn(f"attachment {name!r} not parsed: nesting depth limit")
                continue
            member = ctx.parse_member(payload, name, ctx.depth + 1)
            status = member.status + (f": {member.reason}" if member.reason else "")
            out.add("heading", f"Attachment {name} ({member.detected_type}, {status})", level=2)
            out.extend(member, prefix=name)
            if member.status in {"failed", "partial"}:  # as an archive's member: said
                out.stop(f"attachment {name} {status}")

    def _msg(self, data: bytes, ctx: ParseContext, out: MaterialBuilder) -> Material:
        """Outlook .msg: an OLE compound file whose streams are MAPI properties
        (read with olefile, as MarkItDown does; extract-msg is GPL)."""
        import olefile

        try:
            ole = olefile.OleFileIO(data)
        except Exception as exc:  # olefile raises OSError and others on damage
            return out.fail(failure_reason(exc))
        with ole:
            prop = _MsgProps(ole, "")
            sender = prop.text(_PR_SENDER_NAME)
            address = prop.text(_PR_SENDER_EMAIL)
            if address and address not in sender:
                sender = f"{sender} <{address}>" if sender else address
            transport = prop.text(_PR_HEADERS)
            date = next(
                (line[5:].strip() for line in transport.splitlines() if line.startswith("Date:")),
                "",
            )
            fields = (
                ("From", sender),
                ("To", prop.text(_PR_DISPLAY_TO)),
                ("Cc", prop.text(_PR_DISPLAY_CC)),
                ("Date", date),
                ("Subject", prop.text(_PR_SUBJECT)),
            )
            headers = [f"{label}: {value}" for label, value in fields if value]
            if not headers and not ole.exists("__properties_version1.0"):
                return out.fail("not an Outlook message: no MAPI properties in the file")
            out.add("meta", "\n".join(headers) or "(no sender, recipients or subject)")
            body = prop.text(_PR_BODY)
            html = prop.binary(_PR_HTML)
            if body.strip():
                out.add("text", body.strip())
            elif html:
                add_html(out, html.decode("utf-8", "replace"))
            else:
                out.warn("the message has no text body")
            items: list[tuple[str, str, bytes]] = []
            for storage in _attachment_storages(ole)[: ctx.limits.archive_members]:
                part = _MsgProps(ole, storage + "/")
                name = (
                    part.text(_PR_ATTACH_LONG_NAME)
                    or part.text(_PR_ATTACH_NAME)
                    or f"attachment-{len(items) + 1}"
                )
                embedded = f"{storage}/__substg1.0_{_PR_ATTACH_DATA}000D"
                if ole.exists(embedded):  # an attached message, stored as a sub-storage
                    inner = _MsgProps(ole, embedded + "/")
                    subject = inner.text(_PR_SUBJECT) or name
                    out.add("heading", f"Attached message: {subject}", level=2)
                    out.add("text", inner.text(_PR_BODY))
                    continue
                payload = part.binary(_PR_ATTACH_DATA, ctx.limits.member_bytes)
                if payload is None:
                    out.warn(f"attachment {name!r} not read: larger than the member limit")
                    continue
                items.append(
                    (name, part.text(_PR_ATTACH_MIME) or "application/octet-stream", payload)
                )
            self._attachments(items, ctx, out)
        return out.build()


# MAPI property tags (the high word of a property id) an Outlook .msg stores as
# "__substg1.0_<tag><type>" streams; type 001F is UTF-16LE text, 001E 8-bit text.
_PR_SUBJECT = "0037"
_PR_HEADERS = "007D"
_PR_SENDER_NAME = "0C1A"
_PR_SENDER_EMAIL = "0C1F"
_PR_DISPLAY_CC = "0E03"
_PR_DISPLAY_TO = "0E04"
_PR_BODY = "1000"
_PR_HTML = "1013"
_PR_ATTACH_DATA = "3701"
_PR_ATTACH_NAME = "3704"
_PR_ATTACH_LONG_NAME = "3707"
_PR_ATTACH_MIME = "370E"


class _MsgProps:
    """The property streams of one storage (the message, or one attachment)."""

    def __init__(self, ole: Any, prefix: str) -> None:
        self.ole = ole
        self.prefix = prefix

    def _read(self, name: str, limit: int) -> bytes | None:
        path = f"{self.prefix}__substg1.0_{name}"
        if not self.ole.exists(path) or self.ole.get_type(path) != 2:  # 2: a stream
            return None
        if self.ole.get_size(path) > limit:
            return None
        with self.ole.openstream(path) as stream:
            data: bytes = stream.read(limit + 1)
        return data if len(data) <= limit else None

    def text(self, tag: str) -> str:
        wide = self._read(tag + "001F", 4 << 20)
        if wide is not None:
            return wide.decode("utf-16-le", "replace").rstrip("\x00").strip()
        narrow = self._read(tag + "001E", 4 << 20)
        if narrow is not None:
            return narrow.decode("cp1252", "replace").rstrip("\x00").strip()
        return ""

    def binary(self, tag: str, limit: int = 16 << 20) -> bytes | None:
        return self._read(tag + "0102", limit)


def _attachment_storages(ole: Any) -> list[str]:
    names = {
        entry[0]
        for entry in ole.listdir(streams=True, storages=True)
        if entry and entry[0].startswith("__attach_version1.0_#")
    }
    return sorted(names)
