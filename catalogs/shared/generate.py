"""Generate the shared catalogs: personas.jsonl (100 personas) and entities.jsonl (200 entities).

Usage:  python catalogs/shared/generate.py [OUT_DIR]

Writes next to this script unless OUT_DIR is given. Standard library only. The output is
byte-identical on every run: every random choice comes from fixed-seed random.Random instances,
no set is iterated, records are written sorted by id with a fixed key order.

Every name here is invented for the benchmark. Ids are opaque: entity kinds are shuffled before
numbering, and apart from p000 (the self user, fixed by docs/environments.md 0.2) persona ids say
nothing about employer or role.
"""

from __future__ import annotations

import json
import random
import sys
import unicodedata
from datetime import date, timedelta
from pathlib import Path

SEED = 20250617

# ---------------------------------------------------------------------------------------------
# Entities
# ---------------------------------------------------------------------------------------------

# Companies that employ personas. Email domains of the personas come from here.
# name, domain, industry, city, office locations for personas (first is the main office)
PERSONA_COMPANIES = [
    ("Northwind Labs", "northwind.example", "Software", "Portland, OR",
     ["Portland, OR", "Portland, OR", "Portland, OR", "Toronto, Canada", "Austin, TX",
      "Lisbon, Portugal"]),
    ("Brightline Software", "brightline.example", "Developer tools", "San Francisco, CA",
     ["San Francisco, CA", "San Francisco, CA", "Berlin, Germany", "Nairobi, Kenya"]),
    ("Kestrel Analytics", "kestrel.example", "Data analytics", "Chicago, IL",
     ["Chicago, IL", "Chicago, IL", "Bengaluru, India"]),
    ("Lakemont University", "lakemont.example", "Higher education", "Madison, WI",
     ["Madison, WI"]),
    ("Harbor & Finch", "harborfinch.example", "Design agency", "Brooklyn, NY",
     ["Brooklyn, NY", "Brooklyn, NY", "Mexico City, Mexico"]),
    ("Meridian Health Partners", "meridianhealth.example", "Healthcare", "Boston, MA",
     ["Boston, MA", "Boston, MA", "Providence, RI"]),
    ("Cobalt Ridge Capital", "cobaltridge.example", "Investment management", "New York, NY",
     ["New York, NY", "New York, NY", "London, UK"]),
    ("Tidewater Media", "tidewater.example", "Digital media", "Los Angeles, CA",
     ["Los Angeles, CA", "Los Angeles, CA", "Atlanta, GA", "Vancouver, Canada"]),
    ("Quillmark Talent", "quillmark.example", "Recruiting", "London, UK",
     ["London, UK", "London, UK", "Dublin, Ireland"]),
]

# First halves of the other company names; each is used at most once.
COMPANY_PREFIXES = [
    "Alderbrook", "Basalt", "Cinderline", "Driftwood", "Emberly", "Fernhill", "Granite Bay",
    "Halcyon", "Ironbark", "Juniper", "Kettlestone", "Marlow", "Nettlefield", "Oakhurst",
    "Pinecrest", "Quarrystone", "Redwing", "Silverleaf", "Thornbury", "Umberfield", "Vesperline",
    "Willow Creek", "Yarrowby", "Zephyrine", "Bramblewood", "Cedarline", "Dovetail", "Everly",
    "Foxglove", "Gullwing", "Heronsgate", "Inkberry", "Larkspur", "Mistral", "Orchidea", "Parsec",
    "Quillon", "Rookery", "Sablewood", "Tamarack", "Upland", "Verdantis", "Wrenfield",
    "Yellowfin", "Ashgrove", "Bluefern", "Coppervale", "Duskwood", "Elmstead", "Flintlock",
    "Glasswing", "Hollowell", "Islebrook", "Jadeport", "Kingsmere", "Lanternfish", "Moonridge",
    "Northcote", "Otterbay", "Pebblestone", "Quayside", "Rivenhall", "Saltmarsh", "Tinderbox",
    "Underhill", "Valewick", "Westerly", "Amberhaven", "Brackenridge", "Clearwater Mill",
    "Dapplegrey", "Eastmoor", "Fairhaven", "Goldcrest",
]

# industry -> name suffixes
INDUSTRIES = [
    ("Software", ["Software", "Systems", "Cloud"]),
    ("Logistics", ["Logistics", "Freight", "Shipping"]),
    ("Retail", ["Outfitters", "Goods", "Market"]),
    ("Manufacturing", ["Manufacturing", "Fabrication", "Works"]),
    ("Healthcare", ["Health", "Clinics", "Medical"]),
    ("Financial services", ["Capital", "Financial", "Lending"]),
    ("Media", ["Media", "Studios", "Press"]),
    ("Energy", ["Energy", "Power", "Renewables"]),
    ("Food and beverage", ["Foods", "Provisions", "Brewing", "Coffee Roasters"]),
    ("Consulting", ["Consulting", "Advisory", "Group"]),
    ("Education", ["Learning", "Academy"]),
    ("Hospitality", ["Hotels", "Hospitality"]),
    ("Construction", ["Builders", "Construction"]),
    ("Biotechnology", ["Biosciences", "Bio"]),
    ("Telecommunications", ["Networks", "Telecom"]),
    ("Agriculture", ["Farms", "Agritech"]),
]

