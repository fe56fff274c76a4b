"""What ``check()`` and ``Checker.feed()`` take, turned into the bytes the
checker reads, losslessly.

Accepted: event dicts (any ``Mapping``), pydantic events of ``ag_ui.core``
(serialized as ``ag_ui.encoder.EventEncoder`` puts them on the wire), JSON
text (one event, JSON Lines, one JSON array), SSE text (``data:`` lines),
``bytes`` of any of those, binary or text file objects, and iterables of
events (dicts, models, or one event's JSON text each). A ``str`` is always
data, never a path: paths are given explicitly (``path=`` or a
``pathlib.Path``). Strings reach the checker as UTF-8 with every lone
surrogate (what ``json.loads`` gives for a JavaScript producer's split
emoji) written as its JSON escape ``\\uD83D``, so the checker sees what the
producer sent (``schema.lone-surrogate``), never a replacement character.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Iterable, Mapping, Optional, Tuple

FORMATS = ("jsonl", "json", "sse")
"""``format=`` values: JSON Lines, one JSON array, a saved SSE body."""

ACCEPTED = (
    "an event dict, a pydantic event of ag_ui.core, JSON or JSON Lines or SSE text "
    "(str or bytes), a file object, an iterable of events, or a path given as "
    "path=... or a pathlib.Path"
)

_SSE_FIELDS = (b"data:", b"event:", b"id:", b"retry:", b":")
_SURROGATE = re.compile("[\ud800-\udfff]")


class InputError(ValueError):
    """An input the wrapper cannot send as given (a ``str`` element of an
    event list that holds several lines and is not one JSON value, SSE text
    fed to a ``Checker`` reading JSON, an unknown ``format``)."""


class InputTypeError(TypeError):
    """An input of a type ``check()`` or ``Checker.feed()`` does not take;
    the message names what they take."""


def escape_surrogates(text: str) -> str:
    """``text`` with each lone surrogate written as a JSON ``\\uXXXX``
    escape. In JSON text a surrogate can only stand inside a string, where
    the escape means the same code unit, so nothing is lost."""
    return _SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def _utf8(text: str) -> bytes:
    return escape_surrogates(text).encode("utf-8")


def is_model(value: Any) -> bool:
    """A pydantic (v2) model, as ``ag_ui.core``'s events are."""
    return hasattr(value, "model_dump_json") and hasattr(value, "model_dump")


def model_json(event: Any) -> bytes:
    """A pydantic event as ``ag_ui.encoder.EventEncoder`` writes it on the
    wire (its ``data:`` payload); without ``ag_ui`` installed, or where the
    encoder cannot write the value (a lone surrogate), its fields dumped
    ``by_alias`` and ``exclude_none``, as the encoder does."""
    try:
        from ag_ui.encoder import EventEncoder  # type: ignore[import-not-found]

        framed = EventEncoder().encode(event)
        if framed.startswith("data: ") and framed.endswith("\n\n") and "\n" not in framed[6:-2]:
            return framed[6:-2].encode("utf-8")
    except Exception:  # noqa: BLE001 (any encoder failure: dump the fields instead)
        pass
    fields = event.model_dump(mode="json", by_alias=True, exclude_none=True)
    return _utf8(json.dumps(fields, ensure_ascii=False))


def event_json(event: Any) -> bytes:
    """One event (a mapping or a pydantic model) as one line of JSON,
    without the line break."""
    if is_model(event):
        return model_json(event)
    try:
        return _utf8(json.dumps(event, ensure_ascii=False))
    except TypeError as e:
        raise InputTypeError(f"an event is not JSON serializable ({e}); expected {ACCEPTED}") from None


