"""Writes MicroFy's media into web/static/microfy/: one SVG cover per album and one short WAV
clip per track. Deterministic (seeded by the ids, standard library only: `wave`, `struct`).

    python catalogs/microfy/media.py      # after generate.py

Covers are geometric art in two colours with the album and artist names as text; clips are a
0.8 s phrase of four sine notes (8 kHz, 8-bit mono), a different phrase for every track. Media
is decoration only (docs/environments.md#pages): nothing is graded on it.
"""

from __future__ import annotations

import json
import math
import random
import wave
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent
STATIC = HERE.parents[1] / "web" / "static" / "microfy"
RATE = 8000
NOTE_S = 0.2
SCALE = [261.63, 293.66, 329.63, 392.00, 440.00, 523.25, 587.33, 659.25]
PALETTE = ["#1db954", "#e13300", "#8c67ab", "#1e3264", "#e8115b", "#148a08", "#bc5900", "#509bf5",
           "#27856a", "#dc148c", "#477d95", "#f59b23", "#7358ff", "#0d73ec", "#af2896", "#503750"]


def load(name: str) -> list[dict]:
    return [json.loads(line) for line in (HERE / name).read_text(encoding="utf-8").splitlines() if line]


def cover_svg(album: dict, artist: str) -> str:
    rng = random.Random(album["id"])
    back, fore = rng.sample(PALETTE, 2)
    shapes = []
    for _ in range(rng.randrange(3, 7)):
        x, y, r = rng.randrange(0, 300), rng.randrange(0, 300), rng.randrange(20, 110)
        shape = rng.choice(["circle", "rect"])
        opacity = rng.choice(["0.35", "0.55", "0.8"])
        if shape == "circle":
            shapes.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fore}" opacity="{opacity}"/>')
        else:
            shapes.append(f'<rect x="{x - r}" y="{y - r // 2}" width="{r * 2}" height="{r}" fill="{fore}" '
                          f'opacity="{opacity}" transform="rotate({rng.randrange(-40, 40)} {x} {y})"/>')
    title, by = escape(album["name"]), escape(artist)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300" width="300" height="300" role="img">'
            f'<title>{title} by {by}</title><rect width="300" height="300" fill="{back}"/>{"".join(shapes)}'
            f'<rect x="0" y="228" width="300" height="72" fill="#000" opacity="0.45"/>'
            f'<text x="16" y="258" font-family="sans-serif" font-size="20" font-weight="700" fill="#fff">{title}</text>'
            f'<text x="16" y="284" font-family="sans-serif" font-size="14" fill="#ddd">{by}</text></svg>\n')


def clip_frames(track_id: str) -> bytes:
    rng = random.Random(track_id)
    notes = [rng.choice(SCALE) for _ in range(4)]
    samples = bytearray()
    per_note = int(RATE * NOTE_S)
    for freq in notes:
        for i in range(per_note):
            envelope = min(1.0, i / 80) * (1 - i / per_note)
            samples.append(128 + int(90 * envelope * math.sin(2 * math.pi * freq * i / RATE)))
    return bytes(samples)


def main() -> None:
    artists = {a["id"]: a["name"] for a in load("artists.jsonl")}
    (STATIC / "covers").mkdir(parents=True, exist_ok=True)
    (STATIC / "clips").mkdir(parents=True, exist_ok=True)
    albums = load("albums.jsonl")
    for album in albums:
        (STATIC / "covers" / f"{album['id']}.svg").write_text(cover_svg(album, artists[album["artist_id"]]),
                                                             encoding="utf-8")
    tracks = load("tracks.jsonl")
    for track in tracks:
        with wave.open(str(STATIC / "clips" / f"{track['id']}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(1)
            out.setframerate(RATE)
            out.writeframes(clip_frames(track["id"]))
    print(f"{len(albums)} covers, {len(tracks)} clips in {STATIC}")


if __name__ == "__main__":
    main()
