// The columns the event views show, as their fields declare them (ColumnOf, event.types.ts): the
// reads select each under its field's name, and every field of the views is such a column but
// those the reads compute (zoned times, eHasEnded) and the company's name (a join).
import { tableOf } from '../../src/db/lean';
import { fieldsOf } from '../../src/graphql/graph-fields';
import { columnSelect } from '../../src/modules/event/event.columns';
import { Event, EventAttendee } from '../../src/modules/event/event.entity';
import { EventFields, UserEventView } from '../../src/modules/event/event.types';
import { useTestApp } from '../kit';

const t = useTestApp();

const COMPUTED = ['cName', 'eGmtOffsetMinutes', 'eLocalStartDateTime', 'eLocalEndDateTime', 'eHasEnded'];
const alias = (item: string) => /as "([^"]+)"$/.exec(item)![1];

describe('the columns of the event views', () => {
  it('when the UserEvent view is selected, then every field but the computed ones is a column of the event or the invitation', () => {
    const em = t.orm.em.fork();
    const event = columnSelect(UserEventView, Event, tableOf(em, Event), 'e').map(alias);
    const invitation = columnSelect(UserEventView, EventAttendee, tableOf(em, EventAttendee), 'a').map(alias);
    expect(event).toEqual(columnSelect(EventFields, Event, tableOf(em, Event), 'e').map(alias));
    const shown = fieldsOf(UserEventView)
      .map((f) => f.name)
      .filter((name) => name !== 'company' && !COMPUTED.includes(name));
    expect([...event, ...invitation].sort()).toEqual(shown.sort());
  });

  it('when a field holds an instant or a decimal, then its column is selected as the field holds it', () => {
    const select = columnSelect(EventFields, Event, tableOf(t.orm.em.fork(), Event), 'e');
    expect(select).toContain('floor(extract(epoch from e."utc_start") * 1000)::float8 as "eUTCStartDateTime"');
    expect(select).toContain('e."latitude"::float8 as "eLatitude"');
    expect(select).toContain('e."company_id" as "cId"');
  });
});
