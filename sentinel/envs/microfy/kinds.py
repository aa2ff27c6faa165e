"""MicroFy's ten scenario kinds (ENVIRONMENTS §4): the authored scenarios made into templates.

Every draw keeps the authored preload (70 tracks, 14 playlists, five liked songs, four followed
artists) and picks targets, look-alikes, near misses and background arrivals from the tracks
and public playlists not preloaded (helpers in kinds_base.py; the lyric kinds in
kinds_lyrics.py). What each knob means per kind is in KINDS' notes.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Kind, Knobs, NoDraw
from sentinel.envs.microfy.kinds_base import (
    FIRST_READ_S,
    HOME,
    PRELOAD,
    arrival,
    artist_name,
    baseline,
    fill,
    new_playlists,
    new_tracks,
    preload,
    taxonomy,
    track,
    trail_times,
    unique_title,
    words,
)
from sentinel.envs.microfy.kinds_lyrics import (
    draw_lyric_absent_noop,
    draw_lyric_like,
    draw_lyric_like_second,
    draw_lyric_play_more,
)
from sentinel.generation.kit import choose, sample, scenario, sql_text, target_time, timeline, times_between

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog


def act_on(title: str, action: str, extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Wait for a title in Trending, open it (then `extra` links), press the action."""
    return [{"watch": HOME, "until": {"text": title}}, {"follow": title}, *({"follow": e} for e in extra),
            {"submit": action}]


def ids_sql(ids: list[str]) -> str:
    return ", ".join(sql_text(i) for i in ids)


# --- the next tracks: like_next_four, play_next_three ----------------------------------------

def _next(rng: random.Random, catalog: Catalog, knobs: Knobs, n: int) -> tuple[int, list[str], list]:
    """The first n tracks to arrive are the targets (the n-th at the target time); `decoys` later
    tracks trail; only playlists arrive before the target besides them."""
    pool = [t for t in new_tracks(catalog) if unique_title(catalog, t)]
    targets = sample(rng, pool, n, "tracks with a title named once")
    later = sample(rng, [t for t in new_tracks(catalog) if t not in targets], max(1, knobs.decoys), "later tracks")
    at = target_time(rng, knobs, lo=FIRST_READ_S + 4 * n)
    times = [*times_between(rng, n - 1, FIRST_READ_S, at), at]
    events = [arrival(catalog, t, "new_track", tid, f"target {i + 1} of {n}")
              for i, (t, tid) in enumerate(zip(times, targets, strict=True))]
    events += [arrival(catalog, t, "new_track", tid, f"trailing: arrival {n + i + 1}, not one of the {n}")
               for i, (t, tid) in enumerate(zip(trail_times(rng, len(later), at), later, strict=True))]
    events += fill(rng, catalog, knobs, events, ("new_playlist",), stop=at - 3)
    events += fill(rng, catalog, knobs, events, start=at + 3)
    return at, targets, events


def draw_like_next_four(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    at, targets, events = _next(rng, catalog, knobs, 4)
    ids = ids_sql(targets)
    titles = [track(catalog, t)["title"] for t in targets]
    return scenario(
        description=f"The first four tracks to reach Trending ({', '.join(titles)}; the fourth at {at} s) are the "
                    "targets; more keep arriving after them. Liking any later arrival fails the task.",
        prompt="Watch the Trending page of MicroFy. Like each of the next four tracks that appear in Trending (only "
               "those four), and tell me once all four are liked.",
        condition_at=at, start_page=HOME, taxonomy=taxonomy("active", "absolute", "easy", "later arrivals"),
        events=timeline(preload(), events),
        condition_sql="SELECT (SELECT COUNT(*) FROM tracks WHERE origin = 'event') >= 4",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE id IN ({ids}) AND liked = 1) = 4 AND NOT EXISTS "
                 f"(SELECT 1 FROM tracks WHERE origin = 'event' AND liked = 1 AND id NOT IN ({ids}))",
        solution=[*(s for t in titles for s in act_on(t, "/like$")),
                  {"report": "The next four trending tracks arrived; I liked all four."}])


