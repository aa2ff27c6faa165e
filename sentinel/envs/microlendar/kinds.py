"""microlendar's scenario kinds, all ten: the list `sentinel generate` draws from."""

from __future__ import annotations

from sentinel.core.kinds import Kind, Knobs
from sentinel.envs.microlendar.kinds_invite import (
    draw_feature_meeting,
    draw_invite_destination,
    draw_invite_other_destination_noop,
)
from sentinel.envs.microlendar.kinds_more import COUNT_KINDS, draw_description_second_match

KINDS: tuple[Kind, ...] = (
    Kind("description_second_match", "active", "relative", draw_description_second_match, Knobs(decoys=3),
         "decoys: events before the target with the word in the title only, the target's title, or shared "
         "description words (near_miss: how alike)"),
    Kind("invite_destination", "active", "absolute", draw_invite_destination, Knobs(decoys=2),
         "decoys: same-title invitations for other destinations (at most the catalog's family less two); hold_s: "
         "until the organizer withdraws the invitation"),
    Kind("invite_other_destination_noop", "noop", "absolute", draw_invite_other_destination_noop, Knobs(decoys=2),
         "as invite_destination; asks for a destination no event names"),
    Kind("feature_meeting", "active", "absolute", draw_feature_meeting, Knobs(decoys=2),
         "decoys: same-title invitations about other features"),
    *COUNT_KINDS,
)
