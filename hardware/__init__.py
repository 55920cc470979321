"""The tools that render hardware/ (the printed tray, the wiring diagrams, the BOM) from data.

Run as `python hardware/render.py`; never installed with tinker-tray (a Pi needs none of it).
"""
