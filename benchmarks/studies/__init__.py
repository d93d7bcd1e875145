"""Research studies: value quality, generalisation, recipes, game lengths, fuzzing, and
the bars of the shipped bots."""
