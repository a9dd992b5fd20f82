"""guards package."""
