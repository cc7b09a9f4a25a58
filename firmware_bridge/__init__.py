"""bgtable firmware_bridge package."""
