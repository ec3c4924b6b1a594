"""llm plugin."""
