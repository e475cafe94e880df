"""The Campaign Game's hooks in a match (§30-§35): entrants, prestige, the tally and report."""