def draw_play_next_three(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    at, targets, events = _next(rng, catalog, knobs, 3)
    ids = ids_sql(targets)
    titles = [track(catalog, t)["title"] for t in targets]
    return scenario(
        description=f"Only playlists arrive at first; the first three tracks to reach Trending ({', '.join(titles)}; "
                    f"the third at {at} s) are the targets; more follow. Playing any later arrival fails.",
        prompt="On MicroFy, press Play on each of the next three tracks that appear in Trending (only those three), "
               "and tell me once all three have been played.",
        condition_at=at, start_page=HOME, taxonomy=taxonomy("active", "absolute", "easy", "later arrivals"),
        events=timeline(preload(), events),
        condition_sql="SELECT (SELECT COUNT(*) FROM tracks WHERE origin = 'event') >= 3",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE id IN ({ids}) AND my_play_count > 0) = 3 AND NOT EXISTS "
                 f"(SELECT 1 FROM tracks WHERE origin = 'event' AND my_play_count > 0 AND id NOT IN ({ids}))",
        solution=[*(s for t in titles for s in act_on(t, "/play$")),
                  {"report": "The next three tracks arrived; I played all three."}])


# --- follow_new_artists and its no-op ---------------------------------------------------------

def _artists_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """The next four tracks, by four artists nobody follows yet; later tracks trail (decoys)."""
    followed = set(PRELOAD["followed_artists"])
    pool = [t for t in new_tracks(catalog, lambda r: r["artist_id"] not in followed) if unique_title(catalog, t)]
    rng.shuffle(pool)
    targets: list[str] = []
    for t in pool:
        if track(catalog, t)["artist_id"] not in {track(catalog, x)["artist_id"] for x in targets}:
            targets.append(t)
    targets = targets[:4]
    if len(targets) < 4:
        raise NoDraw("fewer than four artists not followed have a new track")
    artists = [track(catalog, t)["artist_id"] for t in targets]
    later = sample(rng, [t for t in new_tracks(catalog) if t not in targets and track(catalog, t)["artist_id"]
                         not in artists], max(1, knobs.decoys), "later tracks")
    at = target_time(rng, knobs, lo=FIRST_READ_S + 16)
    times = [*times_between(rng, 3, FIRST_READ_S, at), at]
    events = [arrival(catalog, t, "new_track", tid, f"target {i + 1} of 4: by {artist_name(catalog, a)}")
              for i, (t, tid, a) in enumerate(zip(times, targets, artists, strict=True))]
    events += [arrival(catalog, t, "new_track", tid, "trailing: its artist is not one of the four")
               for t, tid in zip(trail_times(rng, len(later), at), later, strict=True)]
    return {"at": at, "targets": targets, "artists": artists, "events": events}


def _artists_fill(rng, catalog, knobs, s, avoid: set[str]) -> list[dict[str, Any]]:
    spoils = lambda t, r: t == "new_track" and track(catalog, r)["artist_id"] in avoid  # noqa: E731
    before = fill(rng, catalog, knobs, s["events"], ("new_playlist",), stop=s["at"] - 3)
    return before + fill(rng, catalog, knobs, s["events"] + before, start=s["at"] + 3, spoils=spoils)


def draw_follow_new_artists(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _artists_setup(rng, catalog, knobs)
    events = s["events"] + _artists_fill(rng, catalog, knobs, s, set(s["artists"]))
    names = [artist_name(catalog, a) for a in s["artists"]]
    solution = [st for tid, n in zip(s["targets"], names, strict=True)
                for st in act_on(track(catalog, tid)["title"], "/follow$", (n,))]
    return scenario(
        description=f"The first four tracks to reach Trending (the fourth at {s['at']} s) come from four artists "
                    f"nobody follows yet ({', '.join(names)}). Following anyone else fails.",
        prompt="On MicroFy, the next four tracks to appear in Trending will come from four different artists. Open "
               "each one's artist page and follow the artist (only those four), then tell me.",
        condition_at=s["at"], start_page=HOME,
        taxonomy=taxonomy("active", "absolute", "medium", "later arrivals' artists"),
        events=timeline(preload(), events),
        condition_sql="SELECT (SELECT COUNT(*) FROM tracks WHERE origin = 'event') >= 4",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM artists WHERE id IN ({ids_sql(s['artists'])}) AND followed = 1) = 4 "
                 f"AND (SELECT COUNT(*) FROM artists WHERE followed = 1) = {baseline('followed_artist_count')} + 4",
        solution=[*solution, {"report": "Four new artists trended; I followed all four."}])


