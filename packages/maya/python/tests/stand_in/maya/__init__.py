"""Stand-in for Autodesk Maya's ``maya`` package (tests only)."""
