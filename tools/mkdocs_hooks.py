"""MkDocs build hooks (``hooks:`` in mkdocs.yml; no plugin to install).

The site's front page is the repository's README.md, used as it is rather
than copied into docs/, so that the README stays the one front door on a
code host and on the site. Links are written for a reader of the
repository; on the site:

* ``docs/x.md`` from the README becomes ``x.md``, and ``../README.md`` from a
  docs page becomes ``index.md``;
* a link to a file or folder the site does not carry as a page
  (``examples/...``, ``core/...``, ``deploy/nginx.conf``, ``docs/``)
  becomes its text, followed by the path when the text does not already
  name it: a reader of the site sees where the file is in the repository,
  and no link leads nowhere.

Fenced code blocks are left as they are.
"""

from __future__ import annotations

import logging
import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
# Under "mkdocs", so that --strict counts its warnings.
log = logging.getLogger("mkdocs.hooks.memvet")
README = "README.md"
_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(([^()\s]+)\)")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def on_files(files: Files, config: Any) -> Files:
    """Add the README as the site's ``index.md``."""
    if files.get_file_from_path("index.md") is None:
        files.append(File.generated(config, "index.md", abs_src_path=str(ROOT / README)))
    return files


def _rewrite(target: str, text: str, image: str, source_dir: Path, docs_dir: Path) -> str:
    if re.match(r"^[a-z][a-z0-9+.-]*:|^#", target):
        return f"{image}[{text}]({target})"
    path, _, anchor = target.partition("#")
    anchor = f"#{anchor}" if anchor else ""
    resolved = Path(posixpath.normpath((source_dir / path).as_posix()))
    if resolved == ROOT / README:
        return f"{image}[{text}](index.md{anchor})"
    if resolved.is_relative_to(docs_dir) and not resolved.is_dir():
        return f"{image}[{text}]({resolved.relative_to(docs_dir).as_posix()}{anchor})"
    shown = resolved.relative_to(ROOT).as_posix() if resolved.is_relative_to(ROOT) else path
    if not resolved.exists():
        log.warning("a link to %r names no file of the repository", target)
    return text if shown in text else f"{text} (`{shown}`)"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Point each page's links at pages of the site, or name the file in the repository."""
    docs_dir = Path(config["docs_dir"]).resolve()
    is_readme = page.file.src_uri == "index.md" and Path(page.file.abs_src_path).name == README
    source_dir = ROOT if is_readme else (docs_dir / page.file.src_uri).parent
    out, fenced = [], False
    for line in markdown.splitlines(keepends=True):
        if _FENCE.match(line):
            fenced = not fenced
        if not fenced:
            line = _LINK.sub(lambda m: _rewrite(m.group(3), m.group(2), m.group(1), source_dir, docs_dir), line)
        out.append(line)
    return "".join(out)
