"""MicroFy's ten scenario kinds (docs/environments.md#microfy) on generation.kit: each keeps the authored preload (70
tracks, 14 playlists, five liked, four followed artists) and brings in tracks and public playlists."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from sentinel.core.catalog import Catalog
from sentinel.core.kinds import Kind, Knobs
from sentinel.generation import kit

HOME = "/microfy/"
PRELOAD: dict[str, Any] = {
    "artists": "*", "moods": "*", "tracks": [f"trk{n:04d}" for n in range(1, 71)],
    "playlists": [f"pl{n:03d}" for n in range(1, 15)], "liked": ["trk0003", "trk0010", "trk0017", "trk0033", "trk0048"],
    "followed_artists": ["art005", "art015", "art030", "art051"],
}
FOLLOWED_BASELINE = kit.baseline("followed_artist_count")
COMMON = {"about", "after", "again", "along", "every", "never", "still", "there", "their", "where", "while", "until",
          "under", "through", "would", "could"}


class Fy(kit.Arrivals):
    """MicroFy's catalog as kinds read it: tracks and public playlists not preloaded can arrive."""

    def __init__(self, catalog: Catalog) -> None:
        self.tracks, self.artists, lists = catalog.raw("tracks"), catalog.raw("artists"), catalog.raw("playlists")
        self.names = {p: str(r["name"]) for p, r in lists.items()}
        self.new = [t for t in self.tracks if t not in PRELOAD["tracks"]]
        public = [p for p, r in lists.items() if p not in PRELOAD["playlists"] and not r["is_mine"]]
        super().__init__({"new_track": self.new, "new_playlist": public},
                         {"new_track": "track_id", "new_playlist": "playlist_id"}, PRELOAD, HOME)
        self.title = {t: str(r["title"]) for t, r in self.tracks.items()}
        self.artist = {t: str(r["artist_id"]) for t, r in self.tracks.items()}
        self.by = {t: str(self.artists[a]["name"]) for t, a in self.artist.items()}
        self.lyrics = {t: str(r["lyrics"]).lower() for t, r in self.tracks.items()}
        shown = [n.lower() for n in (*(r[k] for r in self.tracks.values() for k in ("title", "album")),
                                     *(r["name"] for r in self.artists.values()), *self.names.values())]
        # titles part of no other name a page shows: "watch until its title" finds that track alone
        self.unique = {t for t, title in self.title.items() if sum(title.lower() in n for n in shown) == 1}

    def about(self, rid: str) -> str:
        if rid in self.names:
            return self.names[rid]
        return f"{self.title[rid]} · {self.by[rid]}" + (" · NEW" if self.tracks[rid]["is_new_release"] else "")


act_on = partial(kit.act_on, HOME)


# --- the next tracks: like_next_four, play_next_three, follow_new_artists and its no-op ---------

def next_tracks(rng: random.Random, catalog: Catalog, knobs: Knobs, *, n: int, press: str, action: str, done: str,
                past: str) -> dict[str, Any]:
    """The next n tracks to trend are the targets (only playlists arrive before them); later ones trail."""
    fy = Fy(catalog)
    at, targets, events = fy.counted(rng, knobs, [t for t in fy.new if t in fy.unique], fy.new, n, what="target",
                                     decoy_note="trailing: a later arrival", trailing=False, after=True)
    ids, titles, count = kit.sql_list(targets), [fy.title[t] for t in targets], {3: "three", 4: "four"}[n]
    return fy.scenario(
        at, events, "easy", "later arrivals",
        description=f"Only playlists arrive before the first {count} tracks to reach Trending ({', '.join(titles)}; "
                    f"the last at {at} s), the targets; more follow. Doing the same to a later one fails.",
        prompt=f"Watch the Trending page of MicroFy. {press} each of the next {count} tracks that appear in Trending "
               f"(only those {count}), and tell me once all {count} have been {past}.",
        condition_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE origin = 'event') >= {n}",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE id IN ({ids}) AND {done}) = {n} AND NOT EXISTS "
                 f"(SELECT 1 FROM tracks WHERE origin = 'event' AND {done} AND id NOT IN ({ids}))",
        solution=[*(s for t in titles for s in act_on(t, action)),
                  {"report": f"The next {count} trending tracks arrived; I {past} all {count}."}])


