"""microchat's scenario kinds, all ten: the list `sentinel generate` draws from."""

from __future__ import annotations

from sentinel.core.kinds import Kind, Knobs
from sentinel.envs.microchat.kinds_passive import PASSIVE_KINDS
from sentinel.envs.microchat.kinds_react import (
    draw_dm_keyword,
    draw_file_from_person_noop,
    draw_file_shared,
    draw_mentions_by_person_noop,
    draw_mentions_three_more,
    draw_urgent_three_more,
)

KINDS: tuple[Kind, ...] = (
    Kind("dm_keyword", "active", "absolute", draw_dm_keyword, Knobs(decoys=4),
         "decoys: messages before the target (near_miss: from the same direct chat, sharing the phrase's words)"),
    Kind("file_shared", "active", "absolute", draw_file_shared, Knobs(decoys=4),
         "decoys: file-less messages before the file (near_miss: how much they talk about files); hold_s: until the "
         "sender deletes the message"),
    Kind("file_from_person_noop", "noop", "absolute", draw_file_from_person_noop, Knobs(decoys=4),
         "as file_shared; the awaited colleague writes without files, someone else's file is the near miss"),
    Kind("mentions_three_more", "active", "relative", draw_mentions_three_more, Knobs(decoys=3),
         "decoys: messages @mentioning other people between the three mentions of self"),
    Kind("mentions_by_person_noop", "noop", "relative", draw_mentions_by_person_noop, Knobs(decoys=3),
         "as mentions_three_more; the awaited colleague only @mentions others"),
    Kind("urgent_three_more", "active", "relative", draw_urgent_three_more, Knobs(decoys=3),
         "decoys: unflagged messages between the urgent ones (near_miss: 'urgent' in plain text)"),
    *PASSIVE_KINDS,
)
