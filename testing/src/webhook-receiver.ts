import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One message as the receiver got it, with what the `standardwebhooks` package said of its signature. */
export type ReceivedWebhook = {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The parsed body when the signature verified with the secret the receiver was given; else null. */
  verified: { type: string; timestamp?: string; data?: any } | null;
  /** What the receiver answered. */
  status: number;
};

/** How the receiver answers each message: a status, or `hang` (never answers). */
export type Answer = number | 'hang';

/**
 * A webhook receiver on 127.0.0.1, verifying every message with the `standardwebhooks`
 * package (what any receiver that verifies Standard Webhooks runs). `answer` decides each
 * reply; by default 200.
 */
export async function startWebhookReceiver(
  options: { answer?: (message: ReceivedWebhook, n: number) => Answer; body?: string } = {},
) {
  let secret: string | null = null;
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      let verified: ReceivedWebhook['verified'] = null;
      try {
        if (secret) verified = new Webhook(secret).verify(body, headers) as ReceivedWebhook['verified'];
      } catch {
        verified = null;
      }
      const message: ReceivedWebhook = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        verified,
        status: 0,
      };
      const answer = options.answer?.(message, received.length) ?? 200;
      received.push(message);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      message.status = answer;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(options.body ?? (answer < 300 ? 'ok' : 'not now'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    /** The secret messages are verified with (answered once when the webhook is made). */
    useSecret(value: string) {
      secret = value;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
