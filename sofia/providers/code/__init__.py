"""`code`: structure without bodies, or exactly the bodies asked for (spec tools-code §1)."""
