"""The web client's built files (index.html, app.css, app.js: clients/web/src built by `make web`),
served by `aar serve --web-listen` (clients/cli/webpage.py)."""
import os

DIR = os.path.dirname(os.path.abspath(__file__))
