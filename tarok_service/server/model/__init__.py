"""The table model: a table folded from its log, the commands that extend it, the event
types, snapshots and the cache of folded tables. No use case, no presentation."""
