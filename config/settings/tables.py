"""Settings of the live tables (gameplay/): bots' pauses, the move clock, the queues of the workers
that serve the tables, the move workers and the socket limits. Read into base.py, so every
settings module has them; each one's environment variable has the setting's name."""

import environ

env = environ.Env()

# --- Live tables (gameplay). The pause makes a bot's move feel human; tests set it to 0. Each
# pause is drawn anew between GAMEPLAY_BOT_PAUSE and that plus GAMEPLAY_BOT_PAUSE_SPREAD seconds,
# the same whatever the bot holds (gameplay/services/scheduling.py): a forced card must not come faster.
GAMEPLAY_BOT_PAUSE = env.float("GAMEPLAY_BOT_PAUSE", default=0.5)
GAMEPLAY_BOT_PAUSE_SPREAD = env.float("GAMEPLAY_BOT_PAUSE_SPREAD", default=0.8)
# Seconds a player may be disconnected in one match before his move clock runs on.
GAMEPLAY_GRACE_SECONDS = env.int("GAMEPLAY_GRACE_SECONDS", default=120)
# Real seconds per rules second of the move clock; only tests change it (never the rules object).
GAMEPLAY_CLOCK_SCALE = 1.0
GAMEPLAY_QUEUE_TASKS = True
# Seconds past a table's deadline (or, with a bot to move, past its pause and budget) after which
# the beat takes its task for lost with a killed process and queues it again (gameplay/services/clocks.py).
GAMEPLAY_LOST_TASK_SECONDS = env.int("GAMEPLAY_LOST_TASK_SECONDS", default=30)
#: The queue of the archive's "match changed" notices and of the rating recomputes that follow
#: them (None: Celery's default queue, which the site's worker consumes).
ARCHIVE_NOTICE_QUEUE = env("ARCHIVE_NOTICE_QUEUE", default=None)
#: The queue of the double-dummy analysis of archived matches (seconds a deal): a worker of its
#: own consumes it (bin/site), so moves, clocks and the tournament day never wait behind it.
ANALYSIS_QUEUE = env("ANALYSIS_QUEUE", default="analysis")
#: The queue of the strong bots' moves (up to BOT_BUDGET seconds of thinking each): a worker of its
#: own consumes it (bin/site), so clocks, beginner bots and the tournament day never wait behind it.
BOT_QUEUE = env("BOT_QUEUE", default="bots")
#: Seconds a strong bot thinks over each move; every strong bot's move takes exactly this long (a
#: quicker decision is padded to it), so the time taken says nothing of its hand.
BOT_BUDGET = env.float("BOT_BUDGET", default=1.0)
# Table sockets keep one PostgreSQL connection per pool thread (gameplay/tables/consumers.py).
GAMEPLAY_SOCKET_DB_REUSE = True
# Moves from table sockets run in this many worker processes per server process
# (gameplay/tables/move_pool.py); 0 runs them in the server's thread pool.
GAMEPLAY_MOVE_PROCESSES = env.int("GAMEPLAY_MOVE_PROCESSES", default=1)
# Table socket limits (gameplay/tables/flood.py): a frame's size, and token buckets (frames a second after a
# burst) per socket and per viewer (its session) across its sockets, kept in Redis; clients without a
# session cookie are counted by address with ADDRESS_FACTOR times the allowance. A person never comes
# near them.
GAMEPLAY_FLOOD_LIMITS = True
GAMEPLAY_FRAME_MAX_BYTES = env.int("GAMEPLAY_FRAME_MAX_BYTES", default=4096)
GAMEPLAY_FLOOD_SOCKET_RATE = env.float("GAMEPLAY_FLOOD_SOCKET_RATE", default=15.0)
GAMEPLAY_FLOOD_SOCKET_BURST = env.float("GAMEPLAY_FLOOD_SOCKET_BURST", default=60.0)
GAMEPLAY_FLOOD_VIEWER_RATE = env.float("GAMEPLAY_FLOOD_VIEWER_RATE", default=20.0)
GAMEPLAY_FLOOD_VIEWER_BURST = env.float("GAMEPLAY_FLOOD_VIEWER_BURST", default=120.0)
GAMEPLAY_FLOOD_ADDRESS_FACTOR = env.float("GAMEPLAY_FLOOD_ADDRESS_FACTOR", default=10.0)
# A viewer told "too fast" stays out this many seconds (its page waits them before it reconnects);
# a connect during them is held up to GAMEPLAY_FLOOD_HOLD seconds before it is refused.
GAMEPLAY_FLOOD_COOL_OFF = env.float("GAMEPLAY_FLOOD_COOL_OFF", default=10.0)
GAMEPLAY_FLOOD_HOLD = env.float("GAMEPLAY_FLOOD_HOLD", default=4.0)
# ... each refusal before the allowance has refilled doubles the cool-off, up to this many seconds.
GAMEPLAY_FLOOD_MAX_COOL_OFF = env.float("GAMEPLAY_FLOOD_MAX_COOL_OFF", default=60.0)
# ... each cool-off stretched by a random share of itself up to this (so viewers throttled together
# do not all come back in the same second; gameplay.tables.flood._cool_off)
GAMEPLAY_FLOOD_COOL_OFF_JITTER = env.float("GAMEPLAY_FLOOD_COOL_OFF_JITTER", default=0.5)
# The database work of socket connects, first snapshots and closes, one at a time per server process
# (config.socket_db.lane): a crowd of sockets coming at once leaves the event loop its share. 0: no limit.
GAMEPLAY_SOCKET_LANES = env.int("GAMEPLAY_SOCKET_LANES", default=1)
