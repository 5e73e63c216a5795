"""The Discord front end: slash commands, persistent controls, messages, timers, and the
computer opponent. It turns interactions into service calls and results into messages."""
