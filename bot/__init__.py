"""The application, above the engine and the pictures: configuration, the store (SQLite or
PostgreSQL, `bot/store/`), the game service and tournaments (which know nothing of
Discord), and the Discord front end (`bot/front/`), with the command line that runs it, the
sandbox that plays it against the loopback Discord, and `schotten-bot check`. Only the front,
the sandbox and the check know Discord exists."""
