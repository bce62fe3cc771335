"""Presentation: what a viewer may see of a table, encoded for the wire, in the viewer's
language."""
