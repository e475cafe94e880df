"""The plot step (§5.2.1, §7, §20.3, §29.3): the plot grammar and the plot decision."""
