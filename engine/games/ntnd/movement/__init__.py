"""No Trumpets No Drums 8-10: movement (ground.py 8.1-8.2 allowances and costs; zones.py 8.5 ZOC and ZOI;
sea.py 8.6; reaction.py 8.8; national.py 8.9 and 5.3; stacking.py 8.10; reach.py, search.py and
paths.py the legal moves and their paths; moves.py carrying a move out; hexes.py the map as movement
reads it), off-board zones (offboard.py 9) and neutral states (neutrality.py 10, 28.11)."""
