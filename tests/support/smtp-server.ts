/**
 * A real SMTP server in the test process (smtp-server), keeping every message it accepts as parsed
 * mail (mailparser). It can be told to refuse recipients, as a full mailbox or a broken relay would.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './portal';

export interface TestSmtpServer {
  url: string;
  messages: ParsedMail[];
  /** While true, every recipient is refused with a temporary 451. */
  refusing: boolean;
  stop(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const port = await freePort();
  const state: TestSmtpServer = { url: `smtp://127.0.0.1:${port}`, messages: [], refusing: false, stop: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refusing) {
        const error = Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 });
        return callback(error);
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          state.messages.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
