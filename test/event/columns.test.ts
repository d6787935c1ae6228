// The columns the event views show, as their fields declare them (ColumnOf, event.types.ts): the
// reads select each under its field's name, and every field of the views is such a column but
// those the reads compute (zoned times, eHasEnded) and the company's name (a join).
import { sql, type AliasedExpression } from 'kysely';
import { useTestApp } from '../kit';
import { fieldsOf } from '../../src/graphql/graph-fields';
import { columnSelect } from '../../src/modules/event/event.columns';
import { eventsByUuids } from '../../src/modules/event/event.queries';
import { Event, EventAttendee } from '../../src/modules/event/event.entity';
import { EventFields, UserEventView } from '../../src/modules/event/event.types';

const t = useTestApp();

const COMPUTED = ['cName', 'eGmtOffsetMinutes', 'eLocalStartDateTime', 'eLocalEndDateTime', 'eHasEnded'];
const alias = (item: AliasedExpression<unknown, string>) => item.alias as string;
const ref = (prop: string) => sql.ref(prop);

describe('the columns of the event views', () => {
  it('when the UserEvent view is selected, then every field but the computed ones is a column of the event or the invitation', () => {
    const event = columnSelect(UserEventView, Event, ref).map(alias);
    const invitation = columnSelect(UserEventView, EventAttendee, ref).map(alias);
    expect(event).toEqual(columnSelect(EventFields, Event, ref).map(alias));
    const shown = fieldsOf(UserEventView)
      .map((f) => f.name)
      .filter((name) => name !== 'company' && !COMPUTED.includes(name));
    expect([...event, ...invitation].sort()).toEqual(shown.sort());
  });

  it('when a field holds an instant or a decimal, then its column is selected as the field holds it', () => {
    const select = eventsByUuids.sql(t.orm.em.fork());
    expect(select).toContain('floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime"');
    expect(select).toContain('"e"."latitude"::float8 as "eLatitude"');
    expect(select).toContain('"e"."company_id" as "cId"');
  });
});
