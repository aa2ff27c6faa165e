"""Writes the MicroFy catalogs: artists, tracks, playlists and moods (JSONL, one record a line).

Deterministic: `python catalogs/microfy/generate.py` writes the same bytes every time (seeded
random.Random, standard library only). Every artist, album, title and lyric is invented; the 40
bands come from catalogs/shared/entities.jsonl, playlist owners from the shared personas.

Ids are opaque and append-only (art001, trk0001, pl001, md01): a new record takes the next free
id and nothing is renumbered. Authoring-only fields start with `_` (`_role`, `_note`).

Lyric keywords and their look-alikes (the scenarios grade on `lyrics LIKE '%word%'`):
- "subway":  one target in its lyrics; decoys with the word only in the title ("Subway
  Serenade"), only in the artist's name (The Subway Sparrows), and the near word "subwoofer".
- "whiskey": one preloaded (and liked) song, one later arrival; decoys with the word in the title
  only ("Whiskey Road"), the other spelling "whisky", and the artist Whiskey Hollow.
- "golden":  one preloaded song and two arrivals; decoys "Golden Hour" (title only), the near
  word "gold", and the artist Golden Age Radio.
- "tangerine" is in no lyrics at all: only in one title ("Tangerine Skies").
Filler lyrics are drawn from word banks that hold none of these words (checked below).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent / "shared"
SEED = 4_2026
KEYWORDS = ("subway", "whiskey", "whisky", "golden", "gold", "tangerine", "subwoofer")

GENRES = {  # a band's own genre → one of the eight broad genres the moods use
    "pop": ("bubblegum pop", "synth-pop", "indie pop", "chamber pop", "dream pop"),
    "rock": ("alternative rock", "country rock", "math rock", "post-punk", "space rock", "post-rock",
             "shoegaze", "celtic punk", "blues rock", "indie rock", "metal", "pop rock", "surf rock", "ska"),
    "folk": ("choral folk", "folk", "indie folk", "americana"),
    "electronic": ("synthwave", "indietronica", "electronic", "chiptune", "ambient", "darkwave"),
    "jazz": ("jazz", "jazz fusion", "funk", "gospel", "soul"),
    "hip hop": ("lo-fi hip hop",),
    "latin": ("bossa nova", "cumbia"),
    "world": ("world fusion", "desert blues", "afrobeat"),
}
BROAD = {fine: broad for broad, fines in GENRES.items() for fine in fines}

# Solo artists and the artists the scenarios need (name, broad genre, role note)
SOLO = [
    ("Marlow Vance", "folk", "follow_named_artist_noop: the named artist; never trends"),
    ("Marla Vance", "pop", "look-alike of Marlow Vance; one of follow_new_artists' four"),
    ("The Subway Sparrows", "rock", "decoy: 'subway' in the artist name only"),
    ("Whiskey Hollow", "folk", "decoy: 'whiskey' in the artist name only"),
    ("Golden Age Radio", "pop", "decoy: 'golden' in the artist name only"),
    ("Juno Hartley", "pop", ""), ("Teo Alvarado", "latin", ""), ("Ines Okafor", "hip hop", ""),
    ("Dario Lindqvist", "electronic", ""), ("Priya Castellanos", "jazz", ""),
    ("Wren Abernathy", "folk", ""), ("Kofi Marchetti", "world", ""),
]

WORDS_A = ["Paper", "Silver", "Quiet", "Electric", "Midnight", "Velvet", "Hollow", "Northern", "Crystal",
           "Wild", "Lonely", "Broken", "Neon", "Distant", "Summer", "Winter", "Copper", "Faded", "Secret",
           "Amber", "Borrowed", "Salt", "Last", "Little", "Slow"]
WORDS_B = ["Lights", "Harbor", "Letters", "Rivers", "Windows", "Motel", "Static", "Gardens", "Highway",
           "Echoes", "Horses", "Satellites", "Rooftops", "Tides", "Mornings", "Signals", "Fires",
           "Streets", "Balloons", "Shadows", "Kites", "Weather", "Postcards", "Lanterns", "Waves"]
ALBUM_WORDS = ["Atlas", "Season", "Archive", "Chapter", "Weather Report", "Diaries", "Sessions",
               "Almanac", "Postcards", "Long Way Home", "Blueprint", "Field Notes"]
LINES = [
    "we drove all night with the windows down", "your voice is a lighthouse in the rain",
    "I kept your letters in a shoebox by the door", "the city hums a song I almost know",
    "hold on, hold on, the morning's coming through", "we were younger than the radio",
    "count the stars until the static fades", "I left my heart on a borrowed bicycle",
    "dancing in the kitchen at a quarter past two", "the tide remembers every name we wrote",
    "paper planes across the parking lot", "say my name like a secret in the dark",
    "we built a fire from the pages of July", "the river knows the way back home",
    "every bridge I burn lights up the sky", "I hear the trains but I never leave",
    "your jacket still smells like the sea", "we wrote our plans on the back of a map",
    "slow down, the night is long enough", "the neon hums outside the laundromat",
    "I'm a satellite that lost its way", "the snow fell soft on the empty square",
    "we laughed until the candles burned away", "turn the record over one more time",
    "the porch light waits for you to come", "I counted raindrops on the window pane",
    "we sang the chorus wrong and didn't care", "the lanterns float above the harbor",
    "meet me where the pavement meets the sand", "my heart is an open suitcase",
]


def load_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def build_artists(rng: random.Random) -> list[dict]:
    bands = [e for e in load_jsonl(SHARED / "entities.jsonl") if e["kind"] == "band"]
    rows = [{"id": f"art{i:03d}", "name": b["name"], "genre": BROAD[b["genre"]], "style": b["genre"],
             "origin": b["origin"], "monthly_listeners": rng.randrange(40_000, 9_000_000)}
            for i, b in enumerate(bands, start=1)]
    for name, genre, note in SOLO:
        row = {"id": f"art{len(rows) + 1:03d}", "name": name, "genre": genre, "style": genre,
               "origin": rng.choice(["Lisbon", "Toronto", "Nashville", "Lagos", "Berlin", "Austin"]),
               "monthly_listeners": rng.randrange(40_000, 3_000_000)}
        if note:
            row["_note"] = note
        rows.append(row)
    return rows


def filler_lyrics(rng: random.Random, extra: str | None = None, at: int = 5) -> str:
    """Two verses of bank lines; `extra` (a hand-written line) replaces line `at`."""
    lines = rng.sample(LINES, 8)
    if extra is not None:
        lines[at] = extra
    return "\n".join(lines[:4]) + "\n\n" + "\n".join(lines[4:])


# Hand-written tracks: (title, artist name, lyric line or None, new release, pool, role, note).
# pool "preload" = in every scenario's preload; "event" = arrives on a scenario's timeline.
SPECIAL = [
    ("Brass Lanterns", "Cinder & Sage", "the whiskey glass is empty but the song goes on", 0, "preload",
     "target-context", "lyric_like_second: the liked song that already mentions whiskey"),
    ("Morning Orchard", "Wren Abernathy", "the golden fields roll out beneath the morning", 0, "preload",
     "target", "lyric_play_more: the preloaded song whose lyrics mention golden"),
    ("Ferry Lights", "Marlow Vance", None, 0, "preload", "filler", "the noop's named artist, preloaded only"),
    ("Harbor Letters", "Marlow Vance", None, 0, "preload", "filler", "the noop's named artist, preloaded only"),
    ("Late Train Home", "Static Bloom", "we met beneath the subway stairs at midnight", 1, "event",
     "target", "lyric_like: lyrics mention subway"),
    ("Subway Serenade", "Velour Fox", None, 1, "event", "decoy", "lyric_like: subway in the title only"),
    ("Pigeon Wings", "The Subway Sparrows", None, 1, "event", "decoy", "lyric_like: subway in the artist name only"),
    ("Bass in the Basement", "Neon Monsoon", "the subwoofer shakes the floorboards of the hall", 1, "event",
     "decoy", "lyric_like: near word subwoofer, not subway"),
    ("Tangerine Skies", "Polar Lemonade", None, 1, "event", "near-miss",
     "lyric_absent_noop: tangerine in the title only, never in lyrics"),
    ("Last Call Lullaby", "Desert Telegraph", "pour me one more whiskey and play it slow", 1, "event",
     "target", "lyric_like_second: the second song whose lyrics mention whiskey"),
    ("Whiskey Road", "Wildflower Engine", None, 1, "event", "decoy", "lyric_like_second: whiskey in the title only"),
    ("Peat and Smoke", "Thistle & Thorn", "a dram of whisky by the harbour fire", 1, "event",
     "decoy", "lyric_like_second: the spelling whisky, not whiskey"),
    ("Cedar Porch", "Whiskey Hollow", None, 1, "event", "decoy", "lyric_like_second: whiskey in the artist name only"),
    ("Sunlit Avenue", "Juno Hartley", "we danced in golden light along the avenue", 1, "event",
     "target", "lyric_play_more: the first new song whose lyrics mention golden"),
    ("Honey on the Radio", "Glass Orchard", "your golden voice came crackling through the night", 1, "event",
     "target", "lyric_play_more: the second new song whose lyrics mention golden"),
    ("Golden Hour", "Velvet Meridian", None, 1, "event", "decoy", "lyric_play_more: golden in the title only"),
    ("Pawn Shop Ring", "Brass Comet", "I traded a ring of gold for a song", 1, "event",
     "decoy", "lyric_play_more: near word gold, not golden"),
    ("AM Static", "Golden Age Radio", None, 1, "event", "decoy", "lyric_play_more: golden in the artist name only"),
]


def unique_title(rng: random.Random, used: set[str]) -> str:
    while True:
        title = f"{rng.choice(WORDS_A)} {rng.choice(WORDS_B)}"
        if title not in used:
            used.add(title)
            return title


def build_tracks(rng: random.Random, artists: list[dict]) -> tuple[list[dict], list[dict]]:
    by_name = {a["name"]: a for a in artists}
    plain = [a for a in artists if not a.get("_note")]
    albums: dict[str, dict] = {}
    used = {s[0] for s in SPECIAL}

    def album_for(artist: dict) -> dict:
        owned = [al for al in albums.values() if al["artist_id"] == artist["id"]]
        if owned and (len(owned) > 1 or rng.random() < 0.7):
            return rng.choice(owned)
        album = {"id": f"alb{len(albums) + 1:03d}", "artist_id": artist["id"],
                 "name": f"{rng.choice(WORDS_A)} {rng.choice(ALBUM_WORDS)}", "year": rng.randrange(2012, 2026)}
        albums[album["id"]] = album
        return album

    def track(title: str, artist: dict, lyrics: str, new: int, pool: str, role: str, note: str = "") -> dict:
        album = album_for(artist)
        row = {"id": f"trk{len(rows) + 1:04d}", "title": title, "artist_id": artist["id"],
               "album_id": album["id"], "album": album["name"], "duration_s": rng.randrange(128, 330),
               "genre": artist["genre"], "lyrics": lyrics, "is_new_release": new,
               "global_plays": (rng.randrange(3_000_000, 90_000_000) if rng.random() < 0.4
                                else rng.randrange(20_000, 1_900_000)),
               "_pool": pool, "_role": role}
        if new:
            row["global_plays"] = rng.randrange(8_000, 900_000)
        if note:
            row["_note"] = note
        return row

    rows: list[dict] = []
    specials = iter(SPECIAL)
    for i in range(70):  # preload pool: fillers with the preloaded specials spread among them
        if i in (9, 23, 41, 56):
            title, artist, line, new, pool, role, note = next(specials)
            rows.append(track(title, by_name[artist], filler_lyrics(rng, line), new, pool, role, note))
        else:
            rows.append(track(unique_title(rng, used), rng.choice(plain), filler_lyrics(rng), int(rng.random() < 0.2),
                              "preload", "filler"))
    for title, artist, line, new, pool, role, note in specials:
        rows.append(track(title, by_name[artist], filler_lyrics(rng, line), new, pool, role, note))
    arrivals = rng.sample(plain, 28)  # the generic arrivals: one artist each, all different
    for n, artist in enumerate(arrivals):
        rows.append(track(unique_title(rng, used), artist, filler_lyrics(rng), int(n % 3 != 2), "event", "filler"))
    marla = by_name["Marla Vance"]
    rows.append(track("Porchlight Parade", marla, filler_lyrics(rng), 1, "event", "near-miss",
                      "follow_new_artists: by Marla Vance (not Marlow Vance)"))
    return rows, list(albums.values())


BLURBS = ["hand-picked", "updated weekly", "all killer", "our favourites"]


def build_playlists(rng: random.Random, tracks: list[dict]) -> tuple[list[dict], list[dict]]:
    personas = [p for p in load_jsonl(SHARED / "personas.jsonl") if not p.get("is_self")]
    names = ["Morning Commute", "Deep Focus", "Rainy Day Jazz", "Road Trip Anthems", "Kitchen Disco",
             "Late Night Lo-fi", "Indie Discoveries", "Sunday Slow Down", "Workout Mix", "Campfire Folk",
             "Synth Nights", "Fresh Finds", "Coffeehouse", "Throwback Thursday", "Dinner Party",
             "Evening Wind Down", "Gym Rotation", "Sea Shanties & Sails", "Night Bus", "Garden Party",
             "Study Hall", "Weekend Brunch"]
    mine = {"Road Trip Anthems", "Kitchen Disco", "Sunday Slow Down"}
    preloaded = [t["id"] for t in tracks if t["_pool"] == "preload"]
    rows, items = [], []
    for i, name in enumerate(names, start=1):
        owner = "p000" if name in mine else rng.choice(personas)["id"]
        pool = "preload" if i <= 14 else "event"
        rows.append({"id": f"pl{i:03d}", "name": name, "owner_id": owner, "is_mine": int(name in mine),
                     "description": f"{name}: {rng.choice(BLURBS)}.",
                     "follower_count": 0 if name in mine else rng.randrange(120, 480_000), "_pool": pool})
        for pos, track_id in enumerate(rng.sample(preloaded, rng.randrange(6, 14)), start=1):
            items.append({"playlist_id": f"pl{i:03d}", "track_id": track_id, "position": pos})
    return rows, items


MOODS = [("Chill", ["jazz", "hip hop", "folk"]), ("Energy", ["rock", "electronic"]), ("Focus", ["electronic", "jazz"]),
         ("Party", ["pop", "latin"]), ("Feel Good", ["pop", "latin", "world"]), ("Acoustic", ["folk"]),
         ("Late Night", ["hip hop", "electronic", "jazz"]), ("Around the World", ["world", "latin"])]


def check(tracks: list[dict]) -> None:
    """Only the hand-written lines carry a keyword: the grading LIKEs see exactly what the notes say."""
    for t in tracks:
        found = [k for k in KEYWORDS if k in t["lyrics"].lower()]
        special = next((s for s in SPECIAL if s[0] == t["title"]), None)
        expected = [k for k in KEYWORDS if special and special[2] and k in special[2].lower()]
        assert found == expected, (t["id"], t["title"], found, expected)


def main() -> None:
    rng = random.Random(SEED)
    artists = build_artists(rng)
    tracks, albums = build_tracks(rng, artists)
    check(tracks)
    playlists, items = build_playlists(rng, tracks)
    moods = [{"id": f"md{i:02d}", "name": name, "genres": genres} for i, (name, genres) in enumerate(MOODS, start=1)]
    write_jsonl(HERE / "artists.jsonl", artists)
    write_jsonl(HERE / "albums.jsonl", albums)
    write_jsonl(HERE / "tracks.jsonl", tracks)
    write_jsonl(HERE / "playlists.jsonl", playlists)
    write_jsonl(HERE / "playlist_tracks.jsonl", [{"id": f"pt{i:04d}", **row} for i, row in enumerate(items, 1)])
    write_jsonl(HERE / "moods.jsonl", moods)
    print(f"{len(artists)} artists, {len(albums)} albums, {len(tracks)} tracks, {len(playlists)} playlists")


if __name__ == "__main__":
    main()
