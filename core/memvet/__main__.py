"""``python -m memvet`` runs the CLI."""

from memvet.cli import main

main()