def follow_new_artists(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The next four tracks come from four artists not followed yet; later tracks by others trail."""
    fy = Fy(catalog)
    fresh = [t for t in fy.new if t in fy.unique and fy.artist[t] not in PRELOAD["followed_artists"]]
    one_each = list({fy.artist[t]: t for t in rng.sample(fresh, len(fresh))}.values())
    artists = {fy.artist[t] for t in kit.sample(rng, one_each, 4, "artists not followed with a new track")}
    at, targets, events = fy.counted(rng, knobs, [t for t in one_each if fy.artist[t] in artists],
                                     [t for t in fy.new if fy.artist[t] not in artists], 4, what="target",
                                     decoy_note="trailing: its artist is not one of the four", trailing=False,
                                     after=True, spoils=lambda r: fy.artist.get(r) in artists)
    names = [fy.by[t] for t in targets]
    return fy.scenario(
        at, events, "medium", "later arrivals' artists",
        description=f"The first four tracks to reach Trending (the fourth at {at} s) come from four artists "
                    f"nobody follows yet ({', '.join(names)}). Following anyone else fails.",
        prompt="On MicroFy, the next four tracks to appear in Trending will come from four different artists. Open "
               "each one's artist page and follow the artist (only those four), then tell me.",
        condition_sql="SELECT (SELECT COUNT(*) FROM tracks WHERE origin = 'event') >= 4",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM artists WHERE id IN ({kit.sql_list(sorted(artists))}) AND followed = "
                 f"1) = 4 AND (SELECT COUNT(*) FROM artists WHERE followed = 1) = {FOLLOWED_BASELINE} + 4",
        solution=[*(s for t, n in zip(targets, names, strict=True) for s in act_on(fy.title[t], "/follow$", n)),
                  {"report": "Four new artists trended; I followed all four."}])


def follow_named_artist_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """follow_new_artists asking for an artist who never trends; one sharing a word of the name does."""
    fy, source = Fy(catalog), follow_new_artists(rng, catalog, knobs)
    present = {fy.artist[e["track_id"]] for e in source["events"] if "track_id" in e}
    named = {a: {w for w in kit.words(r["name"]) if len(w) >= 4} for a, r in fy.artists.items()}
    pairs = [(a, b, w) for b in sorted(present) for a in fy.artists if a not in present
             and a not in PRELOAD["followed_artists"] for w in sorted(named[a] & named[b])]
    asked, near, word = kit.choose(rng, pairs, "artist sharing a name word with a trending one")
    name, near_name = fy.artists[asked]["name"], fy.artists[near]["name"]
    near_event = next(e for e in source["events"] if fy.artist.get(e.get("track_id")) == near)
    near_event["_note"] = f"near miss: by {near_name}, not {name} · {near_event.get('_note', '')}"
    return kit.noop_twin(
        source, distraction=f"{near_name}, a look-alike name",
        description=f"Copy of follow_new_artists asking for {name}, who never trends; {near_name}'s track arrives "
                    f"at {near_event['at']} s as the near miss. Refrain check: nobody new is followed.",
        prompt=f"On MicroFy, when a new track by {name} appears in Trending, open the artist's page, follow them, "
               "and tell me.",
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM tracks WHERE origin = 'event' AND artist_id = "
                      f"{kit.sql_text(asked)})",
        near_miss_sql="SELECT EXISTS (SELECT 1 FROM tracks t JOIN artists a ON a.id = t.artist_id WHERE "
                      f"t.origin = 'event' AND a.name LIKE {kit.like_text(word)})",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM artists WHERE followed = 1) = {FOLLOWED_BASELINE}",
        solution=[{"watch": HOME, "open_new": "^/microfy/track/", "until": {"text": name}}, {"follow": name},
                  {"submit": "/follow$"}, {"report": f"{name} has a new track; I followed them."}])


# --- counted arrivals: new_releases_like_all, public_playlists_more ------------------------------

def new_releases_like_all(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Five new releases trend among older tracks without the NEW tag; liking one of those fails."""
    fy = Fy(catalog)
    fresh = {t for t in fy.new if fy.tracks[t]["is_new_release"]}
    at, picked, events = fy.counted(rng, knobs, sorted(fresh & fy.unique), sorted(set(fy.new) - fresh), 5,
                                    what="new release", decoy_note="decoy: arrives without the NEW tag",
                                    counts=fresh.__contains__)
    more = (f"(SELECT COUNT(*) FROM tracks WHERE is_new_release = 1 AND origin != 'self') >= "
            f"{kit.baseline('new_release_count')} + 5")
    return fy.scenario(
        at, events, "medium", "arrivals without the NEW tag",
        description=f"Five new releases (NEW tag) reach Trending, the fifth at {at} s; {knobs.decoys} re-trending "
                    "older tracks without the tag arrive between them. Liking one of those fails.",
        prompt="On MicroFy, like every new release (tracks tagged NEW) that appears in Trending from now on, and tell "
               "me once five of them have arrived and you have liked all five. Tracks without the NEW tag don't "
               "count; don't like them.",
        condition_sql=f"SELECT {more}",
        eval_sql=f"SELECT {more} AND (SELECT COUNT(*) FROM tracks WHERE origin = 'event' AND is_new_release = 1 AND "
                 "liked = 1) >= 5 AND NOT EXISTS (SELECT 1 FROM tracks WHERE origin = 'event' AND is_new_release = 0 "
                 "AND liked = 1)",
        solution=[*(s for t in picked[:5] for s in act_on(fy.title[t], "/like$")),
                  {"report": "Five new releases arrived; I liked all five."}])


def three_playlists(rng: random.Random, catalog: Catalog, knobs: Knobs) -> kit.Facts:
    """Three public playlists arrive (the third at the target, one more trails), tracks between them."""
    fy = Fy(catalog)
    at, _, events = fy.counted(rng, knobs, fy.of("new_playlist"), fy.new, 3, what="public playlist",
                               decoy_note="decoy: a track, not a playlist")
    return {"at": at, "events": events, "preload": fy.preload}


PLAYLISTS = kit.Recipe(
    three_playlists, difficulty="easy", distraction="track arrivals", start_page=HOME,
    description="Three public playlists join the sidebar (the third at {at} s) among {decoys} track arrivals; another "
                "follows. The sidebar shows only the total of public playlists.",
    prompt="Keep an eye on the public playlists in my MicroFy sidebar and tell me once there are three more of them "
           "than there are now. Playlists I create myself don't count.",
    **kit.count_watch("playlists WHERE is_mine = 0 AND origin != 'self'", 3, HOME, r"Public playlists \((\d+)\)",
                      "Three more public playlists have appeared.", "public_playlist_count"))


# --- the lyric kinds: the word is in lyrics only (track pages); look-alikes have it elsewhere, or nearly ---

def families(fy: Fy) -> dict[str, tuple[list[str], list[str]]]:
    """Lyric word → (preloaded tracks, new tracks) whose lyrics hold it (as LIKE finds it)."""
    found = {w for text in fy.lyrics.values() for w in kit.words(text) if len(w) >= 5 and w.isalpha()} - COMMON
    fams = {w: ([t for t in PRELOAD["tracks"] if w in fy.lyrics[t]], [t for t in fy.new if w in fy.lyrics[t]])
            for w in sorted(found)}
    return {w: f for w, f in fams.items() if f[1]}


def _lyric(rng: random.Random, fy: Fy, knobs: Knobs, word: str, targets: list[str]) -> tuple:
    """Look-alikes, then the targets (the last at the target time); no other track holding the
    word arrives. Returns (target time, targets in arrival order, events)."""
    def lookalike(tid: str) -> tuple[float, str]:  # how a track without the word resembles one with it
        if word in fy.title[tid].lower():
            return 1.0, f"{word} in the title only, not in the lyrics"
        if word in fy.by[tid].lower():
            return 1.0, f"{word} only in the artist name"
        near = kit.nearness(word, fy.lyrics[tid])
        return (0.8 * near, f"a near word in the lyrics, not {word}") if near else (0.0, f"no {word} anywhere")

    clean = [t for t in fy.new if word not in fy.lyrics[t]]
    return fy.counted(rng, knobs, targets, clean, len(targets), what=f"song mentioning {word}", trailing=False,
                      near=lambda t: lookalike(t)[0], decoy_note=lambda t: "decoy: " + lookalike(t)[1],
                      counts=lambda r: False, spoils=lambda r: word in fy.lyrics.get(r, ""))


def _act(fy: Fy, tid: str | None, word: str, action: str) -> list[dict[str, Any]]:
    """By its title when a page names it once (close targets are not missed between reads), else opening new tracks."""
    if tid in fy.unique:
        return act_on(fy.title[tid], action)
    return [{"watch": HOME, "open_new": "^/microfy/track/", "until": {"matches": f"(?is)Lyrics\\b.*{word}"}},
            {"submit": action}]


def lyric_like(rng: random.Random, catalog: Catalog, knobs: Knobs, *, second: bool = False) -> dict[str, Any]:
    """A new song whose lyrics hold a word (only its track page shows them), look-alikes before it, the label
    withdrawing it when the hold ends; with `second`, a liked preloaded song already holds the word."""
    return liked_lyric(rng, Fy(catalog), knobs, second)[1]


def liked_lyric(rng: random.Random, fy: Fy, knobs: Knobs, second: bool) -> tuple[str, dict[str, Any]]:
    """lyric_like's draw, with the word (lyric_absent_noop asks for another one on the same timeline)."""
    fams = {w: f for w, f in families(fy).items() if len(f[0]) == int(second) and (second or len(f[1]) == 1)}
    word = kit.choose(rng, sorted(fams), "lyric word")
    (pre, new), like, k = fams[word], kit.like_text(word), 1 + second
    at, targets, events = _lyric(rng, fy, knobs, word, [kit.choose(rng, new)])
    until = kit.hold_until(knobs, at)
    events.append(kit.event(until, "withdraw_track", f"the label pulls the {word} song: it can no longer be liked "
                            f"(condition_until) · {fy.title[targets[0]]}", track_id=targets[0]))
    first = f"{fy.title[pre[0]]} (preloaded, liked) already mentions {word} in its lyrics; " if second else ""
    told = f"One of my liked songs already mentions {word} in its lyrics. When a second" if second else "When a"
    return word, fy.scenario(
        at, events, "hard", f"{word} in titles and artist names, near words", condition_until=until,
        preload={**PRELOAD, "liked": sorted({*PRELOAD["liked"], *pre})},
        prompt=f"Watch Trending on MicroFy. {told} song whose lyrics mention \"{word}\" appears, like it (only that "
               "song) and tell me.",
        description=f"{first}Look-alikes carry {word} in a title or artist name or a near word; the target ({at} s) "
                    f"has it in its lyrics only. It is withdrawn at {until} s. Liking any other new track fails.",
        condition_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE lyrics LIKE {like}) >= {k}",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE liked = 1 AND lyrics LIKE {like}) >= {k} AND NOT EXISTS "
                 f"(SELECT 1 FROM tracks WHERE origin = 'event' AND liked = 1 AND lyrics NOT LIKE {like})",
        solution=[*_act(fy, targets[0], word, "/like$"),
                  {"report": f"A {'second ' if second else ''}song mentioning {word} arrived; I liked it."}])


