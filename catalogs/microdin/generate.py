"""Writes the MicroDin catalogs (companies, members, posts, post_comments, invitations,
conversations, messages, notifications, jobs) and the post images under web/static/microdin/.

Deterministic: `python catalogs/microdin/generate.py` writes the same bytes every time (a seeded
random.Random, standard library only). Ids are opaque and append-only: new records go at the
end of a list and take the next free number. People are the shared personas; the self user
p000 is connected to the first block of them, invitations come from the others.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
IMAGES = ROOT / "web" / "static" / "microdin"
sys.path.insert(0, str(HERE))
from din_jobs import JOBS  # noqa: E402
from din_text import (  # noqa: E402
    COMMENTS,
    COMPANY_ABOUT,
    CONVERSATIONS,
    IMAGE_ALTS,
    INVITE_NOTES,
    NOTIFICATIONS,
    POSTS,
    SCHOOLS,
    SIZES,
    SKILLS,
)

SEED = 17_2026
COMPANY_IDS = ["e012", "e014", "e017", "e020", "e029", "e032", "e069", "e113", "e141", "e006", "e009", "e013",
               "e034", "e039", "e042", "e044", "e060", "e071", "e080", "e082", "e086", "e089", "e091", "e099",
               "e016"]
CONNECTED = 45  # p001..p045 are connections of the self user


def load_shared(name: str) -> list[dict]:
    return [json.loads(line) for line in (ROOT / "catalogs" / "shared" / f"{name}.jsonl").open()]


def write(name: str, rows: list[dict]) -> None:
    with (HERE / f"{name}.jsonl").open("w") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def companies(entities: dict[str, dict], rnd: random.Random) -> list[dict]:
    rows = []
    for cid in COMPANY_IDS:
        e = entities[cid]
        about = COMPANY_ABOUT.get(cid, f"{e['name']} works in {e['industry'].lower()} from {e['city']}.")
        rows.append({"id": cid, "name": e["name"], "industry": e["industry"], "size": rnd.choice(SIZES),
                     "location": e["city"], "about": about})
    return rows


def members(personas: list[dict], names: dict[str, str], rnd: random.Random) -> list[dict]:
    rows = []
    for p in personas:
        number = int(p["id"][1:])
        din = p.get("din", {})
        company_id = din.get("company_id") if din.get("company_id") in COMPANY_IDS else None
        start = rnd.randint(2012, 2022)
        past = rnd.choice([c for c in COMPANY_IDS if c != company_id])
        experience = [f"{p['title']} · {p['company']} · {start}–present",
                      f"{rnd.choice(['Associate', 'Senior', 'Junior', 'Lead'])} {p['title'].split()[-1]} · "
                      f"{names[past]} · {start - rnd.randint(2, 5)}–{start}"]
        school = rnd.choice(SCHOOLS)
        rows.append({
            "id": p["id"], "headline": din.get("headline", f"{p['title']} at {p['company']}"),
            "company_id": company_id, "connected": 0 < number <= CONNECTED,
            "about": p["bio"], "experience": experience,
            "education": [f"{school} · {rnd.choice(['BA', 'BSc', 'MSc', 'MBA', 'BEng'])} · {start - 6}–{start - 2}"],
            "skills": rnd.sample(SKILLS, 4),
        })
    return rows


def svg_image(rnd: random.Random, kind: str) -> str:
    """A small abstract picture: a bar chart, hills at sunset, or a grid of sticky notes."""
    hue = rnd.randint(0, 359)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 240" width="480" height="240">',
             f'<rect width="480" height="240" fill="hsl({hue},45%,92%)"/>']
    if kind == "chart":
        for i in range(8):
            h = rnd.randint(30, 190)
            parts.append(f'<rect x="{30 + i * 55}" y="{220 - h}" width="36" height="{h}" rx="4" '
                         f'fill="hsl({(hue + 20 * i) % 360},55%,50%)"/>')
    elif kind == "hills":
        parts.append(f'<circle cx="{rnd.randint(80, 400)}" cy="70" r="36" fill="hsl({(hue + 40) % 360},80%,65%)"/>')
        for i in range(3):
            y = 140 + i * 30
            parts.append(f'<path d="M0 {y} Q 120 {y - rnd.randint(30, 80)} 240 {y} T 480 {y} V 240 H 0 Z" '
                         f'fill="hsl({hue},35%,{45 - i * 10}%)"/>')
    else:
        for i in range(12):
            x, y = 30 + (i % 6) * 72, 30 + (i // 6) * 100
            top = y + rnd.randint(0, 12)
            fill, turn = rnd.choice([50, 200, 330, 120]), rnd.randint(-6, 6)
            parts.append(f'<rect x="{x}" y="{top}" width="60" height="60" '
                         f'fill="hsl({fill},80%,75%)" transform="rotate({turn} {x + 30} {y + 30})"/>')
    parts.append("</svg>\n")
    return "".join(parts)


def posts(rnd: random.Random) -> tuple[list[dict], list[dict]]:
    rows, comments = [], []
    IMAGES.mkdir(parents=True, exist_ok=True)
    for i, (author, body) in enumerate(POSTS, start=1):
        pid = f"dp{i:03d}"
        row = {"id": pid, "author_id": author, "body": body, "image": None, "image_alt": None,
               "like_count": rnd.randint(3, 240), "share_count": rnd.randint(0, 30),
               "age_minutes": rnd.randint(20, 60 * 24 * 5)}
        if i % 3 == 1:
            kind, alt = IMAGE_ALTS[(i // 3) % len(IMAGE_ALTS)]
            row["image"], row["image_alt"] = f"{pid}.svg", alt
            (IMAGES / f"{pid}.svg").write_text(svg_image(rnd, kind))
        rows.append(row)
        for _ in range(rnd.choice([0, 1, 2, 2, 3, 4])):
            comments.append({"id": f"dc{len(comments) + 1:03d}", "post_id": pid,
                             "author_id": f"p{rnd.randint(1, 99):03d}", "body": rnd.choice(COMMENTS)})
    return rows, comments


def invitations(rnd: random.Random) -> list[dict]:
    rows = []
    for i in range(40):
        rows.append({"id": f"di{i + 1:03d}", "persona_id": f"p{CONNECTED + 5 + i:03d}",
                     "mutual_count": rnd.randint(0, 28),
                     "note": INVITE_NOTES[i % len(INVITE_NOTES)] if i % 4 == 0 else "",
                     "age_minutes": rnd.randint(30, 60 * 24 * 9)})
    return rows


def conversations(rnd: random.Random) -> tuple[list[dict], list[dict]]:
    convs, msgs = [], []
    for i, (counterpart, lines) in enumerate(CONVERSATIONS, start=1):
        cid = f"dv{i:03d}"
        convs.append({"id": cid, "counterpart_id": counterpart})
        age = rnd.randint(60, 60 * 24 * 6)
        for j, (mine, text) in enumerate(lines):
            msgs.append({"id": f"dm{len(msgs) + 1:03d}", "conversation_id": cid,
                         "sender_id": "p000" if mine else counterpart, "body": text,
                         "is_read": mine or j < len(lines) - 1, "age_minutes": age - j * 7})
    return convs, msgs


def notifications(rnd: random.Random) -> list[dict]:
    rows = []
    for i, (kind, actor, text, post_id, job_id) in enumerate(NOTIFICATIONS, start=1):
        rows.append({"id": f"dn{i:03d}", "kind": kind, "actor_id": actor, "text": text, "post_id": post_id,
                     "job_id": job_id, "age_minutes": rnd.randint(15, 60 * 24 * 4)})
    return rows


def jobs() -> list[dict]:
    rows = []
    for i, (title, company, location, kind, description, reqs, applicants, age, role, note) in enumerate(JOBS, 1):
        rows.append({"id": f"dj{i:03d}", "title": title, "company_id": company, "location": location,
                     "employment_type": kind, "description": description, "requirements": reqs,
                     "applicant_count": applicants, "age_minutes": age or 600 + 37 * i,
                     "_role": role, "_note": note})
    return rows


def main() -> None:
    rnd = random.Random(SEED)
    entities = {e["id"]: e for e in load_shared("entities")}
    personas = load_shared("personas")
    company_rows = companies(entities, rnd)
    names = {c["id"]: c["name"] for c in company_rows}
    member_rows = members(personas, names, rnd)
    post_rows, comment_rows = posts(rnd)
    conv_rows, message_rows = conversations(rnd)
    write("companies", company_rows)
    write("members", member_rows)
    write("posts", post_rows)
    write("post_comments", comment_rows)
    write("invitations", invitations(rnd))
    write("conversations", conv_rows)
    write("messages", message_rows)
    write("notifications", notifications(rnd))
    write("jobs", jobs())


if __name__ == "__main__":
    main()
