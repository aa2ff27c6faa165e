"""Writes the MicroHood catalogs: stocks.jsonl (50 fictional tickers) and news.jsonl (40 headlines).

Deterministic: run `python catalogs/microhood/generate.py` and the files come out byte for byte
the same. Standard library only. Every company, ticker and headline here is invented.

Scenario roles (authoring notes only, kept in `_role` / `_note`, never shown):
- HALO is the house stock: held (20 shares), the subject of `sell_at_threshold`.
- NEOX is held (12 shares) for `take_profit`; VLTA (`buy_the_dip`), DRNX (`buy_at_threshold`),
  CHPX (`price_target`), AGRX and LTHM (the no-ops) are the other scenario symbols.
- Look-alike tickers (VLTX, DRNE, CHPR, NEOS) move in the scenarios as distractors.
No headline predicts a price crossing: they report routine company and market news.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 6_2026

# symbol, company name, sector, start price (None: drawn from the seeded generator)
STOCKS = [
    ("HALO", "Halo Systems Inc.", "Technology", 452.30),
    ("NEOX", "Neoxis Therapeutics", "Healthcare", 124.00),
    ("VLTA", "Volta Grid Energy", "Energy", 84.00),
    ("DRNX", "Dronix Aerial", "Industrials", 38.75),
    ("CHPX", "Chipworks Semiconductor", "Semiconductors", 488.40),
    ("AGRX", "Agrexa Farms", "Agriculture", 23.60),
    ("LTHM", "Lithium Meridian", "Materials", 61.80),
    ("CHPR", "Chiprock Devices", "Semiconductors", 506.20),
    ("VLTX", "Voltix Storage", "Energy", 79.50),
    ("DRNE", "Droneline Logistics", "Transportation", 41.10),
    ("NEOS", "Neoserve Cloud", "Technology", 133.00),
    ("ORBQ", "Orbiquest Telecom", "Communications", None),
    ("PLZM", "Plasmatic Labs", "Healthcare", None),
    ("QNTH", "Quanthaven Financial", "Financials", None),
    ("BRKW", "Brookwater Rail", "Transportation", None),
    ("SOLR", "Solaris Ridge Power", "Energy", None),
    ("GRNB", "Greenbay Foods", "Consumer", None),
    ("MRDN", "Meridian Mills", "Materials", None),
    ("TKVA", "Tekova Robotics", "Industrials", None),
    ("PXLR", "Pixelry Studios", "Communications", None),
    ("BYTW", "Bytewise Software", "Technology", 212.40),
    ("CLDY", "Cloudyard Networks", "Technology", None),
    ("FRGE", "Forgeline Steel", "Materials", None),
    ("HRVS", "Harvestline Grain", "Agriculture", None),
    ("AQUV", "Aquavia Water", "Utilities", 47.20),
    ("WNDF", "Windfield Renewables", "Utilities", 36.90),
    ("MEDQ", "Mediquill Health", "Healthcare", 158.60),
    ("GNMX", "Genomix Bio", "Healthcare", None),
    ("CRBX", "Carbonex Materials", "Materials", None),
    ("FINZ", "Finzy Payments", "Financials", 64.30),
    ("LEDG", "Ledgerline Bank", "Financials", None),
    ("INSR", "Insurely Group", "Financials", None),
    ("SHPL", "Shipley Freight", "Transportation", None),
    ("AVNX", "Avionex Aerospace", "Industrials", None),
    ("BRWQ", "Brewquarter Beverages", "Consumer", None),
    ("SNKH", "Sneakerhaus Retail", "Consumer", None),
    ("TOYZ", "Toyzone Brands", "Consumer", None),
    ("KTCH", "Kitchenly Home", "Consumer", None),
    ("STRM", "Streamora Media", "Communications", 92.80),
    ("GAMX", "Gamexa Interactive", "Communications", None),
    ("CYBX", "Cybrix Security", "Technology", None),
    ("QBTX", "Qubitex Computing", "Semiconductors", None),
    ("WFRX", "Waferix Materials", "Semiconductors", None),
    ("OPTL", "Optiline Photonics", "Semiconductors", None),
    ("BATX", "Batterix Cells", "Energy", None),
    ("FUSN", "Fusionary Power", "Utilities", None),
    ("HYDG", "Hydrogenix Fuel", "Energy", None),
    ("MNRL", "Mineralis Mining", "Materials", None),
    ("FRMX", "Farmex Equipment", "Agriculture", None),
    ("SEDX", "Seedex Genetics", "Agriculture", None),
]

# symbol → (shares, average cost): the ten positions every session starts with
HOLDINGS = {
    "HALO": (20, 418.75),
    "NEOX": (12, 109.50),
    "CHPX": (3, 455.00),
    "LTHM": (25, 66.40),
    "BYTW": (15, 198.20),
    "WNDF": (40, 33.10),
    "MEDQ": (10, 161.25),
    "FINZ": (30, 58.90),
    "STRM": (18, 88.00),
    "AQUV": (50, 45.60),
}

ROLES = {
    "HALO": ("target", "house stock; sell_at_threshold"),
    "NEOX": ("target", "take_profit"),
    "VLTA": ("target", "buy_the_dip"),
    "DRNX": ("target", "buy_at_threshold"),
    "CHPX": ("target", "price_target"),
    "AGRX": ("target", "buy_unreachable_noop"),
    "LTHM": ("target", "price_unreachable_noop"),
    "CHPR": ("decoy", "look-alike of CHPX"),
    "VLTX": ("decoy", "look-alike of VLTA"),
    "DRNE": ("decoy", "look-alike of DRNX"),
    "NEOS": ("decoy", "look-alike of NEOX"),
}

SOURCES = ["Market Wire", "The Ledger", "Finance Daily", "Street Brief", "Tickerline", "Capital Post"]

# (symbol or None for market-wide, headline)
NEWS = [
    ("HALO", "Halo Systems schedules its quarterly earnings call for next month"),
    ("HALO", "Halo Systems opens a second design studio in Lisbon"),
    ("HALO", "Halo Systems names a new head of developer relations"),
    ("NEOX", "Neoxis Therapeutics completes enrolment in a mid-stage trial"),
    ("NEOX", "Neoxis Therapeutics to present at a healthcare conference in May"),
    ("VLTA", "Volta Grid Energy signs a maintenance contract with a regional utility"),
    ("VLTA", "Volta Grid Energy publishes its annual sustainability report"),
    ("DRNX", "Dronix Aerial adds two members to its board of directors"),
    ("DRNX", "Dronix Aerial begins delivery trials in three rural counties"),
    ("CHPX", "Chipworks Semiconductor breaks ground on a packaging facility"),
    ("CHPX", "Chipworks Semiconductor renews its licensing deal with a handset maker"),
    ("AGRX", "Agrexa Farms expands its greenhouse acreage in the south-west"),
    ("LTHM", "Lithium Meridian updates the mineral estimate for its northern site"),
    ("CHPR", "Chiprock Devices appoints a new chief financial officer"),
    ("VLTX", "Voltix Storage wins a grid battery tender in the Netherlands"),
    ("DRNE", "Droneline Logistics launches a same-day parcel route"),
    ("NEOS", "Neoserve Cloud opens a data centre region in Ireland"),
    ("BYTW", "Bytewise Software ships a major update to its accounting suite"),
    ("WNDF", "Windfield Renewables connects a new offshore array to the grid"),
    ("MEDQ", "Mediquill Health partners with a network of rural clinics"),
    ("FINZ", "Finzy Payments adds support for instant transfers in Canada"),
    ("STRM", "Streamora Media renews a popular documentary series"),
    ("AQUV", "Aquavia Water completes a pipeline upgrade ahead of schedule"),
    ("ORBQ", "Orbiquest Telecom extends rural broadband coverage"),
    ("TKVA", "Tekova Robotics unveils a warehouse picking arm"),
    ("GNMX", "Genomix Bio files a patent on a sequencing method"),
    ("SHPL", "Shipley Freight reports steady container volumes"),
    ("GAMX", "Gamexa Interactive delays a title to next spring"),
    ("CYBX", "Cybrix Security publishes a report on phishing trends"),
    ("QBTX", "Qubitex Computing hires a former university lab director"),
    ("BATX", "Batterix Cells opens a recycling pilot plant"),
    ("HRVS", "Harvestline Grain reports a normal planting season"),
    (None, "Markets open mixed as investors await inflation data"),
    (None, "Trading volumes stay light ahead of a holiday weekend"),
    (None, "Bond yields edge lower in early trading"),
    (None, "Energy sector trades flat as oil prices hold steady"),
    (None, "Semiconductor index little changed in morning session"),
    (None, "Regional banks report steady deposit levels"),
    (None, "Consumer confidence survey comes in close to forecasts"),
    (None, "Analysts note quiet trading across small-cap stocks"),
]


def stocks(rng: random.Random) -> list[dict]:
    rows = []
    for symbol, name, sector, price in STOCKS:
        if price is None:
            price = round(rng.uniform(12, 320), 2)
        shares, avg_cost = HOLDINGS.get(symbol, (0, None))
        row = {"id": symbol, "symbol": symbol, "name": name, "sector": sector, "start_price": price,
               "initial_shares": shares, "initial_avg_cost": avg_cost}
        if symbol in ROLES:
            row["_role"], row["_note"] = ROLES[symbol]
        else:
            row["_role"] = "filler"
        rows.append(row)
    return rows


def news(rng: random.Random, committed: list[dict] | None = None) -> list[dict]:
    """News rows; ids are append-only: a headline keeps its committed id, a new one gets the next."""
    committed = read_jsonl(HERE / "news.jsonl") if committed is None else committed
    known = {r["headline"]: r["id"] for r in committed}
    next_n = max((int(i[1:]) for i in known.values()), default=0) + 1
    rows = []
    for symbol, headline in NEWS:
        news_id = known.get(headline)
        if news_id is None:
            news_id, next_n = f"n{next_n:03d}", next_n + 1
        rows.append({"id": news_id, "source": rng.choice(SOURCES), "headline": headline,
                     "symbol": symbol, "age_minutes": rng.randrange(5, 2 * 24 * 60, 5)})
    return sorted(rows, key=lambda r: r["id"])


def read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")


def main() -> None:
    rng = random.Random(SEED)
    stock_rows = stocks(rng)
    assert len(stock_rows) == 50 and len({r["id"] for r in stock_rows}) == 50
    write_jsonl(HERE / "stocks.jsonl", stock_rows)
    write_jsonl(HERE / "news.jsonl", news(rng))


if __name__ == "__main__":
    main()
