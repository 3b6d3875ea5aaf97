export const title = 'Databases: tables, schemas and whole databases dropped, truncated or emptied; caches flushed; framework resets';
export default ({ bad, ok }) => {
  const W = ['sh -c', 'subshell', 'and', 'ssh host', 'docker exec', 'function'];
  const S = 'sql-drop-truncate';
  for (const l of ["psql -c 'DROP TABLE users'", "psql -d prod -c 'drop table if exists orders cascade'", 'psql -c "TRUNCATE orders"', "psql -c 'DELETE FROM users'", "psql -c'DROP TABLE users'", "psql -U app prod -c 'DROP SCHEMA public CASCADE'", "psql -c 'DROP DATABASE prod'",
    "psql -c 'ALTER TABLE users DROP COLUMN email'", "psql -c 'DROP OWNED BY app'", "mysql -e 'DROP DATABASE prod'", 'mysql -u root -e "TRUNCATE TABLE sessions"', "mysql prod -e 'DELETE FROM customers;'", "mariadb -e 'DROP TABLE t'",
    "sqlite3 app.db 'DELETE FROM sessions;'", 'sqlite3 app.db "DROP TABLE users"', "clickhouse-client -q 'DROP TABLE events'", "mongosh --eval 'db.dropDatabase()'", "mongosh prod --eval 'db.users.drop()'", "mongosh --eval 'db.users.deleteMany({})'",
    "cockroach sql -e 'DROP DATABASE bank'", "duckdb x.duckdb 'DROP TABLE t'", "psql -c 'DROP INDEX idx_users_email'", "psql -c 'DROP ROLE analyst'", "psql -c 'drop view report'"])
    bad('ask', S, l, W);
  for (const l of ["echo 'DROP TABLE users;' | psql prod", "psql prod <<< 'TRUNCATE events'", "printf 'DROP DATABASE x;\\n' | mysql", "psql <<'SQL'\nDROP TABLE users;\nSQL", "echo 'DELETE FROM users' | sqlite3 app.db"])
    bad('ask', S, l, ['subshell', 'and']);
  for (const l of ['dropdb prod', 'dropdb -h db.internal app', 'dropuser analyst', 'mysqladmin -u root drop prod', 'mysqladmin -f drop app']) bad('ask', 'dropdb', l, W);
  for (const l of ['redis-cli FLUSHALL', 'redis-cli flushall', 'redis-cli -n 0 flushdb', 'redis-cli -h prod.cache FLUSHALL ASYNC', 'valkey-cli FLUSHALL', 'echo FLUSHALL | redis-cli']) bad('ask', 'redis-flush', l, W);
  for (const l of ['npx prisma migrate reset --force', 'prisma migrate reset', 'npx prisma db push --force-reset', 'rails db:drop', 'bin/rails db:reset', 'bundle exec rake db:drop', 'python manage.py flush --noinput', 'python3 manage.py reset_db', 'npx sequelize db:drop', 'knex migrate:rollback --all', 'mongorestore --drop dump/'])
    bad('ask', 'databases/framework-db-reset', l, W);

  for (const l of ["psql -c 'SELECT count(*) FROM users'", `psql -c "SELECT 'drop table x'"`, "psql -c 'DELETE FROM sessions WHERE expires < now()'", "psql -c '\\dt'", 'psql -d app -f migrations/001.sql', "psql -c 'CREATE TABLE t (id int)'",
    "psql -c \"INSERT INTO users(name) VALUES ('drop')\"", "mysql -e 'SHOW TABLES'", "mysql -e 'SELECT * FROM orders LIMIT 10'", 'sqlite3 app.db .tables', "sqlite3 app.db 'SELECT * FROM users'", "sqlite3 app.db 'DELETE FROM sessions WHERE id = 3'",
    'redis-cli GET flushall', 'redis-cli KEYS "user:*"', 'redis-cli DEL session:1', 'redis-cli INFO memory', 'redis-cli PING', "mongosh --eval 'db.users.find().limit(5)'", "mongosh --eval 'db.users.countDocuments()'", "mongosh --eval 'db.users.deleteOne({_id: 1})'",
    'rails db:migrate', 'bin/rails db:seed', 'python manage.py migrate', 'python manage.py makemigrations', 'npx prisma migrate dev --name init', 'npx prisma generate', 'npx prisma studio', 'pg_dump prod > dump.sql', 'createdb test_db',
    'pg_restore -d test_db dump.custom', 'mongodump --db app', 'mongorestore dump/', 'knex migrate:latest', 'npx sequelize db:migrate', 'docker exec db psql -U postgres -c "SELECT 1"', "echo 'SELECT 1;' | psql", 'psql -c "EXPLAIN ANALYZE SELECT * FROM t"',
  ]) ok(l);
};
