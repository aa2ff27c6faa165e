"""Writes the MicroLendar catalogs: events.jsonl (about 100 calendar events) and tasks.jsonl (25 to-dos).

Deterministic: run `python catalogs/microlendar/generate.py` and the files come out byte for byte
the same. Standard library only; every event, place and note is invented.

Dates never drift: an event is authored as a `day_offset` from the scenario's today (default
2025-06-17, a Tuesday) plus local `start` / `end` times ("09:30"), or `all_day`. Ids are
append-only: new records go at the end of their list, so no existing id ever changes.

Scenario families (authoring notes live in `_role` / `_note` only, never loaded or shown):
- base: the preload of every scenario (weekly meetings, classes, birthdays, one-off events over
  ±6 weeks). ev0068 "Quarterly metrics review" is the upcoming event whose description already
  mentions analytics (description_second_match).
- trip: "Trip planning" invitations that share a title and differ only in the destination named
  in the description: Lisbon, Kyoto, Hawaii (the target of invite_destination), Porto. Iceland is
  never used (the no-op asks for it).
- feature: "Feature sync" invitations about the search, export, notifications (the target of
  feature_meeting) and onboarding features, named only in the description.
- analytics: look-alikes of description_second_match ("Roadmap sync" twice, one with analytics in
  its description; "Analytics guild lunch" with the word only in its title).
- fortnight, personal, today, june: arrivals for the counting tasks, with the look-alikes just
  outside each count (work events 15 or 20 days out or in the past, events tomorrow or
  yesterday, events on July 1).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 8_2025
SELF = "p000"
COLLEAGUES = [
    "p001",
    "p003",
    "p004",
    "p005",
    "p006",
    "p009",
    "p010",
    "p012",
    "p017",
    "p019",
    "p020",
    "p022",
    "p028",
    "p030",
    "p036",
    "p050",
    "p061",
    "p076",
    "p077",
    "p078",
    "p086",
    "p094",
]
FRIENDS = ["p002", "p007", "p008", "p011", "p013", "p014", "p015", "p016", "p018", "p021"]

# (role, day_offset, start, end, category, title, location, description, organizer, note)
# start "all" marks an all-day event; organizer None = the self user's own event; an organizer
# persona id makes it an invitation to the self user (response pending).
E = tuple[str, int, str, str, str, str, str, str, "str | None", str]


def weekly(
    title: str,
    first: int,
    last: int,
    step: int,
    start: str,
    end: str,
    category: str,
    location: str,
    description: str,
    organizer: str | None = None,
) -> list[E]:
    return [
        ("base", day, start, end, category, title, location, description, organizer, "")
        for day in range(first, last + 1, step)
    ]


BASE: list[E] = [
    *weekly(
        "Product team sync",
        -35,
        35,
        7,
        "10:00",
        "10:45",
        "work",
        "Room 3A",
        "Weekly round of the product team: what shipped, what is blocked, what is next.",
    ),
    *weekly(
        "Yoga class",
        -36,
        34,
        7,
        "18:30",
        "19:30",
        "personal",
        "Lotus Studio, Alder St",
        "Bring your own mat. The studio is on the second floor.",
    ),
    *weekly(
        "1:1 with Meera",
        -33,
        37,
        14,
        "14:00",
        "14:30",
        "work",
        "Meera's office",
        "Standing one-to-one: priorities, feedback, career.",
        "p061",
    ),
    *weekly(
        "Soccer practice (Maya)",
        -39,
        32,
        14,
        "10:00",
        "11:30",
        "family",
        "Riverside fields",
        "Maya's under-10 team. Shin guards and water bottle.",
    ),
    ("base", 0, "12:30", "13:30", "personal", "Lunch with Claire", "Café Olmo", "Catch-up lunch.", None, ""),
    (
        "base",
        0,
        "15:00",
        "16:00",
        "work",
        "Design critique",
        "Room 2C",
        "Critique of the new settings screens. Designs are linked in the team channel.",
        "p077",
        "",
    ),
    (
        "base",
        0,
        "15:30",
        "16:30",
        "work",
        "Budget review",
        "Finance corner",
        "Mid-year budget check with finance: travel and tooling lines.",
        "p055",
        "",
    ),
    ("base", 0, "all", "", "family", "Recycling pick-up", "", "Bins out by 7am.", None, ""),
    (
        "base",
        1,
        "09:00",
        "10:00",
        "work",
        "Sprint planning",
        "Room 3A",
        "Plan the next two-week sprint. Bring estimates for the open stories.",
        "p028",
        "",
    ),
    (
        "base",
        2,
        "08:00",
        "08:45",
        "personal",
        "Dentist",
        "Bright Smile Dental, 4th Ave",
        "Six-month check-up and cleaning.",
        None,
        "",
    ),
    ("base", 3, "all", "", "family", "Mom's birthday", "", "Call her in the morning; flowers ordered.", None, ""),
    (
        "base",
        3,
        "11:00",
        "12:00",
        "work",
        "Customer interview: Bayside Clinic",
        "Video call",
        "Research interview about appointment reminders. Claire takes notes.",
        "p010",
        "",
    ),
    (
        "base",
        4,
        "16:00",
        "17:00",
        "work",
        "Release go/no-go",
        "Room 1B",
        "Decide whether 4.2 ships on Monday. Release checklist in the wiki.",
        "p094",
        "",
    ),
    (
        "base",
        6,
        "19:00",
        "21:00",
        "family",
        "Family dinner at Grandma's",
        "Grandma's house",
        "Bring the dessert.",
        None,
        "",
    ),
    (
        "base",
        8,
        "13:00",
        "14:00",
        "work",
        "Hiring committee",
        "Room 2A",
        "Review of the two senior engineer loops.",
        "p044",
        "",
    ),
    (
        "base",
        9,
        "10:00",
        "11:00",
        "personal",
        "Car service",
        "Northside Auto",
        "Annual service and tyre rotation. Drop off the key at the desk.",
        None,
        "",
    ),
    (
        "base",
        11,
        "all",
        "",
        "work",
        "Team offsite",
        "Cedar Lodge",
        "Full-day offsite: strategy in the morning, hike in the afternoon.",
        "p022",
        "",
    ),
    (
        "base",
        12,
        "17:30",
        "18:30",
        "family",
        "Piano recital (Maya)",
        "Music school hall",
        "Maya plays second. Arrive 15 minutes early.",
        None,
        "",
    ),
    (
        "base",
        15,
        "09:30",
        "10:30",
        "work",
        "Quarterly business review",
        "Boardroom",
        "Quarter numbers with leadership.",
        "p089",
        "",
    ),
    (
        "base",
        18,
        "all",
        "",
        "personal",
        "Passport renewal appointment",
        "City hall",
        "Bring two photos and the old passport.",
        None,
        "",
    ),
    (
        "base",
        22,
        "14:00",
        "15:00",
        "work",
        "Vendor contract review",
        "Room 1B",
        "Annual review of the support tooling contract.",
        "p085",
        "",
    ),
    ("base", 27, "all", "", "family", "Summer camp starts", "Lakeview camp", "Drop-off at 8:30.", None, ""),
    ("base", 31, "11:00", "12:00", "work", "Roadmap review", "Boardroom", "Second-half roadmap sign-off.", "p089", ""),
    (
        "base",
        38,
        "18:00",
        "20:00",
        "personal",
        "Concert: The Tidelines",
        "Crystal Ballroom",
        "Doors at 6. Tickets in the email from the box office.",
        None,
        "",
    ),
    (
        "base",
        -1,
        "13:00",
        "14:00",
        "work",
        "Pricing workshop",
        "Room 2C",
        "Packaging options for the pro plan.",
        "p050",
        "",
    ),
    (
        "base",
        -2,
        "18:00",
        "19:30",
        "personal",
        "Book club",
        "Library, meeting room B",
        "This month: a novel about lighthouse keepers.",
        None,
        "",
    ),
    (
        "base",
        -3,
        "all",
        "",
        "work",
        "Conference: ProductCon",
        "Convention center",
        "Badge pick-up at the north entrance.",
        None,
        "",
    ),
    (
        "base",
        -6,
        "10:00",
        "12:00",
        "family",
        "Swimming lessons (Leo)",
        "Community pool",
        "Last lesson of the term.",
        None,
        "",
    ),
    (
        "base",
        -8,
        "15:00",
        "16:00",
        "work",
        "Accessibility audit readout",
        "Room 2A",
        "Findings of the external audit and the fix plan.",
        "p012",
        "",
    ),
    (
        "base",
        -10,
        "09:00",
        "09:30",
        "work",
        "Security training",
        "Video call",
        "Annual phishing awareness module.",
        None,
        "",
    ),
    ("base", -13, "all", "", "family", "Anniversary", "", "Table booked at Lucia's, 7:30pm.", None, ""),
    (
        "base",
        -15,
        "12:00",
        "13:00",
        "personal",
        "Physiotherapy",
        "Motion Clinic",
        "Knee exercises follow-up.",
        None,
        "",
    ),
    (
        "base",
        -20,
        "16:00",
        "17:00",
        "work",
        "Support escalation review",
        "Room 3A",
        "Top ten tickets of the month.",
        "p058",
        "",
    ),
    ("base", -24, "19:00", "22:00", "personal", "Friends' game night", "Sam's place", "Bring snacks.", None, ""),
    (
        "base",
        -29,
        "11:00",
        "12:00",
        "work",
        "Onboarding survey results",
        "Video call",
        "Results of the new-hire survey.",
        "p044",
        "",
    ),
    ("base", -34, "all", "", "family", "School sports day", "Riverside school", "Parents welcome from 1pm.", None, ""),
    ("base", -40, "10:00", "11:00", "work", "Kick-off: Q2 goals", "Boardroom", "Goals for the quarter.", "p089", ""),
    (
        "base",
        5,
        "14:00",
        "15:00",
        "work",
        "Quarterly metrics review",
        "Room 2A",
        "Walk through the quarter's numbers with the data team. Priya prepares the retention charts; "
        "we close with a look at the product analytics dashboards and what to instrument next.",
        "p004",
        "the upcoming event whose description already mentions analytics (description_second_match)",
    ),
]


def trip(destination: str, day: int, organizer: str, role: str, note: str) -> E:
    return (
        role,
        day,
        "18:00",
        "19:00",
        "personal",
        "Trip planning",
        "Video call",
        f"Let's pin down dates, a budget and who books what. I have a shortlist of places to stay "
        f"and a rough plan for the days. The destination: {destination}. Bring ideas!",
        organizer,
        note,
    )


def feature(name: str, day: int, organizer: str, role: str, note: str) -> E:
    return (
        role,
        day,
        "11:00",
        "11:45",
        "work",
        "Feature sync",
        "Room 4B",
        f"Fortnightly sync between design, engineering and support. This time we review open "
        f"questions and the rollout plan for the {name} feature.",
        organizer,
        note,
    )


POOL: list[E] = [
    # trip family
    trip("Lisbon", 5, "p007", "decoy", "Trip planning invitation, destination Lisbon (not Hawaii)"),
    trip("Kyoto", 8, "p011", "decoy", "Trip planning invitation, destination Kyoto (not Hawaii)"),
    trip("Hawaii (Maui, then the Big Island)", 6, "p013", "target", "Trip planning invitation, destination Hawaii"),
    trip("Porto", 9, "p015", "trailing", "Trip planning invitation, destination Porto"),
    # feature family
    feature("search", 3, "p019", "decoy", "Feature sync about the search feature"),
    feature("export", 6, "p030", "decoy", "Feature sync about the export feature"),
    feature("notifications", 8, "p006", "target", "Feature sync about the notifications feature"),
    feature("onboarding", 9, "p078", "trailing", "Feature sync about the onboarding feature"),
    # analytics family
    (
        "decoy",
        4,
        "13:00",
        "13:45",
        "work",
        "Roadmap sync",
        "Room 3A",
        "Align the roadmap with sales: which customer asks make the cut this quarter, and what we say no to.",
        "p050",
        "Roadmap sync whose description does not mention analytics",
    ),
    (
        "decoy",
        7,
        "12:00",
        "13:00",
        "work",
        "Analytics guild lunch",
        "Canteen",
        "Monthly lunch of the data guild. Informal, no agenda; the pizza is on the platform team.",
        "p036",
        "'Analytics' in the title only; the description does not mention it",
    ),
    (
        "target",
        7,
        "15:00",
        "15:45",
        "work",
        "Roadmap sync",
        "Room 3A",
        "Follow-up on onboarding. We go through the drop-off between sign-up and first project, then "
        "agree which analytics events the funnel needs before the redesign.",
        "p061",
        "Roadmap sync whose description mentions analytics",
    ),
    (
        "decoy",
        10,
        "10:00",
        "11:00",
        "work",
        "Metrics deep-dive",
        "Room 2A",
        "Dashboards and metrics for the support team: response times, backlog and satisfaction.",
        "p058",
        "metrics and dashboards, but no analytics in the description",
    ),
    (
        "trailing",
        12,
        "09:30",
        "10:00",
        "work",
        "Data platform sync",
        "Video call",
        "Warehouse migration status and the analytics backlog.",
        "p020",
        "another description with analytics",
    ),
    # fortnight family (work events within the next 14 days, and look-alikes outside it)
    (
        "filler",
        3,
        "09:00",
        "10:00",
        "work",
        "Vendor security review",
        "Room 1B",
        "Questionnaire for the new SSO vendor.",
        "p079",
        "work, in 3 days",
    ),
    ("filler", 2, "17:00", "17:45", "personal", "Haircut", "Fade & Co", "", None, "personal, in 2 days"),
    (
        "decoy",
        20,
        "10:00",
        "12:00",
        "work",
        "Quarterly planning kickoff",
        "Boardroom",
        "Kick-off of Q3 planning.",
        "p089",
        "work, 20 days out (outside 14)",
    ),
    (
        "filler",
        6,
        "16:00",
        "16:45",
        "work",
        "Customer call: Orchard Foods",
        "Video call",
        "Renewal questions.",
        "p029",
        "work, in 6 days",
    ),
    (
        "filler",
        1,
        "18:00",
        "19:00",
        "family",
        "Parent-teacher meeting",
        "Riverside school",
        "",
        None,
        "family, tomorrow",
    ),
    (
        "decoy",
        -2,
        "11:00",
        "12:00",
        "work",
        "Incident retro",
        "Room 2C",
        "Retro of the login outage.",
        "p053",
        "work, two days ago (past)",
    ),
    (
        "filler",
        10,
        "14:00",
        "15:00",
        "work",
        "Hiring debrief",
        "Room 2A",
        "Debrief of the designer loop.",
        "p044",
        "work, in 10 days",
    ),
    (
        "filler",
        13,
        "11:00",
        "12:00",
        "work",
        "Launch readiness review",
        "Room 1B",
        "Checklist walk-through for the mobile launch.",
        "p094",
        "work, in 13 days",
    ),
    (
        "decoy",
        15,
        "15:00",
        "16:00",
        "work",
        "Sprint demo",
        "Room 3A",
        "Demo of the sprint's work.",
        "p028",
        "work, in 15 days (one day outside 14)",
    ),
    (
        "trailing",
        4,
        "10:00",
        "11:00",
        "work",
        "Pricing follow-up",
        "Room 2C",
        "Decisions from the pricing workshop.",
        "p050",
        "work, in 4 days",
    ),
    (
        "trailing",
        25,
        "13:00",
        "14:00",
        "work",
        "Board prep",
        "Boardroom",
        "Slides for the board meeting.",
        "p055",
        "work, 25 days out",
    ),
    # personal family
    (
        "filler",
        4,
        "19:00",
        "20:00",
        "personal",
        "Pottery class",
        "Clay Corner",
        "Glazing session.",
        None,
        "personal, in 4 days",
    ),
    (
        "filler",
        2,
        "10:00",
        "10:30",
        "work",
        "Budget sync",
        "Finance corner",
        "Follow-up on travel spend.",
        "p085",
        "work",
    ),
    (
        "filler",
        1,
        "14:00",
        "15:00",
        "work",
        "Interview: backend candidate",
        "Room 2A",
        "Systems design round.",
        "p076",
        "work",
    ),
    ("filler", 9, "18:00", "19:30", "family", "School play", "Riverside school", "Leo is a tree.", None, "family"),
    (
        "filler",
        12,
        "07:00",
        "08:00",
        "personal",
        "Run club",
        "Waterfront park",
        "5 km easy.",
        None,
        "personal, in 12 days",
    ),
    ("filler", 16, "20:00", "22:00", "personal", "Movie night", "Cinema 21", "", None, "personal, in 16 days"),
    # today family (events on today's date, and look-alikes on the days around it)
    (
        "filler",
        0,
        "11:00",
        "11:15",
        "work",
        "Quick sync with Wei",
        "Video call",
        "Numbers for the sales deck.",
        "p005",
        "today",
    ),
    (
        "decoy",
        1,
        "08:30",
        "09:00",
        "personal",
        "Dentist follow-up",
        "Bright Smile Dental, 4th Ave",
        "",
        None,
        "tomorrow, not today",
    ),
    ("filler", 0, "17:00", "17:20", "personal", "Call with landlord", "Phone", "Lease renewal.", None, "today"),
    ("decoy", -1, "16:00", "16:30", "work", "Expense report review", "Video call", "", "p085", "yesterday, not today"),
    ("decoy", 7, "12:00", "13:00", "work", "Team lunch", "Taqueria Sol", "", "p028", "in a week, not today"),
    (
        "filler",
        0,
        "15:45",
        "16:45",
        "work",
        "Vendor demo",
        "Room 1B",
        "Demo of the new survey tool.",
        "p069",
        "today (overlaps the design critique)",
    ),
    ("trailing", 0, "18:30", "19:30", "personal", "Drinks with Omar", "The Anchor", "", None, "today"),
    # june family (this month, and next month's first days)
    (
        "filler",
        2,
        "09:00",
        "09:45",
        "work",
        "Architecture review",
        "Room 3A",
        "Event pipeline design.",
        "p076",
        "June 19",
    ),
    ("decoy", 16, "10:00", "11:00", "work", "Contract renewal call", "Video call", "", "p062", "July 3, next month"),
    ("filler", 8, "19:00", "21:00", "personal", "Neighbourhood barbecue", "Elm Street park", "", None, "June 25"),
    ("filler", 11, "13:00", "14:00", "work", "Team photo", "Lobby", "Wear the team shirt.", "p081", "June 28"),
    (
        "decoy",
        14,
        "09:00",
        "10:00",
        "work",
        "Monthly all-hands",
        "Auditorium",
        "",
        "p089",
        "July 1: the first day of next month",
    ),
    (
        "filler",
        13,
        "17:00",
        "18:00",
        "family",
        "End-of-term party",
        "Riverside school",
        "",
        None,
        "June 30, the last day of June",
    ),
    ("decoy", 20, "all", "", "family", "Beach weekend", "Cannon Beach", "", None, "July 7, next month"),
    ("filler", 9, "12:00", "13:00", "personal", "Lunch with Sam", "Café Olmo", "", None, "June 26"),
    ("trailing", 10, "15:00", "16:00", "work", "Partner sync: Tidewater", "Video call", "", "p002", "June 27"),
]

TASKS = [
    # (role, title, notes, due day_offset or None, completed)
    ("base", "Book flights for the offsite", "", 5, False),
    ("base", "Renew car insurance", "Compare two quotes first.", 10, False),
    ("base", "Send slides to Meera", "", -1, True),
    ("base", "Order Mom's flowers", "Tulips, delivery on her birthday.", 2, True),
    ("base", "Review the Q3 hiring plan", "", 8, False),
    ("base", "Pay the water bill", "", 3, False),
    ("base", "Sign Maya's field-trip form", "", 1, False),
    ("filler", "Draft the pricing one-pager", "", 6, False),
    ("filler", "Call the plumber", "Kitchen tap drips.", None, False),
    ("filler", "Return library books", "", 4, True),
    ("filler", "Update the roadmap doc", "", 7, False),
    ("filler", "Reply to the Orchard Foods renewal", "", 2, False),
    ("filler", "Pick up dry cleaning", "", 1, False),
    ("filler", "Prepare the QBR numbers", "", 14, False),
    ("filler", "Schedule the car service", "", None, True),
    ("filler", "Buy a birthday gift for Leo", "", 20, False),
    ("filler", "Write interview feedback", "", 0, False),
    ("filler", "Renew the gym membership", "", 12, False),
    ("filler", "Back up the laptop", "", None, False),
    ("filler", "Plan the team lunch", "", 7, False),
]


def attendees(rng: random.Random, organizer: str | None, category: str) -> list[list[str]]:
    """The guest list: the organizer (yes), the self user (pending: an invitation) and others."""
    if organizer is None:
        pool = FRIENDS if category != "work" else COLLEAGUES
        return [[p, rng.choice(["yes", "yes", "maybe", "pending"])] for p in rng.sample(pool, rng.randint(0, 2))]
    pool = [p for p in (FRIENDS if category != "work" else COLLEAGUES) if p != organizer]
    guests = [[organizer, "yes"], [SELF, "pending"]]
    guests += [[p, rng.choice(["yes", "yes", "no", "maybe", "pending"])] for p in rng.sample(pool, rng.randint(1, 4))]
    return guests


def event_records(rng: random.Random) -> list[dict]:
    records = []
    for n, (role, day, start, end, category, title, location, description, organizer, note) in enumerate(
        [*BASE, *POOL], start=1
    ):
        record: dict = {"id": f"ev{n:04d}", "title": title, "category": category, "day_offset": day}
        if start == "all":
            record["all_day"] = True
        else:
            record.update(start=start, end=end)
        record.update(
            location=location,
            description=description,
            organizer_id=organizer,
            attendees=attendees(rng, organizer, category),
            age_minutes=rng.randint(60, 60 * 24 * 30),
            _role=role,
        )
        if note:
            record["_note"] = note
        records.append(record)
    return records


def task_records(rng: random.Random) -> list[dict]:
    return [
        {
            "id": f"td{n:04d}",
            "title": title,
            "notes": notes,
            "due_offset": due,
            "completed": done,
            "age_minutes": rng.randint(30, 60 * 24 * 10),
            "_role": role,
        }
        for n, (role, title, notes, due, done) in enumerate(TASKS, start=1)
    ]


def write(name: str, records: list[dict]) -> None:
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    (HERE / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    rng = random.Random(SEED)
    write("events", event_records(rng))
    write("tasks", task_records(rng))


if __name__ == "__main__":
    main()