COMPANY_CITIES = [
    "Portland, OR", "Seattle, WA", "Denver, CO", "Austin, TX", "Chicago, IL", "Atlanta, GA",
    "Toronto, Canada", "Montreal, Canada", "Mexico City, Mexico", "São Paulo, Brazil",
    "Buenos Aires, Argentina", "London, UK", "Manchester, UK", "Dublin, Ireland",
    "Amsterdam, Netherlands", "Berlin, Germany", "Munich, Germany", "Lisbon, Portugal",
    "Madrid, Spain", "Stockholm, Sweden", "Warsaw, Poland", "Lagos, Nigeria", "Nairobi, Kenya",
    "Cape Town, South Africa", "Dubai, UAE", "Bengaluru, India", "Singapore", "Seoul, South Korea",
    "Tokyo, Japan", "Sydney, Australia", "Auckland, New Zealand",
]

N_OTHER_COMPANIES = 71  # + 9 persona companies = 80

# name, handle, topic
CHANNELS = [
    ("Pixel Harbor", "@pixelharbor", "gaming"),
    ("Lowpoly Legends", "@lowpolylegends", "gaming"),
    ("Save Point Sessions", "@savepointsessions", "gaming"),
    ("Critical Hitbox", "@criticalhitbox", "gaming"),
    ("The Speedrun Lab", "@speedrunlab", "gaming"),
    ("Tabletop Tavern", "@tabletoptavern", "gaming"),
    ("Orbit & Atom", "@orbitandatom", "science"),
    ("Tiny Lab Notes", "@tinylabnotes", "science"),
    ("Deep Field Daily", "@deepfielddaily", "science"),
    ("Molecule Mondays", "@moleculemondays", "science"),
    ("The Curious Cell", "@curiouscell", "science"),
    ("Reel Afterthoughts", "@reelafterthoughts", "film"),
    ("Frame by Frame Club", "@framebyframeclub", "film"),
    ("Cutting Room Talk", "@cuttingroomtalk", "film"),
    ("Matinee Minute", "@matineeminute", "film"),
    ("Slow Simmer", "@slowsimmer", "cooking"),
    ("Knife & Thyme", "@knifeandthyme", "cooking"),
    ("Weeknight Wok", "@weeknightwok", "cooking"),
    ("Crumb Theory", "@crumbtheory", "cooking"),
    ("Loop Station Live", "@loopstationlive", "music"),
    ("The Vinyl Hour", "@thevinylhour", "music"),
    ("Bassline Basics", "@basslinebasics", "music"),
    ("Circuit Breakdown", "@circuitbreakdown", "tech"),
    ("Byte Sized Builds", "@bytesizedbuilds", "tech"),
    ("Terminal Velocity Dev", "@terminalvelocitydev", "tech"),
    ("Backroads & Borders", "@backroadsborders", "travel"),
    ("Rail Window", "@railwindow", "travel"),
    ("Carry-On Chronicles", "@carryonchronicles", "travel"),
    ("Morning Mobility", "@morningmobility", "fitness"),
    ("Trail Tempo", "@trailtempo", "fitness"),
    ("Workbench Weekly", "@workbenchweekly", "diy"),
    ("Patch & Mend", "@patchandmend", "diy"),
    ("Chalk Dust History", "@chalkdusthistory", "education"),
    ("Map Nerd Minutes", "@mapnerdminutes", "education"),
    ("Grammar Garden", "@grammargarden", "education"),
    ("Tidepool Diaries", "@tidepooldiaries", "nature"),
    ("Birdsong Basics", "@birdsongbasics", "nature"),
    ("Pocket Ledger", "@pocketledger", "finance"),
    ("Sketchy Thursdays", "@sketchythursdays", "comedy"),
    ("Inkwell Studio", "@inkwellstudio", "art"),
]

# name, genre, origin
BANDS = [
    ("The Paper Lanterns", "indie folk", "Galway, Ireland"),
    ("Velvet Meridian", "synth-pop", "Manchester, UK"),
    ("Copper Tide", "surf rock", "San Diego, CA"),
    ("Glass Orchard", "dream pop", "Melbourne, Australia"),
    ("The Midnight Ferrymen", "americana", "Nashville, TN"),
    ("Saltwater Static", "shoegaze", "Brighton, UK"),
    ("Neon Monsoon", "electronic", "Mumbai, India"),
    ("Kites Over Osaka", "math rock", "Osaka, Japan"),
    ("Hollow Pines", "indie rock", "Portland, OR"),
    ("Marigold Assembly", "soul", "Detroit, MI"),
    ("Static Bloom", "alternative rock", "Seattle, WA"),
    ("The Lantern Choir", "choral folk", "Atlanta, GA"),
    ("Amber Satellite", "space rock", "Montreal, Canada"),
    ("Cinder & Sage", "folk", "Asheville, NC"),
    ("Ruby Cassette", "synthwave", "Los Angeles, CA"),
    ("Tundra Radio", "post-rock", "Tromsø, Norway"),
    ("Brass Comet", "jazz fusion", "New Orleans, LA"),
    ("Los Faroles Rojos", "cumbia", "Bogotá, Colombia"),
    ("Okra Sound System", "afrobeat", "Lagos, Nigeria"),
    ("Mosaic Harbor", "world fusion", "Marseille, France"),
    ("Low Orbit Lullaby", "ambient", "Helsinki, Finland"),
    ("Wildflower Engine", "country rock", "Austin, TX"),
    ("Paper Moon Parade", "ska", "Mexico City, Mexico"),
    ("Hex Garden", "darkwave", "Berlin, Germany"),
    ("The Quiet Cartographers", "chamber pop", "Edinburgh, UK"),
    ("Late Light Drive", "pop rock", "Toronto, Canada"),
    ("Iron Lotus", "metal", "Stockholm, Sweden"),
    ("Sunday Static", "lo-fi hip hop", "Chicago, IL"),
    ("Velour Fox", "funk", "Oakland, CA"),
    ("Coral Arcade", "chiptune", "Tokyo, Japan"),
    ("Nightjar Quartet", "jazz", "Copenhagen, Denmark"),
    ("Desert Telegraph", "blues rock", "Tucson, AZ"),
    ("The Tin Umbrellas", "indie pop", "Glasgow, UK"),
    ("Samba Satélite", "bossa nova", "Rio de Janeiro, Brazil"),
    ("Thistle & Thorn", "celtic punk", "Boston, MA"),
    ("Moth Parade", "post-punk", "Leeds, UK"),
    ("Azure Caravan", "desert blues", "Bamako, Mali"),
    ("Feather Circuit", "indietronica", "Seoul, South Korea"),
    ("Riverside Revival", "gospel", "Memphis, TN"),
    ("Polar Lemonade", "bubblegum pop", "Auckland, New Zealand"),
]

