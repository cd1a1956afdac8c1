"""The only code that writes ratings: `recompute` learns the archive's rated matches with the pure
model (`ratings.core`) and keeps what it computed; `bulk` is its PostgreSQL fast path (one streamed
read, COPY for the writes)."""
