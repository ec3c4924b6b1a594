"""Skill bundles: folders with a ``skill.yaml``, an agent, and tools only that agent is offered."""