# symbol, name, sector. The first seven are the MicroHood scenario symbols.
ISSUERS = [
    ("HALO", "Halo Systems", "tech"),
    ("NEOX", "Neox Therapeutics", "health"),
    ("VLTA", "Volta Grid", "energy"),
    ("DRNX", "Dronix Aerial", "industrials"),
    ("CHPX", "Chipix Semiconductor", "tech"),
    ("AGRX", "Agrix Foods", "consumer"),
    ("LTHM", "Lithium Minerals Corp", "materials"),
    ("QBIT", "Qubitra Computing", "tech"),
    ("NMBS", "Nimbusphere Cloud", "tech"),
    ("DTVX", "Datavex Software", "tech"),
    ("PLSM", "Plasmedic Devices", "health"),
    ("GNMX", "Genomix Labs", "health"),
    ("CRDL", "Cardiolink Health", "health"),
    ("MDVX", "Medivex Pharma", "health"),
    ("SOLR", "Solaria Power", "energy"),
    ("HYDR", "Hydrion Fuel Cells", "energy"),
    ("GLWD", "Galewind Turbines", "energy"),
    ("SKYW", "Skyward Logistics", "industrials"),
    ("TRXN", "Traxion Rail", "industrials"),
    ("ORBF", "Orbital Freight", "industrials"),
    ("RBTX", "Robotix Automation", "industrials"),
    ("FRGW", "Forgewell Steel", "materials"),
    ("PLYM", "Polymera Chemicals", "materials"),
    ("TMBL", "Timberlane Products", "materials"),
    ("BRWX", "Brewix Beverages", "consumer"),
    ("STRW", "Stridewell Footwear", "consumer"),
    ("GLHV", "Glowhaven Cosmetics", "consumer"),
    ("CRVN", "Caravan Outdoor", "consumer"),
    ("FNCH", "Finchley Bancorp", "finance"),
    ("LDGR", "Ledgerline Financial", "finance"),
    ("KNVS", "Koinvest Holdings", "finance"),
    ("PYWV", "Paywave Networks", "finance"),
    ("FBRX", "Fiberix Telecom", "telecom"),
    ("SGNL", "Signalwave Mobile", "telecom"),
    ("OPTC", "Opticore Networks", "telecom"),
    ("AQLN", "Aqualine Utilities", "utilities"),
    ("GRDN", "Gridline Electric", "utilities"),
    ("TWRS", "Towerstone REIT", "real estate"),
    ("HVNP", "Havenport Properties", "real estate"),
    ("DKSD", "Dockside Storage Trust", "real estate"),
]

# ---------------------------------------------------------------------------------------------
# Personas
# ---------------------------------------------------------------------------------------------

SELF = {
    "name": "Alex Morgan",
    "username": "alex.morgan",
    "email": "alex.morgan@northwind.example",
    "title": "Product Manager",
    "company": "Northwind Labs",
    "location": "Portland, OR",
    "bio": "Product manager at Northwind Labs who turns messy feedback into roadmaps, "
           "and a lifelong collector of paper notebooks.",
    "avatar_color": "#3b6ea8",
}

