// How much a 25 MB multipart upload raises the service's resident memory, over several fresh
// processes (one process gives one noisy figure: when the collector runs decides much of it).
// Each process: start the compiled service against `pronet_bench_small`, sign in, one 3 MB
// warm-up upload, then the peak RSS (VmHWM, reset first) over a 25 MB upload against the RSS
// just before it, as `npm run bench` measures it, and the CPU the service spent on it. With
// UPLOAD_RSS_TRACE=1 it also samples the service's RSS and /metrics (V8 heap used, external
// memory) every 50 ms during the upload.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/upload-rss.js [processes]
//
// Environment: FOCUS_SERVER (the server.js to start, default this build's), UPLOAD_RSS_TRACE,
// UPLOAD_RSS_VIA=graphql (the upload as a GraphQL multipart request instead of the REST route),
// UPLOAD_RSS_NODE_FLAGS (more flags for the service, e.g. --trace-gc: its output goes to stderr).
import http from 'node:http';
import path from 'node:path';
import { cpuMs, databaseUrl, metricsText, peakRssMb, resetPeakRss, rssMb, spawnServer, sumOf, SERVICE_NODE_FLAGS } from './harness';
import { benchServiceEnv, signIn } from './scenarios';

const MB = 1024 * 1024;

const GRAPHQL_UPLOAD = 'mutation benchUpload($file: Upload!) { uploadSmartFile(file: $file) { tempFilename bytes md5 } }';

/** The file's first bytes, the magic that makes it a PDF; the rest is spaces. */
const PDF_PREFIX = '%PDF-1.4\n';

/**
 * A multipart upload of a PDF-looking file, to the REST route or, with `via` graphql, as a GraphQL
 * multipart request: its path and headers but the length, and the bytes before the file's content
 * (ending with the file's first bytes, PDF_PREFIX) and after it.
 */
export function uploadParts(token: string, via: 'rest' | 'graphql' = 'rest') {
  const boundary = '----pronetbench';
  const graphqlParts = [
    `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: GRAPHQL_UPLOAD, variables: { file: null } })}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n${JSON.stringify({ 0: ['variables.file'] })}\r\n`,
  ];
  const head = Buffer.from(
    `${via === 'graphql' ? graphqlParts.join('') : ''}--${boundary}\r\nContent-Disposition: form-data; name="${via === 'graphql' ? '0' : 'file'}"; ` +
      `filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n${PDF_PREFIX}`,
  );
  return {
    path: via === 'graphql' ? '/graphql' : '/rest/smartlib/upload/file',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'x-service-authtoken': token,
      'apollo-require-preflight': 'true',
    },
    head,
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
  };
}

/** A whole multipart upload body of a `size`-byte file (a small one, held in memory). */
export function uploadBody(parts: ReturnType<typeof uploadParts>, size: number): Buffer {
  return Buffer.concat([parts.head, Buffer.alloc(size - PDF_PREFIX.length, 0x20), parts.tail]);
}

/** Streams the upload of a `size`-byte file from one reused 64 KiB block; answers the status. */
export function upload(port: number, token: string, size: number, via: 'rest' | 'graphql' = 'rest'): Promise<number> {
  return new Promise((resolve, reject) => {
    const { path: route, headers, head, tail } = uploadParts(token, via);
    const block = Buffer.alloc(64 * 1024, 0x20);
    const req = http.request(`http://127.0.0.1:${port}${route}`, {
      method: 'POST',
      headers: { ...headers, 'content-length': head.length + size - PDF_PREFIX.length + tail.length },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      // GraphQL answers 200 with errors: a failed upload must not pass as one.
      res.on('end', () => resolve(res.statusCode === 200 && body.includes('"errors"') ? 500 : res.statusCode!));
    });
    req.on('error', reject);
    req.write(head);
    let left = size - PDF_PREFIX.length;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(block.length, left);
        left -= n;
        if (!req.write(block.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

interface Sample {
  ms: number;
  rss: number;
  heapUsed: number;
  external: number;
}

/** RSS and the service's own memory figures every 50 ms until stopped. */
function sampler(pid: number, port: number) {
  const samples: Sample[] = [];
  const t0 = Date.now();
  let on = true;
  const loop = (async () => {
    while (on) {
      const text = await metricsText(port);
      samples.push({
        ms: Date.now() - t0,
        rss: rssMb(pid),
        heapUsed: sumOf(text, 'nodejs_heap_size_used_bytes') / MB,
        external: sumOf(text, 'nodejs_external_memory_bytes') / MB,
      });
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return async () => {
    on = false;
    await loop;
    return samples;
  };
}

async function main() {
  const processes = Number(process.argv[2] ?? 5);
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('usage: DATABASE_URL=postgres://... node dist/bench/upload-rss.js [processes]');
  const smallDatabase = databaseUrl(serverUrl, 'pronet_bench_small');
  const entry = process.env.FOCUS_SERVER ?? path.join(__dirname, '..', 'src', 'server.js');
  const trace = process.env.UPLOAD_RSS_TRACE === '1';
  const via = process.env.UPLOAD_RSS_VIA === 'graphql' ? 'graphql' : 'rest';
  const rises: number[] = [];
  for (let i = 0; i < processes; i++) {
    const server = await spawnServer(entry, { ...(await benchServiceEnv()), DATABASE_URL: smallDatabase }, '/readyz', [
      ...SERVICE_NODE_FLAGS,
      ...(process.env.UPLOAD_RSS_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    ]);
    const pid = server.child.pid!;
    try {
      const token = await signIn(`http://127.0.0.1:${server.port}`, 'olivia@demo.example', 'Demo-Passw0rd!');
      if ((await upload(server.port, token, 3 * MB, via)) !== 200) throw new Error('warm-up upload failed');
      await new Promise((r) => setTimeout(r, 1000));
      const before = rssMb(pid);
      resetPeakRss(pid);
      const stop = trace ? sampler(pid, server.port) : undefined;
      if (process.env.UPLOAD_RSS_NODE_FLAGS) console.error('--- 25 MB upload starts');
      const [started, cpu0] = [Date.now(), cpuMs(pid)];
      const status = await upload(server.port, token, 25 * MB, via);
      const [ms, cpu] = [Date.now() - started, cpuMs(pid) - cpu0];
      const peak = peakRssMb(pid);
      if (process.env.UPLOAD_RSS_NODE_FLAGS) console.error('--- 25 MB upload ended');
      const samples = await stop?.();
      const rise = Math.round((peak - before) * 10) / 10;
      rises.push(rise);
      console.log(`process ${i + 1}: status ${status}, ${ms} ms, service CPU ${cpu} ms, RSS ${before} -> peak ${peak} MB: +${rise} MB`);
      for (const s of samples ?? []) {
        console.log(`  ${s.ms} ms: RSS ${s.rss} MB, heap used ${s.heapUsed.toFixed(1)} MB, external ${s.external.toFixed(1)} MB`);
      }
    } finally {
      await server.stop();
    }
  }
  const sorted = [...rises].sort((a, b) => a - b);
  console.log(
    `rise over ${rises.length} processes: median ${sorted[Math.floor(sorted.length / 2)]} MB, min ${sorted[0]} MB, max ${sorted.at(-1)} MB`,
  );
}

// Run as a script; bench/run.ts imports upload() from here.
if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
