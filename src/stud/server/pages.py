"""The HTML pages, files of ``static/``: each answer says ``Cache-Control: no-cache``, so the
browser asks again at every visit (a 304 while the file is unchanged) and a table or
tournament that is gone is never shown again from its cache."""

from __future__ import annotations

from pathlib import Path

from fastapi.responses import FileResponse

STATIC = Path(__file__).parent / "static"


def page(name: str, status_code: int = 200) -> FileResponse:
    return FileResponse(STATIC / name, status_code=status_code,
                        headers={"Cache-Control": "no-cache"})
