"""The Disney family of rulesets: Disney UNO with the Tinker Bell tray, classic, the 2018 official
rules with house rules, and Elvis. One engine plays them all (`rulesets` says what differs); it
builds only on the core (engine/), and UNO Elite (engine/elite/) is no part of it.
"""

import os

import engine

if engine.BUILD == "compiled":  # the compiled modules first, as engine/__init__ does for the core
    __path__.insert(0, os.path.join(engine.COMPILED, "engine", "disney"))
