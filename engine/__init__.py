"""The rules of Schotten Totten (`st1/`) and Schotten Totten 2 (`st2/`), pure Python with no
I/O: one interface for both games (`api.py`), the exact claim and control proof shared by
both (`formations.py`, `proof.py`, `claims.py`), move notation, the views that tell each
player only what they may see, and the computer players (`ai/`). Deterministic from a seed
and replayable from a move log; nothing here knows Discord, a database or a picture."""
