"""No Trumpets No Drums 4-6 and 17: recruitment and reinforcements (recruitment.py 4.1-4.2.1, placement.py
4.1.1, recruit_extras.py 4.1.5), replacements (replacements.py 4.2.2-4.2.6, 4.5), withdrawals
(withdrawals.py 4.3, 23.3, 24.3), corps command (corps.py 5), the Communist operations phase and the
hidden markers (operations.py 6) and dummy counters (dummies.py 17)."""
