"""The oracle's solution language: parsing, problems, and predicates on page text."""

from sentinel.core.solution import parse_solution


def parse(raw):
    steps, problems = parse_solution(raw)
    return steps, [f"{w}: {r}" for w, r in problems]


def test_full_solution_parses():
    steps, problems = parse([
        {"watch": "/microhood/stock/VLTA", "until": {"number": r"Price \$([\d,.]+)", "at_most": "first * 0.9"}},
        {"open": "/microhood/stock/VLTA/order?side=buy"},
        {"submit": "/order/review", "fields": {"order_type": "market", "shares": 3}},
        {"report": "done"},
    ])
    assert problems == []
    assert [s.verb for s in steps] == ["watch", "open", "submit", "report"]
    assert steps[2].fields == {"order_type": "market", "shares": "3"}


def test_number_predicate_with_relative_limits():
    steps, _ = parse([{"watch": "/x", "until": {"number": r"Inbox \((\d+)\)", "at_least": "first + 5"}}])
    until = steps[0].until
    assert until.read_number("Mail Inbox (12) Drafts") == 12
    assert not until.holds("Inbox (14)", first=10)
    assert until.holds("Inbox (15)", first=10)
    assert not until.holds("no counter here", first=10)


def test_number_with_commas_and_constant_limit():
    steps, _ = parse([{"watch": "/x", "until": {"number": r"value \$([\d,.]+)", "at_least": 10900}}])
    assert steps[0].until.holds("Portfolio value $10,912.40")
    assert not steps[0].until.holds("Portfolio value $9,912.40")


def test_text_and_regex_predicates():
    steps, _ = parse([{"watch": "/x", "until": {"text": "Mockups.FIG"}},
                      {"watch": "/y", "until": {"matches": r"Cc:.*\(you\)"}, "open_new": "/message/", "count": 3}])
    assert steps[0].until.holds("file mobile-app-mockups.fig 2 MB")
    assert steps[1].until.holds("Cc: Alex Morgan (you)") and steps[1].count == 3


def test_problems_are_named():
    _, problems = parse([
        {"watch": "inbox", "until": {"text": "x"}},
        {"open": "/a", "report": "b"},
        {"submit": "(unclosed"},
        {"watch": "/x", "until": {"number": "(\\d+)", "at_least": "twice"}},
        {"watch": "/x", "until": {"text": "x"}, "count": 2},
        {"jump": "/x"},
    ])
    assert "solution[0].watch: expected a path starting with '/'" in problems
    assert any(p.startswith("solution[1]: expected exactly one of") for p in problems)
    assert any(p.startswith("solution[2].submit: not a valid regular expression") for p in problems)
    assert any(p.startswith("solution[3].until.at_least: expected a number or 'first") for p in problems)
    assert "solution[4].count: only makes sense with open_new" in problems
    assert any(p.startswith("solution[5]: expected exactly one of") for p in problems)


def test_missing_solution_is_a_problem():
    assert parse(None)[1] == ["solution: missing: the oracle needs steps to follow"]


def test_a_solution_pattern_that_starts_with_a_lookahead_must_be_anchored():
    slow = [{"watch": "/x/", "until": {"matches": "(?s)(?=.*a)(?=.*b)"}}, {"report": "done"}]
    steps, problems = parse_solution(slow)
    assert [reason for _, reason in problems] == [
        "a pattern that starts with a lookahead is tried at every position of the page, which takes "
        "seconds on a long one: start it with \\A"]
    anchored = [{"watch": "/x/", "until": {"matches": "(?s)\\A(?=.*a)(?=.*b)"}}, {"report": "done"}]
    assert parse_solution(anchored)[1] == []