# Hand-written name lists, grouped so most people get a first and last name from the same
# tradition (a minority are mixed, as in real life).
NAME_GROUPS = [
    (["Priya", "Arjun", "Ananya", "Rohan", "Kavya", "Vikram", "Meera", "Sanjay"],
     ["Raman", "Shah", "Iyer", "Patel", "Chatterjee", "Nair", "Reddy", "Kapoor"]),
    (["Wei", "Mei", "Hiroshi", "Yuki", "Min-jun", "Ji-woo", "Haruto", "Lin"],
     ["Chen", "Tanaka", "Park", "Nakamura", "Liu", "Kim", "Wong", "Sato"]),
    (["Mateo", "Lucía", "Diego", "Camila", "Javier", "Valentina", "Sofía", "Andrés"],
     ["García", "Moreno", "Castillo", "Herrera", "Ortiz", "Navarro", "Ramos", "Vega"]),
    (["Amara", "Kwame", "Chiamaka", "Tendai", "Zanele", "Kofi", "Nia", "Emeka"],
     ["Okafor", "Mensah", "Adeyemi", "Nkosi", "Mwangi", "Diallo", "Boateng", "Eze"]),
    (["Ethan", "Claire", "Oliver", "Hannah", "Darnell", "Renée", "Grace", "Noah"],
     ["Jackson", "Whitaker", "Brennan", "Fischer", "Dubois", "Lambert", "Hughes", "van Dijk"]),
    (["Omar", "Layla", "Karim", "Yasmin", "Tariq", "Noor", "Samir", "Farah"],
     ["Haddad", "Nasser", "Khalil", "Farouk", "Aziz", "Mansour", "Saleh", "Rahimi"]),
    (["Kai", "Astrid", "Mikael", "Ingrid", "Tomasz", "Katarzyna", "Nikolai", "Irina"],
     ["Mäkinen", "Lindqvist", "Kowalski", "Novák", "Lindgren", "Horvat", "Andersen", "Kovač"]),
    (["Thiago", "Beatriz", "Rafael", "Luana", "João", "Mariana", "Caio", "Inês"],
     ["Oliveira", "Costa", "Ferreira", "Almeida", "Souza", "Carvalho", "Pereira", "Teixeira"]),
]
MAX_PER_NAME = 2  # a first or last name is shared by at most two people

# Planted look-alikes: (first, last, company, title or None = any open slot, username or None)
PLANTED = [
    ("Priya", "Raman", "Northwind Labs", None, None),
    ("Priya", "Shah", "Northwind Labs", None, None),
    ("Kai", "Moreno", "Tidewater Media", None, "kai.m"),
    ("Kai", "Mäkinen", "Harbor & Finch", None, "kai_m"),
    ("Darnell", "Jackson", "Lakemont University", "Associate Professor of Robotics", None),
    ("Renée", "Jackson", "Lakemont University", "Postdoctoral Researcher", None),
]

# company -> job titles (one per person)
STAFF = {
    "Northwind Labs": [
        "Chief Executive Officer", "Chief Technology Officer", "Chief Financial Officer",
        "VP of Engineering", "Head of People", "Engineering Manager", "Engineering Manager",
        "Staff Engineer", "Senior Software Engineer", "Senior Software Engineer",
        "Senior Software Engineer", "Software Engineer", "Software Engineer", "Software Engineer",
        "Software Engineer", "Frontend Engineer", "Frontend Engineer", "Backend Engineer",
        "Mobile Engineer", "DevOps Engineer", "Security Engineer", "QA Engineer",
        "Data Scientist", "Data Scientist", "Data Engineer", "Senior Product Manager",
        "Product Manager", "Product Designer", "Product Designer", "UX Researcher",
        "Technical Recruiter", "Recruiter", "Sales Lead", "Account Executive",
        "Account Executive", "Customer Success Manager", "Marketing Manager",
        "Content Strategist", "Finance Analyst", "Office Manager",
    ],
    "Brightline Software": [
        "Chief Executive Officer", "Staff Engineer", "Senior Software Engineer",
        "Senior Software Engineer", "Software Engineer", "Software Engineer",
        "Developer Advocate", "Engineering Manager", "Product Designer",
    ],
    "Kestrel Analytics": [
        "Founder & CEO", "Data Scientist", "Data Scientist", "Machine Learning Engineer",
        "Machine Learning Engineer", "Data Engineer", "Sales Lead", "Analytics Consultant",
    ],
    "Lakemont University": [
        "Professor of Computer Science", "Associate Professor of Robotics",
        "Assistant Professor of Linguistics", "Postdoctoral Researcher",
        "Postdoctoral Researcher", "PhD Candidate", "PhD Candidate", "Research Scientist",
        "Lab Manager",
    ],
    "Harbor & Finch": [
        "Creative Director", "Art Director", "Product Designer", "Illustrator",
        "Brand Designer", "Motion Designer", "Studio Manager",
    ],
    "Meridian Health Partners": [
        "Chief Medical Officer", "Clinical Data Scientist", "Nurse Practitioner",
        "Product Manager", "Software Engineer", "Recruiter",
    ],
    "Cobalt Ridge Capital": [
        "Partner", "Chief Financial Officer", "Investment Analyst", "Investment Analyst",
        "Portfolio Manager", "Equity Research Associate",
    ],
    "Tidewater Media": [
        "Video Producer", "Editor-in-Chief", "Podcast Host", "Social Media Manager",
        "Journalist", "Photographer", "Community Manager",
    ],
    "Quillmark Talent": [
        "Managing Director", "Talent Partner", "Recruiter", "Recruiter", "Sales Lead",
        "Account Manager", "Operations Lead",
    ],
}

