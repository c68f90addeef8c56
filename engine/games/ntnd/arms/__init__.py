"""No Trumpets No Drums 13-16: firebases and artillery (firebases.py 13), the fleet (fleet.py 14.2.1-14.2.2;
14.1-14.2's ZOI and fire support are movement/zones.py and combat/), Green Berets and Montagnards
(montagnards.py 15-16)."""
