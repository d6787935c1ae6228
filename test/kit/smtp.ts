// A real SMTP server on loopback (smtp-server) that keeps what it receives.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent, soft line breaks of quoted-printable removed. */
  raw: string;
}

export interface TestSmtp {
  url: string;
  /** The messages accepted (answered 250). */
  received: ReceivedMail[];
  /** The messages whose data arrived but that are never answered (see `hold`). */
  held: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * `reject` refuses recipients it returns true for, with SMTP status 550. `hold` is asked for each
 * message whose data has arrived (its number from 1): true keeps the message unanswered, as a
 * server that stalls before its 250 (the client's connection closing drops it).
 */
export async function startSmtp(
  reject: (address: string) => boolean = () => false,
  hold: (n: number) => boolean = () => false,
): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const held: ReceivedMail[] = [];
  let arrived = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (reject(address.address)) {
        const err: any = new Error('Mailbox unavailable');
        err.responseCode = 550;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8').replace(/=\r\n/g, ''),
        };
        if (hold(++arrived)) return void held.push(mail);
        received.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    held,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
