"""Seeded SVG pictures for MicroGram posts and stories: small compositions of shapes.

`picture(rng)` draws one scene with a palette and returns (svg_text, alt_text). The alt text
says what the composition shows, so it is the picture's description the pages print. Nothing
here is fetched or traced from anywhere: every picture is drawn from the seeded generator.
Standard library only.
"""

from __future__ import annotations

import random
from html import escape

SIZE = 400

# name → (sky / background pair, accent colours)
PALETTES = {
    "coral and violet": ("#ff8a65", "#6a4c93", ["#ffd166", "#ef476f", "#2d1e4f", "#f7b267"]),
    "teal and sand": ("#2a9d8f", "#e9c46a", ["#264653", "#f4a261", "#e76f51", "#fefae0"]),
    "misty blue": ("#a8dadc", "#457b9d", ["#1d3557", "#f1faee", "#e63946", "#cde7f0"]),
    "forest green": ("#95d5b2", "#1b4332", ["#2d6a4f", "#d8f3dc", "#b7e4c7", "#774936"]),
    "golden hour": ("#ffb703", "#fb8500", ["#023047", "#8ecae6", "#ffe8a3", "#9c4a1a"]),
    "pastel pink": ("#ffc8dd", "#bde0fe", ["#cdb4db", "#ffafcc", "#a2d2ff", "#5e548e"]),
    "night neon": ("#10002b", "#3c096c", ["#ff006e", "#3a86ff", "#ffbe0b", "#8338ec"]),
    "autumn rust": ("#f4d6b0", "#9c6644", ["#bc4749", "#6a994e", "#386641", "#f2e8cf"]),
}

SCENES = {
    "sunset": ["Sunset over the harbour", "Sun sinking into a calm sea", "Evening sky above the bay"],
    "mountains": ["Layered mountain ridges", "Snowy peaks at first light", "Hills fading into the distance"],
    "city": ["City skyline with lit windows", "Rooftops of the old town", "Downtown towers at dusk"],
    "garden": ["Flowers in a garden bed", "Wildflowers in a meadow", "Potted blooms on a balcony"],
    "coffee": ["Coffee cup on a café table", "Latte next to a notebook", "Morning espresso on a tray"],
    "beach": ["Beach umbrella on the sand", "Quiet beach with gentle waves", "Striped parasol by the shore"],
    "forest": ["Pine forest under a clear sky", "Row of trees along a trail", "Woodland path in the evening"],
    "abstract": ["Abstract circles and blocks", "Geometric shapes in a collage", "Overlapping bubbles and bars"],
}


def _gradient(top: str, bottom: str) -> str:
    return (f'<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{top}"/>'
            f'<stop offset="1" stop-color="{bottom}"/></linearGradient></defs>'
            f'<rect width="{SIZE}" height="{SIZE}" fill="url(#g)"/>')


def _sunset(rng: random.Random, acc: list[str]) -> list[str]:
    horizon = rng.randint(220, 280)
    cx, cy, r = rng.randint(120, 280), horizon - rng.randint(10, 50), rng.randint(40, 70)
    sun = f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{acc[0]}"/>'
    sea = f'<rect y="{horizon}" width="{SIZE}" height="{SIZE - horizon}" fill="{acc[2]}"/>'
    glints = [f'<rect x="{rng.randint(120, 260)}" y="{horizon + 15 + 18 * i}" width="{rng.randint(30, 90)}" height="4" '
              f'rx="2" fill="{acc[3]}" opacity="0.7"/>' for i in range(rng.randint(3, 6))]
    return [sun, sea, *glints]


def _mountains(rng: random.Random, acc: list[str]) -> list[str]:
    out = []
    for layer in range(3):
        base = 260 + layer * 50
        peak_x = rng.randint(60, 340)
        out.append(f'<polygon points="-20,{SIZE} {peak_x},{base - rng.randint(120, 200)} {SIZE + 20},{SIZE}" '
                   f'fill="{acc[layer % len(acc)]}" opacity="{0.6 + 0.15 * layer:.2f}"/>')
    out.append(f'<circle cx="{rng.randint(40, 360)}" cy="{rng.randint(40, 90)}" r="22" fill="{acc[3]}"/>')
    return out


def _city(rng: random.Random, acc: list[str]) -> list[str]:
    out, x = [], 0
    while x < SIZE:
        w, h = rng.randint(40, 80), rng.randint(120, 300)
        out.append(f'<rect x="{x}" y="{SIZE - h}" width="{w - 4}" height="{h}" fill="{acc[2]}"/>')
        for wy in range(SIZE - h + 14, SIZE - 10, 26):
            for wx in range(x + 8, x + w - 12, 16):
                if rng.random() < 0.55:
                    out.append(f'<rect x="{wx}" y="{wy}" width="7" height="10" fill="{acc[0]}"/>')
        x += w
    return out


