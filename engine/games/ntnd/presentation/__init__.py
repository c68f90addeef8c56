"""No Trumpets No Drums as a seat sees it: the views (views.py), the map as SVG (render.py,
render_panels.py) and commands and events in words (names.py)."""
