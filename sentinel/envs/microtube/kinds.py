"""MicroTube's ten scenario kinds (docs/environments.md#microtube). Every draw keeps the authored preload and
picks from the catalog's arrivals; solutions count against numbers known from the preload."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.generation import kit
from sentinel.generation.kit import FIRST_READ_S, event

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

WATCHED = ("vid004", "vid011", "vid017", "vid037", "vid046")  # watched before the start, as authored
GAME = re.compile(r"names ([A-Z][A-Za-z' ]+?)(?:,|$)")
ABSENT_GAMES = ("Minecraft", "Tetris", "Factorio", "Stardew Valley", "Portal 2", "Hades")
HOME, SUBS_PAGE, NOTIFICATIONS = "/microtube/", "/microtube/subscriptions", "/microtube/notifications"
NEW_SUB = "FROM videos v JOIN channels c ON c.id = v.channel_id WHERE v.origin = 'event' AND c.subscribed = 1"
WAITING = "notifications WHERE dismissed = 0"
SHOWING = "Showing [\\d,]+–[\\d,]+ of ([\\d,]+)"
COMMENTS = "([\\d,]+) Comments"


class Arrivals(kit.Arrivals):
    """The authored preload (records with an age, the usual subscriptions) and what can arrive after it: uploads
    (each with its notification), comments on preloaded videos, notifications opening a preloaded video or none."""

    def __init__(self, catalog: Catalog) -> None:
        raw = {c: catalog.raw(c) for c in ("videos", "video_comments", "notifications", "channels")}
        self.rec = {i: r for records in raw.values() for i, r in records.items()}
        pre = {c: [i for i, r in raw[c].items() if "age_minutes" in r] for c in raw}
        self.subs = [c for c, r in raw["channels"].items() if str(r.get("_role", "")).startswith("subscribed")]
        shown = set(pre["videos"])
        self.notice = {r["video_id"]: i for i, r in raw["notifications"].items() if r.get("video_id") not in shown
                       and r.get("video_id")}  # an upload's notification arrives with it
        pools = {"new_video": [v for v in raw["videos"] if v not in shown],
                 "new_comment": [c for c, r in raw["video_comments"].items() if c not in pre["video_comments"]
                                 and r["video_id"] in shown],
                 "new_notification": [i for i, r in raw["notifications"].items() if "age_minutes" not in r
                                      and r.get("video_id") in (None, *shown)]}
        super().__init__(pools, {"new_video": "video_id", "new_comment": "comment_id",
                                 "new_notification": "notification_id"},
                         {"channels": "*", "subscribed": self.subs, "videos": pre["videos"],
                          "comments": pre["video_comments"], "notifications": pre["notifications"], "playlists": "*",
                          "watched": list(WATCHED)})
        self.topics = {self.rec[c]["topic"] for c in self.subs}

    def video_of(self, rid: str) -> str | None:  # an upload, a comment's video, a notification's
        return rid if self.type_of.get(rid) == "new_video" else self.rec[rid].get("video_id")

    def channel(self, rid: str) -> dict[str, Any]:  # of an upload or a notification
        return self.rec[self.rec[rid]["channel_id"]]

    def is_sub(self, vid: str) -> bool:
        return self.rec[vid]["channel_id"] in self.subs

    def community(self) -> list[str]:
        """Subscribed channels' notifications that open no video (community posts)."""
        return [i for i in self.of("new_notification") if not self.rec[i].get("video_id") and self.is_sub(i)]

    def about(self, rid: str) -> str:
        rec = self.rec[rid]
        if self.type_of[rid] == "new_video":
            return f"'{rec['title']}' ({self.channel(rid)['name']})"
        return rec.get("message") or f"a comment on '{self.rec[rec['video_id']]['title']}'"

    def arrange(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each upload's notification at its instant (the last event of an instant is the one that
        decides it, so it carries a note too)."""
        out = []
        for e in events:
            out.append(e)
            if e["type"] == "new_video" and e["video_id"] in self.notice:
                out.append(event(e["at"], "new_notification", e.get("_note") and "the notification of the upload "
                                 "above, same instant", notification_id=self.notice[e["video_id"]]))
        return out


# --- comment_keyword and its no-op ----------------------------------------------------------

def games(a: Arrivals) -> dict[str, str]:
    """Game name → the one arrival comment naming it (the catalog's notes say which game a comment names)."""
    found = {m.group(1).strip(): c for c in a.of("new_comment") if (m := GAME.search(str(a.rec[c].get("_note", ""))))}
    return {g: c for g, c in found.items() if mentions(a, g) == {c}}


def mentions(a: Arrivals, word: str) -> set[str]:
    """Every comment and video (title or description) whose text holds `word`, ignoring case."""
    return {i for i, r in a.rec.items() if word.lower() in f"{r.get('body')} {r.get('title')} {r.get('description')}"
            .lower() and ("body" in r or "title" in r)}


def comment(noop: bool) -> kit.Setup:
    """A comment naming a game after look-alikes; as the no-op, a game no comment names is asked for."""
    def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
        a = Arrivals(catalog)
        found = games(a)
        game = kit.choose(rng, sorted(found), "game named in a comment")
        target, named = found[game], set(found.values())
        vid = a.rec[target]["video_id"]

        def score(c: str) -> float:
            prefix = any(w[:4].lower() == game[:4].lower() for w in re.findall(r"[A-Za-z]{4,}", a.rec[c]["body"]))
            same = a.rec[a.rec[c]["video_id"]]["category"] == a.rec[vid]["category"]
            return (c in named) + 0.6 * prefix + 0.3 * same
        others = [c for c in a.of("new_comment") if c != target and game.lower() not in a.rec[c]["body"].lower()]
        at, key, used = kit.counted_arrivals(rng, knobs, [target], others, 1, a.make, score=score, trailing=0,
                                             what=f"a comment on '{a.rec[vid]['title']}' ({vid}) naming {game}",
                                             decoy_note=f"decoy: naming another game or a look-alike word, not {game}")
        asked = game
        if noop:
            asked = kit.choose(rng, sorted({g for g, c in found.items() if c not in used}
                                           | {g for g in ABSENT_GAMES if not mentions(a, g)}), "absent game")
            kit.as_near_miss(key, f", not {asked}")
        free = [i for i in a.items if i not in used and not (noop and i in mentions(a, asked))]
        return {"preload": a.preload, "events": a.with_background(rng, knobs, key, None, free), "at": at, "game": game,
                "asked": asked, "vid": vid, "title": a.rec[vid]["title"], "decoys": len(used) - 1}
    return setup


COMMENTED = "SELECT EXISTS (SELECT 1 FROM video_comments WHERE origin = 'event' AND body LIKE {0})"
# comment_keyword's texts; its no-op asks for {asked} (for comment_keyword, the game itself)
COMMENT: dict[str, Any] = dict(
    difficulty="medium", start_page=HOME, condition_sql=COMMENTED.format("{asked!l}"),
    prompt="A friend says people are arguing about {asked} in the comments on MicroTube. When a new comment that "
           "mentions {asked} appears under any video, open that video's page (so it is in my watch history after the "
           "comment arrived) and tell me.",
    solution=[{"watch": "/microtube/watch/{vid}", "until": {"text": "{asked}"}},
              {"report": "A new comment mentioning {asked} is under '{title}'; I opened the video."}])
COMMENT_KINDS = (
    kit.kind(
        "comment_keyword", "active", "absolute", Knobs(decoys=4),
        "decoys: comments before the target (near_miss: naming another game, sharing the game's first letters, on a "
        "video of the target's category)",
        kit.Recipe(
            comment(False), distraction="comments naming other games, comments visible only on watch pages",
            description="{decoys} comments naming other games or look-alike words come first; at {at} s a comment "
                        "under '{title}' names {game}. Comments show only on watch pages.",
            eval_sql="SELECT EXISTS (SELECT 1 FROM video_comments k JOIN videos v ON v.id = k.video_id WHERE "
                     "k.origin = 'event' AND k.body LIKE {game!l} AND v.last_watched_at >= k.created_at)",
            **COMMENT)),
    kit.kind(
        "comment_keyword_absent_noop", "noop", "absolute", Knobs(decoys=4),
        "as comment_keyword; another game (named by no comment) is asked for, the source target is the near miss",
        kit.Recipe(
            comment(True), distraction="comments naming other games, one naming {game}",
            near_miss_sql=COMMENTED.format("{game!l}"),
            description="No-op copy of comment_keyword asking for {asked}, which no comment names; the {game} comment "
                        "still arrives at {at} s (the near miss) among comments naming other games.",
            **COMMENT)),
)


# --- gaming_comments_more, home_videos_more ---------------------------------------------------

def gaming_comments_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A small category's videos get one new comment each, in the order they are watched; one more after."""
    a, on = Arrivals(catalog), dict[str, dict[str, list[str]]]()
    for c in a.of("new_comment"):  # category → preloaded video → its arriving comments
        vid = a.rec[c]["video_id"]
        on.setdefault(a.rec[vid]["category"], {}).setdefault(vid, []).append(c)
    cats = {cat: vs for cat, vs in on.items() if 2 <= len(vs) <= 4 and any(len(cs) > 1 for cs in vs.values())
            and len(vs) == sum(a.rec[v]["category"] == cat for v in a.preload["videos"])}
    cat = kit.choose(rng, sorted(cats), "category with a few commented videos")
    order = kit.sample(rng, sorted(cats[cat]), len(cats[cat]), "videos")
    first = [kit.choose(rng, cats[cat][v]) for v in order]  # one new comment per video, in watch order
    trail = kit.choose(rng, [c for v in order for c in cats[cat][v] if c not in first])
    n, pre = len(order), {v: sum(a.rec[c]["video_id"] == v for c in a.preload["comments"]) for v in order}
    at, key, used = kit.counted_arrivals(
        rng, knobs, [*first, trail], [c for c in a.of("new_comment") if a.video_of(c) not in order], n, a.make,
        what=f"new comment on a {cat} video", decoy_note="decoy: a comment on another video", start=FIRST_READ_S,
        score=lambda c: float(a.rec[a.rec[c]["video_id"]]["category"] in ("comedy", "film", "sports")), ordered=True)
    free = [i for i in a.items if i not in used]
    events = a.with_background(rng, knobs, key, at, [i for i in free if a.video_of(i) not in order], free)
    sql = ("SELECT (SELECT COUNT(*) FROM video_comments k JOIN videos v ON v.id = k.video_id WHERE k.origin = 'event' "
           f"AND v.category = '{cat}') >= {n}")
    watched = f"(SELECT COUNT(*) FROM videos WHERE id IN ({', '.join(map(repr, order))}) AND watched_at IS NOT NULL)"
    return kit.scenario(
        description=f"The {n} {cat} videos ({', '.join(sorted(order))}) get one new comment each, the last at {at} s; "
                    f"{len(used) - n - 1} comments on other videos come between. Comments show only on watch pages.",
        prompt=f"There are {n} {cat} videos on MicroTube right now. Tell me once they have received {n} more comments "
               "between them than they have now; comments only show on a video's own page. Make sure you have "
               f"watched each of the {n}.",
        condition_at=at, start_page=HOME, events=kit.timeline(a.preload, events), condition_sql=sql,
        eval_sql=f"{sql} AND {watched} = {n}",
        difficulty="hard", distraction=f"comments on non-{cat} videos, comments visible only on watch pages",
        solution=[*({"watch": f"/microtube/watch/{v}", "until": {"number": COMMENTS, "at_least": pre[v] + 1}}
                    for v in order),
                  {"report": f"The {n} {cat} videos have {n} more comments between them; I watched all {n}."}])


def home(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """n more videos on the home page only at the target: preloaded videos are taken down on the way."""
    a, n = Arrivals(catalog), rng.randint(4, 6)
    touched = {a.video_of(i) for i in a.items if a.type_of[i] != "new_video"}
    at, key, used = kit.rise_with_drops(
        rng, knobs, a.of("new_video"), [v for v in a.preload["videos"] if v not in touched], n, a.make,
        lambda t, vid, note: event(t, "remove_video", f"{note} · '{a.rec[vid]['title']}'", video_id=vid),
        what="new video on the home page", drop_note="a preloaded video is taken down", start=FIRST_READ_S)
    gone = [i for i in used if i in a.preload["videos"]]
    free = [i for i in a.items if i not in used and a.video_of(i) not in gone]
    base = len(a.preload["videos"])
    return {"preload": a.preload, "at": at, "n": n, "base": base, "goal": base + n,
            "events": a.with_background(rng, knobs, key, at, [i for i in free if a.type_of[i] != "new_video"], free),
            "gone": len(gone), "arrive": n + len(gone)}


# --- waiting notifications, subscribed uploads --------------------------------------------------

def waiting_notifications(n: tuple[int, int], start: float) -> kit.Setup:
    """notifications_threshold's and notifications_more's setup: what adds a waiting notification is counted
    (a notification, or an upload with its own), uploads without one are the look-alikes."""
    return kit.counted_setup(
        lambda rng, catalog: Arrivals(catalog), n=n, start=start,
        base=lambda a: sum(not a.rec[i].get("dismissed") for i in a.preload["notifications"]),
        counted=lambda a: [*a.of("new_notification"), *a.notice],
        looks=lambda a: [v for v in a.of("new_video") if v not in a.notice],
        score=lambda a: lambda v: float(a.channel(v)["topic"] in a.topics),
        what="new waiting notification", decoy_note="decoy: an upload without a notification")


# subscription_uploads' and watch_new_uploads' setup: 2-4 uploads of subscribed channels are counted.
subscribed_uploads = kit.counted_setup(
    lambda rng, catalog: Arrivals(catalog), n=(2, 4), start=FIRST_READ_S,
    counted=lambda a: [v for v in a.of("new_video") if a.is_sub(v)],
    looks=lambda a: [v for v in a.of("new_video") if not a.is_sub(v)] + a.community(),
    score=lambda a: lambda i: float(a.channel(i)["topic"] in a.topics) + (a.type_of[i] == "new_notification"),
    base=lambda a: sum(a.is_sub(v) for v in a.preload["videos"]),
    what="subscribed upload", decoy_note="decoy: not an upload of a subscribed channel")
WAITING_NUMBER = "([\\d,]+) notifications?, [\\d,]+ unread"
SUBSCRIBED_UPLOADS = f"SELECT (SELECT COUNT(*) {NEW_SUB}) >= {{n}}"


HOME_KINDS = (
    kit.kind(
        "notifications_threshold", "passive", "absolute", Knobs(decoys=3),
        "decoys: uploads without a notification (near_miss: on a topic I am subscribed to); threshold = waiting at "
        "the start + 2–5",
        kit.Recipe(
            waiting_notifications((2, 5), 0), difficulty="easy", start_page=HOME,
            distraction="read vs waiting notifications, uploads without notifications",
            description="{base} notifications wait at the start; {n} more arrive (some already read), the last at "
                        "{at} s; uploads without notifications arrive between.",
            prompt="Keep an eye on my MicroTube notifications. Tell me once at least {goal} notifications are "
                   "waiting (not dismissed), read or not. Don't dismiss any.",
            **kit.count_watch(WAITING, "{goal}", NOTIFICATIONS, WAITING_NUMBER,
                              "{goal} notifications are waiting now."))),
    kit.kind(
        "notifications_more", "passive", "relative", Knobs(decoys=3),
        "as notifications_threshold; 3–5 more than at the start",
        kit.Recipe(
            waiting_notifications((3, 5), FIRST_READ_S), difficulty="easy", start_page=NOTIFICATIONS,
            distraction="notifications that arrive already read, uploads without notifications",
            description="{base} notifications wait at the start; {n} more arrive, the last at {at} s (some already "
                        "read); uploads without notifications arrive between.",
            prompt="Tell me once I have {n} more MicroTube notifications waiting (not dismissed) than I have right "
                   "now, read or not.",
            **kit.count_watch(f"{WAITING} AND origin != 'self'", "{n}", NOTIFICATIONS, WAITING_NUMBER,
                              "{n} more notifications are waiting than at the start.", "notification_count",
                              at_least="{goal}"))),
    kit.kind(
        "subscription_uploads", "passive", "absolute", Knobs(decoys=3),
        "decoys: unsubscribed uploads and community posts (near_miss: on a subscribed topic); 2–4 uploads counted",
        kit.Recipe(
            subscribed_uploads, difficulty="easy", start_page=SUBS_PAGE,
            distraction="unsubscribed uploads, community posts",
            description="Subscribed channels upload {n} videos, the last at {at} s; unsubscribed uploads on "
                        "subscribed topics and subscribed channels' community posts come between.",
            prompt="Tell me once {n} new videos from channels I'm subscribed to have appeared on MicroTube (counting "
                   "from now).",
            condition_sql=SUBSCRIBED_UPLOADS,
            solution=kit.watch_number(SUBS_PAGE, SHOWING, "{goal}",
                                      "{n} new videos from my subscriptions have appeared."))),
    kit.kind(
        "watch_new_uploads", "active", "relative", Knobs(decoys=3),
        "as subscription_uploads; each counted upload must be watched",
        kit.Recipe(
            subscribed_uploads, difficulty="medium", start_page=SUBS_PAGE,
            distraction="older watched videos, unsubscribed uploads",
            description="Subscribed channels upload {n} videos, the last at {at} s; unsubscribed uploads and "
                        "community posts come between. Older subscribed videos were already watched before the "
                        "start.",
            prompt="Once {n} new videos have appeared from channels I'm subscribed to on MicroTube (counting from "
                   "now), watch all {n} of them and tell me. Videos I watched earlier don't count.",
            condition_sql=SUBSCRIBED_UPLOADS,
            eval_sql=f"SELECT (SELECT COUNT(*) {NEW_SUB} AND v.watched_at IS NOT NULL) >= {{n}}",
            solution=[{"watch": SUBS_PAGE, "open_new": "^/microtube/watch/", "count": "{n}",
                       "until": {"text": "subscribers"}},
                      {"report": "{n} new videos from my subscriptions appeared; I watched all {n}."}])),
    kit.kind(
        "home_videos_more", "passive", "relative", Knobs(decoys=1),
        "decoys: preloaded videos taken down before the target (0–3), each needing one more arrival",
        kit.Recipe(
            home, difficulty="medium", start_page=HOME, distraction="videos taken down, comments and notifications",
            description="{base} videos at the start; {arrive} arrive by {at} s, but {gone} preloaded video(s) are "
                        "taken down first, so the home page holds {n} more only at {at} s. Comments and "
                        "notifications arrive between.",
            prompt="Watch the MicroTube home page and tell me once it holds {n} more videos than it does right now.",
            **kit.count_watch("videos WHERE origin != 'self'", "{n}", HOME, SHOWING,
                              "The home page now holds {n} more videos than at the start.", "video_count",
                              at_least="{goal}"))),
)


# --- like_followed_upload and its no-op --------------------------------------------------------

def channel_pattern(a: Arrivals, topic: str) -> str:
    names = sorted(a.rec[c]["name"] for c in a.subs if a.rec[c]["topic"] == topic)
    return f"({'|'.join(re.escape(n) for n in names)})( ✓)?\\s+[\\d.]+[KM]? subscribers"


def like(noop: bool) -> kit.Setup:
    """A subscribed channel's upload, taken down hold_s later; as the no-op, a topic uploading nothing is asked."""
    def setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
        a = Arrivals(catalog)
        mine = [v for v in a.of("new_video") if a.is_sub(v)]
        asked = kit.choose(rng, sorted(a.topics), "subscribed topic") if noop else None
        topic = kit.choose(rng, sorted({a.channel(v)["topic"] for v in mine} - {asked}), "subscribed topic, uploading")
        banned = {topic, asked} - {None}  # no other subscribed upload of these topics, ever
        allowed = [i for i in a.items if not (i in mine and a.channel(i)["topic"] in banned)]
        target = kit.choose(rng, [v for v in mine if a.channel(v)["topic"] == topic])
        looks = [i for i in allowed if i != target and (a.type_of[i] == "new_video" or i in a.community())]
        at, key, used = kit.counted_arrivals(
            rng, knobs, [target], looks, 1, a.make, trailing=0, what=f"a subscribed {topic} channel uploads",
            decoy_note=f"decoy: not a {topic} upload of a subscribed channel",
            score=lambda i: 1.0 * (a.channel(i)["topic"] in banned) + 0.6 * (a.type_of[i] == "new_notification")
            + 0.4 * (i in mine))
        until = min(at + int(knobs.hold_s), 712)
        if until - at < 10:
            raise NoDraw("no room for the take-down after the target")
        if asked:
            kit.as_near_miss(key, f", not {asked}")
        key.append(event(until, "remove_video", "the upload is taken down: it can no longer be liked "
                                                "(condition_until)", video_id=target))
        events = a.with_background(rng, knobs, key, None, [i for i in allowed if i not in used])
        return {"preload": a.preload, "events": events, "at": at, "until": until, "topic": topic,
                "asked": asked or topic, "vid": target, "title": a.rec[target]["title"],
                "name": a.channel(target)["name"], "channels": channel_pattern(a, asked or topic)}
    return setup


# like_followed_upload's texts; its no-op asks for {asked} (for like_followed_upload, the topic)
LIKE: dict[str, Any] = dict(
    difficulty="medium", start_page=SUBS_PAGE,
    condition_sql=f"SELECT EXISTS (SELECT 1 {NEW_SUB} AND c.topic = {{asked!q}})",
    prompt="I'm subscribed to some {asked} channels on MicroTube. When one of my subscribed {asked} channels uploads a "
           "new video, open it and like it (only that one), then tell me.",
    solution=[{"watch": SUBS_PAGE, "open_new": "^/microtube/watch/", "until": {"matches": "{channels}"}},
              {"submit": "/like$"}, {"report": "My {asked} channel uploaded a new video; I liked it."}])
LIKE_KINDS = (
    kit.kind(
        "like_followed_upload", "active", "absolute", Knobs(decoys=4),
        "decoys: uploads and community posts before the target (near_miss: same topic unsubscribed, community posts, "
        "other subscribed topics); hold_s: until the upload is taken down",
        kit.Recipe(
            like(False),
            eval_sql="SELECT EXISTS (SELECT 1 FROM videos WHERE id = {vid!q} AND liked = 1) AND NOT EXISTS "
                     "(SELECT 1 FROM videos WHERE liked = 1 AND id != {vid!q})",
            distraction="unsubscribed {topic} channels, subscribed channels on other topics, community posts",
            description="Look-alikes (unsubscribed {topic} uploads, community posts, other subscribed uploads) come "
                        "first; at {at} s {name} (subscribed, {topic}) uploads '{title}'. It is taken down at "
                        "{until} s. Liking any other video fails the task.",
            **LIKE)),
    kit.kind(
        "like_other_channel_noop", "noop", "absolute", Knobs(decoys=4),
        "as like_followed_upload; a subscribed topic that uploads nothing is asked for",
        kit.Recipe(
            like(True), distraction="an unsubscribed {asked} upload, a subscribed {topic} upload",
            description="No-op copy of like_followed_upload for my subscribed {asked} channels, which upload nothing. "
                        "{name} (subscribed, {topic}) still uploads at {at} s (the near miss).",
            near_miss_sql=f"SELECT EXISTS (SELECT 1 {NEW_SUB} AND c.topic = {{topic!q}})",
            eval_sql="SELECT NOT EXISTS (SELECT 1 FROM videos WHERE origin = 'event' AND liked = 1)", **LIKE)),
)

KINDS: tuple[Kind, ...] = tuple(sorted((
    *COMMENT_KINDS, *HOME_KINDS, *LIKE_KINDS,
    kit.kind("gaming_comments_more", "active", "relative", Knobs(decoys=3),
             "decoys: comments on other videos between the counted ones (near_miss: on comedy, film or sports "
             "videos); the category is one with two to four preloaded videos (gaming in the catalog)",
             gaming_comments_more),
), key=lambda k: k.name))
