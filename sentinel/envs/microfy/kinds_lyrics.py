"""MicroFy's lyric kinds: lyric_like and its no-op, lyric_like_second, lyric_play_more. The word
asked for sits in lyrics only (track pages); look-alikes carry it in a title or an artist name,
or carry a near word (a shared prefix) in their lyrics.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from sentinel.core.kinds import Knobs
from sentinel.envs.microfy.kinds_base import (
    FIRST_READ_S,
    HOME,
    PRELOAD,
    arrival,
    by,
    fill,
    lyrics,
    nearness,
    new_tracks,
    preload,
    taxonomy,
    track,
    unique_title,
    words,
)
from sentinel.generation.kit import choose, event, like_text, nearest, scenario, target_time, timeline, times_between

if TYPE_CHECKING:
    from sentinel.core.catalog import Catalog

COMMON = {"about", "after", "again", "along", "every", "never", "still", "there", "their", "where", "while", "until",
          "under", "through", "would", "could"}


def families(catalog: Catalog) -> dict[str, tuple[list[str], list[str]]]:
    """Lyric word → (preloaded tracks, new tracks) whose lyrics hold it (as LIKE would find it)."""
    all_words = {w for t in catalog.raw("tracks") for w in words(lyrics(catalog, t))}
    out = {}
    for w in sorted(all_words):
        if len(w) < 5 or w in COMMON:
            continue
        pre = [t for t in PRELOAD["tracks"] if w in lyrics(catalog, t)]
        new = [t for t in new_tracks(catalog) if w in lyrics(catalog, t)]
        if new:
            out[w] = (pre, new)
    return out


def lookalike(catalog: Catalog, word: str, tid: str) -> tuple[float, str]:
    """How a track without the word in its lyrics resembles one with it, and how to say so."""
    rec = track(catalog, tid)
    if word in rec["title"].lower():
        return 1.0, f"{word} in the title only, not in the lyrics"
    if word in by(catalog, tid).lower():
        return 1.0, f"{word} only in the artist name"
    near = nearness(word, lyrics(catalog, tid))
    return (0.8 * near, f"a near word in the lyrics, not {word}") if near else (0.0, f"no {word} anywhere")


def _lyric_setup(rng: random.Random, catalog: Catalog, knobs: Knobs, word: str, targets: list[str],
                 lo: float = FIRST_READ_S) -> dict[str, Any]:
    """Look-alikes, then the targets (the last at the target time); tracks holding the word
    elsewhere never arrive."""
    clean = [t for t in new_tracks(catalog) if word not in lyrics(catalog, t)]
    decoys = nearest(rng, clean, knobs.decoys, lambda t: lookalike(catalog, word, t)[0], knobs.near_miss)
    at = target_time(rng, knobs, lo=lo + 2 * (len(decoys) + len(targets)))
    times = times_between(rng, len(decoys) + len(targets) - 1, lo, at)
    slots = list(range(len(times)))
    rng.shuffle(slots)
    decoy_t = [times[j] for j in sorted(slots[:len(decoys)])]
    target_t = [times[j] for j in sorted(slots[len(decoys):])] + [at]
    events = [arrival(catalog, t, "new_track", d, "decoy: " + lookalike(catalog, word, d)[1])
              for t, d in zip(decoy_t, decoys, strict=True)]
    events += [arrival(catalog, t, "new_track", x, f"target: its lyrics mention {word}")
               for t, x in zip(target_t, targets, strict=True)]
    return {"word": word, "at": at, "events": events, "targets": targets}


def _withdraw(catalog: Catalog, s: dict[str, Any], knobs: Knobs) -> int:
    until = min(s["at"] + int(knobs.hold_s), 715)
    tid = s["targets"][-1]
    s["events"].append(event(until, "withdraw_track", f"the label pulls the {s['word']} song: it can no longer be "
                                                      f"liked (condition_until) · {track(catalog, tid)['title']}",
                             track_id=tid))
    return until


def _fill(rng, catalog, knobs, s, avoid: list[str]) -> list[dict[str, Any]]:
    def spoils(etype: str, rid: str) -> bool:
        return etype == "new_track" and any(w in lyrics(catalog, rid) for w in avoid)
    return fill(rng, catalog, knobs, s["events"], spoils=spoils)


def _open_until(word: str, action: str) -> list[dict[str, Any]]:
    return [{"watch": HOME, "open_new": "^/microfy/track/", "until": {"matches": f"(?is)Lyrics\\b.*{word}"}},
            {"submit": action}]


def _act_on(catalog: Catalog, tid: str, word: str, action: str) -> list[dict[str, Any]]:
    """The oracle's steps for one target: by its title when a page names it once (targets that
    arrive close together are not missed between two reads), else by opening new tracks."""
    title = track(catalog, tid)["title"]
    if not unique_title(catalog, tid):
        return _open_until(word, action)
    return [{"watch": HOME, "until": {"text": title}}, {"follow": title}, {"submit": action}]


def _like_setup(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    fams = {w: new[0] for w, (pre, new) in families(catalog).items() if not pre and len(new) == 1}
    word = choose(rng, sorted(fams), "lyric word")
    s = _lyric_setup(rng, catalog, knobs, word, [fams[word]])
    s["until"] = _withdraw(catalog, s, knobs)
    return s


def liked_only(word: str) -> str:
    like = like_text(word)
    return (f"NOT EXISTS (SELECT 1 FROM tracks WHERE origin = 'event' AND liked = 1 AND lyrics NOT LIKE {like})")


def draw_lyric_like(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    s = _like_setup(rng, catalog, knobs)
    word, like = s["word"], like_text(s["word"])
    events = s["events"] + _fill(rng, catalog, knobs, s, [word])
    return scenario(
        description=f"The target ({s['at']} s) mentions {word} in its lyrics only (track page); look-alikes carry it "
                    f"in a title or artist name or a near word. The label withdraws it at {s['until']} s. Liking any "
                    "other new track fails.",
        prompt=f"Watch Trending on MicroFy. When a song whose lyrics mention \"{word}\" appears, like it (only that "
               "song) and tell me.",
        condition_at=s["at"], condition_until=s["until"], start_page=HOME,
        taxonomy=taxonomy("active", "absolute", "hard", f"{word} in titles and artist names, near words"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM tracks WHERE lyrics LIKE {like})",
        eval_sql=f"SELECT EXISTS (SELECT 1 FROM tracks WHERE liked = 1 AND lyrics LIKE {like}) AND {liked_only(word)}",
        solution=[*_act_on(catalog, s["targets"][0], word, "/like$"),
                  {"report": f"A song mentioning {word} trended; I liked it."}])


def draw_lyric_absent_noop(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """A word of a new track's title that no lyrics hold is asked for; that track is the near miss."""
    s = _like_setup(rng, catalog, knobs)
    every = " ".join(lyrics(catalog, t) for t in catalog.raw("tracks"))
    used = {e.get("track_id") for e in s["events"]}
    options = [(t, w) for t in new_tracks(catalog) if t not in used and s["word"] not in lyrics(catalog, t)
               for w in sorted(set(words(track(catalog, t)["title"]))) if len(w) >= 4 and w not in every]
    near, asked = choose(rng, options, "title word in no lyrics")
    taken = [e["at"] for e in s["events"]]
    near_at = choose(rng, [t for t in range(10, 700) if all(abs(t - b) > 3 for b in taken)], "time")
    s["events"].append(arrival(catalog, near_at, "new_track", near, f"near miss: {asked} in the title only, never in "
                                                                    "lyrics"))
    events = s["events"] + _fill(rng, catalog, knobs, s, [s["word"]])
    return scenario(
        description=f"Copy of lyric_like asking for {asked}, which is in no lyrics; "
                    f"{track(catalog, near)['title']} ({near_at} s) has it in the title only (the near miss), and the "
                    f"{s['word']} song still arrives. Refrain check: nothing is liked.",
        prompt=f"Watch Trending on MicroFy. When a song whose lyrics mention \"{asked}\" appears, like it (only that "
               "song) and tell me.",
        condition_at=None, start_page=HOME, taxonomy=taxonomy("noop", "absolute", "hard", f"{asked} in a title"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT EXISTS (SELECT 1 FROM tracks WHERE lyrics LIKE {like_text(asked)})",
        near_miss_sql=f"SELECT EXISTS (SELECT 1 FROM tracks WHERE origin = 'event' AND title LIKE {like_text(asked)})",
        eval_sql="SELECT (SELECT COUNT(*) FROM tracks WHERE liked = 1) = CAST((SELECT value FROM session_meta WHERE "
                 "key = 'baseline_liked_count') AS REAL)",
        solution=[*_open_until(asked, "/like$"), {"report": f"A song mentioning {asked} trended; I liked it."}])


def draw_lyric_like_second(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """One preloaded song (liked) holds the word; the next one to arrive is the target."""
    fams = {w: f for w, f in families(catalog).items() if len(f[0]) == 1}
    word = choose(rng, sorted(fams), "lyric word with one preloaded song")
    first, target = fams[word][0][0], choose(rng, fams[word][1])
    s = _lyric_setup(rng, catalog, knobs, word, [target])
    until = _withdraw(catalog, s, knobs)
    events = s["events"] + _fill(rng, catalog, knobs, s, [word])
    like = like_text(word)
    liked = sorted({*PRELOAD["liked"], first})
    return scenario(
        description=f"{track(catalog, first)['title']} (preloaded, liked) already mentions {word} in its lyrics; "
                    f"look-alikes come first; the target ({s['at']} s) says {word} in its lyrics only. It is withdrawn "
                    f"at {until} s. Liking any other new track fails.",
        prompt=f"One of my liked songs on MicroFy already mentions {word} in its lyrics. When a second song whose "
               f"lyrics mention \"{word}\" appears in Trending, like that song (only that one) and tell me.",
        condition_at=s["at"], condition_until=until, start_page=HOME,
        taxonomy=taxonomy("active", "relative", "hard", f"{word} in titles and artist names, near words"),
        events=timeline(preload(liked=liked), events),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE lyrics LIKE {like}) >= 2",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE liked = 1 AND lyrics LIKE {like}) >= 2 AND "
                 f"{liked_only(word)}",
        solution=[*_act_on(catalog, target, word, "/like$"),
                  {"report": f"A second song mentioning {word} arrived; I liked it."}])


def draw_lyric_play_more(rng: random.Random, catalog: Catalog, knobs: Knobs) -> dict[str, Any]:
    """One or two preloaded songs hold the word; two more arrive (the second at the target)."""
    fams = {w: f for w, f in families(catalog).items() if 1 <= len(f[0]) <= 2 and len(f[1]) >= 2
            and all(unique_title(catalog, t) for t in f[0])}
    word = choose(rng, sorted(fams), "lyric word with two new songs")
    pre, new = fams[word]
    targets = sorted(rng.sample(new, 2))
    s = _lyric_setup(rng, catalog, knobs, word, targets, lo=FIRST_READ_S)
    events = s["events"] + _fill(rng, catalog, knobs, s, [word])
    like, n = like_text(word), len(pre) + 2
    named = " and ".join(f"{track(catalog, t)['title']} by {by(catalog, t)}" for t in pre)
    # the new songs first (Trending's first read comes before they arrive), then the preloaded ones
    steps = [st for t in targets for st in _act_on(catalog, t, word, "/play$")]
    for t in pre:
        title = track(catalog, t)["title"]
        steps += [{"open": f"/microfy/search?q={title.replace(' ', '+')}"}, {"follow": title}, {"submit": "/play$"}]
    return scenario(
        description=f"{named} (preloaded) mention {word}; two more {word} songs trend, the second at {s['at']} s. "
                    "Look-alikes come first. Playing any other new track fails.",
        prompt=f"On MicroFy, {named} {'mentions' if len(pre) == 1 else 'mention'} \"{word}\" in the lyrics. Once two "
               f"more songs whose lyrics mention \"{word}\" have appeared in Trending, make sure all {n} have been "
               "played (press Play on each; don't play other new songs), then tell me.",
        condition_at=s["at"], start_page=HOME,
        taxonomy=taxonomy("active", "relative", "hard", f"{word} in titles and artist names, near words"),
        events=timeline(preload(), events),
        condition_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE lyrics LIKE {like}) >= {n}",
        eval_sql=f"SELECT (SELECT COUNT(*) FROM tracks WHERE lyrics LIKE {like} AND my_play_count > 0) >= {n} AND NOT "
                 f"EXISTS (SELECT 1 FROM tracks WHERE origin = 'event' AND my_play_count > 0 AND lyrics NOT LIKE "
                 f"{like})",
        solution=[*steps, {"report": f"Two more {word} songs trended; all {n} are played."}])
