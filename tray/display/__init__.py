"""The scoring display: one view model (`view.py`) of the table session (`session.py`), drawn as
a web page (`web.py`, live over server-sent events) and in a terminal (`terminal.py`)."""
