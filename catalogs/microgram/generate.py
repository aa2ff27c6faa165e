"""Writes the MicroGram catalogs and pictures: posts, post_comments, stories, dm_messages and
activity (JSONL here), and one SVG per post and story under web/static/microgram/.

Deterministic: run `python catalogs/microgram/generate.py` and every file comes out byte for
byte the same. Standard library only; every person comes from catalogs/shared/personas.jsonl.
Ids are append-only: new items go at the END of a block list below, and the script refuses to
write if an id already committed would change what it names (author and text).

Authoring roles (kept in `_role` / `_note`, never loaded):
- kai.m (p002) comments on gp0061-gp0066; the look-alike kai_m (p088) on gp0067-gp0070;
  lin.p (p041) never comments anywhere (the no-op's absent commenter).
- gp0071-gp0074 arrive with exactly three comments (pile-up decoys), gp0075 with four (the
  pile-up target), gp0076 with five (trailing). Preloaded posts carry at most three.
- gp0077-gp0081 are by accounts the self user does not follow (follow targets and trailing);
  every other event post is by a followed account.
- Stories gs017-gs019 (kai.m, meera.p, lin.p) are the stories_three targets, gs020 (kai_m) the
  look-alike. "mockup" first appears in gm033, past its 40-character preview; gm031 says
  "mock-up day" inside the preview, gm032 "mock up boards", gm034 "merge" (never "merger").
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STATIC = ROOT / "web" / "static" / "microgram"
sys.path.insert(0, str(HERE))
from pictures import picture  # noqa: E402

SEED = 5_2026
SELF = "p000"
FOLLOWED = ["p001", "p002", "p003", "p004", "p006", "p011", "p012", "p017", "p018", "p021", "p024", "p029",
            "p033", "p041", "p042", "p045", "p061", "p066", "p072", "p077", "p084", "p086", "p088", "p094", "p097"]
UNFOLLOWED = ["p009", "p014", "p015", "p022", "p026", "p027", "p031", "p032", "p038", "p039", "p044", "p048",
              "p049", "p052", "p053", "p056", "p063", "p065", "p075", "p079", "p082", "p085", "p087", "p089",
              "p095", "p096", "p098"]
NEW_CREATORS = ["p043", "p058", "p090", "p028", "p069"]  # unfollowed; post only as gp0077-gp0081
SPECIAL = {"p002", "p088", "p041"}  # kai.m, kai_m, lin.p: comment only where the roles say
LOCATIONS = ["Lisbon, Portugal", "Portland, OR", "Vancouver, Canada", "Kyoto, Japan", "Cape Town", "Oaxaca",
             "Brooklyn, NY", "Reykjavík", "Nairobi", "Edinburgh", "Melbourne", "", "", "Porto", "Seoul"]
CAPTIONS = {
    "sunset": ["Golden hour never gets old", "Last light of the day", "Stayed out until the sky went purple"],
    "mountains": ["Worth every step of the climb", "Thin air, big views", "Weekend ridge walk"],
    "city": ["City lights from the rooftop", "Wandering without a map", "Late train home, great view"],
    "garden": ["The balcony garden finally bloomed", "Spring came early this year", "Picked a few for the table"],
    "coffee": ["Fuel for a long planning day", "New café around the corner", "Slow morning, good coffee"],
    "beach": ["Salt in the hair", "Off-season beaches are the best", "Could stay here all week"],
    "forest": ["Trail run before work", "Green therapy", "Found a new path through the woods"],
    "abstract": ["Playing with shapes again", "Poster draft for the studio wall", "Colour study #12"],
}
COMMENTS = ["Love this!", "Where is this?", "The colours here 😍", "Saving this for later", "So good",
            "Take me with you next time", "Stunning shot", "This made my morning", "Wow, what a view",
            "Need this on a print", "Beautiful light", "Great composition", "Jealous!", "Miss this place"]


def personas() -> dict[str, dict]:
    path = ROOT / "catalogs" / "shared" / "personas.jsonl"
    return {p["id"]: p for p in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


class Builder:
    def __init__(self) -> None:
        self.rng = random.Random(SEED)
        self.people = personas()
        self.posts: list[dict] = []
        self.comments: list[dict] = []
        self.stories: list[dict] = []
        self.messages: list[dict] = []
        self.activity: list[dict] = []
        self.svgs: dict[str, str] = {}

    def commenters(self, n: int, exclude: set[str]) -> list[str]:
        pool = [p for p in FOLLOWED + UNFOLLOWED if p not in SPECIAL and p not in exclude]
        return self.rng.sample(pool, n)

    def post(self, author: str, *, age: float = 0, comments: list[str] | None = None, role: str = "filler",
             note: str = "", n_comments: int | None = None) -> str:
        rng = self.rng
        pid = f"gp{len(self.posts) + 1:04d}"
        svg, alt, scene = picture(rng)
        self.svgs[pid] = svg
        self.posts.append({"id": pid, "author_id": author, "image_alt": alt, "caption": rng.choice(CAPTIONS[scene]),
                           "location": rng.choice(LOCATIONS), "like_count": rng.randint(3, 180),
                           "age_minutes": age, "_role": role, "_note": note})
        names = list(comments or [])
        if n_comments is not None:
            names += self.commenters(n_comments - len(names), {author, *names})
        for i, who in enumerate(names):
            self.comments.append({"id": f"gc{len(self.comments) + 1:04d}", "post_id": pid, "author_id": who,
                                  "body": rng.choice(COMMENTS), "after_minutes": min(age, 2 + 7 * i),
                                  "_role": role})
        return pid

    def story(self, author: str, *, age: float = 0, role: str = "filler", note: str = "") -> str:
        sid = f"gs{len(self.stories) + 1:03d}"
        svg, alt, _ = picture(self.rng)
        self.svgs[sid] = svg
        self.stories.append({"id": sid, "author_id": author, "image_alt": alt, "age_minutes": age,
                             "_role": role, "_note": note})
        return sid

    def message(self, thread: str, counterpart: str, body: str, *, mine: bool = False, read: bool = True,
                age: float = 0, role: str = "filler", note: str = "") -> None:
        self.messages.append({"id": f"gm{len(self.messages) + 1:03d}", "thread_id": thread,
                              "counterpart_id": counterpart, "sender_id": SELF if mine else counterpart,
                              "body": body, "is_read": read or mine, "age_minutes": age, "_role": role,
                              "_note": note})

    def act(self, kind: str, actor: str, post: str | None, *, age: float = 0, comment: str = "") -> None:
        text = {"like": "liked your photo.", "follow": "started following you.",
                "comment": f"commented: {comment}", "mention": f"mentioned you in a comment: {comment}"}[kind]
        self.activity.append({"id": f"ga{len(self.activity) + 1:03d}", "kind": kind, "actor_id": actor,
                              "post_id": post, "text": text, "age_minutes": age, "_role": "filler"})

CHAT = ["Did you see the new exhibit downtown?", "Running ten minutes late, sorry!", "Thanks for the recommendation",
        "Haha that photo is perfect", "Are you around this weekend?", "Sent you the link to the playlist",
        "Lunch on Thursday still works for me", "Can you share the slides from Monday?", "Happy birthday!! 🎉",
        "That trail looks amazing, where was it?", "I'll bring the tickets", "Let's catch up next week",
        "Got the book you lent me, thank you", "Ok see you there", "The café was closed, went next door instead",
        "Did the package arrive?", "Love the new profile picture", "Call me when you're free"]
THREADS = {"gt01": "p003", "gt02": "p011", "gt03": "p017", "gt04": "p021", "gt05": "p033", "gt06": "p042",
           "gt07": "p086", "gt08": "p024", "gt09": "p045", "gt10": "p072", "gt11": "p094", "gt12": "p004"}


def build(b: Builder) -> None:
    rng = b.rng
    # --- preloaded posts gp0001-gp0060: six by the self user, then the feed's history
    for i in range(6):
        b.post(SELF, age=1440 * (i + 1) + rng.randint(0, 600), n_comments=rng.randint(0, 3), role="own")
    authors = [p for p in FOLLOWED + UNFOLLOWED if p not in SPECIAL]
    rng.shuffle(authors)
    for i in range(54):
        author = authors[i % len(authors)]
        age = 20 + i * 150 + rng.randint(0, 90)
        kai = [] if i % 18 != 3 else ["p002"]  # kai.m already commented on three preloaded posts
        b.post(author, age=age, comments=kai, n_comments=max(len(kai), rng.randint(0, 3)))
    # --- event posts gp0061-gp0081: the designated ones
    plain = [p for p in FOLLOWED if p not in SPECIAL]
    for _ in range(6):
        b.post(rng.choice(plain), comments=["p002"], n_comments=rng.randint(1, 3), role="target",
               note="commented on by kai.m (p002)")
    for _ in range(4):
        b.post(rng.choice(plain), comments=["p088"], n_comments=rng.randint(1, 3), role="decoy",
               note="commented on by the look-alike kai_m (p088), not kai.m")
    for n in (3, 3, 3, 3, 4, 5):
        b.post(rng.choice(plain), n_comments=n, role="target" if n == 4 else "decoy",
               note=f"arrives with {n} comments")
    for creator in NEW_CREATORS:
        b.post(creator, n_comments=rng.randint(0, 1), role="target", note=f"by {creator}, not followed")
    # --- event fillers gp0082-gp0200, all by followed accounts
    for _ in range(119):
        b.post(rng.choice(plain), n_comments=rng.randint(1, 3))
    # --- stories
    story_authors = [p for p in FOLLOWED if p not in SPECIAL and p != "p061"]
    for i in range(16):
        author = {2: "p041", 4: "p061"}.get(i, rng.choice(story_authors))
        b.story(author, age=30 + i * 70 + rng.randint(0, 40))
    b.story("p002", role="target", note="kai.m")
    b.story("p061", role="target", note="meera.p")
    b.story("p041", role="target", note="lin.p")
    b.story("p088", role="decoy", note="kai_m, the look-alike of kai.m")
    for _ in range(40):
        b.story(rng.choice(story_authors + [p for p in UNFOLLOWED if p not in SPECIAL]))
    # --- direct messages: preloaded threads gt01-gt07, then arrivals
    for i in range(30):
        thread = f"gt0{i % 7 + 1}"
        mine = rng.random() < 0.35
        b.message(thread, THREADS[thread], rng.choice(CHAT), mine=mine, read=i < 26, age=3000 - i * 95)
    b.message("gt02", THREADS["gt02"], "Are we still on for mock-up day next Thursday? I booked the big room.",
              read=False, role="decoy", note="'mock-up day' inside the preview; not 'mockup'")
    b.message("gt08", THREADS["gt08"], "Quick heads-up: the Thursday review moved to 3 pm, so bring the printed "
              "mock up boards if you have them.", read=False, role="decoy", note="'mock up' with a space")
    b.message("gt09", THREADS["gt09"], "Hi Alex! Following up on yesterday's call: I uploaded the revised "
              "onboarding mockup to the shared folder. Would love your eyes on it before Friday.", read=False,
              role="target", note="'mockup' at char 94, past the 40-character preview")
    b.message("gt03", THREADS["gt03"], "Could we merge the two slide decks into one before the Friday sync?",
              read=False, role="decoy", note="'merge', never 'merger'")
    for i in range(26):
        thread = f"gt{[1, 4, 5, 6, 7, 10, 11, 12][i % 8]:02d}"
        b.message(thread, THREADS[thread], rng.choice(CHAT), read=False)
    # --- activity: ga001-ga020 preloaded (five within the last hour), ga021-ga050 arrivals
    own = [p["id"] for p in b.posts[:6]]
    kinds = ["like", "like", "follow", "comment", "like", "mention"]
    for i in range(50):
        actor = rng.choice([p for p in FOLLOWED + UNFOLLOWED if p not in SPECIAL])
        kind = kinds[i % len(kinds)]
        post = None if kind == "follow" else rng.choice(own)
        age = (8 + i * 11) if i < 5 else (60 + i * 190) if i < 20 else 0
        b.act(kind, actor, post, age=age, comment=rng.choice(COMMENTS))


def committed(name: str) -> dict[str, dict]:
    path = HERE / f"{name}.jsonl"
    if not path.exists():
        return {}
    return {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


IDENTITY = {"posts": ("author_id", "caption"), "post_comments": ("post_id", "author_id"),
            "stories": ("author_id",), "dm_messages": ("thread_id", "body"), "activity": ("kind", "actor_id")}


def append_only(name: str, rows: list[dict]) -> list[str]:
    """Ids already committed must name the same item: what changed, if anything."""
    old = committed(name)
    keys = IDENTITY[name]
    return [f"{name}: {r['id']} would change" for r in rows
            if r["id"] in old and tuple(old[r["id"]].get(k) for k in keys) != tuple(r.get(k) for k in keys)]


def main() -> int:
    b = Builder()
    build(b)
    tables = {"posts": b.posts, "post_comments": b.comments, "stories": b.stories, "dm_messages": b.messages,
              "activity": b.activity}
    problems = [p for name, rows in tables.items() for p in append_only(name, rows)]
    if problems and "--force" not in sys.argv:
        print("refusing to renumber committed ids:\n  " + "\n  ".join(problems[:10]))
        return 1
    for name, rows in tables.items():
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        (HERE / f"{name}.jsonl").write_text(text, encoding="utf-8")
    STATIC.mkdir(parents=True, exist_ok=True)
    for item_id, svg in b.svgs.items():
        (STATIC / f"{item_id}.svg").write_text(svg, encoding="utf-8")
    print(", ".join(f"{len(rows)} {name}" for name, rows in tables.items()) + f", {len(b.svgs)} pictures")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