def lyric_absent_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """lyric_like asking for a word in no lyrics; a track with it in the title arrives (the near miss)."""
    fy = Fy(catalog)
    word, source = liked_lyric(rng, fy, knobs, False)
    every, used = " ".join(fy.lyrics.values()), {e.get("track_id") for e in source["events"]}
    options = [(t, w) for t in fy.new if t not in used and word not in fy.lyrics[t]
               for w in sorted(kit.words(fy.title[t])) if len(w) >= 4 and w not in every]
    near, asked = kit.choose(rng, options, "title word in no lyrics")
    near_at = kit.free_moment(rng, source["events"])
    return kit.noop_twin(
        source, near=[fy.make(near_at, near, f"near miss: {asked} in the title only, never in lyrics")],
        distraction=f"{asked} in a title", swap=(f'"{word}"', f'"{asked}"'),
        description=f"Copy of lyric_like asking for {asked}, which is in no lyrics; {fy.title[near]} ({near_at} s) "
                    f"has it in the title only (the near miss). Refrain check: nothing is liked.",
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM tracks WHERE lyrics LIKE {kit.like_text(asked)})",
        near_miss_sql=f"SELECT EXISTS (SELECT 1 FROM tracks WHERE origin = 'event' AND title LIKE "
                      f"{kit.like_text(asked)})",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE liked = 1) = {kit.baseline('liked_count')}",
        solution=[*_act(fy, None, asked, "/like$"), {"report": f"A song mentioning {asked} trended; I liked it."}])


