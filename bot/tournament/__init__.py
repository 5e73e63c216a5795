"""Server tournaments: round robin and Swiss events between members."""
