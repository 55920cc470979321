"""A ruleset registered by a test alone (`pocket`): the classic rules under a name of its own,
through every layer that asks the registry, with no file outside this package changed."""