def lyric_play_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """Two more songs mention a word one or two preloaded songs hold; all of them must be played."""
    fy = Fy(catalog)
    fams = {w: f for w, f in families(fy).items() if 1 <= len(f[0]) <= 2 and len(f[1]) >= 2
            and all(t in fy.unique for t in f[0])}
    word = kit.choose(rng, sorted(fams), "lyric word with two new songs")
    pre, like, n = fams[word][0], kit.like_text(word), len(fams[word][0]) + 2
    at, targets, events = _lyric(rng, fy, knobs, word, kit.sample(rng, fams[word][1], 2))
    named = " and ".join(f"{fy.title[t]} by {fy.by[t]}" for t in pre)
    # the new songs first (Trending's first read comes before they arrive), then the preloaded ones
    steps = [st for t in targets for st in _act(fy, t, word, "/play$")]
    steps += [st for t in pre for st in ({"open": f"/microfy/search?q={fy.title[t].replace(' ', '+')}"},
                                         {"follow": fy.title[t]}, {"submit": "/play$"})]
    return fy.scenario(
        at, events, "hard", f"{word} in titles and artist names, near words",
        description=f"{named} (preloaded) mention {word}; two more {word} songs trend, the second at {at} s. "
                    "Look-alikes come first. Playing any other new track fails.",
        prompt=f"On MicroFy, {named} {'mentions' if len(pre) == 1 else 'mention'} \"{word}\" in the lyrics. Once two "
               f"more songs whose lyrics mention \"{word}\" have appeared in Trending, make sure all {n} have been "
               "played (press Play on each; don't play other new songs), then tell me.",
        condition_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE lyrics LIKE {like}) >= {n}",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE lyrics LIKE {like} AND my_play_count > 0) >= {n} AND NOT "
                 f"EXISTS (SELECT 1 FROM tracks WHERE origin = 'event' AND my_play_count > 0 AND lyrics NOT LIKE "
                 f"{like})",
        solution=[*steps, {"report": f"Two more {word} songs trended; all {n} are played."}])


