// Live delivery across two instances over the database bus (PostgreSQL's LISTEN/NOTIFY, or the
// embedded database's): two-instances.ts. The same over Redis pub/sub: test/redis/live.redis.ts.
import { describeTwoInstances } from './two-instances';

describeTwoInstances('the database bus (LISTEN/NOTIFY)', {});
