"""Fonts for everything pytest_fairy draws (virtual screenshots, Set-of-Mark labels, tree pictures).

Chinese text needs a CJK font. Debian: `apt-get install fonts-wqy-microhei` (or fonts-noto-cjk).
Without one, Latin text still renders with Pillow's built-in font and CJK glyphs show as boxes;
everything else (hierarchy, hashes, verdicts) is unaffected. Set FAIRY_FONT to a .ttf/.ttc to choose.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from PIL import ImageFont

CJK_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyh.ttc",
)

FontType = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def font_path() -> str | None:
    """The CJK-capable font file in use, or None when only Pillow's built-in font is available."""
    chosen = os.environ.get("FAIRY_FONT")
    if chosen and Path(chosen).is_file():
        return chosen
    return next((p for p in CJK_FONT_CANDIDATES if Path(p).is_file()), None)


@cache
def font(size: int) -> FontType:
    """A font of `size` pixels: the CJK font when installed, else Pillow's scalable default."""
    path = font_path()
    if path is not None:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)
