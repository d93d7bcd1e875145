"""Play and watch the games in a browser: ``meeplezoo serve`` (the ``web`` extra).

``board.py`` turns a state into the picture and the click targets the page draws,
``sessions.py`` holds the games being played and the replays being watched (validated
exactly like the Python API), ``warming.py`` compiles each game's first-game paths in the
background at start, ``server.py`` is the HTTP layer, ``static/`` the page.
"""
