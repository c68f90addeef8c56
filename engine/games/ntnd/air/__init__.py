"""No Trumpets No Drums 11-12: the air units as pieces (pieces.py 11.2-11.10), the missions (missions.py
11.1), the air war's decisions (answers.py) and anti-aircraft fire (antiaircraft.py 12, 11.5)."""
