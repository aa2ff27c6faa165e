"""Checking scenarios: `sentinel validate`, the replay of the validity rules, and generated drafts."""
