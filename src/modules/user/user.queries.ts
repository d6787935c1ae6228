// The user module's hand-written reads (docs/development.md, "Reads and writes"), their SQL in
// schema/sql/user.sql. The title and gender lists: every column of the entity (the entities double
// as the GraphQL types and have no field resolvers), in the order em.find gave; a handful of rows.
import { queriesOf } from '../../db/sql';
import { Gender, Title } from './user-reference.entity';
import { User } from './user.entity';

const { compiled, eb } = queriesOf({ Title, Gender, User });

/**
 * A user's row by id, every column: the principal of every authenticated request reads it
 * (src/modules/identity/principal.ts), a plain row rather than a managed entity.
 */
export const userRowById = compiled(
  (db, p: { uId: number }, { columns }) => db.selectFrom('User as u').select(columns(User, 'u')).where('u.uId', '=', p.uId).limit(1),
  { prepared: true },
);

/** Every title, by id. */
export const titleRows = compiled((db, _, { columns }) => db.selectFrom('Title as t').select(columns(Title, 't')).orderBy('t.titleId'), {
  prepared: true,
});

/** Every gender, by name. */
export const genderRows = compiled(
  (db, _, { columns }) => db.selectFrom('Gender as g').select(columns(Gender, 'g')).orderBy('g.genderName'),
  { prepared: true },
);

/**
 * Every user as a table to join (its columns under their own names, which the asker's query
 * names by property and selects under an alias of its own: the user's key, e-mail, names, whether notifications are on and
 * whether the account is active): what a message to a user is addressed and filled with.
 */
export const userContacts = () =>
  eb
    .selectFrom('User as user_u')
    .select(['user_u.uId', 'user_u.email', 'user_u.firstName', 'user_u.lastName', 'user_u.enableNotifications', 'user_u.active']);
