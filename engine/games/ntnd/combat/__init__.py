"""No Trumpets No Drums 19-20: contact before the dice (contact.py 19.1), the mathematics (resolution.py 19.2,
pure), retreats and advance (retreat.py 19.3-19.4, pure), battles from the state (battles.py), their
results as decisions (aftermath.py 19.2.6-19.4, 20.5) and ambushes (ambush.py 20)."""
