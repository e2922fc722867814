"""``puzzlesmith serve``: a local web app to make, play, get hints for and print every puzzle type.

``app.create_app`` builds the Starlette app over a ``library.Library`` (SQLite); ``play`` answers what
the pages ask on top of ``puzzlesmith.api``; ``static/`` holds the page's script and style sheet, served
by the package itself (no CDN, no build step). Needs the ``web`` extra: ``pip install 'puzzlesmith[web]'``.
"""
