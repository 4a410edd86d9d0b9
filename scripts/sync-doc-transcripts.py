#!/usr/bin/env python3
"""Rewrites every ```transcript PATH block in protocol-docs/ and README.md with the current fixtures/PATH.

The test suite fails when a documented transcript and its fixture differ; after changing a
fixture on purpose, run this to carry the change into the documents.
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"```transcript (\S+)\n.*?```", re.S)

for doc in sorted((ROOT / "protocol-docs").rglob("*.md")) + [ROOT / "README.md"]:
    text = doc.read_text()
    new = BLOCK.sub(
        lambda m: "```transcript " + m.group(1) + "\n"
        + (ROOT / "fixtures" / m.group(1)).read_text() + "```",
        text,
    )
    if new != text:
        doc.write_text(new)
        print("updated", doc.relative_to(ROOT))
