"""The combat step of a phase (§5.2.6, §9), written once for any number of figures: the attack
sequence (`sequence`), the attack rounds (`rounds`, with `reading` for one attack on the CRT)
and Find Weakness (`weakness`, §36.3)."""
