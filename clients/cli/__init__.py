"""The `aar` command line (afteraction.cli): on top of the client library and the service."""
