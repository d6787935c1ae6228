// The address module's hand-written reads (docs/development.md, "Reads and writes"), their SQL in
// schema/sql/address.sql.
import { anyOf, queriesOf } from '../../db/sql';
import { UserAddress } from './address.entity';

const { compiled } = queriesOf({ UserAddress });

/** Addresses of any number of users (an array of ids), oldest first, every column: one statement. */
export const addressesOfUsers = compiled(
  (db, p: { userIds: number[] }, { columns }) =>
    db
      .selectFrom('UserAddress as a')
      .select(columns(UserAddress, 'a'))
      .where('a.user', '=', anyOf(p.userIds, 'int'))
      .orderBy('a.createdAt')
      .orderBy('a.uuid'),
  { prepared: true },
);
