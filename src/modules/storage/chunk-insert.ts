// Writes one stored_blob_chunk row without copying its bytes.
//
// The pg driver builds every Bind message in a new buffer into which it copies each parameter:
// 1 MiB allocated per chunk written, garbage once sent but freed only when V8 next collects.
// Being external memory, it hardly hastens a collection: these copies alone raised the peak RSS
// of a 25 MB upload by 11-17 MB (bench/upload-rss.ts, the request's own buffers already
// released). Here the Bind message's own fields are written around the chunk and the chunk
// itself goes to the socket as it is, so nothing of its size is allocated. The chunk may be
// refilled once the insert has resolved: the server has read every byte of it by then.
//
// Only on the server driver and outside a transaction (a connection of the pool, as MikroORM
// itself takes one per statement there); the embedded database and statements inside a
// transaction (small generated content) take the ordinary driver path.
import type { EntityManager } from '@mikro-orm/core';
import { PostgreSqlConnection, type SqlEntityManager } from '@mikro-orm/postgresql';
import type { Duplex } from 'node:stream';
import { DatabaseError, type Connection, type Submittable } from 'pg';

const INSERT = 'insert into stored_blob_chunk (content_id, seq, data) values ($1, $2, $3)';
/** Text, text, binary: the content id and the position as text, the bytes as they are. */
const FORMATS = [0, 0, 1];
const NO_RESULT_FORMATS = Buffer.alloc(2);

/** What is used here of the driver's connection (its type declarations lag behind it). */
interface Wire {
  stream: Duplex;
  parse(query: { text: string }): void;
  execute(portal: object): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

/** The unnamed statement, parsed, bound and executed in one round trip, as the driver does for a parameterised query. */
class ChunkInsert implements Submittable {
  private settle?: (err: Error | null) => void;
  readonly done = new Promise<void>((resolve, reject) => {
    this.settle = (err) => {
      this.settle = undefined;
      if (err) reject(err);
      else resolve();
    };
  });

  constructor(
    private readonly contentId: string,
    private readonly seq: number,
    private readonly data: Buffer,
  ) {}

  submit(driverConnection: Connection): Error | null {
    const connection = driverConnection as unknown as Wire;
    const stream = connection.stream;
    if (!stream.writable) return new Error('Connection terminated');
    const texts = [Buffer.from(this.contentId), Buffer.from(String(this.seq))];
    // Bind: portal and statement unnamed, the format of each parameter, the parameters
    // (length, bytes), no result format codes; its length counts itself and everything after it.
    const before = 4 + 1 + 1 + 2 + 2 * FORMATS.length + 2 + texts.reduce((n, t) => n + 4 + t.length, 0) + 4;
    const head = Buffer.alloc(1 + before);
    let at = head.writeUInt8(0x42 /* B */, 0);
    at = head.writeInt32BE(before + this.data.length + 2, at);
    at += 2; // the two empty names
    at = head.writeInt16BE(FORMATS.length, at);
    for (const f of FORMATS) at = head.writeInt16BE(f, at);
    at = head.writeInt16BE(FORMATS.length, at);
    for (const t of texts) {
      at = head.writeInt32BE(t.length, at);
      at += t.copy(head, at);
    }
    head.writeInt32BE(this.data.length, at);
    // One write to the socket for the whole exchange, as the driver's own queries do.
    stream.cork();
    try {
      connection.parse({ text: INSERT });
      stream.write(head);
      stream.write(this.data);
      stream.write(NO_RESULT_FORMATS);
      connection.execute({});
      connection.sync();
    } finally {
      stream.uncork();
    }
    return null;
  }

  // The driver calls these as the server answers. An error is final (the driver stops routing
  // messages to the query); otherwise ReadyForQuery ends it.
  handleError(err: Error): void {
    this.settle?.(err);
  }
  handleReadyForQuery(): void {
    this.settle?.(null);
  }
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: Connection): void {
    (connection as unknown as Wire).sendCopyFail('not a copy');
  }
  handleCopyData(): void {}
}

/**
 * The pool of the server driver when `em` is outside a transaction (the chunk can go without
 * copying), otherwise undefined.
 */
export function zeroCopyPool(em: EntityManager) {
  const connection = (em as unknown as SqlEntityManager).getConnection('write');
  return connection instanceof PostgreSqlConnection && !em.getTransactionContext() ? connection : undefined;
}

/** Inserts a chunk on a connection of the pool; `data` is not copied and must stay unchanged until this resolves. */
export async function insertChunkUncopied(connection: PostgreSqlConnection, contentId: string, seq: number, data: Buffer): Promise<void> {
  const client = await (await connection.getNativeClient()).connect();
  let failure: unknown;
  try {
    const insert = new ChunkInsert(contentId, seq, data);
    client.query(insert);
    await insert.done;
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    // A server's error leaves the connection usable; any other (socket closed, reset) does not.
    client.release(failure !== undefined && !(failure instanceof DatabaseError));
  }
}
