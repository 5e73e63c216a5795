"""The application: configuration, the SQLite store, the game service, and the Discord front
end. Only this package knows Discord exists (and only its Discord modules do)."""
