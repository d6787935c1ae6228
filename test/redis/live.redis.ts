// Live delivery across two instances over Redis pub/sub (REDIS_URL): the tests of
// test/live/two-instances.ts, which live.test.ts runs over the database bus.
import { REDIS_URL } from '../kit/redis';
import { suffix } from '../kit';
import { describeTwoInstances } from '../live/two-instances';

describeTwoInstances('Redis pub/sub', { REDIS_URL, REDIS_KEY_PREFIX: `test-live-${suffix()}:` });
