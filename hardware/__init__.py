"""bgtable hardware package."""