def looks_like_sse(data: bytes) -> bool:
    """Whether ``data`` reads as a saved SSE body: its first non-blank line
    starts with an SSE field (``data:``, ``event:``, ``id:``, ``retry:``,
    or ``:`` for a comment), as ``check --input-format`` sniffs."""
    head = data.lstrip(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    return head.startswith(_SSE_FIELDS)


def sniff(data: bytes, forced: Optional[str]) -> str:
    """The format of ``data``: ``forced``, else ``sse`` or ``json`` (JSON
    Lines or an array, which the checker tells apart)."""
    if forced is not None:
        if forced not in FORMATS:
            raise InputError(f"format={forced!r}: expected one of {', '.join(FORMATS)}")
        return forced
    return "sse" if looks_like_sse(data) else "json"


def one_json_value(data: bytes) -> Optional[bytes]:
    """``data`` as one line when it is one JSON object spread over several
    lines (a pretty-printed event), else ``None``."""
    stripped = data.strip()
    if not stripped.startswith(b"{") or b"\n" not in stripped:
        return None
    try:
        value = json.loads(stripped)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    return _utf8(json.dumps(value, ensure_ascii=False))


def _data(value: Any) -> Optional[bytes]:
    """Text or bytes as bytes (a file object read to its end); ``None``
    for anything else."""
    if isinstance(value, str):
        return _utf8(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    read = getattr(value, "read", None)
    if callable(read) and not isinstance(value, (Mapping, os.PathLike)):
        content = read()
        if isinstance(content, str):
            return _utf8(content)
        if isinstance(content, (bytes, bytearray)):
            return bytes(content)
        raise InputTypeError(f"the file object's read() gave {type(content).__name__}, not str or bytes")
    return None


def element_line(element: Any) -> bytes:
    """One element of an event list as one JSON line (no line break): a
    mapping or a model serialized; JSON text sent as it is (a line that is
    not JSON is ``schema.not-json``), a pretty-printed object joined into
    one line."""
    if isinstance(element, Mapping) or is_model(element):
        return event_json(element)
    data = _data(element) if isinstance(element, (str, bytes, bytearray, memoryview)) else None
    if data is None:
        raise InputTypeError(
            f"an element of the event list is a {type(element).__name__}: each element is an event "
            "dict, a pydantic event of ag_ui.core, or one event's JSON text (str or bytes)"
        )
    data = data[:-2] if data.endswith(b"\r\n") else data[:-1] if data.endswith(b"\n") else data
    if b"\n" in data or b"\r" in data:
        joined = one_json_value(data)
        if joined is None:
            raise InputError(
                "an element of the event list holds several lines and is not one JSON value: "
                "give one event per element (pass JSON Lines or SSE text whole, not in a list)"
            )
        return joined
    return data


def stream_of(source: Any, forced: Optional[str]) -> Tuple[bytes, Optional[str]]:
    """What ``check()`` sends on stdin for ``source`` (anything but a
    path), and the ``--input-format`` to give (``None``: the checker
    sniffs, as this module does)."""
    if forced is not None:
        sniff(b"", forced)  # an unknown format is an InputError
    if source is None:
        raise InputTypeError(f"check() needs a stream: {ACCEPTED}")
    if isinstance(source, Mapping) or is_model(source):
        body = event_json(source) + b"\n"
        return (b"data: " + body + b"\n" if forced == "sse" else body), forced
    data = _data(source)
    if data is not None:
        if isinstance(source, str) and _names_a_file(source):
            raise InputError(
                f"check() got the str {source!r}, which names a file: a str is the stream's "
                "text, never a path; pass path=... or a pathlib.Path to check a file"
            )
        if sniff(data, forced) != "sse":
            data = one_json_value(data) or data
        return data, forced
    if isinstance(source, Iterable):
        lines = [element_line(e) for e in source]
        if forced == "sse":
            return b"".join(b"data: " + line + b"\n\n" for line in lines), "sse"
        return b"".join(line + b"\n" for line in lines), forced
    raise InputTypeError(f"check() takes {ACCEPTED}; not a {type(source).__name__}")


def _names_a_file(text: str) -> bool:
    """A one-line str that is no JSON and no SSE but the name of an
    existing file: a path passed where the stream's text goes (an earlier
    version of ``check`` took paths as str), refused rather than checked."""
    one = text.strip()
    if not one or "\n" in one or one[0] in "{[\"" or looks_like_sse(one.encode("utf-8", "replace")):
        return False
    try:
        return os.path.isfile(one)
    except (OSError, ValueError):
        return False
