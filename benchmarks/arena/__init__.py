"""The arena: round robins with seat rotation and duplicate deals, their records, plots
and fingerprints."""
