"""The SQLite schema, as numbered migrations recorded in `PRAGMA user_version`
(bot/store/migrations_pg.py holds the same migrations for PostgreSQL, number for number).

Migrations only ever get appended: migration N takes a database at version N-1 to N. The
store runs the missing ones at start-up, each in its own transaction, so a database from any
earlier version of the bot opens in this one.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: the first schema.
    """
    CREATE TABLE settings (
        guild_id INTEGER PRIMARY KEY,
        reminder_hours REAL NOT NULL DEFAULT 24,
        forfeit_hours REAL NOT NULL DEFAULT 72,      -- 0: never forfeit on time
        challenge_hours REAL NOT NULL DEFAULT 24,    -- how long a challenge stays open
        use_threads INTEGER NOT NULL DEFAULT 1
    );

    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        challenger_id INTEGER NOT NULL,
        opponent_id INTEGER NOT NULL,
        spec TEXT NOT NULL,                          -- engine.api.MatchSpec as JSON
        status TEXT NOT NULL DEFAULT 'open',         -- open accepted declined cancelled expired
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        closed_at REAL,
        match_id INTEGER,
        message_id INTEGER
    );
    CREATE INDEX challenges_open ON challenges(status, expires_at);

    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,                 -- the channel or thread it is played in
        player0_id INTEGER NOT NULL,                 -- seat 0
        player1_id INTEGER NOT NULL,                 -- seat 1
        variant TEXT NOT NULL,
        game TEXT NOT NULL,                          -- st1 or st2: ratings are per game
        spec TEXT NOT NULL,
        seed INTEGER NOT NULL,
        state TEXT NOT NULL,                         -- the engine's to_json()
        version INTEGER NOT NULL DEFAULT 0,          -- moves applied; guards against races
        status TEXT NOT NULL DEFAULT 'active',       -- active finished
        to_decide INTEGER,                           -- the seat the game waits for
        due_since REAL NOT NULL,                     -- when that decision became owed
        reminded INTEGER NOT NULL DEFAULT 0,         -- a reminder went out for it
        created_at REAL NOT NULL,
        finished_at REAL,
        winner INTEGER,                              -- seat, NULL for a draw
        termination TEXT,
        rated INTEGER NOT NULL DEFAULT 1,
        board_message_id INTEGER
    );
    CREATE UNIQUE INDEX one_active_match_per_channel ON matches(channel_id)
        WHERE status = 'active';
    CREATE INDEX matches_due ON matches(status, due_since);
    CREATE INDEX matches_player0 ON matches(guild_id, player0_id);
    CREATE INDEX matches_player1 ON matches(guild_id, player1_id);

    CREATE TABLE games (                             -- one row per finished game of a match
        match_id INTEGER NOT NULL REFERENCES matches(id),
        number INTEGER NOT NULL,
        winner INTEGER,
        termination TEXT NOT NULL,
        detail TEXT NOT NULL,                        -- stones and points, or deck left...
        finished_at REAL NOT NULL,
        PRIMARY KEY (match_id, number)
    );

    CREATE TABLE moves (                             -- append-only
        match_id INTEGER NOT NULL REFERENCES matches(id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        text TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (match_id, seq)
    );

    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        rated_games INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, game, user_id)
    );
    """,
    # 2: names to show in leaderboards and exports, and games against the computer.
    """
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        is_bot INTEGER NOT NULL DEFAULT 0
    );
    ALTER TABLE matches ADD COLUMN ai_seat INTEGER;  -- the computer's seat, if any
    ALTER TABLE matches ADD COLUMN ai_level TEXT;
    ALTER TABLE challenges ADD COLUMN ai_level TEXT;
    """,
    # 3: the outbox. What a change must announce (the board after a move, the hand of the
    # player to decide, a reminder, an expired challenge) is written in the same transaction
    # as the change, and marked done once Discord accepted it, so a crash between the two
    # delays an announcement but never loses it.
    """
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,                          -- board hand reminder challenge
        match_id INTEGER REFERENCES matches(id),
        challenge_id INTEGER REFERENCES challenges(id),
        version INTEGER,                             -- the match version it announces
        seat INTEGER,                                -- hand, reminder: whose
        payload TEXT NOT NULL,                       -- JSON: what to say (see bot.service)
        deferred INTEGER NOT NULL DEFAULT 0,         -- the request that made it shows it itself
        created_by TEXT NOT NULL,                    -- the process (boot id) that wrote it
        created_at REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',      -- pending sent skipped dead
        attempts INTEGER NOT NULL DEFAULT 0,
        next_try REAL NOT NULL,                      -- not before (retries back off)
        lease_until REAL,                            -- a sender has it until then
        done_at REAL,
        message_id INTEGER,
        error TEXT
    );
    CREATE INDEX outbox_pending ON outbox(next_try) WHERE status = 'pending';
    CREATE INDEX outbox_match ON outbox(match_id, id);
    """,
    # 4: the computer's turn is claimed by the process that searches it, until then, so
    # that with several processes each turn is searched and played once.
    """
    ALTER TABLE matches ADD COLUMN ai_lease_until REAL;
    """,
    # 5: the turn as its newest board left it, [actor, open, events] (JSON), kept on the
    # match so that a move, read with its match, knows whether it continues that board's
    # turn without another query (filled in here from the outbox for games under way).
    """
    ALTER TABLE matches ADD COLUMN turn TEXT;
    UPDATE matches SET turn = (
        SELECT json_extract(payload, '$.actor', '$.open', '$.events') FROM outbox
        WHERE id = (SELECT max(id) FROM outbox WHERE match_id = matches.id AND kind = 'board')
    ) WHERE status = 'active';
    """,
    # 6: each member's rating after every rated game (to chart how it moved), and whether
    # members other than its two players may ask for a finished game's analysis.
    """
    CREATE TABLE rating_history (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,                          -- st1 or st2
        user_id INTEGER NOT NULL,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        at REAL NOT NULL,                            -- when the match ended (finished_at)
        mu REAL NOT NULL,                            -- the rating after the match
        sigma REAL NOT NULL,
        result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
        PRIMARY KEY (match_id, user_id)
    );
    CREATE INDEX rating_history_member ON rating_history(guild_id, user_id, game, at, match_id);

    -- Filled in from the games already rated: the final board of each announced the
    -- ratings it gave, [user, mu and sigma before, mu and sigma after] per player (see
    -- RatingChange.to_json), the only board with a non-empty "ratings". A rated match
    -- without that board is skipped: one that ended before the outbox (migration 3)
    -- existed, whose ratings were never recorded game by game. Its players' history
    -- starts later, though the ratings table counts it. ON CONFLICT: one row per player
    -- of a match, however often this runs.
    WITH boards AS (
        SELECT m.id, m.guild_id, m.game, m.finished_at, m.winner, m.player0_id,
            m.player1_id, (
                SELECT json_extract(payload, '$.ratings') FROM outbox
                WHERE match_id = m.id AND kind = 'board'
                    AND json_type(payload, '$.ratings[0]') = 'array'
                ORDER BY id DESC LIMIT 1
            ) AS ratings
        FROM matches m
        WHERE m.status = 'finished' AND m.rated = 1 AND m.ai_seat IS NULL
    ), steps AS (
        SELECT b.*, json_extract(e.value, '$[0]') AS user_id,
            json_extract(e.value, '$[3]') AS mu, json_extract(e.value, '$[4]') AS sigma
        FROM boards b, json_each(b.ratings) e
    )
    INSERT INTO rating_history (guild_id, game, user_id, match_id, at, mu, sigma, result)
    SELECT guild_id, game, user_id, id, finished_at, mu, sigma,
        CASE WHEN winner IS NULL THEN 'draw'
            WHEN user_id = CASE winner WHEN 0 THEN player0_id ELSE player1_id END THEN 'win'
            ELSE 'loss' END
    FROM steps WHERE user_id IN (player0_id, player1_id)
    ON CONFLICT (match_id, user_id) DO NOTHING;

    ALTER TABLE settings ADD COLUMN public_analysis INTEGER NOT NULL DEFAULT 1;
    """,
    # 7: server tournaments (round robin and Swiss). A round's pairings are written in the
    # transaction that moves the tournament to that round, so a round is paired once; each
    # pairing gets its match in the transaction that creates it.
    """
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,                 -- its announcements; games in threads here
        creator_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        spec TEXT NOT NULL,                          -- each game's MatchSpec as JSON
        format TEXT NOT NULL,                        -- swiss round-robin
        rounds INTEGER NOT NULL,                     -- planned (round robin: fixed at start)
        round_hours REAL NOT NULL,                   -- a round's deadline after its start
        status TEXT NOT NULL DEFAULT 'open',         -- open running finished cancelled
        round INTEGER NOT NULL DEFAULT 0,            -- the round under way (0: not started)
        round_deadline REAL,
        created_at REAL NOT NULL,
        started_at REAL,
        finished_at REAL,
        message_id INTEGER,                          -- the announcement with its Join button
        announced INTEGER NOT NULL DEFAULT 0         -- rounds announced (rounds + 1: the end)
    );
    CREATE UNIQUE INDEX one_live_tournament_name ON tournaments(guild_id, name)
        WHERE status IN ('open', 'running');
    CREATE INDEX tournaments_live ON tournaments(status, round_deadline);

    CREATE TABLE tournament_players (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        user_id INTEGER NOT NULL,
        joined_at REAL NOT NULL,
        seed INTEGER,                                -- pairing order, fixed at the start
        withdrawn_at REAL,                           -- left the event (or the server)
        PRIMARY KEY (tournament_id, user_id)
    );

    CREATE TABLE tournament_games (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,                      -- its number in the round, from 1
        first_id INTEGER NOT NULL,                   -- seat 0: starts, or attacks
        second_id INTEGER,                           -- NULL: a bye for first_id
        match_id INTEGER REFERENCES matches(id),     -- once started
        points0 REAL,                                -- the result, once decided
        points1 REAL,
        forfeit INTEGER NOT NULL DEFAULT 0,          -- decided by the deadline or a withdrawal
        PRIMARY KEY (tournament_id, round, board)
    );
    CREATE UNIQUE INDEX tournament_game_match ON tournament_games(match_id);

    ALTER TABLE matches ADD COLUMN tournament_id INTEGER REFERENCES tournaments(id);
    """,
    # 8: languages. A server's public language (NULL: its Discord community language), and
    # each member's last client language, for the DMs and reminders sent when no request of
    # theirs is under way (a context variable does not reach timers or the outbox).
    """
    ALTER TABLE settings ADD COLUMN language TEXT;
    CREATE TABLE member_languages (
        user_id INTEGER PRIMARY KEY,
        language TEXT NOT NULL,                      -- en fr de
        seen_at REAL NOT NULL
    );
    """,
    # 9: whom a board's message notified when it was created (a JSON list of user ids), so
    # that the hand of a player whose DMs are closed knows whether the turn's board pinged
    # them already, after a restart too.
    """
    ALTER TABLE outbox ADD COLUMN notified TEXT;
    """,
    # 10: open challenges. A challenge may name no opponent (`opponent_id` NULL until a
    # member takes it: the first to accept plays), and may be open only to the members of a
    # Discord role. SQLite cannot drop a NOT NULL, so the table is rebuilt, as SQLite's
    # documentation prescribes (the store runs migrations with foreign keys off, then checks
    # them before committing).
    """
    CREATE TABLE challenges_new (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        challenger_id INTEGER NOT NULL,
        opponent_id INTEGER,                         -- NULL: open, and nobody has taken it yet
        spec TEXT NOT NULL,                          -- engine.api.MatchSpec as JSON
        status TEXT NOT NULL DEFAULT 'open',         -- open accepted declined cancelled expired
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        closed_at REAL,
        match_id INTEGER,
        message_id INTEGER,
        ai_level TEXT,
        for_anyone INTEGER NOT NULL DEFAULT 0,       -- an open challenge: the first taker plays
        for_role_id INTEGER                          -- only this role's members may take it
    );
    INSERT INTO challenges_new (id, guild_id, channel_id, challenger_id, opponent_id, spec,
        status, created_at, expires_at, closed_at, match_id, message_id, ai_level)
    SELECT id, guild_id, channel_id, challenger_id, opponent_id, spec, status, created_at,
        expires_at, closed_at, match_id, message_id, ai_level FROM challenges;
    DROP TABLE challenges;
    ALTER TABLE challenges_new RENAME TO challenges;
    CREATE INDEX challenges_open ON challenges(status, expires_at);
    """,
    # Heartbeats: each running process's last sign of life, and who holds each lease, so
    # that what a killed process had taken (announcements, the computer's turns) is taken
    # over in seconds rather than when its lease runs out.
    """
    CREATE TABLE processes (
        boot TEXT PRIMARY KEY,                       -- GameService.boot
        started_at REAL NOT NULL,
        beat_at REAL NOT NULL
    );
    ALTER TABLE outbox ADD COLUMN leased_by TEXT;
    ALTER TABLE matches ADD COLUMN ai_leased_by TEXT;
    """,
    # The unseen cards: whether a member's hand messages show the cards they have not seen
    # (the hand's Unseen cards button); no row: hidden.
    """
    CREATE TABLE member_unseen (
        user_id INTEGER PRIMARY KEY,
        shown INTEGER NOT NULL,                      -- 1: shown, 0: hidden
        changed_at REAL NOT NULL
    );
    """,
    # Each member's own notifications, the same in every server (they follow the member, as
    # their DMs do): their hand by DM when it becomes their turn, the mentions that notify
    # them in a game's channel, and turn reminders. No row: all on, as before there were any.
    """
    CREATE TABLE member_notifications (
        user_id INTEGER PRIMARY KEY,
        turn_dm INTEGER NOT NULL DEFAULT 1,          -- the hand by DM when it is their turn
        pings INTEGER NOT NULL DEFAULT 1,            -- mentions that notify, in game channels
        reminders INTEGER NOT NULL DEFAULT 1,        -- turn reminders
        changed_at REAL NOT NULL
    );
    """,
    # Members' data deleted on request (/schotten privacy): their finished games keep their
    # moves, and show the player as "deleted member" in the matches up to `through_match`,
    # everywhere (guild_id 0: the member's own request) or in one server (an admin's, for a
    # member who left it).
    """
    CREATE TABLE forgotten (
        guild_id INTEGER NOT NULL,                   -- 0: every server
        user_id INTEGER NOT NULL,
        through_match INTEGER NOT NULL,              -- the last match id when it was done
        at REAL NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    """,
    # A clock per game, and vacations (bot/game_clock.py). A challenge's hours per move, given
    # to its match when it is accepted (NULL: the server's reminder and forfeit times, as
    # for games made before this migration and tournament games); a server's vacation days
    # a year (NULL: the configured default); each member's vacations on a server, whose end
    # moves earlier when they end one early: the clocks of their games stop for exactly
    # these intervals.
    """
    ALTER TABLE challenges ADD COLUMN clock_hours REAL;
    ALTER TABLE matches ADD COLUMN clock_hours REAL;
    ALTER TABLE settings ADD COLUMN vacation_days INTEGER;
    CREATE TABLE vacations (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        starts_at REAL NOT NULL,
        ends_at REAL NOT NULL                        -- planned, or when ended early
    );
    CREATE INDEX vacations_of ON vacations(guild_id, user_id, ends_at);
    """,
    # Where Discord refused the bot for good, so that it does not ask again blindly
    # (bot/refusals.py): a member's DMs (`dms`, their user id: 50007) until they next use
    # the bot; a channel (`channel`: 50001, 50013 or 10003 on a post) until an interaction
    # there shows the permissions back; a server (`server`) the bot was removed from, until
    # it is invited back.
    """
    CREATE TABLE refusals (
        kind TEXT NOT NULL,                          -- dms channel server
        target_id INTEGER NOT NULL,                  -- a user, a channel or a server id
        parent_id INTEGER,                           -- a thread's channel
        code INTEGER NOT NULL,                       -- Discord's JSON code (0: removed)
        at REAL NOT NULL,
        PRIMARY KEY (kind, target_id)
    );
    """,
    # Each member's DM channel with the bot (bot/front/dm_channels.py): its id is the same
    # for as long as the bot and the member exist, so it is opened once (`POST
    # /users/@me/channels`) and then used from here, in every process and after a restart,
    # rather than opened again whenever discord.py's cache (128 DM channels) lost it.
    """
    CREATE TABLE dm_channels (
        user_id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL,
        opened_at REAL NOT NULL
    );
    """,
    # Whether a game's clock is the server's forfeit time, taken because its challenge chose
    # none (1), rather than its own (0, as for every game before): such a game reminds after
    # the server's `reminder_hours`, not at a third of its clock (bot/game_clock.py).
    """
    ALTER TABLE challenges ADD COLUMN server_clock INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE matches ADD COLUMN server_clock INTEGER NOT NULL DEFAULT 0;
    """,
    # The tie-breaks' order an organiser chose for a tournament (a key of
    # bot/tournament/records.py's TIEBREAK_ORDERS); NULL: the format's default.
    """
    ALTER TABLE tournaments ADD COLUMN tiebreak_order TEXT;
    """,
]

LATEST = len(MIGRATIONS)