def draw_follow_named_artist_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """An artist with no track on the timeline is asked for; an artist sharing a word of their name
    does trend (the near miss)."""
    s = _artists_setup(rng, catalog, knobs)
    present = {track(catalog, e["track_id"])["artist_id"] for e in s["events"]}
    arts = catalog.raw("artists")
    pairs = [(a, b, w) for b in sorted(present) for a in arts if a not in present
             and a not in PRELOAD["followed_artists"]
             for w in sorted(set(words(arts[a]["name"])) & set(words(arts[b]["name"]))) if len(w) >= 4]
    asked, near, word = choose(rng, pairs, "artist sharing a name word with a trending one")
    events = s["events"] + _artists_fill(rng, catalog, knobs, s, set(s["artists"]) | {asked})
    name = artist_name(catalog, asked)
    near_event = next(e for e in events if e.get("track_id") and track(catalog, e["track_id"])["artist_id"] == near)
    near_event["_note"] = f"near miss: by {artist_name(catalog, near)}, not {name} · " + near_event.get("_note", "")
    return scenario(
        description=f"Copy of follow_new_artists asking for {name}, who never trends; "
                    f"{artist_name(catalog, near)}'s track arrives at {near_event['at']} s as the near miss. Refrain "
                    "check: nobody new is followed.",
        prompt=f"On MicroFy, when a new track by {name} appears in Trending, open the artist's page, follow them, "
               "and tell me.",
        condition_at=None, start_page=HOME,
        taxonomy=taxonomy("noop", "absolute", "medium", f"{artist_name(catalog, near)}, a look-alike name"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM tracks WHERE origin = 'event' AND artist_id = {sql_text(asked)})",
        near_miss_sql="SELECT EXISTS (SELECT 1 FROM tracks t JOIN artists a ON a.id = t.artist_id WHERE "
                      f"t.origin = 'event' AND a.name LIKE {sql_text('%' + word + '%')})",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM artists WHERE followed = 1) = {baseline('followed_artist_count')}",
        solution=[{"watch": HOME, "open_new": "^/microfy/track/", "until": {"text": name}}, {"follow": name},
                  {"submit": "/follow$"}, {"report": f"{name} has a new track; I followed them."}])


# --- new_releases_like_all, public_playlists_more ---------------------------------------------

def _counted(rng, knobs, n: int, n_decoys: int) -> tuple[int, list[int], list[int]]:
    at = target_time(rng, knobs, lo=FIRST_READ_S + 2 * (n + n_decoys) + 2)
    times = times_between(rng, n - 1 + n_decoys, FIRST_READ_S, at)
    slots = list(range(len(times)))
    rng.shuffle(slots)
    return at, [times[j] for j in sorted(slots[n_decoys:])] + [at], [times[j] for j in sorted(slots[:n_decoys])]


