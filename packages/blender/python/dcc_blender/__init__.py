"""The Blender host of ``@dcc/link``: handlers for operators and the data API under a policy.

``paths`` and ``policy`` need no bpy; the other modules run inside Blender.
"""
