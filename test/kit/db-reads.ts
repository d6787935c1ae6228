// Which database ran a service's reads: db_reads_total by target ("primary", "replica1", ...) from
// its /metrics, as the service counts them (src/db/replicas.ts).
export type ReadCounts = Record<string, number>;

export async function readsByTarget(baseUrl: string, metricsToken: string): Promise<ReadCounts> {
  const res = await fetch(`${baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
    signal: AbortSignal.timeout(5000),
  });
  if (res.status !== 200) throw new Error(`${baseUrl}/metrics answered ${res.status}`);
  const out: ReadCounts = {};
  for (const m of (await res.text()).matchAll(/^db_reads_total\{target="([^"]+)"\} (\d+)/gm)) out[m[1]] = Number(m[2]);
  return out;
}

/** The reads on `target` between two counts. */
export const readsSince = (before: ReadCounts, after: ReadCounts, target: string): number => (after[target] ?? 0) - (before[target] ?? 0);
