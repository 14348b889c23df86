import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; raw: string };

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps what it receives.
 * `stop()` and `start()` take it down and up on the same port, as a mail relay that goes away.
 */
export async function startSmtpServer(): Promise<{
  url: string;
  mails: ReceivedMail[];
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
  let server = make();
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as AddressInfo).port;
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    stop,
    async start() {
      server = make();
      server.listen(port, '127.0.0.1');
      await once(server.server, 'listening');
    },
    close: stop,
  };
}

/** The body of a received mail with quoted-printable soft breaks and escapes undone (enough to find a link). */
export function mailText(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
