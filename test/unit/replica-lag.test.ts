import { lagBehind } from '../../src/db/replicas';

// The primary's WAL position at three checks 200 ms apart.
const history = [
  { at: 1_000, lsn: 100n },
  { at: 1_200, lsn: 150n },
  { at: 1_400, lsn: 180n },
];

describe('lagBehind: how far behind a replica is, from the checks of the primary', () => {
  it('when the replica has replayed what the primary held at the last check, then it is 0', () => {
    expect(lagBehind(history, 180n, 1_500)).toBe(0);
    expect(lagBehind(history, 200n, 1_500)).toBe(0);
  });

  it('when the primary went past the replay position between two checks, then it counts from the earlier check', () => {
    // The primary was at 100 at 1,000 ms and past 120 at 1,200 ms: the replica misses WAL written
    // at some moment in between, so it lags at least 400 ms at 1,600 ms and at most 600 ms.
    expect(lagBehind(history, 120n, 1_600)).toBe(600);
    expect(lagBehind(history, 150n, 1_600)).toBe(400);
  });

  it('when even the oldest check saw the primary past the replay position, then it counts from that check', () => {
    expect(lagBehind(history, 50n, 1_600)).toBe(600);
  });

  it('never reports less than the real lag, wherever between two checks the primary went past', () => {
    for (let wroteAt = 1_001; wroteAt <= 1_200; wroteAt += 17) {
      const real = 1_650 - wroteAt;
      expect(lagBehind(history, 120n, 1_650)).toBeGreaterThanOrEqual(real);
      expect(lagBehind(history, 120n, 1_650) - real).toBeLessThan(200);
    }
  });
});
