"""The rules engine: pure Python, no I/O, no threads, no clock; deterministic for a seed.

Modelled on OpenSpiel: a state knows whose move it is, lists the legal actions (small ints),
applies one, and exposes chance (shuffles, Tinker Bell's pick) as explicit chance nodes.
"""
