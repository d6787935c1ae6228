// A connection's fields are said once (docs/development.md, "Adding a field"): the Connection view
// is derived from the type's own fields, each copied from the connection's property of its name, and
// the queries select every column the entity maps. So the view a read model answers and the one a
// mutation answers (from the managed entity) are the same, and each carries every field of the type.
import { intArray } from '../../src/db/sql';
import { fieldsOf } from '../../src/graphql/graph-fields';
import { CompanyConnection } from '../../src/modules/connection/connection.entity';
import { asConnection, connectionsOfUsers, connectionsWithCompanies } from '../../src/modules/connection/connection.queries';
import { Connection, toConnection } from '../../src/modules/connection/connection.types';
import { DEMO, NORTHWIND, OLIVIA, useTestApp } from '../kit';

const t = useTestApp();

describe('the Connection view', () => {
  it('when a read model and the entity give the same connections, then their views are equal and carry every field of the type', async () => {
    const em = t.orm.em.fork();
    const entities = await em.find(CompanyConnection, { user: OLIVIA }, { orderBy: { requestedAt: 'desc', id: 'desc' } });
    const read = (await connectionsOfUsers.run(em, { userIds: intArray([OLIVIA]), status: null })).map(asConnection);
    expect(entities.length).toBeGreaterThan(0);
    expect(read).toEqual(entities.map(toConnection));
    const fields = fieldsOf(Connection)
      .filter((f) => f.own)
      .map((f) => f.property)
      .sort();
    for (const view of read) expect(Object.keys(view).sort()).toEqual(fields);
  });

  it('when the connections with some companies are read, then each is the view of its entity', async () => {
    const em = t.orm.em.fork();
    const companies = [NORTHWIND, DEMO.companies.pending];
    const read = (await connectionsWithCompanies.run(em, { userId: OLIVIA, companyIds: intArray(companies) })).map(asConnection);
    const entities = await em.find(CompanyConnection, { user: OLIVIA, company: { $in: companies } }, { orderBy: { company: 'asc' } });
    expect(read).toEqual(entities.map(toConnection));
  });
});