CATEGORY_TITLES = {
    "leadership": ["Chief Executive Officer", "Chief Technology Officer", "VP of Engineering",
                   "Founder & CEO", "Managing Director", "Partner", "Chief Medical Officer",
                   "Engineering Manager", "Editor-in-Chief", "Creative Director"],
    "engineering": ["Staff Engineer", "Senior Software Engineer", "Software Engineer",
                    "Frontend Engineer", "Backend Engineer", "Mobile Engineer", "DevOps Engineer",
                    "Security Engineer", "QA Engineer", "Developer Advocate",
                    "Machine Learning Engineer", "Data Engineer"],
    "data": ["Data Scientist", "Clinical Data Scientist", "Analytics Consultant"],
    "research": ["Professor of Computer Science", "Associate Professor of Robotics",
                 "Assistant Professor of Linguistics", "Postdoctoral Researcher", "PhD Candidate",
                 "Research Scientist", "UX Researcher"],
    "product": ["Senior Product Manager", "Product Manager"],
    "design": ["Product Designer", "Art Director", "Illustrator", "Brand Designer",
               "Motion Designer"],
    "people": ["Head of People", "Technical Recruiter", "Recruiter", "Talent Partner"],
    "sales": ["Sales Lead", "Account Executive", "Customer Success Manager", "Account Manager",
              "Marketing Manager"],
    "finance": ["Chief Financial Officer", "Finance Analyst", "Investment Analyst",
                "Portfolio Manager", "Equity Research Associate"],
    "media": ["Content Strategist", "Video Producer", "Podcast Host", "Social Media Manager",
              "Journalist", "Photographer", "Community Manager"],
    "operations": ["Office Manager", "Lab Manager", "Studio Manager", "Operations Lead",
                   "Nurse Practitioner"],
}
TITLE_CATEGORY = {t: cat for cat, titles in CATEGORY_TITLES.items() for t in titles}

FOCUS = {
    "leadership": ["company strategy", "scaling teams without losing the plot",
                   "long-range planning", "building calm, durable organisations"],
    "engineering": ["payments infrastructure", "developer tooling", "search relevance",
                    "mobile performance", "build pipelines", "API design",
                    "accessibility on the web", "observability", "data pipelines",
                    "offline-first sync", "test reliability"],
    "data": ["forecasting models", "experimentation platforms", "churn prediction",
             "recommendation quality", "geospatial analytics", "demand forecasting"],
    "research": ["robot learning", "speech interfaces", "computational linguistics",
                 "privacy-preserving analytics", "human-robot interaction",
                 "multilingual language models", "field robotics"],
    "product": ["onboarding journeys", "pricing experiments", "roadmaps that survive contact "
                "with customers", "self-serve analytics"],
    "design": ["design systems", "onboarding flows", "brand identity",
               "motion and micro-interactions", "editorial illustration", "packaging design"],
    "people": ["engineering hiring", "candidate experience", "fair interview loops",
               "inclusive hiring"],
    "sales": ["enterprise partnerships", "mid-market accounts", "renewals",
              "customer onboarding", "launch campaigns"],
    "finance": ["budget planning", "fintech investments", "equity research",
                "climate-tech deals", "unit economics"],
    "media": ["documentary shorts", "audio storytelling", "community growth",
              "long-form features", "street photography"],
    "operations": ["office operations", "lab safety and scheduling", "studio logistics",
                   "patient intake", "vendor management"],
}

# Title-specific focus phrases; titles not listed use their category's FOCUS list.
TITLE_FOCUS = {
    "UX Researcher": ["usability studies", "interview synthesis", "accessibility research"],
    "Clinical Data Scientist": ["clinical outcome models", "readmission forecasting",
                                "clinical data quality"],
    "Nurse Practitioner": ["patient intake", "telehealth follow-ups"],
    "Chief Medical Officer": ["patient-facing software", "clinical governance"],
    "Studio Manager": ["studio logistics", "production schedules"],
    "Lab Manager": ["lab safety and scheduling", "equipment budgets"],
    "Office Manager": ["office operations", "vendor management"],
    "Operations Lead": ["vendor management", "process automation"],
    "Machine Learning Engineer": ["model serving", "feature stores", "training pipelines"],
    "Data Engineer": ["data pipelines", "warehouse modelling"],
    "Developer Advocate": ["developer tooling", "API design",
                           "documentation that people actually read"],
    "Security Engineer": ["threat modelling", "secrets management"],
    "QA Engineer": ["test reliability", "release quality"],
    "Mobile Engineer": ["mobile performance", "offline-first sync"],
    "Frontend Engineer": ["accessibility on the web", "web performance", "design systems in code"],
    "DevOps Engineer": ["build pipelines", "observability", "infrastructure as code"],
    "Marketing Manager": ["launch campaigns", "brand storytelling"],
    "Customer Success Manager": ["customer onboarding", "renewals"],
    "Creative Director": ["brand identity", "campaign concepts"],
    "Editor-in-Chief": ["long-form features", "newsroom standards"],
    "Photographer": ["street photography", "portrait series"],
    "Podcast Host": ["audio storytelling", "interview craft"],
    "Social Media Manager": ["community growth", "short-form video"],
    "Video Producer": ["documentary shorts", "short-form video"],
    "Journalist": ["long-form features", "data journalism"],
    "Community Manager": ["community growth", "creator partnerships"],
    "Content Strategist": ["content strategy", "help-centre writing"],
    "Illustrator": ["editorial illustration", "picture books"],
    "Motion Designer": ["motion and micro-interactions", "title sequences"],
    "Brand Designer": ["brand identity", "packaging design"],
    "Art Director": ["brand identity", "campaign concepts", "editorial illustration"],
    "Professor of Computer Science": ["privacy-preserving analytics", "language models",
                                      "robot learning"],
    "Associate Professor of Robotics": ["robot learning", "field robotics",
                                        "human-robot interaction"],
    "Assistant Professor of Linguistics": ["computational linguistics", "speech interfaces"],
    "Head of People": ["inclusive hiring", "team culture"],
    "Engineering Manager": ["team health", "delivery planning", "mentoring new engineers"],
    "VP of Engineering": ["engineering strategy", "scaling teams without losing the plot"],
    "Partner": ["climate-tech deals", "early-stage investing"],
    "Chief Financial Officer": ["budget planning", "unit economics"],
    "Finance Analyst": ["budget planning", "unit economics"],
}

