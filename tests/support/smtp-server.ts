/**
 * A real SMTP server in the test process (smtp-server), keeping every message it accepts as parsed
 * mail (mailparser). It can be told to refuse recipients, as a full mailbox or a broken relay would.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtpServer {
  url: string;
  messages: ParsedMail[];
  /** Each accepted message's size as it came over the wire, in bytes, in the order of `messages`. */
  sizes: number[];
  /** While true, every recipient is refused with a temporary 451. */
  refusing: boolean;
  stop(): Promise<void>;
}

/** Listens on `port`, or on one the system chooses. */
export async function startSmtpServer(port?: number): Promise<TestSmtpServer> {
  const state: TestSmtpServer = {
    url: '',
    messages: [],
    sizes: [],
    refusing: false,
    stop: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refusing) {
        const error = Object.assign(new Error('Mailbox temporarily unavailable'), {
          responseCode: 451,
        });
        return callback(error);
      }
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((mail) => {
            state.messages.push(mail);
            state.sizes.push(raw.length);
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port ?? 0, '127.0.0.1', resolve));
  state.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  state.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
