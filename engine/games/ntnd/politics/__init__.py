"""No Trumpets No Drums 7 and 21-27: Hearts and Minds (hearts.py 7, hearts_phases.py 3.1.2, 3.2.2), random
events (random_events.py 21), politics and victory (victory.py 22, points_table.py 22.2-22.4, track.py
the track's bounds), American elections (elections.py, election_results.py 23), Vietnamization
(vietnamization.py 24), South Vietnamese morale (sv_morale.py 25), the National Uprising (uprising.py
26) and Communist aid (aid.py 27)."""
