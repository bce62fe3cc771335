#!/bin/sh
# Patroni runs this once, on the first primary, with a superuser connection URL as $1:
# the role and database tarok uses (its password from $TAROK_DB_PASSWORD).
set -eu
psql "$1" -v ON_ERROR_STOP=1 -v pw="${TAROK_DB_PASSWORD:?}" <<'SQL'
CREATE ROLE tarok LOGIN PASSWORD :'pw';
CREATE DATABASE tarok OWNER tarok;
SQL
