"""The movement step (§5.2.2-§5.2.5, §8, §15, §16): simultaneous movement and collisions."""
