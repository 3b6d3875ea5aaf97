import type { Pack } from './types.js';

/** Database contents: dropping, truncating, flushing. */
export const databasesPack: Pack = {
  id: 'databases',
  description: 'Destroying database contents: DROP / TRUNCATE / DELETE without WHERE (built-in sql-drop-truncate), redis FLUSHALL / FLUSHDB as the command, dropdb, Mongo dropDatabase / drop(), prisma/rails/django resets.',
  rules: String.raw`
[[rule]]
id = "framework-db-reset"
reason = "a framework command that drops and recreates the database"
argv_any = '^(?:(?:npx |pnpm |yarn )?prisma (?:migrate reset|db push (?:\S+ )*--force-reset)|(?:bin/)?rails (?:db:drop|db:reset|db:schema:load)|(?:bundle exec )?rake (?:db:drop|db:reset)|python3? manage\.py (?:flush|reset_db)|sequelize db:drop|knex migrate:rollback --all|mongorestore (?:\S+ )*--drop)'

[[rule]]
id = "mongo-drop"
reason = "drops a Mongo database or collection"
commands = ["mongo", "mongosh"]
argv_any = 'dropDatabase|\.drop\(|deleteMany\(\s*\{\s*\}\s*\)'
`,
};
