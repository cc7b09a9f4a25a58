"""bgtable vision package."""
