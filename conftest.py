"""Process-wide test set-up that must happen before anything else is imported."""

import multiprocessing

# ChannelsLiveServerTestCase and friends start servers in child processes; forking a process
# that already holds database connections and an event loop breaks them (STACK-NOTES.md).
multiprocessing.set_start_method("spawn", force=True)