FIELD = {
    "leadership": "management", "engineering": "software", "data": "analytics",
    "research": "academia", "product": "product management", "design": "design",
    "people": "recruiting", "sales": "sales", "finance": "finance", "media": "media",
    "operations": "operations",
}

HOBBIES = [
    "baking sourdough", "running trail half-marathons", "restoring vintage bicycles",
    "playing bass in a garage band", "tending an ambitious balcony garden",
    "shooting on old film cameras", "bouldering", "reading science fiction",
    "learning Portuguese on the train", "brewing cold coffee", "sketching in cafés",
    "volunteering at the food bank", "building mechanical keyboards", "birdwatching",
    "swimming in cold lakes", "coaching youth football", "making pottery", "playing chess online",
    "hiking with a very opinionated dog", "cooking for far too many friends",
    "watching old kung fu films", "knitting mismatched scarves", "cycling to work in any weather",
    "collecting vinyl", "solving crosswords", "practising calligraphy", "surfing badly",
    "playing the cello", "hunting for the city's best dumplings", "fixing other people's radios",
]

BIO_TEMPLATES = [
    "{title} at {company} working on {focus}, happiest when {hobby}.",
    "Works on {focus} at {company} and spends weekends {hobby}.",
    "{title} with a soft spot for {focus} and a habit of {hobby}.",
    "At {company} by day, {hobby} by night.",
    "Spent {years} years in {field} before joining {company} to work on {focus}.",
    "Thinks a lot about {focus}, and about {hobby} whenever the weather allows.",
    "{title} at {company}, currently obsessed with {hobby}.",
    "Previously at {prev}, now at {company} working on {focus}.",
    "Helping {company} with {focus} since {year}.",
    "Based in {city}, working on {focus} and {hobby} on the side.",
    "Ask about {focus}, or about {hobby}.",
    "{title} in {city} who thinks more people should care about {focus}.",
]

AVATAR_COLORS = [
    "#3b6ea8", "#c0504d", "#4f8a5b", "#8064a2", "#d08a2e", "#2e8b8b", "#a0522d", "#5a6b7b",
    "#b5487a", "#6b8e23", "#4682b4", "#9a7b4f", "#7a4fa0", "#2f7f5f", "#c46a2f", "#52659a",
    "#8b3a3a", "#3f8f9f", "#a06cb0", "#5f7f2f",
]

INTERESTS = {
    "robotics": ["robot learning", "field robotics", "human-robot interaction", "motion planning",
                 "reinforcement learning", "computer vision"],
    "language": ["computational linguistics", "speech recognition", "language understanding",
                 "multilingual NLP", "large language models", "sociolinguistics"],
    "research": ["robot learning", "field robotics", "human-robot interaction",
                 "computational linguistics", "speech recognition", "large language models",
                 "language understanding", "reinforcement learning", "computer vision",
                 "privacy", "multilingual NLP", "motion planning"],
    "data": ["causal inference", "time series forecasting", "recommender systems",
             "fairness in machine learning", "experimentation", "medical imaging",
             "graph neural networks", "information retrieval", "survival analysis"],
    "engineering": ["distributed systems", "program synthesis", "software testing",
                    "compilers", "databases", "information retrieval"],
}

SCHOLAR_TITLES = {
    "Professor of Computer Science": (4000, 14000),
    "Associate Professor of Robotics": (1500, 6000),
    "Assistant Professor of Linguistics": (400, 2500),
    "Postdoctoral Researcher": (120, 1200),
    "PhD Candidate": (8, 300),
    "Research Scientist": (300, 3000),
    "UX Researcher": (20, 400),
    "Data Scientist": (15, 900),
    "Clinical Data Scientist": (60, 1500),
    "Machine Learning Engineer": (20, 700),
    "Staff Engineer": (10, 500),
}

PREVIOUS_EMPLOYERS = ["a two-person startup", "a regional newspaper", "a hospital IT team",
                      "a big consultancy", "a public library", "a game studio",
                      "a logistics company", "a university lab", "a bank", "a nonprofit"]

# ---------------------------------------------------------------------------------------------


