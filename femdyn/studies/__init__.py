"""Studies: complete numerical experiments (models, runs, checks, figures) as functions."""
