"""The league part of afteraction.service: ``manager``, ``servicer``, ``store``."""
