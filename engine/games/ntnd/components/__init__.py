"""No Trumpets No Drums 1-2 (Introduction, Components): the map (map.py), the playing pieces and the
terrain chart (pieces.py, 2.2), the scenarios (scenarios.py: the set-up; scenario_data.py: the five of rule 2
composed from the campaign's data; campaign_data.py: the campaign and the random events table), the state
model (state.py) and the rule families a scenario puts in force (features.py)."""
