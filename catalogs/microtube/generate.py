"""Writes the MicroTube catalogs and thumbnails: channels.jsonl (25), videos.jsonl (75),
video_comments.jsonl, notifications.jsonl, playlists.jsonl, and one SVG thumbnail per video plus one banner per
channel under web/static/microtube/.

Deterministic: run `python catalogs/microtube/generate.py` and every file comes out byte for byte
the same. Standard library only. Channels come from the shared entities (kind "channel"); every
title, comment and notification here is invented. Ids are opaque and append-only: add new items
at the end of their list so no existing id changes.

Scenario roles (authoring notes only, `_role` / `_note`, never shown):
- Exactly three gaming videos are preloaded (vid003, vid013, vid021: the `gaming_comments_more`
  targets). Comments naming games arrive on them: one names Civilization (the `comment_keyword`
  target, cm0054); the look-alikes name Stellaris, Age of Empires, Humankind, Twilight Imperium.
  No comment anywhere names Minecraft (the `comment_keyword_absent_noop` keyword).
- Subscribed science channels: Molecule Mondays and Orbit & Atom. vid056 (Molecule Mondays)
  is the `like_followed_upload` target; Deep Field Daily and Tiny Lab Notes are unsubscribed
  science channels whose uploads are decoys. Frame by Frame Club (film, subscribed) never
  uploads on any timeline (`like_other_channel_noop`).
- Videos with `age_minutes` are preload material; those with `_role: arrival` only arrive by
  event (their thumbnails exist from the start, like any catalog image).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STATIC = ROOT / "web" / "static" / "microtube"
SEED = 16_2026

# channel id, shared entity id (None: the self channel), verified
CHANNELS = [
    ("chn01", "e000", True), ("chn02", "e001", True), ("chn03", "e002", True), ("chn04", "e005", False),
    ("chn05", "e008", True), ("chn06", "e018", True), ("chn07", "e021", False), ("chn08", "e026", False),
    ("chn09", "e033", False), ("chn10", "e040", True), ("chn11", "e043", False), ("chn12", "e046", True),
    ("chn13", "e052", False), ("chn14", "e053", False), ("chn15", "e058", False), ("chn16", "e059", True),
    ("chn17", "e062", False), ("chn18", "e081", False), ("chn19", "e084", False), ("chn20", "e100", True),
    ("chn21", "e149", True), ("chn22", "e163", False), ("chn23", "e142", False), ("chn24", "e095", True),
    ("chn25", None, False),
]
SUBSCRIBED = ["chn01", "chn02", "chn03", "chn04", "chn05", "chn06", "chn10", "chn14"]

# channel, title, age in minutes (None: arrives by event), kind ("" | "live" | "short"), role note
VIDEOS = [
    ("chn01", "Why ice floats: hydrogen bonds explained", 2900, "", ""),
    ("chn01", "Five reactions you can run with kitchen vinegar", 13000, "", ""),
    ("chn03", "Ten strategy games that respect your time", 1500, "", "gaming video T1"),
    ("chn02", "How far is the nearest star, really?", 4300, "", "watched in the preload"),
    ("chn02", "Neutron stars: a teaspoon weighs a mountain", 9800, "", ""),
    ("chn04", "Building a whole song from one loop", 3600, "", ""),
    ("chn04", "Looper pedal buying guide", 20500, "", ""),
    ("chn05", "How the master of suspense framed a staircase", 5200, "", ""),
    ("chn05", "The long take, explained", 15100, "", ""),
    ("chn06", "What a USB-C cable is actually doing", 760, "", ""),
    ("chn06", "Inside a $9 smart plug", 7100, "", "watched in the preload"),
    ("chn07", "The postal system that built an empire", 2200, "", ""),
    ("chn08", "Learning a 4X board game in one evening", 3300, "", "gaming video T2"),
    ("chn09", "A dovetail joint with hand tools only", 6400, "", ""),
    ("chn09", "Sharpening chisels: three methods compared", 18800, "", ""),
    ("chn10", "Knife skills: the claw grip", 1100, "", ""),
    ("chn10", "A pan sauce in ten minutes", 8600, "", "watched in the preload"),
    ("chn11", "Overnight beans, no soaking drama", 4000, "", ""),
    ("chn13", "Hill repeats for beginners", 2600, "", ""),
    ("chn14", "What lives in a rock pool", 5900, "", ""),
    ("chn12", "How a wrong warp saves nine minutes", 1900, "", "gaming video T3"),
    ("chn15", "Who vs whom in four minutes", 11200, "", ""),
    ("chn15", "Affect or effect?", 600, "short", ""),
    ("chn16", "Wok hei at home without a jet burner", 3100, "", ""),
    ("chn17", "Ten garden birds by ear", 7700, "", ""),
    ("chn18", "Crossing the Andes by night bus", 12300, "", ""),
    ("chn20", "Editing rhythm in action scenes", 2500, "", ""),
    ("chn21", "The deep field photo at thirty", 4700, "", ""),
    ("chn22", "Growing crystals on a windowsill", 8200, "", ""),
    ("chn23", "Endings we still argue about", 6900, "", ""),
    ("chn24", "Office meeting, but it's a nature documentary", 1300, "", ""),
    ("chn24", "The printer finally speaks", 300, "short", ""),
    ("chn25", "My notebook haul, ranked", 26000, "", "the self channel"),
    ("chn07", "Why medieval maps put east at the top", 16400, "", ""),
    ("chn11", "Stock from scraps: a weekly habit", 21700, "", ""),
    ("chn13", "Stretching after a long run", 450, "short", ""),
    ("chn14", "Hermit crabs house-hunting", 17300, "", "watched in the preload"),
    ("chn16", "Five sauces for the whole week", 10100, "", ""),
    ("chn17", "Owl calls after dark", 24100, "", ""),
    ("chn18", "Border towns of the Balkans", 19600, "", ""),
    ("chn20", "Sound design you never noticed", 14200, "", ""),
    ("chn22", "Sugar glass for film props", 22800, "", ""),
    ("chn23", "Three sequels better than the original", 27500, "", ""),
    ("chn04", "Friday jam with the audience", 90, "live", "a live stream under way at the start"),
    ("chn06", "Reading a resistor in five seconds", 1700, "short", ""),
    ("chn10", "Sourdough starter check-in", 35000, "", "watched in the preload"),
    ("chn02", "Planets that orbit two suns", 30500, "", ""),
    ("chn01", "Soap bubbles and thin-film colours", 25400, "", ""),
    # arrivals (vid049 on)
    ("chn02", "Tides are not what you think", None, "", "subscribed science upload"),
    ("chn03", "Patch notes roundup: spring update", None, "", "subscribed gaming upload"),
    ("chn04", "Live looping session #40", None, "live", "subscribed live stream"),
    ("chn06", "Teardown: a budget e-reader", None, "", "subscribed upload"),
    ("chn06", "Why your router needs a reboot", None, "", "subscribed upload"),
    ("chn10", "Roast chicken, three ways", None, "", "subscribed upload"),
    ("chn10", "Onions without tears", None, "short", "subscribed short"),
    ("chn01", "Catalysts in twelve minutes: how enzymes cheat the energy hill", None, "",
     "like_followed_upload target: a subscribed science channel's upload"),
    ("chn14", "Anemones up close", None, "", "subscribed upload"),
    ("chn07", "Maps that lied on purpose", None, "", "unsubscribed upload"),
    ("chn11", "Bone broth basics", None, "", "unsubscribed upload"),
    ("chn13", "Trail shoe lacing trick", None, "short", "unsubscribed short"),
    ("chn16", "Fried rice rescue", None, "", "unsubscribed upload"),
    ("chn18", "A night train to nowhere", None, "", "unsubscribed upload"),
    ("chn19", "Modelling a low-poly castle", None, "", "unsubscribed gaming upload"),
    ("chn19", "Retro shaders in one afternoon", None, "", "unsubscribed gaming upload"),
    ("chn20", "Trailer cuts that spoil the film", None, "", "unsubscribed film upload"),
    ("chn21", "A new look at the Crab Nebula", None, "", "decoy: science, but an unsubscribed channel"),
    ("chn22", "Pipettes: a love letter", None, "", "decoy: science, but an unsubscribed channel"),
    ("chn23", "Remakes ranked by nobody's favourite", None, "", "unsubscribed film upload"),
    ("chn24", "When the group chat plans a trip", None, "", "unsubscribed upload"),
    ("chn09", "Fixing a wobbly chair for good", None, "", "unsubscribed upload"),
    ("chn17", "Dawn chorus, one species at a time", None, "", "unsubscribed upload"),
    ("chn15", "Semicolons are not scary", None, "", "unsubscribed upload"),
    ("chn02", "Orbit & Atom live: ask us about black holes", None, "live", "subscribed science live stream"),
]
# the self user's own playlists (preloaded): id, name, videos in order
PLAYLISTS = [
    ("pl01", "Cook this weekend", ["vid017", "vid024", "vid018", "vid046"]),
    ("pl02", "Science to show the kids", ["vid001", "vid005", "vid029"]),
]
WATCHED = ["vid004", "vid011", "vid017", "vid037", "vid046"]

TOPIC_BLURB = {
    "science": "Experiments, explainers and the odd explosion, every week.",
    "gaming": "Games, the people who make them, and the people who break them.",
    "music": "Loops, gear and live sessions.",
    "film": "How films are made, cut and argued about.",
    "tech": "Teardowns and plain-language explainers for the gadgets around you.",
    "education": "Short lessons that stick.",
    "diy": "Build it, fix it, keep it.",
    "cooking": "Weeknight food that tastes like the weekend.",
    "fitness": "Training for people with jobs.",
    "nature": "Small creatures, patient cameras.",
    "travel": "Slow routes and long rides.",
    "comedy": "Sketches about everyday nonsense.",
    "people": "Notebooks, planners and the occasional product rant.",
}
CATEGORY = {"diy": "howto", "fitness": "sports", "people": "people"}  # channel topic → video category

GENERIC_COMMENTS = [
    "This is the clearest explanation I've found so far.", "Watched this twice and caught new things both times.",
    "The editing on this one is so tight.", "Can you do a follow-up on the part at the end?",
    "My teacher showed this in class today!", "The background music is perfect for this.",
    "I tried this at home and it actually worked.", "Underrated channel, honestly.",
    "The pacing here is great, no filler.", "Pinned comment answered my question, thanks.",
    "Subscribed after the first minute.", "That intro animation deserves its own video.",
]


def persona_ids() -> list[str]:
    rows = [json.loads(line) for line in (ROOT / "catalogs/shared/personas.jsonl").read_text().splitlines() if line]
    return [r["id"] for r in rows if not r.get("is_self")]


def entities() -> dict[str, dict]:
    rows = [json.loads(line) for line in (ROOT / "catalogs/shared/entities.jsonl").read_text().splitlines() if line]
    return {r["id"]: r for r in rows}


def make_channels(rng: random.Random) -> list[dict]:
    shared = entities()
    out = []
    for cid, entity, verified in CHANNELS:
        if entity is None:
            record = {"id": cid, "name": "Alex Morgan", "handle": "@alexmorgan", "topic": "people",
                      "subscriber_count": 214, "is_verified": False, "is_self": True,
                      "description": TOPIC_BLURB["people"], "_role": "the self user's own channel"}
        else:
            e = shared[entity]
            record = {"id": cid, "name": e["name"], "handle": e["handle"], "topic": e["topic"],
                      "subscriber_count": rng.choice([rng.randint(2_000, 95_000), rng.randint(100_000, 2_400_000)]),
                      "is_verified": verified, "is_self": False,
                      "description": f"{e['name']}: {TOPIC_BLURB[e['topic']]}"}
            record["_role"] = "subscribed in every preload" if cid in SUBSCRIBED else "not subscribed"
        out.append(record)
    return out


def make_videos(rng: random.Random, channels: dict[str, dict]) -> list[dict]:
    out = []
    for n, (cid, title, age, kind, note) in enumerate(VIDEOS, 1):
        topic = channels[cid]["topic"]
        duration = 0 if kind == "live" else rng.randint(20, 58) if kind == "short" else rng.randint(150, 1900)
        views = rng.randint(300, 2_000_000) if age is not None else rng.randint(0, 40)
        record = {"id": f"vid{n:03d}", "channel_id": cid, "title": title,
                  "description": f"{title}. {TOPIC_BLURB[topic]} Chapters and sources are in the pinned comment.",
                  "category": CATEGORY.get(topic, topic), "duration_s": duration, "view_count": views,
                  "like_count": max(0, views // rng.randint(18, 60)), "is_live": kind == "live",
                  "is_short": kind == "short"}
        if age is not None:
            record["age_minutes"] = age
        else:
            record["_role"] = "arrival"
        if note:
            record["_note"] = note
        out.append(record)
    return out


# video, author, text, role note ("" = filler); these arrive by event
EVENT_COMMENTS = [
    ("vid013", "p014", "This scratches the same itch as Stellaris does for me, but on a table.",
     "decoy: names Stellaris, not Civilization"),
    ("vid003", "p022", "Surprised Age of Empires II didn't make the list at all.", "decoy: names Age of Empires"),
    ("vid012", "p031", "Civil servants carrying letters on horseback for weeks, wild.", "decoy: 'Civil', not the game"),
    ("vid003", "p007", "No list like this is complete without Civilization VI. One more turn, every night.",
     "target: names Civilization"),
    ("vid021", "p045", "Humankind did the culture mechanic better, fight me.", "decoy: names Humankind"),
    ("vid013", "p052", "We tried Twilight Imperium after this and lost an entire Saturday.",
     "decoy: names Twilight Imperium"),
    ("vid021", "p063", "The frame-perfect input at 6:12 is unreal.", "gaming filler"),
    ("vid003", "p071", "Could you do a part two with co-op games?", "gaming filler"),
    ("vid002", "p018", "The vinegar and baking soda volcano still gets me every time.", ""),
    ("vid010", "p026", "So the cable has a chip in it? Mind blown.", ""),
    ("vid016", "p033", "Claw grip finally clicked for me, thank you.", ""),
    ("vid024", "p040", "My smoke alarm disagrees with the wok hei part.", ""),
    ("vid027", "p047", "The cut on the train scene is textbook.", ""),
    ("vid031", "p055", "The 'alpha manager' bit had me crying.", ""),
    ("vid020", "p066", "I live near a rock pool and never knew any of this.", ""),
    ("vid006", "p077", "Could you share the loop settings from the second half?", ""),
    ("vid001", "p084", "Density explained without a single formula, love it.", ""),
    ("vid019", "p090", "Hill repeats are pain, but this made them less scary.", ""),
    ("vid025", "p093", "The wren at 3:40 sounds exactly like my neighbour's phone.", ""),
    ("vid030", "p097", "Still think that ending was a dream sequence.", ""),
    ("vid013", "p012", "The rulebook walkthrough was perfect for our group.", "gaming filler"),
    ("vid021", "p019", "Route planning content is my comfort food.", "gaming filler"),
]

# kind, channel, video (None: none), message, is_read, dismissed, age (None: arrives by event), note
NOTIFICATIONS = [
    ("upload", "chn01", "vid001", "Molecule Mondays uploaded: Why ice floats: hydrogen bonds explained",
     0, 0, 2900, ""),
    ("upload", "chn03", "vid003", "Critical Hitbox uploaded: Ten strategy games that respect your time",
     1, 0, 1500, ""),
    ("live", "chn04", "vid044", "Loop Station Live is live now: Friday jam with the audience", 0, 0, 90, ""),
    ("upload", "chn06", "vid010", "Circuit Breakdown uploaded: What a USB-C cable is actually doing", 1, 0, 760, ""),
    ("upload", "chn10", "vid016", "Knife & Thyme uploaded: Knife skills: the claw grip", 1, 0, 1100, ""),
    ("upload", "chn02", "vid004", "Orbit & Atom uploaded: How far is the nearest star, really?", 1, 1, 4300, ""),
    ("upload", "chn14", "vid020", "Tidepool Diaries uploaded: What lives in a rock pool", 1, 1, 5900, ""),
    ("upload", "chn05", "vid008", "Frame by Frame Club uploaded: How the master of suspense framed a staircase",
     1, 1, 5200, ""),
    # arrivals: uploads of the arrival videos (same instant as their video)
    ("upload", "chn02", "vid049", "Orbit & Atom uploaded: Tides are not what you think", 0, 0, None, ""),
    ("upload", "chn03", "vid050", "Critical Hitbox uploaded: Patch notes roundup: spring update", 0, 0, None, ""),
    ("live", "chn04", "vid051", "Loop Station Live is live now: Live looping session #40", 0, 0, None, ""),
    ("upload", "chn06", "vid052", "Circuit Breakdown uploaded: Teardown: a budget e-reader", 0, 0, None, ""),
    ("upload", "chn06", "vid053", "Circuit Breakdown uploaded: Why your router needs a reboot", 0, 0, None, ""),
    ("upload", "chn10", "vid054", "Knife & Thyme uploaded: Roast chicken, three ways", 0, 0, None, ""),
    ("upload", "chn10", "vid055", "Knife & Thyme uploaded a short: Onions without tears", 0, 0, None, ""),
    ("upload", "chn01", "vid056",
     "Molecule Mondays uploaded: Catalysts in twelve minutes: how enzymes cheat the energy hill",
     0, 0, None, "the like_followed_upload target's notification"),
    ("upload", "chn14", "vid057", "Tidepool Diaries uploaded: Anemones up close", 0, 0, None, ""),
    # arrivals about videos already there (usable on any timeline)
    ("recommended", "chn21", "vid028", "Recommended for you: The deep field photo at thirty", 0, 0, None, ""),
    ("recommended", "chn09", "vid014", "Recommended for you: A dovetail joint with hand tools only", 0, 0, None, ""),
    ("reply", "chn02", "vid005", "Kai Moreno replied to your comment on Neutron stars: a teaspoon weighs a mountain",
     0, 0, None, ""),
    ("reply", "chn10", "vid017", "Priya Shah replied to your comment on A pan sauce in ten minutes", 0, 0, None, ""),
    ("community", "chn05", None, "Frame by Frame Club posted: which film should we break down next? Vote now",
     0, 0, None,
     "a community post, not an upload"),
    ("community", "chn01", None, "Molecule Mondays posted: behind the scenes of next week's episode", 0, 0, None,
     "a community post, not an upload"),
    ("recommended", "chn17", "vid025", "Recommended for you: Ten garden birds by ear", 0, 0, None, ""),
    ("reply", "chn06", "vid011", "Wei Liu replied to your comment on Inside a $9 smart plug", 0, 0, None, ""),
    ("recommended", "chn16", "vid024", "Recommended for you: Wok hei at home without a jet burner", 0, 0, None, ""),
    ("community", "chn14", None, "Tidepool Diaries posted: low tide this weekend, who's going?", 0, 0, None, ""),
    ("recommended", "chn22", "vid029", "Recommended for you: Growing crystals on a windowsill", 1, 0, None,
     "arrives already read"),
    ("upload", "chn02", "vid073", "Orbit & Atom is live now: ask us about black holes", 0, 0, None, ""),
    ("recommended", "chn20", "vid027", "Recommended for you: Editing rhythm in action scenes", 0, 0, None, ""),
]


def make_comments(rng: random.Random, videos: list[dict]) -> list[dict]:
    people = persona_ids()
    out = []
    preload = [v for v in videos if "age_minutes" in v and v["channel_id"] != "chn25"]
    gaming_counts = {"vid003": 3, "vid013": 2, "vid021": 4}
    for video in preload:
        count = gaming_counts.get(video["id"], rng.randint(0, 2))
        for _ in range(count):
            text = rng.choice(GENERIC_COMMENTS)
            age = rng.randint(5, max(6, int(video["age_minutes"]) - 1))
            out.append({"video_id": video["id"], "author_id": rng.choice(people), "body": text,
                        "like_count": rng.randint(0, 900), "age_minutes": age})
    for video_id, author, text, note in EVENT_COMMENTS:
        record = {"video_id": video_id, "author_id": author, "body": text, "like_count": 0, "_role": "arrival"}
        if note:
            record["_note"] = note
        out.append(record)
    return [{"id": f"cm{n:04d}", **record} for n, record in enumerate(out, 1)]


def make_notifications() -> list[dict]:
    out = []
    for n, (kind, cid, vid, message, is_read, dismissed, age, note) in enumerate(NOTIFICATIONS, 1):
        record = {"id": f"ntf{n:03d}", "kind": kind, "channel_id": cid, "video_id": vid, "message": message,
                  "is_read": bool(is_read), "dismissed": bool(dismissed)}
        if age is not None:
            record["age_minutes"] = age
        else:
            record["_role"] = "arrival"
        if note:
            record["_note"] = note
        out.append(record)
    return out


# --- thumbnails and banners -------------------------------------------------------------------

def duration_text(seconds: int) -> str:
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def wrap(title: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in title.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line][:3]


def thumbnail_svg(video: dict, channel: dict, rng: random.Random) -> str:
    hue = rng.randint(0, 359)
    shapes = "".join(f'<circle cx="{rng.randint(0, 320)}" cy="{rng.randint(0, 180)}" r="{rng.randint(12, 70)}" '
                     f'fill="hsl({(hue + rng.randint(20, 80)) % 360},55%,{rng.randint(35, 60)}%)" opacity="0.5"/>'
                     for _ in range(5))
    text = "".join(f'<text x="16" y="{46 + i * 26}" font-size="20" font-weight="700" fill="#fff">{escape(line)}</text>'
                   for i, line in enumerate(wrap(video["title"], 26)))
    badge = ("LIVE", "#cc0000") if video["is_live"] else (duration_text(video["duration_s"]), "rgba(0,0,0,0.8)")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180" width="320" height="180" role="img">'
            f'<title>{escape(video["title"])}</title>'
            f'<rect width="320" height="180" fill="hsl({hue},45%,28%)"/>{shapes}'
            f'<rect width="320" height="180" fill="rgba(0,0,0,0.25)"/>{text}'
            f'<text x="16" y="160" font-size="13" fill="#eee">{escape(channel["name"])}</text>'
            f'<rect x="{304 - 9 * len(badge[0])}" y="10" width="{9 * len(badge[0]) + 8}" height="22" rx="4" '
            f'fill="{badge[1]}"/><text x="{308 - 9 * len(badge[0])}" y="26" font-size="14" font-weight="700" '
            f'fill="#fff" font-family="monospace">{escape(badge[0])}</text></svg>\n')


def banner_svg(channel: dict, rng: random.Random) -> str:
    hue = rng.randint(0, 359)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1100 180" width="1100" height="180" role="img">'
            f'<title>{escape(channel["name"])} banner</title>'
            f'<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="hsl({hue},50%,30%)"/>'
            f'<stop offset="1" stop-color="hsl({(hue + 60) % 360},55%,45%)"/></linearGradient></defs>'
            f'<rect width="1100" height="180" fill="url(#g)"/>'
            f'<text x="40" y="105" font-size="48" font-weight="700" fill="#fff">{escape(channel["name"])}</text>'
            f'<text x="40" y="140" font-size="20" fill="#eee">{escape(channel["handle"])}</text></svg>\n')


def write_jsonl(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


def main() -> None:
    rng = random.Random(SEED)
    channels = make_channels(rng)
    by_id = {c["id"]: c for c in channels}
    videos = make_videos(rng, by_id)
    comments = make_comments(rng, videos)
    notifications = make_notifications()
    write_jsonl(HERE / "channels.jsonl", channels)
    write_jsonl(HERE / "videos.jsonl", videos)
    write_jsonl(HERE / "video_comments.jsonl", comments)
    write_jsonl(HERE / "notifications.jsonl", notifications)
    playlists = [{"id": pid, "name": name, "video_ids": vids, "age_minutes": 40_000 - 5_000 * n}
                 for n, (pid, name, vids) in enumerate(PLAYLISTS)]
    write_jsonl(HERE / "playlists.jsonl", playlists)
    STATIC.mkdir(parents=True, exist_ok=True)
    art = random.Random(SEED + 1)
    for video in videos:
        svg = thumbnail_svg(video, by_id[video["channel_id"]], art)
        (STATIC / f"{video['id']}.svg").write_text(svg, encoding="utf-8")
    for channel in channels:
        (STATIC / f"{channel['id']}-banner.svg").write_text(banner_svg(channel, art), encoding="utf-8")
    preload_videos = [v["id"] for v in videos if "age_minutes" in v]
    preload_comments = [c["id"] for c in comments if "age_minutes" in c]
    preload_notes = [n["id"] for n in notifications if "age_minutes" in n]
    print(f"{len(channels)} channels, {len(videos)} videos, {len(comments)} comments, "
          f"{len(notifications)} notifications")
    print("preload videos:", ", ".join(preload_videos))
    print("preload comments:", ", ".join(preload_comments))
    print("preload notifications:", ", ".join(preload_notes))
    print("subscribed:", ", ".join(SUBSCRIBED), "| watched:", ", ".join(WATCHED))


if __name__ == "__main__":
    main()