def ascii_slug(text: str, sep: str = "") -> str:
    """'Lucía van Dijk' -> 'luciavandijk' (sep joins the words)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = ["".join(ch for ch in w.lower() if ch.isalnum()) for w in folded.split()]
    return sep.join(w for w in words if w)


def build_entities(rng: random.Random) -> list[dict]:
    companies: list[dict] = []
    for name, domain, industry, city, _ in PERSONA_COMPANIES:
        companies.append({"kind": "company", "name": name, "domain": domain,
                          "industry": industry, "city": city})
    prefixes = list(COMPANY_PREFIXES)
    rng.shuffle(prefixes)
    for prefix in prefixes[:N_OTHER_COMPANIES]:
        industry, suffixes = rng.choice(INDUSTRIES)
        name = f"{prefix} {rng.choice(suffixes)}"
        companies.append({"kind": "company", "name": name,
                          "domain": ascii_slug(name) + ".example",
                          "industry": industry, "city": rng.choice(COMPANY_CITIES)})
    channels = [{"kind": "channel", "name": n, "handle": h, "topic": t} for n, h, t in CHANNELS]
    bands = [{"kind": "band", "name": n, "genre": g, "origin": o} for n, g, o in BANDS]
    issuers = [{"kind": "issuer", "name": n, "symbol": s, "sector": sec}
               for s, n, sec in ISSUERS]

    entities = companies + channels + bands + issuers
    rng.shuffle(entities)  # kinds interleave, so an id says nothing about its kind
    out = []
    for i, ent in enumerate(entities):
        out.append({"id": f"e{i:03d}", **ent})
    return out


def pick_name(rng: random.Random, first_used: dict, last_used: dict,
              taken: set) -> tuple[str, str]:
    while True:
        g = rng.randrange(len(NAME_GROUPS))
        firsts = [f for f in NAME_GROUPS[g][0] if first_used.get(f, 0) < MAX_PER_NAME]
        if not firsts:
            continue
        lg = g if rng.random() < 0.8 else rng.randrange(len(NAME_GROUPS))
        lasts = [n for n in NAME_GROUPS[lg][1] if last_used.get(n, 0) < MAX_PER_NAME]
        if not lasts:
            continue
        first, last = rng.choice(firsts), rng.choice(lasts)
        if f"{first} {last}" in taken:
            continue
        return first, last


def make_username(rng: random.Random, first: str, last: str, taken: set) -> str:
    f, l_ = ascii_slug(first), ascii_slug(last)
    styles = [f"{f}.{l_}", f"{f}.{l_}", f"{f}{l_}", f"{f}_{l_}", f"{f[0]}{l_}", f"{f}.{l_[0]}",
              f"{f}{l_[:3]}"]
    candidate = rng.choice(styles)
    n = 2
    base = candidate
    while candidate in taken:
        candidate = f"{base}{n}"
        n += 1
    return candidate


def make_hub_login(rng: random.Random, first: str, last: str, taken: set) -> str:
    f, l_ = ascii_slug(first), ascii_slug(last)
    styles = [f"{f}{l_[0]}", f"{f[0]}{l_}", f"{f}-{l_}", f"{l_}{f[0]}", f"{f}-dev",
              f"{f}{rng.randrange(10, 100)}", f"{f[0]}{l_}-codes", f"{l_}-{f[:2]}"]
    candidate = rng.choice(styles)
    base, n = candidate, 2
    while candidate in taken:
        candidate = f"{base}{n}"
        n += 1
    return candidate


def random_date(rng: random.Random, start: date, end: date) -> str:
    return (start + timedelta(days=rng.randrange((end - start).days + 1))).isoformat()


def focus_for(rng: random.Random, title: str) -> str:
    return rng.choice(TITLE_FOCUS.get(title) or FOCUS[TITLE_CATEGORY[title]])


def build_bio(rng: random.Random, title: str, company: str, city: str) -> str:
    cat = TITLE_CATEGORY[title]
    text = rng.choice(BIO_TEMPLATES).format(
        title=title, company=company, city=city, focus=focus_for(rng, title),
        hobby=rng.choice(HOBBIES), field=FIELD[cat], years=rng.randrange(3, 16),
        prev=rng.choice(PREVIOUS_EMPLOYERS), year=rng.randrange(2014, 2024))
    return text[0].upper() + text[1:]


def build_personas(rng: random.Random, entities: list[dict]) -> list[dict]:
    company_ids = {e["name"]: e["id"] for e in entities if e["kind"] == "company"}
    company_meta = {c[0]: c for c in PERSONA_COMPANIES}

    # Job slots: (company, title). Planted people take a random slot at their company.
    slots = {c: list(titles) for c, titles in STAFF.items()}
    for titles in slots.values():
        rng.shuffle(titles)

    first_used: dict[str, int] = {}
    last_used: dict[str, int] = {}
    taken_names: set[str] = {SELF["name"]}
    people: list[dict] = []
    for first, last, company, title, username in PLANTED:
        if title is None:
            title = slots[company][-1]
        slots[company].remove(title)
        people.append({"first": first, "last": last, "company": company,
                       "title": title, "username": username})
    for p in people:
        first_used[p["first"]] = first_used.get(p["first"], 0) + 1
        last_used[p["last"]] = last_used.get(p["last"], 0) + 1
        taken_names.add(f"{p['first']} {p['last']}")

    open_slots = [(c, t) for c in STAFF for t in slots[c]]
    rng.shuffle(open_slots)
    for company, title in open_slots:
        first, last = pick_name(rng, first_used, last_used, taken_names)
        first_used[first] = first_used.get(first, 0) + 1
        last_used[last] = last_used.get(last, 0) + 1
        taken_names.add(f"{first} {last}")
        people.append({"first": first, "last": last, "company": company, "title": title,
                       "username": None})

    rng.shuffle(people)  # ids say nothing about employer or role

    self_record = {"id": "p000", **SELF, "is_self": True,
                   "gram": {"followers": 412, "following": 389, "verified": False,
                            "website": None},
                   "scholar": {"affiliation": "Northwind Labs",
                               "interests": ["product analytics", "human-computer interaction"],
                               "citations": 38, "h_index": 3},
                   "hub": {"login": "alexm-nw", "joined": "2016-04-11"},
                   "din": {"headline": "Product Manager at Northwind Labs | Roadmaps, research "
                                       "and shipping",
                           "company_id": company_ids["Northwind Labs"]}}
    usernames = {SELF["username"]}
    emails = {SELF["email"]}
    hub_logins = {"alexm-nw"}
    out = [self_record]

    for i, p in enumerate(people, start=1):
        first, last, company, title = p["first"], p["last"], p["company"], p["title"]
        name = f"{first} {last}"
        cat = TITLE_CATEGORY[title]
        _, domain, _, _, offices = company_meta[company]
        username = p["username"] or make_username(rng, first, last, usernames)
        usernames.add(username)
        email = f"{ascii_slug(first)}.{ascii_slug(last)}@{domain}"
        assert email not in emails, email
        emails.add(email)
        location = rng.choice(offices)
        rec = {
            "id": f"p{i:03d}",
            "name": name,
            "username": username,
            "email": email,
            "title": title,
            "company": company,
            "location": location,
            "bio": build_bio(rng, title, company, location),
            "avatar_color": rng.choice(AVATAR_COLORS),
            "is_self": False,
        }

        gram_p = 0.85 if cat in ("media", "design") else 0.5
        if p["username"] or rng.random() < gram_p:
            big = company == "Tidewater Media"
            followers = int(rng.lognormvariate(8.5 if big else 6.3, 1.0))
            rec["gram"] = {
                "followers": followers,
                "following": rng.randrange(40, 1600),
                "verified": followers > 15000,
                "website": (f"https://{ascii_slug(name)}.example"
                            if rng.random() < 0.3 else None),
            }

        research_like = title in SCHOLAR_TITLES and (
            company == "Lakemont University" or last == "Jackson" or rng.random() < 0.7)
        if research_like:
            lo, hi = SCHOLAR_TITLES[title]
            citations = rng.randrange(lo, hi)
            pool = INTERESTS["research"] if cat == "research" else (
                INTERESTS["data"] if cat == "data" else INTERESTS["engineering"] +
                INTERESTS["data"])
            if "Robotics" in title:
                pool = INTERESTS["robotics"]
            elif "Linguistics" in title:
                pool = INTERESTS["language"]
            elif title == "UX Researcher":
                pool = ["human-computer interaction", "accessibility", "survey methodology",
                        "information visualization"]
            interests = rng.sample(pool, rng.randrange(2, 5))
            h_index = max(1, min(int((citations ** 0.5) * rng.uniform(0.45, 0.7)),
                                 citations // 3 or 1))
            rec["scholar"] = {"affiliation": company, "interests": interests,
                              "citations": citations, "h_index": h_index}

        hub_p = {"engineering": 0.95, "data": 0.8, "research": 0.5, "design": 0.35,
                 "product": 0.5, "leadership": 0.3}.get(cat, 0.1)
        if company == "Brightline Software" or rng.random() < hub_p:
            login = make_hub_login(rng, first, last, hub_logins)
            hub_logins.add(login)
            rec["hub"] = {"login": login,
                          "joined": random_date(rng, date(2010, 3, 1), date(2023, 11, 30))}

        din_p = 1.0 if cat in ("people", "sales") else 0.7
        if rng.random() < din_p:
            headline = f"{title} at {company}"
            if rng.random() < 0.5:
                focus = focus_for(rng, title)
                headline += f" | {focus[0].upper() + focus[1:]}"
            rec["din"] = {"headline": headline, "company_id": company_ids[company]}
        out.append(rec)
    return out


def check(personas: list[dict], entities: list[dict]) -> None:
    assert len(personas) == 100 and len(entities) == 200
    for key in ("id", "name", "username", "email"):
        assert len({p[key] for p in personas}) == len(personas), key
    assert len({e["id"] for e in entities}) == len(entities)
    for kind in ("company", "channel", "band", "issuer"):
        names = [e["name"] for e in entities if e["kind"] == kind]
        assert len(set(names)) == len(names), kind
    symbols = [e["symbol"] for e in entities if e["kind"] == "issuer"]
    assert len(set(symbols)) == len(symbols)
    assert all(3 <= len(s) <= 4 and s.isalpha() and s.isupper() for s in symbols)
    handles = [e["handle"] for e in entities if e["kind"] == "channel"]
    assert len(set(handles)) == len(handles)
    domains = [e["domain"] for e in entities if e["kind"] == "company"]
    assert len(set(domains)) == len(domains)
    logins = [p["hub"]["login"] for p in personas if "hub" in p]
    assert len(set(logins)) == len(logins)


def dump(path: Path, records: list[dict]) -> None:
    records = sorted(records, key=lambda r: r["id"])
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n" for r in records)
    path.write_bytes(text.encode("utf-8"))


def main(argv: list[str]) -> int:
    out_dir = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent
    out_dir.mkdir(parents=True, exist_ok=True)
    entities = build_entities(random.Random(SEED + 1))
    personas = build_personas(random.Random(SEED + 2), entities)
    check(personas, entities)
    dump(out_dir / "entities.jsonl", entities)
    dump(out_dir / "personas.jsonl", personas)
    print(f"wrote {len(personas)} personas and {len(entities)} entities to {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
