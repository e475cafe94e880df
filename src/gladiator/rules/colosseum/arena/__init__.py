"""The arena (§4, §6, §25): the map, positions and facings, fronts and walls."""
