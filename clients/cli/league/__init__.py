"""The league part of afteraction.cli: ``verify``, ``commands``, ``demo``, ``view``, ``web``."""