def _garden(rng: random.Random, acc: list[str]) -> list[str]:
    out = [f'<rect y="300" width="{SIZE}" height="100" fill="{acc[2]}"/>']
    for _ in range(rng.randint(5, 9)):
        cx, cy, r = rng.randint(30, 370), rng.randint(150, 330), rng.randint(14, 26)
        out.append(f'<line x1="{cx}" y1="{cy}" x2="{cx}" y2="{SIZE}" stroke="{acc[2]}" stroke-width="4"/>')
        colour = rng.choice(acc[:2] + acc[3:])
        for k in range(6):
            dx, dy = [(1, 0), (0.5, 0.87), (-0.5, 0.87), (-1, 0), (-0.5, -0.87), (0.5, -0.87)][k]
            out.append(f'<circle cx="{cx + dx * r:.0f}" cy="{cy + dy * r:.0f}" r="{r * 0.6:.0f}" fill="{colour}"/>')
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{r * 0.45:.0f}" fill="{acc[1]}"/>')
    return out


def _coffee(rng: random.Random, acc: list[str]) -> list[str]:
    cx = rng.randint(150, 250)
    return [f'<rect y="260" width="{SIZE}" height="140" fill="{acc[3]}"/>',
            f'<ellipse cx="{cx}" cy="300" rx="110" ry="28" fill="{acc[1]}"/>',
            f'<rect x="{cx - 60}" y="190" width="120" height="105" rx="14" fill="{acc[0]}"/>',
            f'<ellipse cx="{cx}" cy="192" rx="60" ry="14" fill="{acc[2]}"/>',
            f'<circle cx="{cx + 75}" cy="235" r="24" fill="none" stroke="{acc[0]}" stroke-width="10"/>',
            f'<path d="M{cx - 15} 170 q10 -25 0 -50 M{cx + 15} 170 q10 -25 0 -50" stroke="{acc[1]}" '
            'stroke-width="5" fill="none" opacity="0.6"/>']


def _beach(rng: random.Random, acc: list[str]) -> list[str]:
    px = rng.randint(110, 290)
    return [f'<rect y="210" width="{SIZE}" height="80" fill="{acc[1]}"/>',
            f'<rect y="290" width="{SIZE}" height="110" fill="{acc[3]}"/>',
            f'<line x1="{px}" y1="170" x2="{px + 10}" y2="340" stroke="{acc[2]}" stroke-width="5"/>',
            f'<path d="M{px - 80} 180 Q{px} 90 {px + 80} 180 Z" fill="{acc[0]}"/>',
            f'<circle cx="{rng.randint(40, 360)}" cy="70" r="30" fill="{acc[3]}"/>']


def _forest(rng: random.Random, acc: list[str]) -> list[str]:
    out = [f'<rect y="320" width="{SIZE}" height="80" fill="{acc[2]}"/>']
    for _ in range(rng.randint(6, 10)):
        x, h = rng.randint(10, 390), rng.randint(110, 220)
        out.append(f'<rect x="{x - 5}" y="300" width="10" height="40" fill="{acc[3]}"/>')
        out.append(f'<polygon points="{x - 35},310 {x},{310 - h} {x + 35},310" fill="{rng.choice(acc[:3])}"/>')
    return out


def _abstract(rng: random.Random, acc: list[str]) -> list[str]:
    out = []
    for _ in range(rng.randint(7, 12)):
        colour = rng.choice(acc)
        if rng.random() < 0.5:
            out.append(f'<circle cx="{rng.randint(0, 400)}" cy="{rng.randint(0, 400)}" r="{rng.randint(20, 90)}" '
                       f'fill="{colour}" opacity="0.8"/>')
        else:
            out.append(f'<rect x="{rng.randint(0, 340)}" y="{rng.randint(0, 340)}" width="{rng.randint(30, 140)}" '
                       f'height="{rng.randint(20, 120)}" rx="8" fill="{colour}" opacity="0.8"/>')
    return out


DRAW = {"sunset": _sunset, "mountains": _mountains, "city": _city, "garden": _garden, "coffee": _coffee,
        "beach": _beach, "forest": _forest, "abstract": _abstract}


def picture(rng: random.Random, scene: str | None = None) -> tuple[str, str, str]:
    """One composition: (svg, alt text, scene name)."""
    scene = scene or rng.choice(sorted(SCENES))
    palette = rng.choice(sorted(PALETTES))
    top, bottom, accents = PALETTES[palette]
    alt = f"{rng.choice(SCENES[scene])}, in {palette} tones"
    shapes = DRAW[scene](rng, accents)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" role="img">'
           f"<title>{escape(alt)}</title>{_gradient(top, bottom)}{''.join(shapes)}</svg>\n")
    return svg, alt, scene
