"""AlphaZero-style training: self-play with the compiled search, a learner, Ray actors."""
