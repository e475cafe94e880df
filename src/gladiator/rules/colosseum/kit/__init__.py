"""What a gladiator fights with and as (§19-§21, §24, §36): styles, weapons, nets, talents."""
