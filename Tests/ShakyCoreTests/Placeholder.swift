// Placeholder until this target's first test lands.