KINDS: tuple[Kind, ...] = (
    kit.kind("follow_named_artist_noop", "noop", "absolute", Knobs(decoys=2),
             "as follow_new_artists; the near miss is an artist sharing a word of the asked artist's name",
             follow_named_artist_noop),
    kit.kind("follow_new_artists", "active", "absolute", Knobs(decoys=2),
             "decoys: later tracks by artists not followed (following them fails)", follow_new_artists),
    kit.kind("like_next_four", "active", "absolute", Knobs(decoys=2),
             "decoys: later tracks trailing the four targets; only playlists arrive before them",
             partial(next_tracks, n=4, press="Like", action="/like$", done="liked = 1", past="liked")),
    kit.kind("lyric_absent_noop", "noop", "absolute", Knobs(decoys=3),
             "as lyric_like; the near miss carries the asked word in its title, never in lyrics", lyric_absent_noop),
    kit.kind("lyric_like", "active", "absolute", Knobs(decoys=3, hold_s=120),
             "decoys: tracks with the word in a title or artist name, or a near word in the lyrics (near_miss: how "
             "near); hold_s: until the label withdraws the target", lyric_like),
    kit.kind("lyric_like_second", "active", "relative", Knobs(decoys=3, hold_s=120),
             "as lyric_like; one liked preloaded song already holds the word", partial(lyric_like, second=True)),
    kit.kind("lyric_play_more", "active", "relative", Knobs(decoys=3),
             "decoys as lyric_like before the two targets; the first mention is preloaded", lyric_play_more),
    kit.kind("new_releases_like_all", "active", "relative", Knobs(decoys=3),
             "decoys: re-trending tracks without the NEW tag between the five new releases", new_releases_like_all),
    kit.kind("play_next_three", "active", "absolute", Knobs(decoys=2),
             "decoys: later tracks trailing the three targets; only playlists arrive before them",
             partial(next_tracks, n=3, press="Press Play on", action="/play$", done="my_play_count > 0",
                     past="played")),
    kit.kind("public_playlists_more", "passive", "relative", Knobs(decoys=3),
             "decoys: track arrivals between the three counted playlists", PLAYLISTS),
)
