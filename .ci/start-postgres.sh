#!/usr/bin/env bash
# Start Debian's PostgreSQL cluster on loopback and create the test role and database (idempotent).
set -euo pipefail
ver=$(ls /usr/lib/postgresql | sort -V | tail -1)
if ! pg_lsclusters -h | grep -q "^$ver main"; then
  pg_createcluster "$ver" main >/dev/null
fi
pg_ctlcluster "$ver" main start 2>/dev/null || true
for _ in $(seq 1 30); do
  pg_isready -h 127.0.0.1 -p 5432 -q && break
  sleep 1
done
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='photosearch'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"CREATE ROLE photosearch LOGIN SUPERUSER PASSWORD 'photosearch'\""
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='photosearch_test'\"" | grep -q 1 ||
  su postgres -c "createdb -O photosearch photosearch_test"
echo "postgresql $ver ready on 127.0.0.1:5432"