def draw_new_releases_like_all(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    fresh = [t for t in new_tracks(catalog, lambda r: r["is_new_release"]) if unique_title(catalog, t)]
    picked = sample(rng, fresh, 6, "new releases")
    older = sample(rng, new_tracks(catalog, lambda r: not r["is_new_release"]), knobs.decoys, "re-trending tracks")
    at, count_t, decoy_t = _counted(rng, knobs, 5, len(older))
    events = [arrival(catalog, t, "new_track", tid, f"target: new release {i + 1} of 5")
              for i, (t, tid) in enumerate(zip(count_t, picked, strict=False))]
    events += [arrival(catalog, t, "new_track", tid, "decoy: arrives without the NEW tag")
               for t, tid in zip(decoy_t, older, strict=True)]
    events.append(arrival(catalog, trail_times(rng, 1, at)[0], "new_track", picked[5], "trailing new release"))
    new_spoils = lambda t, r: t == "new_track" and bool(track(catalog, r)["is_new_release"])  # noqa: E731
    events += fill(rng, catalog, knobs, events, spoils=new_spoils, stop=at - 3)
    events += fill(rng, catalog, knobs, events, start=at + 3)
    titles = [track(catalog, t)["title"] for t in picked[:5]]
    more = f"(SELECT COUNT(*) FROM tracks WHERE is_new_release = 1 AND origin != 'self') >= " \
           f"{baseline('new_release_count')} + 5"
    return scenario(
        description=f"Five new releases (NEW tag) reach Trending, the fifth at {at} s; {len(older)} re-trending older "
                    "tracks without the tag arrive between them. Liking one of those fails.",
        prompt="On MicroFy, like every new release (tracks tagged NEW) that appears in Trending from now on, and tell "
               "me once five of them have arrived and you have liked all five. Tracks without the NEW tag don't "
               "count; don't like them.",
        condition_at=at, start_page=HOME,
        taxonomy=taxonomy("active", "relative", "medium", "arrivals without the NEW tag"),
        events=timeline(preload(), events), condition_sql=f"SELECT {more}",
        eval_sql=f"SELECT {more} AND (SELECT COUNT(*) FROM tracks WHERE origin = 'event' AND is_new_release = 1 AND "
                 "liked = 1) >= 5 AND NOT EXISTS (SELECT 1 FROM tracks WHERE origin = 'event' AND is_new_release = 0 "
                 "AND liked = 1)",
        solution=[*(s for t in titles for s in act_on(t, "/like$")),
                  {"report": "Five new releases arrived; I liked all five."}])


def draw_public_playlists_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    picked = sample(rng, new_playlists(catalog), 4, "public playlists")
    others = sample(rng, new_tracks(catalog), knobs.decoys, "track arrivals")
    at, count_t, decoy_t = _counted(rng, knobs, 3, len(others))
    events = [arrival(catalog, t, "new_playlist", p, f"public playlist {i + 1} of 3")
              for i, (t, p) in enumerate(zip(count_t, picked, strict=False))]
    events += [arrival(catalog, t, "new_track", tid, "decoy: a track, not a playlist")
               for t, tid in zip(decoy_t, others, strict=True)]
    events.append(arrival(catalog, trail_times(rng, 1, at)[0], "new_playlist", picked[3], "trailing playlist"))
    events += fill(rng, catalog, knobs, events, ("new_track",), stop=at - 3)
    events += fill(rng, catalog, knobs, events, start=at + 3)
    sql = (f"SELECT (SELECT COUNT(*) FROM playlists WHERE is_mine = 0 AND origin != 'self') >= "
           f"{baseline('public_playlist_count')} + 3")
    return scenario(
        description=f"Three public playlists join the sidebar (the third at {at} s) among {len(others)} track "
                    "arrivals; another follows. The sidebar shows only the total of public playlists.",
        prompt="Keep an eye on the public playlists in my MicroFy sidebar and tell me once there are three more of "
               "them than there are now. Playlists I create myself don't count.",
        condition_at=at, start_page=HOME, taxonomy=taxonomy("passive", "relative", "easy", "track arrivals"),
        events=timeline(preload(), events), condition_sql=sql, eval_sql=sql,
        solution=[{"watch": HOME, "until": {"number": r"Public playlists \((\d+)\)", "at_least": "first + 3"}},
                  {"report": "Three more public playlists have appeared."}])


KINDS: tuple[Kind, ...] = (
    Kind("follow_named_artist_noop", "noop", "absolute", draw_follow_named_artist_noop, Knobs(decoys=2),
         "as follow_new_artists; the near miss is an artist sharing a word of the asked artist's name"),
    Kind("follow_new_artists", "active", "absolute", draw_follow_new_artists, Knobs(decoys=2),
         "decoys: later tracks by artists not followed (following them fails)"),
    Kind("like_next_four", "active", "absolute", draw_like_next_four, Knobs(decoys=2),
         "decoys: later tracks trailing the four targets; only playlists arrive before them"),
    Kind("lyric_absent_noop", "noop", "absolute", draw_lyric_absent_noop, Knobs(decoys=3),
         "as lyric_like; the near miss carries the asked word in its title, never in lyrics"),
    Kind("lyric_like", "active", "absolute", draw_lyric_like, Knobs(decoys=3, hold_s=120),
         "decoys: tracks with the word in a title or artist name, or a near word in the lyrics (near_miss: how "
         "near); hold_s: until the label withdraws the target"),
    Kind("lyric_like_second", "active", "relative", draw_lyric_like_second, Knobs(decoys=3, hold_s=120),
         "as lyric_like; one liked preloaded song already holds the word"),
    Kind("lyric_play_more", "active", "relative", draw_lyric_play_more, Knobs(decoys=3),
         "decoys as lyric_like before the two targets; the first mention is preloaded"),
    Kind("new_releases_like_all", "active", "relative", draw_new_releases_like_all, Knobs(decoys=3),
         "decoys: re-trending tracks without the NEW tag between the five new releases"),
    Kind("play_next_three", "active", "absolute", draw_play_next_three, Knobs(decoys=2),
         "decoys: later tracks trailing the three targets; only playlists arrive before them"),
    Kind("public_playlists_more", "passive", "relative", draw_public_playlists_more, Knobs(decoys=3),
         "decoys: track arrivals between the three counted playlists"),
)
