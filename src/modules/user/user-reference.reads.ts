// Read models of the title and gender lists (docs/development.md, "Reads are read models"): fixed
// SQL written once from the entities' metadata, answering plain rows shaped like their GraphQL
// types (the entities double as those types and have no field resolvers), in the order em.find gave.
import { readQuery } from '../../db/lean';
import { Gender, Title } from './user-reference.entity';

/** Every title, by id. */
export const titleRows = readQuery<Title, [], { id: number; name: string }>(
  (n) => {
    const t = n(Title);
    return `select ${t.column('titleId')} as id, ${t.column('titleName')} as name from ${t.table} order by ${t.column('titleId')}`;
  },
  (row) => ({ titleId: row.id, titleName: row.name }),
  { prepared: true },
);

/** Every gender, by name. */
export const genderRows = readQuery<Gender, [], { code: string; name: string }>(
  (n) => {
    const g = n(Gender);
    return `select ${g.column('genderCode')} as code, ${g.column('genderName')} as name from ${g.table} order by ${g.column('genderName')}`;
  },
  (row) => ({ genderCode: row.code, genderName: row.name }),
  { prepared: true },
);
