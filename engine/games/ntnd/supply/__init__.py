"""No Trumpets No Drums 18 (Supplies): supply lines, sources and supply units (lines.py)."""
