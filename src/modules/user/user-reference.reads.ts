// Read models of the title and gender lists (docs/development.md, "Reads and writes"): fixed SQL
// written once from the entities' metadata, selecting every column of the entity, rows mapped by
// its own metadata (the entities double as the GraphQL types and have no field resolvers), in the
// order em.find gave. Both lists are a handful of rows.
import { readModel } from '../../db/lean';
import { Gender, Title } from './user-reference.entity';

/** Every title, by id. */
export const titleRows = readModel<Title>({
  entity: Title,
  sql: (n) => {
    const t = n(Title);
    return `select ${t.columns()} from ${t.table} order by ${t.column('titleId')}`;
  },
  prepared: true,
});

/** Every gender, by name. */
export const genderRows = readModel<Gender>({
  entity: Gender,
  sql: (n) => {
    const g = n(Gender);
    return `select ${g.columns()} from ${g.table} order by ${g.column('genderName')}`;
  },
  prepared: true,
});
