"""The table model: a table folded from its log, the commands that extend it, snapshots, the
cache of folded tables, the fan-out to watchers and the turns bots take."""
