"""Markdown tool files for tooldrop: YAML frontmatter and a shell-script body."""
