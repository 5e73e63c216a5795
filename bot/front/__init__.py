"""The Discord front end: it turns interactions into service calls and results into
messages. `client.py` makes the resources and `app.py`'s Front composes the parts (the slash
commands, the persistent controls, the outbox relay, the computer's turns, the look-back
commands, the tournament desk), each of which knows the front only by the protocol of
`ports.py` that names what it calls."""
