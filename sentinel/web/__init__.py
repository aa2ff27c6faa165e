"""The web edge: one app factory for every session, shared layout, contact, live refresh."""
