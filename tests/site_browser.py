"""Headless Chromium for the status page's browser test: find it, dump a page's DOM, take a
screenshot, and measure how wide a page lays out in a phone-sized frame.

The page has no JavaScript, so the phone-width measurement loads it in a 390-px iframe of a
separate measuring page (outside the site folder) whose one script reads the frame's scroll
width once everything has loaded.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

# Local files only: no sandbox (CI runs as root, and containers often lack user namespaces),
# no GPU, no network chatter, a fresh profile per run.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--allow-file-access-from-files",  # lets the measuring page read its file:// iframe
)
TIMEOUT = 90
INSTALL = "apt-get install chromium (.ci/run installs it)"


def chromium() -> str:
    """The Chromium binary; skips the test where there is none, but fails under CI=true."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        reason = f"headless Chromium is not installed: {INSTALL}"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"{reason}; CI must run the browser test, not skip it")
        pytest.skip(reason)
    return found


@dataclass(frozen=True)
class Browser:
    binary: str
    scratch: Path  # profiles and measuring pages go here, never into the site folder

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        profile = self.scratch / f"profile-{len(list(self.scratch.glob('profile-*')))}"
        done = subprocess.run(
            [self.binary, *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done

    def dump_dom(self, page: Path, size: tuple[int, int] = (1280, 900)) -> str:
        return self.run(f"--window-size={size[0]},{size[1]}", "--dump-dom", page.as_uri()).stdout

    def screenshot(self, page: Path, size: tuple[int, int], out: Path) -> Path:
        self.run(f"--window-size={size[0]},{size[1]}", f"--screenshot={out}", page.as_uri())
        assert out.exists(), f"Chromium wrote no screenshot for {page}"
        return out

    def layout_width(self, page: Path, width: int, height: int) -> dict[str, int]:
        """How the page lays out in a ``width``-px frame: its scroll width, the frame's client
        width, and the chart's rendered and natural width (0 if the image did not load)."""
        frame = self.scratch / f"measure-{page.parent.name}-{width}.html"
        frame.write_text(
            '<!DOCTYPE html><html><body style="margin:0">'
            f'<iframe id="f" src="{page.as_uri()}" width="{width}" height="{height}" '
            'style="border:0"></iframe><script>addEventListener("load", () => {'
            'const d = document.getElementById("f").contentDocument, i = d.images[0];'
            "document.body.dataset.measured = [d.documentElement.scrollWidth,"
            "d.documentElement.clientWidth, Math.round(i.getBoundingClientRect().width),"
            'i.naturalWidth].join(" ")})</script></body></html>',
            encoding="utf-8",
        )
        found = re.search(r'data-measured="([\d ]+)"', self.dump_dom(frame))
        assert found, "the measuring page reported nothing"
        names = ("scroll_width", "client_width", "image_width", "image_natural_width")
        return dict(zip(names, map(int, found[1].split()), strict=True))


def colours(path: Path) -> tuple[tuple[int, int], int, float]:
    """A screenshot's size, its number of distinct colours (capped at 65,536) and the share
    of its pixels that are not its commonest colour."""
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        counts = rgb.getcolors(maxcolors=1 << 16)
        pixels = rgb.width * rgb.height
        if counts is None:
            return rgb.size, 1 << 16, 1.0
        commonest = max(n for n, _ in counts)
        return rgb.size, len(counts), 1 - commonest / pixels
