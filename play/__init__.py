"""The surfaces people touch: the ``meeplezoo`` command line, terminal play, replays, the
browser app, the demo, warmup."""
