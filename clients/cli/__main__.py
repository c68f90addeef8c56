"""`python -m afteraction.cli ...` is `aar ...`."""
import sys

from .main import main

sys.exit(main())
