"""HTML/Markdown → plain text: scripts, styles and page chrome removed; nothing is executed."""

from __future__ import annotations

import re
import warnings

from bs4 import BeautifulSoup, XMLParsedAsHTMLWarning

_DROP = [
    "script",
    "style",
    "noscript",
    "iframe",
    "object",
    "embed",
    "svg",
    "canvas",
    "template",
    "form",
    "nav",
    "footer",
    "header",
    "aside",
    "button",
    "input",
    "select",
    "textarea",
    "link",
    "meta",
]


def html_to_text(html: str) -> tuple[str, str]:
    """(title, text) of an HTML document."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        soup = BeautifulSoup(html, "lxml")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    for tag in soup(_DROP):
        tag.decompose()
    body = soup.find("main") or soup.find("article") or soup.body or soup
    blocks = []
    for line in body.get_text("\n").splitlines():
        line = " ".join(line.split())
        if line:
            blocks.append(line)
    text = "\n".join(blocks)
    if not title:
        h1 = soup.find("h1")
        title = h1.get_text(" ", strip=True) if h1 else ""
    return title, text


def markdown_to_text(md: str) -> tuple[str, str]:
    title = ""
    lines = []
    for line in md.splitlines():
        m = re.match(r"^\s*#{1,6}\s+(.*)", line)
        if m and not title:
            title = m.group(1).strip()
        line = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", line)  # images
        line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)  # links keep text
        line = re.sub(r"^\s*#{1,6}\s+|[*_`>]", "", line).strip()
        if line:
            lines.append(line)
    return title, "\n".join(lines)


def to_text(body: str, content_type: str) -> tuple[str, str]:
    ct = (content_type or "").lower()
    if "html" in ct or "xml" in ct or body.lstrip()[:1] == "<":
        return html_to_text(body)
    if "markdown" in ct:
        return markdown_to_text(body)
    first = next((ln.strip() for ln in body.splitlines() if ln.strip()), "")
    return first[:200], body
