"""fusec-fuzz: random-program differential testing of fusec (docs/fuzzing.md)."""
