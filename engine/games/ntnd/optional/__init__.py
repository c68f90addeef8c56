"""No Trumpets No Drums 28 (Special Units and Optional Rules): special units (special_units.py 28.2, 28.3,
28.5, 28.6), Phoenix and the Para-Commando (allied_specials.py 28.4.1, 28.11.5), VC sappers and NVA armor
shock (sappers_armor.py 28.7, 28.8), VC bases (vc_bases.py 28.9); 28.1 is air/, 28.11 movement/neutrality.py."""
