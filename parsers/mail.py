"""E-mail: headers, body and attachments.

``.eml`` is read with the standard library; an HTML-only body goes through the
HTML converter. Attachments are listed, and parsed like archive members within
the same limits. Outlook ``.msg`` needs the optional ``extract-msg`` package
(``pip install 'donecheck[msg]'``); without it the file is ``unparsed`` and the
reason says so.
"""

from __future__ import annotations

import email
import importlib.util
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
            out.add(
                "heading", f"Attachment {name} ({member.detected_type}, {member.status})", level=2
            )
            out.extend(member, prefix=name)

    def _msg(self, data: bytes, ctx: ParseContext, out: MaterialBuilder) -> Material:
        if importlib.util.find_spec("extract_msg") is None:
            return out.unparsed(
                "Outlook .msg: reading it needs the optional extract-msg package "
                "(pip install 'donecheck[msg]'), which is not installed"
            )
        import extract_msg

        try:
            message: Any = extract_msg.openMsg(data)
        except Exception as exc:  # the library raises many types on damaged files
            return out.fail(failure_reason(exc))
        with message:
            headers = [
                f"{label}: {value}"
                for label, value in (
                    ("From", message.sender),
                    ("To", message.to),
                    ("Cc", message.cc),
                    ("Date", message.date),
                    ("Subject", message.subject),
                )
                if value
            ]
            out.add("meta", "\n".join(headers))
            if message.body:
                out.add("text", str(message.body).strip())
            elif message.htmlBody:
                add_html(out, message.htmlBody.decode("utf-8", "replace"))
            items = []
            for attachment in message.attachments:
                payload = attachment.data if isinstance(attachment.data, bytes) else b""
                items.append((attachment.getFilename(), "application/octet-stream", payload))
            self._attachments(items, ctx, out)
        return out.build()
